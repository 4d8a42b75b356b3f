//! Why `lielow train` or `lielow tune` stops: bad flags and unreadable data are input errors
//! (exit status 2), said before any training starts.

use std::fmt;
use std::path::PathBuf;

use crate::datagen::format::FormatError;
use crate::file_error::FileError;

/// Why a training (or tuning) run stopped.
#[derive(Debug)]
pub enum TrainError {
    /// `--lambda` outside 0..=1.
    Lambda(f32),
    /// `--scale` below 1 (or not finite).
    Scale(f32),
    /// `--rate` not positive.
    Rate(f32),
    /// The thread pool did not start.
    Pool(rayon::ThreadPoolBuildError),
    /// A file that cannot be read or written.
    File(FileError),
    /// A data file that is not a datagen file.
    Data {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        error: FormatError,
    },
    /// More network inputs than one training set can index (some 120 million positions, half
    /// that with --mirror).
    TooMuchData {
        /// Inputs read so far.
        inputs: usize,
    },
    /// `--init hand-set`: the hand-set evaluation has no weights to go on from.
    InitHandSet,
    /// `--init`'s network cannot be read.
    Init(String, lielow_engine::nnue::NetError),
    /// Too few positions for a training and a validation set.
    TooLittleData {
        /// Training positions.
        training: usize,
        /// Validation positions.
        validation: usize,
    },
}

impl fmt::Display for TrainError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrainError::Lambda(lambda) => write!(f, "--lambda {lambda} is not between 0 and 1"),
            TrainError::Scale(scale) => write!(f, "--scale {scale} must be at least 1"),
            TrainError::Rate(rate) => write!(f, "--rate {rate} must be positive"),
            TrainError::Pool(error) => error.fmt(f),
            TrainError::File(error) => error.fmt(f),
            TrainError::Data { path, error } => write!(f, "{}: {error}", path.display()),
            TrainError::TooMuchData { inputs } => write!(
                f,
                "too much data: {inputs} network inputs, more than one training set holds \
                 ({}); train on fewer games",
                u32::MAX
            ),
            TrainError::InitHandSet => write!(
                f,
                "--init hand-set: the hand-set evaluation has no weights; give embedded or a network file"
            ),
            TrainError::Init(init, error) => write!(f, "--init {init}: {error}"),
            TrainError::TooLittleData {
                training,
                validation,
            } => write!(
                f,
                "too little data: {training} training and {validation} validation positions"
            ),
        }
    }
}

impl std::error::Error for TrainError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            TrainError::Pool(error) => Some(error),
            TrainError::File(error) => Some(error),
            TrainError::Data { error, .. } => Some(error),
            _ => None,
        }
    }
}

impl From<FileError> for TrainError {
    fn from(error: FileError) -> TrainError {
        TrainError::File(error)
    }
}
