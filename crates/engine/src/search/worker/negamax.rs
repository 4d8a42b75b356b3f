//! The principal variation search of one node: table cut-offs, the danger extension, internal
//! iterative reduction, reverse futility, null move, late move pruning and reductions, and the
//! moves searched in order (shared with other threads once the first is done).

use arrayvec::ArrayVec;

use super::{in_danger, Outcome, Worker};
use crate::score::Score;
use crate::search::node::Node;
use crate::tt::Entry;
use lielow_rules::board::Side;
use lielow_rules::movegen::Kind;
use lielow_rules::moves::Move;
use lielow_rules::position::Position;

const INF: i32 = Score::INFINITE;

/// How many quiet moves a node remembers having tried (to take history from them on a cut-off).
const QUIETS_REMEMBERED: usize = 64;

/// What the moves loop of a node knows before it starts.
struct MovesLoop {
    /// How many moves the node has.
    count: usize,
    /// The side to move's king is attacked.
    in_danger: bool,
    /// Late move pruning skips the quiet moves from this index on (near the leaves).
    late_moves: usize,
}

/// What the moves loop found: the best score and the move that raised alpha, if any.
struct Best {
    score: i32,
    mv: Option<Move>,
}

impl Worker<'_> {
    /// Negamax principal variation search of `position` at `node`, in numbered steps laid out
    /// as Stockfish's search lays out its own.
    pub fn negamax(&mut self, position: &Position, mut node: Node) -> i32 {
        // Step 1. At the horizon, quiescence; a node that needs no move is settled at once.
        if node.depth <= 0 {
            return self.qsearch(position, node, 0, None);
        }
        let ply = node.ply;
        if let Some(score) = self.open_node(position, ply, false) {
            return score;
        }

        // Step 2. Mate distance pruning.
        if let Some(score) = mate_distance_pruning(&mut node) {
            return score;
        }

        // Step 3. Transposition table lookup: a deep enough entry cuts off a non-PV node.
        let key = position.key();
        let entry = self.probe(key, ply);
        if let Some(entry) = entry {
            if !node.is_pv() && entry.depth >= node.depth && entry.cuts_off(node.alpha, node.beta) {
                return entry.score;
            }
        }
        let tt_move = self.tt_move(ply, entry);

        // Step 4. Static evaluation, and what the pruning decisions weigh: the static
        // evaluation sharpened by the table's score (`TTEval`); the improving flag keeps
        // comparing static evaluations.
        let in_danger = in_danger(position);
        let static_eval = self.static_eval(position, ply, entry);
        self.evals[ply] = (!in_danger).then_some(static_eval);
        let eval = self.pruning_eval(entry, static_eval);
        let improving = self.params.improving && self.improving(ply);

        // Step 5. Danger extension and internal iterative reduction.
        node.depth = self.adjusted_depth(node.depth, in_danger, tt_move.is_some());

        // Step 6. Reverse futility pruning.
        if self.reverse_futility(node, in_danger, eval, improving) {
            return eval;
        }

        // Step 7. Null move pruning.
        if let Some(score) = self.null_move(position, node, in_danger, eval) {
            return score;
        }

        // Step 8. Generate and order the moves.
        let count = self.generate_moves(position, ply, tt_move);
        if count == 0 {
            // Only a side without stacks has no move, and `winner` caught that.
            return Score::loss_in(ply as i32).0;
        }

        // Step 9. The moves loop.
        let alpha_on_entry = node.alpha;
        let moves = MovesLoop {
            count,
            in_danger,
            late_moves: self.late_moves(node.depth, improving),
        };
        let Some(best) = self.search_moves(position, &mut node, &moves) else {
            return 0;
        };

        // Step 10. A node where every move failed low rewards the move that led to it; the
        // result goes to the table.
        if best.mv.is_none() {
            self.reward_prior_move(position, ply, node.depth);
        }
        let outcome = Outcome::at(&node, alpha_on_entry, best.score, best.mv);
        self.store(key, ply, node.depth, outcome, static_eval);
        best.score
    }

    /// The move to search first: at the root the last iteration's best move, else the
    /// table's.
    #[inline]
    fn tt_move(&self, ply: usize, entry: Option<Entry>) -> Option<Move> {
        if ply == 0 && self.root_move.is_some() {
            self.root_move
        } else {
            entry.and_then(|e| e.best_move)
        }
    }

    /// The depth a node is searched to: a ply more while the king is attacked (the danger
    /// extension); a ply less without a table move (internal iterative reduction: the ordering
    /// is a guess, and a shallower search both costs less and leaves a move for the next
    /// visit).
    #[inline]
    fn adjusted_depth(&self, mut depth: i32, in_danger: bool, has_tt_move: bool) -> i32 {
        if in_danger && self.params.danger_extension {
            depth += 1;
        }
        if self.params.iir && depth >= self.params.iir_min_depth && !has_tt_move {
            depth -= 1;
        }
        depth
    }

    /// Reverse futility: whether a node off the principal variation near the leaves is far
    /// enough above beta for the side to move to keep it.
    #[inline]
    fn reverse_futility(&self, node: Node, in_danger: bool, eval: i32, improving: bool) -> bool {
        self.params.reverse_futility
            && !node.is_pv()
            && !in_danger
            && node.depth <= self.params.reverse_futility_depth
            && node.beta.abs() < Score::MATE_BOUND
            && eval - self.params.reverse_futility_margin * (node.depth - i32::from(improving))
                >= node.beta
    }

    /// Generates and orders the moves of the node at `ply` (at the root, only those
    /// `searchmoves` and the earlier MultiPV lines leave); returns how many there are.
    #[inline]
    fn generate_moves(&mut self, position: &Position, ply: usize, tt_move: Option<Move>) -> usize {
        let (only, excluded): (&[Move], &[Move]) = if ply == 0 {
            (self.root_moves, &self.root_excluded)
        } else {
            (&[], &[])
        };
        let previous = self.previous_moves(ply);
        self.ordering
            .generate_among(position, ply, Kind::All, tt_move, previous, only, excluded)
    }

    /// How many moves are searched at `depth` before late move pruning skips quiet ones
    /// (`LateMoveBase + LateMoveFactor * depth^2`, `LateMoveWorsening` hundredths of that
    /// when not improving).
    #[inline]
    fn late_moves(&self, depth: i32, improving: bool) -> usize {
        let params = &self.params;
        let count =
            (params.late_move_base + params.late_move_factor * depth * depth).max(0) as usize;
        if params.improving && !improving {
            count * params.late_move_worsening as usize / 100
        } else {
            count
        }
    }

    /// Searches the moves of `node` in order, raising its alpha, until one cuts off or every
    /// move is done (shared with idle helpers once the first is: `splitting.rs`). `None`: the
    /// thread must unwind.
    fn search_moves(
        &mut self,
        position: &Position,
        node: &mut Node,
        moves: &MovesLoop,
    ) -> Option<Best> {
        let (ply, depth) = (node.ply, node.depth);
        let us = position.side_to_move();
        let mut best = Best {
            score: -INF,
            mv: None,
        };
        let mut quiets_tried: ArrayVec<Move, QUIETS_REMEMBERED> = ArrayVec::new();
        for index in 0..moves.count {
            let mv = self.ordering.pick(ply, index);
            self.prefetch_sibling(position, ply);
            let quiet = !mv.is_capture();
            // Late move pruning: near the leaves, the quiet moves ordered last are skipped.
            if quiet
                && index >= moves.late_moves
                && self.prunes_late(*node, moves.in_danger, best.score)
            {
                continue;
            }
            // Principal variation search: the first move with the full window, the others
            // with a null window, reduced, and again as needed.
            self.report_root_move(ply, index, mv);
            let score = if index == 0 {
                let child = self.play(position, mv, ply);
                -self.negamax(&child, node.child(0, node.alpha, node.beta))
            } else {
                let r = self.late_move_reduction(position, *node, index, mv, moves.in_danger);
                self.search_later_move(position, mv, *node, r, || node.alpha)
            };
            if self.unwinding() {
                return None;
            }
            if score > best.score {
                best.score = score;
                if score > node.alpha {
                    best.mv = Some(mv);
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
            // The moves left, shared with idle helpers.
            if self.can_split(*node, moves.count - index - 1) {
                let split = self.split(
                    position,
                    *node,
                    moves.in_danger,
                    index + 1,
                    best.score,
                    best.mv,
                );
                if self.unwinding() {
                    return None;
                }
                (best.score, best.mv, node.alpha) =
                    (split.best_score, split.best_move, split.alpha);
                if let (true, Some(mv)) = (node.alpha >= node.beta, best.mv) {
                    self.reward_cutoff(us, ply, depth, mv, &quiets_tried);
                }
                break;
            }
        }
        Some(best)
    }

    /// Whether late move pruning may skip a quiet move past the node's count: off the
    /// principal variation, the king safe, near the leaves, and neither alpha nor the best
    /// score so far a proven result.
    #[inline]
    fn prunes_late(&self, node: Node, in_danger: bool, best_score: i32) -> bool {
        !node.is_pv()
            && !in_danger
            && best_score > -Score::MATE_BOUND
            && node.alpha.abs() < Score::MATE_BOUND
            && self.params.late_move_pruning
            && node.depth <= self.params.late_move_depth
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

/// Mate distance pruning: no result here can beat a win next move or lose faster than on this
/// move, so the window narrows to what is possible; the node's score when nothing is.
#[inline]
fn mate_distance_pruning(node: &mut Node) -> Option<i32> {
    if node.ply == 0 {
        return None;
    }
    let ply = node.ply as i32;
    node.alpha = node.alpha.max(Score::loss_in(ply).0);
    node.beta = node.beta.min(Score::win_in(ply + 1).0);
    (node.alpha >= node.beta).then_some(node.alpha)
}
