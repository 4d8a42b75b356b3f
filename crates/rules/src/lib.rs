//! The rules of Lielow: board, moves, positions, LFEN, exact move generation and perft.

#![warn(missing_docs)]

pub mod attacks;
pub mod board;
pub mod lfen;
pub mod movegen;
pub mod moves;
pub mod perft;
pub mod position;
mod zobrist;

pub use board::{Bitboard, BoardSize, BoardSizeError, Side, SideError, Square, SquareError};
pub use lfen::LfenError;
pub use moves::{Move, MoveTextError};
pub use position::Position;
