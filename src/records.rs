//! Game records: one line per game, written by `lielow match --records FILE`.
//!
//! ```text
//! <start LFEN> ; <moves, canonical, space separated> ; <winner: b|r> ; <reason> ; <Blue name> ; <Red name> ; opening <N>
//!     [ ; game <G> ; blue <side figures> ; red <side figures>]
//! ```
//!
//! The seventh field says that the first N moves were the opening (random plies or an openings
//! file's line), played by the runner, not chosen by either engine: a review must not judge them.
//! Records written before the field existed have six fields; they still read, with the opening
//! unknown ([`GameRecord::opening`] `None`).
//!
//! The last three fields ([`MatchGame`]) are what `lielow match` also needs to count the game in
//! its summary and to resume: the game's number in the match and each side's figures
//! (`moves=M us=T depth=S/C ponder=P`: moves made, thinking time in microseconds, the sum and
//! count of reported depths, ponder hits). Records without them (six or seven fields) still read.
//!
//! A records file written by `lielow match` starts with one settings line, `# lielow match ...`
//! ([`SETTINGS_PREFIX`]); readers skip lines starting with `#`. A last line without its line
//! break is one a killed writer cut short: readers leave it out with a warning
//! ([`split_torn`]).
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
    /// The match fields (eighth to tenth) do not read: the text found.
    Match(String),
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
                "a record has 7 or 10 fields separated by ' ; ' (6 without the opening), this line has {found}"
            ),
            RecordError::Match(found) => write!(
                f,
                "the fields '{}' are not 'game G ; blue FIGURES ; red FIGURES'",
                shown(found)
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
    /// The game's number and figures in its match (`None`: a record without them).
    pub played: Option<MatchGame>,
}

/// One side's figures in a game of a match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SideFigures {
    /// Moves made.
    pub moves: u64,
    /// Thinking time, in microseconds.
    pub micros: u64,
    /// Sum of the depths reported.
    pub depth_sum: u64,
    /// Moves that reported a depth.
    pub depth_count: u64,
    /// Moves that came from a ponder hit.
    pub ponder_hits: u64,
}

/// Where a game stands in its match: its number (from 1, the same in every shard) and each
/// side's figures (Blue, then Red).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchGame {
    /// The game's number in the whole match.
    pub number: u64,
    /// Blue's and Red's figures.
    pub sides: [SideFigures; 2],
}

/// How a records file's settings line starts.
pub const SETTINGS_PREFIX: &str = "# lielow match ";

impl fmt::Display for SideFigures {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "moves={} us={} depth={}/{} ponder={}",
            self.moves, self.micros, self.depth_sum, self.depth_count, self.ponder_hits
        )
    }
}

impl SideFigures {
    /// Reads `moves=M us=T depth=S/C ponder=P`.
    fn parse(text: &str) -> Option<SideFigures> {
        let mut words = text.split(' ');
        let mut value = |key: &str| words.next()?.strip_prefix(key);
        let moves = value("moves=")?.parse().ok()?;
        let micros = value("us=")?.parse().ok()?;
        let (sum, count) = value("depth=")?.split_once('/')?;
        let ponder_hits = value("ponder=")?.parse().ok()?;
        if words.next().is_some() {
            return None;
        }
        Some(SideFigures {
            moves,
            micros,
            depth_sum: sum.parse().ok()?,
            depth_count: count.parse().ok()?,
            ponder_hits,
        })
    }
}

impl MatchGame {
    /// Reads the three fields `game G`, `blue FIGURES` and `red FIGURES`.
    fn parse(fields: [&str; 3]) -> Result<MatchGame, RecordError> {
        let read = || {
            let number = fields[0].strip_prefix("game ")?.parse::<u64>().ok()?;
            let blue = SideFigures::parse(fields[1].strip_prefix("blue ")?)?;
            let red = SideFigures::parse(fields[2].strip_prefix("red ")?)?;
            (number > 0).then_some(MatchGame {
                number,
                sides: [blue, red],
            })
        };
        read().ok_or_else(|| RecordError::Match(fields.join(" ; ")))
    }
}

/// The lines of a records file's `text`: the settings line (if any), the record lines with
/// their numbers in the file (from 1; comment and blank lines skipped), and the torn last line
/// (one with no line break), which is no record.
pub fn split_torn(text: &str) -> (Option<&str>, Vec<(usize, &str)>, Option<&str>) {
    let (whole, torn) = match text.rfind('\n') {
        Some(end) => (
            &text[..=end],
            Some(&text[end + 1..]).filter(|t| !t.is_empty()),
        ),
        None => ("", Some(text).filter(|t| !t.is_empty())),
    };
    let settings = whole
        .lines()
        .next()
        .filter(|line| line.starts_with(SETTINGS_PREFIX));
    let lines = whole
        .lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|(index, line)| (index + 1, line))
        .collect();
    (settings, lines, torn)
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
        if let Some(plies) = self.opening {
            write!(f, " ; {OPENING}{plies}")?;
            if let Some(played) = &self.played {
                let [blue, red] = &played.sides;
                write!(f, " ; game {} ; blue {blue} ; red {red}", played.number)?;
            }
        }
        Ok(())
    }
}

impl GameRecord {
    /// Reads a record line, checking that every move is legal in turn.
    pub fn parse(line: &str) -> Result<GameRecord, RecordError> {
        let mut fields: Vec<&str> = line.trim_end().split(" ; ").collect();
        let match_game = match fields.len() {
            10 => {
                let tail: [&str; 3] = [fields[7], fields[8], fields[9]];
                fields.truncate(7);
                Some(MatchGame::parse(tail)?)
            }
            _ => None,
        };
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
            played: match_game,
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

    #[test]
    fn a_match_record_round_trips_its_number_and_figures() {
        let line = format!(
            "{START} ; g2-g1 e7-e8 g1-e1 ; r ; no-reply ; a ; b ; opening 0 ; game 7 ; \
             blue moves=2 us=1500 depth=9/2 ponder=1 ; red moves=1 us=20 depth=0/0 ponder=0"
        );
        let record = GameRecord::parse(&line).expect("a match record");
        let played = record.played.expect("its match fields");
        assert_eq!(played.number, 7);
        assert_eq!(played.sides[0].micros, 1500);
        assert_eq!(played.sides[0].depth_sum, 9);
        assert_eq!(record.to_string(), line);
        for bad in ["game 0", "game x", "round 7"] {
            let line = line.replace("game 7", bad);
            assert!(
                matches!(GameRecord::parse(&line), Err(RecordError::Match(_))),
                "{bad}"
            );
        }
        let line = line.replace("ponder=1", "ponder=1 x=2");
        assert!(matches!(
            GameRecord::parse(&line),
            Err(RecordError::Match(_))
        ));
    }

    #[test]
    fn a_torn_last_line_and_the_settings_line_are_no_records() {
        let text = "# lielow match {}\na\n\n# note\nb\nc";
        let (settings, lines, torn) = split_torn(text);
        assert_eq!(settings, Some("# lielow match {}"));
        assert_eq!(lines, vec![(2, "a"), (5, "b")]);
        assert_eq!(torn, Some("c"));
        assert_eq!(split_torn("a\n"), (None, vec![(1, "a")], None));
        assert_eq!(split_torn("x"), (None, vec![], Some("x")));
    }
}
