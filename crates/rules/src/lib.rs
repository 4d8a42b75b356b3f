//! The rules of Lielow: board, moves, positions, LFEN, exact move generation and perft.
//!
//! Lielow is a two-player stacking game on an 8x8 board (or the 9x9 variant): a stack of height
//! h moves exactly h squares in one of eight directions, grows by one landing on an empty square,
//! captures an enemy stack by landing on it (and drops to height 1), or bears off past the edge.
//! A side's crown sits on its uniquely tallest stack, its king; capturing the enemy king wins,
//! bearing off your own loses. The project's `RULES.md` (in the repository as `docs/rules.md`) is
//! the authoritative text of the rules, of the move notation (`b2-e5`, `b5xe5`, `c4-off`) and of
//! LFEN, the position string.
//!
//! # Setting up a position
//!
//! A [`Position`] comes from the start position of a [`BoardSize`], or from LFEN; it prints
//! back as LFEN.
//!
//! ```
//! use lielow_rules::{BoardSize, Position, Side};
//!
//! let start = Position::start(BoardSize::Eight);
//! assert_eq!(start.to_string(), "8/r1r1r1r1r1r1r1r1/8/8/8/8/b1b1b1b1b1b1b1b1/8 b");
//!
//! let position: Position = "8/8/8/4R13/8/2B35/b1b1b1b1b1b1b1b1/8 r".parse()?;
//! assert_eq!(position.side_to_move(), Side::Red);
//! assert_eq!(position.stack("c3".parse()?), Some((Side::Blue, 3)));
//! assert_eq!(position.king(Side::Red), "e5".parse().ok());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Listing and playing moves
//!
//! [`Position::legal_moves`] lists the legal moves (on the stack, no allocation);
//! [`Position::play`] returns the child and leaves the parent as it was (copy-make). A move read
//! from text is checked against the position by [`Position::parse_move`]; the module [`play`]
//! lays out the ladder of checked and unchecked ways to play a move.
//!
//! ```
//! use lielow_rules::{BoardSize, IllegalMove, Position};
//!
//! let start = Position::start(BoardSize::Eight);
//! for mv in start.legal_moves() {
//!     let child = start.play(mv);
//!     assert_eq!(child.side_to_move(), start.side_to_move().opponent());
//! }
//!
//! let mv = start.parse_move("e2-e3")?;
//! let child = start.play(mv);
//! assert_eq!(child.to_lfen(), "8/r1r1r1r1r1r1r1r1/8/8/8/4B23/b1b1b1b11b1b1b1/8 r");
//! assert_eq!(child.parse_move("e3-e5"), Err(IllegalMove::OpponentStack));
//! # Ok::<(), IllegalMove>(())
//! ```
//!
//! # Playing a game's moves, and how it ended
//!
//! [`Position::replay`] plays a list of moves given as text, all or nothing, and names the
//! first bad one; [`Position::play_moves`] and [`Position::try_play_moves`] play a list of
//! [`Move`]s. [`Position::outcome`] says who won a finished game and how ([`GameEnd`]:
//! the king captured, the own king borne off, no move left).
//!
//! ```
//! use lielow_rules::{BoardSize, GameEnd, Position, Side};
//!
//! let start = Position::start(BoardSize::Eight);
//! let (end, moves) = start.replay("d2-d3 e7-e6 d3-d5 e6-e4".split_whitespace())?;
//! assert_eq!(moves.len(), 4);
//! assert_eq!(end.king(Side::Red), "e4".parse().ok(), "the uniquely tallest stack is crowned");
//! assert_eq!(start.play_moves(&moves[..2]), start.replay(["d2-d3", "e7-e6"])?.0);
//!
//! let error = start.replay(["d2-d3", "d3-d4"]).unwrap_err();
//! assert_eq!(error.to_string(), "move 2 'd3-d4': the stack there belongs to the opponent");
//!
//! // Blue's king on d3 lands on Red's king on d5: the game is over.
//! let position: Position = "8/8/8/3R14/8/3B24/8/8 b".parse()?;
//! let (over, _) = position.replay(["d3xd5"])?;
//! let outcome = over.outcome().expect("the game is over");
//! assert_eq!((outcome.winner, outcome.end), (Side::Blue, GameEnd::KingCaptured));
//! assert_eq!(end.outcome(), None, "the game goes on");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Counting: perft
//!
//! [`perft()`] counts the legal move sequences of a given length, the test of move generation
//! against the reference figures; [`perft::divide`] splits the count by root move.
//!
//! ```
//! use lielow_rules::{perft, BoardSize, Position};
//!
//! let start = Position::start(BoardSize::Eight);
//! assert_eq!(perft(&start, 1), 46);
//! assert_eq!(perft(&start, 3), 97_520);
//! assert_eq!(perft(&Position::start(BoardSize::Nine), 2), 7_396);
//! ```
//!
//! # Errors
//!
//! Every parser and checked call returns a typed error that implements
//! [`std::error::Error`]; its message says what is wrong and where. The messages of
//! [`LfenError`], [`IllegalMove`] and [`moves::MoveTextError`] never repeat the input (the
//! caller quotes it, with [`quote::shown`] if it came from outside); [`ReplayError`] names the
//! bad move's text itself, cut and cleaned the same way.
//!
//! # Modules
//!
//! - [`board`]: squares, sides, board sizes and the 128-bit square sets;
//! - [`moves`]: the [`Move`] and its notation;
//! - [`position`]: the position, setting one up from its stacks, its unchecked play;
//! - [`movegen`]: the legal moves, generated or counted;
//! - [`play`]: checked play of a move, of a move's text, of a list of moves;
//! - [`outcome`]: how a game ended;
//! - [`attacks`]: which stacks can land on a square next move;
//! - [`lfen`]: the position string;
//! - [`perft`](mod@perft): move-sequence counts;
//! - [`quote`]: how messages quote input text.

#![warn(missing_docs)]

pub mod attacks;
pub mod board;
pub mod lfen;
pub mod movegen;
pub mod moves;
pub mod outcome;
pub mod perft;
pub mod play;
pub mod position;
pub mod quote;
mod zobrist;

pub use board::{Bitboard, BoardSize, BoardSizeError, Side, SideError, Square, SquareError};
pub use lfen::LfenError;
pub use moves::{Move, MoveTextError};
pub use outcome::{GameEnd, GameEndError, Outcome};
pub use perft::perft;
pub use play::{IllegalMove, ReplayError};
pub use position::{CrownError, InvariantError, PartsError, Position};

/// The README's example, compiled and run as a doc test so that it stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeExample;
