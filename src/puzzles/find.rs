//! Whether a position is a puzzle: the side to move wins by force in N moves (N from 1 up to a
//! maximum) and no other first move wins in N moves or fewer, both proven by the proof search
//! ([`crate::analysis::solve`]), never judged by a search's score.
//!
//! One solver (for the side to move) answers every question, so what one proof learns the next
//! reuses:
//!
//! 1. N: the smallest n for which "win within 2n plies" is proven, asking n = 1, 2, ...; each
//!    bound before it is disproven, so N is exact. (2n plies, not 2n-1: a game can end on the
//!    loser's own move, when its only moves bear off its own king.)
//! 2. Every first move: after it, "win within 2N-1 plies" must be proven for exactly one and
//!    disproven for every other. Two proven: the position has two answers and is no puzzle.
//! 3. The exact length (2N-1 or 2N plies), the main line ([`Solver::line`]: the fastest win
//!    against the longest defence), which must start with the answer, and the proof replayed
//!    by [`Solver::verify`].
//!
//! Any question the budget leaves open skips the position: a puzzle's every claim is proven.

use lielow_rules::moves::Move;
use lielow_rules::position::Position;

use crate::analysis::solve::{Answer, Budget, Solver};

/// What the proof search says of a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Finding {
    /// The side to move has one first move that wins in `moves` moves, and no other wins in
    /// that many or fewer.
    Unique(Proven),
    /// Two first moves (at least) win in the fewest moves: the two found first.
    Several(Move, Move),
    /// No win for the side to move within the maximum N (proven).
    NoWin,
    /// The side to move has one legal move only: there is nothing to find.
    Forced,
    /// The budget ran out before every question was answered.
    OutOfBudget,
}

/// A proven puzzle's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proven {
    /// The one winning first move.
    pub answer: Move,
    /// N: the side to move's moves to the win.
    pub moves: u32,
    /// The main line, from the answer to the winning move.
    pub line: Vec<Move>,
    /// Nodes the proof search expanded for the whole finding.
    pub nodes: u64,
}

/// Looks for a puzzle in `position` with N at most `max_moves`, the proof search expanding at
/// most `max_nodes` nodes for it all. The proof search recurses one level per ply of the bound
/// (about 8 KiB each): the 2 × 12 plies of `lielow puzzles`' longest bound fit any thread's
/// stack.
pub fn find(position: &Position, max_moves: u32, max_nodes: u64) -> Finding {
    let roots = position.legal_moves();
    if position.is_game_over() || roots.len() < 2 {
        return Finding::Forced;
    }
    let budget = Budget {
        max_nodes,
        deadline: None,
        stop: None,
    };
    let mut solver = Solver::new(position.side_to_move());
    // 1. N, exact: every shorter bound is disproven on the way.
    let mut moves = None;
    for n in 1..=max_moves {
        match solver.prove(position, 2 * n, &budget) {
            Answer::Proven => {
                moves = Some(n);
                break;
            }
            Answer::Disproven => {}
            Answer::Unknown => return Finding::OutOfBudget,
        }
    }
    let Some(moves) = moves else {
        return Finding::NoWin;
    };
    // 2. One first move wins within the bound, every other is refuted.
    let mut winners = Vec::new();
    for &mv in &roots {
        let child = position.play(mv);
        let wins = match child.winner() {
            Some(winner) => winner == position.side_to_move(),
            None => match solver.prove(&child, 2 * moves - 1, &budget) {
                Answer::Proven => true,
                Answer::Disproven => false,
                Answer::Unknown => return Finding::OutOfBudget,
            },
        };
        if wins {
            winners.push(mv);
            if let [first, second] = winners[..] {
                return Finding::Several(first, second);
            }
        }
    }
    let [answer] = winners[..] else {
        // The root's proof names a winning move: none found means the table disagrees.
        return Finding::OutOfBudget;
    };
    // 3. The exact length, the line, and the proof replayed.
    let plies = match solver.prove(position, 2 * moves - 1, &budget) {
        Answer::Proven => 2 * moves - 1,
        Answer::Disproven => 2 * moves,
        Answer::Unknown => return Finding::OutOfBudget,
    };
    let line = solver.line(position, plies, &budget);
    let complete = line.len() == plies as usize
        && line.first() == Some(&answer)
        && position.play_moves(&line).winner() == Some(position.side_to_move());
    if !complete || solver.verify(position, plies).is_err() {
        return Finding::OutOfBudget;
    }
    Finding::Unique(Proven {
        answer,
        moves,
        line,
        nodes: solver.nodes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(lfen: &str, max_moves: u32) -> Finding {
        find(&Position::from_lfen(lfen).unwrap(), max_moves, 2_000_000)
    }

    #[test]
    fn a_king_capture_that_only_one_stack_can_make_is_a_puzzle_in_one() {
        match found("8/r1r1r15/8/3R24/8/3B24/b1b1b15/8 b", 4) {
            Finding::Unique(proven) => {
                assert_eq!(proven.answer.to_string(), "d3xd5");
                assert_eq!((proven.moves, proven.line.len()), (1, 1));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn two_stacks_that_can_take_the_king_make_no_puzzle() {
        // As above, with a Blue stack of height 1 on e5 that takes d5 too.
        match found("8/r1r1r15/8/3R2b13/8/3B24/b1b1b15/8 b", 4) {
            Finding::Several(first, second) => {
                let mut both = [first.to_string(), second.to_string()];
                both.sort();
                assert_eq!(both, ["d3xd5", "e5xd5"]);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_unique_win_in_three_is_found_with_its_line() {
        // A win in 3 of tests/data/puzzles.txt: only b3-h3 wins that fast.
        match found("8/8/7r2/8/1b46/R6B6r11b13/8/8 b", 8) {
            Finding::Unique(proven) => {
                assert_eq!(proven.answer.to_string(), "b3-h3");
                assert_eq!(proven.moves, 3);
                let line: Vec<String> = proven.line.iter().map(Move::to_string).collect();
                assert_eq!(line.join(" "), "b3-h3 a3-g3 b4-b8 c3-d3 b8xg3");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_win_in_two_with_two_first_moves_is_rejected() {
        // A win in 2 of tests/data/puzzles.txt that d1-h1 and d1-d5 both force.
        match found("8/B71R55/8/5r41r4/8/r57/8/3r44 r", 8) {
            Finding::Several(first, second) => {
                let mut both = [first.to_string(), second.to_string()];
                both.sort();
                assert_eq!(both, ["d1-d5", "d1-h1"]);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_lost_position_has_no_win_and_a_small_budget_skips() {
        // Blue to move loses in 1 (tests/data/puzzles.txt): no win for Blue at all.
        assert_eq!(
            found("1r87/R88/3r45/9/9/9/r58/1r61r52r62/5B73 b", 3),
            Finding::NoWin
        );
        // A win in 5 (the same file) cannot be settled in 50 nodes.
        let position = Position::from_lfen("7B7/4b23/8/8/8/4r23/8/3R34 r").unwrap();
        assert_eq!(find(&position, 8, 50), Finding::OutOfBudget);
    }
}
