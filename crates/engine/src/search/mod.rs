//! The search: iterative deepening principal variation search over the copy-make position, a
//! shared lock-free transposition table, and threads that split the work of a node.
//!
//! It never prints: each finished iteration of the main thread is handed to a reporting
//! callback ([`Info`]), and the caller (the protocol layer) decides what to show.
//!
//! Threads: `set_threads(N)` runs N - 1 helper threads next to the main one (no more than the
//! machine's hardware threads allow: see [`Searcher::set_helper_limit`]). The main thread
//! alone iterates, reads the clock, decides when to stop and reports; at the nodes it searches
//! it shares the moves after the first with idle helpers (`worker/splitting.rs`), and every
//! thread shares the transposition table and the history table. With one thread a search is
//! deterministic: the same position, limits and history give the same nodes and move.
//!
//! Where each concern lives:
//!
//! | file | what |
//! |---|---|
//! | `node.rs` | a node (ply, depth, window, kind) and why a search unwinds |
//! | `params.rs`, `params/` | the switches and tunable numbers (development options), each declared once in `params.rs` (`declare.rs` generates the struct, defaults, specs and documentation table); a parameter by name (`spec.rs`); a value read and checked (`setting.rs`) |
//! | `worker.rs` | one thread's state, node opening, table probe and store |
//! | `worker/iterate.rs` | iterative deepening and aspiration (main thread) |
//! | `worker/negamax.rs` | the main search of a node, its pruning and reductions |
//! | `worker/quiescence.rs` | the capture search at the leaves, and what bounds it |
//! | `worker/splitting.rs` | sharing a node's moves with helpers; the helpers' loop |
//! | `split_point.rs` | the shared node, plain data under a mutex |
//! | `shared.rs` | what all threads of a search share; where idle helpers look for work |
//! | `ordering.rs`, `pv.rs`, `exchange.rs` | move ordering, principal variation, static exchange |
//! | `reductions.rs` | the late-move reduction table by depth and move number |
//! | `report.rs` | what a search tells its caller |
//! | `skill.rs` | weakened play: the levels, their depth, lines and the move they pick |
//! | `settings.rs` | what a searcher is configured with, and why a setting is refused |
//!
//! ## What a node does, and why
//!
//! Each heuristic below is kept because it won games against the same search without it; the
//! measurements, and the ideas that lost, are in `docs/results/search.md`.
//!
//! - Iterative deepening with aspiration windows around the last score (`worker/iterate.rs`).
//! - The transposition table cuts where its bound allows, and its score stands in for the static
//!   evaluation where its bound says more (`TTEval`), for the pruning decisions below.
//! - Before the moves: reverse futility (a node far above beta fails high), the null move (a
//!   node whose side can pass and still beat beta), internal iterative reduction (a node without
//!   a table move is searched a ply shallower). The improving flag (the evaluation above two
//!   plies before) makes them bolder where the position is getting better.
//! - The moves, in order: the table move, captures (tallest victim, then shortest attacker),
//!   killers, then quiet moves by their history (butterfly and continuation histories). When every reply fails low, the
//!   opponent's quiet move that led there gains a cut-off's bonus (`HistoryPrior`, on 8x8).
//! - Late quiet moves are pruned near the leaves and reduced by depth and move number; a king
//!   under attack gets a ply more.
//! - At the leaves, a capture search bounded per board size (`worker/quiescence.rs`).

mod exchange;
mod node;
mod ordering;
pub mod params;
mod pv;
mod reductions;
mod report;
mod settings;
mod shared;
pub mod skill;
mod split_point;
mod worker;

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

use crate::limits::Limits;
use crate::nnue::Network;
use crate::time::TimeBudget;
use crate::tt::TranspositionTable;
use lielow_rules::moves::Move;
use lielow_rules::position::Position;
use shared::Shared;
use split_point::SplitPoint;
use worker::{MainDuties, ThreadMemory, Worker};

pub use node::MAX_PLY;
pub use params::{ParamError, Params};
pub use report::{CurrentMove, Info, Report, Reporter, SearchResult, CURRENT_MOVE_AFTER};
pub use settings::{HashError, SearchSettings, ThreadsError};
pub use skill::Skill;
pub use split_point::MAX_THREADS;

/// Hash size of a new searcher, in MiB.
pub const DEFAULT_HASH_MB: usize = 16;
/// Largest accepted `Hash`, in MiB (32 GiB; a size the machine cannot give is refused when it
/// is allocated).
pub const MAX_HASH_MB: usize = 32 * 1024;
/// Deepest iteration.
pub const MAX_DEPTH: u32 = (MAX_PLY - 8) as u32;
/// Stack size of helper threads: the search recurses up to `MAX_PLY` frames.
const HELPER_STACK_BYTES: usize = 8 * 1024 * 1024;

/// The engine's searcher: owns its table and per-thread memory across the searches of a game.
pub struct Searcher {
    tt: TranspositionTable,
    /// One per thread; `threads[0]` is the main thread's.
    threads: Vec<ThreadMemory>,
    /// The main thread's split points, allocated with the threads.
    splits: Vec<SplitPoint>,
    /// What the search runs with; `settings.threads` is always `threads.len()`.
    settings: SearchSettings,
    /// The most helper threads that run at once (see [`Searcher::set_helper_limit`]).
    helper_limit: usize,
    /// Set by the caller at the ponder hit of a `go ponder` search.
    ponderhit: Arc<AtomicBool>,
}

impl Default for Searcher {
    fn default() -> Self {
        Searcher::new()
    }
}

impl Searcher {
    /// A searcher with a [`DEFAULT_HASH_MB`] table and one thread.
    pub fn new() -> Searcher {
        Searcher::new_with_table(TranspositionTable::new(DEFAULT_HASH_MB))
    }

    fn new_with_table(tt: TranspositionTable) -> Searcher {
        Searcher {
            tt,
            threads: vec![ThreadMemory::default()],
            splits: Vec::new(),
            settings: SearchSettings::default(),
            helper_limit: std::thread::available_parallelism()
                .map_or(0, |n| n.get().saturating_sub(1)),
            ponderhit: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Forgets everything learned in the previous game (table, killers, history), so the same
    /// search repeats exactly.
    pub fn new_game(&mut self) {
        self.tt.clear();
        self.threads.iter_mut().for_each(ThreadMemory::clear);
    }

    /// Resizes the transposition table to `megabytes` MiB (which empties it). A size out of
    /// range, or one the machine cannot give, is an error; the table then keeps its size.
    pub fn set_hash_mb(&mut self, megabytes: usize) -> Result<(), HashError> {
        if !(1..=MAX_HASH_MB).contains(&megabytes) {
            return Err(HashError::OutOfRange { megabytes });
        }
        self.tt.try_resize(megabytes).map_err(HashError::Allocation)
    }

    /// A searcher whose table is not allocated yet: [`Searcher::set_hash_mb`] does it (the
    /// protocol waits for the first `isready` or `go`, as UCI asks of engines). Searching
    /// first allocates the default size.
    pub fn without_table() -> Searcher {
        Searcher::new_with_table(TranspositionTable::unallocated())
    }

    /// The table's size in MiB (0 while unallocated).
    pub fn hash_mb(&self) -> usize {
        self.tt.bytes() >> 20
    }

    /// Sets how many threads search (see the module doc). They share the history table.
    pub fn set_threads(&mut self, threads: usize) -> Result<(), ThreadsError> {
        if !(1..=MAX_THREADS).contains(&threads) {
            return Err(ThreadsError { threads });
        }
        let sibling = self.threads[0].sibling();
        self.threads.truncate(threads);
        while self.threads.len() < threads {
            self.threads.push(sibling.sibling());
        }
        if threads > 1 && self.splits.is_empty() {
            self.splits = split_point::split_points();
        }
        self.settings.threads = threads;
        Ok(())
    }

    /// Applies every setting of `settings` (all or, if the thread count is refused, none); a
    /// setting that did not change costs nothing, and another network empties the table.
    pub fn configure(&mut self, settings: &SearchSettings) -> Result<(), ThreadsError> {
        self.set_threads(settings.threads)?;
        self.set_multipv(settings.multipv);
        self.set_move_overhead_ms(settings.move_overhead_ms);
        self.set_params(settings.params);
        self.set_network(settings.network.clone());
        self.set_skill(settings.skill);
        Ok(())
    }

    /// The settings the search runs with.
    pub fn settings(&self) -> &SearchSettings {
        &self.settings
    }

    /// Sets the most helper threads that run at once, whatever `Threads` says. By default one
    /// fewer than the machine's hardware threads: more could only time-slice with the main
    /// thread, which then reads the clock late. (With `Threads` 64 or 256 on 2 cores, helpers
    /// spinning in a yield loop made `go movetime 50` take 380-760 ms.) Tests raise it to
    /// exercise several helpers on a small machine.
    pub fn set_helper_limit(&mut self, helpers: usize) {
        self.helper_limit = helpers;
    }

    /// Sets how many principal variations each iteration reports (`MultiPV`, at least 1): the
    /// best line, then the best without its first move, and so on.
    pub fn set_multipv(&mut self, lines: usize) {
        self.settings.multipv = lines.max(1);
    }

    /// The signal that turns a `go ponder` search into a timed one (`ponderhit`): the caller
    /// clears it before the search and sets it at the ponder hit.
    pub fn ponderhit_signal(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.ponderhit)
    }

    /// Empties the transposition table alone (`Clear Hash`); killers and history stay.
    pub fn clear_hash(&mut self) {
        self.tt.clear();
    }

    /// Sets the milliseconds kept back from every time budget for the latency of the process
    /// and of the GUI or runner (`Move Overhead`).
    pub fn set_move_overhead_ms(&mut self, milliseconds: u64) {
        self.settings.move_overhead_ms = milliseconds;
    }

    /// Sets the evaluation: a network, or `None` for the hand-set evaluation. A new searcher
    /// uses the network built into the program. Another evaluation empties the table, whose
    /// entries hold static evaluations of the old one.
    pub fn set_network(&mut self, network: Option<Arc<Network>>) {
        if !self.settings.same_network(&network) {
            self.tt.clear();
        }
        self.settings.network = network;
    }

    /// The network the search evaluates with, if any.
    pub fn network(&self) -> Option<&Arc<Network>> {
        self.settings.network.as_ref()
    }

    /// Sets the strength handicap (`Skill Level`, `UCI_Elo`; the default is full strength).
    pub fn set_skill(&mut self, skill: Skill) {
        self.settings.skill = skill;
    }

    /// Sets the search's parameters (for measurements; the default is the engine as it plays).
    pub fn set_params(&mut self, params: Params) {
        self.settings.params = params;
    }

    /// Searches `position` within `limits` until done or `stop` is set, calling `report` after
    /// each finished iteration and, once the search has run [`CURRENT_MOVE_AFTER`], at each root
    /// move the main thread starts. Under `infinite` (or `ponder`) it returns when `stop` is set
    /// or the deepest iteration is done: holding `bestmove` back until `stop` or the ponder hit
    /// is the protocol's rule, kept by the session.
    pub fn search(
        &mut self,
        position: &Position,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut Reporter,
    ) -> SearchResult {
        self.search_among(position, limits, &[], stop, report)
    }

    /// [`Searcher::search`] of the root moves in `root_moves` only (`go searchmoves`; empty:
    /// every move). They must be legal in `position`.
    pub fn search_among(
        &mut self,
        position: &Position,
        limits: &Limits,
        root_moves: &[Move],
        stop: &AtomicBool,
        report: &mut Reporter,
    ) -> SearchResult {
        let started = Instant::now();
        if !self.tt.is_allocated() {
            self.tt = TranspositionTable::new(DEFAULT_HASH_MB);
        }
        self.tt.new_search();
        let skill = self.settings.skill;
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        // A weakened search stops at its level's depth and searches its lines to pick from.
        let (max_depth, lines) = if skill.enabled() {
            (
                max_depth.min(skill.max_depth()),
                self.settings.multipv.max(skill.lines()),
            )
        } else {
            (max_depth, self.settings.multipv)
        };
        let shared = Shared::new(stop, &self.splits);
        let running_helpers = (self.threads.len() - 1).min(self.helper_limit);
        let main_duties = MainDuties {
            budget: TimeBudget::with_overhead(
                limits,
                position.side_to_move(),
                self.settings.move_overhead_ms,
                self.settings.params.time_moves_to_go as u64,
            ),
            started,
            clock_started: started,
            node_limit: limits.nodes.unwrap_or(u64::MAX),
        };
        let (tt, mut params) = (&self.tt, self.settings.params);
        if skill.enabled() && !skill.quiescence() {
            params.qsearch = false;
        }
        let network = self.settings.network.as_deref();
        let ponderhit = &*self.ponderhit;
        let (main_memory, helper_memory) = self
            .threads
            .split_first_mut()
            .expect("there is always a main thread");
        let result = std::thread::scope(|scope| {
            // Helpers beyond the limit are not started: they would only time-slice.
            for memory in helper_memory.iter_mut().take(running_helpers) {
                let mut helper = Worker::new(memory, network, tt, &shared, params, None);
                let spawned = std::thread::Builder::new()
                    .stack_size(HELPER_STACK_BYTES)
                    .spawn_scoped(scope, move || helper.help());
                // A helper that cannot start only costs speed.
                drop(spawned);
            }
            let mut main =
                Worker::new(main_memory, network, tt, &shared, params, Some(main_duties));
            main.restrict_root(root_moves);
            main.stop_at_mate(limits.mate);
            main.report_lines(lines);
            main.weaken(skill);
            main.report_to(report);
            if limits.ponder {
                main.ponder_until(ponderhit);
            }
            // Even if the main thread panics, the helpers must learn that the search is over,
            // or the scope would wait for them for ever.
            let _over = FinishOnDrop(&shared);
            main.iterate(position, max_depth)
        });
        result
    }
}

/// Tells the helpers the search is over when dropped: at the end of the main thread's search,
/// or while it unwinds from a panic.
struct FinishOnDrop<'a, 'b>(&'a Shared<'b>);

impl Drop for FinishOnDrop<'_, '_> {
    fn drop(&mut self) {
        self.0.finish();
    }
}
