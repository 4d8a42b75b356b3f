//! Game records: one line per game, written by `lielow match --records FILE`.
//!
//! ```text
//! <start LFEN> ; <moves, canonical, space separated> ; <winner: b|r> ; <reason> ; <Blue name> ; <Red name>
//! ```
//!
//! The moves are every move played from the start position, opening moves included, so
//! `position fen <start> moves <moves>` sets up the final position exactly. For the rules' own
//! endings (`king-captured`, `king-borne-off`, `no-moves`) that final position is over and its
//! winner is the recorded one; for a forfeit (`illegal-move`, `time-forfeit`, `no-reply`,
//! `crash`) the game is still in progress there and the loser is the side to move — the side
//! whose engine failed to produce a legal move in time. The offending move itself is not recorded.

use std::fmt;

use lielow_rules::board::Side;
use lielow_rules::lfen::LfenError;
use lielow_rules::moves::Move;
use lielow_rules::play::IllegalMove;
use lielow_rules::position::Position;
use lielow_rules::quote::shown;

use super::{Reason, UnknownReason};

/// Why a line is not a game record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// Not six fields separated by ` ; `: the number found.
    Fields(usize),
    /// The start position is no LFEN.
    Start(LfenError),
    /// A move is not legal in turn (the rules' error names it and its number).
    Move(lielow_rules::ReplayError),
    /// The winner field is neither `b` nor `r`.
    Winner(String),
    /// The reason field names no reason.
    Reason(UnknownReason),
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Fields(found) => write!(
                f,
                "a record has 6 fields separated by ' ; ', this line has {found}"
            ),
            RecordError::Start(error) => write!(f, "start position: {error}"),
            RecordError::Move(error) => error.fmt(f),
            RecordError::Winner(found) => write!(f, "winner '{}' is not b or r", shown(found)),
            RecordError::Reason(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for RecordError {}

impl From<UnknownReason> for RecordError {
    fn from(error: UnknownReason) -> RecordError {
        RecordError::Reason(error)
    }
}

/// Why a record contradicts itself when replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayError {
    /// A move (numbered from 1) is illegal where it is played.
    Illegal {
        /// Its number.
        number: usize,
        /// The move.
        mv: Move,
        /// Why it is illegal.
        error: IllegalMove,
    },
    /// The rules end the game otherwise than the record says (`None`: not by a last move).
    Ending {
        /// How the rules end it.
        actual: Option<Reason>,
        /// What the record says.
        recorded: Reason,
    },
    /// A forfeit is recorded, but the game was already over.
    ForfeitAfterEnd,
    /// A natural ending is recorded, but the game goes on.
    NotOver(Reason),
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::Illegal { number, mv, error } => {
                write!(f, "move {number} ({mv}): {error}")
            }
            ReplayError::Ending { actual, recorded } => write!(
                f,
                "the game ends by {}, the record says {recorded}",
                actual.map_or("?", Reason::as_str)
            ),
            ReplayError::ForfeitAfterEnd => {
                f.write_str("a forfeit recorded after the game was over")
            }
            ReplayError::NotOver(recorded) => {
                write!(f, "the record says {recorded} but the game is not over")
            }
        }
    }
}

impl std::error::Error for ReplayError {}

/// One finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// Where the game started (before any opening moves).
    pub start: Position,
    /// Every move, opening moves included; the failing move of a forfeit is not one of them.
    pub moves: Vec<Move>,
    /// Who won.
    pub winner: Side,
    /// How the game ended.
    pub reason: Reason,
    /// Name of the engine that played Blue.
    pub blue: String,
    /// Name of the engine that played Red.
    pub red: String,
}

impl fmt::Display for GameRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ; ", self.start.to_lfen())?;
        for (i, mv) in self.moves.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{mv}")?;
        }
        write!(
            f,
            " ; {} ; {} ; {} ; {}",
            self.winner.letter(),
            self.reason,
            self.blue,
            self.red
        )
    }
}

impl GameRecord {
    /// Reads a record line, checking that every move is legal in turn.
    pub fn parse(line: &str) -> Result<GameRecord, RecordError> {
        let fields: Vec<&str> = line.trim_end().split(" ; ").collect();
        let [start, moves, winner, reason, blue, red] = fields[..] else {
            return Err(RecordError::Fields(fields.len()));
        };
        let start = Position::from_lfen(start).map_err(RecordError::Start)?;
        let (_, played) = start
            .replay(moves.split_whitespace())
            .map_err(RecordError::Move)?;
        let winner = match winner {
            "b" => Side::Blue,
            "r" => Side::Red,
            other => return Err(RecordError::Winner(other.to_owned())),
        };
        Ok(GameRecord {
            start,
            moves: played,
            winner,
            reason: reason.parse()?,
            blue: blue.to_string(),
            red: red.to_string(),
        })
    }

    /// The position after all the recorded moves.
    pub fn final_position(&self) -> Position {
        self.moves.iter().fold(self.start, |p, &mv| p.play(mv))
    }

    /// Replays the game and returns the winner the rules (for a natural ending) or the forfeit
    /// convention (the side to move lost) give; an error when the record contradicts itself.
    pub fn replay(&self) -> Result<Side, ReplayError> {
        let mut position = self.start;
        for (i, &mv) in self.moves.iter().enumerate() {
            position = position
                .try_play(mv)
                .map_err(|error| ReplayError::Illegal {
                    number: i + 1,
                    mv,
                    error,
                })?;
        }
        match (position.winner(), self.reason.is_forfeit()) {
            (Some(winner), false) => {
                let actual = natural_reason(&self.moves, &self.start);
                if actual != Some(self.reason) {
                    return Err(ReplayError::Ending {
                        actual,
                        recorded: self.reason,
                    });
                }
                Ok(winner)
            }
            (None, true) => Ok(position.side_to_move().opponent()),
            (Some(_), true) => Err(ReplayError::ForfeitAfterEnd),
            (None, false) => Err(ReplayError::NotOver(self.reason)),
        }
    }
}

/// How a game that the rules ended did end, from its last move.
fn natural_reason(moves: &[Move], start: &Position) -> Option<Reason> {
    let (&last, before) = moves.split_last()?;
    let previous = before.iter().fold(*start, |p, &mv| p.play(mv));
    Some(ending_of(&previous, last))
}

/// The reason a game that `mv` (played in `before`) finished ended.
pub fn ending_of(before: &Position, mv: Move) -> Reason {
    let us = before.side_to_move();
    if mv.is_capture() && mv.to() == before.king(us.opponent()) {
        Reason::KingCaptured
    } else if mv.is_bear_off() && before.king(us) == Some(mv.from()) {
        Reason::KingBorneOff
    } else {
        Reason::NoMoves
    }
}
