//! The records file of `lielow match --records`, kept game by game so that a killed match loses
//! nothing it reported finished, and read back by `--resume`.
//!
//! The file starts with one settings line, `# lielow match {JSON}`: each setting that decides
//! the games (the shard, engines, games, limits, seed, openings, schedule, SPRT, latency and
//! timeout) as text, or as its length and hash when long. Each finished game is then appended
//! as one whole line (one `write`, then synced), its number in the match and its figures
//! included ([`crate::records::MatchGame`]), so that the games recorded give the summary again.
//!
//! `--resume` reads the file back: a settings line that differs from the command's is refused
//! with the setting named; a last line without its line break (cut short by a kill or a full
//! disk) is left out with a warning and cut off the file; every other line must be a game of
//! this match (and shard), each number once. Those games are not played again.

use std::io;
use std::path::Path;

use super::command_error::MatchError;
use super::runner::{self, GameResult, MatchConfig, Recorded};
use crate::file_error::FileError;
use crate::files::{self, AppendFile};
use crate::records::{self, GameRecord, SETTINGS_PREFIX};

/// Longer setting texts are kept as their length and hash.
const LONGEST_SETTING: usize = 160;

/// The settings that decide a match's games, by name, in the order a difference is reported.
pub fn settings(config: &MatchConfig) -> Vec<(&'static str, String)> {
    let shard = config.shard;
    vec![
        ("shard", format!("{}/{}", shard.index, shard.count)),
        ("engines", engines(config)),
        ("games", config.games.to_string()),
        ("limits", short(format!("{:?}", config.limits))),
        // The seed before the openings: random openings follow from it.
        ("seed", config.seed.to_string()),
        ("openings", short(format!("{:?}", config.openings))),
        ("gauntlet", config.gauntlet.to_string()),
        ("sprt", short(format!("{:?}", config.sprt))),
        ("latency", format!("{:?}", config.latency)),
        ("timeout", format!("{:?}", config.timeout)),
    ]
}

/// The engines' names, and a hash of everything about them (commands, options, movetimes).
fn engines(config: &MatchConfig) -> String {
    let names: Vec<&str> = config.engines.iter().map(|e| e.name.as_str()).collect();
    let described = format!("{:?}", config.engines);
    format!(
        "{} (hash {:016x})",
        names.join(", "),
        runner::fnv1a(&described)
    )
}

/// `text`, or its length and hash when it is long.
fn short(text: String) -> String {
    if text.len() <= LONGEST_SETTING {
        return text;
    }
    format!("{} chars, hash {:016x}", text.len(), runner::fnv1a(&text))
}

/// The settings line of `config`'s records file (without its line break).
pub fn settings_line(config: &MatchConfig) -> String {
    let map: serde_json::Map<String, serde_json::Value> = settings(config)
        .into_iter()
        .map(|(key, value)| (key.to_owned(), serde_json::Value::String(value)))
        .collect();
    format!("{SETTINGS_PREFIX}{}", serde_json::Value::Object(map))
}

/// The first setting in which the settings line `line` differs from `config`'s: its name, the
/// file's value and the command's.
fn first_difference(line: &str, config: &MatchConfig) -> Option<(&'static str, String, String)> {
    let stored: serde_json::Map<String, serde_json::Value> = line
        .strip_prefix(SETTINGS_PREFIX)
        .and_then(|json| serde_json::from_str(json).ok())
        .unwrap_or_default();
    settings(config).into_iter().find_map(|(key, now)| {
        let file = match stored.get(key) {
            Some(serde_json::Value::String(text)) => text.clone(),
            _ => "(none)".to_owned(),
        };
        (file != now).then_some((key, file, now))
    })
}

/// A records file open for appending whole game lines.
#[derive(Debug)]
pub struct RecordsFile {
    file: AppendFile,
}

impl RecordsFile {
    /// Opens `path` for `config`'s games: a new file (or an empty one) gets the settings line;
    /// an existing one is refused unless `resume`, and then read back: its games are returned.
    pub fn open(
        path: &Path,
        config: &MatchConfig,
        resume: bool,
    ) -> Result<(RecordsFile, Recorded), MatchError> {
        let len = match std::fs::metadata(path) {
            Err(error) if error.kind() == io::ErrorKind::NotFound => 0,
            Err(error) => return Err(FileError::write(path, error).into()),
            Ok(metadata) if !metadata.is_file() => {
                return Err(FileError::NotRegular(path.to_owned()).into())
            }
            Ok(metadata) => metadata.len(),
        };
        let mut records = RecordsFile {
            file: AppendFile::open(path)?,
        };
        let mut len = len;
        if len > 0 && !resume {
            // A file with no game (a settings line a failed start left) may be started again.
            if !holds_no_game(path)? {
                return Err(MatchError::RecordsExist(path.to_owned()));
            }
            records.file.cut_to(0)?;
            len = 0;
        }
        if len == 0 {
            records.append(&settings_line(config))?;
            return Ok((records, Recorded::new()));
        }
        let recorded = records.read_back(config)?;
        Ok((records, recorded))
    }

    /// Reads the file's games for `--resume`, cutting off a torn last line.
    fn read_back(&mut self, config: &MatchConfig) -> Result<Recorded, MatchError> {
        let path = self.file.path().to_owned();
        let text = files::read_text(&path, files::limits::RECORDS)?;
        let (settings, lines, torn) = records::split_torn(&text);
        let Some(settings) = settings else {
            return Err(MatchError::RecordsUnknown(path));
        };
        if let Some((setting, file, now)) = first_difference(settings, config) {
            return Err(MatchError::RecordsOtherMatch {
                path,
                setting,
                file,
                now,
            });
        }
        let mut recorded = Recorded::new();
        for (line_number, line) in lines {
            let bad = |why: String| MatchError::RecordsLine {
                path: path.clone(),
                line: line_number,
                why,
            };
            let record = GameRecord::parse(line).map_err(|error| bad(error.to_string()))?;
            let number = record.played.map_or(0, |played| played.number);
            let game = GameResult::from_record(config, record)
                .filter(|game| is_game_of(config, number, game))
                .ok_or_else(|| bad(format!("game {number} is not one of this match's")))?;
            if recorded.insert(number, game).is_some() {
                return Err(bad(format!("game {number} is recorded twice")));
            }
        }
        if let Some(torn) = torn {
            eprintln!(
                "lielow match: warning: {}: the last line ({} bytes) was cut short; left out",
                path.display(),
                torn.len()
            );
            self.file.cut_to((text.len() - torn.len()) as u64)?;
        }
        Ok(recorded)
    }

    /// Appends `line` and its line break in one write, then syncs the file; a failed or short
    /// write is cut back off, so the file only ever holds whole lines.
    pub fn append(&mut self, line: &str) -> Result<(), FileError> {
        self.file.append(format!("{line}\n").as_bytes())
    }
}

/// Whether the records file `path` holds nothing but comment and blank lines.
fn holds_no_game(path: &Path) -> Result<bool, FileError> {
    let text = files::read_text(path, files::limits::RECORDS)?;
    let (_, lines, torn) = records::split_torn(&text);
    Ok(lines.is_empty() && torn.is_none())
}

/// Whether `game`, recorded as number `number`, is one this match (and shard) plays with those
/// colours.
fn is_game_of(config: &MatchConfig, number: u64, game: &GameResult) -> bool {
    let Some(index) = number.checked_sub(1) else {
        return false;
    };
    let job = index / 2;
    if job >= config.total_jobs() || (job % config.shard.count) + 1 != config.shard.index {
        return false;
    }
    let (pairing, _) = config.job(job);
    let (a, b) = config.pairings()[pairing];
    let expected = if index % 2 == 0 { [a, b] } else { [b, a] };
    game.players == expected
}
