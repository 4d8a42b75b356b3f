//! Quiescence: at the leaves, captures are searched until the position is quiet, so that the
//! evaluation is not taken in the middle of an exchange. While the side to move's king is
//! attacked (for the first few plies), every move is tried instead: standing pat would leave
//! the king to be taken.
//!
//! What bounds it. In crowded middle games nearly every capture is an even stack-for-stack
//! trade, and unbounded capture chains ran 28 plies deep: 30 million nodes without finishing
//! `go depth 1` (a 9x9 position 46 moves into a game). Four bounds, each a parameter
//! (development options, see protocol.md):
//!
//! - past `QSearchFullPlies` plies (3 on 8x8, 2 on 9x9: a default per size) only recaptures on
//!   the square of the last capture are searched: the cap that bounds the tree;
//! - delta pruning: a capture whose material gain plus `DeltaMargin` cannot lift the static
//!   evaluation to alpha is skipped;
//! - a capture whose static exchange (`exchange.rs`) is below `ExchangeThreshold` (it loses a
//!   stack once the recaptures are played out) is skipped;
//! - the table is probed and stored in quiescence too (`QSearchTT`).
//!
//! Node counts, 1,000 crowded 9x9 positions (`examples/crowded.rs`), `go depth 4`: before, 22 did
//! not finish within 2 M nodes and the 99th percentile was 2 M nodes (1.2 s); with the bounds
//! the maximum is 92 k nodes (38 ms). The cap does most of it (over 200 positions, at most: cap
//! 2, 82 k nodes; 4, 116 k; 6, 342 k; 8, 1.3 M; none, over 5 M); the exchange filter alone left
//! 1.9 M; without the table in quiescence the 99th percentile grows from 89 k to 161 k nodes.
//!
//! Elo of each (the engine with the part changed against the default, 50 ms/move, 8 random
//! opening plies, 95% intervals):
//!
//! | change | 8x8 | 9x9 |
//! |---|---|---|
//! | all bounds against none (the engine before them) | −6.9 ± 26.9 (400 games) | cap 4: +60.0 ± 49.9 (152); final, cap 2: +2.3 ± 29.8 (300); together 239-213, about +20 |
//! | cap 2 instead of 4 | −18.9 (700: −11.6 ± 31.2, −24.4 ± 29.3) | +19.9 (700: +23.2 ± 32.8, +17.4 ± 32.0) |
//! | no delta pruning | −2.3 ± 32.5 (300) | −4.6 ± 32.2 (300) |
//! | no exchange filter | +0.0 ± 31.5 (300) | −4.6 ± 38.1 (300) |
//! | no table in quiescence | −20.9 ± 31.8 (300) | −9.3 ± 35.3 (300) |
//!
//! Hence the cap per board size. Delta pruning and the exchange filter show no measurable Elo
//! either way at this time control; they stay for the node counts they save.
//!
//! Not kept: ordering the table's move first here (the generation takes none) measured -10.1 ±
//! 14.0 on 8x8 (1030 games, H0; 20,000 nodes a move, balanced books, with `TTEval` on); the
//! quiet moves that attack the enemy king at the first ply (`QSearchThreats`, the checks of
//! chess), +2.4 ± 14.0 on 8x8 (2050 games, stopped undecided: no gain seen).

use super::{in_danger, Outcome, Worker};
use crate::eval;
use crate::score::Score;
use crate::search::exchange;
use crate::search::node::Node;
use lielow_rules::board::Square;
use lielow_rules::movegen::Kind;
use lielow_rules::position::Position;

impl Worker<'_> {
    /// Quiescence search of `position` at `node` (its depth is not used), `qdepth` plies below
    /// the main search; `last_capture` is the square the previous move captured on.
    pub(super) fn qsearch(
        &mut self,
        position: &Position,
        mut node: Node,
        qdepth: i32,
        last_capture: Option<Square>,
    ) -> i32 {
        let ply = node.ply;
        if let Some(score) = self.open_node(position, ply, !self.params.qsearch) {
            return score;
        }
        let key = position.key();
        let use_table = self.params.qsearch_tt;
        let entry = self.probe(key, ply).filter(|_| use_table);
        if let Some(entry) = entry {
            if entry.cuts_off(node.alpha, node.beta) {
                return entry.score;
            }
        }
        let static_eval = self.static_eval(position, ply, entry);
        let evasions = qdepth < self.params.evasion_plies && in_danger(position);
        let alpha_on_entry = node.alpha;
        let mut best_score = -Score::INFINITE;
        if !evasions {
            // Stand pat: the side to move need not capture.
            best_score = self.pruning_eval(entry, static_eval);
            if best_score >= node.beta {
                return best_score;
            }
            node.alpha = node.alpha.max(best_score);
        }
        let kind = if evasions { Kind::All } else { Kind::Captures };
        let count = self.ordering.generate(position, ply, kind, None);
        let recaptures_only = qdepth >= self.params.qsearch_full_plies.on(position.size());
        let mut best_move = None;
        for index in 0..count {
            let mv = self.ordering.pick(ply, index);
            self.prefetch_sibling(position, ply);
            if let (false, true, Some(to)) = (evasions, mv.is_capture(), mv.to()) {
                if recaptures_only && Some(to) != last_capture {
                    continue;
                }
                let gain = eval::capture_gain(position.height(mv.from()), position.height(to));
                if self.params.delta_pruning
                    && static_eval + gain + self.params.delta_margin <= node.alpha
                {
                    continue;
                }
                if exchange::exchange(position, mv) < self.params.exchange_threshold {
                    continue;
                }
            }
            let landing = mv.to().filter(|_| mv.is_capture());
            let child = node.child(0, node.alpha, node.beta);
            let next = self.play(position, mv, ply);
            let score = -self.qsearch(&next, child, qdepth + 1, landing);
            if self.unwinding() {
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > node.alpha {
                    node.alpha = score;
                    best_move = Some(mv);
                    self.pv.update(ply, mv);
                    if node.alpha >= node.beta {
                        break;
                    }
                }
            }
        }
        if count == 0 && evasions {
            return Score::loss_in(ply as i32).0;
        }
        if use_table {
            let outcome = Outcome::at(&node, alpha_on_entry, best_score, best_move);
            self.store(key, ply, 0, outcome, static_eval);
        }
        best_score
    }
}
