//! Game review: every position of a game searched, each move judged against the engine's best.
//!
//! Scores become winning chances before they are compared, so that a pawn's worth matters more
//! in a level position than in a won one. The curve is the logistic one Lichess uses for chess,
//! `win% = 50 + 50 * (2 / (1 + exp(-0.00368208 * cp)) - 1)`, on this engine's evaluation units,
//! and a proven win or loss is 100% or 0%. A move loses the difference between the mover's
//! winning chances after the best move and after the move played (never below 0), and is
//! labelled by that loss:
//!
//! | label | loss of winning chances |
//! | --- | --- |
//! | inaccuracy | 10 points or more |
//! | mistake | 20 points or more |
//! | blunder | 30 points or more |
//!
//! Proven results are named rather than measured: a move after which a proven win is no longer
//! proven is a `lost win` (with the mate distance thrown away), and a move that walks into a
//! proven loss from a position that was not lost is a blunder that `allows mate`. A move's
//! accuracy is Lichess's `103.1668 * exp(-0.04354 * loss) - 3.1669`, clamped to 0..100; a side's
//! accuracy is the mean over its moves. The game turned at the move that lost the most.

use std::sync::atomic::AtomicBool;

use lielow_engine::limits::Limits;
use lielow_engine::score::Score;
use lielow_engine::search::{Report, Searcher};
use lielow_rules::board::Side;
use lielow_rules::moves::Move;
use lielow_rules::position::Position;

/// Loss thresholds in points of winning chances.
pub const INACCURACY: f64 = 10.0;
/// See [`INACCURACY`].
pub const MISTAKE: f64 = 20.0;
/// See [`INACCURACY`].
pub const BLUNDER: f64 = 30.0;

/// The mover's winning chances, in percent, for a score from its point of view.
pub fn winning_chances(score: Score) -> f64 {
    // By the score's sign: a win already on the board (`win_in(0)`) is 0 moves away.
    if score.0 > Score::MATE_BOUND {
        100.0
    } else if score.0 < -Score::MATE_BOUND {
        0.0
    } else {
        50.0 + 50.0 * (2.0 / (1.0 + (-0.003_682_08 * f64::from(score.0)).exp()) - 1.0)
    }
}

/// A move's accuracy (0..100) from the winning chances it lost.
pub fn move_accuracy(loss: f64) -> f64 {
    (103.1668 * (-0.04354 * loss).exp() - 3.1669).clamp(0.0, 100.0)
}

/// What a move is called.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Label {
    /// Lost 10 points of winning chances or more.
    Inaccuracy,
    /// Lost 20 or more.
    Mistake,
    /// Lost 30 or more, or walked into a proven loss.
    Blunder,
    /// Threw away a proven win (the win it had, in moves).
    LostWin(i32),
}

impl std::fmt::Display for Label {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            Label::Inaccuracy => f.write_str("inaccuracy"),
            Label::Mistake => f.write_str("mistake"),
            Label::Blunder => f.write_str("blunder"),
            Label::LostWin(moves) => write!(f, "lost win (mate {moves})"),
        }
    }
}

/// One line the engine found in a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// From the side to move's point of view.
    pub score: Score,
    /// Best move first.
    pub pv: Vec<Move>,
}

/// One move of the game, judged.
#[derive(Clone, Debug)]
pub struct MoveReview {
    /// From 1.
    pub ply: usize,
    /// Who moved.
    pub side: Side,
    /// The move played.
    pub played: Move,
    /// The position's value before the move (the best line's score), mover's view.
    pub eval_before: Score,
    /// The engine's best move.
    pub best: Move,
    /// What the move played is worth, mover's view.
    pub eval_played: Score,
    /// Winning chances lost, in points (0 when the best move was played).
    pub loss: f64,
    /// The label, if the loss earns one.
    pub label: Option<Label>,
    /// The engine's lines in the position (MultiPV), best first.
    pub lines: Vec<Line>,
    /// This move's accuracy, 0..100.
    pub accuracy: f64,
    /// A proven loss the move walked into (in moves), for the text.
    pub allows_mate: Option<i32>,
}

/// A whole game, judged.
#[derive(Clone, Debug)]
pub struct GameReview {
    /// The position the game started from.
    pub start: Position,
    /// One per move.
    pub moves: Vec<MoveReview>,
    /// Per side (Blue, Red): the mean accuracy of its moves.
    pub accuracy: [Option<f64>; 2],
    /// The move that lost the most winning chances (index into `moves`).
    pub turning_point: Option<usize>,
    /// Who won, if the game is over.
    pub winner: Option<Side>,
}

/// What each position is searched with.
#[derive(Clone, Copy, Debug)]
pub struct ReviewSettings {
    /// The search limits per position.
    pub limits: Limits,
    /// Lines per position (MultiPV).
    pub lines: usize,
}

/// The lines of the last completed iteration of a search of `position`.
fn analyse_position(
    searcher: &mut Searcher,
    position: &Position,
    settings: &ReviewSettings,
    stop: &AtomicBool,
) -> Vec<Line> {
    let mut iterations: Vec<(u32, Option<u32>, Line)> = Vec::new();
    let result = searcher.search(position, &settings.limits, stop, &mut |report| {
        if let Report::Iteration(info) = report {
            iterations.push((
                info.depth,
                info.multipv,
                Line {
                    score: info.score,
                    pv: info.pv.clone(),
                },
            ));
        }
    });
    let last_depth = iterations.last().map(|(depth, _, _)| *depth);
    let mut lines: Vec<Line> = iterations
        .into_iter()
        .filter(|(depth, _, _)| Some(*depth) == last_depth)
        .map(|(_, _, line)| line)
        .collect();
    if lines.is_empty() {
        // Stopped before an iteration finished: the result's move is still the best known.
        if let Some(best) = result.best_move {
            lines.push(Line {
                score: result.score,
                pv: vec![best],
            });
        }
    }
    lines
}

/// The value of `position` for its side to move: exact when the game is over.
fn value_of(lines: &[Line], position: &Position) -> Score {
    match position.winner() {
        Some(winner) if winner == position.side_to_move() => Score::win_in(0),
        Some(_) => Score::loss_in(0),
        None => lines.first().map_or(Score(0), |line| line.score),
    }
}

/// One side's score, seen from the other side, one ply further from the root.
fn from_parent(score: Score) -> Score {
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

/// Reviews the game `moves` from `start`, calling `progress(ply, plies)` before each position.
pub fn review(
    start: &Position,
    moves: &[Move],
    searcher: &mut Searcher,
    settings: &ReviewSettings,
    progress: &mut dyn FnMut(usize, usize),
) -> GameReview {
    let never = AtomicBool::new(false);
    review_until(start, moves, searcher, settings, &never, progress)
}

/// [`review`], until `stop` is raised (the GUI's client left): from then on each search ends
/// at once and the positions left are not searched, so the review that comes back is only
/// partly judged and is meant to be dropped.
pub fn review_until(
    start: &Position,
    moves: &[Move],
    searcher: &mut Searcher,
    settings: &ReviewSettings,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(usize, usize),
) -> GameReview {
    searcher.new_game();
    searcher.set_multipv(settings.lines.max(1));
    let mut positions = vec![*start];
    for &mv in moves {
        let next = positions.last().expect("the start").play(mv);
        positions.push(next);
    }
    let plies = moves.len();
    let analyses: Vec<Vec<Line>> = positions
        .iter()
        .enumerate()
        .map(|(ply, position)| {
            progress(ply, plies);
            if position.is_game_over() || stop.load(std::sync::atomic::Ordering::Relaxed) {
                Vec::new()
            } else {
                analyse_position(searcher, position, settings, stop)
            }
        })
        .collect();
    let mut reviews = Vec::with_capacity(plies);
    for (ply, &played) in moves.iter().enumerate() {
        let (before, after) = (&positions[ply], &positions[ply + 1]);
        let lines = analyses[ply].clone();
        let eval_before = value_of(&lines, before);
        let best = lines
            .first()
            .and_then(|l| l.pv.first().copied())
            .unwrap_or(played);
        // The move played is worth what the position after it is worth to the mover; when it
        // is one of the lines, that line's own score (searched in the same tree) is used.
        let eval_played = match lines.iter().find(|l| l.pv.first() == Some(&played)) {
            Some(line) => line.score,
            None => from_parent(value_of(&analyses[ply + 1], after)),
        };
        let chances_best = winning_chances(eval_before);
        let chances_played = winning_chances(eval_played);
        let loss = if played == best {
            0.0
        } else {
            (chances_best - chances_played).max(0.0)
        };
        let allows_mate = eval_played
            .mate_moves()
            .filter(|&m| m < 0 && eval_before.mate_moves().is_none_or(|b| b > 0))
            .map(|m| -m);
        let label = match (eval_before.mate_moves(), eval_played.mate_moves()) {
            (Some(won), played_mate) if won > 0 && played_mate.is_none_or(|m| m <= 0) => {
                Some(Label::LostWin(won))
            }
            _ if allows_mate.is_some() => Some(Label::Blunder),
            _ if loss >= BLUNDER => Some(Label::Blunder),
            _ if loss >= MISTAKE => Some(Label::Mistake),
            _ if loss >= INACCURACY => Some(Label::Inaccuracy),
            _ => None,
        };
        reviews.push(MoveReview {
            ply: ply + 1,
            side: before.side_to_move(),
            played,
            eval_before,
            best,
            eval_played,
            loss,
            label,
            lines,
            accuracy: move_accuracy(loss),
            allows_mate,
        });
    }
    let accuracy = Side::BOTH.map(|side| {
        let own: Vec<f64> = reviews
            .iter()
            .filter(|r| r.side == side)
            .map(|r| r.accuracy)
            .collect();
        (!own.is_empty()).then(|| own.iter().sum::<f64>() / own.len() as f64)
    });
    let turning_point = reviews
        .iter()
        .enumerate()
        .filter(|(_, r)| r.loss > 0.0)
        .max_by(|a, b| a.1.loss.total_cmp(&b.1.loss))
        .map(|(index, _)| index);
    GameReview {
        start: *start,
        winner: positions.last().and_then(Position::winner),
        moves: reviews,
        accuracy,
        turning_point,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn winning_chances_are_even_at_zero_and_certain_for_proofs() {
        assert!((winning_chances(Score(0)) - 50.0).abs() < 1e-9);
        assert!(winning_chances(Score(300)) > 70.0);
        assert!((winning_chances(Score(300)) + winning_chances(Score(-300)) - 100.0).abs() < 1e-9);
        assert_eq!(winning_chances(Score::win_in(5)), 100.0);
        assert_eq!(winning_chances(Score::win_in(0)), 100.0);
        assert_eq!(winning_chances(Score::loss_in(0)), 0.0);
        assert_eq!(winning_chances(Score::loss_in(4)), 0.0);
        assert!((move_accuracy(0.0) - 100.0).abs() < 0.01);
        assert!(move_accuracy(30.0) < 30.0);
    }

    #[test]
    fn a_score_one_ply_up_keeps_its_distance_right() {
        // The opponent to move is mated in 1 (loss in 0 plies: its king is gone) -> for the
        // mover, a win in 1 ply.
        assert_eq!(from_parent(Score::loss_in(0)), Score::win_in(1));
        assert_eq!(from_parent(Score::win_in(1)), Score::loss_in(2));
        // The mover bore off its own king: the opponent to move has won already.
        assert_eq!(from_parent(Score::win_in(0)), Score::loss_in(1));
        assert_eq!(from_parent(Score(35)), Score(-35));
    }
}
