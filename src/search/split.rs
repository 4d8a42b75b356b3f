//! Work splitting (Young Brothers Wait): once the main thread has searched the first move of a
//! node without a cut-off, it shares the node's remaining moves with the idle helper threads
//! and searches them together with them. PV nodes are shared from depth 3, other nodes from
//! depth 4.
//!
//! Why not Lazy SMP (threads that share only the table, which this engine used before): in
//! this game's flat positions, where a dozen moves score within a few centipawns, the helpers'
//! results made the main thread's principal variation wander, and two threads searched up to
//! three times the nodes of one to the same depth. Splitting divides the one-thread tree
//! instead. Measured side by side (`examples/time_to_depth.rs`, depth 12, warm-up 8, medians
//! of 5, two rounds): 1.44 and 1.58 times faster to depth with 2 threads (sum of the
//! per-position medians), against 1.15 and 1.27 for Lazy SMP.
//!
//! Protocol, all of it under the split point's mutex:
//! - the main thread fills a split point (the node, its window, its remaining moves in order
//!   with their late-move reductions) and opens it; `Shared::active_split` tells idle helpers
//!   where it is;
//! - any thread claims the next move, searches it with the alpha it read when claiming, and
//!   records the result; a move that reaches beta raises `cutoff`, which makes every thread
//!   searching under the node unwind (checked every `CHECK_INTERVAL` nodes);
//! - a thread with no move left to claim searches along with a thread whose move is not done
//!   (they share the table) rather than wait; the first result recorded wins and the other
//!   search is stopped through `finished`;
//! - when nothing is left the main thread closes the split point and waits for the helpers
//!   inside to leave, so the split point's memory can be reused; only then does it read the
//!   result.
//!
//! Only the main thread opens split points, at most one per ply, in storage allocated with the
//! threads (`Searcher::set_threads`), so a search allocates nothing for them; helpers never
//! split. Shared nodes are never pruned: late move pruning and futility pruning act at non-PV
//! nodes of depth 3 or less.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard};

use arrayvec::ArrayVec;

use super::ordering::MAX_PLY;
use super::worker::Worker;
use super::MAX_THREADS;
use crate::board::BoardSize;
use crate::movegen::{MoveList, MAX_MOVES};
use crate::moves::Move;
use crate::position::Position;

/// The shallowest PV node the main thread shares (depth 3 measured faster than 2, 4 and 5).
pub const SPLIT_MIN_DEPTH: i32 = 3;
/// The shallowest other node the main thread shares: late move pruning and futility pruning
/// act at depths up to 3, so a shared node never prunes and its moves need only their
/// reduction. (Sharing only PV nodes measured slower.)
pub const SPLIT_MIN_DEPTH_NON_PV: i32 = 4;

/// One node whose remaining moves several threads search.
pub struct SplitPoint {
    state: Mutex<SplitState>,
    /// Raised when a move reached beta, or when the main thread unwinds through the node: every
    /// thread searching a move of it stops.
    pub cutoff: AtomicBool,
    /// `finished[i]`: move i of `moves` has its result, so other threads searching it stop.
    pub finished: Vec<AtomicBool>,
}

struct SplitState {
    /// Whether helpers may still join.
    open: bool,
    position: Position,
    depth: i32,
    beta: i32,
    pv_node: bool,
    /// The moves left to search, best first, and the reduction each is first searched with.
    moves: MoveList,
    reductions: ArrayVec<i8, MAX_MOVES>,
    /// Index into `moves` of the next move to claim.
    next: usize,
    alpha: i32,
    best_score: i32,
    best_move: Option<Move>,
    /// The principal variation from the node: the best move, then its line.
    pv: ArrayVec<Move, { MAX_PLY + 1 }>,
    /// Helpers searching moves of this node.
    helpers: usize,
    /// Moves claimed and not yet finished: (index into `moves`, threads searching it).
    running: ArrayVec<(usize, usize), MAX_THREADS>,
}

impl Default for SplitState {
    fn default() -> Self {
        SplitState {
            open: false,
            position: Position::start(BoardSize::Eight),
            depth: 0,
            beta: 0,
            pv_node: false,
            moves: MoveList::new(),
            reductions: ArrayVec::new(),
            next: 0,
            alpha: 0,
            best_score: 0,
            best_move: None,
            pv: ArrayVec::new(),
            helpers: 0,
            running: ArrayVec::new(),
        }
    }
}

/// What a thread needs to search one claimed move.
struct Job {
    index: usize,
    position: Position,
    depth: i32,
    beta: i32,
    pv_node: bool,
    alpha: i32,
    mv: Move,
    reduction: i32,
}

/// The node's result once every thread has left it.
pub struct SplitResult {
    pub best_score: i32,
    pub best_move: Option<Move>,
    pub alpha: i32,
}

impl SplitPoint {
    fn lock(&self) -> MutexGuard<'_, SplitState> {
        // A thread that panicked while holding the lock left a consistent state (every update
        // is a few plain assignments), so the poison is ignored.
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn new() -> SplitPoint {
        SplitPoint {
            state: Mutex::default(),
            cutoff: AtomicBool::new(false),
            finished: (0..MAX_MOVES).map(|_| AtomicBool::new(false)).collect(),
        }
    }

    /// Claims the next move to search, with the window to search it in. With none left, a
    /// move other threads are still searching, the one with the fewest searchers: two threads
    /// on one subtree share what they store in the table, and waiting would share nothing.
    fn claim(&self) -> Option<Job> {
        let mut state = self.lock();
        if self.cutoff.load(Ordering::Relaxed) {
            return None;
        }
        let index = if state.next < state.moves.len() {
            let index = state.next;
            state.next += 1;
            state.running.push((index, 1));
            index
        } else {
            let (index, searchers) = state.running.iter_mut().min_by_key(|(_, n)| *n)?;
            *searchers += 1;
            *index
        };
        Some(Job {
            index,
            position: state.position,
            depth: state.depth,
            beta: state.beta,
            pv_node: state.pv_node,
            alpha: state.alpha,
            mv: state.moves[index],
            reduction: i32::from(state.reductions[index]),
        })
    }

    /// Records the score of a searched move, with the line that follows it. The first thread to
    /// finish a move gives its result; the others are told to stop.
    fn record(&self, index: usize, score: i32, line: impl Iterator<Item = Move>) {
        let mut state = self.lock();
        if self.finished[index].swap(true, Ordering::Relaxed) {
            return;
        }
        state.running.retain(|(running, _)| *running != index);
        if score <= state.best_score {
            return;
        }
        state.best_score = score;
        if score > state.alpha {
            let mv = state.moves[index];
            state.alpha = score;
            state.best_move = Some(mv);
            state.pv.clear();
            state.pv.push(mv);
            state.pv.extend(line.take(MAX_PLY));
            if score >= state.beta {
                self.cutoff.store(true, Ordering::Relaxed);
            }
        }
    }

    /// A thread stopped searching move `index` before the end.
    fn abandon(&self, index: usize) {
        let mut state = self.lock();
        if let Some(running) = state.running.iter_mut().find(|(i, _)| *i == index) {
            running.1 -= 1;
            if running.1 == 0 {
                // Nobody searches it any more; only happens when the node is being left.
                state.running.retain(|(i, _)| *i != index);
            }
        }
    }

    /// The current alpha: a thread about to re-search with a full window uses the latest.
    fn alpha(&self) -> i32 {
        self.lock().alpha
    }

    /// A helper enters, if there is still a move to claim or to search along.
    fn join(&self) -> bool {
        let mut state = self.lock();
        let joinable = state.open
            && (state.next < state.moves.len() || !state.running.is_empty())
            && !self.cutoff.load(Ordering::Relaxed);
        if joinable {
            state.helpers += 1;
        }
        joinable
    }

    fn leave(&self) {
        self.lock().helpers -= 1;
    }
}

impl Worker<'_> {
    /// Whether the main thread should share the rest of a node with `remaining` moves left.
    #[inline]
    pub fn can_split(&self, pv_node: bool, depth: i32, remaining: usize) -> bool {
        let min_depth = if pv_node {
            SPLIT_MIN_DEPTH
        } else {
            SPLIT_MIN_DEPTH_NON_PV
        };
        self.is_main
            && depth >= min_depth
            && remaining >= 2
            && self.shared.idle_helpers.load(Ordering::Relaxed) > 0
    }

    /// Main thread: searches the moves `from..` of the node at `ply` together with the idle
    /// helpers. `alpha`, `best_score` and `best_move` are what the moves before `from` gave, and
    /// the node's principal variation row holds the line of `best_move`.
    #[allow(clippy::too_many_arguments)]
    pub fn split(
        &mut self,
        position: &Position,
        ply: usize,
        depth: i32,
        alpha: i32,
        beta: i32,
        pv_node: bool,
        in_danger: bool,
        from: usize,
        best_score: i32,
        best_move: Option<Move>,
    ) -> SplitResult {
        let count = self.stacks.lists[ply].len();
        for index in from..count {
            self.stacks.pick(ply, index);
        }
        let shared = self.shared;
        let split_point = &shared.splits[ply];
        {
            let mut state = split_point.lock();
            state.position = *position;
            state.depth = depth;
            state.beta = beta;
            state.pv_node = pv_node;
            state.moves.clear();
            state.reductions.clear();
            for index in from..count {
                split_point.finished[index - from].store(false, Ordering::Relaxed);
                let mv = self.stacks.lists[ply][index];
                let reduction =
                    self.late_move_reduction(position, ply, depth, index, mv, pv_node, in_danger);
                state.moves.push(mv);
                state.reductions.push(reduction as i8);
            }
            state.next = 0;
            state.alpha = alpha;
            state.best_score = best_score;
            state.best_move = best_move;
            state.pv.clear();
            if best_move.is_some() {
                state.pv.extend(self.stacks.line(ply));
            }
            // The last user of this split point waited for its helpers to leave.
            debug_assert_eq!(state.helpers, 0);
            state.running.clear();
            state.open = true;
            split_point.cutoff.store(false, Ordering::Relaxed);
        }
        let outer = self.shared.active_split.swap(ply + 1, Ordering::AcqRel);
        self.watching.push(Watch { ply, index: None });
        self.work_at(ply);
        split_point.lock().open = false;
        self.shared.active_split.store(outer, Ordering::Release);
        if self.stopped {
            // The search is over or an outer node was cut off: the helpers' work is moot.
            split_point.cutoff.store(true, Ordering::Relaxed);
        }
        while split_point.lock().helpers > 0 {
            std::thread::yield_now();
        }
        self.watching.pop();
        let state = split_point.lock();
        if self.stopped && !self.halted && state.best_score >= beta {
            // This node's own cut-off interrupted the main thread's move: not a stop.
            self.stopped = false;
        }
        self.stacks.set_line(ply, &state.pv);
        SplitResult {
            best_score: state.best_score,
            best_move: state.best_move,
            alpha: state.alpha,
        }
    }

    /// Claims and searches moves of the split point at `ply` until none is left, the node is
    /// cut off, or this thread must unwind. The caller has pushed the node on `watching`.
    fn work_at(&mut self, ply: usize) {
        let shared = self.shared;
        let split_point = &shared.splits[ply];
        while let Some(job) = split_point.claim() {
            self.set_watched_move(Some(job.index));
            let score = self.search_later_move(
                &job.position,
                job.mv,
                job.depth,
                job.alpha,
                job.beta,
                ply,
                job.reduction,
                job.pv_node,
                || split_point.alpha(),
            );
            self.set_watched_move(None);
            if self.stopped {
                split_point.abandon(job.index);
                let finished_elsewhere = split_point.finished[job.index].load(Ordering::Relaxed);
                if self.halted || split_point.cutoff.load(Ordering::Relaxed) || !finished_elsewhere
                {
                    return;
                }
                // Another thread finished this move first: on to the next.
                self.stopped = false;
                continue;
            }
            split_point.record(job.index, score, self.stacks.line(ply + 1));
        }
    }

    fn set_watched_move(&mut self, index: Option<usize>) {
        if let Some(watch) = self.watching.last_mut() {
            watch.index = index;
        }
    }

    /// Helper thread: waits for split points to join until the search ends.
    pub fn help(&mut self) {
        let shared = self.shared;
        shared.idle_helpers.fetch_add(1, Ordering::AcqRel);
        loop {
            if shared.stop.load(Ordering::Relaxed) || shared.abort.load(Ordering::Relaxed) {
                break;
            }
            let active = shared.active_split.load(Ordering::Acquire);
            if active == 0 || !shared.splits[active - 1].join() {
                std::thread::yield_now();
                continue;
            }
            let ply = active - 1;
            shared.idle_helpers.fetch_sub(1, Ordering::AcqRel);
            self.watching.push(Watch { ply, index: None });
            self.work_at(ply);
            self.watching.pop();
            shared.splits[ply].leave();
            shared.idle_helpers.fetch_add(1, Ordering::AcqRel);
            if self.halted {
                break;
            }
            // Unwound by the node's cut-off: ready for the next split point.
            self.stopped = false;
        }
        shared.idle_helpers.fetch_sub(1, Ordering::AcqRel);
    }
}

/// A split point a thread searches under, and the move of it the thread searches, if any:
/// the thread stops when the node is cut off or another thread finishes that move.
#[derive(Clone, Copy)]
pub struct Watch {
    pub ply: usize,
    pub index: Option<usize>,
}

impl Watch {
    /// Whether the thread must unwind to this split point.
    #[inline]
    pub fn triggered(&self, splits: &[SplitPoint]) -> bool {
        let split_point = &splits[self.ply];
        split_point.cutoff.load(Ordering::Relaxed)
            || self
                .index
                .is_some_and(|index| split_point.finished[index].load(Ordering::Relaxed))
    }
}

/// The split points a thread searches under, innermost last.
pub type Watched = ArrayVec<Watch, { MAX_PLY + 1 }>;

/// One split point per ply, for the main thread's open nodes.
pub fn split_points() -> Vec<SplitPoint> {
    (0..=MAX_PLY).map(|_| SplitPoint::new()).collect()
}
