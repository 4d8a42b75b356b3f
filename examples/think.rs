//! Searches one position and prints every iteration: for measuring depth per second, thread
//! speed-ups and memory use without the protocol loop.
//!
//! ```text
//! cargo run --release --example think -- [8|9|LFEN] [movetime=MS] [depth=D] [threads=N] [hash=MB]
//! ```

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use lielow_engine::limits::Limits;
use lielow_engine::search::{Report, Searcher};
use lielow_rules::{BoardSize, Position};

fn main() {
    let mut position = Position::start(BoardSize::Eight);
    let mut limits = Limits::default();
    let mut searcher = Searcher::new();
    for arg in std::env::args().skip(1) {
        match arg.split_once('=') {
            Some(("movetime", v)) => limits.movetime = Some(v.parse().expect("movetime=MS")),
            Some(("depth", v)) => limits.depth = Some(v.parse().expect("depth=D")),
            Some(("nodes", v)) => limits.nodes = Some(v.parse().expect("nodes=N")),
            Some(("threads", v)) => searcher
                .set_threads(v.parse().expect("threads=N"))
                .expect("valid thread count"),
            Some(("hash", v)) => searcher
                .set_hash_mb(v.parse().expect("hash=MB"))
                .expect("valid hash size"),
            _ if arg == "8" => position = Position::start(BoardSize::Eight),
            _ if arg == "9" => position = Position::start(BoardSize::Nine),
            _ => position = Position::from_lfen(&arg).expect("a valid LFEN"),
        }
    }
    let stop = AtomicBool::new(false);
    let started = Instant::now();
    let result = searcher.search(&position, &limits, &stop, &mut |report| {
        let Report::Iteration(info) = report else {
            return;
        };
        let pv: Vec<String> = info.pv.iter().map(|m| m.to_string()).collect();
        println!(
            "info depth {} seldepth {} score {} nodes {} nps {} time {} hashfull {} pv {}",
            info.depth,
            info.seldepth,
            info.score,
            info.nodes,
            info.nps,
            info.time_ms,
            info.hashfull,
            pv.join(" ")
        );
    });
    println!(
        "bestmove {} depth {} nodes {} wall {} ms",
        result.best_move.map_or("none".into(), |m| m.to_string()),
        result.depth,
        result.nodes,
        started.elapsed().as_millis()
    );
}
