//! A split point: one node whose remaining moves several threads search together, as plain
//! data under a mutex. What the threads do with it is `worker/splitting.rs`.
//!
//! Protocol, all of it under the mutex:
//! - the main thread fills it (the node, its window, its remaining moves in order with their
//!   late-move reductions) and opens it;
//! - any thread claims the next move, searches it with the alpha it read when claiming, and
//!   records the result; a move that reaches beta raises `cutoff`;
//! - with no move left to claim, a thread searches along with one whose move is not done (they
//!   share the table); the first result recorded counts, and `finished` tells the others;
//! - the main thread closes it, waits for the helpers inside to leave, and only then reads the
//!   result, so the memory can be reused.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard};

use arrayvec::ArrayVec;

use super::node::{Node, MAX_PLY};
use lielow_rules::board::BoardSize;
use lielow_rules::movegen::{MoveList, MAX_MOVES};
use lielow_rules::moves::Move;
use lielow_rules::position::Position;

/// Largest accepted `Threads`.
pub const MAX_THREADS: usize = 256;

/// One node whose remaining moves several threads search.
pub struct SplitPoint {
    state: Mutex<SplitState>,
    /// Raised when a move reached beta, or when the main thread unwinds through the node: every
    /// thread searching a move of it stops.
    cutoff: AtomicBool,
    /// `finished[i]`: move i has its result, so other threads searching it stop.
    finished: Vec<AtomicBool>,
}

struct SplitState {
    /// Whether helpers may still join.
    open: bool,
    position: Position,
    /// The node; its `alpha` rises as results come in.
    node: Node,
    /// The moves left to search, best first, and the reduction each is first searched with.
    moves: MoveList,
    reductions: ArrayVec<i8, MAX_MOVES>,
    /// Index into `moves` of the next move to claim.
    next: usize,
    best: SplitResult,
    /// The principal variation from the node: the best move, then its line.
    pv: ArrayVec<Move, { MAX_PLY + 1 }>,
    /// Helpers searching moves of this node.
    helpers: usize,
    /// Moves claimed and not yet finished: (index into `moves`, threads searching it).
    running: ArrayVec<(usize, usize), MAX_THREADS>,
}

/// A claimed move and what a thread needs to search it.
pub struct Claim {
    /// Index of the move in the split point.
    pub index: usize,
    pub position: Position,
    /// The split node, with the alpha when the move was claimed.
    pub node: Node,
    pub mv: Move,
    pub reduction: i32,
}

/// The node's result: the best score and move, and the alpha it raised.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SplitResult {
    pub best_score: i32,
    pub best_move: Option<Move>,
    pub alpha: i32,
}

impl SplitPoint {
    fn new() -> SplitPoint {
        let empty = Node::root(0, 0, 0);
        SplitPoint {
            state: Mutex::new(SplitState {
                open: false,
                position: Position::start(BoardSize::Eight),
                node: empty,
                moves: MoveList::new(),
                reductions: ArrayVec::new(),
                next: 0,
                best: SplitResult {
                    best_score: 0,
                    best_move: None,
                    alpha: 0,
                },
                pv: ArrayVec::new(),
                helpers: 0,
                running: ArrayVec::new(),
            }),
            cutoff: AtomicBool::new(false),
            finished: (0..MAX_MOVES).map(|_| AtomicBool::new(false)).collect(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, SplitState> {
        // A thread that panicked while holding the lock left a consistent state (every update
        // is a few plain assignments), so the poison is ignored.
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Main thread: fills the split point with the node, its remaining `moves` and their
    /// reductions, what the moves before gave (`best`, with `pv` its line), and opens it.
    pub fn open(
        &self,
        position: &Position,
        node: Node,
        moves: impl Iterator<Item = (Move, i32)>,
        best: SplitResult,
        pv: impl Iterator<Item = Move>,
    ) {
        let mut state = self.lock();
        // The last user of this split point waited for its helpers to leave.
        debug_assert_eq!(state.helpers, 0);
        state.position = *position;
        state.node = node;
        state.moves.clear();
        state.reductions.clear();
        for (index, (mv, reduction)) in moves.enumerate() {
            self.finished[index].store(false, Ordering::Relaxed);
            state.moves.push(mv);
            state.reductions.push(reduction as i8);
        }
        state.next = 0;
        state.best = best;
        state.pv.clear();
        if best.best_move.is_some() {
            state.pv.extend(pv.take(MAX_PLY));
        }
        state.running.clear();
        state.open = true;
        self.cutoff.store(false, Ordering::Relaxed);
    }

    /// Main thread: no helper may join any more.
    pub fn close(&self) {
        self.lock().open = false;
    }

    /// Claims the next move to search, with the window to search it in. With none left, a
    /// move other threads are still searching, the one with the fewest searchers: two threads
    /// on one subtree share what they store in the table, and waiting would share nothing.
    pub fn claim(&self) -> Option<Claim> {
        let mut state = self.lock();
        if self.is_cut_off() {
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
        Some(Claim {
            index,
            position: state.position,
            node: Node {
                alpha: state.best.alpha,
                ..state.node
            },
            mv: state.moves[index],
            reduction: i32::from(state.reductions[index]),
        })
    }

    /// Records the score of a searched move, with the line that follows it. The first thread to
    /// finish a move gives its result; the others are told to stop.
    pub fn record(&self, index: usize, score: i32, line: impl Iterator<Item = Move>) {
        let mut state = self.lock();
        if self.finished[index].swap(true, Ordering::Relaxed) {
            return;
        }
        state.running.retain(|(running, _)| *running != index);
        if score <= state.best.best_score {
            return;
        }
        state.best.best_score = score;
        if score > state.best.alpha {
            let mv = state.moves[index];
            state.best.alpha = score;
            state.best.best_move = Some(mv);
            state.pv.clear();
            state.pv.push(mv);
            state.pv.extend(line.take(MAX_PLY));
            if score >= state.node.beta {
                self.cutoff.store(true, Ordering::Relaxed);
            }
        }
    }

    /// A thread stopped searching move `index` before the end.
    pub fn abandon(&self, index: usize) {
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
    pub fn alpha(&self) -> i32 {
        self.lock().best.alpha
    }

    /// A helper enters, if there is still a move to claim or to search along.
    pub fn join(&self) -> bool {
        let mut state = self.lock();
        let joinable = state.open
            && (state.next < state.moves.len() || !state.running.is_empty())
            && !self.is_cut_off();
        if joinable {
            state.helpers += 1;
        }
        joinable
    }

    /// A helper leaves.
    pub fn leave(&self) {
        self.lock().helpers -= 1;
    }

    /// Helpers still inside.
    pub fn helpers(&self) -> usize {
        self.lock().helpers
    }

    /// Makes every thread under the node unwind.
    pub fn cut_off(&self) {
        self.cutoff.store(true, Ordering::Relaxed);
    }

    #[inline]
    pub fn is_cut_off(&self) -> bool {
        self.cutoff.load(Ordering::Relaxed)
    }

    /// Whether move `index` has its result.
    #[inline]
    pub fn is_finished(&self, index: usize) -> bool {
        self.finished[index].load(Ordering::Relaxed)
    }

    /// Main thread, once every helper has left: the result and its line.
    pub fn result(&self) -> (SplitResult, ArrayVec<Move, { MAX_PLY + 1 }>) {
        let state = self.lock();
        (state.best, state.pv.clone())
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
        split_point.is_cut_off() || self.index.is_some_and(|i| split_point.is_finished(i))
    }
}

/// The split points a thread searches under, innermost last.
pub type Watched = ArrayVec<Watch, { MAX_PLY + 1 }>;

/// One split point per ply, for the main thread's open nodes.
pub fn split_points() -> Vec<SplitPoint> {
    (0..=MAX_PLY).map(|_| SplitPoint::new()).collect()
}
