//! The learned evaluation: an efficiently updatable neural network (NNUE).
//!
//! One hidden layer of [`HIDDEN`] clipped-linear units per point of view, fed by sparse inputs
//! (one per stack: its square, height, owner and crown, [`features`]), and one output per board
//! size. The search keeps the hidden sums of every position on its path in an
//! [`Accumulator`] stack and updates them move by move; the output is a dot product of
//! 16-bit integers. The network is trained by `lielow train` (module `train`) from
//! `lielow datagen` games; the shipped one is built into the binary and `EvalFile` loads
//! another.

mod accumulator;
mod choice;
mod delta;
pub mod features;
mod network;
mod rows;
mod stack;
#[cfg(test)]
mod tests;

pub use accumulator::Accumulator;
pub use choice::EvalChoice;
pub use delta::Delta;
pub use network::{NetError, Network, HIDDEN, INPUTS, QA, QB};
pub use stack::AccumulatorStack;
