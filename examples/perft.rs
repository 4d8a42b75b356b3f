//! Counts the move sequences of a given length from a position (perft), split by first move:
//! the test of a move generator against reference figures.
//!
//! ```text
//! cargo run --release --example perft -- [DEPTH] ["LFEN"]
//! cargo run --release --example perft -- 4
//! ```
//!
//! It shows [`perft::divide`], which counts each root move's subtree on its own thread, and
//! [`perft()`]; the total of the split equals the plain count. The rules crate's tests hold
//! these counts to the reference figures (8x8 start: 46, 2,116, 97,520, 4,426,560; see
//! `crates/rules/tests/data/reference/perft_start.txt`).

use std::time::Instant;

use lielow_rules::perft::{self, perft};
use lielow_rules::{BoardSize, Position};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let depth: u32 = args.next().as_deref().unwrap_or("3").parse()?;
    let position = match args.next() {
        Some(text) => text.parse().map_err(|e| format!("'{text}': {e}"))?,
        None => Position::start(BoardSize::Eight),
    };
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());

    let started = Instant::now();
    let split = perft::divide(&position, depth, threads);
    for (mv, count) in &split {
        println!("{mv} {count}");
    }
    let total: u64 = split.iter().map(|(_, count)| count).sum();
    let seconds = started.elapsed().as_secs_f64();
    println!("perft({depth}) = {total} in {seconds:.3} s");
    assert_eq!(total, perft(&position, depth), "the split adds up");
    Ok(())
}
