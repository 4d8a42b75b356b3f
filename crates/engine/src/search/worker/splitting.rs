//! Work splitting (Young Brothers Wait): once the main thread has searched the first move of a
//! node without a cut-off, it shares the node's remaining moves with the idle helper threads
//! and searches them together with them. PV nodes are shared from depth 3, other nodes from
//! depth 4. The shared node itself is a [`SplitPoint`](crate::search::split_point).
//!
//! Why not Lazy SMP (threads that share only the table): in this game's flat positions, where
//! a dozen moves score within a few centipawns, the helpers' results made the main thread's
//! principal variation wander, and two threads searched up to three times the nodes of one to
//! the same depth. Splitting divides the one-thread tree instead, and reaches a depth sooner
//! (measured: see `docs/results/search.md`, "Threads").
//!
//! Only the main thread opens split points, at most one per ply, in storage allocated with the
//! threads (`Searcher::set_threads`), so a search allocates nothing for them; helpers never
//! split. Late move pruning acts at non-PV nodes of depth `LateMoveDepth` (4) or less, and
//! non-PV nodes are shared from depth 4 on. A shared node of depth 4 so searches the moves one thread would have pruned there (the split
//! point hands out every remaining move with its reduction): more nodes, and a result that may
//! differ where a pruned move would have raised alpha.
//!
//! The two split depths are constants, not development options: they decide which nodes the
//! threads share, so they change the time to depth and, through the pruning above, the
//! multi-threaded tree; tuning games run one thread, where they do nothing. They were chosen by
//! time to depth, the measure of speed, and the non-PV depth in games too
//! (`SPLIT_MIN_DEPTH_NON_PV`).

use super::Worker;
use crate::search::node::{Node, Unwind};
use crate::search::split_point::{SplitResult, Watch};
use lielow_rules::moves::Move;
use lielow_rules::position::Position;

/// The shallowest PV node the main thread shares (depth 3 measured faster than 2, 4 and 5).
const SPLIT_MIN_DEPTH: i32 = 3;
/// The shallowest other node the main thread shares. A shared node hands out its moves with
/// their reductions only, never pruning, so a shared node of depth 4 searches what one thread
/// would prune there (the module doc). 5 reaches a depth sooner but did not play better; the
/// moves a shared depth-4 node keeps seem to be worth their nodes (measured: see
/// `docs/results/search.md`, "Threads").
const SPLIT_MIN_DEPTH_NON_PV: i32 = 4;

impl Worker<'_> {
    /// Whether the main thread should share the rest of `node` with `remaining` moves left.
    #[inline]
    pub(super) fn can_split(&self, node: Node, remaining: usize) -> bool {
        let min_depth = if node.is_pv() {
            SPLIT_MIN_DEPTH
        } else {
            SPLIT_MIN_DEPTH_NON_PV
        };
        self.main.is_some()
            && node.depth >= min_depth
            && remaining >= 2
            && self.shared.has_idle_helper()
    }

    /// Main thread: searches the moves `from..` of `node` together with the idle helpers.
    /// `best_score` and `best_move` are what the moves before `from` gave (`node.alpha` already
    /// raised by them), and the node's principal variation row holds the line of `best_move`.
    pub(super) fn split(
        &mut self,
        position: &Position,
        node: Node,
        in_danger: bool,
        from: usize,
        best_score: i32,
        best_move: Option<Move>,
    ) -> SplitResult {
        let ply = node.ply;
        let count = self.ordering.len(ply);
        for index in from..count {
            self.ordering.pick(ply, index);
        }
        let shared = self.shared;
        let split_point = &shared.splits()[ply];
        let moves = (from..count).map(|index| {
            let mv = self.ordering.move_at(ply, index);
            (
                mv,
                self.late_move_reduction(position, node, index, mv, in_danger),
            )
        });
        let best = SplitResult {
            best_score,
            best_move,
            alpha: node.alpha,
        };
        split_point.open(position, node, moves, best, self.pv.line(ply));
        let outer = shared.set_active_split(Some(ply));
        self.watching.push(Watch { ply, index: None });
        self.work_at(ply);
        split_point.close();
        shared.set_active_split(outer);
        if self.unwinding() {
            // The search is over or an outer node was cut off: the helpers' work is moot.
            split_point.cut_off();
        }
        while split_point.helpers() > 0 {
            std::thread::yield_now();
        }
        self.watching.pop();
        let (result, line) = split_point.result();
        if self.unwind == Some(Unwind::SplitDone) && result.best_score >= node.beta {
            // This node's own cut-off interrupted the main thread's move: not a stop.
            self.unwind = None;
        }
        self.pv.set_line(ply, &line);
        result
    }

    /// Claims and searches moves of the split point at `ply` until none is left, the node is
    /// cut off, or this thread must unwind. The caller has pushed the node on `watching`.
    fn work_at(&mut self, ply: usize) {
        let shared = self.shared;
        let split_point = &shared.splits()[ply];
        while let Some(claim) = split_point.claim() {
            if self.main.is_none() {
                // A helper's accumulators hold another line: start this one afresh.
                self.refresh(&claim.position, ply);
                // The line above the split point is another thread's.
                self.played[..ply].fill(None);
                self.evals[..=ply].fill(None);
            }
            self.set_watched_move(Some(claim.index));
            self.report_root_move(ply, claim.index, claim.mv);
            let score = self.search_later_move(
                &claim.position,
                claim.mv,
                claim.node,
                claim.reduction,
                || split_point.alpha(),
            );
            self.set_watched_move(None);
            if self.unwinding() {
                split_point.abandon(claim.index);
                let finished_elsewhere = split_point.is_finished(claim.index);
                if self.unwind == Some(Unwind::SearchOver)
                    || split_point.is_cut_off()
                    || !finished_elsewhere
                {
                    return;
                }
                // Another thread finished this move first: on to the next.
                self.unwind = None;
                continue;
            }
            split_point.record(claim.index, score, self.pv.line(ply + 1));
        }
    }

    fn set_watched_move(&mut self, index: Option<usize>) {
        if let Some(watch) = self.watching.last_mut() {
            watch.index = index;
        }
    }

    /// Helper thread: joins split points until the search ends.
    pub fn help(&mut self) {
        let shared = self.shared;
        shared.set_idle(true);
        while !shared.is_over() {
            let Some(ply) = shared.active_split() else {
                std::thread::yield_now();
                continue;
            };
            if !shared.splits()[ply].join() {
                std::thread::yield_now();
                continue;
            }
            shared.set_idle(false);
            self.watching.push(Watch { ply, index: None });
            self.work_at(ply);
            self.watching.pop();
            shared.splits()[ply].leave();
            shared.set_idle(true);
            if self.unwind == Some(Unwind::SearchOver) {
                break;
            }
            // Unwound by the node's cut-off: ready for the next split point.
            self.unwind = None;
        }
        shared.set_idle(false);
    }
}
