//! The learned evaluation: an efficiently updatable neural network (NNUE).
//!
//! One hidden layer of [`HIDDEN`] clipped-linear units per point of view, fed by sparse inputs
//! (one per stack: its square, height, owner and crown, [`features`]), and one output per board
//! size. The search keeps the hidden sums of every position on its path in an
//! [`Accumulator`] stack and updates them move by move; the output is a dot product of
//! 16-bit integers. The network is trained by `lielow train` (module `train`) from
//! `lielow datagen` games; the shipped one is built into the binary and `EvalFile` loads
//! another.
//!
//! # Speed
//!
//! What the search pays for the network, and why (issue 22, part 3):
//!
//! - updates are found from the move itself ([`Delta::of_move`]: origin, landing, the crowns
//!   that moved; a moving stack's height is the move's length), not by comparing every stack
//!   of the two positions ([`Delta::between`], kept as the tests' reference);
//! - they are applied lazily ([`AccumulatorStack`]): a move records the move and the child
//!   position, and only a ply whose score the search reads works out and applies the deltas
//!   down to it. In the bench about 731,000 moves are made and 306,000 plies computed;
//! - an update is one pass per view (`rows`): each lane is loaded from the parent once, every
//!   row applied in a register, stored once, with kernels of fixed row counts for a move's
//!   common shapes.
//!
//! Dispatch: no `unsafe` and no `std::arch`. The kernels are plain loops over fixed-size `i16`
//! arrays that the compiler vectorises for the build's target: AVX2 under the workspace's
//! `.cargo/config.toml` (x86-64-v3), SSE2 for plain x86-64 (`RUSTFLAGS=""`), whatever else
//! elsewhere, with the same integers on each (wrapping arithmetic). The tests of `rows` hold
//! every kernel to a one-lane reference, and `tests` hold the move's delta to the comparison of
//! every stack and the lazy stack to a refresh on random games; run
//! `RUSTFLAGS="" cargo test -p lielow-engine nnue` to check the SSE2 build too.
//!
//! Per evaluation the network costs about a third of the hand-set evaluation's instructions;
//! per node its search does more than the hand-set one (1.15 times with `lielow bench 11`,
//! 1.34 with `lielow bench`), mostly because its tree evaluates and generates moves at more of
//! its nodes. Memory stalls weigh more in time than in instructions. Measured: see
//! `docs/results/search.md`, "Speed".

mod accumulator;
mod choice;
mod delta;
pub mod features;
mod file;
mod network;
mod rows;
mod stack;
#[cfg(test)]
mod tests;

pub use accumulator::Accumulator;
pub use choice::EvalChoice;
pub use delta::Delta;
pub use file::{NetError, MAX_FILE_BYTES, VERSION};
pub use network::{Network, OutputWeights, HIDDEN, INPUTS, QA, QB};
pub use stack::AccumulatorStack;
