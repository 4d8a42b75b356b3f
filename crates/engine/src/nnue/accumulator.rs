//! The hidden layer's sums for both points of view, kept up to date move by move.
//!
//! A move changes the stacks on two squares (origin, landing) and perhaps where a crown
//! stands: a handful of inputs ([`Delta`]). So a child's accumulator is its parent's with a
//! few weight rows added and taken away, instead of the sum over every stack (a refresh).
//!
//! An update touches at most six inputs per point of view (origin, landing, and both crowns'
//! old and new squares), a refresh one per stack (up to 32 at the start of an 8x8 game, 36 on
//! 9x9); so the search refreshes only where no parent's sums are at hand: at the root, and
//! where a helper thread joins a split point (its own stack holds another line).

use super::delta::{Delta, Input};
use super::features;
use super::network::{Network, HIDDEN};
use super::rows::{self, Row};
use lielow_rules::board::Side;
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

/// The rows of a delta's inputs seen by one side: at most six.
type Rows<'a> = arrayvec::ArrayVec<&'a Row, 6>;

impl Accumulator {
    /// The sums of `position` computed from every stack.
    pub fn refresh(net: &Network, position: &Position) -> Accumulator {
        let mut accumulator = Accumulator::default();
        for viewer in Side::BOTH {
            let view = &mut accumulator.views[viewer.index()];
            *view = net.hidden_bias;
            features::for_each_active(position, viewer, |input| {
                rows::add(view, &net.input_weights[input]);
            });
        }
        accumulator
    }

    /// The network's evaluation of `position`, whose sums these are, for its side to move,
    /// in centipawns.
    #[inline(always)]
    pub fn evaluate(&self, net: &Network, position: &Position) -> i32 {
        let side_to_move = position.side_to_move();
        net.output(
            self.view(side_to_move),
            self.view(side_to_move.opponent()),
            position.size(),
        )
    }

    /// The sums seen by `viewer`.
    #[inline]
    pub fn view(&self, viewer: Side) -> &[i16; HIDDEN] {
        &self.views[viewer.index()]
    }

    /// Sets this accumulator to that of `child`, any position of the same board size as
    /// `parent`, whose accumulator is `from`: the inputs that differ are found by comparing
    /// every stack ([`Delta::between`]), which serves positions that no one move links.
    pub fn update_from(
        &mut self,
        from: &Accumulator,
        net: &Network,
        parent: &Position,
        child: &Position,
    ) {
        self.apply(from, net, &Delta::between(parent, child));
    }

    /// Sets this accumulator to `from`'s with `delta` applied: the search's update. The
    /// common shapes of a move go to kernels of fixed row counts (see `rows`).
    #[inline]
    pub fn apply(&mut self, from: &Accumulator, net: &Network, delta: &Delta) {
        for viewer in Side::BOTH {
            let side = viewer.index();
            let row = |input: &Input| -> &Row { &net.input_weights[usize::from(input[side])] };
            let (out, from) = (&mut self.views[side], &from.views[side]);
            match (delta.removed(), delta.added()) {
                ([r], [a]) => rows::apply_fixed(out, from, [row(r)], [row(a)]),
                ([r1, r2], [a]) => rows::apply_fixed(out, from, [row(r1), row(r2)], [row(a)]),
                ([r1, r2], [a1, a2]) => {
                    rows::apply_fixed(out, from, [row(r1), row(r2)], [row(a1), row(a2)])
                }
                ([r], []) => rows::apply_fixed(out, from, [row(r)], []),
                (removed, added) => {
                    let removed: Rows<'_> = removed.iter().map(row).collect();
                    let added: Rows<'_> = added.iter().map(row).collect();
                    rows::apply_any(out, from, &removed, &added);
                }
            }
        }
    }
}

impl Network {
    /// The network's evaluation of `position`, computed from scratch (an inherent method of
    /// the network, written here because it needs an accumulator).
    pub fn evaluate_position(&self, position: &Position) -> i32 {
        Accumulator::refresh(self, position).evaluate(self, position)
    }
}
