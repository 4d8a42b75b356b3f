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
//! These labels are estimates from the search's scores. Claims about forced results (`lost
//! win`, `allows mate`) are proven by the proof search or not made: see [`review_claims`](super::review_claims).
//! A move's accuracy is Lichess's `103.1668 * exp(-0.04354 * loss) - 3.1669`, clamped to 0..100;
//! a side's accuracy is the mean over its judged moves. The game turned at the judged move that
//! lost the most, of the side that went on to lose when the result is known.
//!
//! Only moves somebody chose are judged: the opening of a record (random plies, an openings
//! file's line: see docs/formats.md, "Game records") is shown and searched but never labelled,
//! counted or picked as the turning point. A record without the opening field (older than it)
//! has no known opening, and every move of it is judged.
//!
//! The same game and [`ReviewSettings`] give the same review every time: every position is
//! searched from a fresh table and history (one thread, a node or depth budget), and proofs
//! have a node budget. Only a `movetime` budget (or more threads) makes a review vary.

use std::sync::atomic::AtomicBool;

use super::review_claims::{self, from_parent, Proof};
pub use super::review_claims::{Label, BLUNDER, INACCURACY, MISTAKE};
use crate::reason::Reason;
use lielow_engine::limits::Limits;
use lielow_engine::score::Score;
use lielow_engine::search::{Report, Searcher};
use lielow_rules::board::Side;
use lielow_rules::moves::Move;
use lielow_rules::position::Position;

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
    /// Part of the opening: nobody chose it, so it is not judged.
    pub opening: bool,
    /// The position's value before the move (the best line's score), mover's view.
    pub eval_before: Score,
    /// The engine's best move.
    pub best: Move,
    /// What the move played is worth, mover's view (a proven score when a proof was made).
    pub eval_played: Score,
    /// Winning chances lost, in points (0 when the best move was played, and in the opening).
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

impl MoveReview {
    /// Whether the move is judged: chosen by a player (not the opening), and not left
    /// unjudged for want of a proof.
    pub fn judged(&self) -> bool {
        !self.opening && self.label.is_none_or(Label::judges)
    }
}

/// A game to review: its moves, where its opening ends, and its result if known.
#[derive(Clone, Debug)]
pub struct Game {
    /// The position the game started from.
    pub start: Position,
    /// Every move since.
    pub moves: Vec<Move>,
    /// How many of the first moves were the opening (`None`: not known, and every move is
    /// judged).
    pub opening: Option<usize>,
    /// Who won and how, when the game is over (a record's forfeit included).
    pub result: Option<(Side, Reason)>,
}

impl Game {
    /// A game given by its moves alone (`--game`, the GUI): its result is the rules' when its
    /// last position is over, and its opening as given.
    pub fn from_moves(start: Position, moves: Vec<Move>, opening: Option<usize>) -> Game {
        // A result is the ending of the last move: a game given with no move has none.
        let result = (!moves.is_empty())
            .then(|| start.play_moves(&moves).outcome())
            .flatten()
            .map(|outcome| (outcome.winner, Reason::from(outcome.end)));
        Game {
            start,
            moves,
            opening,
            result,
        }
    }
}

/// A whole game, judged.
#[derive(Clone, Debug)]
pub struct GameReview {
    /// The position the game started from.
    pub start: Position,
    /// One per move.
    pub moves: Vec<MoveReview>,
    /// Plies of the opening, if known.
    pub opening: Option<usize>,
    /// Per side (Blue, Red): the mean accuracy of its judged moves.
    pub accuracy: [Option<f64>; 2],
    /// The judged move of the loser (of either side when the result is unknown) that lost the
    /// most winning chances (index into `moves`).
    pub turning_point: Option<usize>,
    /// Who won and how, if the game is over.
    pub result: Option<(Side, Reason)>,
}

impl GameReview {
    /// Who won, if the game is over.
    pub fn winner(&self) -> Option<Side> {
        self.result.map(|(winner, _)| winner)
    }
}

/// The node budgets a review offers (the GUI's select, `lielow analyse --budget`): a node
/// count, unlike a time, gives the same review on every machine and every run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ReviewBudget {
    /// 20 000 nodes a position (about 10 ms here), 50 000 a proof.
    Quick,
    /// 100 000 nodes a position (about 40 ms), 200 000 a proof.
    Normal,
    /// 500 000 nodes a position (about 0.2 s), 1 000 000 a proof.
    Deep,
}

impl ReviewBudget {
    /// Nodes per position searched.
    pub const fn nodes(self) -> u64 {
        match self {
            ReviewBudget::Quick => 20_000,
            ReviewBudget::Normal => 100_000,
            ReviewBudget::Deep => 500_000,
        }
    }

    /// Nodes per proof of a forced result.
    pub const fn proof_nodes(self) -> u64 {
        match self {
            ReviewBudget::Quick => 50_000,
            ReviewBudget::Normal => 200_000,
            ReviewBudget::Deep => 1_000_000,
        }
    }
}

/// The transposition table of a review, in MiB: the same in the GUI and on the command line,
/// since the table's size can change what a node budget finds.
pub const HASH_MB: usize = 16;

/// What each position is searched with.
#[derive(Clone, Copy, Debug)]
pub struct ReviewSettings {
    /// The search limits per position.
    pub limits: Limits,
    /// Lines per position (MultiPV).
    pub lines: usize,
    /// Nodes of each proof of a forced result (0: no proofs, so no such claim is made).
    pub proof_nodes: u64,
}

impl ReviewSettings {
    /// The settings of `budget`, with `lines` lines a position.
    pub fn of(budget: ReviewBudget, lines: usize) -> ReviewSettings {
        ReviewSettings {
            limits: Limits {
                nodes: Some(budget.nodes()),
                ..Limits::default()
            },
            lines,
            proof_nodes: budget.proof_nodes(),
        }
    }
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

/// Reviews `game`, calling `progress(ply, plies)` before each position.
pub fn review(
    game: &Game,
    searcher: &mut Searcher,
    settings: &ReviewSettings,
    progress: &mut dyn FnMut(usize, usize),
) -> GameReview {
    let never = AtomicBool::new(false);
    review_until(game, searcher, settings, &never, progress)
}

/// [`review`], until `stop` is raised (the GUI's client left): from then on each search ends
/// at once and the positions left are not searched, so the review that comes back is only
/// partly judged and is meant to be dropped.
pub fn review_until(
    game: &Game,
    searcher: &mut Searcher,
    settings: &ReviewSettings,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(usize, usize),
) -> GameReview {
    searcher.set_multipv(settings.lines.max(1));
    let moves = &game.moves;
    let mut positions = vec![game.start];
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
                // A fresh table and history for each position: its result does not depend on
                // the positions searched before it.
                searcher.new_game();
                analyse_position(searcher, position, settings, stop)
            }
        })
        .collect();
    let opening = game.opening.unwrap_or(0);
    let reviews: Vec<MoveReview> = moves
        .iter()
        .enumerate()
        .map(|(ply, &played)| {
            let in_opening = ply < opening;
            review_move(
                &positions, &analyses, ply, played, in_opening, settings, stop,
            )
        })
        .collect();
    let accuracy = Side::BOTH.map(|side| {
        let own: Vec<f64> = reviews
            .iter()
            .filter(|r| r.side == side && r.judged())
            .map(|r| r.accuracy)
            .collect();
        (!own.is_empty()).then(|| own.iter().sum::<f64>() / own.len() as f64)
    });
    let loser = game.result.map(|(winner, _)| winner.opponent());
    let turning_point = reviews
        .iter()
        .enumerate()
        .filter(|(_, r)| r.judged() && r.loss > 0.0 && loser.is_none_or(|l| l == r.side))
        .max_by(|a, b| a.1.loss.total_cmp(&b.1.loss))
        .map(|(index, _)| index);
    GameReview {
        start: game.start,
        result: game.result,
        opening: game.opening,
        moves: reviews,
        accuracy,
        turning_point,
    }
}

/// The review of move `played`, the `ply`-th of the game (from 0), from the searches of the
/// `positions` before and after it (`analyses`); a claimed result the searches cannot show is
/// proved within `settings.proof_nodes`.
fn review_move(
    positions: &[Position],
    analyses: &[Vec<Line>],
    ply: usize,
    played: Move,
    in_opening: bool,
    settings: &ReviewSettings,
    stop: &AtomicBool,
) -> MoveReview {
    let (before, after) = (&positions[ply], &positions[ply + 1]);
    let lines = analyses[ply].clone();
    let eval_before = value_of(&lines, before);
    let best = lines
        .first()
        .and_then(|l| l.pv.first().copied())
        .unwrap_or(played);
    // The move played is worth what the position after it is worth to the mover; when it
    // is one of the lines, that line's own score (searched in the same tree) is used.
    let searched = match lines.iter().find(|l| l.pv.first() == Some(&played)) {
        Some(line) => line.score,
        None => from_parent(value_of(&analyses[ply + 1], after)),
    };
    let chances_best = winning_chances(eval_before);
    let loss_of = |score: Score| {
        if played == best || in_opening {
            0.0
        } else {
            (chances_best - winning_chances(score)).max(0.0)
        }
    };
    let (after_proof, before_proof) =
        if !in_opening && played != best && review_claims::needs_proof(eval_before, searched) {
            let after_proof =
                review_claims::for_mover(review_claims::prove(after, settings.proof_nodes, stop));
            let searched_win = eval_before.mate_moves().is_some_and(|m| m > 0);
            let before_proof = (searched_win && matches!(after_proof, Proof::Lost(..)))
                .then(|| review_claims::prove(before, settings.proof_nodes, stop));
            (Some(after_proof), before_proof)
        } else {
            (None, None)
        };
    let judgement =
        review_claims::judge(eval_before, searched, after_proof, before_proof, &loss_of);
    let loss = loss_of(judgement.eval_played);
    MoveReview {
        ply: ply + 1,
        side: before.side_to_move(),
        played,
        opening: in_opening,
        eval_before,
        best,
        eval_played: judgement.eval_played,
        loss,
        label: judgement.label.filter(|_| !in_opening),
        lines,
        accuracy: move_accuracy(loss),
        allows_mate: judgement.allows_mate.filter(|_| !in_opening),
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
