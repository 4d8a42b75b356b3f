//! `bench`: a fixed-depth search of fixed positions, whose node count is the engine's signature.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::board::BoardSize;
use crate::limits::Limits;
use crate::position::Position;
use crate::search::Searcher;

/// The depth `bench` searches when none is given.
pub const DEFAULT_DEPTH: u32 = 4;

/// Totals of a bench run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchResult {
    pub nodes: u64,
    pub time_ms: u64,
    pub nps: u64,
}

/// Searches every bench position to `depth` with one thread and a fresh small table.
pub fn run(depth: u32) -> BenchResult {
    let started = Instant::now();
    let stop = AtomicBool::new(false);
    let mut nodes = 0;
    for size in [BoardSize::Eight, BoardSize::Nine] {
        let mut searcher = Searcher::new();
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        nodes += searcher
            .search(&Position::start(size), &limits, &stop, &mut |_| {})
            .nodes;
    }
    let time_ms = started.elapsed().as_millis() as u64;
    BenchResult {
        nodes,
        time_ms,
        nps: nodes * 1000 / time_ms.max(1),
    }
}
