//! Move ordering: the per-thread tables that learn which moves cut off, and the scores that put
//! the likeliest best move first.
//!
//! Order: the table move, king captures, other captures (most valuable victim — the tallest —
//! first, then the least valuable attacker: a capturing stack drops to height 1, so a short one
//! loses least), the two killer moves of the ply, then quiet moves by history. Bearing off one's
//! own king loses at once and comes last.
//!
//! Every list lives in per-thread storage allocated once ([`MoveOrdering`]), so a node
//! allocates nothing.

use std::sync::atomic::{AtomicI16, Ordering};
use std::sync::Arc;

use arrayvec::ArrayVec;

use super::node::MAX_PLY;
use lielow_rules::board::{Side, SQUARES};
use lielow_rules::movegen::{self, Kind, MoveList, MAX_MOVES};
use lielow_rules::moves::Move;
use lielow_rules::position::Position;

/// Moves found by selection before the rest of the list is sorted (see [`Stacks::pick`]).
const SELECTION_PICKS: usize = 4;

const TT_MOVE: i32 = 1 << 30;
const KING_CAPTURE: i32 = 1 << 29;
const CAPTURE: i32 = 1 << 28;
const KILLER: i32 = 1 << 27;
const OWN_KING_OFF: i32 = -(1 << 30);
/// History scores stay within ±this (well below the killer score).
const HISTORY_MAX: i32 = 1 << 14;

/// Landing index of a move for the history table: the square, or 81 for a bear-off.
#[inline]
fn landing(mv: Move) -> usize {
    mv.to().map_or(SQUARES, |to| to.index())
}

/// One thread's move lists and scores by ply and its killer moves, with the history table its
/// searcher's threads share. Allocated once per thread and kept between the searches of a game.
pub struct MoveOrdering {
    lists: Vec<MoveList>,
    scores: Vec<[i32; MAX_MOVES]>,
    killers: [[Option<Move>; 2]; MAX_PLY + 1],
    /// `next[ply]`: [`MoveOrdering::next_guess`].
    next: [Option<Move>; MAX_PLY + 1],
    /// `history[side][from * 82 + landing]`: how often the quiet move cut off, aged by gravity.
    /// Shared by every thread of a searcher (relaxed loads and stores; a lost update between
    /// racing threads only blurs a statistic).
    history: Arc<[AtomicI16]>,
    /// Continuation histories: `continuation[k]` scores a quiet move by the move played `k + 1`
    /// plies before it (its landing square), so a reply learns what it answers. Shared like
    /// `history`.
    continuation: [Arc<[AtomicI16]>; 2],
    /// Whether the continuation tables order the moves (`ContHistory`).
    use_continuation: bool,
}

/// Entries of one continuation table: the previous move's side and landing, then this move's
/// from and landing squares.
const CONTINUATION_ENTRIES: usize = 2 * (SQUARES + 1) * SQUARES * (SQUARES + 1);

fn zeroed(entries: usize) -> Arc<[AtomicI16]> {
    (0..entries).map(|_| AtomicI16::new(0)).collect()
}

/// Moves a history entry towards +-HISTORY_MAX by `bonus`, the more slowly the closer it is
/// ("gravity"), so old lessons fade and scores stay bounded.
#[inline]
fn age_towards(entry: &AtomicI16, bonus: i32) {
    let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    let old = i32::from(entry.load(Ordering::Relaxed));
    let new = old + bonus - old * bonus.abs() / HISTORY_MAX;
    // Within +-(HISTORY_MAX + 1) whenever `old` is (the truncating division gives at most one
    // more), so an i16 holds every score: half the cache lines of an i32 table.
    entry.store(new as i16, Ordering::Relaxed);
}

impl Default for MoveOrdering {
    fn default() -> Self {
        MoveOrdering::new()
    }
}

impl MoveOrdering {
    pub fn new() -> MoveOrdering {
        MoveOrdering {
            lists: (0..=MAX_PLY).map(|_| MoveList::new()).collect(),
            scores: vec![[0; MAX_MOVES]; MAX_PLY + 1],
            killers: [[None; 2]; MAX_PLY + 1],
            next: [None; MAX_PLY + 1],
            history: zeroed(2 * SQUARES * (SQUARES + 1)),
            continuation: [zeroed(CONTINUATION_ENTRIES), zeroed(CONTINUATION_ENTRIES)],
            use_continuation: false,
        }
    }

    /// Whether the continuation histories order quiet moves beside the butterfly history (the
    /// search's `ContHistory` switch).
    pub fn use_continuation(&mut self, continuation: bool) {
        self.use_continuation = continuation;
    }

    /// The ordering of another thread of the same searcher: its own lists and killers, this
    /// one's history.
    pub fn sharing_history(&self) -> MoveOrdering {
        MoveOrdering {
            lists: (0..=MAX_PLY).map(|_| MoveList::new()).collect(),
            scores: vec![[0; MAX_MOVES]; MAX_PLY + 1],
            killers: [[None; 2]; MAX_PLY + 1],
            next: [None; MAX_PLY + 1],
            history: Arc::clone(&self.history),
            continuation: self.continuation.clone(),
            use_continuation: self.use_continuation,
        }
    }

    /// Forgets what was learned (a new game).
    pub fn clear(&mut self) {
        self.killers = [[None; 2]; MAX_PLY + 1];
        let tables = [&self.history, &self.continuation[0], &self.continuation[1]];
        for table in tables {
            table.iter().for_each(|h| h.store(0, Ordering::Relaxed));
        }
    }

    /// Generates the moves of one kind at `ply` and scores them, `tt_move` first; returns how
    /// many there are. [`MoveOrdering::pick`] then hands them out best first.
    pub fn generate(
        &mut self,
        position: &Position,
        ply: usize,
        kind: Kind,
        tt_move: Option<Move>,
    ) -> usize {
        self.generate_among(position, ply, kind, tt_move, [None; 2], &[], &[])
    }

    /// [`MoveOrdering::generate`], keeping only the moves in `only` unless it is empty (the
    /// root of `go searchmoves`) and none of `excluded` (the root of a later MultiPV line);
    /// `previous` are the moves played one and two plies before (for continuation history).
    #[allow(clippy::too_many_arguments)]
    pub fn generate_among(
        &mut self,
        position: &Position,
        ply: usize,
        kind: Kind,
        tt_move: Option<Move>,
        previous: [Option<Move>; 2],
        only: &[Move],
        excluded: &[Move],
    ) -> usize {
        self.lists[ply].clear();
        movegen::generate_kind(position, kind, &mut self.lists[ply]);
        if !only.is_empty() || !excluded.is_empty() {
            self.lists[ply]
                .retain(|mv| (only.is_empty() || only.contains(mv)) && !excluded.contains(mv));
        }
        self.score_moves(position, ply, tt_move, previous);
        self.lists[ply].len()
    }

    /// How many moves `ply` has.
    #[inline]
    pub fn len(&self, ply: usize) -> usize {
        self.lists[ply].len()
    }

    /// The move at `index` of `ply` as ordered so far (after [`MoveOrdering::pick`] reached it).
    #[inline]
    pub fn move_at(&self, ply: usize, index: usize) -> Move {
        self.lists[ply][index]
    }

    #[inline]
    fn history_index(side: Side, mv: Move) -> usize {
        (side.index() * SQUARES + mv.from().index()) * (SQUARES + 1) + landing(mv)
    }

    #[inline]
    pub fn history(&self, side: Side, mv: Move) -> i32 {
        i32::from(self.history[MoveOrdering::history_index(side, mv)].load(Ordering::Relaxed))
    }

    /// Moves a history score towards +-HISTORY_MAX by `bonus` ([`age_towards`]).
    #[inline]
    pub fn update_history(&mut self, side: Side, mv: Move, bonus: i32) {
        age_towards(&self.history[MoveOrdering::history_index(side, mv)], bonus);
    }

    #[inline]
    fn continuation_index(side: Side, previous: Move, mv: Move) -> usize {
        ((side.index() * (SQUARES + 1) + landing(previous)) * SQUARES + mv.from().index())
            * (SQUARES + 1)
            + landing(mv)
    }

    /// A quiet move's history: the butterfly table's, plus the continuation tables' for the
    /// moves played before it when they are in use.
    #[inline]
    pub fn quiet_history(&self, side: Side, mv: Move, previous: [Option<Move>; 2]) -> i32 {
        let mut score = self.history(side, mv);
        if self.use_continuation {
            for (table, before) in self.continuation.iter().zip(previous) {
                if let Some(before) = before {
                    score += i32::from(
                        table[MoveOrdering::continuation_index(side, before, mv)]
                            .load(Ordering::Relaxed),
                    );
                }
            }
        }
        score
    }

    /// [`MoveOrdering::update_history`] for a quiet move, and its continuation entries.
    #[inline]
    pub fn update_quiet(&mut self, side: Side, mv: Move, previous: [Option<Move>; 2], bonus: i32) {
        self.update_history(side, mv, bonus);
        if self.use_continuation {
            for (table, before) in self.continuation.iter().zip(previous) {
                if let Some(before) = before {
                    age_towards(
                        &table[MoveOrdering::continuation_index(side, before, mv)],
                        bonus,
                    );
                }
            }
        }
    }

    /// Records a quiet move that cut off at `ply`.
    #[inline]
    pub fn add_killer(&mut self, ply: usize, mv: Move) {
        let killers = &mut self.killers[ply];
        if killers[0] != Some(mv) {
            killers[1] = killers[0];
            killers[0] = Some(mv);
        }
    }

    /// Scores the moves of `lists[ply]` into `scores[ply]` for [`MoveOrdering::pick`].
    fn score_moves(
        &mut self,
        position: &Position,
        ply: usize,
        tt_move: Option<Move>,
        previous: [Option<Move>; 2],
    ) {
        let us = position.side_to_move();
        let enemy_king = position.king(us.opponent());
        let own_king = position.king(us);
        let killers = self.killers[ply];
        let count = self.lists[ply].len();
        for i in 0..count {
            let mv = self.lists[ply][i];
            let score = if Some(mv) == tt_move {
                TT_MOVE
            } else if let (true, Some(to)) = (mv.is_capture(), mv.to()) {
                let exchange = 16 * position.height(to) as i32 - position.height(mv.from()) as i32;
                if Some(to) == enemy_king {
                    KING_CAPTURE
                } else {
                    CAPTURE + exchange
                }
            } else if mv.is_bear_off() && Some(mv.from()) == own_king {
                OWN_KING_OFF
            } else if killers[0] == Some(mv) {
                KILLER
            } else if killers[1] == Some(mv) {
                KILLER - 1
            } else {
                self.quiet_history(us, mv, previous)
            };
            self.scores[ply][i] = score;
        }
    }

    /// The move to search `index`-th at `ply`: the best-scored move of `index..`. The first few
    /// are found by selection (most nodes cut off after a few moves); a node that gets past them
    /// sorts the rest once, since selecting each of 40 quiet moves in turn costs n^2.
    #[inline]
    pub fn pick(&mut self, ply: usize, index: usize) -> Move {
        let count = self.lists[ply].len();
        if index >= SELECTION_PICKS {
            if index == SELECTION_PICKS {
                self.sort_rest(ply, index);
            }
            self.next[ply] = (index + 1 < count).then(|| self.lists[ply][index + 1]);
            return self.lists[ply][index];
        }
        let scores = &mut self.scores[ply][..count];
        // The best and, as a guess at the next pick, the runner-up (ties may make the guess
        // wrong; it only decides which table entry is loaded early).
        let (mut best, mut second) = (index, None::<usize>);
        for i in index + 1..count {
            if scores[i] > scores[best] {
                second = Some(best);
                best = i;
            } else if second.is_none_or(|second| scores[i] > scores[second]) {
                second = Some(i);
            }
        }
        scores.swap(index, best);
        self.lists[ply].swap(index, best);
        // The move that stood at `index` now stands at `best`.
        self.next[ply] = second.map(|at| self.lists[ply][if at == index { best } else { at }]);
        self.lists[ply][index]
    }

    /// A guess, made by the last [`MoveOrdering::pick`] at `ply`, at the move it will hand out
    /// next: the search loads that move's child's table entry early.
    #[inline]
    pub fn next_guess(&self, ply: usize) -> Option<Move> {
        self.next[ply]
    }

    /// Sorts the moves `from..` of `ply` by score, best first; equal scores keep their order.
    #[cold]
    fn sort_rest(&mut self, ply: usize, from: usize) {
        let count = self.lists[ply].len();
        // One key per move: score (biased to unsigned), then the position reversed so that the
        // earlier of two equal scores sorts first, then the move's bits to rebuild the list.
        let mut keys: ArrayVec<u64, MAX_MOVES> = (from..count)
            .map(|i| {
                let score = (i64::from(self.scores[ply][i]) - i64::from(i32::MIN)) as u64;
                score << 32 | (0xFFFF - i as u64) << 16 | u64::from(self.lists[ply][i].to_bits())
            })
            .collect();
        keys.sort_unstable_by(|a, b| b.cmp(a));
        for (i, key) in (from..count).zip(keys) {
            self.scores[ply][i] = ((key >> 32) as i64 + i64::from(i32::MIN)) as i32;
            self.lists[ply][i] = Move::from_bits(key as u16).expect("bits of a generated move");
        }
    }

    /// Whether the move at `index` of `ply` was scored as a killer.
    #[inline]
    pub fn is_killer(&self, ply: usize, mv: Move) -> bool {
        self.killers[ply].contains(&Some(mv))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The i16 tables rely on gravity keeping every score within +-(HISTORY_MAX + 1): from any
    /// score in that range, any bonus (clamped or not) lands back inside it.
    #[test]
    fn gravity_keeps_scores_within_an_i16() {
        let bound = HISTORY_MAX + 1;
        let olds = (-bound..=bound)
            .step_by(97)
            .chain([-bound, -1, 0, 1, bound]);
        for old in olds {
            for bonus in (-3 * HISTORY_MAX..=3 * HISTORY_MAX).step_by(89).chain([
                -HISTORY_MAX,
                -1,
                1,
                HISTORY_MAX,
            ]) {
                let entry = AtomicI16::new(old as i16);
                age_towards(&entry, bonus);
                let new = i32::from(entry.load(Ordering::Relaxed));
                let exact = old + bonus.clamp(-HISTORY_MAX, HISTORY_MAX)
                    - old * bonus.clamp(-HISTORY_MAX, HISTORY_MAX).abs() / HISTORY_MAX;
                assert_eq!(new, exact, "old {old}, bonus {bonus}");
                assert!(new.abs() <= bound, "old {old}, bonus {bonus} gave {new}");
            }
        }
    }
}
