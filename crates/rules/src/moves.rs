//! The `Move` type and its canonical notation (`b2-e5`, `b5xe5`, `c4-off`).

use std::fmt;
use std::num::NonZeroU16;
use std::str::FromStr;

use crate::board::Square;

/// A move, packed in 16 bits:
///
/// ```text
/// bits 0..=6   origin square (0..=80)
/// bits 7..=13  landing square (0..=80), or 127 for a bear-off
/// bit  14      the landing square holds an enemy stack (a capture)
/// ```
///
/// The origin and landing squares of a real move differ, so the packed value is never 0 and
/// `Option<Move>` is 2 bytes too.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(NonZeroU16);

const OFF: u16 = 127;
const CAPTURE: u16 = 1 << 14;

impl Move {
    /// A move to `to` (a capture if `capture`). `from` and `to` must differ.
    #[inline]
    pub fn new(from: Square, to: Square, capture: bool) -> Move {
        debug_assert_ne!(from, to);
        let bits =
            from.index() as u16 | (to.index() as u16) << 7 | if capture { CAPTURE } else { 0 };
        // `to != from`, so at least one of the two square fields is non-zero.
        Move(NonZeroU16::new(bits).expect("a move's squares differ"))
    }

    /// The bear-off of the stack on `from`.
    #[inline]
    pub fn bear_off(from: Square) -> Move {
        let bits = from.index() as u16 | OFF << 7;
        Move(NonZeroU16::new(bits).expect("the landing field of a bear-off is non-zero"))
    }

    /// The square the moving stack leaves.
    #[inline]
    pub fn from(self) -> Square {
        Square::from_index_unchecked(u32::from(self.0.get() & 0x7F))
    }

    /// The landing square; `None` for a bear-off.
    #[inline]
    pub fn to(self) -> Option<Square> {
        let to = (self.0.get() >> 7) & 0x7F;
        if to == OFF {
            None
        } else {
            Some(Square::from_index_unchecked(u32::from(to)))
        }
    }

    /// The stack leaves the board.
    #[inline]
    pub fn is_bear_off(self) -> bool {
        (self.0.get() >> 7) & 0x7F == OFF
    }

    /// The stack lands on an enemy stack.
    #[inline]
    pub fn is_capture(self) -> bool {
        self.0.get() & CAPTURE != 0
    }

    /// The move a parsed text names, with the capture flag as written (its squares differ:
    /// [`MoveText::parse`] checks that). Not checked against any position.
    #[inline]
    pub fn from_text(text: MoveText) -> Move {
        match text.to {
            Some(to) => Move::new(text.from, to, text.capture),
            None => Move::bear_off(text.from),
        }
    }

    /// The packed bits (for the transposition table).
    #[inline]
    pub fn to_bits(self) -> u16 {
        self.0.get()
    }

    /// Unpacks bits made by [`Move::to_bits`]; `None` for bits no move has. The result still has
    /// to be checked against a position before it is played.
    pub fn from_bits(bits: u16) -> Option<Move> {
        let from = bits & 0x7F;
        let to = (bits >> 7) & 0x7F;
        let valid = bits >> 15 == 0
            && from < 81
            && (to < 81 || to == OFF)
            && from != to
            && !(to == OFF && bits & CAPTURE != 0);
        if valid {
            NonZeroU16::new(bits).map(Move)
        } else {
            None
        }
    }
}

impl FromStr for Move {
    type Err = MoveTextError;

    /// Reads the canonical notation without a position: the move it names, with the capture
    /// flag as written. Whether it is legal is the position's question: [`Position::try_play`]
    /// checks it, and [`Position::parse_move`] reads and checks in one step.
    ///
    /// ```
    /// use lielow_rules::{Move, Square};
    ///
    /// let mv: Move = "b5xe5".parse().unwrap();
    /// assert_eq!(mv.from(), Square::parse("b5").unwrap());
    /// assert!(mv.is_capture());
    /// assert!("c4-off".parse::<Move>().unwrap().is_bear_off());
    /// assert!("b2-b2".parse::<Move>().is_err());
    /// ```
    ///
    /// [`Position::try_play`]: crate::Position::try_play
    /// [`Position::parse_move`]: crate::Position::parse_move
    fn from_str(text: &str) -> Result<Move, MoveTextError> {
        MoveText::parse(text).map(Move::from_text)
    }
}

impl From<MoveText> for Move {
    /// [`Move::from_text`] (as `text.into()`: `Move::from` is the origin square).
    fn from(text: MoveText) -> Move {
        Move::from_text(text)
    }
}

impl fmt::Display for Move {
    /// Writes the canonical notation: `b2-e5`, `b5xe5` or `c4-off`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.to() {
            None => write!(f, "{}-off", self.from()),
            Some(to) if self.is_capture() => write!(f, "{}x{}", self.from(), to),
            Some(to) => write!(f, "{}-{}", self.from(), to),
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The shape of a move as written, before it is checked against a position: what a caller
/// needs that reads moves which may not be legal (arrows drawn on a board, for example).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct MoveText {
    /// The origin square.
    pub from: Square,
    /// `None` for `-off`.
    pub to: Option<Square>,
    /// Written with `x`.
    pub capture: bool,
}

/// Why a text is no move in canonical notation. The message never repeats the text: a caller
/// that shows it quotes it itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveTextError {
    /// Not of the shape `b2-e5`, `b5xe5` or `c4-off`.
    Shape,
    /// The origin is no square name.
    Origin,
    /// No `-` or `x` after the origin.
    Separator,
    /// The landing is no square name nor `off`.
    Landing,
    /// The landing square is the origin.
    SameSquare,
}

impl fmt::Display for MoveTextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MoveTextError::Shape => "expected a move like b2-e5, b5xe5 or c4-off",
            MoveTextError::Origin => "the origin square must be a1..i9",
            MoveTextError::Separator => "expected '-' or 'x' after the origin square",
            MoveTextError::Landing => "the landing square must be a1..i9 or 'off'",
            MoveTextError::SameSquare => "the landing square equals the origin",
        })
    }
}

impl std::error::Error for MoveTextError {}

impl MoveText {
    /// Parses the canonical notation.
    ///
    /// ```
    /// use lielow_rules::moves::{MoveText, MoveTextError};
    ///
    /// let text = MoveText::parse("c4-off").unwrap();
    /// assert_eq!((text.to, text.capture), (None, false));
    /// assert_eq!(MoveText::parse("c4_d5"), Err(MoveTextError::Separator));
    /// ```
    pub fn parse(text: &str) -> Result<MoveText, MoveTextError> {
        if !text.is_ascii() || text.len() < 4 {
            return Err(MoveTextError::Shape);
        }
        let (from_text, rest) = text.split_at(2);
        let from = Square::parse(from_text).ok_or(MoveTextError::Origin)?;
        let (separator, to_text) = rest.split_at(1);
        match (separator, to_text) {
            ("-", "off") => Ok(MoveText {
                from,
                to: None,
                capture: false,
            }),
            ("-" | "x", _) => match Square::parse(to_text) {
                Some(to) if to == from => Err(MoveTextError::SameSquare),
                Some(to) => Ok(MoveText {
                    from,
                    to: Some(to),
                    capture: separator == "x",
                }),
                None => Err(MoveTextError::Landing),
            },
            _ => Err(MoveTextError::Separator),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_move_is_two_bytes() {
        assert_eq!(std::mem::size_of::<Move>(), 2);
        assert_eq!(std::mem::size_of::<Option<Move>>(), 2);
    }

    #[test]
    fn bits_round_trip() {
        let a1 = Square::parse("a1").unwrap();
        let i9 = Square::parse("i9").unwrap();
        for m in [
            Move::new(a1, i9, true),
            Move::new(i9, a1, false),
            Move::bear_off(a1),
            Move::bear_off(i9),
        ] {
            assert_eq!(Move::from_bits(m.to_bits()), Some(m));
        }
        assert_eq!(Move::from_bits(0), None);
        assert_eq!(Move::from_bits(81), None);
        assert_eq!(Move::from_bits(OFF << 7 | CAPTURE), None);
    }

    #[test]
    fn notation() {
        let m = MoveText::parse("b5xe5").unwrap();
        assert!(m.capture);
        assert_eq!(m.to.unwrap().to_string(), "e5");
        assert_eq!(MoveText::parse("c4-off").unwrap().to, None);
        for bad in [
            "", "b2", "b2e5", "b2-e", "b2_e5", "z2-e5", "b2-e5x", "b2xoff", "b2-b2", "é2-e5",
        ] {
            assert!(MoveText::parse(bad).is_err(), "{bad}");
        }
        let m = Move::new(
            Square::parse("b2").unwrap(),
            Square::parse("e5").unwrap(),
            false,
        );
        assert_eq!(m.to_string(), "b2-e5");
        assert_eq!(
            Move::bear_off(Square::parse("c4").unwrap()).to_string(),
            "c4-off"
        );
    }

    #[test]
    fn from_str_reads_what_display_writes() {
        for text in ["b2-e5", "b5xe5", "c4-off", "a1xi9", "i9-a1"] {
            assert_eq!(text.parse::<Move>().unwrap().to_string(), text);
        }
        assert_eq!("b2-e".parse::<Move>(), Err(MoveTextError::Landing));
        assert_eq!("z2-e5".parse::<Move>(), Err(MoveTextError::Origin));
        assert_eq!("b2xoff".parse::<Move>(), Err(MoveTextError::Landing));
    }
}
