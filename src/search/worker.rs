//! One search thread: principal variation search with a transposition table, quiescence on
//! captures and king threats, and the measured reductions.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

use super::exchange;
use super::ordering::{Stacks, MAX_PLY};
use super::split::{SplitPoint, Watched};
use super::Features;
use crate::attacks;
use crate::board::{Side, Square};
use crate::eval;
use crate::movegen::{self, Kind};
use crate::moves::Move;
use crate::position::Position;
use crate::score::Score;
use crate::time::{TimeBudget, CHECK_INTERVAL};
use crate::tt::{Bound, TranspositionTable};

const INF: i32 = Score::INFINITE;

/// What every thread of one search shares.
pub struct Shared<'a> {
    /// The caller's stop flag (`stop`, `quit`).
    pub stop: &'a AtomicBool,
    /// Set by the main thread when it is done, to end the helpers.
    pub abort: AtomicBool,
    /// Nodes counted by the helper threads, flushed every [`CHECK_INTERVAL`] nodes.
    pub helper_nodes: AtomicU64,
    /// The main thread's split points, one per ply (empty with one thread).
    pub splits: &'a [SplitPoint],
    /// 1 + the ply of the innermost open split point, 0 when none: where idle helpers look.
    pub active_split: AtomicUsize,
    /// Helpers waiting for a split point to join.
    pub idle_helpers: AtomicUsize,
}

/// The state of one thread during one search.
pub struct Worker<'a> {
    pub stacks: &'a mut Stacks,
    pub tt: &'a TranspositionTable,
    pub shared: &'a Shared<'a>,
    pub features: Features,
    pub is_main: bool,
    pub nodes: u64,
    /// Main thread only: total node budget (exact with one thread).
    pub node_limit: u64,
    pub budget: TimeBudget,
    pub started: Instant,
    /// The thread must unwind: the search is over ([`Worker::halted`]) or a split point it
    /// searches under was cut off.
    pub stopped: bool,
    /// The search is over: stopped, out of time or nodes, or (helpers) the main thread is done.
    pub halted: bool,
    /// The plies of the split points this thread searches moves of, whose cut-offs it watches.
    pub watching: Watched,
    pub seldepth: usize,
    /// The best move of the last finished iteration: searched first at the root whatever the
    /// table holds, so an unfinished iteration's best move is never worse than it.
    pub root_move: Option<Move>,
    /// `null_plies[ply]`: the move played at `ply` was a null move (no two in a row).
    pub null_plies: [bool; MAX_PLY + 1],
}

/// The score of a finished game for the side to move at `ply`.
#[inline]
fn result_score(winner: Side, to_move: Side, ply: usize) -> i32 {
    if winner == to_move {
        Score::win_in(ply as i32).0
    } else {
        Score::loss_in(ply as i32).0
    }
}

/// Late-move reduction in plies for a quiet move, by depth and move number.
fn reduction(depth: i32, moves_searched: usize) -> i32 {
    let r = 0.8 + (depth as f32).ln() * (moves_searched as f32).ln() / 2.0;
    r as i32
}

/// What the quiescence search's delta pruning allows a capture beyond its material gain (the
/// positional terms it changes: mobility, king safety, the crown).
const DELTA_MARGIN: i32 = 100;

/// History points worth one ply less (or more) of late-move reduction.
const LMR_HISTORY_DIVISOR: i32 = 6000;

/// The fewest stacks the side to move must have for null-move pruning (below, zugzwang gets
/// likelier).
const NULL_MOVE_MIN_STACKS: u32 = 4;

/// How many moves are searched at `depth` (1 to 3) before late move pruning skips quiet ones.
#[inline]
fn late_move_count(depth: i32) -> usize {
    (4 + 2 * depth * depth) as usize
}

impl Worker<'_> {
    /// Counts a node and, every [`CHECK_INTERVAL`] nodes, looks at the flags (and the main
    /// thread at the clock). Returns whether the search must unwind.
    #[inline]
    fn tick(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        self.nodes += 1;
        if self.is_main && self.nodes >= self.node_limit {
            self.halt();
        }
        if self.nodes.is_multiple_of(CHECK_INTERVAL) {
            self.check_flags();
        }
        self.stopped
    }

    fn halt(&mut self) {
        self.halted = true;
        self.stopped = true;
    }

    /// The periodic part of [`Worker::tick`].
    #[inline(never)]
    fn check_flags(&mut self) {
        let shared = self.shared;
        if self.is_main {
            // The clock never interrupts the first iteration: the move played always comes
            // from a completed search (depth 1 takes well under a millisecond).
            let out_of_time = self.root_move.is_some() && self.budget.hard_expired(self.started);
            if shared.stop.load(Ordering::Relaxed) || out_of_time {
                self.halt();
            }
        } else {
            shared
                .helper_nodes
                .fetch_add(CHECK_INTERVAL, Ordering::Relaxed);
            if shared.stop.load(Ordering::Relaxed) || shared.abort.load(Ordering::Relaxed) {
                self.halt();
            }
        }
        if self
            .watching
            .iter()
            .any(|watch| watch.triggered(shared.splits))
        {
            self.stopped = true;
        }
    }

    /// If the side to move can capture the enemy king, the capture.
    #[inline]
    fn king_capture(position: &Position) -> Option<Move> {
        let us = position.side_to_move();
        let king = position.king(us.opponent())?;
        let from = attacks::attackers(position, us, king).first()?;
        Some(Move::new(from, king, true))
    }

    /// Whether the enemy could capture the king of the side to move with its next move.
    #[inline]
    fn in_danger(position: &Position) -> bool {
        let us = position.side_to_move();
        position
            .king(us)
            .is_some_and(|king| attacks::attacked(position, us.opponent(), king))
    }

    /// Negamax principal variation search of `position` to `depth` plies, `ply` from the root.
    pub fn negamax(
        &mut self,
        position: &Position,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
    ) -> i32 {
        self.stacks.pv_len[ply] = ply;
        if depth <= 0 {
            return self.qsearch(position, alpha, beta, ply, 0, None);
        }
        if self.tick() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let us = position.side_to_move();
        if let Some(winner) = position.winner() {
            return result_score(winner, us, ply);
        }
        if let Some(capture) = Worker::king_capture(position) {
            self.stacks.update_pv_leaf(ply, capture);
            return Score::win_in(ply as i32 + 1).0;
        }
        if ply >= MAX_PLY - 1 {
            return eval::evaluate(position);
        }
        let pv_node = beta - alpha > 1;
        if ply > 0 {
            // No result here can beat a win next move or lose faster than on this move.
            alpha = alpha.max(Score::loss_in(ply as i32).0);
            beta = beta.min(Score::win_in(ply as i32 + 1).0);
            if alpha >= beta {
                return alpha;
            }
        }

        let key = position.key();
        let entry = if self.features.tt {
            self.tt.probe(key, ply as i32)
        } else {
            None
        };
        if let Some(entry) = entry {
            if !pv_node && entry.depth >= depth && entry.cuts_off(alpha, beta) {
                return entry.score;
            }
        }
        let tt_move = if ply == 0 && self.root_move.is_some() {
            self.root_move
        } else {
            entry.and_then(|e| e.best_move)
        };
        let in_danger = Worker::in_danger(position);
        let static_eval = match entry {
            Some(entry) => entry.eval,
            None => eval::evaluate(position),
        };
        if in_danger && self.features.danger_extension {
            depth += 1;
        }
        // Internal iterative reduction: with no table move the ordering is a guess, and a
        // shallower search both costs less and leaves a move for the next visit.
        if self.features.iir && depth >= 4 && tt_move.is_none() {
            depth -= 1;
        }

        // Reverse futility: far enough above beta near the leaves, the side to move keeps it.
        if self.features.reverse_futility
            && !pv_node
            && !in_danger
            && depth <= 4
            && beta.abs() < Score::MATE_BOUND
            && static_eval - 90 * depth >= beta
        {
            return static_eval;
        }

        // Null move: if passing still leaves the side to move above beta after a reduced search,
        // a real move would too. The rules forbid passing, so a position where every move hurts
        // (zugzwang) would fool it: such positions need few stacks, so a side with few is left
        // alone, as is a king under attack (passing would lose it).
        if self.features.null_move
            && !pv_node
            && !in_danger
            && depth >= 3
            && ply > 0
            && !self.null_plies[ply - 1]
            && beta.abs() < Score::MATE_BOUND
            && static_eval >= beta
            && position.stacks(us).count() >= NULL_MOVE_MIN_STACKS
        {
            let r = 3 + depth / 4;
            self.null_plies[ply] = true;
            let score = -self.negamax(&position.pass(), depth - 1 - r, -beta, -beta + 1, ply + 1);
            self.null_plies[ply] = false;
            if self.stopped {
                return 0;
            }
            if score >= beta {
                return if score >= Score::MATE_BOUND {
                    beta
                } else {
                    score
                };
            }
        }

        self.stacks.lists[ply].clear();
        movegen::generate_kind(position, Kind::All, &mut self.stacks.lists[ply]);
        let count = self.stacks.lists[ply].len();
        if count == 0 {
            // Only a side without stacks has no move, and `winner` caught that.
            return Score::loss_in(ply as i32).0;
        }
        self.stacks.score_moves(position, ply, tt_move);

        let original_alpha = alpha;
        let mut best_score = -INF;
        let mut best_move = None;
        let mut quiets_tried: arrayvec::ArrayVec<Move, 64> = arrayvec::ArrayVec::new();
        for index in 0..count {
            let mv = self.stacks.pick(ply, index);
            let quiet = !mv.is_capture();
            if self.features.late_move_pruning
                && !pv_node
                && !in_danger
                && depth <= 3
                && quiet
                && index >= late_move_count(depth)
                && best_score > -Score::MATE_BOUND
            {
                continue;
            }
            if self.features.futility
                && !pv_node
                && !in_danger
                && depth <= 2
                && index > 0
                && quiet
                && best_score > -Score::MATE_BOUND
                && static_eval + 120 * depth <= alpha
            {
                continue;
            }
            let score = if index == 0 {
                -self.negamax(&position.play(mv), depth - 1, -beta, -alpha, ply + 1)
            } else {
                let r =
                    self.late_move_reduction(position, ply, depth, index, mv, pv_node, in_danger);
                self.search_later_move(position, mv, depth, alpha, beta, ply, r, pv_node, || alpha)
            };
            if self.stopped {
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(mv);
                    alpha = score;
                    self.stacks.update_pv(ply, mv);
                    if alpha >= beta {
                        self.reward_cutoff(us, ply, depth, mv, &quiets_tried);
                        break;
                    }
                }
            }
            if quiet && !quiets_tried.is_full() {
                quiets_tried.push(mv);
            }
            if self.can_split(pv_node, depth, count - index - 1) {
                let split = self.split(
                    position,
                    ply,
                    depth,
                    alpha,
                    beta,
                    pv_node,
                    in_danger,
                    index + 1,
                    best_score,
                    best_move,
                );
                if self.stopped {
                    return 0;
                }
                (best_score, best_move, alpha) = (split.best_score, split.best_move, split.alpha);
                if let (true, Some(mv)) = (alpha >= beta, best_move) {
                    self.reward_cutoff(us, ply, depth, mv, &quiets_tried);
                }
                break;
            }
        }

        if self.features.tt {
            let bound = Bound::of(best_score, original_alpha, alpha, beta);
            self.tt.store(
                key,
                ply as i32,
                best_move,
                best_score,
                depth,
                bound,
                static_eval,
            );
        }
        best_score
    }

    /// The late-move reduction of the `index`-th move of a node: quiet moves after the first
    /// two, fewer plies at PV nodes and for moves with a good history, more with a bad one.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(super) fn late_move_reduction(
        &self,
        position: &Position,
        ply: usize,
        depth: i32,
        index: usize,
        mv: Move,
        pv_node: bool,
        in_danger: bool,
    ) -> i32 {
        if !self.features.lmr
            || depth < 3
            || index < 2
            || mv.is_capture()
            || in_danger
            || self.stacks.is_killer(ply, mv)
        {
            return 0;
        }
        let history = self.stacks.history(position.side_to_move(), mv);
        let r = reduction(depth, index) - i32::from(pv_node) - history / LMR_HISTORY_DIVISOR;
        r.clamp(0, depth - 2)
    }

    /// Searches a move after the first: with a null window at `depth - 1 - reduction`, again
    /// at full depth if that beats alpha, and at a PV node with the full window if the score
    /// falls inside it. `current_alpha` gives the alpha for that last search: at a split
    /// point another thread may have raised it meanwhile.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(super) fn search_later_move(
        &mut self,
        position: &Position,
        mv: Move,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        reduction: i32,
        pv_node: bool,
        current_alpha: impl Fn() -> i32,
    ) -> i32 {
        let child = position.play(mv);
        let mut score = -self.negamax(&child, depth - 1 - reduction, -alpha - 1, -alpha, ply + 1);
        if reduction > 0 && score > alpha {
            score = -self.negamax(&child, depth - 1, -alpha - 1, -alpha, ply + 1);
        }
        if pv_node && score > alpha && score < beta {
            let alpha = current_alpha().max(alpha);
            if alpha < beta {
                score = -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1);
            }
        }
        score
    }

    /// A quiet move cut off: it becomes a killer and gains history; the quiet moves tried
    /// before it lose some.
    fn reward_cutoff(&mut self, us: Side, ply: usize, depth: i32, mv: Move, tried: &[Move]) {
        if mv.is_capture() {
            return;
        }
        let bonus = depth * depth;
        self.stacks.add_killer(ply, mv);
        self.stacks.update_history(us, mv, bonus);
        for &quiet in tried {
            self.stacks.update_history(us, quiet, -bonus);
        }
    }

    /// Quiescence search: captures only, unless the side to move's king is attacked, in which
    /// case (for the first few plies) every move is tried, since standing pat would leave the
    /// king to be taken. Bounded three ways (see `Features`): past the first plies only
    /// recaptures on `last_capture`, captures that cannot reach alpha (delta) and captures
    /// that lose the exchange on their square are skipped.
    fn qsearch(
        &mut self,
        position: &Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qdepth: u32,
        last_capture: Option<Square>,
    ) -> i32 {
        self.stacks.pv_len[ply] = ply;
        if self.tick() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let us = position.side_to_move();
        if let Some(winner) = position.winner() {
            return result_score(winner, us, ply);
        }
        if let Some(capture) = Worker::king_capture(position) {
            self.stacks.update_pv_leaf(ply, capture);
            return Score::win_in(ply as i32 + 1).0;
        }
        if ply >= MAX_PLY - 1 || !self.features.qsearch {
            return eval::evaluate(position);
        }
        let key = position.key();
        let entry = if self.features.tt {
            self.tt.probe(key, ply as i32)
        } else {
            None
        };
        if let Some(entry) = entry {
            if entry.cuts_off(alpha, beta) {
                return entry.score;
            }
        }
        let static_eval = match entry {
            Some(entry) => entry.eval,
            None => eval::evaluate(position),
        };
        let evasions = self.features.qsearch_evasions
            && qdepth < self.features.evasion_plies
            && Worker::in_danger(position);
        let original_alpha = alpha;
        let mut best_score = -INF;
        if !evasions {
            best_score = static_eval;
            if best_score >= beta {
                return best_score;
            }
            alpha = alpha.max(best_score);
        }
        self.stacks.lists[ply].clear();
        let kind = if evasions { Kind::All } else { Kind::Captures };
        movegen::generate_kind(position, kind, &mut self.stacks.lists[ply]);
        let count = self.stacks.lists[ply].len();
        self.stacks.score_moves(position, ply, None);
        let recaptures_only = qdepth >= self.features.qsearch_full_plies;
        let mut best_move = None;
        for index in 0..count {
            let mv = self.stacks.pick(ply, index);
            if !evasions {
                let to = mv.to().expect("a capture lands on the board");
                if recaptures_only && Some(to) != last_capture {
                    continue;
                }
                if self.features.delta_pruning
                    && static_eval
                        + eval::capture_gain(position.height(mv.from()), position.height(to))
                        + DELTA_MARGIN
                        <= alpha
                {
                    continue;
                }
                if exchange::exchange(position, mv) < self.features.exchange_threshold {
                    continue;
                }
            }
            let child = position.play(mv);
            let landing = mv.to().filter(|_| mv.is_capture());
            let score = -self.qsearch(&child, -beta, -alpha, ply + 1, qdepth + 1, landing);
            if self.stopped {
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(mv);
                    self.stacks.update_pv(ply, mv);
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        if count == 0 && evasions {
            return Score::loss_in(ply as i32).0;
        }
        if self.features.tt {
            let bound = Bound::of(best_score, original_alpha, alpha, beta);
            self.tt.store(
                key,
                ply as i32,
                best_move,
                best_score,
                0,
                bound,
                static_eval,
            );
        }
        best_score
    }
}
