//! The puzzle mode's referee: whether a player's move in a puzzle is right, proven by the proof
//! search (`analysis::solve`), and what the engine answers.
//!
//! A puzzle is a position whose side to move (the solver) wins in N moves, within 2N-1 plies
//! (2N when the defender's last move must end the game itself, by bearing off its own king),
//! with one first move only (the answer; the puzzle file proves both). The player's j-th move
//! is judged so:
//!
//! - the first move is right only if it is the answer (no other first move wins in N: the file
//!   proved that, so it is not proven again);
//! - a later move is right when the solver still wins within the plies left, 2(N-j)+1 after it
//!   (up to the defender's N-th move), proven here: a second winning path is accepted as well
//!   as the file's line;
//! - a move that wins the game solves the puzzle, and so does one after which the defender's
//!   only moves lose at once (its forced move is played);
//! - after a right move the engine answers with the defence that lasts longest: the file's line
//!   while the player follows it, else the first move of [`Solver::line`];
//! - a wrong move gets its refutation: a reply with which the defender wins within
//!   [`QUICK_WIN_PLIES`] (the whole line is shown), else a reply after which the solver's win
//!   within the plies left is disproven.

use lielow_rules::board::Side;
use lielow_rules::moves::Move;
use lielow_rules::position::Position;

use crate::analysis::solve::{Answer, Budget, Solver};
use crate::puzzles::file::Puzzle;

/// What the referee says of the player's latest move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Judgement {
    /// The move wins the game, or leaves the defender only moves that lose at once (`forced`,
    /// the one it plays): the puzzle is solved.
    Solved {
        /// The defender's last move, when the game did not end on the player's.
        forced: Option<Move>,
    },
    /// The move keeps the win in time; the engine answers `reply`, after which the solver has
    /// `left` moves to win.
    Right {
        /// The defence that lasts longest.
        reply: Move,
        /// Moves the solver has left after the reply.
        left: u32,
    },
    /// The move does not win in time.
    Wrong {
        /// The defender's reply that refutes it, when one was found within the budget.
        refutation: Option<Move>,
        /// The rest of a quick win of the defender after the refutation, if it has one.
        continuation: Vec<Move>,
        /// Why, in one line.
        why: String,
    },
}

/// Why a move cannot be judged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JudgeError {
    /// The request is wrong (the page's fault): the reason.
    Bad(String),
    /// The proof search's budget ran out before it could say.
    OutOfBudget,
}

/// Bounds (plies) within which a wrong move's refutation is looked for as a quick win of the
/// defender: its whole line is then shown.
pub const QUICK_WIN_PLIES: u32 = 3;

/// Judges the player's latest move: `moves` are the moves played from the puzzle's start, the
/// player's and the engine's in turn, the last the player's.
pub fn judge(puzzle: &Puzzle, moves: &[Move], budget: &Budget) -> Result<Judgement, JudgeError> {
    let played = moves.len() as u32;
    if played.is_multiple_of(2) {
        return Err(JudgeError::Bad(
            "give the moves so far ending with the player's: an odd number of moves".into(),
        ));
    }
    let j = played.div_ceil(2);
    if j > puzzle.moves {
        return Err(JudgeError::Bad(format!(
            "the puzzle is a win in {}: at most {} moves",
            puzzle.moves,
            2 * puzzle.moves - 1
        )));
    }
    if j > 1 && moves[0] != puzzle.answer {
        return Err(JudgeError::Bad(
            "the first move was not the answer: start the puzzle again".into(),
        ));
    }
    let solver = puzzle.position.side_to_move();
    let before = puzzle.position.play_moves(&moves[..moves.len() - 1]);
    if before.is_game_over() {
        return Err(JudgeError::Bad("the game was already over".into()));
    }
    let after = before.play(moves[moves.len() - 1]);
    let left_plies = 2 * (puzzle.moves - j) + 1;
    match after.winner() {
        Some(winner) if winner == solver => return Ok(Judgement::Solved { forced: None }),
        Some(_) => {
            return Ok(Judgement::Wrong {
                refutation: None,
                continuation: Vec::new(),
                why: if moves[moves.len() - 1].is_bear_off() {
                    "bearing off your own king loses at once".into()
                } else {
                    "this move loses at once".into()
                },
            })
        }
        None => {}
    }
    let mut attacker = Solver::new(solver);
    let right = if j == 1 {
        moves[0] == puzzle.answer
    } else {
        match attacker.prove(&after, left_plies, budget) {
            Answer::Proven => true,
            Answer::Disproven => false,
            Answer::Unknown => return Err(JudgeError::OutOfBudget),
        }
    };
    if !right {
        return Ok(refute(puzzle, &after, left_plies, budget));
    }
    let reply = if puzzle.line.starts_with(moves) && puzzle.line.len() > moves.len() {
        puzzle.line[moves.len()]
    } else {
        *attacker
            .line(&after, left_plies, budget)
            .first()
            .ok_or(JudgeError::OutOfBudget)?
    };
    if after.play(reply).winner() == Some(solver) {
        return Ok(Judgement::Solved {
            forced: Some(reply),
        });
    }
    Ok(Judgement::Right {
        reply,
        left: puzzle.moves - j,
    })
}

/// The refutation of a wrong move that left `after`, where the solver had `left_plies` to win.
fn refute(puzzle: &Puzzle, after: &Position, left_plies: u32, budget: &Budget) -> Judgement {
    let solver = puzzle.position.side_to_move();
    let defender = solver.opponent();
    let mut quick = Solver::new(defender);
    for plies in 1..=QUICK_WIN_PLIES {
        if quick.prove(after, plies, budget) == Answer::Proven {
            let line = quick.line(after, plies, budget);
            if let Some((&first, rest)) = line.split_first() {
                let why = if rest.is_empty() {
                    format!("{defender} answers {first} and wins at once")
                } else {
                    format!(
                        "{defender} answers {first} and wins in {}",
                        plies.div_ceil(2)
                    )
                };
                return Judgement::Wrong {
                    refutation: Some(first),
                    continuation: rest.to_vec(),
                    why,
                };
            }
        }
    }
    let mut attacker = Solver::new(solver);
    let mut replies = after.legal_moves().into_iter().collect::<Vec<_>>();
    // Captures first: the reply a player fears most, and the quickest to disprove.
    replies.sort_by_key(|mv| !mv.is_capture());
    for reply in replies {
        let next = after.play(reply);
        let refuted = match next.winner() {
            Some(winner) => winner == defender,
            None => {
                attacker.prove(&next, left_plies.saturating_sub(1), budget) == Answer::Disproven
            }
        };
        if refuted {
            return Judgement::Wrong {
                refutation: Some(reply),
                continuation: Vec::new(),
                why: no_longer(solver, defender, reply, puzzle.moves),
            };
        }
    }
    Judgement::Wrong {
        refutation: None,
        continuation: Vec::new(),
        why: format!(
            "{solver} no longer wins within the puzzle's {} (no refutation found in time)",
            moves_word(puzzle.moves)
        ),
    }
}

fn no_longer(solver: Side, defender: Side, reply: Move, moves: u32) -> String {
    format!(
        "{defender} answers {reply} and {solver} can no longer force a win within the puzzle's {}",
        moves_word(moves)
    )
}

/// "1 move", "3 moves".
pub fn moves_word(moves: u32) -> String {
    if moves == 1 {
        "1 move".into()
    } else {
        format!("{moves} moves")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn budget() -> Budget<'static> {
        Budget {
            max_nodes: 2_000_000,
            deadline: None,
            stop: None,
        }
    }

    /// A win in 3 for Blue with one answer (b3-h3), its line proven by `lielow solve` (the
    /// puzzle 8-0003 of tests/data/gui-puzzles.txt).
    fn three() -> Puzzle {
        Puzzle::parse(
            "8-0003 ; 8/8/7r2/8/1b46/R6B6r11b13/8/8 b ; b3-h3 ; b3-h3 a3-g3 b4-b8 c3-d3 b8xg3 ; 3 ; 1200 ; test",
        )
        .unwrap()
    }

    fn moves(puzzle: &Puzzle, text: &str) -> Vec<Move> {
        puzzle.position.replay(text.split(' ')).unwrap().1
    }

    #[test]
    fn the_answer_is_right_and_the_line_defends() {
        let puzzle = three();
        let judged = judge(&puzzle, &moves(&puzzle, "b3-h3"), &budget()).unwrap();
        assert_eq!(
            judged,
            Judgement::Right {
                reply: puzzle.line[1],
                left: 2
            }
        );
        let last = moves(&puzzle, "b3-h3 a3-g3 b4-b8 c3-d3 b8xg3");
        assert_eq!(
            judge(&puzzle, &last, &budget()),
            Ok(Judgement::Solved { forced: None })
        );
    }

    #[test]
    fn another_first_move_is_wrong_with_a_refutation_that_holds() {
        let puzzle = three();
        let wrong = moves(&puzzle, "b4-b8");
        let Judgement::Wrong {
            refutation: Some(reply),
            why,
            ..
        } = judge(&puzzle, &wrong, &budget()).unwrap()
        else {
            panic!("not refuted");
        };
        // The refutation really refutes: after it Blue has no win in the 2 moves left.
        let after = puzzle.position.play_moves(&wrong).play(reply);
        let mut blue = Solver::new(Side::Blue);
        assert_eq!(blue.prove(&after, 4, &budget()), Answer::Disproven, "{why}");
        assert!(why.starts_with("Red answers"), "{why}");
    }

    #[test]
    fn requests_out_of_turn_are_refused() {
        let puzzle = three();
        for text in ["b3-h3 a3-g3", "b4-b8 a3-g3 b3-h3"] {
            let judged = judge(&puzzle, &moves(&puzzle, text), &budget());
            assert!(
                matches!(judged, Err(JudgeError::Bad(_))),
                "{text}: {judged:?}"
            );
        }
    }
}
