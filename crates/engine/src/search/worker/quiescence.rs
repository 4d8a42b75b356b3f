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
//! The cap does most of the bounding (the tree of a crowded middle game stays within about a
//! hundred thousand nodes at `go depth 4`); it is set per board size because the full plies
//! that pay on one size cost on the other. Delta pruning and the exchange filter show no
//! measurable Elo either way; they stay for the nodes they save. Measured: see
//! `docs/results/search.md`, "Quiescence bounds".

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
