//! The hidden layer's sums for both points of view, kept up to date move by move.
//!
//! A move changes the stacks on two or three squares (origin, landing) and perhaps where a
//! crown stands: a handful of inputs. So a child's accumulator is its parent's with a few
//! weight rows added and taken away, instead of the sum over every stack (a refresh). Which
//! inputs changed is found by comparing the parent and child positions square by square
//! (their height sets and crowns), which needs nothing from the move itself and so serves the
//! null move and every rule of the crown alike.
//!
//! An update touches at most six inputs per point of view (origin, landing, and both crowns'
//! old and new squares), a refresh one per stack (up to 32 at the start of an 8x8 game, 36 on
//! 9x9); so the search refreshes only where no parent's sums are at hand: at the root, and
//! where a helper thread joins a split point (its own stack holds another line).

use arrayvec::ArrayVec;

use super::features;
use super::network::{Network, HIDDEN};
use lielow_rules::board::{Bitboard, BoardSize, Side};
use lielow_rules::position::Position;

/// The hidden sums seen by Blue and by Red.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(C, align(64))]
pub struct Accumulator {
    views: [[i16; HIDDEN]; 2],
}

impl Default for Accumulator {
    fn default() -> Self {
        Accumulator {
            views: [[0; HIDDEN]; 2],
        }
    }
}

/// Inputs switched on and off by one move, from one point of view (a move touches at most
/// the origin, the landing and the old and new squares of both crowns).
type Changes = ArrayVec<usize, 8>;

impl Accumulator {
    /// The sums of `position` computed from every stack.
    pub fn refresh(net: &Network, position: &Position) -> Accumulator {
        let mut accumulator = Accumulator::default();
        for viewer in Side::BOTH {
            let view = &mut accumulator.views[viewer.index()];
            *view = net.hidden_bias;
            features::for_each_active(position, viewer, |input| {
                add_row(view, &net.input_weights[input]);
            });
        }
        accumulator
    }

    /// The network's evaluation of the position these are the sums of, for `side_to_move`,
    /// in centipawns.
    #[inline]
    pub fn evaluate(&self, net: &Network, side_to_move: Side, size: BoardSize) -> i32 {
        net.output(
            self.view(side_to_move),
            self.view(side_to_move.opponent()),
            size,
        )
    }

    /// The sums seen by `viewer`.
    #[inline]
    pub fn view(&self, viewer: Side) -> &[i16; HIDDEN] {
        &self.views[viewer.index()]
    }

    /// Sets this accumulator to that of `child`, a position one move (or a null move) after
    /// `parent`, whose accumulator is `from`.
    #[inline]
    pub fn update_from(
        &mut self,
        from: &Accumulator,
        net: &Network,
        parent: &Position,
        child: &Position,
    ) {
        let changed = changed_squares(parent, child);
        for viewer in Side::BOTH {
            let mut removed = Changes::new();
            let mut added = Changes::new();
            for square in changed {
                if let Some(input) = features::of_square(parent, viewer, square) {
                    removed.push(input);
                }
                if let Some(input) = features::of_square(child, viewer, square) {
                    added.push(input);
                }
            }
            let view = &mut self.views[viewer.index()];
            *view = from.views[viewer.index()];
            for &input in &removed {
                sub_row(view, &net.input_weights[input]);
            }
            for &input in &added {
                add_row(view, &net.input_weights[input]);
            }
        }
    }
}

impl Network {
    /// The network's evaluation of `position`, computed from scratch (an inherent method of
    /// the network, written here because it needs an accumulator).
    pub fn evaluate_position(&self, position: &Position) -> i32 {
        Accumulator::refresh(self, position).evaluate(
            self,
            position.side_to_move(),
            position.size(),
        )
    }
}

/// The squares whose stack or crown differs between the two positions.
#[inline]
fn changed_squares(parent: &Position, child: &Position) -> Bitboard {
    let mut changed = Bitboard::EMPTY;
    for side in Side::BOTH {
        let mut heights = parent.height_set(side) | child.height_set(side);
        while heights != 0 {
            let height = heights.trailing_zeros() as usize;
            changed |= parent.stacks_of_height(side, height) ^ child.stacks_of_height(side, height);
            heights &= heights - 1;
        }
        let (before, after) = (parent.king(side), child.king(side));
        if before != after {
            for square in [before, after].into_iter().flatten() {
                changed |= square.bit();
            }
        }
    }
    changed
}

/// Wrapping arithmetic: the sums of a trained network stay within `i16` (the trainer clips
/// its weights for that), and wrapping keeps the order of additions from mattering.
#[inline]
fn add_row(view: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for (v, w) in view.iter_mut().zip(row) {
        *v = v.wrapping_add(*w);
    }
}

#[inline]
fn sub_row(view: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for (v, w) in view.iter_mut().zip(row) {
        *v = v.wrapping_sub(*w);
    }
}
