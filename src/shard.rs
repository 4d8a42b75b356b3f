//! Shares of a run split over machines: `--shard K/N` of `lielow match`, `lielow datagen` and
//! `lielow spsa` takes the jobs (game pairs, games) numbered K-1 modulo N, with the openings,
//! seeds and colours the whole run gives them, so that the shards together do exactly the whole
//! run. Also the one wording of the shards missing from a merge or a join.

/// Which share of a run's numbered jobs one machine does (`--shard K/N`): the jobs whose number
/// is K-1 modulo N. In JSON `{"index": K, "count": N}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Shard {
    /// K, from 1.
    pub index: u64,
    /// N.
    pub count: u64,
}

impl Shard {
    /// The whole run.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// The most shards a run is split into: far more than machines a run uses, and few enough
    /// that a merge can list the missing ones.
    pub const MAX_COUNT: u64 = 10_000;

    /// Whether this is K/N with 1 <= K <= N <= [`Shard::MAX_COUNT`].
    pub fn is_valid(&self) -> bool {
        self.count <= Shard::MAX_COUNT && (1..=self.count).contains(&self.index)
    }

    /// How many of `jobs` jobs (numbered from 0) this shard does.
    pub fn jobs_of(&self, jobs: u64) -> u64 {
        jobs.saturating_sub(self.index - 1).div_ceil(self.count)
    }

    /// The number among this shard's jobs of `job`, a job of this shard numbered in the whole
    /// run (the inverse of [`Shard::job`]).
    pub fn index_of(&self, job: u64) -> u64 {
        (job - (self.index - 1)) / self.count
    }

    /// The number in the whole run of this shard's `k`-th job.
    pub fn job(&self, k: u64) -> u64 {
        (self.index - 1) + k * self.count
    }
}

/// A `--shard` value that is not K/N with 1 <= K <= N (the text given).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardError(pub String);

impl std::fmt::Display for ShardError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "--shard '{}': expected K/N with 1 <= K <= N <= {}, e.g. 3/8",
            lielow_engine::ugi::shown(&self.0),
            Shard::MAX_COUNT
        )
    }
}

impl std::error::Error for ShardError {}

impl std::str::FromStr for Shard {
    type Err = ShardError;

    fn from_str(text: &str) -> Result<Shard, ShardError> {
        let parsed = text.split_once('/').and_then(|(k, n)| {
            Some((k.trim().parse::<u64>().ok()?, n.trim().parse::<u64>().ok()?))
        });
        match parsed.map(|(index, count)| Shard { index, count }) {
            Some(shard) if shard.is_valid() => Ok(shard),
            _ => Err(ShardError(text.to_owned())),
        }
    }
}

/// The most runs of missing shards [`missing_text`] names.
const MISSING_RUNS_SHOWN: usize = 10;

/// The runs `(first, last)` of shards 1..=`count` not in `shards` (sorted), in order.
pub fn missing_runs(shards: &[u64], count: u64) -> Vec<(u64, u64)> {
    let mut runs = Vec::new();
    let mut next = 1;
    for &k in shards.iter().chain(std::iter::once(&(count + 1))) {
        if k > next {
            runs.push((next, k - 1));
        }
        next = k + 1;
    }
    runs
}

/// The shards 1..=`count` not in `shards` (sorted) as `3, 5-9, 12` (at most ten runs, then
/// how many more shards), or `None` when none is missing: the one wording of missing shards
/// (match summaries, datagen joins).
pub fn missing_text(shards: &[u64], count: u64) -> Option<String> {
    let runs = missing_runs(shards, count);
    if runs.is_empty() {
        return None;
    }
    let mut parts: Vec<String> = runs
        .iter()
        .take(MISSING_RUNS_SHOWN)
        .map(|&(first, last)| match first == last {
            true => first.to_string(),
            false => format!("{first}-{last}"),
        })
        .collect();
    let more: u64 = runs
        .iter()
        .skip(MISSING_RUNS_SHOWN)
        .map(|&(first, last)| last - first + 1)
        .sum();
    if more > 0 {
        parts.push(format!("and {more} more"));
    }
    Some(parts.join(", "))
}
