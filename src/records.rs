//! Game records: one line per game, written by `lielow match --records FILE`.
//!
//! ```text
//! <start LFEN> ; <moves, canonical, space separated> ; <winner: b|r> ; <reason> ; <Blue name> ; <Red name> ; opening <N>
//! ```
//!
//! The last field says that the first N moves were the opening (random plies or an openings
//! file's line), played by the runner, not chosen by either engine: a review must not judge them.
//! Records written before the field existed have six fields; they still read, with the opening
//! unknown ([`GameRecord::opening`] `None`).
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

use crate::reason::{Reason, UnknownReason};

/// Why a line is not a game record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// Not six or seven fields separated by ` ; `: the number found.
    Fields(usize),
    /// The seventh field is not `opening N` with N at most the number of moves.
    Opening(String),
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
                "a record has 7 fields separated by ' ; ' (6 without the opening), this line has {found}"
            ),
            RecordError::Opening(found) => write!(
                f,
                "the last field '{}' is not 'opening N' with N at most the number of moves",
                shown(found)
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
    /// How many of the first moves were the opening, played for the engines (`None`: a record
    /// from before the field, whose opening is unknown).
    pub opening: Option<usize>,
}

/// The text of the opening field.
const OPENING: &str = "opening ";

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
        )?;
        match self.opening {
            Some(plies) => write!(f, " ; {OPENING}{plies}"),
            None => Ok(()),
        }
    }
}

impl GameRecord {
    /// Reads a record line, checking that every move is legal in turn.
    pub fn parse(line: &str) -> Result<GameRecord, RecordError> {
        let mut fields: Vec<&str> = line.trim_end().split(" ; ").collect();
        let opening = if fields.len() == 7 {
            fields.pop()
        } else {
            None
        };
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
        let opening = match opening {
            Some(text) => Some(
                text.strip_prefix(OPENING)
                    .and_then(|n| n.parse::<usize>().ok())
                    .filter(|&n| n <= played.len())
                    .ok_or_else(|| RecordError::Opening(text.to_owned()))?,
            ),
            None => None,
        };
        Ok(GameRecord {
            start,
            opening,
            moves: played,
            winner,
            reason: reason.parse()?,
            blue: blue.to_string(),
            red: red.to_string(),
        })
    }

    /// The position after all the recorded moves.
    pub fn final_position(&self) -> Position {
        self.start.play_moves(&self.moves)
    }

    /// Replays the game and returns the winner the rules (for a natural ending) or the forfeit
    /// convention (the side to move lost) give; an error when the record contradicts itself.
    pub fn replay(&self) -> Result<Side, ReplayError> {
        let position =
            self.start
                .try_play_moves(&self.moves)
                .map_err(|error| ReplayError::Illegal {
                    number: error.number(),
                    mv: self.moves[error.index],
                    error: error.reason,
                })?;
        match (position.outcome(), self.reason.is_forfeit()) {
            (Some(outcome), false) => {
                // A recorded ending is the last move's: a record with no move has none.
                let actual = (!self.moves.is_empty()).then(|| Reason::from(outcome.end));
                if actual != Some(self.reason) {
                    return Err(ReplayError::Ending {
                        actual,
                        recorded: self.reason,
                    });
                }
                Ok(outcome.winner)
            }
            (None, true) => Ok(position.side_to_move().opponent()),
            (Some(_), true) => Err(ReplayError::ForfeitAfterEnd),
            (None, false) => Err(ReplayError::NotOver(self.reason)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "8/r1r1r1r1r1r1r1r1/8/8/8/8/b1b1b1b1b1b1b1b1/8 b";

    #[test]
    fn a_record_round_trips_with_and_without_its_opening() {
        let marked = format!("{START} ; g2-g1 e7-e8 g1-e1 ; r ; no-reply ; a ; b ; opening 2");
        let record = GameRecord::parse(&marked).expect("a record");
        assert_eq!(record.opening, Some(2));
        assert_eq!(record.moves.len(), 3);
        assert_eq!(record.to_string(), marked);
        // A record written before the opening field: it reads, its opening unknown.
        let old = format!("{START} ; g2-g1 e7-e8 g1-e1 ; r ; no-reply ; a ; b");
        let record = GameRecord::parse(&old).expect("an old record");
        assert_eq!(record.opening, None);
        assert_eq!(record.to_string(), old);
        let none = format!("{START} ;  ; r ; crash ; a ; b ; opening 0");
        assert_eq!(GameRecord::parse(&none).unwrap().opening, Some(0));
    }

    #[test]
    fn a_bad_opening_field_is_refused_with_its_text() {
        for bad in ["opening 4", "opening", "opening -1", "4", "plies 2"] {
            let line = format!("{START} ; g2-g1 e7-e8 g1-e1 ; r ; no-reply ; a ; b ; {bad}");
            let error = GameRecord::parse(&line).unwrap_err();
            assert_eq!(error, RecordError::Opening(bad.to_owned()), "{bad}");
            assert!(error.to_string().contains(bad), "{error}");
        }
        let eight = format!("{START} ; g2-g1 ; b ; crash ; a ; b ; opening 0 ; x");
        assert_eq!(GameRecord::parse(&eight), Err(RecordError::Fields(8)));
    }
}
