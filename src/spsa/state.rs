//! The run's state file and a shard's partial result, both JSON.
//!
//! The state holds everything that decides the run (the [`Setup`]: engine, parameters,
//! schedule, games per iteration, limits, openings, seed), θ, the iterations done and each
//! one's result; it is rewritten after every iteration through a temporary file and a rename,
//! so an interrupted run leaves the last complete state and resumes from it. A partial result
//! names the run (a fingerprint of its setup), the iteration, θ and the shard, so that an
//! update adds up only the shards of the iteration they were played for.

use std::fs;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::error::SpsaError;
use super::gains::{self, Schedule};
use super::param_file::TunedParam;
use crate::file_error::FileError;
use crate::shard::Shard;
use lielow_rules::board::BoardSize;

/// The first field of a state file.
pub const STATE_FORMAT: &str = "lielow-spsa-state 1";
/// The first field of a partial result.
pub const PARTIAL_FORMAT: &str = "lielow-spsa-partial 1";

/// What decides a run's games and updates (not how many run at once).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Setup {
    /// The tuned engine's `--engine` words: its command and fixed `option.NAME=VALUE`s.
    pub engine: Vec<String>,
    /// The tuned parameters.
    pub params: Vec<TunedParam>,
    /// The gain schedules.
    pub schedule: Schedule,
    /// Game pairs per iteration.
    pub pairs: u64,
    /// `--tc` as given.
    pub tc: Option<String>,
    /// Milliseconds per move.
    pub movetime: Option<u64>,
    /// Nodes per move.
    pub nodes: Option<u64>,
    /// Depth per move.
    pub depth: Option<u32>,
    /// Board size, written as its number of squares a side.
    #[serde(with = "size_as_number")]
    pub size: BoardSize,
    /// Random plies of each opening.
    pub random_plies: usize,
    /// The run's seed.
    pub seed: u64,
    /// Latency allowance, ms.
    pub latency_ms: u64,
    /// No-reply timeout, ms (`None`: the match runner's default).
    pub timeout_ms: Option<u64>,
}

/// A board size in JSON: the number of squares a side, `8` or `9`.
mod size_as_number {
    use lielow_rules::board::BoardSize;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(size: &BoardSize, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_u64(size.n() as u64)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<BoardSize, D::Error> {
        let n = usize::deserialize(deserializer)?;
        BoardSize::from_n(n).ok_or_else(|| {
            serde::de::Error::custom(format!("size {n}: a board has 8 or 9 squares a side"))
        })
    }
}

impl Setup {
    /// Identifies the run: FNV-1a of the setup's JSON.
    pub fn fingerprint(&self) -> String {
        let text = serde_json::to_string(self).expect("a setup serialises");
        let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| {
            (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
        });
        format!("{hash:016x}")
    }
}

/// One iteration's outcome.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct IterationResult {
    /// k, from 0.
    pub iteration: u64,
    /// Games won by θ+cΔ.
    pub plus_wins: u64,
    /// Games won by θ−cΔ.
    pub minus_wins: u64,
    /// θ after the update.
    pub theta: Vec<f64>,
}

/// A run in progress.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// [`STATE_FORMAT`].
    pub format: String,
    /// What decides the run.
    pub setup: Setup,
    /// Iterations done (the next one is this).
    pub iteration: u64,
    /// The current parameters, in the file's units.
    pub theta: Vec<f64>,
    /// Every iteration done, in order.
    pub history: Vec<IterationResult>,
}

/// What one shard of an iteration played.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Partial {
    /// [`PARTIAL_FORMAT`].
    pub format: String,
    /// [`Setup::fingerprint`] of the run.
    pub fingerprint: String,
    /// The iteration played.
    pub iteration: u64,
    /// θ it was played at.
    pub theta: Vec<f64>,
    /// Which share of the iteration's pairs.
    pub shard: Shard,
    /// Games won by θ+cΔ.
    pub plus_wins: u64,
    /// Games won by θ−cΔ.
    pub minus_wins: u64,
}

impl State {
    /// A run that has played nothing.
    pub fn new(setup: Setup) -> State {
        let theta = setup.params.iter().map(|p| p.start).collect();
        State {
            format: STATE_FORMAT.to_owned(),
            setup,
            iteration: 0,
            theta,
            history: Vec::new(),
        }
    }

    /// Whether every iteration is done.
    pub fn finished(&self) -> bool {
        self.iteration >= self.setup.schedule.iterations
    }

    /// Reads a state file.
    pub fn read(path: &Path) -> Result<State, SpsaError> {
        let text = fs::read_to_string(path).map_err(|error| FileError::read(path, error))?;
        let state: State = serde_json::from_str(&text).map_err(|error| SpsaError::Json {
            path: path.to_owned(),
            error: error.to_string(),
        })?;
        if state.format != STATE_FORMAT || state.theta.len() != state.setup.params.len() {
            return Err(SpsaError::NotAState(path.to_owned()));
        }
        Ok(state)
    }

    /// Writes the state to `path` atomically (a temporary file beside it, then a rename).
    pub fn write(&self, path: &Path) -> Result<(), SpsaError> {
        let text = serde_json::to_string_pretty(self).expect("a state serialises");
        write_atomically(path, &(text + "\n"))
    }

    /// Adds up the partial results of the next iteration, one per shard of one split, and
    /// moves θ. Nothing changes on error.
    pub fn update(
        &mut self,
        partials: &[(String, Partial)],
    ) -> Result<&IterationResult, SpsaError> {
        let fingerprint = self.setup.fingerprint();
        let Some(count) = partials.first().map(|(_, p)| p.shard.count) else {
            return Err(SpsaError::MissingShard { index: 1, count: 1 });
        };
        let mut seen = vec![false; count as usize];
        let (mut plus_wins, mut minus_wins) = (0, 0);
        for (source, partial) in partials {
            let refuse = |why: &'static str| SpsaError::Partial {
                source: source.clone(),
                why,
            };
            if partial.fingerprint != fingerprint {
                return Err(refuse("it belongs to another run (fingerprint)"));
            }
            if partial.iteration != self.iteration || partial.theta != self.theta {
                return Err(refuse("it was played for another iteration"));
            }
            if partial.shard.count != count {
                return Err(refuse("its shards are of another split"));
            }
            let slot = &mut seen[partial.shard.index as usize - 1];
            if std::mem::replace(slot, true) {
                return Err(refuse("its shard is given twice"));
            }
            plus_wins += partial.plus_wins;
            minus_wins += partial.minus_wins;
        }
        if let Some(missing) = seen.iter().position(|&seen| !seen) {
            return Err(SpsaError::MissingShard {
                index: missing as u64 + 1,
                count,
            });
        }
        let k = self.iteration;
        let params = &self.setup.params;
        let signs = gains::signs(self.setup.seed, k, params.len());
        let score = plus_wins as i64 - minus_wins as i64;
        self.theta = gains::update(params, &self.setup.schedule, &self.theta, &signs, k, score);
        self.iteration += 1;
        self.history.push(IterationResult {
            iteration: k,
            plus_wins,
            minus_wins,
            theta: self.theta.clone(),
        });
        Ok(self.history.last().expect("just pushed"))
    }
}

impl Partial {
    /// Reads a partial result.
    pub fn read(path: &Path) -> Result<Partial, SpsaError> {
        let text = fs::read_to_string(path).map_err(|error| FileError::read(path, error))?;
        let partial: Partial = serde_json::from_str(&text).map_err(|error| SpsaError::Json {
            path: path.to_owned(),
            error: error.to_string(),
        })?;
        let shard_ok = (1..=partial.shard.count).contains(&partial.shard.index);
        if partial.format != PARTIAL_FORMAT || !shard_ok {
            return Err(SpsaError::Partial {
                source: path.display().to_string(),
                why: "it is not an SPSA partial result",
            });
        }
        Ok(partial)
    }

    /// Writes it to `path` atomically.
    pub fn write(&self, path: &Path) -> Result<(), SpsaError> {
        let text = serde_json::to_string_pretty(self).expect("a partial serialises");
        write_atomically(path, &(text + "\n"))
    }
}

/// Writes `text` to a temporary file next to `path` and renames it over `path`, so that a
/// reader (or a crash) sees the old file or the new one, never half of one.
fn write_atomically(path: &Path, text: &str) -> Result<(), SpsaError> {
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(format!(".tmp{}", std::process::id()));
    let temporary = std::path::PathBuf::from(temporary);
    fs::write(&temporary, text).map_err(|error| FileError::write(&temporary, error))?;
    fs::rename(&temporary, path).map_err(|error| {
        let _ = fs::remove_file(&temporary);
        FileError::write(path, error).into()
    })
}

#[cfg(test)]
mod tests {
    /// θ goes through the state file between iterations of a sharded or resumed run: it must
    /// read back to the same bits, or such a run drifts from a whole one (serde_json needs
    /// its `float_roundtrip` feature for that; 2.7314053797431326 read back one bit off).
    #[test]
    fn theta_reads_back_bit_for_bit() {
        let mut x = 0x1234_5678_9abc_def0_u64;
        let mut values = vec![2.7314053797431326, 85.37, 1e-300, -0.1 - 0.2];
        for _ in 0..2000 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            values.push((x >> 11) as f64 / (1u64 << 53) as f64 * 400.0 - 200.0);
        }
        let text = serde_json::to_string_pretty(&values).unwrap();
        let back: Vec<f64> = serde_json::from_str(&text).unwrap();
        for (one, other) in values.iter().zip(&back) {
            assert_eq!(one.to_bits(), other.to_bits(), "{one} read back as {other}");
        }
    }
}
