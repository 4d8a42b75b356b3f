//! The tools of the `lielow` program and its command line: the match runner, game review and
//! proofs, pictures, training data, the trainer and the browser GUI. The rules are the
//! `lielow-rules` crate, the engine `lielow-engine`.

#![warn(missing_docs)]

pub mod analysis;
pub mod cli;
pub mod datagen;
pub mod diagram;
pub mod file_error;
pub mod files;
pub mod gui;
pub mod matchplay;
pub mod printer;
pub mod progress;
pub mod spsa;
pub mod train;
