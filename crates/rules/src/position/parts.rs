//! Setting up a position from its stacks: the checks a position string or a data file can fail.
//!
//! [`Position::from_parts`] is the one door through which a position that did not come from a
//! game enters: the LFEN parser and the training-data reader go through it. It checks what the
//! rules demand of a set of stacks (each on its own square of the board, heights 1 to N, crowns
//! that agree with the crown rule); a position it returns is one [`Position::validate`] accepts.

use std::fmt;

use crate::board::{Bitboard, BoardSize, Side, Square};
use crate::position::Position;

/// One stack of a position being set up: `(square, owner, height, carries the owner's crown)`.
pub type StackPart = (Square, Side, usize, bool);

/// Why a set of stacks is no position: its crowns break the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CrownError {
    /// A side with two crowned stacks.
    TwoCrowns {
        /// The side.
        side: Side,
        /// The first crowned stack.
        first: Square,
        /// The second.
        second: Square,
    },
    /// A side whose uniquely tallest stack does not carry its crown.
    NotOnTallest {
        /// The side.
        side: Side,
        /// Its uniquely tallest stack.
        tallest: Square,
    },
}

impl fmt::Display for CrownError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            CrownError::TwoCrowns {
                side,
                first,
                second,
            } => write!(f, "{side} has two crowns, on {first} and {second}"),
            CrownError::NotOnTallest { side, tallest } => write!(
                f,
                "{side}'s uniquely tallest stack on {tallest} must carry its crown (uppercase letter)"
            ),
        }
    }
}

impl std::error::Error for CrownError {}

/// Why [`Position::from_parts`] refused a set of stacks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PartsError {
    /// A stack on a square off this board (file i or rank 9 of the 8x8 board).
    OffBoard {
        /// The square.
        square: Square,
        /// The board size.
        size: BoardSize,
    },
    /// A stack whose height is not 1 to N.
    BadHeight {
        /// The stack's square.
        square: Square,
        /// The height given.
        height: usize,
        /// The board size.
        size: BoardSize,
    },
    /// Two stacks on one square.
    SameSquare {
        /// The square.
        square: Square,
    },
    /// The crowns break the rules.
    Crowns(CrownError),
}

impl fmt::Display for PartsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            PartsError::OffBoard { square, size } => {
                write!(f, "a stack on {square}, off the {size}x{size} board")
            }
            PartsError::BadHeight {
                square,
                height,
                size,
            } => write!(
                f,
                "the stack on {square} has height {height}: heights are 1 to {size}"
            ),
            PartsError::SameSquare { square } => write!(f, "two stacks on {square}"),
            PartsError::Crowns(error) => write!(f, "{error}"),
        }
    }
}

impl std::error::Error for PartsError {}

impl From<CrownError> for PartsError {
    fn from(error: CrownError) -> PartsError {
        PartsError::Crowns(error)
    }
}

impl Position {
    /// Sets up a position from its stacks, checking every rule a set of stacks can break: each
    /// stack on its own square of the board, heights 1 to N, at most one crown a side, and a
    /// side's uniquely tallest stack carrying its crown. The game is taken as in progress (a
    /// side with no stack to move has lost, as in any position).
    ///
    /// ```
    /// use lielow_rules::position::PartsError;
    /// use lielow_rules::{BoardSize, Position, Side, Square};
    ///
    /// let [d4, e5, f5] = ["d4", "e5", "f5"].map(|name| Square::parse(name).unwrap());
    /// let stacks = [
    ///     (d4, Side::Blue, 2, true),
    ///     (e5, Side::Red, 1, false),
    ///     (f5, Side::Red, 1, false),
    /// ];
    /// let position = Position::from_parts(BoardSize::Eight, Side::Red, &stacks)?;
    /// assert_eq!(position.to_lfen(), "8/8/8/4r1r12/3B24/8/8/8 r");
    ///
    /// // A lone Blue stack is uniquely tallest, so it must carry Blue's crown.
    /// let uncrowned = Position::from_parts(BoardSize::Eight, Side::Red, &[(d4, Side::Blue, 2, false)]);
    /// assert!(matches!(uncrowned, Err(PartsError::Crowns(_))));
    /// # Ok::<(), PartsError>(())
    /// ```
    pub fn from_parts(
        size: BoardSize,
        side_to_move: Side,
        stacks: &[StackPart],
    ) -> Result<Position, PartsError> {
        let mut seen = Bitboard::EMPTY;
        for &(square, _, height, _) in stacks {
            if !square.is_on(size) {
                return Err(PartsError::OffBoard { square, size });
            }
            if !(1..=size.n()).contains(&height) {
                return Err(PartsError::BadHeight {
                    square,
                    height,
                    size,
                });
            }
            if seen.contains(square) {
                return Err(PartsError::SameSquare { square });
            }
            seen |= square.bit();
        }
        Ok(Position::from_checked_parts(size, side_to_move, stacks)?)
    }

    /// [`Position::from_parts`] for stacks already known to stand on distinct squares of the
    /// board with heights 1 to N (the LFEN parser checks those as it reads, to name the rank):
    /// only the crowns are left to check.
    pub(crate) fn from_checked_parts(
        size: BoardSize,
        side_to_move: Side,
        stacks: &[StackPart],
    ) -> Result<Position, CrownError> {
        let mut position = Position::empty(size, side_to_move);
        for &(square, side, height, crowned) in stacks {
            debug_assert!(
                square.is_on(size)
                    && (1..=size.n()).contains(&height)
                    && position.height(square) == 0,
                "the caller checks squares and heights"
            );
            position.put(side, height, square);
            if crowned {
                if let Some(first) = position.crowns[side.index()] {
                    return Err(CrownError::TwoCrowns {
                        side,
                        first,
                        second: square,
                    });
                }
                position.set_crown(side, Some(square));
            }
        }
        for side in Side::BOTH {
            if let Some(tallest) = position.uniquely_tallest(side) {
                if position.crowns[side.index()] != Some(tallest) {
                    return Err(CrownError::NotOnTallest { side, tallest });
                }
            }
        }
        Ok(position)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(name: &str) -> Square {
        Square::parse(name).unwrap()
    }

    #[test]
    fn each_broken_rule_is_named() {
        let eight = BoardSize::Eight;
        let blue = |name, height, crowned| (square(name), Side::Blue, height, crowned);
        let cases: [(&[StackPart], PartsError, &str); 6] = [
            (
                &[blue("i1", 1, true)],
                PartsError::OffBoard {
                    square: square("i1"),
                    size: eight,
                },
                "a stack on i1, off the 8x8 board",
            ),
            (
                &[blue("a1", 1, false), blue("a9", 2, true)],
                PartsError::OffBoard {
                    square: square("a9"),
                    size: eight,
                },
                "a stack on a9, off the 8x8 board",
            ),
            (
                &[blue("a1", 0, true)],
                PartsError::BadHeight {
                    square: square("a1"),
                    height: 0,
                    size: eight,
                },
                "the stack on a1 has height 0: heights are 1 to 8",
            ),
            (
                &[blue("a1", 9, true)],
                PartsError::BadHeight {
                    square: square("a1"),
                    height: 9,
                    size: eight,
                },
                "the stack on a1 has height 9: heights are 1 to 8",
            ),
            (
                &[blue("c3", 1, false), (square("c3"), Side::Red, 1, false)],
                PartsError::SameSquare {
                    square: square("c3"),
                },
                "two stacks on c3",
            ),
            (
                &[blue("c3", 1, true), blue("d3", 1, true)],
                PartsError::Crowns(CrownError::TwoCrowns {
                    side: Side::Blue,
                    first: square("c3"),
                    second: square("d3"),
                }),
                "Blue has two crowns, on c3 and d3",
            ),
        ];
        for (stacks, error, message) in cases {
            assert_eq!(
                Position::from_parts(eight, Side::Blue, stacks),
                Err(error),
                "{message}"
            );
            assert_eq!(error.to_string(), message);
        }
    }

    #[test]
    fn what_it_accepts_is_consistent() {
        let nine = Position::from_parts(
            BoardSize::Nine,
            Side::Blue,
            &[
                (square("i9"), Side::Red, 9, true),
                (square("a1"), Side::Blue, 3, false),
                (square("b1"), Side::Blue, 3, true),
            ],
        )
        .unwrap();
        assert_eq!(nine.validate(), Ok(()));
        assert_eq!(nine.to_lfen(), "8R9/9/9/9/9/9/9/9/b3B37 b");
        assert_eq!(nine.king(Side::Blue), Some(square("b1")));
        let empty = Position::from_parts(BoardSize::Eight, Side::Red, &[]).unwrap();
        assert_eq!(empty.winner(), Some(Side::Blue), "Red has no stack to move");
    }
}
