//! Searches a position with the engine library and prints each finished iteration and the
//! best move, as the protocol's `go` would, without the protocol.
//!
//! ```text
//! cargo run --release --example best_move -- [8|9|"LFEN"] [movetime=MS] [depth=D] [nodes=N]
//!     [threads=N] [hash=MB]
//! cargo run --release --example best_move -- 9 movetime=1000
//! ```
//!
//! It shows a [`Searcher`] (its table and threads live across the searches of a game; a new
//! one evaluates with the network built into the program), [`Limits`] (one second when none is
//! given), the stop flag another thread may set, and the report callback: the search never
//! prints, it hands each iteration to the caller.

use std::sync::atomic::AtomicBool;

use lielow_engine::limits::Limits;
use lielow_engine::search::{Report, Searcher};
use lielow_rules::{BoardSize, Position};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut position = Position::start(BoardSize::Eight);
    let mut limits = Limits::default();
    let mut searcher = Searcher::new();
    for arg in std::env::args().skip(1) {
        match arg.split_once('=') {
            Some(("movetime", v)) => limits.movetime = Some(v.parse()?),
            Some(("depth", v)) => limits.depth = Some(v.parse()?),
            Some(("nodes", v)) => limits.nodes = Some(v.parse()?),
            Some(("threads", v)) => searcher.set_threads(v.parse()?)?,
            Some(("hash", v)) => searcher.set_hash_mb(v.parse()?)?,
            _ if arg == "8" || arg == "9" => position = Position::start(arg.parse()?),
            _ => position = arg.parse().map_err(|e| format!("'{arg}': {e}"))?,
        }
    }
    if limits == Limits::default() {
        limits.movetime = Some(1000);
    }
    println!("searching {position}");
    let stop = AtomicBool::new(false);
    let result = searcher.search(&position, &limits, &stop, &mut |report| {
        if let Report::Iteration(info) = report {
            let pv: Vec<String> = info.pv.iter().map(|mv| mv.to_string()).collect();
            println!(
                "depth {:2}  score {:>8}  nodes {:>9}  {:>5} ms  pv {}",
                info.depth,
                info.score.to_string(),
                info.nodes,
                info.time_ms,
                pv.join(" ")
            );
        }
    });
    match result.best_move {
        Some(mv) => println!(
            "best move {mv} (score {}, depth {})",
            result.score, result.depth
        ),
        None => println!("no move: the game is over"),
    }
    Ok(())
}
