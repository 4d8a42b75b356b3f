//! `bench`: a fixed-depth search of fixed positions, whose node count is the engine's signature.
//!
//! Every position is searched by a fresh searcher (one thread, a [`BENCH_HASH_MB`] table), so the
//! total depends only on the search and evaluation code: a commit that changes them changes the
//! number, and says so in its message (`Bench: <nodes>`).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::limits::Limits;
use crate::nnue::Network;
use crate::search::Searcher;
use lielow_rules::position::Position;

/// The depth `bench` searches when none is given (a few seconds in all on the project machine).
pub const DEFAULT_DEPTH: u32 = 8;

/// The node count of `lielow bench` (one thread, [`DEFAULT_DEPTH`]): the engine's signature, kept
/// here alone. A test runs `lielow bench` and compares, so a change of the search's behaviour
/// lands together with its new signature (and its commit message says `Bench: <N>`).
pub const SIGNATURE: u64 = 374_610;

/// Table size of each bench search, in MiB.
pub const BENCH_HASH_MB: usize = 16;

/// The bench positions, in LFEN: both start positions, then 8x8 and 9x9 positions from the early
/// and middle game and the endgame (taken from the shared perft reference positions, which come
/// from random games plus hand-made edge cases).
pub const POSITIONS: [&str; 24] = [
    "8/r1r1r1r1r1r1r1r1/8/8/8/8/b1b1b1b1b1b1b1b1/8 b",
    "r1r1r1r1r1r1r1r1r1/9/r1r1r1r1r1r1r1r1r1/9/9/9/b1b1b1b1b1b1b1b1b1/9/b1b1b1b1b1b1b1b1b1 b",
    // 8x8
    "1R26/1r12r1r1r1r1/1r22r23/8/8/1B26/1b11b1b1b11b1/3b21b22 b",
    "3R24/r1r1r11r1r1r1r1/8/8/8/2b25/b12b1b1b1b1b1/2B25 r",
    "2r33r21/5r31r1/4r22r2/b37/7B4/8/4r2b12/4b3R12 b",
    "8/5B11r2/2b13R41/8/8/r42r42b21/3b14/4b23 b",
    "1r2r33r21/7B1/3r24/8/8/3b2b23/8/b21R4b21b2b21 b",
    "1r26/r34r2r11/1r2R31r33/8/8/3b23b3/6b11/b3B3b24b2 b",
    "5r42/B64r22/8/1R61r4b43/4r53/2b35/3b44/3b5r53 b",
    "8/3r11r12/2r23r31/6b11/B42r31R32/2b23b21/3b24/1b23b3b21 b",
    "r2r35r2/2r15/B52r31r31r2/8/8/b3b2R5b31b21b3/b15b21/8 b",
    "r22r34/8/2r45/1b52r32r4/B67/b47/6b31/1b25R5 r",
    "8/8/4r33/r5b36/B64b52/3r54/4R6r42/8 r",
    "6R71/8/8/2B61r53/8/8/8/6b61 b",
    "8/8/8/4R13/8/2B35/b1b1b1b1b1b1b1b1/8 r",
    // 9x9
    "r1r11r1r1r1r1r1r1/2r24R21/r1r1r1r1r1r11r1r1/9/9/9/b1b1b1b1b1b1b1b11/3b24B2/b1b11b1b1b1b1b1b1 b",
    "5R42r1/1r2r23B21r2/r11r32r1r11r3/r3r23r33/9/2b23b32/b11b11b1b13/b2b23b31b21/4b2b11b1b1 b",
    "r1r1r1r11r13/7r41/9/2r2B21r31r31/9/4b31b3b31/2r43r1b31/4b2b31b21/1b1R5b22b12 r",
    "r11r43r1r11/r21r25r2/r12b15/1r21r31r22B2/5R53/1b21r22b32/1b1b13b3b21/1b23b2b2b2b3/b1b15b21 r",
    "r11r11r1r11r11/r21r21r21r2r2r2/r14r2r21r1/1b11r25/6R42/2B36/b22b1b11b2b1b1/1b21b22b3b21/1b2b23b1b1b1 r",
    "r11r12r1r1r3r1/r3r34r3r31/1r26r1/9/9/3b3b33b2/1R41b11b23/2b21b2b2b22/b23b41B41b1 b",
    "r1r1b1r2r3r13/3r32r2r21/2r1r14r1/2r33r32/6R32/1b27/8b1/1b21b3b21b2b21/b1b1b1b1b1B4b12 r",
    "r1r1r13r21r1/4r2r22R5/6b52/r41r31r3r33/b45r4r1r5/b2b2b35b3/9/b21b25b2/2r54B6b1 r",
    "4r11r1r1r1/1r21r2r34/5r4R52/1r21b3r34/1B57/2b4b41r33/9/3b33b21/r41b11b34 r",
];

/// Totals of a bench run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchResult {
    /// Nodes searched over all positions: the signature.
    pub nodes: u64,
    /// Time spent searching (setting up each position's table excluded), in milliseconds.
    pub time_ms: u64,
    /// Nodes per second of searching.
    pub nps: u64,
    /// Positions searched to the end ([`POSITIONS`]`.len()` unless stopped).
    pub positions: usize,
}

/// Searches every bench position to `depth` with one thread and a fresh small table, with
/// the network built into the program.
pub fn run(depth: u32) -> BenchResult {
    run_with_threads(depth, 1, Some(Network::embedded()))
}

/// [`run`] with `threads` search threads and the evaluation `network` (`None`: the hand-set
/// one): the node count is the signature only with one thread and the built-in network, but
/// the time to reach the same depth measures the parallel speed-up and an evaluation's cost.
pub fn run_with_threads(depth: u32, threads: usize, network: Option<Arc<Network>>) -> BenchResult {
    run_until(depth, threads, network, &AtomicBool::new(false))
}

/// [`run_with_threads`] until `stop` is set: the search in progress ends within milliseconds
/// and the totals cover the positions searched to the end.
pub fn run_until(
    depth: u32,
    threads: usize,
    network: Option<Arc<Network>>,
    stop: &AtomicBool,
) -> BenchResult {
    let limits = Limits {
        depth: Some(depth.max(1)),
        ..Limits::default()
    };
    let mut nodes = 0;
    let mut positions = 0;
    let mut searching = Duration::ZERO;
    for text in POSITIONS {
        let position = Position::from_lfen(text).expect("bench positions are valid LFEN");
        let mut searcher = Searcher::new();
        searcher.set_network(network.clone());
        searcher
            .set_hash_mb(BENCH_HASH_MB)
            .expect("the bench hash size is valid");
        searcher
            .set_threads(threads.max(1))
            .expect("the bench thread count is valid");
        // Only the search is timed: allocating and clearing the table is not searching.
        let started = Instant::now();
        let result = searcher.search(&position, &limits, stop, &mut |_| {});
        if stop.load(Ordering::Relaxed) {
            break;
        }
        nodes += result.nodes;
        positions += 1;
        searching += started.elapsed();
    }
    let time_ms = searching.as_millis() as u64;
    BenchResult {
        nodes,
        time_ms,
        nps: (nodes as f64 / searching.as_secs_f64().max(1e-9)) as u64,
        positions,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_valid_and_cover_both_sizes() {
        let mut sizes = [0; 2];
        for text in POSITIONS {
            let position = Position::from_lfen(text).unwrap();
            assert!(!position.is_game_over(), "{text}");
            sizes[usize::from(position.size().n() == 9)] += 1;
        }
        assert!(sizes[0] >= 10 && sizes[1] >= 10, "{sizes:?}");
    }
}
