//! `lielow gui`'s API for the page's player aids: the threats each position answer carries (from
//! the rules crate, so the page holds no rules), and clock games, whose times reach the engine as
//! `go p1time p2time p1inc p2inc`.

mod gui_support;
mod support;

use gui_support::*;
use serde_json::json;

/// Both kings of height 2 on the d file, two squares apart: each can take the other.
const KINGS_FACE: &str = "8/3R24/8/3B24/8/8/8/8 b";

#[test]
fn a_position_answer_names_the_stacks_in_danger() {
    let gui = Gui::start(&[]);
    let (status, answer) = gui.post("/api/position", json!({"start": START}));
    assert_eq!(status, 200, "{answer}");
    for side in ["Blue", "Red"] {
        assert_eq!(answer["threats"][side]["stacks"], json!([]), "{answer}");
        assert_eq!(answer["threats"][side]["king"], json!(null), "{answer}");
    }
    let (status, answer) = gui.post("/api/position", json!({"start": KINGS_FACE}));
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["threats"]["Blue"]["stacks"], json!(["d5"]));
    assert_eq!(answer["threats"]["Blue"]["king"], json!("d5"));
    assert_eq!(answer["threats"]["Red"]["king"], json!("d7"));
    // Once a king is taken, nothing more is threatened.
    let (status, answer) = gui.post(
        "/api/position",
        json!({"start": KINGS_FACE, "moves": ["d5xd7"]}),
    );
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["winner"], json!("Blue"));
    assert_eq!(answer["threats"]["Blue"]["stacks"], json!([]));
    assert_eq!(answer["threats"]["Red"]["stacks"], json!([]));
}

#[test]
fn a_clock_search_ends_with_a_legal_move_and_bad_clocks_are_refused() {
    let gui = Gui::start(&[]);
    let (status, script) = gui.request("GET", "/clock.js", "", &[]);
    assert_eq!(status, 200);
    assert!(
        script.contains("p1time"),
        "the page's clock sends the protocol's names"
    );
    let mut page = gui.open_page();
    let session = page.session.clone();
    let clock = json!({"p1time": 2000, "p2time": 2000, "p1inc": 100, "p2inc": 100});
    let (status, answer) = gui.post(
        "/api/go",
        json!({"session": session, "engine": 0, "start": START, "limits": clock, "search": 3}),
    );
    assert_eq!(status, 200, "{answer}");
    let events = page.events_until(|e| e["type"] == "bestmove" && e["search"] == 3);
    let best = events.last().unwrap()["move"].as_str().unwrap().to_owned();
    let (status, answer) = gui.post("/api/position", json!({"start": START, "moves": [best]}));
    assert_eq!(status, 200, "the engine's move is legal: {answer}");
    for (limits, wanted) in [
        (json!({"p1time": 1000}), "a clock gives all of"),
        (
            json!({"p1time": 1000, "p2time": 1000, "p1inc": 0, "p2inc": 3_600_001}),
            "limits.p2inc must be 0 to 3600000",
        ),
        (
            json!({"p1time": 86_400_001, "p2time": 1000, "p1inc": 0, "p2inc": 0}),
            "limits.p1time must be 0 to 86400000",
        ),
        (json!({"p1time": "soon"}), "bad request"),
    ] {
        let (status, answer) = gui.post(
            "/api/go",
            json!({"session": session, "engine": 0, "start": START, "limits": limits}),
        );
        assert_eq!(status, 400, "{limits}: {answer}");
        let error = answer["error"].as_str().unwrap();
        assert!(error.contains(wanted), "{limits}: {error}");
    }
}
