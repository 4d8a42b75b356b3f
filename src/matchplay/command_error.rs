//! Why `lielow match` or `lielow openings` stops before (or after) playing: every message the
//! two commands print on stderr, before `cli` prefixes it with `lielow match: `.

use std::fmt;

use super::builtin::BuiltinError;
use super::merge::MergeError;
use super::openings::{OpeningsFileError, OpeningsStartError, TooManyPlies};
use super::process::CommandLineError;
use super::stats::SprtError;
use super::time_control::TimeControlError;
use crate::file_error::FileError;

/// The most games a pairing may have: at a game a second, three decades. More is a typo, and
/// refused before anything is played.
pub const MAX_GAMES: usize = 1_000_000_000;
/// The most openings `lielow openings` prints (each is searched and kept in memory).
pub const MAX_OPENINGS: usize = 10_000_000;

/// Why `lielow match` cannot run (or its output could not be written).
#[derive(Debug)]
pub enum MatchError {
    /// An `--engine` group without a command.
    NoCommand,
    /// A `builtin:` player that does not exist.
    Builtin(BuiltinError),
    /// An engine's command line does not split.
    CommandLine(CommandLineError),
    /// `movetime=` without a positive number: the setting.
    Movetime(String),
    /// `option.` without `=`: the setting.
    OptionSyntax(String),
    /// `option.=VALUE`: the setting.
    OptionName(String),
    /// A setting that is none of name=, movetime=, ponder, option.
    UnknownSetting {
        /// The setting.
        setting: String,
        /// The engine's command it follows.
        command: String,
    },
    /// An empty name, or one with `;` or a line break (which records cannot hold).
    BadName(String),
    /// Options or `ponder` given to a built-in player: its command.
    BuiltinSettings(String),
    /// A setting before the first engine.
    SettingFirst(String),
    /// Fewer than two engines.
    TooFewEngines,
    /// A bad `--sprt`.
    Sprt(SprtError),
    /// `--sprt` with other than two engines.
    SprtEngines,
    /// `--games` out of range: the number.
    Games(usize),
    /// A bad `--tc`.
    Tc {
        /// The text given.
        text: String,
        /// What is wrong.
        error: TimeControlError,
    },
    /// Both `--tc` and `--movetime`.
    TcAndMovetime,
    /// An engine's `movetime=` with `--tc`.
    EngineMovetimeWithTc,
    /// A file that cannot be read or written.
    File(FileError),
    /// A bad openings file.
    Openings(OpeningsFileError),
    /// Random openings of `--random-plies` plies cannot be made.
    RandomPlies {
        /// The plies asked for.
        plies: usize,
        /// Why not.
        error: TooManyPlies,
    },
    /// Even the start position cannot be an opening.
    StartOpening(TooManyPlies),
    /// `--openings-start` outside the file's openings.
    OpeningsStart(OpeningsStartError),
    /// An external engine did not start.
    EngineStart {
        /// Its name.
        name: String,
        /// What went wrong.
        detail: String,
    },
    /// `--merge` refused the summaries.
    Merge(MergeError),
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchError::NoCommand => f.write_str("--engine needs a command"),
            MatchError::Builtin(error) => error.fmt(f),
            MatchError::CommandLine(error) => error.fmt(f),
            MatchError::Movetime(setting) => {
                write!(f, "'{setting}': movetime=MS needs a positive number")
            }
            MatchError::OptionSyntax(setting) => write!(f, "'{setting}': write option.NAME=VALUE"),
            MatchError::OptionName(setting) => write!(f, "'{setting}': the option has no name"),
            MatchError::UnknownSetting { setting, command } => write!(
                f,
                "'{setting}' after --engine {command}: expected name=NAME, movetime=MS, ponder or option.NAME=VALUE"
            ),
            MatchError::BadName(name) => write!(
                f,
                "engine name '{}' must be non-empty and hold no ';', line break or other \
                 control character",
                lielow_rules::quote::shown(name)
            ),
            MatchError::BuiltinSettings(command) => write!(
                f,
                "built-in player {command} takes no options and does not ponder"
            ),
            MatchError::SettingFirst(word) => write!(f, "'{word}' comes before any engine"),
            MatchError::TooFewEngines => f.write_str("a match needs at least two --engine"),
            MatchError::Sprt(error) => error.fmt(f),
            MatchError::SprtEngines => f.write_str("--sprt needs exactly two engines"),
            MatchError::Games(games) => {
                write!(f, "--games {games}: give 1 to {MAX_GAMES} games per pairing")
            }
            MatchError::Tc { text, error } => {
                write!(f, "--tc '{}': {error}", lielow_engine::ugi::shown(text))
            }
            MatchError::TcAndMovetime => f.write_str("give either --tc or --movetime, not both"),
            MatchError::EngineMovetimeWithTc => {
                f.write_str("an engine's movetime=MS does not mix with --tc")
            }
            MatchError::File(error) => error.fmt(f),
            MatchError::Openings(error) => error.fmt(f),
            MatchError::RandomPlies { plies, error } => write!(f, "--random-plies {plies}: {error}"),
            MatchError::StartOpening(error) => error.fmt(f),
            MatchError::OpeningsStart(error) => error.fmt(f),
            MatchError::EngineStart { name, detail } => {
                write!(f, "engine '{name}' failed to start: {detail}")
            }
            MatchError::Merge(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for MatchError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            MatchError::Builtin(error) => Some(error),
            MatchError::CommandLine(error) => Some(error),
            MatchError::Sprt(error) => Some(error),
            MatchError::Tc { error, .. } => Some(error),
            MatchError::File(error) => Some(error),
            MatchError::Openings(error) => Some(error),
            MatchError::RandomPlies { error, .. } | MatchError::StartOpening(error) => Some(error),
            MatchError::Merge(error) => Some(error),
            MatchError::OpeningsStart(error) => Some(error),
            _ => None,
        }
    }
}

impl From<BuiltinError> for MatchError {
    fn from(error: BuiltinError) -> MatchError {
        MatchError::Builtin(error)
    }
}

impl From<SprtError> for MatchError {
    fn from(error: SprtError) -> MatchError {
        MatchError::Sprt(error)
    }
}

impl From<FileError> for MatchError {
    fn from(error: FileError) -> MatchError {
        MatchError::File(error)
    }
}

impl From<OpeningsFileError> for MatchError {
    fn from(error: OpeningsFileError) -> MatchError {
        MatchError::Openings(error)
    }
}

impl From<MergeError> for MatchError {
    fn from(error: MergeError) -> MatchError {
        MatchError::Merge(error)
    }
}

/// Why `lielow openings` failed.
#[derive(Debug)]
pub enum OpeningsError {
    /// `--count` beyond [`MAX_OPENINGS`].
    Count(usize),
    /// `--plies` longer than any random game lasts.
    Plies(TooManyPlies),
    /// Fewer distinct positions than asked were found (exit status 1).
    TooFew {
        /// How many were found.
        found: usize,
        /// How many were asked for.
        asked: usize,
    },
    /// Standard output was closed (exit status 1, nothing said: the reader went away).
    StdoutClosed,
}

impl OpeningsError {
    /// The exit status: 2 for bad flags, 1 for a run that could not deliver.
    pub fn exit_code(&self) -> i32 {
        match self {
            OpeningsError::Count(_) | OpeningsError::Plies(_) => 2,
            OpeningsError::TooFew { .. } | OpeningsError::StdoutClosed => 1,
        }
    }

    /// Whether the error is said on stderr (not when the reader of stdout went away).
    pub fn is_reported(&self) -> bool {
        !matches!(self, OpeningsError::StdoutClosed)
    }
}

impl fmt::Display for OpeningsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpeningsError::Count(count) => {
                write!(f, "--count {count}: give at most {MAX_OPENINGS} openings")
            }
            OpeningsError::Plies(error) => write!(f, "--plies: {error}"),
            OpeningsError::TooFew { found, asked } => write!(
                f,
                "found only {found} distinct positions (asked for {asked})"
            ),
            OpeningsError::StdoutClosed => f.write_str("standard output closed"),
        }
    }
}

impl std::error::Error for OpeningsError {}
