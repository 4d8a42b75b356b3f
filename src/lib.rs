//! The tools of the `lielow` program and its command line: the match runner, game review and
//! proofs, pictures, training data, the trainer and the browser GUI. The rules are the
//! `lielow-rules` crate, the engine `lielow-engine`.
//!
//! The commands ([`cli`] dispatches to [`matchplay`], [`analysis`], [`datagen`], [`train`],
//! [`spsa`], [`puzzles`] and [`gui`]) stand on modules they share and that import none of them: who plays
//! ([`players`]) and the processes of engines ([`process`]), worker threads over numbered
//! jobs ([`pool`]), game records ([`records`]) and games in every format ([`games`]),
//! openings ([`openings`]), positions on the command line ([`position_arg`]), shards of a run
//! ([`shard`]), why a game ended ([`reason`]), and below those the files ([`files`],
//! [`file_error`]), pictures ([`diagram`]) and printing ([`printer`]).

#![warn(missing_docs)]

pub mod analysis;
pub mod cli;
pub mod datagen;
pub mod diagram;
pub mod file_error;
pub mod files;
pub mod games;
pub mod gui;
pub mod matchplay;
pub mod openings;
pub mod players;
pub mod pool;
pub mod position_arg;
pub mod printer;
pub mod process;
pub mod progress;
pub mod puzzles;
pub mod reason;
pub mod records;
pub mod shard;
pub mod spsa;
pub mod train;
