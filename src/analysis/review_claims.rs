//! What a review may say about a move, and the proof each claim about a forced result needs.
//!
//! The search's `mate N` is what a bounded search saw, not a proof: a search that stops seeing
//! a mate at its budget says nothing about the position (a game showed `mate 8`, then no mate
//! after the next move at 100 ms, then `mate 9` again two plies later, and was won). So a move
//! after which the search's view of a forced result changes is sent to the proof search
//! ([`solve`](super::solve), df-pn, which either proves or says it does not know):
//!
//! - the position after the move proven lost for the mover: the move `allows mate`, and when the
//!   position before it is proven won too, it is a `lost win`;
//! - the position after it proven won for the mover: nothing was lost (the proven score is used);
//! - not proven within the budget: the move is labelled for what is known ("mate no longer
//!   seen" or "mate seen against"), and it is left out of the counts, the accuracy and the
//!   turning point, which judge only what is known.
//!
//! The labels by lost winning chances (inaccuracy, mistake, blunder) are estimates from the
//! search's scores, and say so in the documentation; no label claims a proof it does not have.

use std::sync::atomic::AtomicBool;

use super::solve::{self, Budget, Verdict};
use lielow_engine::score::Score;
use lielow_rules::position::Position;

/// Loss thresholds in points of winning chances.
pub const INACCURACY: f64 = 10.0;
/// See [`INACCURACY`].
pub const MISTAKE: f64 = 20.0;
/// See [`INACCURACY`].
pub const BLUNDER: f64 = 30.0;

/// What a move is called.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Label {
    /// Lost 10 points of winning chances or more (by the search's scores).
    Inaccuracy,
    /// Lost 20 or more.
    Mistake,
    /// Lost 30 or more, or walked into a proven loss.
    Blunder,
    /// Threw away a proven win: the position before was proven won in `moves` (at most, unless
    /// `exact`), the one after proven lost.
    LostWin {
        /// The win the mover had, in moves.
        moves: u32,
        /// `moves` is the shortest distance (otherwise an upper bound).
        exact: bool,
    },
    /// The search saw a win for the mover before the move (its `mate N`) and none after, and
    /// the proof search settled neither way: unproven, not judged.
    MateNoLongerSeen(i32),
    /// The search saw the opponent's mate after the move (its `mate -N`), and the proof search
    /// did not confirm it: unproven, not judged.
    MateSeenAgainst(i32),
}

impl Label {
    /// Whether the label judges the move (counts, accuracy, turning point); unproven claims
    /// do not.
    pub fn judges(self) -> bool {
        !matches!(self, Label::MateNoLongerSeen(_) | Label::MateSeenAgainst(_))
    }

    /// The word the counts group it under (`inaccuracy`, `mistake`, `blunder`, `lost win`,
    /// `unproven`), and the page's colour class.
    pub fn kind(self) -> &'static str {
        match self {
            Label::Inaccuracy => "inaccuracy",
            Label::Mistake => "mistake",
            Label::Blunder => "blunder",
            Label::LostWin { .. } => "lost win",
            Label::MateNoLongerSeen(_) | Label::MateSeenAgainst(_) => "unproven",
        }
    }
}

impl std::fmt::Display for Label {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            Label::LostWin { moves, exact } => {
                let at_most = if *exact { "" } else { "at most " };
                write!(f, "lost win (it had mate in {at_most}{moves})")
            }
            Label::MateNoLongerSeen(moves) => write!(
                f,
                "mate no longer seen (the search saw mate {moves} before; unproven)"
            ),
            Label::MateSeenAgainst(moves) => {
                write!(f, "mate seen against (mate -{moves}; unproven)")
            }
            other => f.write_str(other.kind()),
        }
    }
}

/// What the proof search found about a position, for the side that just moved into it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proof {
    /// Proven won for the mover: its score, from the mover's view.
    Won(Score, bool),
    /// Proven lost for the mover: its score, from the mover's view.
    Lost(Score, bool),
    /// Not proven within the budget.
    Unknown,
}

/// The proof search's verdict on `position` for the side to move, within `nodes` (0: none).
/// One thread and a node budget: the same position gives the same verdict every time.
pub fn prove(position: &Position, nodes: u64, stop: &AtomicBool) -> Proof {
    if position.is_game_over() {
        // Over on the board: exact, with no search.
        return match position.winner() {
            Some(winner) if winner == position.side_to_move() => Proof::Won(Score::win_in(0), true),
            _ => Proof::Lost(Score::loss_in(0), true),
        };
    }
    if nodes == 0 {
        return Proof::Unknown;
    }
    let budget = Budget {
        max_nodes: nodes,
        deadline: None,
        stop: Some(stop),
    };
    match solve::solve_on_big_stack(position, &budget, 1, false).map(|s| s.verdict) {
        Ok(Verdict::Win { plies, exact, .. }) => Proof::Won(Score::win_in(plies as i32), exact),
        Ok(Verdict::Loss { plies, exact, .. }) => Proof::Lost(Score::loss_in(plies as i32), exact),
        Ok(Verdict::Unknown { .. }) | Err(_) => Proof::Unknown,
    }
}

/// The proof, seen one ply up: from the side that moved into the position.
pub fn for_mover(proof: Proof) -> Proof {
    let up = |score: Score| from_parent(score);
    match proof {
        Proof::Won(score, exact) => Proof::Lost(up(score), exact),
        Proof::Lost(score, exact) => Proof::Won(up(score), exact),
        Proof::Unknown => Proof::Unknown,
    }
}

/// Whether the search's view of a forced result changes with the move (from `before`, the
/// best score before it, to `played`, what the move is worth by the search, both the mover's):
/// then the position after it needs a proof before anything is said.
pub fn needs_proof(before: Score, played: Score) -> bool {
    let won = |s: Score| s.mate_moves().is_some_and(|m| m > 0);
    let lost = |s: Score| s.mate_moves().is_some_and(|m| m <= 0);
    (won(before) && !won(played)) || (lost(played) && !lost(before))
}

/// A move's verdict: its label, the mate it proven allows, and what it is worth.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Judgement {
    /// The label, if the move earns one.
    pub label: Option<Label>,
    /// The proven loss the move walked into, in moves.
    pub allows_mate: Option<i32>,
    /// What the move is worth, mover's view: the proven score when there is one.
    pub eval_played: Score,
}

/// Judges a move from the search's scores (`before`: the best line's, `played`: the move's,
/// both the mover's) and the winning chances it lost by them (`loss`, recomputed here when a
/// proof replaces `played`), with `after` (the position after the move, proven for the mover)
/// and `before_proof` (the position before it, for the mover) when [`needs_proof`] asked.
pub fn judge(
    before: Score,
    played: Score,
    after: Option<Proof>,
    before_proof: Option<Proof>,
    loss_of: &dyn Fn(Score) -> f64,
) -> Judgement {
    let searched_win = before.mate_moves().filter(|&m| m > 0);
    let by_loss = |loss: f64| {
        if loss >= BLUNDER {
            Some(Label::Blunder)
        } else if loss >= MISTAKE {
            Some(Label::Mistake)
        } else if loss >= INACCURACY {
            Some(Label::Inaccuracy)
        } else {
            None
        }
    };
    match after {
        None => Judgement {
            label: by_loss(loss_of(played)),
            allows_mate: None,
            eval_played: played,
        },
        Some(Proof::Won(score, _)) => Judgement {
            label: by_loss(loss_of(score)),
            allows_mate: None,
            eval_played: score,
        },
        Some(Proof::Lost(score, _)) => {
            let mate = score.mate_moves().map_or(0, |m| -m);
            let label = match before_proof {
                Some(Proof::Won(won, exact)) => Some(Label::LostWin {
                    moves: won.mate_moves().unwrap_or(0) as u32,
                    exact,
                }),
                _ => Some(Label::Blunder),
            };
            // A move from a position the search already saw lost walks into nothing new.
            let seen_lost = before.mate_moves().is_some_and(|m| m <= 0);
            Judgement {
                label: if seen_lost {
                    by_loss(loss_of(score))
                } else {
                    label
                },
                allows_mate: (!seen_lost).then_some(mate),
                eval_played: score,
            }
        }
        Some(Proof::Unknown) => Judgement {
            label: Some(match searched_win {
                Some(moves) if played.mate_moves().is_none_or(|m| m <= 0) => {
                    Label::MateNoLongerSeen(moves)
                }
                _ => Label::MateSeenAgainst(played.mate_moves().map_or(0, |m| -m)),
            }),
            allows_mate: None,
            eval_played: played,
        },
    }
}

/// One side's score, seen from the other side, one ply further from the root.
pub(crate) fn from_parent(score: Score) -> Score {
    let flipped = Score(-score.0);
    // A proven result is one ply further away (by the sign: `win_in(0)` is 0 moves away).
    if flipped.0 > Score::MATE_BOUND {
        Score(flipped.0 - 1)
    } else if flipped.0 < -Score::MATE_BOUND {
        Score(flipped.0 + 1)
    } else {
        flipped
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The loss the review computes, from a win before the move.
    fn from_a_win(score: Score) -> f64 {
        100.0 - super::super::review::winning_chances(score)
    }

    #[test]
    fn a_win_the_search_stops_seeing_is_not_called_lost_unless_proven() {
        // The search saw mate 8 before the move and +3.00 after it: the case of the issue.
        let (before, played) = (Score::win_in(15), Score(300));
        assert!(needs_proof(before, played));
        // The proof search could not settle it: unproven, and not judged.
        let unknown = judge(before, played, Some(Proof::Unknown), None, &from_a_win);
        assert_eq!(unknown.label, Some(Label::MateNoLongerSeen(8)));
        assert!(!unknown.label.unwrap().judges());
        assert_eq!(unknown.allows_mate, None);
        assert!(!unknown.label.unwrap().to_string().starts_with("lost win"));
        // The proof finds the mover still wins (mate 9): nothing was lost.
        let still = judge(
            before,
            played,
            Some(Proof::Won(Score::win_in(17), true)),
            None,
            &from_a_win,
        );
        assert_eq!(still.label, None);
        assert_eq!(still.eval_played, Score::win_in(17));
        // Proven lost after, proven won before: a lost win, with the proof's distance.
        let lost = judge(
            before,
            played,
            Some(Proof::Lost(Score::loss_in(6), true)),
            Some(Proof::Won(Score::win_in(15), false)),
            &from_a_win,
        );
        assert_eq!(
            lost.label,
            Some(Label::LostWin {
                moves: 8,
                exact: false
            })
        );
        assert_eq!(lost.allows_mate, Some(3));
        assert_eq!(
            lost.label.unwrap().to_string(),
            "lost win (it had mate in at most 8)"
        );
        // Proven lost after, but the win before not proven: it allows mate, no lost win.
        let allows = judge(
            before,
            played,
            Some(Proof::Lost(Score::loss_in(6), true)),
            Some(Proof::Unknown),
            &from_a_win,
        );
        assert_eq!(allows.label, Some(Label::Blunder));
        assert_eq!(allows.allows_mate, Some(3));
    }

    #[test]
    fn a_mate_against_the_search_sees_is_only_claimed_when_proven() {
        let (before, played) = (Score(20), Score::loss_in(4));
        assert!(needs_proof(before, played));
        let loss = |s: Score| 50.0 - super::super::review::winning_chances(s);
        let unknown = judge(before, played, Some(Proof::Unknown), None, &loss);
        assert_eq!(unknown.label, Some(Label::MateSeenAgainst(2)));
        assert_eq!(unknown.allows_mate, None);
        let proven = judge(
            before,
            played,
            Some(Proof::Lost(Score::loss_in(4), true)),
            None,
            &loss,
        );
        assert_eq!(proven.label, Some(Label::Blunder));
        assert_eq!(proven.allows_mate, Some(2));
        // Unchanged views need no proof.
        assert!(!needs_proof(Score(20), Score(-40)));
        assert!(!needs_proof(Score::win_in(5), Score::win_in(7)));
        assert!(!needs_proof(Score::loss_in(4), Score::loss_in(2)));
    }

    #[test]
    fn for_mover_turns_the_side_to_moves_proof_one_ply_up() {
        assert_eq!(
            for_mover(Proof::Won(Score::win_in(1), true)),
            Proof::Lost(Score::loss_in(2), true)
        );
        assert_eq!(
            for_mover(Proof::Lost(Score::loss_in(0), true)),
            Proof::Won(Score::win_in(1), true)
        );
        assert_eq!(for_mover(Proof::Unknown), Proof::Unknown);
    }
}
