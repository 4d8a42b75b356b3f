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

/// One ply of the line: its sums and what they are worked out from, side by side, so that
/// recording a move and computing a ply each touch one place (four parallel vectors cost a
/// bounds check and a base address each, on every move the search makes).
#[derive(Clone, Copy)]
struct Ply {
    accumulator: Accumulator,
    /// The position at this ply of the line (set by every refresh and move).
    position: Position,
    /// The move into this ply (`None`: a null move; unused at a refreshed ply).
    mv: Option<Move>,
    /// `accumulator` holds the sums of `position`.
    computed: bool,
}

/// One thread's accumulators, one per ply of the line being searched.
pub struct AccumulatorStack {
    plies: Vec<Ply>,
}

impl AccumulatorStack {
    /// Room for plies `0..plies`.
    pub fn new(plies: usize) -> AccumulatorStack {
        let empty = Ply {
            accumulator: Accumulator::default(),
            // A placeholder, overwritten before it is read.
            position: Position::start(BoardSize::Eight),
            mv: None,
            computed: false,
        };
        AccumulatorStack {
            plies: vec![empty; plies],
        }
    }

    /// Computes the sums of `position` at `ply` from scratch: where no parent's are at hand.
    pub fn refresh(&mut self, net: &Network, position: &Position, ply: usize) {
        let at = &mut self.plies[ply];
        at.accumulator = Accumulator::refresh(net, position);
        at.position = *position;
        at.computed = true;
    }

    /// Records `child`, the position at `ply + 1`, reached by `mv` from the one at `ply`.
    #[inline]
    pub fn play(&mut self, mv: Move, child: &Position, ply: usize) {
        self.record(Some(mv), child, ply);
    }

    /// Records a null move from `ply` to `child`: nothing the network sees changes.
    #[inline]
    pub fn pass(&mut self, child: &Position, ply: usize) {
        self.record(None, child, ply);
    }

    #[inline]
    fn record(&mut self, mv: Option<Move>, child: &Position, ply: usize) {
        let next = &mut self.plies[ply + 1];
        next.mv = mv;
        next.position = *child;
        next.computed = false;
    }

    /// The sums of the position at `ply`, computed now if they are not yet.
    #[inline]
    pub fn get(&mut self, net: &Network, ply: usize) -> &Accumulator {
        if !self.plies[ply].computed {
            self.compute(net, ply);
        }
        &self.plies[ply].accumulator
    }

    /// The network's evaluation of `position`, the position at `ply`.
    #[inline]
    pub fn evaluate(&mut self, net: &Network, position: &Position, ply: usize) -> i32 {
        self.get(net, ply).evaluate(net, position)
    }

    /// Applies the deltas from the nearest computed ply below `ply` up to `ply`.
    fn compute(&mut self, net: &Network, ply: usize) {
        let line = &mut self.plies[..=ply];
        let base = line
            .iter()
            .rposition(|at| at.computed)
            .expect("the line's first ply is refreshed before any move is recorded");
        for p in base + 1..=ply {
            let (done, next) = line.split_at_mut(p);
            let (parent, child) = (&done[p - 1], &mut next[0]);
            match child.mv {
                Some(mv) => {
                    let delta = Delta::of_move(&parent.position, mv, &child.position);
                    child.accumulator.apply(&parent.accumulator, net, &delta);
                }
                None => child.accumulator = parent.accumulator,
            }
            child.computed = true;
        }
    }
}
