//! Why `lielow board`, `lielow solve` or `lielow analyse` stops: every message the three
//! commands print on stderr, before `cli` prefixes it with the command's name. All are input
//! errors (exit status 2), and nothing is written then.

use std::fmt;
use std::path::PathBuf;

use lielow_engine::ugi::shown;
use lielow_rules::board::BoardSize;
use lielow_rules::moves::MoveTextError;

use super::solve::SolveError;
use crate::file_error::FileError;
use crate::games::GamesError;
use crate::position_arg::PositionArgError;

/// Why a picture, a proof or a review cannot be made.
#[derive(Debug)]
pub enum AnalysisError {
    /// The position does not read (or a move of it cannot be played).
    Position(PositionArgError),
    /// A move to draw (`--last-move`, `--arrow`) does not read.
    DrawnMove {
        /// The flag.
        flag: &'static str,
        /// The text given.
        text: String,
        /// What is wrong.
        error: MoveTextError,
    },
    /// A move to draw has a square off the board.
    OffBoard {
        /// The flag.
        flag: &'static str,
        /// The text given.
        text: String,
        /// The board's size.
        size: BoardSize,
    },
    /// A file (or standard output) that cannot be read or written.
    File(FileError),
    /// `--time` is not a positive number of seconds.
    Time,
    /// The solver failed (a finished game, or a thread that did not start).
    Solve(SolveError),
    /// The engine's searcher refused a setting (its message).
    Search(String),
    /// Neither a file of games nor `--game`.
    NoGame,
    /// The game of `--game` does not read (a bad position, or a move that cannot be played).
    Game(PositionArgError),
    /// `--game` with a file of games is not a game number.
    GameNumber(String),
    /// The file of games cannot be read (the error names the game, and the line or move).
    Games {
        /// The file.
        path: PathBuf,
        /// What is wrong (boxed: it is large, and rare).
        error: Box<GamesError>,
    },
    /// The file has no game of the number asked for.
    NoSuchGame {
        /// The file.
        path: PathBuf,
        /// The number asked for.
        number: usize,
    },
    /// The file holds no game at all.
    Empty(PathBuf),
}

impl fmt::Display for AnalysisError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnalysisError::Position(error) => error.fmt(f),
            AnalysisError::DrawnMove { flag, text, error } => {
                write!(f, "{flag} '{}': {error}", shown(text))
            }
            AnalysisError::OffBoard { flag, text, size } => write!(
                f,
                "{flag} '{}': a square is off the {size}x{size} board",
                shown(text)
            ),
            AnalysisError::File(error) => error.fmt(f),
            AnalysisError::Time => f.write_str("--time must be a positive number of seconds"),
            AnalysisError::Solve(error) => error.fmt(f),
            AnalysisError::Search(message) => f.write_str(message),
            AnalysisError::NoGame => f.write_str(
                "give a file of games (records, PGN or Abstract Play records), or a game with --game \"startpos moves ...\"",
            ),
            AnalysisError::Game(error) => write!(f, "--game: {error}"),
            AnalysisError::GameNumber(text) => write!(
                f,
                "--game '{}': with a file of games, the game's number (from 1)",
                shown(text)
            ),
            AnalysisError::Games { path, error } => write!(f, "{}: {error}", path.display()),
            AnalysisError::NoSuchGame { path, number } => {
                write!(f, "{} has no game {number}", path.display())
            }
            AnalysisError::Empty(path) => write!(f, "{} holds no game", path.display()),
        }
    }
}

impl std::error::Error for AnalysisError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            AnalysisError::File(error) => Some(error),
            AnalysisError::Solve(error) => Some(error),
            AnalysisError::Games { error, .. } => Some(error.as_ref()),
            AnalysisError::Position(error) | AnalysisError::Game(error) => Some(error),
            _ => None,
        }
    }
}

impl From<FileError> for AnalysisError {
    fn from(error: FileError) -> AnalysisError {
        AnalysisError::File(error)
    }
}

impl From<PositionArgError> for AnalysisError {
    fn from(error: PositionArgError) -> AnalysisError {
        AnalysisError::Position(error)
    }
}

impl From<SolveError> for AnalysisError {
    fn from(error: SolveError) -> AnalysisError {
        AnalysisError::Solve(error)
    }
}
