//! The accumulators of a search line, brought up to date only where the search reads a score.
//!
//! Making a move records its [`Delta`] (which inputs it switches, as indices: no weights are
//! touched) and marks the child's sums as not yet computed. Evaluating a ply walks back to
//! the nearest ply whose sums are computed and applies the deltas from there forward. So a
//! node that never asks for its static evaluation (a table cut-off, a table hit that carries
//! the evaluation, a node settled by a king capture or a finished game) and has no evaluated
//! descendant costs no update at all, and one that does costs exactly the updates of the eager
//! scheme. The values are the same integers whichever way they are reached.

use super::accumulator::Accumulator;
use super::delta::Delta;
use super::network::Network;
use lielow_rules::moves::Move;
use lielow_rules::position::Position;

/// One thread's accumulators, one per ply of the line being searched.
pub struct AccumulatorStack {
    accumulators: Vec<Accumulator>,
    /// `deltas[ply]`: what the move into `ply` changed (unused at a refreshed ply).
    deltas: Vec<Delta>,
    /// `computed[ply]`: `accumulators[ply]` holds the sums of the position at `ply`.
    computed: Vec<bool>,
}

impl AccumulatorStack {
    /// Room for plies `0..plies`.
    pub fn new(plies: usize) -> AccumulatorStack {
        AccumulatorStack {
            accumulators: vec![Accumulator::default(); plies],
            deltas: vec![Delta::default(); plies],
            computed: vec![false; plies],
        }
    }

    /// Computes the sums of `position` at `ply` from scratch: where no parent's are at hand.
    pub fn refresh(&mut self, net: &Network, position: &Position, ply: usize) {
        self.accumulators[ply] = Accumulator::refresh(net, position);
        self.computed[ply] = true;
    }

    /// Records `child = parent.play(mv)`, the position at `ply + 1` after the one at `ply`.
    #[inline]
    pub fn play(&mut self, parent: &Position, mv: Move, child: &Position, ply: usize) {
        self.deltas[ply + 1] = Delta::of_move(parent, mv, child);
        self.computed[ply + 1] = false;
    }

    /// Records a null move from `ply`: nothing the network sees changes.
    #[inline]
    pub fn pass(&mut self, ply: usize) {
        self.deltas[ply + 1] = Delta::default();
        self.computed[ply + 1] = false;
    }

    /// The sums of the position at `ply`, computed now if they are not yet.
    #[inline]
    pub fn get(&mut self, net: &Network, ply: usize) -> &Accumulator {
        if !self.computed[ply] {
            self.compute(net, ply);
        }
        &self.accumulators[ply]
    }

    /// The network's evaluation of `position`, the position at `ply`.
    #[inline]
    pub fn evaluate(&mut self, net: &Network, position: &Position, ply: usize) -> i32 {
        self.get(net, ply)
            .evaluate(net, position.side_to_move(), position.size())
    }

    /// Applies the deltas from the nearest computed ply below `ply` up to `ply`.
    fn compute(&mut self, net: &Network, ply: usize) {
        let base = (0..ply)
            .rev()
            .find(|&p| self.computed[p])
            .expect("the line's first ply is refreshed before any move is recorded");
        for p in base + 1..=ply {
            let (done, next) = self.accumulators.split_at_mut(p);
            next[0].apply(&done[p - 1], net, &self.deltas[p]);
            self.computed[p] = true;
        }
    }
}
