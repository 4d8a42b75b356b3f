//! Squares, sides, board sizes and the 128-bit bit sets both board sizes share.
//!
//! Both boards use one coordinate system: square index = `rank * 9 + file`, a stride of 9 even on
//! the 8x8 board (whose file `i` and rank 9 are never used). So a `Square` prints and parses
//! without knowing the board size, and a step in a direction is the same shift on both boards;
//! only the masks that keep moves on the board differ, and those live in [`Geometry`].
//! 81 squares do not fit a `u64`; a `u128` holds them with one shift and one `popcnt` pair per
//! operation, which measured faster than two `u64` halves with carry logic.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};
use std::str::FromStr;

/// Distance between vertically adjacent squares in the shared layout.
pub const STRIDE: usize = 9;
/// Number of square indices in the shared layout (enough for 9x9).
pub const SQUARES: usize = 81;
/// Tallest stack on any board (a stack's height never exceeds the board size).
pub const MAX_HEIGHT: usize = 9;

/// One of the two players. Blue (player 1) moves first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Side {
    /// Player 1, who moves first; `b` in LFEN.
    Blue = 0,
    /// Player 2; `r` in LFEN.
    Red = 1,
}

impl Side {
    /// Both sides, Blue first.
    pub const BOTH: [Side; 2] = [Side::Blue, Side::Red];

    /// 0 for Blue, 1 for Red: the index of per-side arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The other side.
    #[inline]
    pub const fn opponent(self) -> Side {
        match self {
            Side::Blue => Side::Red,
            Side::Red => Side::Blue,
        }
    }

    /// The LFEN letter of the side (`b` or `r`).
    pub const fn letter(self) -> char {
        match self {
            Side::Blue => 'b',
            Side::Red => 'r',
        }
    }

    /// The side whose LFEN letter is `letter` (`b` or `r`, lowercase only).
    pub const fn from_letter(letter: char) -> Option<Side> {
        match letter {
            'b' => Some(Side::Blue),
            'r' => Some(Side::Red),
            _ => None,
        }
    }
}

impl fmt::Display for Side {
    /// Writes the side's name, `Blue` or `Red` (as messages and reports show it).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::Blue => "Blue",
            Side::Red => "Red",
        })
    }
}

/// Why a text is no side: neither its LFEN letter (`b`, `r`) nor its name (`Blue`, `Red`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SideError;

impl fmt::Display for SideError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a side is b or r (Blue or Red)")
    }
}

impl std::error::Error for SideError {}

impl FromStr for Side {
    type Err = SideError;

    /// Reads the LFEN letter (`b`, `r`) or the name [`Display`](fmt::Display) writes (`Blue`,
    /// `Red`), so both text forms read back.
    ///
    /// ```
    /// use lielow_rules::Side;
    ///
    /// assert_eq!("r".parse::<Side>(), Ok(Side::Red));
    /// assert_eq!(Side::Blue.to_string().parse::<Side>(), Ok(Side::Blue));
    /// assert!("w".parse::<Side>().is_err());
    /// ```
    fn from_str(text: &str) -> Result<Side, SideError> {
        match text {
            "b" | "Blue" => Ok(Side::Blue),
            "r" | "Red" => Ok(Side::Red),
            _ => Err(SideError),
        }
    }
}

/// The two board sizes the rules allow.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum BoardSize {
    /// The standard 8x8 board.
    Eight = 8,
    /// The 9x9 variant of Abstract Play.
    Nine = 9,
}

impl BoardSize {
    /// Squares per side of the board.
    #[inline]
    pub const fn n(self) -> usize {
        self as usize
    }

    /// The size with `n` squares per side, if the rules allow it.
    pub fn from_n(n: usize) -> Option<BoardSize> {
        match n {
            8 => Some(BoardSize::Eight),
            9 => Some(BoardSize::Nine),
            _ => None,
        }
    }

    /// The precomputed masks for this size.
    #[inline]
    pub fn geometry(self) -> &'static Geometry {
        match self {
            BoardSize::Eight => &GEOMETRY_8,
            BoardSize::Nine => &GEOMETRY_9,
        }
    }
}

impl fmt::Display for BoardSize {
    /// Writes the squares per side, `8` or `9`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.n())
    }
}

/// Why a text is no board size. Unlike the other errors of this crate its message quotes the
/// text: a size is read from a command-line argument, whose message has nothing else to name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardSizeError {
    /// The text that was read.
    pub text: String,
}

impl fmt::Display for BoardSizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}' is not a board size: use 8 or 9", self.text)
    }
}

impl std::error::Error for BoardSizeError {}

impl FromStr for BoardSize {
    type Err = BoardSizeError;

    /// Reads `8` or `9`, as [`Display`](fmt::Display) writes them.
    ///
    /// ```
    /// use lielow_rules::BoardSize;
    ///
    /// assert_eq!("9".parse::<BoardSize>(), Ok(BoardSize::Nine));
    /// let error = "10".parse::<BoardSize>().unwrap_err();
    /// assert_eq!(error.to_string(), "'10' is not a board size: use 8 or 9");
    /// ```
    fn from_str(text: &str) -> Result<BoardSize, BoardSizeError> {
        match text {
            "8" => Ok(BoardSize::Eight),
            "9" => Ok(BoardSize::Nine),
            _ => Err(BoardSizeError {
                text: text.to_owned(),
            }),
        }
    }
}

/// A square in the shared stride-9 layout. Always `< 81`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square on `file` (0 = a) and `rank` (0 = rank 1); `None` if off the 9x9 layout.
    #[inline]
    pub const fn new(file: usize, rank: usize) -> Option<Square> {
        if file < STRIDE && rank < STRIDE {
            Some(Square((rank * STRIDE + file) as u8))
        } else {
            None
        }
    }

    /// The square with this layout index; `None` for 81 and above.
    #[inline]
    pub const fn from_index(index: usize) -> Option<Square> {
        if index < SQUARES {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    #[inline]
    pub(crate) const fn from_index_unchecked(index: u32) -> Square {
        debug_assert!(index < SQUARES as u32);
        Square(index as u8)
    }

    /// The layout index, `rank * 9 + file`.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// 0 for file a.
    #[inline]
    pub const fn file(self) -> usize {
        self.0 as usize % STRIDE
    }

    /// 0 for rank 1.
    #[inline]
    pub const fn rank(self) -> usize {
        self.0 as usize / STRIDE
    }

    /// The set holding only this square.
    #[inline]
    pub const fn bit(self) -> Bitboard {
        Bitboard(1u128 << self.0)
    }

    /// Whether the square lies on a board of this size.
    #[inline]
    pub const fn is_on(self, size: BoardSize) -> bool {
        self.file() < size.n() && self.rank() < size.n()
    }

    /// Parses `a1`..`i9` (lowercase file letter, one rank digit); [`FromStr`] does the same
    /// with a typed error.
    ///
    /// ```
    /// use lielow_rules::Square;
    ///
    /// let e5 = Square::parse("e5").unwrap();
    /// assert_eq!((e5.file(), e5.rank()), (4, 4));
    /// assert_eq!(e5.to_string(), "e5");
    /// assert_eq!(Square::parse("j1"), None);
    /// ```
    pub fn parse(text: &str) -> Option<Square> {
        let bytes = text.as_bytes();
        if bytes.len() != 2 {
            return None;
        }
        let file = bytes[0].wrapping_sub(b'a') as usize;
        let rank = bytes[1].wrapping_sub(b'1') as usize;
        Square::new(file, rank)
    }
}

/// Why a text is no square name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SquareError;

impl fmt::Display for SquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a square is a1..i9 (a lowercase file letter and a rank digit)")
    }
}

impl std::error::Error for SquareError {}

impl FromStr for Square {
    type Err = SquareError;

    /// [`Square::parse`] with a typed error.
    ///
    /// ```
    /// use lielow_rules::Square;
    ///
    /// let square: Square = "i9".parse().unwrap();
    /// assert_eq!(square.index(), 80);
    /// assert!("A1".parse::<Square>().is_err());
    /// ```
    fn from_str(text: &str) -> Result<Square, SquareError> {
        Square::parse(text).ok_or(SquareError)
    }
}

impl fmt::Display for Square {
    /// Writes the square's name, `a1`..`i9`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'a' + self.file() as u8) as char,
            self.rank() + 1
        )
    }
}

/// A set of squares, one bit per square index.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u128);

impl Bitboard {
    /// No square.
    pub const EMPTY: Bitboard = Bitboard(0);

    /// No square in the set.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Some square in the set.
    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// Number of squares in the set.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether `square` is in the set.
    #[inline]
    pub const fn contains(self, square: Square) -> bool {
        self.0 & (1u128 << square.0) != 0
    }

    /// Exactly one square in the set.
    #[inline]
    pub const fn is_single(self) -> bool {
        self.0 != 0 && self.0 & (self.0 - 1) == 0
    }

    /// The lowest square of a non-empty set.
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square(self.0.trailing_zeros() as u8))
        }
    }

    /// Shifts every square by `amount` indices towards higher (`> 0`) or lower (`< 0`) indices.
    #[inline]
    pub const fn shifted(self, amount: i32) -> Bitboard {
        if amount >= 0 {
            Bitboard(self.0 << amount)
        } else {
            Bitboard(self.0 >> -amount)
        }
    }
}

impl Iterator for Bitboard {
    type Item = Square;

    /// Pops the lowest square.
    #[inline]
    fn next(&mut self) -> Option<Square> {
        let square = self.first()?;
        self.0 &= self.0 - 1;
        Some(square)
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(*self).finish()
    }
}

macro_rules! bit_op {
    ($trait:ident, $method:ident, $assign_trait:ident, $assign_method:ident, $op:tt) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $method(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $assign_trait for Bitboard {
            #[inline]
            fn $assign_method(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

/// The eight directions a stack moves in, as (file step, rank step).
///
/// The first four shift towards higher indices, the last four are their mirror images; move
/// generation relies on that split to use a plain left or right shift with no sign test.
pub const DIRECTIONS: [(i32, i32); 8] = [
    (1, 0),   // east
    (-1, 1),  // north-west
    (0, 1),   // north
    (1, 1),   // north-east
    (-1, 0),  // west
    (1, -1),  // south-east
    (0, -1),  // south
    (-1, -1), // south-west
];

/// Index distance of one step in each of [`DIRECTIONS`].
pub const STEPS: [i32; 8] = {
    let mut steps = [0; 8];
    let mut d = 0;
    while d < 8 {
        steps[d] = DIRECTIONS[d].0 + DIRECTIONS[d].1 * STRIDE as i32;
        d += 1;
    }
    steps
};

/// The masks of one board size, computed at compile time.
pub struct Geometry {
    /// The board size these masks describe.
    pub size: BoardSize,
    /// Every square of the board.
    pub board: Bitboard,
    /// `sources[h][d]`: squares from which a stack of height `h` moving in direction `d` lands on
    /// the board. Shifting a subset of it by `h * STEPS[d]` never leaves the board or wraps a rank.
    pub sources: [[Bitboard; 8]; MAX_HEIGHT + 1],
    /// `bear_off[h]`: squares from which a stack of height `h` has a move off the board (those
    /// within `h` squares of an edge). Every off-board direction is the same single move.
    pub bear_off: [Bitboard; MAX_HEIGHT + 1],
}

impl Geometry {
    const fn new(size: BoardSize) -> Geometry {
        let n = size.n() as i32;
        let mut board = 0u128;
        let mut sources = [[Bitboard::EMPTY; 8]; MAX_HEIGHT + 1];
        let mut bear_off = [Bitboard::EMPTY; MAX_HEIGHT + 1];
        let mut rank = 0;
        while rank < n {
            let mut file = 0;
            while file < n {
                let bit = 1u128 << (rank * STRIDE as i32 + file);
                board |= bit;
                let mut h = 1;
                while h <= MAX_HEIGHT as i32 {
                    let mut d = 0;
                    let mut any_off = false;
                    while d < 8 {
                        let f = file + DIRECTIONS[d].0 * h;
                        let r = rank + DIRECTIONS[d].1 * h;
                        if f >= 0 && f < n && r >= 0 && r < n {
                            sources[h as usize][d].0 |= bit;
                        } else {
                            any_off = true;
                        }
                        d += 1;
                    }
                    if any_off {
                        bear_off[h as usize].0 |= bit;
                    }
                    h += 1;
                }
                file += 1;
            }
            rank += 1;
        }
        Geometry {
            size,
            board: Bitboard(board),
            sources,
            bear_off,
        }
    }
}

static GEOMETRY_8: Geometry = Geometry::new(BoardSize::Eight);
static GEOMETRY_9: Geometry = Geometry::new(BoardSize::Nine);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_text_round_trip() {
        for index in 0..SQUARES {
            let square = Square::from_index(index).unwrap();
            assert_eq!(Square::parse(&square.to_string()), Some(square));
        }
        assert_eq!(Square::parse("a1").unwrap().index(), 0);
        assert_eq!(Square::parse("i9").unwrap().index(), 80);
        assert_eq!(Square::parse("j1"), None);
        assert_eq!(Square::parse("a0"), None);
        assert_eq!(Square::parse("a10"), None);
    }

    #[test]
    fn text_forms_read_back_what_they_write() {
        for index in 0..SQUARES {
            let square = Square::from_index(index).unwrap();
            assert_eq!(square.to_string().parse(), Ok(square));
        }
        for bad in ["", "a", "a0", "j1", "A1", "a10", "1a", "é1"] {
            assert_eq!(bad.parse::<Square>(), Err(SquareError), "{bad}");
        }
        for side in Side::BOTH {
            assert_eq!(side.to_string().parse(), Ok(side));
            assert_eq!(side.letter().to_string().parse(), Ok(side));
            assert_eq!(Side::from_letter(side.letter()), Some(side));
        }
        for bad in ["", "B", "R", "blue", "w", "b "] {
            assert_eq!(bad.parse::<Side>(), Err(SideError), "{bad}");
        }
        assert_eq!(Side::from_letter('B'), None);
        for size in [BoardSize::Eight, BoardSize::Nine] {
            assert_eq!(size.to_string().parse(), Ok(size));
        }
        for bad in ["", "7", "10", " 8", "eight"] {
            let error = bad.parse::<BoardSize>().unwrap_err();
            assert_eq!(
                error.to_string(),
                format!("'{bad}' is not a board size: use 8 or 9")
            );
        }
    }

    #[test]
    fn sources_keep_moves_on_the_board() {
        for size in [BoardSize::Eight, BoardSize::Nine] {
            let g = size.geometry();
            for h in 1..=MAX_HEIGHT {
                for (d, sources) in g.sources[h].iter().enumerate() {
                    let landed = sources.shifted(STEPS[d] * h as i32);
                    assert_eq!(
                        landed & !g.board,
                        Bitboard::EMPTY,
                        "size {size} h {h} d {d}"
                    );
                    assert_eq!(landed.count(), sources.count());
                }
            }
            // A stack as tall as the board can only bear off, from anywhere.
            assert_eq!(g.bear_off[size.n()], g.board);
            assert!(g.sources[size.n()].iter().all(|s| s.is_empty()));
        }
    }
}
