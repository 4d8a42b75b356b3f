//! Why `lielow match` or `lielow openings` stops before (or after) playing: every message the
//! two commands print on stderr, before `cli` prefixes it with `lielow match: `.

use std::fmt;
use std::path::PathBuf;

use super::limits::LimitsError;
use super::merge::MergeError;
use super::stats::SprtError;
use crate::file_error::FileError;
use crate::openings::{OpeningsFileError, OpeningsStartError, TooManyPlies};
use crate::players::engine_spec::{EngineSpecError, EngineStartError};

/// The most games a pairing may have: at a game a second, three decades. More is a typo, and
/// refused before anything is played.
pub const MAX_GAMES: usize = 1_000_000_000;
/// The most openings `lielow openings` prints (each is searched and kept in memory).
pub const MAX_OPENINGS: usize = 10_000_000;

/// Why `lielow match` cannot run (or its output could not be written).
#[derive(Debug)]
pub enum MatchError {
    /// An `--engine` that does not read.
    Engine(EngineSpecError),
    /// Fewer than two engines.
    TooFewEngines,
    /// A bad `--sprt`.
    Sprt(SprtError),
    /// `--sprt` with other than two engines.
    SprtEngines,
    /// `--games` out of range: the number.
    Games(usize),
    /// Move limits that do not go together, or a bad `--tc`.
    Limits(LimitsError),
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
    EngineStart(EngineStartError),
    /// `--merge` refused the summaries.
    Merge(MergeError),
    /// The records file already holds games and `--resume` was not given.
    RecordsExist(PathBuf),
    /// An output rebuilt from the records (`--pgn`, `--apgame`) already holds games, and
    /// `--resume` was not given or its records hold none.
    OutputExists {
        /// The output's flag, without its dashes (`pgn`, `apgame`).
        flag: &'static str,
        /// The file.
        path: PathBuf,
        /// Whether `--resume` was given.
        resume: bool,
    },
    /// `--resume` of a records file with no settings line.
    RecordsUnknown(PathBuf),
    /// `--resume` of a records file of another match.
    RecordsOtherMatch {
        /// The file.
        path: PathBuf,
        /// The first setting that differs.
        setting: &'static str,
        /// Its value in the file.
        file: String,
        /// Its value in this command.
        now: String,
    },
    /// `--resume` of a records file with a line that is no game of this match.
    RecordsLine {
        /// The file.
        path: PathBuf,
        /// The line's number.
        line: usize,
        /// What is wrong with it.
        why: String,
    },
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchError::Engine(error) => error.fmt(f),
            MatchError::TooFewEngines => f.write_str("a match needs at least two --engine"),
            MatchError::Sprt(error) => error.fmt(f),
            MatchError::SprtEngines => f.write_str("--sprt needs exactly two engines"),
            MatchError::Games(games) => {
                write!(
                    f,
                    "--games {games}: give 1 to {MAX_GAMES} games per pairing"
                )
            }
            MatchError::Limits(error) => error.fmt(f),
            MatchError::EngineMovetimeWithTc => {
                f.write_str("an engine's movetime=MS does not mix with --tc")
            }
            MatchError::File(error) => error.fmt(f),
            MatchError::Openings(error) => error.fmt(f),
            MatchError::RandomPlies { plies, error } => {
                write!(f, "--random-plies {plies}: {error}")
            }
            MatchError::StartOpening(error) => error.fmt(f),
            MatchError::OpeningsStart(error) => error.fmt(f),
            MatchError::EngineStart(error) => error.fmt(f),
            MatchError::Merge(error) => error.fmt(f),
            MatchError::RecordsExist(path) => write!(
                f,
                "--records {}: the file already holds games; add --resume to continue that match, \
                 or give another file",
                path.display()
            ),
            MatchError::OutputExists {
                flag,
                path,
                resume: false,
            } => write!(
                f,
                "--{flag} {}: the file already holds games; add --resume (with that match's \
                 --records) to rebuild it from the records, or give another file",
                path.display()
            ),
            MatchError::OutputExists {
                flag,
                path,
                resume: true,
            } => write!(
                f,
                "--{flag} {}: the file holds games but the records hold none, so it would be \
                 rebuilt empty; give the match's own --records, or another --{flag} file",
                path.display()
            ),
            MatchError::RecordsUnknown(path) => write!(
                f,
                "--resume: {} has no '# lielow match' settings line (an older or another \
                 program's records), so it cannot be resumed",
                path.display()
            ),
            MatchError::RecordsOtherMatch {
                path,
                setting,
                file,
                now,
            } => write!(
                f,
                "--resume: {} holds games of another match: other {setting} (the file's: {}; \
                 this command's: {})",
                path.display(),
                lielow_engine::ugi::shown(file),
                lielow_engine::ugi::shown(now)
            ),
            MatchError::RecordsLine { path, line, why } => {
                write!(f, "--resume: {} line {line}: {why}", path.display())
            }
        }
    }
}

impl std::error::Error for MatchError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            MatchError::Engine(error) => Some(error),
            MatchError::Sprt(error) => Some(error),
            MatchError::Limits(error) => Some(error),
            MatchError::EngineStart(error) => Some(error),
            MatchError::File(error) => Some(error),
            MatchError::Openings(error) => Some(error),
            MatchError::RandomPlies { error, .. } | MatchError::StartOpening(error) => Some(error),
            MatchError::Merge(error) => Some(error),
            MatchError::OpeningsStart(error) => Some(error),
            _ => None,
        }
    }
}

impl From<EngineSpecError> for MatchError {
    fn from(error: EngineSpecError) -> MatchError {
        MatchError::Engine(error)
    }
}

impl From<EngineStartError> for MatchError {
    fn from(error: EngineStartError) -> MatchError {
        MatchError::EngineStart(error)
    }
}

impl From<LimitsError> for MatchError {
    fn from(error: LimitsError) -> MatchError {
        MatchError::Limits(error)
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
