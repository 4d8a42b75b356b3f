//! The same game reviewed twice, by the GUI's `POST /api/review` and by `lielow analyse`, with
//! the same node budget, gives the same review: node budgets, one thread and a fresh table for
//! each position make a review a function of the game.

mod gui_support;
mod support;

use gui_support::*;
use serde_json::{json, Value};
use support::{lielow, scratch};

/// `lielow analyse --game ... --budget quick`'s JSON review of `moves` from the start.
fn command_line_review(moves: &[String]) -> Value {
    let dir = scratch("review-agreement");
    let json = dir.join("review.json").display().to_string();
    let game = format!("{START} moves {}", moves.join(" "));
    let output = lielow(&[
        "analyse", "--game", &game, "--budget", "quick", "--json", &json,
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = std::fs::read_to_string(&json).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let mut reviews: Value = serde_json::from_str(&text).unwrap();
    reviews[0].take()
}

#[test]
fn the_gui_and_the_command_line_give_the_same_review_every_time() {
    let gui = Gui::start(&[]);
    let moves = some_game(&gui, 40);
    assert!(moves.len() >= 30, "a game of {} plies", moves.len());
    let ask = || {
        let (status, answer) = gui.post(
            "/api/review",
            json!({"start": START, "moves": moves, "budget": "quick"}),
        );
        assert_eq!(status, 200, "{answer}");
        answer
    };
    let (first, second) = (ask(), ask());
    let cli = command_line_review(&moves);
    assert_eq!(first["moves"].as_array().unwrap().len(), moves.len());
    for key in ["moves", "accuracy", "turning_point", "result"] {
        assert_eq!(first[key], second[key], "two GUI reviews differ in {key}");
        assert_eq!(
            first[key], cli[key],
            "the GUI and the command line differ in {key}"
        );
    }
    // The verdicts are really there to compare: every move has an eval and a best move.
    assert!(first["moves"]
        .as_array()
        .unwrap()
        .iter()
        .all(|m| m["eval_played"].is_string() && m["best"].is_string()));
    // A budget the GUI does not offer is refused, as is a budget with a movetime.
    let (status, answer) = gui.post(
        "/api/review",
        json!({"start": START, "moves": moves, "budget": "huge"}),
    );
    assert_eq!(status, 400, "{answer}");
    let (status, answer) = gui.post(
        "/api/review",
        json!({"start": START, "moves": moves, "budget": "quick", "movetime": 100}),
    );
    assert_eq!(status, 400, "{answer}");
    assert!(
        answer["error"].as_str().unwrap().contains("not both"),
        "{answer}"
    );
}

#[test]
fn a_review_from_a_record_leaves_its_opening_unjudged_in_the_gui_too() {
    let gui = Gui::start(&[]);
    let moves = some_game(&gui, 12);
    let (status, answer) = gui.post(
        "/api/review",
        json!({"start": START, "moves": moves, "budget": "quick", "opening": 6}),
    );
    assert_eq!(status, 200, "{answer}");
    let reviewed = answer["moves"].as_array().unwrap();
    for m in &reviewed[..6] {
        assert_eq!(m["opening"], true, "{m}");
        assert_eq!(m["label"], Value::Null, "{m}");
        assert_eq!(m["loss"], 0.0, "{m}");
    }
    assert!(reviewed[6..].iter().all(|m| m["opening"] == false));
    assert!(
        answer["turning_point"].as_u64().is_none_or(|ply| ply > 6),
        "{answer}"
    );
    let (status, _) = gui.post(
        "/api/review",
        json!({"start": START, "moves": moves, "opening": 13}),
    );
    assert_eq!(status, 400);
}
