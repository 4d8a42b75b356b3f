//! Games as people bring them: the record lines of `lielow match` ([`crate::records`]), PGN
//! (ours, and cutegames' as it writes it) and Abstract Play's game records (JSON). Every command
//! that takes games (`lielow analyse`, `lielow puzzles`, the GUI's Load) reads them through
//! [`read_games`], which tells the format from the text itself, so a person never has to say
//! which one a file is.
//!
//! Every game read is replayed by the rules: a move that is not legal where it is played, or a
//! result that the rules contradict, refuses the whole file with the game's number, the ply and
//! the reason. Nothing is half-read silently: what a reader skips (a PGN variation, a record
//! line cut short by a killed writer) is said in a warning.

pub mod apgame;
pub mod date;
pub mod pgn;

use std::fmt;

use lielow_rules::board::{BoardSize, Side};
use lielow_rules::moves::Move;
use lielow_rules::position::Position;

use self::pgn::PgnError;
use crate::reason::Reason;
use crate::records::{split_torn, GameRecord, RecordError};

/// One game read from a file, in whatever format it came.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadedGame {
    /// Where the game started (before any opening moves).
    pub start: Position,
    /// Every move, checked by the rules.
    pub moves: Vec<Move>,
    /// How many of the first moves were an opening played for the players (`None`: unknown).
    pub opening: Option<usize>,
    /// Who won and how (`None`: the game is unfinished, or its file does not say).
    pub result: Option<(Side, Reason)>,
    /// Who played Blue, when the file names them.
    pub blue: Option<String>,
    /// Who played Red, when the file names them.
    pub red: Option<String>,
    /// The file's other header fields, name and value, in the file's order (PGN tags other
    /// than the players and the result; Abstract Play's header fields), kept so that a game
    /// written back loses nothing.
    pub tags: Vec<(String, String)>,
}

impl LoadedGame {
    /// A game from a `lielow match` record line.
    pub fn from_record(record: GameRecord) -> LoadedGame {
        LoadedGame {
            start: record.start,
            moves: record.moves,
            opening: record.opening,
            result: Some((record.winner, record.reason)),
            blue: Some(record.blue),
            red: Some(record.red),
            tags: Vec::new(),
        }
    }
}

/// The formats a file of games can be in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `lielow match` record lines.
    Records,
    /// Portable Game Notation.
    Pgn,
    /// Abstract Play game records (JSON: one record, or an array of them).
    AbstractPlay,
}

impl Format {
    /// The format of `text`, told by its first line that is not blank: `{` or `[` followed by a
    /// quote or a brace is JSON (Abstract Play), any other `[` a PGN tag, any other `{` (and
    /// `;`, `%`) a PGN comment, and a move number (`1.`) PGN movetext without tags; anything
    /// else, `#` lines included, record lines.
    pub fn sniff(text: &str) -> Format {
        let text = text.trim_start_matches('\u{feff}').trim_start();
        let mut chars = text.chars();
        match chars.next() {
            // A JSON object, or a PGN file that starts with a comment.
            Some('{') => match chars.find(|c| !c.is_whitespace()) {
                Some('"' | '}') => Format::AbstractPlay,
                _ => Format::Pgn,
            },
            Some(';' | '%') => Format::Pgn,
            Some('[') => match chars.find(|c| !c.is_whitespace()) {
                Some('{' | '"' | ']') => Format::AbstractPlay,
                _ => Format::Pgn,
            },
            _ => {
                let first_word = text.split_whitespace().next().unwrap_or("");
                let numbered = first_word
                    .split_once('.')
                    .is_some_and(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
                if numbered {
                    Format::Pgn
                } else {
                    Format::Records
                }
            }
        }
    }

    /// Its name in messages.
    pub const fn name(self) -> &'static str {
        match self {
            Format::Records => "lielow records",
            Format::Pgn => "PGN",
            Format::AbstractPlay => "Abstract Play records",
        }
    }
}

/// The games of a file, and what the reader left out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReadGames {
    /// The games, in the file's order.
    pub games: Vec<LoadedGame>,
    /// What was skipped and why, one line each (already naming the game).
    pub warnings: Vec<String>,
}

/// Why a file of games cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GamesError {
    /// A record line is not a game record.
    Record {
        /// The game's number in the file, from 1.
        game: usize,
        /// The line's number in the file, from 1.
        line: usize,
        /// What is wrong.
        error: RecordError,
    },
    /// Abstract Play records that cannot be read (the error names the game, and the ply).
    AbstractPlay(apgame::ApError),
    /// A PGN game that cannot be read (the error names the game and the move).
    Pgn(PgnError),
    /// The file holds no game.
    Empty(Format),
    /// The format is recognised but not read yet.
    Unsupported(Format),
}

impl fmt::Display for GamesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GamesError::Record { game, line, error } => {
                write!(f, "game {game} (line {line}): {error}")
            }
            GamesError::Pgn(error) => error.fmt(f),
            GamesError::AbstractPlay(error) => error.fmt(f),
            GamesError::Empty(format) => write!(f, "no game in it (read as {})", format.name()),
            GamesError::Unsupported(format) => {
                write!(f, "{} cannot be read yet", format.name())
            }
        }
    }
}

impl std::error::Error for GamesError {}

/// The games of `text`, in the format [`Format::sniff`] tells; `size` is the board of a PGN
/// start given as `startpos` or not at all (cutegames writes `[FEN "startpos"]` on every
/// board) when no `BoardSize` tag says it, and the moves are legal on it (else the other
/// size's start position, when they are legal there).
pub fn read_games(text: &str, size: BoardSize) -> Result<ReadGames, GamesError> {
    let format = Format::sniff(text);
    let read = match format {
        Format::Records => read_records(text)?,
        Format::AbstractPlay => apgame::read(text).map_err(GamesError::AbstractPlay)?,
        Format::Pgn => pgn::read(text, size).map_err(GamesError::Pgn)?,
    };
    if read.games.is_empty() {
        return Err(GamesError::Empty(format));
    }
    Ok(read)
}

/// Record lines: `#` lines and blank lines skipped, a torn last line left out with a warning.
fn read_records(text: &str) -> Result<ReadGames, GamesError> {
    let (_, lines, torn) = split_torn(text);
    let mut read = ReadGames::default();
    for (line, record) in lines {
        let game = read.games.len() + 1;
        let record =
            GameRecord::parse(record).map_err(|error| GamesError::Record { game, line, error })?;
        read.games.push(LoadedGame::from_record(record));
    }
    if let Some(torn) = torn.filter(|t| !t.trim().is_empty() && !t.starts_with('#')) {
        let number = read.games.len() + 1;
        match GameRecord::parse(torn) {
            Ok(record) => read.games.push(LoadedGame::from_record(record)),
            Err(error) => read
                .warnings
                .push(format!("game {number} is cut short ({error}); left out")),
        }
    }
    Ok(read)
}

#[cfg(test)]
mod tests {
    use super::*;

    const RECORD: &str =
        "8/r1r1r1R24/8/8/8/3B24/b1b1b15/8 r ; d7-d5 d3xd5 ; b ; king-captured ; x ; y";

    #[test]
    fn formats_are_told_from_the_text() {
        assert_eq!(Format::sniff("[Event \"x\"]\n1. a2-a3 *"), Format::Pgn);
        assert_eq!(Format::sniff("  1. a2-a3 *"), Format::Pgn);
        assert_eq!(Format::sniff("{\"header\": {}}"), Format::AbstractPlay);
        assert_eq!(Format::sniff("{\n \"header\": {}}"), Format::AbstractPlay);
        assert_eq!(
            Format::sniff("{from cutegames}\n[Event \"x\"]"),
            Format::Pgn
        );
        assert_eq!(Format::sniff("; a comment\n1. a2-a3 *"), Format::Pgn);
        assert_eq!(
            Format::sniff("[\n  {\"header\": {}}]"),
            Format::AbstractPlay
        );
        assert_eq!(Format::sniff("\u{feff}[Site \"?\"]"), Format::Pgn);
        assert_eq!(Format::sniff("# lielow match {}\nx ; y"), Format::Records);
        assert_eq!(Format::sniff(RECORD), Format::Records);
    }

    #[test]
    fn record_lines_read_and_a_torn_last_line_is_left_out_with_a_warning() {
        let text = format!("# lielow match {{}}\n{RECORD}\n{RECORD}\n8/r1r1 r ; d7");
        let read = read_games(&text, BoardSize::Eight).unwrap();
        assert_eq!(read.games.len(), 2);
        assert_eq!(read.games[0].moves.len(), 2);
        assert_eq!(
            read.games[0].result,
            Some((Side::Blue, Reason::KingCaptured))
        );
        assert_eq!(read.games[0].red.as_deref(), Some("y"));
        assert_eq!(read.warnings.len(), 1);
        assert!(read.warnings[0].starts_with("game 3 is cut short"));
    }

    #[test]
    fn a_bad_record_line_refuses_the_file_with_its_line() {
        let text = format!(
            "{RECORD}\n\n8/r1r1r1R24/8/8/8/3B24/b1b1b15/8 r ; d7-d4 ; b ; king-captured ; x ; y\n"
        );
        let error = read_games(&text, BoardSize::Eight).unwrap_err();
        assert!(
            matches!(error, GamesError::Record { line: 3, .. }),
            "{error}"
        );
        assert_eq!(
            read_games("# only a comment\n", BoardSize::Eight),
            Err(GamesError::Empty(Format::Records))
        );
    }
}
