//! What bounds each move of a match: `--tc`, `--movetime`, `--depth` and `--nodes` as read by
//! `lielow match` and `lielow spsa`, and how long an engine may stay silent past its budget.

use std::fmt;

use super::time_control::{TimeControl, TimeControlError};

/// No-reply timeout when the match is timed (added to the move's budget).
const TIMED_TIMEOUT_MS: u64 = 5_000;
/// No-reply timeout for `--depth`/`--nodes` matches (from `go`).
const UNTIMED_TIMEOUT_MS: u64 = 60_000;
/// The limit when none is given.
const DEFAULT_MOVETIME_MS: u64 = 100;

/// The move limits of a match, as given on the command line (milliseconds).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveLimits {
    /// Each side's clock.
    pub clock: Option<TimeControl>,
    /// Time per move, sent in `go` and enforced.
    pub movetime: Option<u64>,
    /// Depth per move, sent in `go`.
    pub depth: Option<u32>,
    /// Nodes per move, sent in `go`.
    pub nodes: Option<u64>,
}

impl MoveLimits {
    /// Whether a clock or a movetime bounds every move.
    pub fn is_timed(&self) -> bool {
        self.clock.is_some() || self.movetime.is_some()
    }
}

/// Why the move limits of the flags cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LimitsError {
    /// A bad `--tc`.
    Tc {
        /// The text given.
        text: String,
        /// What is wrong.
        error: TimeControlError,
    },
    /// Both `--tc` and `--movetime`.
    TcAndMovetime,
}

impl fmt::Display for LimitsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LimitsError::Tc { text, error } => {
                write!(f, "--tc '{}': {error}", lielow_engine::ugi::shown(text))
            }
            LimitsError::TcAndMovetime => f.write_str("give either --tc or --movetime, not both"),
        }
    }
}

impl std::error::Error for LimitsError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LimitsError::Tc { error, .. } => Some(error),
            LimitsError::TcAndMovetime => None,
        }
    }
}

impl MoveLimits {
    /// The limits of a move from `--tc`, `--movetime`, `--depth` and `--nodes`: a clock and a
    /// movetime exclude each other, and with none of the four a move gets 100 ms.
    pub fn from_flags(
        tc: Option<&str>,
        movetime: Option<u64>,
        depth: Option<u32>,
        nodes: Option<u64>,
    ) -> Result<MoveLimits, LimitsError> {
        let clock = tc
            .map(|text| {
                text.parse::<TimeControl>()
                    .map_err(|error| LimitsError::Tc {
                        text: text.to_owned(),
                        error,
                    })
            })
            .transpose()?;
        if clock.is_some() && movetime.is_some() {
            return Err(LimitsError::TcAndMovetime);
        }
        let mut limits = MoveLimits {
            clock,
            movetime,
            depth,
            nodes,
        };
        if limits == MoveLimits::default() {
            limits.movetime = Some(DEFAULT_MOVETIME_MS);
        }
        Ok(limits)
    }

    /// How long an engine may stay silent past its move's budget: `given`, or the default for
    /// timed or untimed moves.
    pub fn no_reply_timeout_ms(&self, given: Option<u64>) -> u64 {
        given.unwrap_or(if self.is_timed() {
            TIMED_TIMEOUT_MS
        } else {
            UNTIMED_TIMEOUT_MS
        })
    }
}
