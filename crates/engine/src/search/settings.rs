//! What a searcher searches with, as one value: a protocol session owns one [`SearchSettings`]
//! and configures its searcher from it ([`super::Searcher::configure`]), so a searcher lost to
//! a panicked search is replaced by one with the same settings. The table size is not among
//! them: when a table is allocated is the caller's decision ([`super::Searcher::set_hash_mb`]).

use std::fmt;
use std::sync::Arc;

use super::params::Params;
use super::skill::Skill;
use super::{MAX_HASH_MB, MAX_THREADS};
use crate::nnue::Network;
use crate::tt::AllocationError;

/// The settings a search runs with.
#[derive(Clone)]
pub struct SearchSettings {
    /// Threads that search (1 to [`MAX_THREADS`]).
    pub threads: usize,
    /// Principal variations reported per iteration (`MultiPV`, at least 1).
    pub multipv: usize,
    /// Milliseconds kept back from every time budget (`Move Overhead`).
    pub move_overhead_ms: u64,
    /// The switches and numbers of the search (development options).
    pub params: Params,
    /// The evaluation network; `None`: the hand-set evaluation.
    pub network: Option<Arc<Network>>,
    /// The strength handicap (`Skill Level`, `UCI_LimitStrength` with `UCI_Elo`).
    pub skill: Skill,
}

impl Default for SearchSettings {
    /// The engine as it plays: one thread, one line, the default overhead and parameters, the
    /// network built into the program, full strength.
    fn default() -> SearchSettings {
        SearchSettings {
            threads: 1,
            multipv: 1,
            move_overhead_ms: crate::time::DEFAULT_MOVE_OVERHEAD_MS,
            params: Params::default(),
            network: Some(Network::embedded()),
            skill: Skill::default(),
        }
    }
}

impl SearchSettings {
    /// Whether `other` evaluates with the same network (the same one in memory) as `self`.
    pub fn same_network(&self, other: &Option<Arc<Network>>) -> bool {
        match (&self.network, other) {
            (Some(mine), Some(theirs)) => Arc::ptr_eq(mine, theirs),
            (None, None) => true,
            _ => false,
        }
    }
}

/// A thread count outside 1 to [`MAX_THREADS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThreadsError {
    /// The count asked for.
    pub threads: usize,
}

impl fmt::Display for ThreadsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Threads must be 1 to {MAX_THREADS}")
    }
}

impl std::error::Error for ThreadsError {}

/// Why a table size was refused (the table then keeps its size).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HashError {
    /// A size outside 1 to [`MAX_HASH_MB`] MiB.
    OutOfRange {
        /// The size asked for, in MiB.
        megabytes: usize,
    },
    /// A size the machine could not give.
    Allocation(AllocationError),
}

impl fmt::Display for HashError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HashError::OutOfRange { .. } => write!(f, "Hash must be 1 to {MAX_HASH_MB} MiB"),
            HashError::Allocation(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for HashError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            HashError::OutOfRange { .. } => None,
            HashError::Allocation(error) => Some(error),
        }
    }
}
