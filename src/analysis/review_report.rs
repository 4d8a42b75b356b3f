//! A game review as text (a table a person reads in the terminal) and as JSON.

use std::fmt::Write as _;

use serde_json::{json, Value};

use super::review::{GameReview, Line, MoveReview};
use crate::reason::Reason;
use lielow_engine::score::Score;
use lielow_rules::board::Side;
use lielow_rules::moves::Move;

/// A score for people: `+0.35` (the evaluation's units are hundredths of a stack, so this is
/// 0.35 stacks) or `mate 3` / `mate -2`.
pub fn shown_score(score: Score) -> String {
    match score.mate_moves() {
        Some(moves) => format!("mate {moves}"),
        None => format!("{:+.2}", f64::from(score.0) / 100.0),
    }
}

/// How the table and the page show scores, said once for both.
pub const PERSPECTIVE: &str = "Scores are from Blue's side (+ is good for Blue), in stacks: the \
    evaluation counts a stack as 1.00. 'mate N' is a forced win in N moves the search found \
    (for Red when negative); a label that names a mate is proven by the proof search.";

/// `score`, the mover's (`side`), from Blue's side.
pub fn for_blue(side: Side, score: Score) -> Score {
    match side {
        Side::Blue => score,
        Side::Red => Score(-score.0),
    }
}

/// The game's result in words, from the rules' ending or the runner's forfeit, e.g. "Red won:
/// Blue bore off its own king."
pub fn result_sentence(result: Option<(Side, Reason)>) -> String {
    let Some((winner, reason)) = result else {
        return "The game is not over.".to_owned();
    };
    let loser = winner.opponent();
    let how = match reason {
        Reason::KingCaptured => format!("{winner} captured {loser}'s king"),
        Reason::KingBorneOff => format!("{loser} bore off its own king"),
        Reason::NoMoves => format!("{loser} had no stack left to move"),
        Reason::IllegalMove => format!("{loser}'s engine sent an illegal move"),
        Reason::TimeForfeit => format!("{loser}'s engine ran out of time"),
        Reason::NoReply => format!("{loser}'s engine stopped answering"),
        Reason::Crash => format!("{loser}'s engine crashed"),
    };
    format!("{winner} won: {how}.")
}

/// What the review knows of the opening, in words.
pub fn opening_sentence(opening: Option<usize>) -> String {
    match opening {
        None => "The record does not say where the opening ends: every move is judged.".to_owned(),
        Some(0) => "No opening moves: every move is judged.".to_owned(),
        Some(1) => "Ply 1 was the opening, not chosen by the players: not judged.".to_owned(),
        Some(n) => {
            format!("Plies 1-{n} were the opening, not chosen by the players: not judged.")
        }
    }
}

/// Moves as notation, space-separated: how the report and the page write a line.
pub(super) fn moves_text(moves: &[Move]) -> String {
    moves
        .iter()
        .map(Move::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// A move's label as the table and the page write it.
pub fn label_text(m: &MoveReview) -> String {
    match (m.label, m.allows_mate) {
        _ if m.opening => "opening".to_owned(),
        (Some(label), Some(mate)) => format!("{label} (allows mate {mate})"),
        (Some(label), None) => label.to_string(),
        (None, _) => String::new(),
    }
}

/// One side's counts and accuracy, e.g. "Blue: accuracy 91.2, 1 inaccuracies, ...".
pub fn side_summary(review: &GameReview, side: Side) -> String {
    let count = |kind: &str| {
        review
            .moves
            .iter()
            .filter(|m| m.side == side && !m.opening)
            .filter(|m| m.label.is_some_and(|l| l.kind() == kind))
            .count()
    };
    let accuracy = review.accuracy[side.index()].map_or("-".to_owned(), |a| format!("{a:.1}"));
    let unproven = match count("unproven") {
        0 => String::new(),
        n => format!(" ({n} unproven, not judged)"),
    };
    format!(
        "{side}: accuracy {accuracy}, {} inaccuracies, {} mistakes, {} blunders, {} lost wins{unproven}",
        count("inaccuracy"),
        count("mistake"),
        count("blunder"),
        count("lost win")
    )
}

/// The turning point in words, if there is one.
pub fn turning_sentence(review: &GameReview) -> Option<String> {
    let m = &review.moves[review.turning_point?];
    Some(format!(
        "turning point: ply {} ({} {}, best {}), {:.1} points of winning chances lost",
        m.ply, m.side, m.played, m.best, m.loss
    ))
}

/// The review of one game as a table, then its summary. `title` heads it (players, result).
pub fn table(review: &GameReview, title: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{title}");
    let _ = writeln!(out, "{}", result_sentence(review.result));
    let _ = writeln!(out, "{}", opening_sentence(review.opening));
    let _ = writeln!(out, "{PERSPECTIVE}");
    let _ = writeln!(
        out,
        "{:>4}  {:<4}  {:<9} {:>9}  {:<9} {:>9}  {:>5}  label",
        "ply", "side", "played", "its eval", "best", "best eval", "loss"
    );
    for m in &review.moves {
        let _ = writeln!(
            out,
            "{:>4}  {:<4}  {:<9} {:>9}  {:<9} {:>9}  {:>5.1}  {}",
            m.ply,
            m.side.to_string(),
            m.played.to_string(),
            shown_score(for_blue(m.side, m.eval_played)),
            m.best.to_string(),
            shown_score(for_blue(m.side, m.eval_before)),
            m.loss,
            label_text(m)
        );
    }
    for side in Side::BOTH {
        let _ = writeln!(out, "{}", side_summary(review, side));
    }
    if let Some(turning) = turning_sentence(review) {
        let _ = writeln!(out, "{turning}");
    }
    out
}

fn line_json(line: &Line) -> Value {
    json!({
        "score": line.score.to_string(),
        "pv": moves_text(&line.pv),
    })
}

/// One game's review as a JSON value; `extra` (players, result) is merged into it.
pub fn game_json(review: &GameReview, extra: Value) -> Value {
    let moves: Vec<Value> = review
        .moves
        .iter()
        .map(|m| {
            json!({
                "ply": m.ply,
                "side": m.side.to_string(),
                "played": m.played.to_string(),
                "eval_played": m.eval_played.to_string(),
                "best": m.best.to_string(),
                "eval_before": m.eval_before.to_string(),
                "loss": (m.loss * 10.0).round() / 10.0,
                "label": m.label.map(|l| l.to_string()),
                "opening": m.opening,
                "allows_mate": m.allows_mate,
                "accuracy": (m.accuracy * 10.0).round() / 10.0,
                "lines": m.lines.iter().map(line_json).collect::<Vec<_>>(),
            })
        })
        .collect();
    let mut game = json!({
        "start": review.start.to_lfen(),
        "moves": moves,
        "accuracy": {
            "blue": review.accuracy[0].map(|a| (a * 10.0).round() / 10.0),
            "red": review.accuracy[1].map(|a| (a * 10.0).round() / 10.0),
        },
        "turning_point": review.turning_point.map(|index| review.moves[index].ply),
        "winner": review.winner().map(|w| w.to_string()),
        "result": result_sentence(review.result),
        "opening": review.opening,
    });
    if let (Value::Object(game), Value::Object(extra)) = (&mut game, extra) {
        game.extend(extra);
    }
    game
}
