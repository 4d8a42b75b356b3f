//! The search: iterative deepening principal variation search over the copy-make position, a
//! shared lock-free transposition table, and Lazy SMP threads.
//!
//! It never prints: each finished iteration of the main thread is handed to a reporting
//! callback, and the caller (the protocol layer) decides what to show.
//!
//! Threads: `set_threads(N)` runs N - 1 helper threads next to the main one, all searching the
//! same root and sharing only the table ("Lazy SMP"): what one thread stores, the others find.
//! Helpers watch only the stop flag and an abort flag the main thread raises when it is done;
//! the main thread alone reads the clock, decides when to stop, and reports. With one thread a
//! search is deterministic: the same position, limits and history give the same nodes and move.
//!
//! Threads that search the same depth in the same order fall into lockstep: the follower finds
//! nothing in the table that the leader has not finished, and repeats its work. So each helper
//! starts every iteration one or two plies deeper than the main thread's current one, and what
//! it stores is ready when the main thread gets there. A depth-limited search (`go depth D`)
//! ends as soon as any thread has completed depth D, with that thread's move, score and report:
//! the answer asked for is a depth-D search, and the helper running ahead often has it first.
//! Under a clock the main thread's result is played (adopting a helper's was measured worse).

mod ordering;
mod worker;

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::Mutex;
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
        }
    }
}

/// The engine's searcher: owns its table and per-thread memory across the searches of a game.
pub struct Searcher {
    tt: TranspositionTable,
    /// One per thread; `threads[0]` is the main thread's.
    threads: Vec<Stacks>,
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

    /// Sets how many threads search (Lazy SMP).
    pub fn set_threads(&mut self, threads: usize) -> Result<(), String> {
        if !(1..=MAX_THREADS).contains(&threads) {
            return Err(format!("Threads must be 1 to {MAX_THREADS}"));
        }
        self.threads.resize_with(threads, Stacks::new);
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
            main_depth: AtomicU32::new(1),
            goal_depth: limits.depth.map_or(u32::MAX, |_| max_depth),
            goal_reached: Mutex::new(None),
            goal_flag: AtomicBool::new(false),
        };
        let budget = TimeBudget::new(limits, position.side_to_move());
        let tt = &self.tt;
        let features = self.features;
        let (main_stacks, helper_stacks) = self
            .threads
            .split_first_mut()
            .expect("there is always a main thread");
        let make_worker = |stacks, is_main, lead| Worker {
            stacks,
            tt,
            shared: &shared,
            features,
            is_main,
            lead,
            nodes: 0,
            node_limit: limits.nodes.unwrap_or(u64::MAX),
            budget,
            started,
            stopped: false,
            seldepth: 0,
            root_move: None,
            null_plies: [false; MAX_PLY + 1],
        };
        let result = std::thread::scope(|scope| {
            for (index, stacks) in helper_stacks.iter_mut().enumerate() {
                let mut helper = make_worker(stacks, false, 1 + index as u32 % 2);
                let spawned = std::thread::Builder::new()
                    .stack_size(HELPER_STACK_BYTES)
                    .spawn_scoped(scope, move || {
                        // Bound by `go depth` like the main thread, so a helper that jumps
                        // ahead never skips past it: the first thread to complete it ends the
                        // search (see `iterate`); otherwise the main thread aborts the helpers.
                        helper.iterate(position, max_depth, &mut |_| {});
                    });
                // A helper that cannot start only costs speed.
                drop(spawned);
            }
            let mut main = make_worker(main_stacks, true, 0);
            let mut result = main.iterate(position, max_depth, report);
            shared.abort.store(true, Ordering::Relaxed);
            if result.depth < max_depth {
                let reached = shared.goal_reached.lock().map(|mut r| r.take());
                if let Ok(Some((mut helper_result, mut info))) = reached {
                    let nodes = main.total_nodes();
                    info.nodes = nodes;
                    info.nps = nodes * 1000 / info.time_ms.max(1);
                    helper_result.nodes = nodes;
                    report(&info);
                    result = helper_result;
                }
            }
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
    /// Iterative deepening from `position` up to `max_depth`. Only the main thread reports, and
    /// its result counts unless a helper completes the `go depth` first; helpers start each
    /// iteration ahead of the main thread's current depth and leave what they learn in the table.
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
        let mut depth = 0;
        while depth < max_depth {
            depth += 1;
            if self.is_main {
                self.shared.main_depth.store(depth, Ordering::Relaxed);
            } else {
                let ahead = self.shared.main_depth.load(Ordering::Relaxed) + self.lead;
                depth = depth.max(ahead).min(max_depth);
            }
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
            if !self.is_main && depth < self.shared.goal_depth {
                continue;
            }
            let elapsed = self.started.elapsed();
            let nodes = self.total_nodes();
            let time_ms = elapsed.as_millis() as u64;
            let info = Info {
                depth,
                seldepth: self.seldepth as u32,
                score: Score(score),
                nodes,
                nps: nodes * 1000 / time_ms.max(1),
                time_ms,
                hashfull: self.tt.hashfull(),
                pv,
            };
            if !self.is_main {
                // A helper has searched as deep as `go depth` asked: the search is done.
                if let Ok(mut reached) = self.shared.goal_reached.lock() {
                    if reached.is_none() {
                        *reached = Some((result.clone(), info));
                        self.shared.goal_flag.store(true, Ordering::Relaxed);
                    }
                }
                break;
            }
            report(&info);
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
