//! The position: stacks by side and height, crowns, side to move, and the Zobrist key.
//!
//! `Position` is a small `Copy` value played by copy-make: [`Position::play`] returns the child
//! and leaves the parent as it was, so the search and perft never undo a move. The game record
//! (moves played, the starting position) lives outside it.
//!
//! This module holds the position, its unchecked play ([`Position::play`],
//! [`Position::play_in_place`], [`Position::play_moves`]: the search's and perft's path, for
//! moves that came from move generation) and how a game ended ([`Position::outcome`]). What builds on it lives elsewhere: setting a position up from its stacks in
//! `parts`, its internal checks in `invariants`, the legal moves in [`movegen`](crate::movegen),
//! checked play (of a move, of a move's text, of a list of moves) in [`play`](crate::play), and
//! the position string in [`lfen`](crate::lfen).

use std::fmt;

use crate::board::{Bitboard, BoardSize, Side, Square, MAX_HEIGHT};
use crate::moves::Move;
use crate::outcome::{GameEnd, Outcome};
use crate::zobrist;

mod invariants;
mod parts;

pub use invariants::InvariantError;
pub use parts::{CrownError, PartsError, StackPart};

/// A legal Lielow position of either board size, or the final position of a finished game.
///
/// A small `Copy` value (about 250 bytes, no heap): copy it to keep a position, play a move on
/// the copy. Its text form is LFEN ([`Display`](fmt::Display) writes it, [`FromStr`] reads it).
///
/// ```
/// use lielow_rules::{BoardSize, Position};
///
/// let start = Position::start(BoardSize::Eight);
/// let child = start.play(start.legal_moves()[0]);
/// assert_ne!(child, start);
/// assert_eq!(start, Position::start(BoardSize::Eight), "the parent is left as it was");
/// ```
///
/// [`FromStr`]: std::str::FromStr
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Position {
    /// `by_height[h]`: every stack (of both sides) of height `h`; `by_height[0]` stays empty.
    by_height: [Bitboard; MAX_HEIGHT + 1],
    /// Every stack of each side.
    occupied: [Bitboard; 2],
    /// `stack_count[side][h]`: how many stacks of height `h` the side has.
    stack_count: [[u8; MAX_HEIGHT + 1]; 2],
    /// Bit `h` set when the side has a stack of height `h`: lets move counting visit only the
    /// heights present and find the tallest stacks with one leading-zero count.
    height_set: [u16; 2],
    key: u64,
    crowns: [Option<Square>; 2],
    side_to_move: Side,
    size: BoardSize,
    /// Set by a move that captured a king or bore off the mover's own king.
    winner: Option<Side>,
}

impl Position {
    /// The start position of a board size.
    pub fn start(size: BoardSize) -> Position {
        let mut position = Position::empty(size, Side::Blue);
        let n = size.n();
        let ranks: &[(Side, usize)] = match size {
            BoardSize::Eight => &[(Side::Blue, 1), (Side::Red, 6)],
            BoardSize::Nine => &[
                (Side::Blue, 0),
                (Side::Blue, 2),
                (Side::Red, 6),
                (Side::Red, 8),
            ],
        };
        for &(side, rank) in ranks {
            for file in 0..n {
                let square = Square::new(file, rank).expect("start squares are on the board");
                position.put(side, 1, square);
            }
        }
        position
    }

    /// A board with no stacks and no crowns.
    pub(crate) fn empty(size: BoardSize, side_to_move: Side) -> Position {
        let mut position = Position {
            by_height: [Bitboard::EMPTY; MAX_HEIGHT + 1],
            occupied: [Bitboard::EMPTY; 2],
            stack_count: [[0; MAX_HEIGHT + 1]; 2],
            height_set: [0; 2],
            key: 0,
            crowns: [None; 2],
            side_to_move,
            size,
            winner: None,
        };
        position.key = position.compute_key();
        position
    }

    /// The board size.
    #[inline]
    pub fn size(&self) -> BoardSize {
        self.size
    }

    /// The side whose turn it is.
    #[inline]
    pub fn side_to_move(&self) -> Side {
        self.side_to_move
    }

    /// The Zobrist key, kept up to date by every move.
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Every stack of `side`.
    #[inline]
    pub fn stacks(&self, side: Side) -> Bitboard {
        self.occupied[side.index()]
    }

    /// Every stack of both sides.
    #[inline]
    pub fn all_stacks(&self) -> Bitboard {
        self.occupied[0] | self.occupied[1]
    }

    /// The stacks of `side` of height `height` (1..=9).
    #[inline]
    pub fn stacks_of_height(&self, side: Side, height: usize) -> Bitboard {
        self.by_height[height] & self.occupied[side.index()]
    }

    /// The heights `side` has stacks of, as a set: bit `h` for height `h`.
    #[inline]
    pub fn height_set(&self, side: Side) -> u16 {
        self.height_set[side.index()]
    }

    /// Height of the stack on `square`, 0 if the square is empty.
    #[inline]
    pub fn height(&self, square: Square) -> usize {
        let bit = square.bit();
        if (self.occupied[0] & bit).any() {
            self.height_of(Side::Blue, bit)
        } else if (self.occupied[1] & bit).any() {
            self.height_of(Side::Red, bit)
        } else {
            0
        }
    }

    /// Height of `side`'s stack on the square `bit`, found among the heights `side` has (no
    /// per-square table: leaving it out keeps `Position` small enough to copy inline).
    #[inline]
    fn height_of(&self, side: Side, bit: Bitboard) -> usize {
        let mut heights = self.height_set[side.index()];
        while heights != 0 {
            let height = heights.trailing_zeros() as usize;
            if (self.by_height[height] & bit).any() {
                return height;
            }
            heights &= heights - 1;
        }
        0
    }

    /// The owner and height of the stack on `square`.
    #[inline]
    pub fn stack(&self, square: Square) -> Option<(Side, usize)> {
        let height = self.height(square);
        if height == 0 {
            None
        } else if self.occupied[0].contains(square) {
            Some((Side::Blue, height))
        } else {
            Some((Side::Red, height))
        }
    }

    /// The square of `side`'s king (the stack carrying its crown), if it has one.
    #[inline]
    pub fn king(&self, side: Side) -> Option<Square> {
        self.crowns[side.index()]
    }

    /// The winner, once the game is over: a king was captured or borne off, or the side to move
    /// has no stack (so no move) left.
    #[inline]
    pub fn winner(&self) -> Option<Side> {
        if self.winner.is_some() {
            self.winner
        } else if self.occupied[self.side_to_move.index()].is_empty() {
            Some(self.side_to_move.opponent())
        } else {
            None
        }
    }

    /// A king was captured or borne off, or the side to move has no move.
    #[inline]
    pub fn is_game_over(&self) -> bool {
        self.winner().is_some()
    }

    /// Who won and how, once the game is over ([`Position::winner`] and the ending): told
    /// from this position alone, since the move that captured a king or bore one off left its
    /// winner here, and the side to move tells which (the mover won by a capture, lost by a
    /// bear-off). A position whose side to move has no stack is over by
    /// [`GameEnd::NoMoves`].
    ///
    /// ```
    /// use lielow_rules::{BoardSize, GameEnd, Outcome, Position, Side};
    ///
    /// assert_eq!(Position::start(BoardSize::Nine).outcome(), None);
    /// // Blue's king, alone on a2 with height 2, bears off.
    /// let position: Position = "8/R17/8/8/8/8/B27/8 b".parse()?;
    /// let end = position.play(position.parse_move("a2-off")?);
    /// let outcome = Outcome { winner: Side::Red, end: GameEnd::KingBorneOff };
    /// assert_eq!(end.outcome(), Some(outcome));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn outcome(&self) -> Option<Outcome> {
        let to_move = self.side_to_move;
        let (winner, end) = match self.winner {
            Some(winner) if winner == to_move => (winner, GameEnd::KingBorneOff),
            Some(winner) => (winner, GameEnd::KingCaptured),
            None if self.occupied[to_move.index()].is_empty() => {
                (to_move.opponent(), GameEnd::NoMoves)
            }
            None => return None,
        };
        Some(Outcome { winner, end })
    }

    /// Plays `mv`, which must be legal here (generated by [`movegen`](crate::movegen), or
    /// checked), returning the child and leaving `self` as it was. Nothing is checked: this is
    /// the search's and perft's path. A move that is not legal gives a wrong position (or a
    /// panic under debug assertions), never undefined behaviour; for moves from outside, use the
    /// checked rungs of [`play`](crate::play): [`Position::try_play`] for a [`Move`],
    /// [`Position::parse_move`] for a move's text, [`Position::replay`] for a list of texts.
    ///
    /// ```
    /// use lielow_rules::{BoardSize, Position};
    ///
    /// let start = Position::start(BoardSize::Eight);
    /// let mv = start.legal_moves()[0];
    /// let child = start.play(mv);
    /// assert_eq!(mv.to_string(), "b2-a3");
    /// assert_eq!(child.to_lfen(), "8/r1r1r1r1r1r1r1r1/8/8/8/B27/b11b1b1b1b1b1b1/8 r");
    /// ```
    #[inline]
    pub fn play(&self, mv: Move) -> Position {
        let mut child = *self;
        child.play_in_place(mv);
        child
    }

    /// Plays a list of legal moves in turn (each legal where the ones before it lead: moves
    /// generated or checked, such as a game record's), returning the final position and leaving
    /// `self` as it was. Nothing is checked, as with [`Position::play`]; for moves from outside,
    /// [`Position::try_play_moves`] checks each. With [`Position::outcome`], it tells how a
    /// recorded game ended.
    ///
    /// ```
    /// use lielow_rules::{BoardSize, Position};
    ///
    /// let start = Position::start(BoardSize::Eight);
    /// let (end, moves) = start.replay(["a2-a3", "a7-a6", "a3-a5"])?;
    /// assert_eq!(start.play_moves(&moves), end);
    /// assert_eq!(start.play_moves(&[]), start);
    /// assert_eq!(end.outcome(), None);
    /// # Ok::<(), lielow_rules::ReplayError>(())
    /// ```
    pub fn play_moves(&self, moves: &[Move]) -> Position {
        let mut position = *self;
        for &mv in moves {
            position.play_in_place(mv);
        }
        position
    }

    /// The key the position after the legal move `mv` will have, worked out without playing
    /// it: for a search to start loading a child's table entry while it still works on an
    /// earlier sibling. Exact for a move to an empty square (the stacks, the side to move and
    /// the mover's crown, carried or jumping to the grown stack); after a capture or a
    /// bear-off, exact unless a crown jumps to a stack other than the moving one (the
    /// tallest-stack search that needs is left to [`Position::play`]): a wrong key there only
    /// loads an entry nobody reads.
    ///
    /// ```
    /// use lielow_rules::{BoardSize, Position};
    ///
    /// let start = Position::start(BoardSize::Eight);
    /// for mv in start.legal_moves() {
    ///     assert_eq!(start.key_after(mv), start.play(mv).key());
    /// }
    /// ```
    #[inline]
    pub fn key_after(&self, mv: Move) -> u64 {
        let us = self.side_to_move;
        let from = mv.from();
        let height = self.height_of(us, from.bit());
        let mut key = self.key ^ zobrist::red_to_move() ^ zobrist::stack(us, height, from);
        let crown = self.crowns[us.index()];
        let king_moved = crown == Some(from);
        let Some(to) = mv.to() else {
            // A king borne off takes its crown with it (and loses the game).
            return if king_moved {
                key ^ zobrist::crown(us, from)
            } else {
                key
            };
        };
        if king_moved {
            key ^= zobrist::crown(us, from) ^ zobrist::crown(us, to);
        }
        let captured = self.height_of(us.opponent(), to.bit());
        if captured > 0 {
            return key ^ zobrist::stack(us.opponent(), captured, to) ^ zobrist::stack(us, 1, to);
        }
        let grown = height + 1;
        key ^= zobrist::stack(us, grown, to);
        if !king_moved && self.grown_stack_takes_crown(us, grown) {
            if let Some(old) = crown {
                key ^= zobrist::crown(us, old);
            }
            key ^= zobrist::crown(us, to);
        }
        key
    }

    /// The same position with the other side to move: a "null move", which the rules do not
    /// allow; the search uses it to ask whether the side to move is so far ahead that even
    /// passing would keep it above beta.
    #[inline]
    pub fn pass(&self) -> Position {
        let mut child = *self;
        child.flip_side();
        child
    }

    /// [`Position::play`] in place: applies a legal move to this position, unchecked (see
    /// [`Position::try_play_in_place`] for the checked form).
    ///
    /// ```
    /// use lielow_rules::{BoardSize, Position};
    ///
    /// let mut position = Position::start(BoardSize::Nine);
    /// let mv = position.parse_move("e3-e4")?;
    /// position.play_in_place(mv);
    /// assert_eq!(position.height(mv.to().unwrap()), 2);
    /// # Ok::<(), lielow_rules::IllegalMove>(())
    /// ```
    #[inline(always)]
    pub fn play_in_place(&mut self, mv: Move) {
        let us = self.side_to_move;
        let them = us.opponent();
        let from = mv.from();
        let height = self.height_of(us, from.bit());
        debug_assert!(
            height > 0 && self.occupied[us.index()].contains(from),
            "{mv} moves no stack of the mover"
        );
        self.remove(us, height, from);
        let king_moved = self.crowns[us.index()] == Some(from);
        self.flip_side();

        let Some(to) = mv.to() else {
            if king_moved {
                // Bearing off one's own king loses at once.
                self.set_crown(us, None);
                self.winner = Some(them);
            } else {
                self.crown_tallest(us);
            }
            return;
        };

        let captured = self.height_of(them, to.bit());
        let new_height = if captured > 0 {
            self.remove(them, captured, to);
            1
        } else {
            height + 1
        };
        let crowned = captured == 0 && !king_moved && self.grown_stack_takes_crown(us, new_height);
        self.put(us, new_height, to);
        if king_moved || crowned {
            self.set_crown(us, Some(to));
        }
        if captured == 0 {
            return;
        }
        if captured > 0 && self.crowns[them.index()] == Some(to) {
            // Capturing the king wins at once; the crown rule is not applied after it.
            self.set_crown(them, None);
            self.winner = Some(us);
            return;
        }
        self.crown_tallest(us);
        self.crown_tallest(them);
    }

    /// Whether a stack of `side` that grows to `grown` on an empty square becomes its uniquely
    /// tallest, and so takes the crown: asked before the grown stack is put down (the stack
    /// that left, one shorter, changes neither the taller heights nor the count at `grown`).
    /// One rule for [`Position::play_in_place`] and [`Position::key_after`].
    #[inline]
    fn grown_stack_takes_crown(&self, side: Side, grown: usize) -> bool {
        self.height_set[side.index()] >> (grown + 1) == 0
            && self.stack_count[side.index()][grown] == 0
    }

    /// Puts `side`'s crown on its uniquely tallest stack, if it has one.
    #[inline]
    fn crown_tallest(&mut self, side: Side) {
        // The counts tell whether a uniquely tallest stack exists before any board is read.
        let set = self.height_set[side.index()];
        if set == 0 || self.stack_count[side.index()][(15 - set.leading_zeros()) as usize] != 1 {
            return;
        }
        if let Some(tallest) = self.uniquely_tallest(side) {
            if self.crowns[side.index()] != Some(tallest) {
                self.set_crown(side, Some(tallest));
            }
        }
    }

    /// The stack of `side` strictly taller than all its others, if there is one.
    pub fn uniquely_tallest(&self, side: Side) -> Option<Square> {
        let set = self.height_set[side.index()];
        if set == 0 {
            return None;
        }
        let tallest = (15 - set.leading_zeros()) as usize;
        let stacks = self.by_height[tallest] & self.occupied[side.index()];
        if stacks.is_single() {
            stacks.first()
        } else {
            None
        }
    }

    #[inline]
    fn set_crown(&mut self, side: Side, square: Option<Square>) {
        if let Some(old) = self.crowns[side.index()] {
            self.key ^= zobrist::crown(side, old);
        }
        if let Some(new) = square {
            self.key ^= zobrist::crown(side, new);
        }
        self.crowns[side.index()] = square;
    }

    #[inline]
    fn flip_side(&mut self) {
        self.side_to_move = self.side_to_move.opponent();
        self.key ^= zobrist::red_to_move();
    }

    #[inline]
    fn put(&mut self, side: Side, height: usize, square: Square) {
        let bit = square.bit();
        self.occupied[side.index()] |= bit;
        self.by_height[height] |= bit;
        self.stack_count[side.index()][height] += 1;
        self.height_set[side.index()] |= 1 << height;
        self.key ^= zobrist::stack(side, height, square);
    }

    #[inline]
    fn remove(&mut self, side: Side, height: usize, square: Square) {
        let bit = square.bit();
        self.occupied[side.index()] ^= bit;
        self.by_height[height] ^= bit;
        let count = &mut self.stack_count[side.index()][height];
        *count -= 1;
        if *count == 0 {
            self.height_set[side.index()] &= !(1 << height);
        }
        self.key ^= zobrist::stack(side, height, square);
    }

    /// The key computed from scratch; equal to [`Position::key`] in every position.
    pub fn compute_key(&self) -> u64 {
        let mut key = 0;
        for side in Side::BOTH {
            for square in self.occupied[side.index()] {
                key ^= zobrist::stack(side, self.height(square), square);
            }
            if let Some(square) = self.crowns[side.index()] {
                key ^= zobrist::crown(side, square);
            }
        }
        if self.side_to_move == Side::Red {
            key ^= zobrist::red_to_move();
        }
        if self.size == BoardSize::Nine {
            key ^= zobrist::nine_by_nine();
        }
        key
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self)
    }
}
