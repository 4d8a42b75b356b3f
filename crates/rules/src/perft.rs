//! perft: the number of legal move sequences of a given length, the test of move generation.
//!
//! The last ply is bulk-counted ([`movegen::count`]) rather than played. The root moves can be
//! split across rayon threads; each subtree is independent, so the total is the same.
//! [`perft_until`] can be stopped: it reads a flag at every node three or more plies above the
//! leaves (each is at least thousands of counted leaves, tens of microseconds), so `stop` ends
//! `go perft 7` within a millisecond without slowing the count.

use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use crate::movegen;
use crate::moves::Move;
use crate::position::Position;

/// perft(depth) of `position`: perft(0) = 1, and a finished game has no moves.
///
/// ```
/// use lielow_rules::{perft, BoardSize, Position};
///
/// let nine = Position::start(BoardSize::Nine);
/// assert_eq!([0, 1, 2].map(|depth| perft(&nine, depth)), [1, 86, 7_396]);
/// ```
pub fn perft(position: &Position, depth: u32) -> u64 {
    perft_until(position, depth, &AtomicBool::new(false))
        .expect("a flag nobody sets never stops the count")
}

/// [`perft`], or `None` once `stop` is set (from another thread: `go perft` of the protocol
/// is stopped this way).
///
/// ```
/// use std::sync::atomic::AtomicBool;
///
/// use lielow_rules::perft::perft_until;
/// use lielow_rules::{BoardSize, Position};
///
/// let start = Position::start(BoardSize::Eight);
/// assert_eq!(perft_until(&start, 2, &AtomicBool::new(false)), Some(2_116));
/// assert_eq!(perft_until(&start, 4, &AtomicBool::new(true)), None);
/// ```
pub fn perft_until(position: &Position, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth == 0 {
        return Some(1);
    }
    if position.is_game_over() {
        return Some(0);
    }
    count_subtree(position, depth, stop)
}

/// perft of a position whose game is not over, `depth >= 1`; `None` once `stop` is set.
fn count_subtree(position: &Position, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth == 1 {
        return Some(movegen::count_unchecked(position));
    }
    if depth >= 3 && stop.load(Ordering::Relaxed) {
        return None;
    }
    let mut total = 0;
    for mv in position.legal_moves() {
        let child = position.play(mv);
        if child.is_game_over() {
            continue;
        }
        // The last ply is counted, not played: the leaves' parents are the hot loop.
        total += if depth == 2 {
            movegen::count_unchecked(&child)
        } else {
            count_subtree(&child, depth - 1, stop)?
        };
    }
    Some(total)
}

/// perft(depth - 1) below each legal root move, in generation order (`depth >= 1`).
/// `threads` > 1 splits the root moves over that many threads; the counts are the same.
///
/// ```
/// use lielow_rules::perft::{divide, perft};
/// use lielow_rules::{BoardSize, Position};
///
/// let start = Position::start(BoardSize::Eight);
/// let below = divide(&start, 3, 2);
/// assert_eq!(below.len(), 46);
/// assert_eq!(below.iter().map(|(_, count)| count).sum::<u64>(), perft(&start, 3));
/// ```
pub fn divide(position: &Position, depth: u32, threads: usize) -> Vec<(Move, u64)> {
    let moves: Vec<Move> = position.legal_moves().to_vec();
    let below = depth.saturating_sub(1);
    let count = |mv: &Move| (*mv, perft(&position.play(*mv), below));
    if threads <= 1 {
        return moves.iter().map(count).collect();
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a rayon thread pool");
    // One task per root move; rayon's work stealing evens out subtrees of unequal size.
    pool.install(|| moves.par_iter().with_max_len(1).map(count).collect())
}
