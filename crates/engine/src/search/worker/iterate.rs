//! The main thread's loop: iterative deepening, each iteration in an aspiration window around
//! the last score, a report after each, and the decision to start another. With MultiPV an
//! iteration searches the root once per line, each time without the first moves of the lines
//! before (as Stockfish does), and reports every line, best first. A weakened search
//! (`skill.rs`) plays the line its level picks among the last completed iteration's.

use std::time::{Duration, Instant};

use super::Worker;
use crate::score::Score;
use crate::search::node::Node;
use crate::search::report::{Info, Report, SearchResult};
use crate::search::skill::Candidate;
use lielow_rules::movegen::Kind;
use lielow_rules::moves::Move;
use lielow_rules::position::Position;

/// One principal variation of an iteration: its score and its moves.
type Line = (i32, Vec<Move>);

impl Worker<'_> {
    /// Iterative deepening from `position` up to `max_depth`: the main thread's loop (helpers
    /// only search the moves it shares).
    pub fn iterate(&mut self, position: &Position, max_depth: u32) -> SearchResult {
        let started = self.main.expect("only the main thread iterates").started;
        self.refresh(position, 0);
        let (count, mut result) = self.root_fallback(position);
        if count == 0 {
            return result;
        }
        let mut last_iteration = Duration::ZERO;
        // MultiPV: line k is the search of the root without the first moves of lines 0..k.
        let wanted = self.multipv.min(count);
        let mut previous = vec![0; wanted];
        let mut lines: Vec<Line> = Vec::with_capacity(wanted);
        // A weakened search: the last completed iteration's lines, to pick from at the end.
        let mut candidates: Vec<Candidate> = Vec::new();
        for depth in 1..=max_depth {
            let iteration_started = Instant::now();
            self.search_lines(position, depth, &previous, &mut lines);
            if self.unwinding() {
                self.keep_unfinished(&mut result, &lines);
                break;
            }
            if lines.is_empty() {
                break;
            }
            // Best first: a later line can come out above an earlier one (search instability).
            lines.sort_by_key(|(score, _)| std::cmp::Reverse(*score));
            for (center, (score, _)) in previous.iter_mut().zip(&lines) {
                *center = *score;
            }
            let (score, best) = (lines[0].0, lines[0].1[0]);
            self.root_move = Some(best);
            result = SearchResult {
                best_move: Some(best),
                ponder: lines[0].1.get(1).copied(),
                score: Score(score),
                depth,
                nodes: 0,
            };
            if self.skill.enabled() {
                candidates.clear();
                candidates.extend(lines.iter().map(|(score, pv)| Candidate {
                    score: *score,
                    mv: pv[0],
                    reply: pv.get(1).copied(),
                }));
            }
            self.report_iteration(depth, wanted, started, &mut lines);
            last_iteration = iteration_started.elapsed().max(last_iteration / 2);
            if self.search_is_done(count, depth, score, last_iteration) {
                break;
            }
        }
        if self.skill.enabled() {
            if let Some(line) = self.skill.pick(&candidates, position.key()) {
                result.best_move = Some(line.mv);
                result.ponder = line.reply;
                result.score = Score(line.score);
            }
        }
        result.nodes = self.total_nodes();
        result
    }

    /// The root's move count, and the result to play until an iteration completes: the move
    /// ordering's favourite (a king capture if there is one, never a bear-off of the own king
    /// unless it is the only move).
    fn root_fallback(&mut self, position: &Position) -> (usize, SearchResult) {
        let count = self.ordering.generate_among(
            position,
            0,
            Kind::All,
            None,
            [None; 2],
            self.root_moves,
            &[],
        );
        let fallback = (count > 0).then(|| self.ordering.pick(0, 0));
        let result = SearchResult {
            best_move: fallback,
            ponder: None,
            score: Score(0),
            depth: 0,
            nodes: 0,
        };
        (count, result)
    }

    /// Searches the root to `depth` once per MultiPV line, each in an aspiration window around
    /// its previous score and without the first moves of the lines before, into `lines` (fewer
    /// when the search unwinds).
    fn search_lines(
        &mut self,
        position: &Position,
        depth: u32,
        previous: &[i32],
        lines: &mut Vec<Line>,
    ) {
        self.iteration_depth = depth;
        self.seldepth = 0;
        lines.clear();
        self.root_excluded.clear();
        for &center in previous {
            let score = self.aspiration(position, depth as i32, center);
            if self.unwinding() {
                break;
            }
            let pv = self.pv.root();
            let Some(&first) = pv.first() else { break };
            self.root_excluded.push(first);
            lines.push((score, pv));
        }
        self.root_excluded.clear();
    }

    /// What an unfinished iteration adds to `result`, the last finished one's.
    fn keep_unfinished(&self, result: &mut SearchResult, lines: &[Line]) {
        match lines.first() {
            // The first line searched every move: a finished search at this depth.
            Some((_, pv)) => {
                result.best_move = Some(pv[0]);
                result.ponder = pv.get(1).copied();
            }
            // A root move of the unfinished iteration is only in the principal variation once
            // its whole subtree was searched and beat every move tried before it, the last best
            // move first: it is at least as good a choice.
            None => {
                if let Some(best) = self.pv.line(0).next() {
                    if result.depth > 0 && result.best_move != Some(best) {
                        result.best_move = Some(best);
                        result.ponder = self.pv.line(0).nth(1);
                    }
                }
            }
        }
    }

    /// Reports each line of a finished iteration, best first, emptying `lines`.
    fn report_iteration(
        &mut self,
        depth: u32,
        wanted: usize,
        started: Instant,
        lines: &mut Vec<Line>,
    ) {
        let elapsed = started.elapsed();
        let nodes = self.total_nodes();
        let time_ms = elapsed.as_millis() as u64;
        for (k, (line_score, pv)) in lines.drain(..).enumerate() {
            self.report(Report::Iteration(&Info {
                depth,
                seldepth: self.seldepth as u32,
                multipv: (wanted > 1).then_some(k as u32 + 1),
                score: Score(line_score),
                nodes,
                nps: nodes * 1000 / time_ms.max(1),
                time_ms,
                hashfull: self.tt.hashfull(),
                pv,
            }));
        }
    }

    /// Whether the search ends after an iteration to `depth` that scored `score` and took
    /// `last_iteration`, with `count` root moves: a forced move, the clock, a proven result
    /// looked at twice as far, or a `go mate` goal reached.
    fn search_is_done(
        &mut self,
        count: usize,
        depth: u32,
        score: i32,
        last_iteration: Duration,
    ) -> bool {
        // While pondering the clock does not run: only depth, proofs and stop end it.
        if !self.pondering() {
            let main = self.main.expect("the main thread");
            if count == 1 && main.budget.hard.is_some() {
                return true; // forced: no need to think
            }
            let on_clock = main.clock_started.elapsed();
            if !main.budget.next_iteration_fits(on_clock, last_iteration) {
                return true;
            }
        }
        // A proven result stops the search once it has looked twice as far: reductions can
        // hide a shorter mate below a longer one (a puzzle's loss in 7 showed as a loss in 8
        // from depth 14 to 18, in 7 from depth 19).
        if Score(score).is_proven() && depth as i32 > 2 * (Score::MATE - score.abs()) + 2 {
            return true;
        }
        // `go mate N`: a forced win that short is proven.
        matches!(
            (self.mate_goal, Score(score).mate_moves()),
            (Some(wanted), Some(moves)) if moves > 0 && moves as u32 <= wanted
        )
    }

    /// Searches the root to `depth` in a window around the previous score, widening on failure.
    fn aspiration(&mut self, position: &Position, depth: i32, previous: i32) -> i32 {
        let mut delta = self.params.aspiration_window;
        let (mut alpha, mut beta) = if self.params.aspiration
            && depth >= self.params.aspiration_min_depth
            && previous.abs() < Score::MATE_BOUND
        {
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
            if delta > self.params.aspiration_limit {
                alpha = -Score::INFINITE;
                beta = Score::INFINITE;
            }
        }
    }
}
