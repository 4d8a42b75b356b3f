//! ProbCut: at a deep enough node that is not on the principal variation, a capture that still
//! beats beta by a margin in a search a few plies shallower almost always beats beta in the
//! full one, so the node is cut there. A capture's quiescence search filters first (cheap),
//! then the reduced search confirms; captures whose exchange cannot reach the raised beta are
//! never tried.

use super::{Outcome, Worker};
use crate::score::Score;
use crate::search::exchange;
use crate::search::node::Node;
use crate::tt::Entry;
use lielow_rules::movegen::Kind;
use lielow_rules::position::Position;

impl Worker<'_> {
    /// ProbCut (`ProbCut`, `ProbCutMargin`, `ProbCutDepth`, `ProbCutReduction`): the node's
    /// score when some capture beats `beta + ProbCutMargin` at `ProbCutReduction` plies less
    /// (stored in the table as a lower bound at that depth), else `None`. `raw_eval` is the
    /// static evaluation the table keeps, `static_eval` the one the search uses (corrected).
    pub(super) fn probcut(
        &mut self,
        position: &Position,
        node: Node,
        entry: Option<Entry>,
        in_danger: bool,
        (raw_eval, static_eval): (i32, i32),
    ) -> Option<i32> {
        let params = &self.params;
        let raised = node.beta + params.probcut_margin;
        let reduced_depth = node.depth - params.probcut_reduction;
        let tried = params.probcut
            && !node.is_pv()
            && !in_danger
            && node.excluded.is_none()
            && node.depth >= params.probcut_depth
            && node.beta.abs() < Score::MATE_BOUND
            && raised.abs() < Score::MATE_BOUND
            // A table entry deep enough that says the node stays below the raised beta: no
            // capture will show otherwise at a shallower depth.
            && !entry.is_some_and(|entry| entry.depth >= reduced_depth && entry.score < raised);
        if !tried {
            return None;
        }
        let ply = node.ply;
        let tt_capture = entry
            .and_then(|entry| entry.best_move)
            .filter(|mv| mv.is_capture());
        let count = self
            .ordering
            .generate(position, ply, Kind::Captures, tt_capture);
        // The null window just below the raised beta, searched `ProbCutReduction` plies less.
        let probe = Node {
            alpha: raised - 1,
            beta: raised,
            ..node
        };
        for index in 0..count {
            let mv = self.ordering.pick(ply, index);
            if exchange::exchange(position, mv) < raised - static_eval
                && position.king(position.side_to_move().opponent()) != mv.to()
            {
                continue;
            }
            let child = self.play(position, mv, ply);
            let landing = mv.to();
            let mut score = -self.qsearch(&child, probe.scout_child(0, raised - 1), 0, landing);
            if score >= raised && reduced_depth > 1 {
                let reduction = self.params.probcut_reduction;
                score = -self.negamax(&child, probe.scout_child(reduction, raised - 1));
            }
            if self.unwinding() {
                return Some(0);
            }
            if score >= raised {
                let outcome = Outcome::at(&probe, raised - 1, score, Some(mv));
                self.store(position.key(), ply, reduced_depth, outcome, raw_eval);
                return Some(score);
            }
        }
        None
    }
}
