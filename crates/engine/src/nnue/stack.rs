//! The accumulators of a search line, brought up to date only where the search reads a score.
//!
//! Making a move records the move and a copy of the child position (a few vector moves, and
//! nothing else: no input is worked out, no weight touched) and marks the child's sums as not
//! yet computed. Evaluating a ply walks back to the nearest ply whose sums are computed and,
//! from there forward, works out each move's [`Delta`] and applies it. So a
//! node that never asks for its static evaluation (a table cut-off, a table hit that carries
//! the evaluation, a node settled by a king capture or a finished game) and has no evaluated
//! descendant costs no update at all, and one that does costs exactly the updates of the eager
//! scheme. The values are the same integers whichever way they are reached.

use super::accumulator::Accumulator;
use super::delta::Delta;
use super::network::Network;
use lielow_rules::board::BoardSize;
use lielow_rules::moves::Move;
use lielow_rules::position::Position;

/// One thread's accumulators, one per ply of the line being searched.
pub struct AccumulatorStack {
    accumulators: Vec<Accumulator>,
    /// `positions[ply]`: the position at `ply` of the line (set by every refresh and move).
    positions: Vec<Position>,
    /// `moves[ply]`: the move into `ply` (`None`: a null move; unused at a refreshed ply).
    moves: Vec<Option<Move>>,
    /// `computed[ply]`: `accumulators[ply]` holds the sums of the position at `ply`.
    computed: Vec<bool>,
}

impl AccumulatorStack {
    /// Room for plies `0..plies`.
    pub fn new(plies: usize) -> AccumulatorStack {
        AccumulatorStack {
            accumulators: vec![Accumulator::default(); plies],
            // Placeholders, each overwritten before it is read.
            positions: vec![Position::start(BoardSize::Eight); plies],
            moves: vec![None; plies],
            computed: vec![false; plies],
        }
    }

    /// Computes the sums of `position` at `ply` from scratch: where no parent's are at hand.
    pub fn refresh(&mut self, net: &Network, position: &Position, ply: usize) {
        self.accumulators[ply] = Accumulator::refresh(net, position);
        self.positions[ply] = *position;
        self.computed[ply] = true;
    }

    /// Records `child`, the position at `ply + 1`, reached by `mv` from the one at `ply`.
    #[inline]
    pub fn play(&mut self, mv: Move, child: &Position, ply: usize) {
        self.moves[ply + 1] = Some(mv);
        self.positions[ply + 1] = *child;
        self.computed[ply + 1] = false;
    }

    /// Records a null move from `ply` to `child`: nothing the network sees changes.
    #[inline]
    pub fn pass(&mut self, child: &Position, ply: usize) {
        self.moves[ply + 1] = None;
        self.positions[ply + 1] = *child;
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
        self.get(net, ply).evaluate(net, position)
    }

    /// Applies the deltas from the nearest computed ply below `ply` up to `ply`.
    fn compute(&mut self, net: &Network, ply: usize) {
        let base = (0..ply)
            .rev()
            .find(|&p| self.computed[p])
            .expect("the line's first ply is refreshed before any move is recorded");
        for p in base + 1..=ply {
            let (done, next) = self.accumulators.split_at_mut(p);
            match self.moves[p] {
                Some(mv) => {
                    let delta = Delta::of_move(&self.positions[p - 1], mv, &self.positions[p]);
                    next[0].apply(&done[p - 1], net, &delta);
                }
                None => next[0] = done[p - 1],
            }
            self.computed[p] = true;
        }
    }
}
