//! A file that cannot be read or written: the one wording every command uses for it,
//! `cannot read PATH: <why>` and `cannot write PATH: <why>` (the reads and writes themselves
//! are [`crate::files`]'s).

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
    /// `path` is not a regular file (a directory, a FIFO, a device): never opened, since a
    /// FIFO or a device would block or never end.
    NotRegular(PathBuf),
    /// `path` is larger than the format it should hold ever is.
    TooLarge {
        /// The file.
        path: PathBuf,
        /// The most bytes read for this format.
        limit: u64,
    },
    /// An output is also one of the command's inputs (or another of its outputs): refused
    /// before anything is written, so that no input is destroyed.
    Clash {
        /// The output.
        output: PathBuf,
        /// The input (or other output) it is.
        other: PathBuf,
    },
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
            FileError::NotRegular(path) => {
                write!(f, "cannot read {}: not a regular file", path.display())
            }
            FileError::TooLarge { path, limit } => write!(
                f,
                "cannot read {}: larger than {limit} bytes, more than this format ever holds",
                path.display()
            ),
            FileError::Clash { output, other } => write!(
                f,
                "cannot write {}: it is the same file as {}, which this command also uses",
                output.display(),
                other.display()
            ),
        }
    }
}

impl std::error::Error for FileError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            FileError::Read { error, .. } | FileError::Write { error, .. } => Some(error),
            FileError::Stdout(error) => Some(error),
            FileError::NotRegular(_) | FileError::TooLarge { .. } | FileError::Clash { .. } => None,
        }
    }
}
