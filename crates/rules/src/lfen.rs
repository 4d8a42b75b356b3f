//! LFEN, the position string: `<board> <side>`, ranks from the top separated by `/`, a digit
//! for empty squares, a stack as a letter (`b`/`r`, uppercase for the crowned stack) and its
//! height digit. See RULES.md.

use std::fmt;
use std::str::FromStr;

use crate::board::{BoardSize, Side, Square};
use crate::position::{CrownError, Position};

/// Why a position string was rejected. The message names the problem and where it is, and
/// never repeats the input: a caller that shows the input quotes it itself (cut and cleaned).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LfenError {
    /// Nothing but whitespace.
    Empty,
    /// The board has no side to move after it.
    MissingSide,
    /// The side to move is not `b` or `r`.
    BadSide,
    /// Something follows the side to move.
    TrailingText,
    /// The board has this many ranks, not 8 or 9.
    RankCount(usize),
    /// A stack letter without its height digit.
    MissingHeight {
        /// The rank (1 = bottom).
        rank: usize,
        /// The stack's letter (`b`, `r`, `B` or `R`).
        letter: char,
    },
    /// A stack height outside `1..=n`.
    BadHeight {
        /// The rank (1 = bottom).
        rank: usize,
        /// The stack's letter.
        letter: char,
        /// The height written.
        height: usize,
        /// The board size.
        n: usize,
    },
    /// A rank covers more than `n` squares.
    RankTooWide {
        /// The rank (1 = bottom).
        rank: usize,
        /// The board size.
        n: usize,
    },
    /// A rank covers fewer than `n` squares.
    RankTooShort {
        /// The rank (1 = bottom).
        rank: usize,
        /// The squares it covers.
        covered: usize,
        /// The board size.
        n: usize,
    },
    /// A character that is no stack letter nor digit.
    UnknownCharacter {
        /// The rank (1 = bottom).
        rank: usize,
        /// The character (shown as `U+XXXX` unless printable ASCII).
        found: char,
    },
    /// The crowns break the rules.
    Crowns(CrownError),
}

impl fmt::Display for LfenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("bad LFEN: ")?;
        match *self {
            LfenError::Empty => f.write_str("empty string: expected '<board> <side>'"),
            LfenError::MissingSide => {
                f.write_str("missing side to move: expected 'b' or 'r' after the board")
            }
            LfenError::BadSide => f.write_str("bad side to move: expected 'b' or 'r'"),
            LfenError::TrailingText => f.write_str("trailing text after the side to move"),
            LfenError::RankCount(count) => write!(f, "{count} ranks: a board has 8 or 9"),
            LfenError::MissingHeight { rank, letter } => write!(
                f,
                "rank {rank}: stack '{letter}' must be followed by its height digit"
            ),
            LfenError::BadHeight {
                rank,
                letter,
                height,
                n,
            } => write!(
                f,
                "rank {rank}: stack '{letter}{height}' has height {height}: heights are 1 to {n}"
            ),
            LfenError::RankTooWide { rank, n } => {
                write!(f, "rank {rank} is wider than {n} squares")
            }
            LfenError::RankTooShort { rank, covered, n } => {
                write!(f, "rank {rank} covers {covered} squares, not {n}")
            }
            LfenError::UnknownCharacter { rank, found } => {
                f.write_str("rank ")?;
                write!(f, "{rank}: unknown character ")?;
                if found.is_ascii_graphic() {
                    write!(f, "'{found}'")?;
                } else {
                    write!(f, "U+{:04X}", u32::from(found))?;
                }
                f.write_str(" (expected b, r, B, R or a digit)")
            }
            LfenError::Crowns(error) => write!(f, "{error}"),
        }
    }
}

impl std::error::Error for LfenError {}

impl Position {
    /// Parses an LFEN string (`<board> <side>`); surrounding whitespace is ignored. The board
    /// size is the number of ranks. [`FromStr`] does the same.
    ///
    /// ```
    /// use lielow_rules::{BoardSize, LfenError, Position, Side};
    ///
    /// let position = Position::from_lfen("8/8/8/4R13/8/2B35/b1b1b1b1b1b1b1b1/8 r")?;
    /// assert_eq!(position.size(), BoardSize::Eight);
    /// assert_eq!(position.side_to_move(), Side::Red);
    /// assert_eq!(position.king(Side::Blue), "c3".parse().ok());
    ///
    /// let error = Position::from_lfen("8/8/8/8/8/8/8/8 w").unwrap_err();
    /// assert_eq!(error, LfenError::BadSide);
    /// assert_eq!(error.to_string(), "bad LFEN: bad side to move: expected 'b' or 'r'");
    /// # Ok::<(), LfenError>(())
    /// ```
    pub fn from_lfen(text: &str) -> Result<Position, LfenError> {
        let mut fields = text.split_whitespace();
        let board = fields.next().ok_or(LfenError::Empty)?;
        let side = match fields.next() {
            None => return Err(LfenError::MissingSide),
            Some("b") => Side::Blue,
            Some("r") => Side::Red,
            Some(_) => return Err(LfenError::BadSide),
        };
        if fields.next().is_some() {
            return Err(LfenError::TrailingText);
        }
        let ranks: Vec<&str> = board.split('/').collect();
        let size = BoardSize::from_n(ranks.len()).ok_or(LfenError::RankCount(ranks.len()))?;
        let n = size.n();
        let mut stacks = Vec::new();
        for (row, rank_text) in ranks.iter().enumerate() {
            let rank = n - 1 - row;
            let rank_name = rank + 1;
            let too_wide = LfenError::RankTooWide { rank: rank_name, n };
            let mut file = 0usize;
            let mut chars = rank_text.chars();
            while let Some(c) = chars.next() {
                match c {
                    '1'..='9' => file += c as usize - '0' as usize,
                    'b' | 'r' | 'B' | 'R' => {
                        let side = if c.eq_ignore_ascii_case(&'b') {
                            Side::Blue
                        } else {
                            Side::Red
                        };
                        let height = match chars.next() {
                            Some(d @ '0'..='9') => d as usize - '0' as usize,
                            _ => {
                                return Err(LfenError::MissingHeight {
                                    rank: rank_name,
                                    letter: c,
                                })
                            }
                        };
                        if height == 0 || height > n {
                            return Err(LfenError::BadHeight {
                                rank: rank_name,
                                letter: c,
                                height,
                                n,
                            });
                        }
                        if file >= n {
                            return Err(too_wide);
                        }
                        let square =
                            Square::new(file, rank).expect("file and rank are below the size");
                        stacks.push((square, side, height, c.is_ascii_uppercase()));
                        file += 1;
                    }
                    found => {
                        return Err(LfenError::UnknownCharacter {
                            rank: rank_name,
                            found,
                        })
                    }
                }
                if file > n {
                    return Err(too_wide);
                }
            }
            if file < n {
                return Err(LfenError::RankTooShort {
                    rank: rank_name,
                    covered: file,
                    n,
                });
            }
        }
        Position::from_checked_parts(size, side, &stacks).map_err(LfenError::Crowns)
    }

    /// The LFEN string of this position, as [`Display`](fmt::Display) writes it: it reads back
    /// as the same position.
    ///
    /// ```
    /// use lielow_rules::{BoardSize, Position};
    ///
    /// let start = Position::start(BoardSize::Eight);
    /// assert_eq!(start.to_lfen(), "8/r1r1r1r1r1r1r1r1/8/8/8/8/b1b1b1b1b1b1b1b1/8 b");
    /// assert_eq!(start.to_lfen().parse::<Position>(), Ok(start));
    /// ```
    pub fn to_lfen(&self) -> String {
        self.to_string()
    }
}

impl FromStr for Position {
    type Err = LfenError;

    /// Reads LFEN: [`Position::from_lfen`].
    fn from_str(text: &str) -> Result<Position, LfenError> {
        Position::from_lfen(text)
    }
}

impl fmt::Display for Position {
    /// Writes the LFEN string.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.size().n();
        for rank in (0..n).rev() {
            let mut empty = 0;
            for file in 0..n {
                let square = Square::new(file, rank).expect("on the board");
                match self.stack(square) {
                    None => empty += 1,
                    Some((side, height)) => {
                        if empty > 0 {
                            write!(f, "{empty}")?;
                            empty = 0;
                        }
                        let letter = side.letter();
                        let letter = if self.king(side) == Some(square) {
                            letter.to_ascii_uppercase()
                        } else {
                            letter
                        };
                        write!(f, "{letter}{height}")?;
                    }
                }
            }
            if empty > 0 {
                write!(f, "{empty}")?;
            }
            if rank > 0 {
                f.write_str("/")?;
            }
        }
        write!(f, " {}", self.side_to_move().letter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_positions_print_as_in_the_rules() {
        assert_eq!(
            Position::start(BoardSize::Eight).to_lfen(),
            "8/r1r1r1r1r1r1r1r1/8/8/8/8/b1b1b1b1b1b1b1b1/8 b"
        );
        assert_eq!(
            Position::start(BoardSize::Nine).to_lfen(),
            "r1r1r1r1r1r1r1r1r1/9/r1r1r1r1r1r1r1r1r1/9/9/9/b1b1b1b1b1b1b1b1b1/9/b1b1b1b1b1b1b1b1b1 b"
        );
    }

    #[test]
    fn empty_digit_after_height() {
        let p = Position::from_lfen("B13R13/8/8/8/8/8/8/8 b").unwrap();
        assert_eq!(p.stack(Square::parse("a8").unwrap()), Some((Side::Blue, 1)));
        assert_eq!(p.stack(Square::parse("e8").unwrap()), Some((Side::Red, 1)));
    }
}
