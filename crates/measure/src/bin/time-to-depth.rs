//! Measures the parallel speed-up as time to depth: every bench position is searched to the same
//! depth with 1 and with N threads, alternately and several times, and the medians compared.
//!
//! ```text
//! cargo run --release -p lielow-measure --bin time-to-depth --
//!     [depth=D] [threads=N] [runs=R] [hash=MB] [warmup=W] [verbose] [position=N]
//! ```
//!
//! (`scripts/time-to-depth.sh` times the start position through the protocol instead, engine
//! start-up apart, for any `lielow` binary.)
//!
//! With `warmup=W` (W > 0), each timed search follows a one-thread search to depth W of another
//! bench position (a different one for every run), in the same searcher: both thread counts
//! then start from the same table and history, as a search in a game does, and the runs differ.
//! Without it every search starts cold, and the one-thread time is a single deterministic
//! sample: in the flat opening positions that sample decides the ratio (position 3's depth-12
//! tree is 3.0 M nodes cold, 3.0 to 8.0 M after different warm-ups).
//!
//! A parallel search is not deterministic, so one run says little: the report gives, per position, the
//! median time of each thread count, and overall both the ratio of the summed medians (dominated
//! by the slow positions) and the geometric mean of the per-position ratios (each position
//! counting the same; positions one thread solves within 10 ms are left out of it, since they
//! measure starting threads, not searching).

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use lielow_engine::bench::POSITIONS;
use lielow_engine::limits::Limits;
use lielow_engine::search::Searcher;
use lielow_rules::Position;

/// Positions faster than this with one thread are left out of the geometric mean.
const MIN_SECONDS: f64 = 0.01;

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    }
}

/// A one-thread search to `depth` that prepares a searcher's table and history.
struct Warmup<'a> {
    position: &'a Position,
    depth: u32,
}

fn search_to(searcher: &mut Searcher, position: &Position, depth: u32) {
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    searcher.search(position, &limits, &stop, &mut |_| {});
}

/// Seconds to search `position` to `depth` with a fresh searcher, after `warmup` if any.
fn time_one(
    position: &Position,
    depth: u32,
    threads: usize,
    hash_mb: usize,
    warmup: Option<&Warmup>,
) -> f64 {
    let mut searcher = Searcher::new();
    searcher.set_hash_mb(hash_mb).expect("valid hash size");
    if let Some(warmup) = warmup {
        search_to(&mut searcher, warmup.position, warmup.depth);
    }
    searcher.set_threads(threads).expect("valid thread count");
    let started = Instant::now();
    search_to(&mut searcher, position, depth);
    started.elapsed().as_secs_f64()
}

fn main() {
    let (mut depth, mut threads, mut runs, mut hash_mb, mut verbose) = (11, 2, 3, 64, false);
    let mut warmup_depth = 0;
    let mut only = None;
    for arg in std::env::args().skip(1) {
        match arg.split_once('=') {
            Some(("depth", v)) => depth = v.parse().expect("depth=D"),
            Some(("threads", v)) => threads = v.parse().expect("threads=N"),
            Some(("runs", v)) => runs = v.parse().expect("runs=R"),
            Some(("hash", v)) => hash_mb = v.parse().expect("hash=MB"),
            Some(("warmup", v)) => warmup_depth = v.parse().expect("warmup=W"),
            Some(("position", v)) => only = Some(v.parse::<usize>().expect("position=N")),
            _ if arg == "verbose" => verbose = true,
            _ => panic!("unknown argument {arg}"),
        }
    }
    let positions: Vec<Position> = POSITIONS
        .iter()
        .map(|text| Position::from_lfen(text).expect("bench positions are valid"))
        .collect();
    let (mut sum_one, mut sum_many, mut log_ratio, mut measured) = (0.0, 0.0, 0.0, 0);
    for (index, position) in positions.iter().enumerate() {
        if only.is_some_and(|n| n != index + 1) {
            continue;
        }
        let mut one = Vec::new();
        let mut many = Vec::new();
        for run in 0..runs {
            let warmup = (warmup_depth > 0).then(|| Warmup {
                position: &positions[(index + 1 + run) % positions.len()],
                depth: warmup_depth,
            });
            one.push(time_one(position, depth, 1, hash_mb, warmup.as_ref()));
            many.push(time_one(position, depth, threads, hash_mb, warmup.as_ref()));
        }
        if verbose && only.is_some() {
            println!("1 thread: {one:.4?}\n{threads} threads: {many:.4?}");
        }
        let (one, many) = (median(&mut one), median(&mut many));
        sum_one += one;
        sum_many += many;
        // Positions solved in a few milliseconds measure thread start-up, not the search.
        if one >= MIN_SECONDS {
            log_ratio += (one / many).ln();
            measured += 1;
        }
        if verbose {
            println!(
                "position {:2}: 1 thread {:8.1} ms, {threads} threads {:8.1} ms, speed-up {:.2}",
                index + 1,
                one * 1e3,
                many * 1e3,
                one / many
            );
        }
    }
    println!(
        "depth {depth}, hash {hash_mb} MiB, warm-up depth {warmup_depth}, medians of {runs}: 1 thread {:.0} ms, {threads} threads {:.0} ms, \
         speed-up {:.2} (sum), {:.2} (geometric mean of {measured} positions)",
        sum_one * 1e3,
        sum_many * 1e3,
        sum_one / sum_many,
        (log_ratio / f64::from(measured)).exp()
    );
}
