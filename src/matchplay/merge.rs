//! `lielow match --merge`: the `--json` summaries of a match's shards read back and added up,
//! so that the table, Elo interval, pentanomial counts, LOS and SPRT of the merged shards are
//! those one run of the whole match would print. Only counts are added; every figure derived
//! from them is computed again from the sums.

use std::fmt;

use super::report::Tally;
use super::summary::{Summary, SummaryError};
use crate::shard::{missing_runs, missing_text, Shard};

/// Why shard summaries cannot be merged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MergeError {
    /// A summary is not the JSON `lielow match --json` writes.
    Malformed {
        /// The summary's file.
        source: String,
        /// What is missing or wrong.
        error: SummaryError,
    },
    /// Two summaries come from different matches (engines, limits, openings or seed differ).
    OtherMatch {
        /// The summary's file.
        source: String,
    },
    /// Two summaries are the same shard.
    Repeated {
        /// The summary's file.
        source: String,
        /// The shard both are.
        shard: Shard,
    },
    /// No summary was given.
    Nothing,
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            MergeError::Malformed { source, error } => {
                write!(f, "{source}: not a lielow match summary ({error})")
            }
            MergeError::OtherMatch { source } => write!(
                f,
                "{source}: a shard of another match (its engines, limits, openings, seed or shard \
                 count differ from the first summary's)"
            ),
            MergeError::Repeated { source, shard } => write!(
                f,
                "{source}: shard {}/{} is already merged",
                shard.index, shard.count
            ),
            MergeError::Nothing => write!(f, "nothing to merge"),
        }
    }
}

impl std::error::Error for MergeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            MergeError::Malformed { error, .. } => Some(error),
            _ => None,
        }
    }
}

/// The merged summaries, and which shards of the match they cover.
#[derive(Clone, Debug)]
pub struct Merged {
    /// The sums, with every derived figure (and the SPRT verdict) recomputed.
    pub tally: Tally,
    /// The shards merged, by index.
    pub shards: Vec<u64>,
    /// The shard count of the match.
    pub count: u64,
}

impl Merged {
    /// The runs `(first, last)` of shards of the match not among those merged, in order.
    pub fn missing_runs(&self) -> Vec<(u64, u64)> {
        missing_runs(&self.shards, self.count)
    }

    /// The missing shards as `3, 5-9, 12` (at most ten runs, then how many more shards), or
    /// `None` when none is missing.
    pub fn missing_text(&self) -> Option<String> {
        missing_text(&self.shards, self.count)
    }
}

/// Reads one summary written by `lielow match --json`; `source` names it in errors.
pub fn read_summary(text: &str, source: &str) -> Result<Tally, MergeError> {
    Summary::parse(text)
        .and_then(Summary::into_tally)
        .map_err(|error| MergeError::Malformed {
            source: source.to_owned(),
            error,
        })
}

/// Adds up `summaries` (with the names that errors give them): they must be distinct shards of
/// one match. The SPRT verdict is decided on the merged pairs.
pub fn merge(summaries: Vec<(String, Tally)>) -> Result<Merged, MergeError> {
    let mut summaries = summaries.into_iter();
    let (_, mut total) = summaries.next().ok_or(MergeError::Nothing)?;
    let mut shards = vec![total.shard.index];
    for (source, tally) in summaries {
        let same_match = tally.fingerprint == total.fingerprint
            && tally.shard.count == total.shard.count
            && tally.names == total.names
            && tally.sprt == total.sprt
            && tally.pairings.len() == total.pairings.len()
            && tally
                .pairings
                .iter()
                .zip(&total.pairings)
                .all(|(a, b)| (a.first, a.second) == (b.first, b.second));
        if !same_match {
            return Err(MergeError::OtherMatch { source });
        }
        if shards.contains(&tally.shard.index) {
            return Err(MergeError::Repeated {
                source,
                shard: tally.shard,
            });
        }
        shards.push(tally.shard.index);
        for (sum, part) in total.pairings.iter_mut().zip(&tally.pairings) {
            sum.wins += part.wins;
            sum.losses += part.losses;
            for (bin, count) in sum.pairs.counts.iter_mut().zip(part.pairs.counts) {
                *bin += count;
            }
        }
        for (sum, part) in total.engines.iter_mut().zip(&tally.engines) {
            sum.games += part.games;
            sum.wins += part.wins;
            for (&reason, count) in &part.losses_by_reason {
                *sum.losses_by_reason.entry(reason).or_default() += count;
            }
            sum.moves += part.moves;
            sum.time_ms += part.time_ms;
            sum.depth_sum += part.depth_sum;
            sum.depth_count += part.depth_count;
            sum.ponder_hits += part.ponder_hits;
        }
        total.games += tally.games;
        total.plies += tally.plies;
        total.planned_games += tally.planned_games;
    }
    shards.sort_unstable();
    let count = total.shard.count;
    total.verdict = total
        .sprt
        .and_then(|sprt| sprt.decide(&total.pairings[0].pairs));
    // A merged summary is a match of its own (1/1): merging it again with shards of the
    // match is refused rather than counted twice.
    total.shard = Shard::WHOLE;
    Ok(Merged {
        tally: total,
        shards,
        count,
    })
}
