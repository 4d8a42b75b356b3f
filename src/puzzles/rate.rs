//! How hard a puzzle is: from N and from what it takes the engine to find the answer.
//!
//! The engine (`lielow_engine`'s searcher, one thread, an emptied table: the same every time)
//! searches the puzzle by iterative deepening to [`search_depth`]; the answer's *find depth*
//! is the first iteration from which the engine's choice is the answer at every deeper one
//! (one past the last iteration when it never settles on it). The rating adds up the two:
//!
//! ```text
//! rating = clamp(600 + 200 * (N - 1) + 100 * (find depth - 1), 600, 2800)
//! ```
//!
//! A win in one found at once is 600; each move more to the win adds 200, each iteration the
//! engine needs more to see it adds 100 (a win in 4 found only at depth 9 is 600 + 600 + 800 =
//! 2000).

use std::sync::atomic::AtomicBool;

use lielow_engine::limits::Limits;
use lielow_engine::search::{Report, Searcher};
use lielow_rules::moves::Move;
use lielow_rules::position::Position;

/// The lowest rating.
pub const MIN_RATING: u32 = 600;
/// The highest rating.
pub const MAX_RATING: u32 = 2800;

/// The deepest iteration searched for a win in `moves`: two plies per move of the win and four
/// more, so that an answer seen at the win's own depth must also survive a few deeper ones.
pub fn search_depth(moves: u32) -> u32 {
    2 * moves + 4
}

/// What it took the engine to settle on the answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Effort {
    /// The first iteration from which the engine's choice is the answer at every deeper one.
    pub depth: u32,
    /// Nodes searched when that iteration finished (all nodes searched when it never settles).
    pub nodes: u64,
}

/// Searches `position` with `searcher` (emptied first) to [`search_depth`]`(moves)`, at most
/// `max_nodes` nodes, and says when the answer became the engine's choice for good.
pub fn effort(
    searcher: &mut Searcher,
    position: &Position,
    answer: Move,
    moves: u32,
    max_nodes: u64,
) -> Effort {
    searcher.new_game();
    let limits = Limits {
        depth: Some(search_depth(moves)),
        nodes: Some(max_nodes),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    // (depth, nodes) of each finished iteration whose choice is the answer, cleared by one
    // whose choice is not.
    let mut settled: Option<(u32, u64)> = None;
    let mut last = (0, 0);
    let mut report = |report: Report<'_>| {
        if let Report::Iteration(info) = report {
            last = (info.depth, info.nodes);
            if info.pv.first() == Some(&answer) {
                settled = settled.or(Some((info.depth, info.nodes)));
            } else {
                settled = None;
            }
        }
    };
    let result = searcher.search(position, &limits, &stop, &mut report);
    match settled {
        Some((depth, nodes)) if result.best_move == Some(answer) => Effort { depth, nodes },
        _ => Effort {
            depth: last.0.max(result.depth) + 1,
            nodes: result.nodes,
        },
    }
}

/// The rating of a win in `moves` found at `effort.depth` (the formula of the module doc).
pub fn rating(moves: u32, effort: Effort) -> u32 {
    let raw = MIN_RATING + 200 * moves.saturating_sub(1) + 100 * effort.depth.saturating_sub(1);
    raw.clamp(MIN_RATING, MAX_RATING)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratings_grow_with_n_and_the_depth_and_stay_in_range() {
        let at = |depth| Effort { depth, nodes: 0 };
        assert_eq!(rating(1, at(1)), 600);
        assert_eq!(rating(4, at(9)), 2000);
        assert!(rating(2, at(1)) > rating(1, at(1)));
        assert!(rating(2, at(3)) > rating(2, at(2)));
        assert_eq!(rating(8, at(20)), MAX_RATING);
    }

    #[test]
    fn a_king_capture_is_found_at_the_first_iteration() {
        let position = Position::from_lfen("8/r1r1r15/8/3R24/8/3B24/b1b1b15/8 b").unwrap();
        let answer = position.parse_move("d3xd5").unwrap();
        let effort = effort(&mut Searcher::new(), &position, answer, 1, 1_000_000);
        assert_eq!(effort.depth, 1);
        assert!(effort.nodes > 0);
    }
}
