//! LFEN, the position string: `<board> <side>`, ranks from the top separated by `/`, a digit
//! for empty squares, a stack as a letter (`b`/`r`, uppercase for the crowned stack) and its
//! height digit. See RULES.md.

use std::fmt;
use std::str::FromStr;

use crate::board::{BoardSize, Side, Square};
use crate::position::Position;

/// Why a position string was rejected. The message names the problem and where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LfenError(pub String);

impl fmt::Display for LfenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad LFEN: {}", self.0)
    }
}

impl std::error::Error for LfenError {}

fn err<T>(message: impl Into<String>) -> Result<T, LfenError> {
    Err(LfenError(message.into()))
}

impl Position {
    /// Parses an LFEN string (`<board> <side>`); surrounding whitespace is ignored.
    pub fn from_lfen(text: &str) -> Result<Position, LfenError> {
        let mut fields = text.split_whitespace();
        let Some(board) = fields.next() else {
            return err("empty string: expected '<board> <side>'");
        };
        let side = match fields.next() {
            None => return err("missing side to move: expected 'b' or 'r' after the board"),
            Some("b") => Side::Blue,
            Some("r") => Side::Red,
            Some(other) => return err(format!("bad side to move '{other}': expected 'b' or 'r'")),
        };
        if let Some(junk) = fields.next() {
            return err(format!("trailing junk '{junk}' after the side to move"));
        }
        let ranks: Vec<&str> = board.split('/').collect();
        let Some(size) = BoardSize::from_n(ranks.len()) else {
            return err(format!("{} ranks: a board has 8 or 9", ranks.len()));
        };
        let n = size.n();
        let mut stacks = Vec::new();
        for (row, rank_text) in ranks.iter().enumerate() {
            let rank = n - 1 - row;
            let rank_name = rank + 1;
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
                            _ => return err(format!("rank {rank_name}: stack '{c}' must be followed by its height digit")),
                        };
                        if height == 0 || height > n {
                            return err(format!("rank {rank_name}: stack '{c}{height}' has height {height}: heights are 1 to {n}"));
                        }
                        if file >= n {
                            return err(format!("rank {rank_name} is wider than {n} squares"));
                        }
                        let square =
                            Square::new(file, rank).expect("file and rank are below the size");
                        stacks.push((square, side, height, c.is_ascii_uppercase()));
                        file += 1;
                    }
                    other => {
                        return err(format!(
                        "rank {rank_name}: unknown character '{}' (expected b, r, B, R or a digit)",
                        other.escape_debug()
                    ))
                    }
                }
                if file > n {
                    return err(format!("rank {rank_name} is wider than {n} squares"));
                }
            }
            if file < n {
                return err(format!("rank {rank_name} covers {file} squares, not {n}"));
            }
        }
        Position::from_parts(size, side, &stacks).map_err(LfenError)
    }

    /// The LFEN string of this position.
    pub fn to_lfen(&self) -> String {
        self.to_string()
    }
}

impl FromStr for Position {
    type Err = LfenError;

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
