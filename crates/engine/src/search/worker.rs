//! One search thread: its state and what every node does first. The searches themselves are in
//! the files under `worker/`:
//!
//! - `iterate.rs`: the main thread's iterative deepening and aspiration windows;
//! - `negamax.rs`: the principal variation search of a node and its reductions and pruning;
//! - `quiescence.rs`: the capture search at the leaves, and what bounds it;
//! - `splitting.rs`: sharing a node's moves with other threads, and the helpers' loop.

mod iterate;
mod negamax;
mod quiescence;
mod splitting;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::node::{Node, Unwind, MAX_PLY};
use super::ordering::MoveOrdering;
use super::params::Params;
use super::pv::PvTable;
use super::reductions::Reductions;
use super::report::{CurrentMove, Report, Reporter, CURRENT_MOVE_AFTER};
use super::shared::Shared;
use super::skill::Skill;
use super::split_point::Watched;
use crate::eval;
use crate::nnue::{AccumulatorStack, Network};
use crate::score::Score;
use crate::time::{TimeBudget, CHECK_INTERVAL};
use crate::tt::{Bound, Entry, TranspositionTable};
use lielow_rules::attacks;
use lielow_rules::board::Side;
use lielow_rules::moves::Move;
use lielow_rules::position::Position;

/// One thread's memory, kept by the searcher between searches.
pub struct ThreadMemory {
    ordering: MoveOrdering,
    pv: PvTable,
    /// The network's hidden sums of the position at each ply of the current line.
    accumulators: AccumulatorStack,
    /// The late-move reductions for the search's `LMRBase` and `LMRDivisor`.
    reductions: Reductions,
}

impl Default for ThreadMemory {
    fn default() -> Self {
        ThreadMemory {
            ordering: MoveOrdering::default(),
            pv: PvTable::default(),
            accumulators: AccumulatorStack::new(MAX_PLY + 1),
            reductions: Reductions::default(),
        }
    }
}

impl ThreadMemory {
    /// The memory of another thread of the same searcher (which shares the history).
    pub fn sibling(&self) -> ThreadMemory {
        ThreadMemory {
            ordering: self.ordering.sharing_history(),
            pv: PvTable::new(),
            accumulators: AccumulatorStack::new(MAX_PLY + 1),
            reductions: Reductions::default(),
        }
    }

    /// Forgets what was learned (a new game).
    pub fn clear(&mut self) {
        self.ordering.clear();
    }
}

/// The main thread's own duties: it alone reads the clock and counts against the node limit.
#[derive(Clone, Copy)]
pub struct MainDuties {
    pub budget: TimeBudget,
    /// When the search began (for the reports).
    pub started: Instant,
    /// When the time budget began: the start, or the ponder hit of a `go ponder` search.
    pub clock_started: Instant,
    /// Total node budget (exact with one thread).
    pub node_limit: u64,
}

/// The state of one thread during one search.
pub struct Worker<'a> {
    ordering: &'a mut MoveOrdering,
    pv: &'a mut PvTable,
    /// The evaluation network; `None`: the hand-set evaluation.
    network: Option<&'a Network>,
    /// The network's sums of the position at each ply, computed where a score is read (kept
    /// only with a network).
    accumulators: &'a mut AccumulatorStack,
    reductions: &'a Reductions,
    tt: &'a TranspositionTable,
    shared: &'a Shared<'a>,
    params: Params,
    /// `Some` for the main thread.
    main: Option<MainDuties>,
    nodes: u64,
    /// The main thread's node limit, `u64::MAX` for helpers: read at every node, so kept
    /// apart from `main`.
    node_limit: u64,
    /// Set when the thread must return up its tree; see [`Unwind`].
    unwind: Option<Unwind>,
    /// The split points this thread searches moves of, whose cut-offs it watches.
    watching: Watched,
    seldepth: usize,
    /// The best move of the last finished iteration: searched first at the root whatever the
    /// table holds, so an unfinished iteration's best move is never worse than it.
    root_move: Option<Move>,
    /// `null_plies[ply]`: the move played at `ply` was a null move (no two in a row).
    null_plies: [bool; MAX_PLY + 1],
    /// `played[ply]`: the move this thread played at `ply` on its current line (`None`: a null
    /// move, or a ply above the split point this thread joined).
    played: [Option<Move>; MAX_PLY + 1],
    /// `evals[ply]`: the static evaluation at `ply` on the current line (`None`: the king was
    /// in danger, or unknown to this thread), for the improving flag.
    evals: [Option<i32>; MAX_PLY + 1],
    /// The root moves to search (`go searchmoves`); empty: all.
    root_moves: &'a [Move],
    /// `go mate N`: stop once a win in at most N moves is proven.
    mate_goal: Option<u32>,
    /// How many principal variations the main thread reports (`MultiPV`).
    multipv: usize,
    /// While a `go ponder` search has not had its ponder hit: the signal to watch for it.
    ponder_signal: Option<&'a AtomicBool>,
    /// Root moves left out of the MultiPV line being searched (the first moves of the lines
    /// before it).
    root_excluded: Vec<Move>,
    /// The main thread's reporting path (`None` for helpers).
    reporter: Option<&'a mut Reporter<'a>>,
    /// The depth of the main thread's iteration, for the root move reports.
    iteration_depth: u32,
    /// The strength handicap: which root line the main thread plays.
    skill: Skill,
}

/// How a node's search ended, for the table.
struct Outcome {
    best_score: i32,
    best_move: Option<Move>,
    alpha_on_entry: i32,
    alpha: i32,
    beta: i32,
}

impl Outcome {
    /// How the search of `node` ended: entered with `alpha_on_entry` (the node's alpha has
    /// risen since, if a move beat it), it found `best_score` with `best_move`.
    #[inline]
    fn at(node: &Node, alpha_on_entry: i32, best_score: i32, best_move: Option<Move>) -> Outcome {
        Outcome {
            best_score,
            best_move,
            alpha_on_entry,
            alpha: node.alpha,
            beta: node.beta,
        }
    }
}

impl<'a> Worker<'a> {
    pub fn new(
        memory: &'a mut ThreadMemory,
        network: Option<&'a Network>,
        tt: &'a TranspositionTable,
        shared: &'a Shared<'a>,
        params: Params,
        main: Option<MainDuties>,
    ) -> Worker<'a> {
        memory.ordering.use_continuation(params.cont_history);
        memory.reductions.prepare(&params);
        Worker {
            ordering: &mut memory.ordering,
            pv: &mut memory.pv,
            network,
            accumulators: &mut memory.accumulators,
            reductions: &memory.reductions,
            tt,
            shared,
            params,
            main,
            nodes: 0,
            node_limit: main.map_or(u64::MAX, |main| main.node_limit),
            unwind: None,
            watching: Watched::new(),
            seldepth: 0,
            root_move: None,
            null_plies: [false; MAX_PLY + 1],
            played: [None; MAX_PLY + 1],
            evals: [None; MAX_PLY + 1],
            root_moves: &[],
            mate_goal: None,
            multipv: 1,
            root_excluded: Vec::new(),
            ponder_signal: None,
            reporter: None,
            iteration_depth: 0,
            skill: Skill::default(),
        }
    }

    /// Main thread: where the search's reports go.
    pub fn report_to(&mut self, reporter: &'a mut Reporter<'a>) {
        self.reporter = Some(reporter);
    }

    /// Main thread: hands `report` to the reporting path.
    fn report(&mut self, report: Report) {
        if let Some(reporter) = self.reporter.as_mut() {
            reporter(report);
        }
    }

    /// Main thread, at the root: reports the move it starts on, the `index`-th of the
    /// iteration's order, once the search has run long enough for that to help the user.
    fn report_root_move(&mut self, ply: usize, index: usize, mv: Move) {
        let Some(main) = self.main else { return };
        if ply != 0 || main.started.elapsed() < CURRENT_MOVE_AFTER {
            return;
        }
        let number = (index + 1 + self.root_excluded.len()) as u32;
        self.report(Report::CurrentMove(CurrentMove {
            depth: self.iteration_depth,
            mv,
            number,
        }));
    }

    /// Main thread: the search ponders until `signal` is set; the time budget counts from then.
    pub fn ponder_until(&mut self, signal: &'a AtomicBool) {
        self.ponder_signal = Some(signal);
    }

    /// Whether the search still ponders. At the ponder hit the time budget starts to count.
    fn pondering(&mut self) -> bool {
        let Some(signal) = self.ponder_signal else {
            return false;
        };
        if !signal.load(Ordering::Acquire) {
            return true;
        }
        self.ponder_signal = None;
        if let Some(main) = self.main.as_mut() {
            main.clock_started = Instant::now();
        }
        false
    }

    /// Main thread: reports `lines` principal variations per iteration (MultiPV), best first.
    pub fn report_lines(&mut self, lines: usize) {
        self.multipv = lines.max(1);
        self.root_excluded = Vec::with_capacity(self.multipv);
    }

    /// Main thread: plays a move `skill` picks among the lines (full strength: the best).
    pub fn weaken(&mut self, skill: Skill) {
        self.skill = skill;
    }

    /// Main thread: ends the search once a forced win in at most `moves` moves is proven.
    pub fn stop_at_mate(&mut self, moves: Option<u32>) {
        self.mate_goal = moves;
    }

    /// Searches only `moves` at the root (main thread; empty: every move).
    pub fn restrict_root(&mut self, moves: &'a [Move]) {
        self.root_moves = moves;
    }

    /// Whether the thread is unwinding.
    #[inline]
    fn unwinding(&self) -> bool {
        self.unwind.is_some()
    }

    /// Counts a node and, every [`CHECK_INTERVAL`] nodes, looks at the flags (and the main
    /// thread at the clock). Returns whether the search must unwind.
    #[inline]
    fn tick(&mut self) -> bool {
        if self.unwinding() {
            return true;
        }
        self.nodes += 1;
        if self.nodes >= self.node_limit {
            self.unwind = Some(Unwind::SearchOver);
        }
        if self.nodes.is_multiple_of(CHECK_INTERVAL) {
            self.check_flags();
        }
        self.unwinding()
    }

    /// The periodic part of [`Worker::tick`].
    #[inline(never)]
    fn check_flags(&mut self) {
        let shared = self.shared;
        let pondering = self.main.is_some() && self.pondering();
        let over = match self.main {
            // The clock never interrupts the first iteration: the move played always comes
            // from a completed search (depth 1 takes well under a millisecond).
            Some(main) => {
                shared.stop_requested()
                    || (!pondering
                        && self.root_move.is_some()
                        && main.budget.hard_expired(main.clock_started))
            }
            None => {
                shared.add_helper_nodes(CHECK_INTERVAL);
                shared.is_over()
            }
        };
        if over {
            self.unwind = Some(Unwind::SearchOver);
        } else if self
            .watching
            .iter()
            .any(|watch| watch.triggered(shared.splits()))
        {
            self.unwind = Some(Unwind::SplitDone);
        }
    }

    /// What every node does first: count itself, and settle the nodes whose value needs no
    /// move: an unwinding thread (0, ignored), a finished game, a king the side to move can
    /// take, the deepest ply, or (`static_only`) a node that is not searched.
    #[inline]
    fn open_node(&mut self, position: &Position, ply: usize, static_only: bool) -> Option<i32> {
        self.pv.clear(ply);
        if self.tick() {
            return Some(0);
        }
        self.seldepth = self.seldepth.max(ply);
        let us = position.side_to_move();
        if let Some(winner) = position.winner() {
            return Some(if winner == us {
                Score::win_in(ply as i32).0
            } else {
                Score::loss_in(ply as i32).0
            });
        }
        if let Some(capture) = king_capture(position) {
            // At the root only if `searchmoves` and MultiPV leave the capture to this search.
            if ply > 0 || self.searches_at_root(capture) {
                self.pv.update_leaf(ply, capture);
                return Some(Score::win_in(ply as i32 + 1).0);
            }
        }
        if ply >= MAX_PLY - 1 || static_only {
            return Some(self.evaluate(position, ply));
        }
        None
    }

    /// Whether the root search may play `mv` (not left out by `searchmoves` or by an earlier
    /// MultiPV line).
    fn searches_at_root(&self, mv: Move) -> bool {
        (self.root_moves.is_empty() || self.root_moves.contains(&mv))
            && !self.root_excluded.contains(&mv)
    }

    /// Starts loading the table's bucket for `key` (a child about to be searched), when the
    /// table is in use.
    #[inline]
    fn prefetch(&self, key: u64) {
        if self.params.tt {
            self.tt.prefetch(key);
        }
    }

    /// Starts loading the table's bucket for the child of the move the node at `ply` will
    /// likely search after the one just picked: while the picked move's search runs, the memory
    /// catches up. Near the leaves a child's search is a few hundred nanoseconds, about what the table's
    /// line takes to come from memory, so a prefetch issued only when the move is played
    /// (`play`) arrives too late to hide it: about 5% of a warm search's time (measured: see
    /// `docs/results/search.md`, "Speed").
    #[inline]
    fn prefetch_sibling(&self, position: &Position, ply: usize) {
        if let (true, Some(next)) = (self.params.tt, self.ordering.next_guess(ply)) {
            self.tt.prefetch(position.key_after(next));
        }
    }

    /// The table's entry for `key`, when the table is in use.
    #[inline]
    fn probe(&self, key: u64, ply: usize) -> Option<Entry> {
        if self.params.tt {
            self.tt.probe(key, ply as i32)
        } else {
            None
        }
    }

    /// Stores a node's result, when the table is in use.
    #[inline]
    fn store(&self, key: u64, ply: usize, depth: i32, outcome: Outcome, static_eval: i32) {
        if self.params.tt {
            let bound = Bound::of(
                outcome.best_score,
                outcome.alpha_on_entry,
                outcome.alpha,
                outcome.beta,
            );
            let entry = Entry {
                best_move: outcome.best_move,
                score: outcome.best_score,
                depth,
                bound,
                eval: static_eval,
            };
            self.tt.store(key, ply as i32, entry);
        }
    }

    /// The static evaluation of `position`, the node at `ply`: the network's when there is
    /// one (from the accumulator of that ply, brought up to date now: the only place the
    /// search reads the network), else the hand-set one.
    #[inline]
    fn evaluate(&mut self, position: &Position, ply: usize) -> i32 {
        match self.network {
            Some(network) => self.accumulators.evaluate(network, position, ply),
            None => eval::evaluate(position),
        }
    }

    /// The static evaluation: the table's copy when there is one.
    #[inline]
    fn static_eval(&mut self, position: &Position, ply: usize, entry: Option<Entry>) -> i32 {
        entry.map_or_else(|| self.evaluate(position, ply), |entry| entry.eval)
    }

    /// The evaluation the pruning decisions weigh: `static_eval`, sharpened by the table's
    /// score when `TTEval` is on ([`Entry::sharpen`]).
    #[inline]
    fn pruning_eval(&self, entry: Option<Entry>, static_eval: i32) -> i32 {
        match entry {
            Some(entry) if self.params.tt_eval => entry.sharpen(static_eval),
            _ => static_eval,
        }
    }

    /// Plays `mv` from `position`, the node at `ply`, and records what it changes for the
    /// child's accumulator (applied if the child is evaluated): every move the search makes
    /// goes through here.
    #[inline]
    fn play(&mut self, position: &Position, mv: Move, ply: usize) -> Position {
        let child = position.play(mv);
        self.prefetch(child.key());
        if self.network.is_some() {
            self.accumulators.play(mv, &child, ply);
        }
        self.played[ply] = Some(mv);
        child
    }

    /// The moves played one and two plies before the node at `ply` (continuation history).
    #[inline]
    fn previous_moves(&self, ply: usize) -> [Option<Move>; 2] {
        let back = |plies: usize| ply.checked_sub(plies).and_then(|at| self.played[at]);
        [back(1), back(2)]
    }

    /// Whether the static evaluation at `ply` is better than at `ply - 2`, the side to move's
    /// previous turn: a position getting better is searched harder, one getting worse pruned
    /// harder.
    #[inline]
    fn improving(&self, ply: usize) -> bool {
        let earlier = ply.checked_sub(2).and_then(|at| self.evals[at]);
        matches!((self.evals[ply], earlier), (Some(now), Some(before)) if now > before)
    }

    /// [`Worker::play`] of the null move.
    #[inline]
    fn pass(&mut self, position: &Position, ply: usize) -> Position {
        let child = position.pass();
        self.prefetch(child.key());
        self.played[ply] = None;
        if self.network.is_some() {
            self.accumulators.pass(&child, ply);
        }
        child
    }

    /// Computes the accumulator of `position` at `ply` from scratch: at the root, and where a
    /// helper joins a split point (its own line above that ply is another thread's).
    fn refresh(&mut self, position: &Position, ply: usize) {
        if let Some(network) = self.network {
            self.accumulators.refresh(network, position, ply);
        }
    }

    /// Nodes searched by every thread so far (the helpers' as last flushed).
    fn total_nodes(&self) -> u64 {
        self.nodes + self.shared.helper_nodes()
    }
}

/// If the side to move can capture the enemy king, the capture.
#[inline]
fn king_capture(position: &Position) -> Option<Move> {
    let us = position.side_to_move();
    let king = position.king(us.opponent())?;
    let from = attacks::attackers(position, us, king).first()?;
    Some(Move::new(from, king, true))
}

/// Whether the enemy could capture the king of the side to move with its next move.
#[inline]
fn in_danger(position: &Position) -> bool {
    let us: Side = position.side_to_move();
    position
        .king(us)
        .is_some_and(|king| attacks::attacked(position, us.opponent(), king))
}
