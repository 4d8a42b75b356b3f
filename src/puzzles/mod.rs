//! Puzzles with proofs: positions whose side to move wins by force in N moves with one first
//! move only, both proven by the proof search (docs/puzzles.md is the guide).
//!
//! [`file`] reads and writes the puzzle file; [`find`] proves that a position is a puzzle (or
//! why not); [`rate`] measures what it takes the engine to find the answer and turns it into a
//! rating; [`sources`] gives the games looked in (files, or the engine's own) and their
//! candidate positions; [`command`] is `lielow puzzles`, which ties them together over worker
//! threads.

pub mod command;
pub mod file;
pub mod find;
pub mod rate;
pub mod sources;
