//! A game review as text (a table a person reads in the terminal) and as JSON.

use std::fmt::Write as _;

use serde_json::{json, Value};

use super::review::{GameReview, Line};
use lielow_engine::score::Score;
use lielow_rules::board::Side;
use lielow_rules::moves::Move;

/// A score for people: `+0.35` (hundredths of the evaluation's units) or `mate 3` / `mate -2`.
pub fn shown_score(score: Score) -> String {
    match score.mate_moves() {
        Some(moves) => format!("mate {moves}"),
        None => format!("{:+.2}", f64::from(score.0) / 100.0),
    }
}

fn moves_text(moves: &[Move]) -> String {
    moves
        .iter()
        .map(Move::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The review of one game as a table, then its summary. `title` heads it (players, result).
pub fn table(review: &GameReview, title: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{title}");
    let _ = writeln!(
        out,
        "{:>4}  {:<4}  {:<9} {:>9}  {:<9} {:>9}  {:>5}  label",
        "ply", "side", "played", "its eval", "best", "best eval", "loss"
    );
    for m in &review.moves {
        let label = match (m.label, m.allows_mate) {
            (Some(label), Some(mate)) => format!("{label} (allows mate {mate})"),
            (Some(label), None) => label.to_string(),
            (None, _) => String::new(),
        };
        let _ = writeln!(
            out,
            "{:>4}  {:<4}  {:<9} {:>9}  {:<9} {:>9}  {:>5.1}  {label}",
            m.ply,
            m.side.to_string(),
            m.played.to_string(),
            shown_score(m.eval_played),
            m.best.to_string(),
            shown_score(m.eval_before),
            m.loss
        );
    }
    for side in Side::BOTH {
        let count = |wanted: &str| {
            review
                .moves
                .iter()
                .filter(|m| m.side == side)
                .filter(|m| m.label.is_some_and(|l| l.to_string().starts_with(wanted)))
                .count()
        };
        let accuracy = review.accuracy[side.index()].map_or("-".to_owned(), |a| format!("{a:.1}"));
        let _ = writeln!(
            out,
            "{side}: accuracy {accuracy}, {} inaccuracies, {} mistakes, {} blunders, {} lost wins",
            count("inaccuracy"),
            count("mistake"),
            count("blunder"),
            count("lost win")
        );
    }
    if let Some(index) = review.turning_point {
        let m = &review.moves[index];
        let _ = writeln!(
            out,
            "turning point: ply {} ({} {}, best {}), {:.1} points of winning chances lost",
            m.ply, m.side, m.played, m.best, m.loss
        );
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
        "winner": review.winner.map(|w| w.to_string()),
    });
    if let (Value::Object(game), Value::Object(extra)) = (&mut game, extra) {
        game.extend(extra);
    }
    game
}
