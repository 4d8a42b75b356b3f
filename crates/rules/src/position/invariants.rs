//! The internal invariants of a [`Position`]: its redundant tables (stacks by side, by height,
//! counts, the set of heights present, the key) must agree. Play keeps them in step
//! incrementally, so a slip in `play_in_place` shows up here; tests and debug assertions call
//! [`Position::validate`] on every position they reach.

use std::fmt;

use crate::board::{Side, Square, MAX_HEIGHT};
use crate::position::Position;

/// The first invariant [`Position::validate`] found broken: a bug in this crate, never a
/// property of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InvariantError {
    /// A square holds stacks of both sides.
    BothSides,
    /// A stack lies off the board.
    OffBoard,
    /// The tables of stacks by height disagree with the stacks on `square`.
    HeightTables {
        /// The square.
        square: Square,
    },
    /// A side's count of stacks of one height, or its set of heights present, disagrees with
    /// its stacks.
    StackCounts {
        /// The side.
        side: Side,
        /// The height.
        height: usize,
    },
    /// A side's crown is on a square without a stack of that side.
    CrownOffStack {
        /// The side.
        side: Side,
        /// The crown's square.
        king: Square,
    },
    /// The incremental Zobrist key differs from the key computed from scratch.
    Key,
}

impl fmt::Display for InvariantError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            InvariantError::BothSides => f.write_str("a square holds stacks of both sides"),
            InvariantError::OffBoard => f.write_str("a stack lies off the board"),
            InvariantError::HeightTables { square } => {
                write!(f, "height tables disagree on {square}")
            }
            InvariantError::StackCounts { side, height } => {
                write!(f, "{side}'s stack counts disagree at height {height}")
            }
            InvariantError::CrownOffStack { side, king } => {
                write!(f, "{side}'s crown on {king} is not on its own stack")
            }
            InvariantError::Key => f.write_str("incremental key differs from the recomputed key"),
        }
    }
}

impl std::error::Error for InvariantError {}

impl Position {
    /// Checks every internal invariant; for tests and debug assertions (it allocates and walks
    /// the whole board: not for the search).
    ///
    /// ```
    /// use lielow_rules::{BoardSize, Position};
    ///
    /// let mut position = Position::start(BoardSize::Nine);
    /// for _ in 0..10 {
    ///     position = position.play(position.legal_moves()[0]);
    ///     assert_eq!(position.validate(), Ok(()));
    /// }
    /// ```
    pub fn validate(&self) -> Result<(), InvariantError> {
        if (self.occupied[0] & self.occupied[1]).any() {
            return Err(InvariantError::BothSides);
        }
        let board = self.size.geometry().board;
        if (self.all_stacks() & !board).any() {
            return Err(InvariantError::OffBoard);
        }
        for square in board {
            let height = self.height(square);
            let listed = (1..=MAX_HEIGHT)
                .filter(|&h| self.by_height[h].contains(square))
                .collect::<Vec<_>>();
            let expected = if self.all_stacks().contains(square) {
                vec![height]
            } else {
                vec![]
            };
            if listed != expected
                || (height > 0) != self.all_stacks().contains(square)
                || height > self.size.n()
            {
                return Err(InvariantError::HeightTables { square });
            }
        }
        for side in Side::BOTH {
            for height in 1..=MAX_HEIGHT {
                let stacks = self.stacks_of_height(side, height).count() as usize;
                if stacks != self.stack_count[side.index()][height] as usize
                    || (stacks > 0) != (self.height_set[side.index()] & 1 << height != 0)
                {
                    return Err(InvariantError::StackCounts { side, height });
                }
            }
            if let Some(king) = self.crowns[side.index()] {
                if !self.occupied[side.index()].contains(king) {
                    return Err(InvariantError::CrownOffStack { side, king });
                }
            }
        }
        if self.key != self.compute_key() {
            return Err(InvariantError::Key);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::BoardSize;

    fn square(name: &str) -> Square {
        Square::parse(name).unwrap()
    }

    /// Each table, broken by hand, is caught and named.
    #[test]
    fn a_broken_table_is_named() {
        let start = Position::start(BoardSize::Eight);
        assert_eq!(start.validate(), Ok(()));
        let (a2, a7, c5) = (square("a2"), square("a7"), square("c5"));

        let mut both = start;
        both.occupied[1] |= a2.bit();
        assert_eq!(both.validate(), Err(InvariantError::BothSides));

        let mut off = start;
        off.occupied[0] |= square("i1").bit();
        assert_eq!(off.validate(), Err(InvariantError::OffBoard));

        let mut heights = start;
        heights.by_height[2] |= a2.bit();
        assert_eq!(
            heights.validate(),
            Err(InvariantError::HeightTables { square: a2 })
        );

        let mut counts = start;
        counts.stack_count[1][1] -= 1;
        assert_eq!(
            counts.validate(),
            Err(InvariantError::StackCounts {
                side: Side::Red,
                height: 1
            })
        );

        let mut crown = start;
        crown.crowns[0] = Some(a7);
        assert_eq!(
            crown.validate(),
            Err(InvariantError::CrownOffStack {
                side: Side::Blue,
                king: a7
            })
        );
        crown.crowns[0] = Some(c5);
        assert_eq!(
            crown.validate().unwrap_err().to_string(),
            "Blue's crown on c5 is not on its own stack"
        );

        let mut key = start;
        key.key ^= 1;
        assert_eq!(key.validate(), Err(InvariantError::Key));
    }
}
