//! The GUI's puzzle routes through HTTP, on the puzzles of tests/data/gui-puzzles.txt (each
//! proven by `lielow solve`): the list by rating, a right move and the engine's defence, a wrong
//! move and its refutation (checked by `lielow solve` itself), a second winning path accepted
//! to the end, and malformed requests refused with one line.

mod gui_support;
mod support;

use gui_support::Gui;
use serde_json::{json, Value};
use support::{lielow, lielow_command, stdout};

const PUZZLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/gui-puzzles.txt");

fn start() -> Gui {
    let mut command = lielow_command();
    command.args(["gui", "--port", "0", "--puzzles", PUZZLES]);
    Gui::spawn(command)
}

/// `POST /api/puzzle/move` of these moves of puzzle `id`.
fn judge(gui: &Gui, id: &str, moves: &[&str]) -> (u16, Value) {
    gui.post("/api/puzzle/move", json!({"id": id, "moves": moves}))
}

/// The first line of `lielow solve` of `position`.
fn solve(position: &str) -> String {
    let output = lielow(&["solve", position]);
    stdout(&output)
        .lines()
        .next()
        .unwrap_or_default()
        .to_owned()
}

fn lfen_of(gui: &Gui, id: &str) -> String {
    let (_, list) = gui.post(
        "/api/puzzles",
        json!({"size": id[..1].parse::<u64>().unwrap()}),
    );
    let puzzle = list["puzzles"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == id)
        .unwrap_or_else(|| panic!("no {id} in {list}"));
    puzzle["lfen"].as_str().unwrap().to_owned()
}

#[test]
fn the_puzzles_of_a_size_come_by_rating_without_their_answers() {
    let gui = start();
    let (status, list) = gui.post("/api/puzzles", json!({"size": 8}));
    assert_eq!(status, 200, "{list}");
    let puzzles = list["puzzles"].as_array().unwrap();
    let ids: Vec<&str> = puzzles.iter().map(|p| p["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["8-0002", "8-0003", "8-0004"]);
    let ratings: Vec<u64> = puzzles
        .iter()
        .map(|p| p["rating"].as_u64().unwrap())
        .collect();
    assert!(ratings.windows(2).all(|w| w[0] <= w[1]), "{ratings:?}");
    assert_eq!(puzzles[2]["side"], "Red");
    assert_eq!(puzzles[2]["moves"], 4);
    for puzzle in puzzles {
        assert!(
            puzzle.get("answer").is_none() && puzzle.get("line").is_none(),
            "{puzzle}"
        );
    }
    let (status, list) = gui.post("/api/puzzles", json!({"size": 9}));
    assert_eq!(status, 200);
    assert_eq!(list["puzzles"].as_array().unwrap().len(), 3);
}

#[test]
fn without_puzzle_files_the_shipped_sets_are_served() {
    let gui = Gui::start(&[]);
    for size in [8, 9] {
        let (status, list) = gui.post("/api/puzzles", json!({"size": size}));
        assert_eq!(status, 200, "{list}");
        let puzzles = list["puzzles"].as_array().unwrap();
        assert!(puzzles.len() >= 300, "{size}: {} puzzles", puzzles.len());
        let prefix = format!("{size}-");
        assert!(puzzles
            .iter()
            .all(|p| p["id"].as_str().unwrap().starts_with(&prefix)));
        // The easiest puzzle's answer, as the solution route gives it, is judged right.
        let id = puzzles[0]["id"].as_str().unwrap();
        let (_, solution) = gui.post("/api/puzzle/solution", json!({"id": id}));
        let answer = solution["answer"].as_str().unwrap();
        let (status, judged) = judge(&gui, id, &[answer]);
        assert_eq!(status, 200, "{judged}");
        assert!(
            matches!(judged["verdict"].as_str(), Some("right" | "solved")),
            "{judged}"
        );
    }
}

#[test]
fn the_answer_is_right_and_the_engine_defends_along_the_line() {
    let gui = start();
    let (status, answer) = judge(&gui, "8-0004", &["f4xd6"]);
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["verdict"], "right");
    assert_eq!(answer["reply"], "a1-f1");
    assert_eq!(answer["left"], 3);
    let line = [
        "f4xd6", "a1-f1", "d6-c6", "f1-f7", "c6-c4", "g6-a6", "c4xf7",
    ];
    let (_, answer) = judge(&gui, "8-0004", &line[..5]);
    assert_eq!(
        (&answer["verdict"], &answer["reply"]),
        (&json!("right"), &json!("g6-a6"))
    );
    let (_, answer) = judge(&gui, "8-0004", &line);
    assert_eq!(answer["verdict"], "solved", "{answer}");
    let (_, solution) = gui.post("/api/puzzle/solution", json!({"id": "8-0004"}));
    assert_eq!(solution["answer"], "f4xd6");
    assert_eq!(solution["line"], json!(line));
}

#[test]
fn a_wrong_first_move_gets_a_refutation_that_holds() {
    let gui = start();
    let lfen = lfen_of(&gui, "8-0004");
    for wrong in ["a3-a7", "f2-f6", "f4-f6"] {
        let (status, answer) = judge(&gui, "8-0004", &[wrong]);
        assert_eq!(status, 200, "{answer}");
        assert_eq!(answer["verdict"], "wrong", "{wrong}: {answer}");
        let reply = answer["reply"]
            .as_str()
            .unwrap_or_else(|| panic!("{answer}"));
        let text = answer["text"].as_str().unwrap();
        assert!(text.starts_with("Wrong: Blue answers"), "{text}");
        assert!(!text.contains('\n'), "{text}");
        // After the refutation Red, to move, has no win within the 3 moves left.
        let proof = solve(&format!("{lfen} moves {wrong} {reply}"));
        let within = proof
            .strip_prefix("win in ")
            .and_then(|rest| rest.split(' ').next()?.parse::<u32>().ok());
        assert!(within.is_none_or(|n| n > 3), "{wrong} {reply}: {proof}");
    }
    // A wrong move the defender punishes at once, or by a quick win shown whole.
    let (_, answer) = judge(&gui, "8-0003", &["e3-f3"]);
    assert_eq!(answer["reply"], "c3xb3", "{answer}");
    assert!(
        answer["text"]
            .as_str()
            .unwrap()
            .ends_with("and wins at once."),
        "{answer}"
    );
    let (_, answer) = judge(&gui, "8-0002", &["h3-a3"]);
    assert!(
        answer["text"].as_str().unwrap().ends_with("and wins in 2."),
        "{answer}"
    );
    let mut moves = vec![json!("h3-a3"), answer["reply"].clone()];
    moves.extend(answer["continuation"].as_array().unwrap().iter().cloned());
    assert_eq!(moves.len(), 4, "{answer}");
    let start = lfen_of(&gui, "8-0002");
    let (_, position) = gui.post("/api/position", json!({"start": start, "moves": moves}));
    assert_eq!(position["winner"], "Red", "{moves:?}");
    // Bearing off one's own king loses at once: no refutation needed.
    let (_, answer) = judge(&gui, "8-0004", &["a3-off"]);
    assert_eq!(answer["verdict"], "wrong");
    assert_eq!(answer["reply"], Value::Null);
    assert!(
        answer["text"].as_str().unwrap().contains("own king"),
        "{answer}"
    );
}

/// Plays puzzle `id` from `moves` to its end: each engine reply as the server gives it, each
/// player move the first of `lielow solve`'s line; every move must be judged right, then solved.
fn play_to_the_end(gui: &Gui, id: &str, mut moves: Vec<String>) {
    let lfen = lfen_of(gui, id);
    loop {
        let texts: Vec<&str> = moves.iter().map(String::as_str).collect();
        let (status, answer) = judge(gui, id, &texts);
        assert_eq!(status, 200, "{texts:?}: {answer}");
        match answer["verdict"].as_str().unwrap() {
            "solved" => return,
            "right" => moves.push(answer["reply"].as_str().unwrap().to_owned()),
            _ => panic!("{texts:?}: {answer}"),
        }
        let proof = solve(&format!("{lfen} moves {}", moves.join(" ")));
        let best = proof
            .split(": ")
            .nth(1)
            .and_then(|line| line.split(' ').next());
        assert!(proof.starts_with("win in "), "{moves:?}: {proof}");
        moves.push(best.unwrap().to_owned());
    }
}

#[test]
fn a_second_winning_path_is_accepted_to_the_end() {
    let gui = start();
    // The line goes on d6-c6; f2-f6 wins in the moves left as well, and so does h4-h8, which
    // ends with the defender's forced bear-off of its own king.
    for second in ["f2-f6", "h4-h8"] {
        let (_, answer) = judge(&gui, "8-0004", &["f4xd6", "a1-f1", second]);
        assert_eq!(answer["verdict"], "right", "{second}: {answer}");
        play_to_the_end(
            &gui,
            "8-0004",
            vec!["f4xd6".into(), "a1-f1".into(), second.into()],
        );
    }
    // A later move that no longer wins in time is wrong, with its refutation.
    let (_, answer) = judge(&gui, "8-0004", &["f4xd6", "a1-f1", "f2-b2"]);
    assert_eq!(answer["verdict"], "wrong", "{answer}");
    assert!(answer["reply"].is_string(), "{answer}");
}

#[test]
fn malformed_requests_are_refused_with_one_line() {
    let gui = start();
    let refused = |path: &str, body: Value, status: u16, expect: &str| {
        let (got, answer) = gui.post(path, body.clone());
        let error = answer["error"].as_str().unwrap_or_default();
        assert_eq!(got, status, "{body}: {answer}");
        assert!(
            error.contains(expect) && !error.contains('\n'),
            "{body}: {error}"
        );
    };
    let judge = "/api/puzzle/move";
    refused(
        judge,
        json!({"id": "8-9999", "moves": ["a1-a2"]}),
        404,
        "no puzzle '8-9999'",
    );
    refused(
        judge,
        json!({"id": "8-0004", "moves": []}),
        400,
        "odd number",
    );
    refused(
        judge,
        json!({"id": "8-0004", "moves": ["f4xd6", "a1-f1"]}),
        400,
        "odd number",
    );
    refused(
        judge,
        json!({"id": "8-0004", "moves": ["a1-a2"]}),
        400,
        "move 1 'a1-a2'",
    );
    refused(
        judge,
        json!({"id": "8-0004", "moves": ["f4-f6", "a1-f1", "h4-h8"]}),
        400,
        "not the answer",
    );
    let too_many = [
        "f4xd6", "a1-f1", "d6-c6", "f1-f7", "c6-c4", "g6-a6", "c4xf7", "x", "y",
    ];
    refused(
        judge,
        json!({"id": "8-0004", "moves": too_many}),
        400,
        "at most 7 moves",
    );
    refused(
        judge,
        json!({"id": "8-0004", "moves": "f4xd6"}),
        400,
        "invalid type",
    );
    refused(judge, json!({"id": 4, "moves": []}), 400, "invalid type");
    refused(
        judge,
        json!({"id": "8-0004", "move": "f4xd6"}),
        400,
        "unknown field",
    );
    refused(
        "/api/puzzles",
        json!({"size": 7}),
        400,
        "size must be 8 or 9",
    );
    refused("/api/puzzles", json!({}), 400, "missing field `size`");
    refused(
        "/api/puzzle/solution",
        json!({"id": "8-0004", "moves": ["f4xd6"]}),
        400,
        "id alone",
    );
    refused(
        "/api/puzzle/solution",
        json!({"id": "nothing"}),
        404,
        "no puzzle",
    );
    let (status, answer) = gui.request("POST", judge, "{\"id\": ", &[]);
    assert_eq!(status, 400);
    assert!(answer.contains("not JSON"), "{answer}");
}

#[test]
fn a_bad_puzzle_file_stops_the_gui_with_its_line() {
    let dir = support::scratch("gui-puzzles");
    let bad = dir.join("bad.txt");
    std::fs::write(
        &bad,
        "# lielow puzzles {}\n8-0001 ; 8/8/8/8/8/8/8/8 b ; a1-a2 ; a1-a2 ; 1 ; 900 ; x\n",
    )
    .unwrap();
    for (file, expect) in [
        (bad.display().to_string(), "bad.txt: line 2: "),
        (dir.join("none.txt").display().to_string(), "none.txt: "),
    ] {
        let output = lielow(&["gui", "--port", "0", "--puzzles", &file]);
        assert_eq!(output.status.code(), Some(2));
        let error = String::from_utf8(output.stderr).unwrap();
        assert!(
            error.starts_with("lielow gui: --puzzles ") && error.contains(expect),
            "{error}"
        );
        assert_eq!(error.lines().count(), 1, "{error}");
    }
    // Two files with the same id.
    let output = lielow(&[
        "gui",
        "--port",
        "0",
        "--puzzles",
        PUZZLES,
        "--puzzles",
        PUZZLES,
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8(output.stderr)
        .unwrap()
        .contains("given twice"));
}
