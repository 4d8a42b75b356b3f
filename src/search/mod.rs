//! The search: iterative deepening principal variation search over the copy-make position, a
//! shared lock-free transposition table, and threads that split the work of a node.
//!
//! It never prints: each finished iteration of the main thread is handed to a reporting
//! callback, and the caller (the protocol layer) decides what to show.
//!
//! Threads: `set_threads(N)` runs N - 1 helper threads next to the main one. The main thread
//! alone iterates, reads the clock, decides when to stop and reports; at the nodes it searches
//! it shares the moves after the first with idle helpers (see `split`), and every thread shares
//! the transposition table and the history table. With one thread a search is deterministic:
//! the same position, limits and history give the same nodes and move.

mod exchange;
mod ordering;
mod split;
mod worker;

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crate::limits::Limits;
use crate::moves::Move;
use crate::position::Position;
use crate::score::Score;
use crate::time::TimeBudget;
use crate::tt::TranspositionTable;
use ordering::{Stacks, MAX_PLY};
use worker::{Shared, Worker};

/// Hash size of a new searcher, in MiB.
pub const DEFAULT_HASH_MB: usize = 16;
/// Largest accepted `Hash`, in MiB.
pub const MAX_HASH_MB: usize = 64 * 1024;
/// Largest accepted `Threads`.
pub const MAX_THREADS: usize = 256;
/// Deepest iteration.
pub const MAX_DEPTH: u32 = (MAX_PLY - 8) as u32;
/// Stack size of helper threads: the search recurses up to `MAX_PLY` frames.
const HELPER_STACK_BYTES: usize = 8 * 1024 * 1024;

/// What one finished iteration found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    /// The iteration's depth, in plies.
    pub depth: u32,
    /// The deepest ply reached (quiescence included).
    pub seldepth: u32,
    /// The score from the side to move's point of view.
    pub score: Score,
    /// Nodes searched so far, every thread included.
    pub nodes: u64,
    /// Nodes per second so far.
    pub nps: u64,
    /// Milliseconds since the search began.
    pub time_ms: u64,
    /// Per mille of the transposition table in use.
    pub hashfull: u32,
    /// The principal variation, best move first.
    pub pv: Vec<Move>,
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// `None` only when the game is over (no legal move).
    pub best_move: Option<Move>,
    /// The score of the best move.
    pub score: Score,
    /// The last completed depth.
    pub depth: u32,
    /// Nodes searched, every thread included.
    pub nodes: u64,
}

/// Switches for the search's optional parts, so that self-play can measure what each is worth.
/// The default is the engine as it plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// Probe and store the transposition table.
    pub tt: bool,
    /// Quiescence search on captures at the leaves (else the static evaluation).
    pub qsearch: bool,
    /// In quiescence, try every move while the king is attacked.
    pub qsearch_evasions: bool,
    /// How many quiescence plies may try evasions.
    pub evasion_plies: u32,
    /// Search one ply deeper while the side to move's king is attacked.
    pub danger_extension: bool,
    /// Late-move reductions of quiet moves.
    pub lmr: bool,
    /// Reverse futility pruning near the leaves.
    pub reverse_futility: bool,
    /// Skip quiet moves near the leaves when far below alpha.
    pub futility: bool,
    /// Aspiration windows around the previous iteration's score.
    pub aspiration: bool,
    /// Null-move pruning: when passing still fails high at a reduced depth, so does the node.
    pub null_move: bool,
    /// Late move pruning: near the leaves, skip the quiet moves ordered after the first few.
    pub late_move_pruning: bool,
    /// Internal iterative reduction: one ply less where the table has no move.
    pub iir: bool,
    /// Quiescence plies that try every capture; deeper, only recaptures on the square of the
    /// last capture (`u32::MAX`: no limit).
    pub qsearch_full_plies: u32,
    /// In quiescence, skip a capture that cannot lift the static evaluation to alpha.
    pub delta_pruning: bool,
    /// In quiescence, skip a capture whose static exchange (see `exchange`) is below this
    /// (`i32::MIN`: never).
    pub exchange_threshold: i32,
}

impl Default for Features {
    fn default() -> Self {
        Features {
            tt: true,
            qsearch: true,
            qsearch_evasions: true,
            evasion_plies: 2,
            danger_extension: true,
            lmr: true,
            reverse_futility: true,
            futility: false,
            aspiration: true,
            null_move: true,
            late_move_pruning: true,
            iir: true,
            qsearch_full_plies: 4,
            delta_pruning: true,
            exchange_threshold: -50,
        }
    }
}

/// The engine's searcher: owns its table and per-thread memory across the searches of a game.
pub struct Searcher {
    tt: TranspositionTable,
    /// One per thread; `threads[0]` is the main thread's.
    threads: Vec<Stacks>,
    /// The main thread's split points (see `split`), allocated with the threads.
    splits: Vec<split::SplitPoint>,
    features: Features,
}

impl Default for Searcher {
    fn default() -> Self {
        Searcher::new()
    }
}

impl Searcher {
    /// A searcher with a [`DEFAULT_HASH_MB`] table and one thread.
    pub fn new() -> Searcher {
        Searcher {
            tt: TranspositionTable::new(DEFAULT_HASH_MB),
            threads: vec![Stacks::new()],
            splits: Vec::new(),
            features: Features::default(),
        }
    }

    /// Forgets everything learned in the previous game (table, killers, history), so the same
    /// search repeats exactly.
    pub fn new_game(&mut self) {
        self.tt.clear();
        self.threads.iter_mut().for_each(Stacks::clear);
    }

    /// Resizes the transposition table to `megabytes` MiB (which empties it).
    pub fn set_hash_mb(&mut self, megabytes: usize) -> Result<(), String> {
        if !(1..=MAX_HASH_MB).contains(&megabytes) {
            return Err(format!("Hash must be 1 to {MAX_HASH_MB} MiB"));
        }
        self.tt.resize(megabytes);
        Ok(())
    }

    /// Sets how many threads search (see the module doc). They share the history table.
    pub fn set_threads(&mut self, threads: usize) -> Result<(), String> {
        if !(1..=MAX_THREADS).contains(&threads) {
            return Err(format!("Threads must be 1 to {MAX_THREADS}"));
        }
        let main = self.threads[0].sharing_history();
        self.threads.resize_with(threads, || main.sharing_history());
        if threads > 1 && self.splits.is_empty() {
            self.splits = split::split_points();
        }
        Ok(())
    }

    /// Turns optional parts of the search on or off (for measurements).
    pub fn set_features(&mut self, features: Features) {
        self.features = features;
    }

    /// Searches `position` within `limits` until done or `stop` is set, calling `report` after
    /// each finished iteration. Under `infinite` it returns only once `stop` is set.
    pub fn search(
        &mut self,
        position: &Position,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        let started = Instant::now();
        self.tt.new_search();
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let shared = Shared {
            stop,
            abort: AtomicBool::new(false),
            helper_nodes: AtomicU64::new(0),
            splits: &self.splits,
            active_split: AtomicUsize::new(0),
            idle_helpers: AtomicUsize::new(0),
        };
        let budget = TimeBudget::new(limits, position.side_to_move());
        let tt = &self.tt;
        let features = self.features;
        let (main_stacks, helper_stacks) = self
            .threads
            .split_first_mut()
            .expect("there is always a main thread");
        let make_worker = |stacks, is_main| Worker {
            stacks,
            tt,
            shared: &shared,
            features,
            is_main,
            nodes: 0,
            node_limit: limits.nodes.unwrap_or(u64::MAX),
            budget,
            started,
            stopped: false,
            halted: false,
            watching: split::Watched::new(),
            seldepth: 0,
            root_move: None,
            null_plies: [false; MAX_PLY + 1],
        };
        let result = std::thread::scope(|scope| {
            for stacks in helper_stacks.iter_mut() {
                let mut helper = make_worker(stacks, false);
                let spawned = std::thread::Builder::new()
                    .stack_size(HELPER_STACK_BYTES)
                    .spawn_scoped(scope, move || helper.help());
                // A helper that cannot start only costs speed.
                drop(spawned);
            }
            let mut main = make_worker(main_stacks, true);
            let result = main.iterate(position, max_depth, report);
            shared.abort.store(true, Ordering::Relaxed);
            result
        });
        if limits.infinite {
            // `go infinite` ends only with `stop`, even when the search has run out of depth.
            while !stop.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
        result
    }
}

impl Worker<'_> {
    /// Iterative deepening from `position` up to `max_depth`: the main thread's loop (helpers
    /// only search the moves it shares).
    fn iterate(
        &mut self,
        position: &Position,
        max_depth: u32,
        report: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        let moves = position.legal_moves();
        // Until an iteration completes, play the move ordering's favourite (a king capture if
        // there is one, never a bear-off of the own king unless it is the only move).
        self.stacks.lists[0] = moves.clone();
        self.stacks.score_moves(position, 0, None);
        let fallback = if moves.is_empty() {
            None
        } else {
            Some(self.stacks.pick(0, 0))
        };
        let mut result = SearchResult {
            best_move: fallback,
            score: Score(0),
            depth: 0,
            nodes: 0,
        };
        if moves.is_empty() {
            return result;
        }
        let mut last_iteration = Duration::ZERO;
        let mut previous = 0;
        for depth in 1..=max_depth {
            let iteration_started = Instant::now();
            self.seldepth = 0;
            let score = self.aspiration(position, depth as i32, previous);
            if self.stopped {
                // A root move of the unfinished iteration is only in the principal variation
                // once its whole subtree was searched and beat every move tried before it, the
                // last best move first: it is at least as good a choice as that one.
                if let Some(&best) = self.stacks.root_pv().first() {
                    if result.depth > 0 {
                        result.best_move = Some(best);
                    }
                }
                break;
            }
            previous = score;
            let pv = self.stacks.root_pv();
            let Some(&best) = pv.first() else { break };
            self.root_move = Some(best);
            result = SearchResult {
                best_move: Some(best),
                score: Score(score),
                depth,
                nodes: 0,
            };
            let elapsed = self.started.elapsed();
            let nodes = self.total_nodes();
            let time_ms = elapsed.as_millis() as u64;
            report(&Info {
                depth,
                seldepth: self.seldepth as u32,
                score: Score(score),
                nodes,
                nps: nodes * 1000 / time_ms.max(1),
                time_ms,
                hashfull: self.tt.hashfull(),
                pv,
            });
            last_iteration = iteration_started.elapsed().max(last_iteration / 2);
            if moves.len() == 1 && self.budget.hard.is_some() {
                break; // forced: no need to think
            }
            if !self.budget.next_iteration_fits(elapsed, last_iteration) {
                break;
            }
            if Score(score).is_proven() && depth as i32 > Score::MATE - score.abs() + 2 {
                break; // the result is proven and the search has looked past it
            }
        }
        result.nodes = self.total_nodes();
        result
    }

    fn total_nodes(&self) -> u64 {
        self.nodes + self.shared.helper_nodes.load(Ordering::Relaxed)
    }

    /// Searches the root to `depth` in a window around the previous score, widening on failure.
    fn aspiration(&mut self, position: &Position, depth: i32, previous: i32) -> i32 {
        let mut delta = 30;
        let (mut alpha, mut beta) =
            if self.features.aspiration && depth >= 5 && previous.abs() < Score::MATE_BOUND {
                (previous - delta, previous + delta)
            } else {
                (-Score::INFINITE, Score::INFINITE)
            };
        loop {
            let score = self.negamax(position, depth, alpha, beta, 0);
            if self.stopped {
                return score;
            }
            if score <= alpha {
                alpha = (score - delta).max(-Score::INFINITE);
            } else if score >= beta {
                beta = (score + delta).min(Score::INFINITE);
            } else {
                return score;
            }
            delta *= 2;
            if delta > 500 {
                alpha = -Score::INFINITE;
                beta = Score::INFINITE;
            }
        }
    }
}
