//! Lielow: exact rules, a bitboard move generator with perft, and the engine built on them.
//!
//! The rules and text formats are those of the project's RULES.md; `protocol.md` documents what
//! the `lielow` program speaks.

#![warn(missing_docs)]

pub mod analysis;
pub mod attacks;
pub mod bench;
pub mod board;
pub mod cli;
pub mod datagen;
pub mod diagram;
pub mod engine;
pub mod eval;
pub mod gui;
pub mod lfen;
pub mod limits;
pub mod matchplay;
pub mod movegen;
pub mod moves;
pub mod nnue;
pub mod perft;
pub mod position;
pub mod score;
pub mod search;
pub mod time;
pub mod train;
pub mod tt;
pub mod ugi;
mod zobrist;

pub use board::{Bitboard, BoardSize, Side, Square};
pub use lfen::LfenError;
pub use moves::Move;
pub use position::Position;
