//! Measures the search over crowded positions (see `lielow::matchplay::crowded`): for each one,
//! the time and nodes a fresh one-thread searcher (16 MiB table) needs to complete `go depth D`,
//! and the depth it completes under `go movetime M`; then the median, 99th percentile and
//! maximum of each over all positions.
//!
//! ```text
//! cargo run --release -p lielow-measure --bin crowded-search --
//!     [size=8|9] [count=1000] [seed=1] [depth=4] [movetime=100] [file=LFENS] [worst=5] [cap=NODES]
//! ```
//!
//! Any other `NAME=VALUE` sets a search parameter (a development option, e.g.
//! `QSearchFullPlies=6`). `cap=` stops a `go depth` search after that many nodes and counts it as unfinished (for
//! measuring a search that may not end).
//! `file=` reads the positions (one LFEN a line) instead of generating them; `movetime=0` skips
//! the timed searches; `worst=K` lists the K positions that took the most nodes.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use lielow::matchplay::crowded;
use lielow_engine::limits::Limits;
use lielow_engine::search::Searcher;
use lielow_rules::{BoardSize, Position};

fn main() {
    let mut size = BoardSize::Eight;
    let (mut count, mut seed, mut depth, mut movetime, mut worst) = (1000, 1, 4, 100, 5);
    let mut cap = None;
    let mut params = lielow_engine::search::Params::default();
    let mut unfinished = 0;
    let mut file = None;
    for arg in std::env::args().skip(1) {
        let (key, value) = arg.split_once('=').expect("arguments are KEY=VALUE");
        match key {
            "size" => size = BoardSize::from_n(value.parse().expect("size=8|9")).expect("8 or 9"),
            "count" => count = value.parse().expect("count=N"),
            "seed" => seed = value.parse().expect("seed=N"),
            "depth" => depth = value.parse().expect("depth=D"),
            "movetime" => movetime = value.parse().expect("movetime=MS"),
            "worst" => worst = value.parse().expect("worst=K"),
            "cap" => cap = Some(value.parse().expect("cap=NODES")),
            "file" => file = Some(value.to_string()),
            _ => {
                if let Err(error) = params.set(key, value) {
                    panic!("{key}={value}: {error}");
                }
            }
        }
    }
    let positions: Vec<Position> = match &file {
        Some(path) => std::fs::read_to_string(path)
            .expect("a readable file")
            .lines()
            .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
            .map(|line| Position::from_lfen(line.trim()).expect("a valid LFEN"))
            .collect(),
        None => crowded::crowded_positions(size, count, seed),
    };
    let stop = AtomicBool::new(false);
    let mut times = Vec::new();
    let mut nodes = Vec::new();
    let mut depths = Vec::new();
    let mut by_nodes = Vec::new();
    for (index, position) in positions.iter().enumerate() {
        let mut searcher = Searcher::new();
        searcher.set_params(params);
        let limits = Limits {
            depth: Some(depth),
            nodes: cap,
            ..Limits::default()
        };
        let started = Instant::now();
        let result = searcher.search(position, &limits, &stop, &mut |_| {});
        let micros = started.elapsed().as_micros() as u64;
        if result.depth < depth {
            unfinished += 1;
        }
        times.push(micros);
        nodes.push(result.nodes);
        by_nodes.push((result.nodes, micros, index));
        if movetime > 0 {
            let mut searcher = Searcher::new();
            searcher.set_params(params);
            let limits = Limits {
                movetime: Some(movetime),
                ..Limits::default()
            };
            depths.push(u64::from(
                searcher.search(position, &limits, &stop, &mut |_| {}).depth,
            ));
        }
        if (index + 1) % 100 == 0 {
            eprintln!("{} positions", index + 1);
        }
    }
    println!(
        "{} positions, {unfinished} unfinished within the cap",
        positions.len()
    );
    let (median, p99, max) = summary(&mut times);
    println!(
        "go depth {depth}: time ms  median {:.2}  p99 {:.2}  max {:.2}",
        median as f64 / 1000.0,
        p99 as f64 / 1000.0,
        max as f64 / 1000.0
    );
    let (median, p99, max) = summary(&mut nodes);
    println!("go depth {depth}: nodes    median {median}  p99 {p99}  max {max}");
    if !depths.is_empty() {
        let min = *depths.iter().min().expect("positions");
        let (median, _, _) = summary(&mut depths);
        println!("go movetime {movetime}: depth completed  min {min}  median {median}");
    }
    by_nodes.sort_unstable_by(|a, b| b.cmp(a));
    for (nodes, micros, index) in by_nodes.into_iter().take(worst) {
        println!(
            "  {nodes} nodes {:.2} ms  {}",
            micros as f64 / 1000.0,
            positions[index].to_lfen()
        );
    }
}

/// Median, 99th percentile (nearest rank) and maximum.
fn summary(values: &mut [u64]) -> (u64, u64, u64) {
    values.sort_unstable();
    let n = values.len();
    let rank = |p: f64| values[((p * n as f64).ceil() as usize).clamp(1, n) - 1];
    (rank(0.5), rank(0.99), values[n - 1])
}
