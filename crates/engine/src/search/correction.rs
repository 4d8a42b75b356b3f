//! Correction history: the static evaluation corrected by how far searches disagreed with it in
//! positions of a similar structure.
//!
//! The network misjudges some kinds of position the same way again and again; a search that
//! ends far from the static evaluation says by how much. The table keeps, per structure key,
//! a running average of that difference, and the search adds it to the static evaluation
//! before it prunes or stands pat on it.
//!
//! The structure key is Lielow's analogue of chess's pawn key: what changes slowly and shapes
//! the evaluation most. It is the side to move and, for each side, how many stacks it has of
//! each height from 1 to 4 and of 5 or more, and its king's height (0: no king). Every move
//! changes it a little (a stack grows, a capture removes one), so similar positions a few moves
//! apart share entries, and positions of different material never do.

use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::Arc;

use lielow_rules::board::Side;
use lielow_rules::position::Position;

/// Entries of the table (a power of two).
const ENTRIES: usize = 1 << 14;
/// Table units per centi-stack: the average is kept in 1/256 so small corrections accumulate.
const UNIT: i32 = 256;
/// A correction is at most this many centi-stacks either way.
const LIMIT: i32 = 100;
/// The most weight one search's verdict gets, in 1/256 of the average.
const MAX_WEIGHT: i32 = 32;

/// The correction table, shared by the threads of a searcher like the move histories (relaxed
/// atomics: a lost update only blurs a statistic).
#[derive(Clone)]
pub struct CorrectionHistory {
    table: Arc<[AtomicI32]>,
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        CorrectionHistory {
            table: (0..ENTRIES).map(|_| AtomicI32::new(0)).collect(),
        }
    }
}

/// The structure key of `position` (see the module docs), as a table index.
fn index(position: &Position) -> usize {
    let mut key: u64 = position.side_to_move().index() as u64;
    for side in [Side::Blue, Side::Red] {
        let mut tall = position.stacks(side).count() as u64;
        for height in 1..=4 {
            let count = position.stacks_of_height(side, height).count() as u64;
            tall -= count;
            key = key.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(count);
        }
        let king = position
            .king(side)
            .map_or(0, |square| position.height(square)) as u64;
        key = key
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .wrapping_add(tall << 8 | king);
    }
    (key.wrapping_mul(0xD6E8_FEB8_6659_FD93) >> 50) as usize & (ENTRIES - 1)
}

impl CorrectionHistory {
    /// `raw`, the static evaluation of `position`, corrected.
    #[inline]
    pub fn correct(&self, position: &Position, raw: i32) -> i32 {
        raw + self.table[index(position)].load(Ordering::Relaxed) / UNIT
    }

    /// A search of `depth` plies found `score` where the corrected static evaluation said
    /// `corrected`: moves the position's average towards the difference, deeper searches
    /// weighing more.
    #[inline]
    pub fn update(&self, position: &Position, depth: i32, score: i32, corrected: i32) {
        let entry = &self.table[index(position)];
        let old = entry.load(Ordering::Relaxed);
        let seen = old + (score - corrected).clamp(-LIMIT, LIMIT) * UNIT;
        let weight = (depth + 1).clamp(1, MAX_WEIGHT);
        let new = (old * (256 - weight) + seen.clamp(-LIMIT * UNIT, LIMIT * UNIT) * weight) / 256;
        entry.store(new, Ordering::Relaxed);
    }

    /// Forgets everything (a new game).
    pub fn clear(&self) {
        self.table
            .iter()
            .for_each(|e| e.store(0, Ordering::Relaxed));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lielow_rules::board::BoardSize;

    #[test]
    fn repeated_verdicts_pull_the_correction_towards_them_and_stay_bounded() {
        let history = CorrectionHistory::default();
        let start = Position::start(BoardSize::Eight);
        assert_eq!(history.correct(&start, 17), 17);
        for _ in 0..200 {
            let corrected = history.correct(&start, 0);
            history.update(&start, 10, 40, corrected);
        }
        let corrected = history.correct(&start, 0);
        assert!((35..=40).contains(&corrected), "{corrected}");
        for _ in 0..500 {
            let corrected = history.correct(&start, 0);
            history.update(&start, 30, -30_000, corrected);
        }
        assert!(history.correct(&start, 0) >= -LIMIT);
        history.clear();
        assert_eq!(history.correct(&start, 5), 5);
    }

    #[test]
    fn the_key_tells_the_sides_and_the_material_apart() {
        let start = Position::start(BoardSize::Eight);
        let moved = start.play(start.legal_moves()[0]);
        assert_ne!(index(&start), index(&moved));
        assert_eq!(index(&start), index(&Position::start(BoardSize::Eight)));
    }
}
