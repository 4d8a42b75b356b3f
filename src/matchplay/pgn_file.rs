//! The PGN file of `lielow match --pgn`: every game appended as it ends (one write, then
//! synced, like the records file), for rating programs (Ordo, BayesElo) and for people.
//!
//! The records file stays the source of truth: with `--resume` the PGN file is rebuilt whole
//! from the records' games (in place: a kill while it is rebuilt leaves it for the next
//! `--resume` to rebuild), so the two never disagree; without it, a PGN file that already holds games is refused, as a records file is.

use std::io;
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use super::command_error::MatchError;
use super::runner::Recorded;
use crate::file_error::FileError;
use crate::files::{self, AppendFile};
use crate::games::date::civil_date;
use crate::games::pgn::write_game;
use crate::games::LoadedGame;
use crate::records::GameRecord;

/// The `Event` tag of a match's games.
const EVENT: &str = "lielow match";

/// A PGN file open for appending whole games.
#[derive(Debug)]
pub struct PgnFile {
    file: AppendFile,
    /// The `Date` tag of the games written (the day the file was opened).
    date: String,
}

impl PgnFile {
    /// Opens `path`: a new or empty file (white space only) is started; one that holds games is
    /// refused unless `resume` with games `recorded`, from which it is then rebuilt.
    pub fn open(path: &Path, resume: bool, recorded: &Recorded) -> Result<PgnFile, MatchError> {
        let date = today();
        let holds_games = match std::fs::metadata(path) {
            Err(error) if error.kind() == io::ErrorKind::NotFound => false,
            Err(error) => return Err(FileError::write(path, error).into()),
            Ok(metadata) if !metadata.is_file() => {
                return Err(FileError::NotRegular(path.to_owned()).into())
            }
            Ok(metadata) => {
                metadata.len() > 0
                    && !files::read_text(path, files::limits::RECORDS)?
                        .trim()
                        .is_empty()
            }
        };
        // A resumed match with no game recorded would rebuild the file empty: refused too.
        if holds_games && (!resume || recorded.is_empty()) {
            return Err(MatchError::OutputExists {
                flag: "pgn",
                path: path.to_owned(),
                resume,
            });
        }
        let text: String = recorded
            .iter()
            .map(|(&number, game)| game_text(number, &game.record, &date))
            .collect();
        // Written in place, not through a temporary file: a kill leaves no hidden file, and
        // what it cuts short the next --resume rebuilds.
        let mut file = AppendFile::open(path)?;
        file.cut_to(0)?;
        file.append(text.as_bytes())?;
        Ok(PgnFile { file, date })
    }

    /// Appends game `number` in one write, then syncs the file; a failed or short write is cut
    /// back off, so the file only ever holds whole games.
    pub fn append(&mut self, number: u64, record: &GameRecord) -> Result<(), FileError> {
        self.file
            .append(game_text(number, record, &self.date).as_bytes())
    }
}

/// Game `number` of a match as PGN: `Round` is its number, the rest the record's.
pub fn game_text(number: u64, record: &GameRecord, date: &str) -> String {
    let mut game = LoadedGame::from_record(record.clone());
    game.tags = vec![
        ("Event".to_owned(), EVENT.to_owned()),
        ("Site".to_owned(), "?".to_owned()),
        ("Date".to_owned(), date.to_owned()),
        ("Round".to_owned(), number.to_string()),
    ];
    write_game(&game)
}

/// Today's date (UTC) as PGN writes it, `YYYY.MM.DD`.
fn today() -> String {
    let seconds = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_secs());
    let (year, month, day) = civil_date(seconds / 86_400);
    format!("{year:04}.{month:02}.{day:02}")
}
