//! Puzzles with proofs: positions whose side to move wins by force in N moves with one first
//! move only, both proven by the proof search. [`file`] reads and writes the puzzle file.

pub mod file;
