//! The search: iterative deepening alpha-beta. It never prints: each finished iteration is handed
//! to a reporting callback, and the caller (the protocol layer) decides what to show.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::limits::Limits;
use crate::moves::Move;
use crate::position::Position;
use crate::score::Score;

/// What one finished iteration found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    pub depth: u32,
    pub seldepth: u32,
    pub score: Score,
    pub nodes: u64,
    pub nps: u64,
    pub time_ms: u64,
    /// Per mille of the transposition table in use.
    pub hashfull: u32,
    pub pv: Vec<Move>,
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// `None` only when the game is over (no legal move).
    pub best_move: Option<Move>,
    pub score: Score,
    pub depth: u32,
    pub nodes: u64,
}

/// The engine's searcher: owns its tables across searches of one game.
pub struct Searcher {
    nodes: u64,
    node_limit: u64,
    stopped: bool,
}

impl Default for Searcher {
    fn default() -> Self {
        Searcher::new()
    }
}

impl Searcher {
    pub fn new() -> Searcher {
        Searcher {
            nodes: 0,
            node_limit: u64::MAX,
            stopped: false,
        }
    }

    /// Forgets everything learned in the previous game.
    pub fn new_game(&mut self) {}

    /// Resizes the transposition table to `megabytes` MiB.
    pub fn set_hash_mb(&mut self, megabytes: usize) -> Result<(), String> {
        if megabytes == 0 {
            return Err("Hash must be at least 1 MiB".into());
        }
        Ok(())
    }

    /// Sets how many threads search (Lazy SMP).
    pub fn set_threads(&mut self, threads: usize) -> Result<(), String> {
        if threads == 0 {
            return Err("Threads must be at least 1".into());
        }
        Ok(())
    }

    /// Searches `position` within `limits` until done or `stop` is set, calling `report` after
    /// each finished iteration.
    pub fn search(
        &mut self,
        position: &Position,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        let started = Instant::now();
        self.nodes = 0;
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        self.stopped = false;
        let moves = position.legal_moves();
        let mut result = SearchResult {
            best_move: moves.first().copied(),
            score: Score(0),
            depth: 0,
            nodes: 0,
        };
        let max_depth = limits.depth.unwrap_or(64).clamp(1, 64);
        for depth in 1..=max_depth {
            let mut best = (-Score::INFINITE, None);
            for &mv in &moves {
                let score = -self.negamax(
                    &position.play(mv),
                    depth - 1,
                    1,
                    -Score::INFINITE,
                    -best.0,
                    stop,
                );
                if self.stopped {
                    break;
                }
                if score > best.0 {
                    best = (score, Some(mv));
                }
            }
            if self.stopped && depth > 1 {
                break;
            }
            if let Some(mv) = best.1 {
                result = SearchResult {
                    best_move: Some(mv),
                    score: Score(best.0),
                    depth,
                    nodes: self.nodes,
                };
                let time_ms = started.elapsed().as_millis() as u64;
                report(&Info {
                    depth,
                    seldepth: depth,
                    score: Score(best.0),
                    nodes: self.nodes,
                    nps: self.nodes * 1000 / time_ms.max(1),
                    time_ms,
                    hashfull: 0,
                    pv: vec![mv],
                });
            }
            if self.stopped {
                break;
            }
        }
        result.nodes = self.nodes;
        result
    }

    fn negamax(
        &mut self,
        position: &Position,
        depth: u32,
        ply: i32,
        mut alpha: i32,
        beta: i32,
        stop: &AtomicBool,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes >= self.node_limit || (self.nodes & 1023 == 0 && stop.load(Ordering::Relaxed))
        {
            self.stopped = true;
            return 0;
        }
        if let Some(winner) = position.winner() {
            return if winner == position.side_to_move() {
                Score::win_in(ply).0
            } else {
                Score::loss_in(ply).0
            };
        }
        if depth == 0 {
            let us = position.side_to_move();
            return position.stacks(us).count() as i32 * 100
                - position.stacks(us.opponent()).count() as i32 * 100;
        }
        for mv in position.legal_moves() {
            let score = -self.negamax(&position.play(mv), depth - 1, ply + 1, -beta, -alpha, stop);
            if self.stopped {
                return 0;
            }
            if score > alpha {
                alpha = score;
                if alpha >= beta {
                    break;
                }
            }
        }
        alpha
    }
}
