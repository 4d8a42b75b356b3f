//! The main thread's loop: iterative deepening, each iteration in an aspiration window around
//! the last score, a report after each, and the decision to start another.

use std::time::{Duration, Instant};

use super::Worker;
use crate::movegen::Kind;
use crate::position::Position;
use crate::score::Score;
use crate::search::node::Node;
use crate::search::report::{Info, SearchResult};

/// An aspiration window wider than this is opened fully.
const ASPIRATION_LIMIT: i32 = 500;

impl Worker<'_> {
    /// Iterative deepening from `position` up to `max_depth`: the main thread's loop (helpers
    /// only search the moves it shares).
    pub fn iterate(
        &mut self,
        position: &Position,
        max_depth: u32,
        report: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        let main = self.main.expect("only the main thread iterates");
        // Until an iteration completes, play the move ordering's favourite (a king capture if
        // there is one, never a bear-off of the own king unless it is the only move).
        let count = self
            .ordering
            .generate_among(position, 0, Kind::All, None, self.root_moves);
        let fallback = (count > 0).then(|| self.ordering.pick(0, 0));
        let mut result = SearchResult {
            best_move: fallback,
            score: Score(0),
            depth: 0,
            nodes: 0,
        };
        if count == 0 {
            return result;
        }
        let mut last_iteration = Duration::ZERO;
        let mut previous = 0;
        for depth in 1..=max_depth {
            let iteration_started = Instant::now();
            self.seldepth = 0;
            let score = self.aspiration(position, depth as i32, previous);
            if self.unwinding() {
                // A root move of the unfinished iteration is only in the principal variation
                // once its whole subtree was searched and beat every move tried before it, the
                // last best move first: it is at least as good a choice as that one.
                if let Some(best) = self.pv.line(0).next() {
                    if result.depth > 0 {
                        result.best_move = Some(best);
                    }
                }
                break;
            }
            previous = score;
            let pv = self.pv.root();
            let Some(&best) = pv.first() else { break };
            self.root_move = Some(best);
            result = SearchResult {
                best_move: Some(best),
                score: Score(score),
                depth,
                nodes: 0,
            };
            let elapsed = main.started.elapsed();
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
            if count == 1 && main.budget.hard.is_some() {
                break; // forced: no need to think
            }
            if !main.budget.next_iteration_fits(elapsed, last_iteration) {
                break;
            }
            if Score(score).is_proven() && depth as i32 > Score::MATE - score.abs() + 2 {
                break; // the result is proven and the search has looked past it
            }
            if let (Some(wanted), Some(moves)) = (self.mate_goal, Score(score).mate_moves()) {
                if moves > 0 && moves as u32 <= wanted {
                    break; // `go mate N`: a forced win that short is proven
                }
            }
        }
        result.nodes = self.total_nodes();
        result
    }

    /// Searches the root to `depth` in a window around the previous score, widening on failure.
    fn aspiration(&mut self, position: &Position, depth: i32, previous: i32) -> i32 {
        let mut delta = self.params.aspiration_window;
        let (mut alpha, mut beta) =
            if self.params.aspiration && depth >= 5 && previous.abs() < Score::MATE_BOUND {
                (previous - delta, previous + delta)
            } else {
                (-Score::INFINITE, Score::INFINITE)
            };
        loop {
            let score = self.negamax(position, Node::root(depth, alpha, beta));
            if self.unwinding() {
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
            if delta > ASPIRATION_LIMIT {
                alpha = -Score::INFINITE;
                beta = Score::INFINITE;
            }
        }
    }
}
