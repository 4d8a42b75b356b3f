//! A position on the command line, read the same way by every command that takes one
//! (`perft`, `board`, `solve`, `analyse --game`): `startpos`, an LFEN, or either followed by
//! `moves m1 m2 ...` — the protocol's `position` line without its keywords. One reader, so
//! that what works for one command works for all of them.
//!
//! The text is read when the command runs, not by clap: its errors are then one line, like
//! every other input error of the command line.

use std::fmt;
use std::str::FromStr;

use crate::openings::BadLfen;
use lielow_engine::ugi::shown;
use lielow_rules::board::BoardSize;
use lielow_rules::moves::{Move, MoveText};
use lielow_rules::position::Position;
use lielow_rules::ReplayError;

/// The word that separates the position from its moves.
const MOVES: &str = "moves";

/// What every command says a position is, in its help and in its errors.
pub const POSITION_HELP: &str = "`startpos`, an LFEN, or either followed by `moves m1 m2 ...`";

/// Where a [`PositionArg`] starts.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Start {
    /// The start position of the command's `--size`.
    StartPos,
    /// A position given by its LFEN (its board sets the size).
    Lfen(Box<Position>),
}

/// A position as given on the command line: where it starts and the moves played from there,
/// as written (they are checked by [`PositionArg::play`], which knows the board size).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionArg {
    start: Start,
    moves: Vec<String>,
}

/// A [`PositionArg`] played out: the start, the moves from it and the position they reach.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedPosition {
    /// The position before the moves.
    pub start: Position,
    /// The moves, checked.
    pub moves: Vec<Move>,
    /// The position after the moves.
    pub position: Position,
}

/// Why a command-line position does not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionArgError {
    /// The text before `moves` is neither `startpos` nor an LFEN.
    Lfen {
        /// The text given (before `moves`).
        text: String,
        /// What is wrong with it as an LFEN.
        error: BadLfen,
    },
    /// A list of moves without the position they start from.
    MovesOnly(String),
    /// Nothing before `moves`.
    NothingBeforeMoves,
    /// A move that cannot be played in turn (the rules' error names it and its number).
    Move(ReplayError),
}

impl fmt::Display for PositionArgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionArgError::Lfen { text, error } => {
                write!(f, "position '{}': {error}", shown(text))
            }
            PositionArgError::MovesOnly(text) => write!(
                f,
                "position '{}' is a list of moves without the position they start from: give \
                 {POSITION_HELP}, e.g. 'startpos moves {}'",
                shown(text),
                shown(text)
            ),
            PositionArgError::NothingBeforeMoves => {
                write!(f, "nothing before 'moves': a position is {POSITION_HELP}")
            }
            PositionArgError::Move(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for PositionArgError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PositionArgError::Lfen { error, .. } => Some(error),
            PositionArgError::Move(error) => Some(error),
            _ => None,
        }
    }
}

impl FromStr for PositionArg {
    type Err = PositionArgError;

    fn from_str(text: &str) -> Result<PositionArg, PositionArgError> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let (position_words, moves) = match words.iter().position(|&word| word == MOVES) {
            Some(at) => (&words[..at], &words[at + 1..]),
            None => (&words[..], &[][..]),
        };
        let start = match position_words {
            ["startpos"] => Start::StartPos,
            [] if !words.is_empty() => return Err(PositionArgError::NothingBeforeMoves),
            [first, ..] if MoveText::parse(first).is_ok() => {
                return Err(PositionArgError::MovesOnly(words.join(" ")))
            }
            _ => {
                let lfen = position_words.join(" ");
                let position = BadLfen::read(&lfen)
                    .map_err(|error| PositionArgError::Lfen { text: lfen, error })?;
                Start::Lfen(Box::new(position))
            }
        };
        Ok(PositionArg {
            start,
            moves: moves.iter().map(|&word| word.to_owned()).collect(),
        })
    }
}

impl PositionArg {
    /// Plays the moves from the start: `startpos` is the start position of `size`; an LFEN's
    /// board gives its own size.
    pub fn play(&self, size: BoardSize) -> Result<PlayedPosition, PositionArgError> {
        let start = match &self.start {
            Start::StartPos => Position::start(size),
            Start::Lfen(position) => **position,
        };
        let (position, moves) = start.replay(&self.moves).map_err(PositionArgError::Move)?;
        Ok(PlayedPosition {
            start,
            moves,
            position,
        })
    }

    /// Reads `text` and plays it: `startpos` on a board of `size`.
    pub fn read(text: &str, size: BoardSize) -> Result<PlayedPosition, PositionArgError> {
        text.parse::<PositionArg>()?.play(size)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const EIGHT: BoardSize = BoardSize::Eight;

    #[test]
    fn startpos_and_its_lfen_are_the_same_position() {
        let start = Position::start(BoardSize::Eight);
        let by_name = PositionArg::read("startpos", EIGHT).unwrap();
        let by_lfen = PositionArg::read(&start.to_lfen(), EIGHT).unwrap();
        assert_eq!(by_name, by_lfen);
        assert_eq!(by_name.position, start);
        assert!(by_name.moves.is_empty());
        let nine = PositionArg::read("startpos", BoardSize::Nine).unwrap();
        assert_eq!(nine.position, Position::start(BoardSize::Nine));
    }

    #[test]
    fn moves_are_played_from_either_start() {
        let start = Position::start(BoardSize::Eight);
        let (after, _) = start.replay(["a2-a3"]).unwrap();
        let played = PositionArg::read("startpos moves a2-a3", EIGHT).unwrap();
        assert_eq!(played.position, after);
        assert_eq!(played.start, start);
        assert_eq!(played.moves.len(), 1);
        let text = format!("{} moves a2-a3", start.to_lfen());
        assert_eq!(PositionArg::read(&text, EIGHT).unwrap(), played);
        // `moves` with nothing after it is the position itself.
        assert_eq!(
            PositionArg::read("startpos moves", EIGHT).unwrap().position,
            start
        );
    }

    #[test]
    fn each_mistake_gets_its_own_message() {
        let error = PositionArg::read("g2-f3 b7-c6", EIGHT).unwrap_err();
        assert!(matches!(error, PositionArgError::MovesOnly(_)), "{error}");
        assert!(
            error.to_string().contains("'startpos moves g2-f3 b7-c6'"),
            "{error}"
        );
        let error = PositionArg::read("8/8/8 b", EIGHT).unwrap_err();
        assert!(
            error
                .to_string()
                .starts_with("position '8/8/8 b': bad LFEN"),
            "{error}"
        );
        let error = PositionArg::read("startpos moves a2-a4", EIGHT).unwrap_err();
        assert!(matches!(error, PositionArgError::Move(_)));
        assert!(error.to_string().contains("move 1 'a2-a4'"), "{error}");
        assert_eq!(
            PositionArg::read("moves a2-a3", EIGHT),
            Err(PositionArgError::NothingBeforeMoves)
        );
        assert!(matches!(
            PositionArg::read("", EIGHT),
            Err(PositionArgError::Lfen { .. })
        ));
    }
}
