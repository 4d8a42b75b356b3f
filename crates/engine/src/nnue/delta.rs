//! The inputs one move switches off and on, found from the move itself.
//!
//! A move changes the stacks on its origin and its landing square only (a capture removes
//! the stack it lands on; a bear-off has no landing), and a crown changes only by moving from
//! one square to another. So the squares to look at are the move's two and the old and new
//! squares of each crown that moved: at most six, found with a few comparisons. (Comparing
//! the two positions' stacks of every height, as this module's first version did, found the
//! same squares at several times the cost: it was most of the time spent updating.)
//!
//! A [`Delta`] holds each changed input as seen by both sides, as plain indices: recording
//! one needs no weights, so the search records one per move made and applies it only if the
//! child is evaluated (module `stack`).

use super::features;
use lielow_rules::board::{Bitboard, BoardSize, Side, Square};
use lielow_rules::moves::Move;
use lielow_rules::position::Position;

/// The most squares one move changes: its origin and landing, and both crowns' old and new
/// squares.
const MAX_CHANGES: usize = 6;

/// One input of the network, as Blue and as Red see it (indices below
/// [`features::INPUTS`], which fits in 16 bits).
pub type Input = [u16; 2];

/// The inputs a move (or a null move) switches off and on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Delta {
    removed: [Input; MAX_CHANGES],
    added: [Input; MAX_CHANGES],
    removed_len: u8,
    added_len: u8,
}

const _: () = assert!(features::INPUTS <= u16::MAX as usize);

impl Delta {
    /// What changes from `parent` to `child = parent.play(mv)`: the moving stack leaves its
    /// origin, lands one higher (or as a height-1 stack on the enemy stack it captures, which
    /// goes), and each crown that moved changes the stacks it left and joined. Only a captured
    /// stack's height is looked up (and a bear-off's, and that of a stack a crown moved on or
    /// off by itself); the rest follows from the move.
    #[inline]
    pub fn of_move(parent: &Position, mv: Move, child: &Position) -> Delta {
        let mut delta = Delta::default();
        delta.set_to_move(parent, mv, child);
        delta
    }

    /// Makes this [`Delta::of_move`] in place: the search's form, which writes each input
    /// once into the ply's own delta (building one apart and copying it in stalled on the
    /// copy).
    #[inline]
    pub fn set_to_move(&mut self, parent: &Position, mv: Move, child: &Position) {
        let size = parent.size();
        let us = parent.side_to_move();
        let from = mv.from();
        let delta = self;
        delta.removed_len = 0;
        delta.added_len = 0;
        // A stack of height h moves exactly h squares, so a move that lands says the height
        // it moved (no lookup); only a bear-off has to look.
        let height = match mv.to() {
            Some(to) => distance(from, to),
            None => parent.height(from),
        };
        debug_assert_eq!(height, parent.height(from), "{parent} {mv}");
        let crowned = |position: &Position, side, square| position.king(side) == Some(square);
        delta.remove(size, from, us, height, crowned(parent, us, from));
        let mut moved = from.bit();
        if let Some(to) = mv.to() {
            moved |= to.bit();
            let landed = match parent.stack(to) {
                Some((them, captured)) => {
                    delta.remove(size, to, them, captured, crowned(parent, them, to));
                    1
                }
                None => height + 1,
            };
            delta.add(size, to, us, landed, crowned(child, us, to));
        }
        for side in Side::BOTH {
            let (before, after) = (parent.king(side), child.king(side));
            if before == after {
                continue;
            }
            // A crown that moved on or off a stack the move left alone: that stack's input
            // changes from crowned to not, or the other way.
            for (square, was_crowned) in [(before, true), (after, false)] {
                let Some(square) = square.filter(|square| !moved.contains(*square)) else {
                    continue;
                };
                let height = child.height(square);
                delta.remove(size, square, side, height, was_crowned);
                delta.add(size, square, side, height, !was_crowned);
            }
        }
    }

    #[inline]
    fn remove(
        &mut self,
        size: BoardSize,
        square: Square,
        owner: Side,
        height: usize,
        crowned: bool,
    ) {
        self.removed[usize::from(self.removed_len)] =
            both_views(size, square, owner, height, crowned);
        self.removed_len += 1;
    }

    #[inline]
    fn add(&mut self, size: BoardSize, square: Square, owner: Side, height: usize, crowned: bool) {
        self.added[usize::from(self.added_len)] = both_views(size, square, owner, height, crowned);
        self.added_len += 1;
    }

    /// What changes between any two positions of one board size, found by comparing every
    /// stack (the slow, general way: the reference the tests hold [`Delta::of_move`] to).
    pub fn between(parent: &Position, child: &Position) -> Delta {
        let mut squares = Bitboard::EMPTY;
        for side in Side::BOTH {
            let mut heights = parent.height_set(side) | child.height_set(side);
            while heights != 0 {
                let height = heights.trailing_zeros() as usize;
                squares |=
                    parent.stacks_of_height(side, height) ^ child.stacks_of_height(side, height);
                heights &= heights - 1;
            }
            let (before, after) = (parent.king(side), child.king(side));
            if before != after {
                squares |= bit_of(before) | bit_of(after);
            }
        }
        Delta::of_squares(parent, child, squares)
    }

    /// The inputs of `squares` that differ between the two positions.
    fn of_squares(parent: &Position, child: &Position, squares: Bitboard) -> Delta {
        debug_assert!(squares.count() as usize <= MAX_CHANGES, "{squares:?}");
        let mut delta = Delta::default();
        for square in squares {
            let before = stack_input(parent, square);
            let after = stack_input(child, square);
            if before == after {
                continue;
            }
            if let Some(input) = before {
                delta.removed[usize::from(delta.removed_len)] = input;
                delta.removed_len += 1;
            }
            if let Some(input) = after {
                delta.added[usize::from(delta.added_len)] = input;
                delta.added_len += 1;
            }
        }
        delta
    }

    /// Makes this the delta of a null move: nothing changes.
    #[inline]
    pub fn clear(&mut self) {
        self.removed_len = 0;
        self.added_len = 0;
    }

    /// The inputs switched off.
    #[inline]
    pub fn removed(&self) -> &[Input] {
        &self.removed[..usize::from(self.removed_len)]
    }

    /// The inputs switched on.
    #[inline]
    pub fn added(&self) -> &[Input] {
        &self.added[..usize::from(self.added_len)]
    }
}

/// How many squares apart two squares on one line are (the larger of the file and rank
/// distances).
#[inline]
fn distance(a: Square, b: Square) -> usize {
    a.file().abs_diff(b.file()).max(a.rank().abs_diff(b.rank()))
}

/// The square's bit, or none.
#[inline]
fn bit_of(square: Option<Square>) -> Bitboard {
    square.map_or(Bitboard::EMPTY, Square::bit)
}

/// The input of a stack seen by Blue and by Red.
#[inline]
fn both_views(size: BoardSize, square: Square, owner: Side, height: usize, crowned: bool) -> Input {
    features::both_views(size, square, owner, height, crowned).map(|input| input as u16)
}

/// The input of the stack on `square` of `position`, seen by Blue and by Red, if a stack
/// stands there.
#[inline]
fn stack_input(position: &Position, square: Square) -> Option<Input> {
    let (owner, height) = position.stack(square)?;
    let crowned = position.king(owner) == Some(square);
    Some(both_views(position.size(), square, owner, height, crowned))
}
