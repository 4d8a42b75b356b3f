//! Why `lielow spsa` stops.

use std::fmt;
use std::path::PathBuf;

use super::param_file::ParamFileError;
use crate::file_error::FileError;
use crate::matchplay::limits::LimitsError;
use crate::openings::TooManyPlies;
use crate::players::engine_spec::{EngineSpecError, EngineStartError};

/// Why `lielow spsa` stops (exit status 2).
#[derive(Debug)]
pub enum SpsaError {
    /// The parameter file cannot be used.
    ParamFile {
        /// The file.
        path: PathBuf,
        /// What is wrong in it.
        error: ParamFileError,
    },
    /// A file that cannot be read or written.
    File(FileError),
    /// A state or partial file that is not valid JSON of its kind.
    Json {
        /// The file.
        path: PathBuf,
        /// serde's message.
        error: String,
    },
    /// A JSON file that is not an SPSA state.
    NotAState(PathBuf),
    /// A partial result that does not fit the state.
    Partial {
        /// The file.
        source: String,
        /// Why.
        why: &'static str,
    },
    /// An update without every shard of the iteration.
    MissingShard {
        /// The first missing shard, from 1.
        index: u64,
        /// Shards of the split.
        count: u64,
    },
    /// A new run over an existing state file.
    StateExists(PathBuf),
    /// `--resume`, `--shard` or `--update` on a run that has done every iteration.
    Finished(PathBuf),
    /// The engine's words, as `lielow match` would refuse them.
    Engine(EngineSpecError),
    /// The engine did not start.
    EngineStart(EngineStartError),
    /// The move limits, as `lielow match` would refuse them.
    Limits(LimitsError),
    /// Random openings of the setup's plies cannot be made.
    RandomPlies {
        /// The plies asked for.
        plies: usize,
        /// Why not.
        error: TooManyPlies,
    },
    /// A built-in player has no options to tune.
    BuiltinEngine,
    /// The engine answered an option it was given with an error.
    EngineRefused(String),
    /// A flag the run needs is missing.
    Missing(&'static str),
    /// A schedule flag out of range, or other than one engine.
    Flag(&'static str),
}

impl fmt::Display for SpsaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpsaError::ParamFile { path, error } => write!(f, "{}: {error}", path.display()),
            SpsaError::File(error) => error.fmt(f),
            SpsaError::Json { path, error } => write!(f, "{}: {error}", path.display()),
            SpsaError::NotAState(path) => write!(f, "{}: not an SPSA state file", path.display()),
            SpsaError::Partial { source, why } => write!(f, "{source}: refused, {why}"),
            SpsaError::MissingShard { index, count } => {
                write!(
                    f,
                    "--update: shard {index}/{count} is missing; nothing changed"
                )
            }
            SpsaError::StateExists(path) => write!(
                f,
                "{} exists: continue it with --resume, or give another --state",
                path.display()
            ),
            SpsaError::Finished(path) => {
                write!(f, "{}: every iteration is done", path.display())
            }
            SpsaError::Engine(error) => error.fmt(f),
            SpsaError::EngineStart(error) => error.fmt(f),
            SpsaError::Limits(error) => error.fmt(f),
            SpsaError::RandomPlies { plies, error } => write!(f, "--random-plies {plies}: {error}"),
            SpsaError::BuiltinEngine => {
                write!(f, "--engine: a built-in player has no options to tune")
            }
            SpsaError::EngineRefused(note) => write!(f, "the engine refused an option: {note}"),
            SpsaError::Missing(what) => write!(f, "missing {what}"),
            SpsaError::Flag(what) => write!(f, "{what}"),
        }
    }
}

impl std::error::Error for SpsaError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SpsaError::ParamFile { error, .. } => Some(error),
            SpsaError::File(error) => Some(error),
            SpsaError::Engine(error) => Some(error),
            SpsaError::EngineStart(error) => Some(error),
            SpsaError::Limits(error) => Some(error),
            SpsaError::RandomPlies { error, .. } => Some(error),
            _ => None,
        }
    }
}

impl From<FileError> for SpsaError {
    fn from(error: FileError) -> SpsaError {
        SpsaError::File(error)
    }
}

impl From<EngineSpecError> for SpsaError {
    fn from(error: EngineSpecError) -> SpsaError {
        SpsaError::Engine(error)
    }
}

impl From<EngineStartError> for SpsaError {
    fn from(error: EngineStartError) -> SpsaError {
        SpsaError::EngineStart(error)
    }
}

impl From<LimitsError> for SpsaError {
    fn from(error: LimitsError) -> SpsaError {
        SpsaError::Limits(error)
    }
}
