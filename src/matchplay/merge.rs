//! `lielow match --merge`: the `--json` summaries of a match's shards read back and added up,
//! so that the table, Elo interval, pentanomial counts, LOS and SPRT of the merged shards are
//! those one run of the whole match would print. Only counts are added; every figure derived
//! from them is computed again from the sums.

use std::fmt;

use serde_json::Value;

use super::report::{EngineTally, PairingTally, Tally};
use super::runner::Shard;
use super::stats::{Pentanomial, Sprt};
use super::Reason;

/// Why shard summaries cannot be merged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MergeError {
    /// A summary is not the JSON `lielow match --json` writes.
    Malformed {
        /// The summary's file.
        source: String,
        /// What is missing or wrong.
        what: String,
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
            MergeError::Malformed { source, what } => {
                write!(f, "{source}: not a lielow match summary ({what})")
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

impl std::error::Error for MergeError {}

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
    /// The shards of the match not among those merged.
    pub fn missing(&self) -> Vec<u64> {
        (1..=self.count)
            .filter(|k| !self.shards.contains(k))
            .collect()
    }
}

/// Reads one summary written by `lielow match --json`; `source` names it in errors.
pub fn read_summary(text: &str, source: &str) -> Result<Tally, MergeError> {
    let malformed = |what: &str| MergeError::Malformed {
        source: source.to_owned(),
        what: what.to_owned(),
    };
    let root: Value = serde_json::from_str(text).map_err(|e| malformed(&e.to_string()))?;
    let uint = |value: &Value, key: &str| {
        value[key]
            .as_u64()
            .ok_or_else(|| malformed(&format!("no whole number '{key}'")))
    };
    let float = |value: &Value, key: &str| {
        value[key]
            .as_f64()
            .ok_or_else(|| malformed(&format!("no number '{key}'")))
    };
    let text_of = |value: &Value, key: &str| {
        value[key]
            .as_str()
            .map(str::to_owned)
            .ok_or_else(|| malformed(&format!("no string '{key}'")))
    };
    let list = |key: &str| {
        root[key]
            .as_array()
            .ok_or_else(|| malformed(&format!("no list '{key}'")))
    };
    let mut names = Vec::new();
    let mut engines = Vec::new();
    for engine in list("engines")? {
        names.push(text_of(engine, "name")?);
        let mut losses_by_reason = [0; 7];
        for reason in Reason::ALL {
            losses_by_reason[reason.index()] = uint(&engine["losses_by_reason"], reason.as_str())?;
        }
        engines.push(EngineTally {
            games: uint(engine, "games")?,
            wins: uint(engine, "wins")?,
            losses_by_reason,
            moves: uint(engine, "moves")?,
            time_ms: float(engine, "time_ms")?,
            depth_sum: uint(engine, "depth_sum")?,
            depth_count: uint(engine, "depth_count")?,
            ponder_hits: uint(engine, "ponder_hits")?,
        });
    }
    let index_of = |name: String| {
        names
            .iter()
            .position(|n| *n == name)
            .ok_or_else(|| malformed(&format!("pairing of unknown engine '{name}'")))
    };
    let mut pairings = Vec::new();
    for pairing in list("pairings")? {
        let counts = pairing["pentanomial"]
            .as_array()
            .filter(|counts| counts.len() == 5)
            .ok_or_else(|| malformed("no pentanomial of 5 counts"))?;
        let mut pairs = Pentanomial::default();
        for (bin, count) in pairs.counts.iter_mut().zip(counts) {
            *bin = count
                .as_u64()
                .ok_or_else(|| malformed("a pentanomial count is not a whole number"))?;
        }
        pairings.push(PairingTally {
            first: index_of(text_of(pairing, "first")?)?,
            second: index_of(text_of(pairing, "second")?)?,
            wins: uint(pairing, "wins")?,
            losses: uint(pairing, "losses")?,
            pairs,
        });
    }
    if pairings.is_empty() {
        return Err(malformed("no pairing"));
    }
    let sprt = match &root["sprt"] {
        Value::Null => None,
        sprt => Some(Sprt {
            elo0: float(sprt, "elo0")?,
            elo1: float(sprt, "elo1")?,
            alpha: float(sprt, "alpha")?,
            beta: float(sprt, "beta")?,
        }),
    };
    let shard = Shard {
        index: uint(&root["shard"], "index")?,
        count: uint(&root["shard"], "count")?,
    };
    if !(1..=shard.count).contains(&shard.index) {
        return Err(malformed("a shard K/N without 1 <= K <= N"));
    }
    let mut tally = Tally::new(names, &[], uint(&root, "planned_games")?, sprt);
    tally.pairings = pairings;
    tally.engines = engines;
    tally.games = uint(&root, "games")?;
    tally.plies = uint(&root, "plies")?;
    tally.shard = shard;
    tally.fingerprint = text_of(&root, "fingerprint")?;
    tally.verdict = sprt.and_then(|sprt| sprt.decide(&tally.pairings[0].pairs));
    Ok(tally)
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
            for (bin, count) in sum.losses_by_reason.iter_mut().zip(part.losses_by_reason) {
                *bin += count;
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
