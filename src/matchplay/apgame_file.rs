//! `lielow match --apgame FILE`: the match's games as Abstract Play game records
//! ([`crate::games::apgame`]), one JSON array in the order of the games' numbers, rewritten
//! whole after each game through a temporary file renamed into place, so that the file is
//! always a whole array of the games finished so far. With `--resume` it is rebuilt from the
//! records file's games (which stays the source of truth), so the two never disagree; without
//! it, a file that exists and is not empty is refused before the first game.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use super::command_error::MatchError;
use super::runner::{GameResult, Recorded};
use crate::file_error::FileError;
use crate::files;
use crate::games::{apgame, LoadedGame};

/// The records' `event` header.
const EVENT: &str = "lielow match";

/// The `--apgame` file and the games it holds.
#[derive(Debug)]
pub struct ApgameFile {
    path: PathBuf,
    games: BTreeMap<u64, LoadedGame>,
}

impl ApgameFile {
    /// Refuses `path` when it holds games, unless `resume` (checked before the records file is
    /// opened, so that a refused match leaves nothing behind).
    pub fn check(path: &Path, resume: bool) -> Result<(), MatchError> {
        if !resume && holds_games(path) {
            return Err(MatchError::OutputExists {
                flag: "apgame",
                path: path.to_owned(),
                resume,
            });
        }
        Ok(())
    }

    /// Starts `path` with the games already `recorded` (those `--resume` read back); a file
    /// that holds games is never rebuilt empty (records of no game are not that match's).
    pub fn open(path: &Path, recorded: &Recorded) -> Result<ApgameFile, MatchError> {
        if recorded.is_empty() && holds_games(path) {
            return Err(MatchError::OutputExists {
                flag: "apgame",
                path: path.to_owned(),
                resume: true,
            });
        }
        let mut file = ApgameFile {
            path: path.to_owned(),
            games: BTreeMap::new(),
        };
        let now = SystemTime::now();
        for (&number, game) in recorded {
            file.games.insert(number, loaded(number, game, now));
        }
        file.write(now)?;
        Ok(file)
    }

    /// Adds `game` and writes the file again.
    pub fn add(&mut self, game: &GameResult) -> Result<(), FileError> {
        let number = game.record.played.map_or(0, |played| played.number);
        let now = SystemTime::now();
        self.games.insert(number, loaded(number, game, now));
        self.write(now)
    }

    fn write(&self, now: SystemTime) -> Result<(), FileError> {
        let games: Vec<LoadedGame> = self.games.values().cloned().collect();
        files::write_whole(&self.path, apgame::write(&games, now).as_bytes())
    }
}

/// Whether `path` exists and holds more than an empty array.
fn holds_games(path: &Path) -> bool {
    std::fs::read(path).is_ok_and(|bytes| {
        let text = String::from_utf8_lossy(&bytes);
        let bare: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        !bare.is_empty() && bare != "[]"
    })
}

/// A match game as a loaded game: its number as the round, the time it was written as its
/// dates, both players engines.
fn loaded(number: u64, game: &GameResult, now: SystemTime) -> LoadedGame {
    let mut loaded = LoadedGame::from_record(game.record.clone());
    let date = apgame::iso_date(now);
    loaded.tags = [
        ("event", EVENT.to_owned()),
        ("round", number.to_string()),
        ("date-start", date.clone()),
        ("date-end", date),
        ("blue.is_ai", "true".to_owned()),
        ("red.is_ai", "true".to_owned()),
    ]
    .into_iter()
    .map(|(key, value)| (key.to_owned(), value))
    .collect();
    loaded
}
