//! A file that cannot be read or written: the one wording every command uses for it,
//! `cannot read PATH: <why>` and `cannot write PATH: <why>`.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

/// A file (or standard output) that could not be read or written.
#[derive(Debug)]
pub enum FileError {
    /// Reading `path` failed.
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        error: io::Error,
    },
    /// Creating or writing `path` failed.
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        error: io::Error,
    },
    /// Writing to standard output failed.
    Stdout(io::Error),
}

impl FileError {
    /// Reading `path` failed with `error`.
    pub fn read(path: &Path, error: io::Error) -> FileError {
        FileError::Read {
            path: path.to_owned(),
            error,
        }
    }

    /// Writing `path` failed with `error`.
    pub fn write(path: &Path, error: io::Error) -> FileError {
        FileError::Write {
            path: path.to_owned(),
            error,
        }
    }
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileError::Read { path, error } => write!(f, "cannot read {}: {error}", path.display()),
            FileError::Write { path, error } => {
                write!(f, "cannot write {}: {error}", path.display())
            }
            FileError::Stdout(error) => write!(f, "cannot write to standard output: {error}"),
        }
    }
}

impl std::error::Error for FileError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            FileError::Read { error, .. } | FileError::Write { error, .. } => Some(error),
            FileError::Stdout(error) => Some(error),
        }
    }
}
