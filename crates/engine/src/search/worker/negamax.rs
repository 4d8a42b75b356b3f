//! The principal variation search of one node: table cut-offs, the danger extension, internal
//! iterative reduction, reverse futility, null move, late move pruning and reductions, and the
//! moves searched in order (shared with other threads once the first is done).

use arrayvec::ArrayVec;

use super::{in_danger, Outcome, Worker};
use crate::score::Score;
use crate::search::node::Node;
use crate::search::params::Params;
use lielow_rules::board::Side;
use lielow_rules::movegen::Kind;
use lielow_rules::moves::Move;
use lielow_rules::position::Position;

const INF: i32 = Score::INFINITE;

/// How many quiet moves a node remembers having tried (to take history from them on a cut-off).
const QUIETS_REMEMBERED: usize = 64;

/// How many moves are searched at `depth` before late move pruning skips quiet ones
/// (`LateMoveBase + LateMoveFactor * depth^2`).
#[inline]
fn late_move_count(params: &Params, depth: i32) -> usize {
    (params.late_move_base + params.late_move_factor * depth * depth).max(0) as usize
}

impl Worker<'_> {
    /// Negamax principal variation search of `position` at `node`.
    pub fn negamax(&mut self, position: &Position, mut node: Node) -> i32 {
        if node.depth <= 0 {
            return self.qsearch(position, node, 0, None);
        }
        let ply = node.ply;
        if let Some(score) = self.open_node(position, ply, false) {
            return score;
        }
        let us = position.side_to_move();
        if ply > 0 {
            // No result here can beat a win next move or lose faster than on this move.
            node.alpha = node.alpha.max(Score::loss_in(ply as i32).0);
            node.beta = node.beta.min(Score::win_in(ply as i32 + 1).0);
            if node.alpha >= node.beta {
                return node.alpha;
            }
        }

        let key = position.key();
        let entry = self.probe(key, ply);
        if let Some(entry) = entry {
            if !node.is_pv() && entry.depth >= node.depth && entry.cuts_off(node.alpha, node.beta) {
                return entry.score;
            }
        }
        let tt_move = if ply == 0 && self.root_move.is_some() {
            self.root_move
        } else {
            entry.and_then(|e| e.best_move)
        };
        let in_danger = in_danger(position);
        let static_eval = self.static_eval(position, ply, entry);
        self.evals[ply] = (!in_danger).then_some(static_eval);
        // What the pruning decisions below weigh: the static evaluation, sharpened by the
        // table's score (`TTEval`); the improving flag keeps comparing static evaluations.
        let eval = self.pruning_eval(entry, static_eval);
        let improving = self.params.improving && self.improving(ply);
        if in_danger && self.params.danger_extension {
            node.depth += 1;
        }
        // Internal iterative reduction: with no table move the ordering is a guess, and a
        // shallower search both costs less and leaves a move for the next visit.
        if self.params.iir && node.depth >= self.params.iir_min_depth && tt_move.is_none() {
            node.depth -= 1;
        }
        let depth = node.depth;

        // Reverse futility: far enough above beta near the leaves, the side to move keeps it.
        if self.params.reverse_futility
            && !node.is_pv()
            && !in_danger
            && depth <= self.params.reverse_futility_depth
            && node.beta.abs() < Score::MATE_BOUND
            && eval - self.params.reverse_futility_margin * (depth - i32::from(improving))
                >= node.beta
        {
            return eval;
        }

        if let Some(score) = self.null_move(position, node, in_danger, eval) {
            return score;
        }

        let (only, excluded): (&[Move], &[Move]) = if ply == 0 {
            (self.root_moves, &self.root_excluded)
        } else {
            (&[], &[])
        };
        let previous = self.previous_moves(ply);
        let count = self.ordering.generate_among(
            position,
            ply,
            Kind::All,
            tt_move,
            previous,
            only,
            excluded,
        );
        let late_moves = if self.params.improving && !improving {
            late_move_count(&self.params, depth) * self.params.late_move_worsening as usize / 100
        } else {
            late_move_count(&self.params, depth)
        };
        if count == 0 {
            // Only a side without stacks has no move, and `winner` caught that.
            return Score::loss_in(ply as i32).0;
        }

        let alpha_on_entry = node.alpha;
        let mut best_score = -INF;
        let mut best_move = None;
        let mut quiets_tried: ArrayVec<Move, QUIETS_REMEMBERED> = ArrayVec::new();
        for index in 0..count {
            let mv = self.ordering.pick(ply, index);
            self.prefetch_sibling(position, ply);
            let quiet = !mv.is_capture();
            let prunable = !node.is_pv()
                && !in_danger
                && quiet
                && best_score > -Score::MATE_BOUND
                && node.alpha.abs() < Score::MATE_BOUND;
            if prunable
                && self.params.late_move_pruning
                && depth <= self.params.late_move_depth
                && index >= late_moves
            {
                continue;
            }
            self.report_root_move(ply, index, mv);
            let score = if index == 0 {
                let child = self.play(position, mv, ply);
                -self.negamax(&child, node.child(0, node.alpha, node.beta))
            } else {
                let r = self.late_move_reduction(position, node, index, mv, in_danger);
                self.search_later_move(position, mv, node, r, || node.alpha)
            };
            if self.unwinding() {
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > node.alpha {
                    best_move = Some(mv);
                    node.alpha = score;
                    self.pv.update(ply, mv);
                    if node.alpha >= node.beta {
                        self.reward_cutoff(us, ply, depth, mv, &quiets_tried);
                        break;
                    }
                }
            }
            if quiet && !quiets_tried.is_full() {
                quiets_tried.push(mv);
            }
            if self.can_split(node, count - index - 1) {
                let split = self.split(position, node, in_danger, index + 1, best_score, best_move);
                if self.unwinding() {
                    return 0;
                }
                (best_score, best_move, node.alpha) =
                    (split.best_score, split.best_move, split.alpha);
                if let (true, Some(mv)) = (node.alpha >= node.beta, best_move) {
                    self.reward_cutoff(us, ply, depth, mv, &quiets_tried);
                }
                break;
            }
        }

        if best_move.is_none() {
            self.reward_prior_move(position, ply, depth);
        }
        let outcome = Outcome::at(&node, alpha_on_entry, best_score, best_move);
        self.store(key, ply, depth, outcome, static_eval);
        best_score
    }

    /// Every move of the node at `ply` failed low: the opponent's quiet move that led here
    /// refuted them all, and gains history as if it had cut off (`HistoryPrior` hundredths of
    /// a cut-off's bonus, by board size).
    fn reward_prior_move(&mut self, position: &Position, ply: usize, depth: i32) {
        let share = self.params.history_prior.on(position.size());
        let Some(prior) = ply.checked_sub(1).and_then(|at| self.played[at]) else {
            return;
        };
        if share == 0 || prior.is_capture() {
            return;
        }
        let us = position.side_to_move();
        let bonus = depth * depth * self.params.history_bonus / 100 * share / 100;
        let previous = self.previous_moves(ply - 1);
        self.ordering
            .update_quiet(us.opponent(), prior, previous, bonus);
    }

    /// Null move: if passing still leaves the side to move above beta after a reduced search,
    /// a real move would too; returns the node's score when it does. `eval` is the node's
    /// evaluation as the pruning decisions see it. The rules forbid passing,
    /// so a position where every move hurts (zugzwang) would fool it: such positions need few
    /// stacks, so a side with few is left alone, as is a king under attack (passing would lose
    /// it).
    fn null_move(
        &mut self,
        position: &Position,
        node: Node,
        in_danger: bool,
        eval: i32,
    ) -> Option<i32> {
        let ply = node.ply;
        let tried = self.params.null_move
            && !node.is_pv()
            && !in_danger
            && node.depth >= self.params.null_move_min_depth
            && ply > 0
            && !self.null_plies[ply - 1]
            && node.beta.abs() < Score::MATE_BOUND
            && eval >= node.beta
            && position.stacks(position.side_to_move()).count()
                >= self.params.null_move_min_stacks as u32;
        if !tried {
            return None;
        }
        let r = self.params.null_move_base + node.depth / self.params.null_move_divisor;
        self.null_plies[ply] = true;
        let child = self.pass(position, node.ply);
        let reply = node.scout_child(r, node.beta - 1);
        let score = -self.negamax(&child, reply);
        self.null_plies[ply] = false;
        if self.unwinding() {
            return Some(0);
        }
        (score >= node.beta).then_some(if score >= Score::MATE_BOUND {
            node.beta
        } else {
            score
        })
    }

    /// The late-move reduction of the `index`-th move of a node: quiet moves from the
    /// `LMRMinIndex`-th (1) on, at depth `LMRMinDepth` (3) or more, by the table
    /// (`reductions.rs`); fewer plies at PV nodes and for moves with a good history, more with
    /// a bad one, and when not improving.
    #[inline]
    pub(super) fn late_move_reduction(
        &self,
        position: &Position,
        node: Node,
        index: usize,
        mv: Move,
        in_danger: bool,
    ) -> i32 {
        if !self.params.lmr
            || node.depth < self.params.lmr_min_depth
            || index < self.params.lmr_min_index as usize
            || mv.is_capture()
            || in_danger
            || self.ordering.is_killer(node.ply, mv)
        {
            return 0;
        }
        let previous = self.previous_moves(node.ply);
        let history = self
            .ordering
            .quiet_history(position.side_to_move(), mv, previous);
        let worsening = self.params.improving && !node.is_pv() && !self.improving(node.ply);
        let r = self.reductions.plies(node.depth, index) - i32::from(node.is_pv())
            + i32::from(worsening)
            - history / self.params.lmr_history_divisor;
        r.clamp(0, node.depth - 2)
    }

    /// Searches a move after the first: with a null window at `reduction` plies less, again at
    /// full depth if that beats alpha, and at a PV node with the full window if the score falls
    /// inside it. `current_alpha` gives the alpha for that last search: at a split point
    /// another thread may have raised it meanwhile.
    #[inline]
    pub(super) fn search_later_move(
        &mut self,
        position: &Position,
        mv: Move,
        node: Node,
        reduction: i32,
        current_alpha: impl Fn() -> i32,
    ) -> i32 {
        let child = self.play(position, mv, node.ply);
        let alpha = node.alpha;
        let scout = node.scout_child(reduction, alpha);
        let mut score = -self.negamax(&child, scout);
        if reduction > 0 && score > alpha {
            score = -self.negamax(&child, node.scout_child(0, alpha));
        }
        if node.is_pv() && score > alpha && score < node.beta {
            let alpha = current_alpha().max(alpha);
            if alpha < node.beta {
                score = -self.negamax(&child, node.child(0, alpha, node.beta));
            }
        }
        score
    }

    /// A move cut off. A quiet one becomes a killer and gains history, and the quiet moves
    /// tried before it lose some.
    fn reward_cutoff(&mut self, us: Side, ply: usize, depth: i32, mv: Move, quiets: &[Move]) {
        if mv.is_capture() {
            return;
        }
        // Hundredths of depth^2: 100 is depth^2 itself.
        let bonus = depth * depth * self.params.history_bonus / 100;
        let previous = self.previous_moves(ply);
        self.ordering.add_killer(ply, mv);
        self.ordering.update_quiet(us, mv, previous, bonus);
        for &quiet in quiets {
            self.ordering.update_quiet(us, quiet, previous, -bonus);
        }
    }
}
