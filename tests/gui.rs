//! `lielow gui`'s server through HTTP: the checks every request passes, the JSON API, the
//! pages' sessions and the engines behind them (the real one, and broken ones from
//! tests/engines/).

mod gui_support;
mod support;

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use gui_support::*;
use serde_json::{json, Value};

#[test]
fn the_page_and_the_api_refuse_other_sites_and_bad_input() {
    let gui = Gui::start(&[]);
    let (status, page) = gui.request("GET", "/", "", &[]);
    assert_eq!(status, 200);
    assert!(page.contains("<script src=\"/app.js\">"));
    let (status, engines) = gui.request("GET", "/api/engines", "", &[]);
    assert_eq!(
        (status, engines.as_str()),
        (200, r#"{"engines":["lielow"]}"#)
    );
    // Another site, by its Host (DNS rebinding) or by its Origin (a page elsewhere).
    let (status, _) = gui.request("GET", "/api/engines", "", &[("Host", "evil.example:80")]);
    assert_eq!(status, 403);
    let (status, _) = gui.request(
        "POST",
        "/api/position",
        "{}",
        &[("Origin", "http://evil.example")],
    );
    assert_eq!(status, 403);
    let own = format!("http://127.0.0.1:{}", gui.port);
    let body = json!({"start": START, "moves": []}).to_string();
    let (status, _) = gui.request("POST", "/api/position", &body, &[("Origin", &own)]);
    assert_eq!(status, 200);
    // Bad input: one clear message each, never a crash.
    for (body, expect) in [
        (json!({"start": "8/8 b"}), "bad LFEN"),
        (
            json!({"start": START, "moves": ["a2-a4"]}),
            "move 1 'a2-a4'",
        ),
        (
            json!({"start": START, "moves": "g2-f3"}),
            "'moves' must be a list",
        ),
        (json!({"moves": []}), "no 'start'"),
        // Each body is a type: an unknown field or a wrong type is refused, not ignored.
        (
            json!({"start": START, "flipped": true}),
            "unknown field `flipped`",
        ),
        (json!({"start": START, "flip": "yes"}), "invalid type"),
        (
            json!({"start": START, "moves": [1]}),
            "'moves' must be a list",
        ),
        (json!("start"), "invalid type"),
    ] {
        let (status, answer) = gui.post("/api/position", body);
        assert_eq!(status, 400);
        assert!(
            answer["error"].as_str().unwrap().contains(expect),
            "{answer}"
        );
    }
    // A session is opened only by a page's event stream, never by naming one.
    let (status, answer) = gui.post(
        "/api/go",
        json!({"session": "abcdefgh01", "engine": 0, "start": START, "limits": {"movetime": 10}}),
    );
    assert_eq!(status, 404, "{answer}");
    assert!(
        answer["error"].as_str().unwrap().contains("no session"),
        "{answer}"
    );
    let page = gui.open_page();
    let session = page.session.as_str();
    let (status, answer) = gui.post(
        "/api/go",
        json!({"session": session, "engine": 0, "start": START, "limits": {}}),
    );
    assert_eq!(status, 400);
    assert!(
        answer["error"].as_str().unwrap().contains("limits"),
        "{answer}"
    );
    let (status, answer) = gui.post(
        "/api/go",
        json!({"session": session, "engine": 5, "start": START, "limits": {"depth": 2}}),
    );
    assert_eq!(status, 400, "{answer}");
    for limits in [
        json!({"depth": 0}),
        json!({"depth": "deep"}),
        json!({"time": 5}),
    ] {
        let (status, answer) = gui.post(
            "/api/go",
            json!({"session": session, "engine": 0, "start": START, "limits": limits}),
        );
        assert_eq!(status, 400, "{limits}: {answer}");
    }
    let (status, answer) = gui.request("POST", "/api/stop", "{\"session\": ", &[]);
    assert_eq!(status, 400);
    assert!(answer.contains("not JSON"), "{answer}");
    let huge = format!("{{\"start\": \"{}\"}}", "x".repeat(70_000));
    let (status, _) = gui.request("POST", "/api/position", &huge, &[]);
    assert_eq!(status, 413);
    let (status, _) = gui.request("GET", "/nothing", "", &[]);
    assert_eq!(status, 404);
    // The position answer: the picture, the legal moves, whose move it is.
    let (status, answer) = gui.post(
        "/api/position",
        json!({"start": START, "moves": ["g2-f3"], "flip": true}),
    );
    assert_eq!(status, 200);
    assert_eq!(answer["side"], "Red");
    assert_eq!(answer["legal"].as_array().unwrap().len(), 46);
    assert!(answer["svg"]
        .as_str()
        .unwrap()
        .contains("class=\"last-move\""));
}

#[test]
fn a_search_streams_its_lines_and_a_legal_bestmove() {
    let gui = Gui::start(&[]);
    let mut page = gui.open_page();
    let session = page.session.clone();
    let (status, _) = gui.post(
        "/api/go",
        json!({"session": session, "engine": 0, "start": START, "moves": ["g2-f3"],
               "limits": {"movetime": 100}, "multipv": 2, "search": 7}),
    );
    assert_eq!(status, 200);
    let events = page.events_until(|e| e["type"] == "bestmove");
    let infos: Vec<&Value> = events.iter().filter(|e| e["type"] == "info").collect();
    assert!(infos.iter().any(|e| e["multipv"] == 2), "{events:?}");
    assert!(infos.iter().all(|e| e["search"] == 7));
    let best = events.last().unwrap()["move"].as_str().unwrap().to_owned();
    let (status, answer) = gui.post(
        "/api/position",
        json!({"start": START, "moves": ["g2-f3", best]}),
    );
    assert_eq!(status, 200, "the engine's move is legal: {answer}");
    // Analysis runs until stopped.
    let (status, _) = gui.post(
        "/api/go",
        json!({"session": session, "engine": 0, "start": START, "limits": {"infinite": true}, "search": 8}),
    );
    assert_eq!(status, 200);
    page.events_until(|e| e["type"] == "info" && e["search"] == 8);
    gui.post("/api/stop", json!({"session": session, "engine": 0}));
    page.events_until(|e| e["type"] == "bestmove" && e["search"] == 8);
}

#[test]
fn broken_engines_give_a_message_not_a_stuck_page() {
    let illegal = format!("{BROKEN} illegal");
    let exits = format!("{BROKEN} exit");
    let gui = Gui::start(&[&illegal, &exits]);
    let mut page = gui.open_page();
    let session = page.session.clone();
    // An illegal move reaches the page as it is: the page checks it against the legal moves.
    gui.post("/api/go", json!({"session": session, "engine": 0, "start": START, "limits": {"movetime": 50}, "search": 1}));
    let events = page.events_until(|e| e["type"] == "bestmove");
    assert_eq!(events.last().unwrap()["move"], "a1-a2");
    // An engine that exits mid-game: an error event, then it is started again.
    gui.post("/api/go", json!({"session": session, "engine": 1, "start": START, "limits": {"movetime": 50}, "search": 2}));
    page.events_until(|e| e["type"] == "bestmove" && e["search"] == 2);
    gui.post("/api/go", json!({"session": session, "engine": 1, "start": START, "moves": ["a2-a3", "a7-a6"], "limits": {"movetime": 50}, "search": 3}));
    let events = page.events_until(|e| e["type"] == "error");
    let message = events.last().unwrap()["message"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(message.contains("exited"), "{message}");
    gui.post("/api/go", json!({"session": session, "engine": 1, "start": START, "limits": {"movetime": 50}, "search": 4}));
    let events = page.events_until(|e| e["type"] == "bestmove" && e["search"] == 4);
    assert_eq!(events.last().unwrap()["move"], "a2-a3");
}

#[test]
fn a_hung_engine_is_stopped_and_reported() {
    let hang = format!("{BROKEN} hang");
    let gui = Gui::start(&[&hang]);
    let mut page = gui.open_page();
    let session = page.session.clone();
    let asked = Instant::now();
    gui.post(
        "/api/go",
        json!({"session": session, "engine": 0, "start": START, "limits": {"movetime": 50}, "search": 1}),
    );
    let events = page.events_until(|e| e["type"] == "error");
    let message = events.last().unwrap()["message"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(message.contains("stopped answering"), "{message}");
    // Reported a few seconds past its budget, not never.
    assert!(asked.elapsed() < Duration::from_secs(15));
}

#[test]
fn a_page_that_goes_away_has_its_engine_ended() {
    let gui = Gui::start(&[]);
    let mut page = gui.open_page();
    let session = page.session.clone();
    // An analysis that would run forever, then the page's tab is closed.
    gui.post(
        "/api/go",
        json!({"session": session, "engine": 0, "start": START, "limits": {"infinite": true}, "search": 1}),
    );
    page.events_until(|e| e["type"] == "info");
    let engines = children_of(gui.child.id());
    assert_eq!(engines.len(), 1, "one engine process: {engines:?}");
    let started = Instant::now();
    drop(page);
    // Gone as soon as the stream closes, not after some silence.
    wait_until_gone(engines[0], started, Duration::from_secs(3), "its page");
    let (status, answer) = gui.post("/api/stop", json!({"session": session, "engine": 0}));
    assert_eq!(status, 404, "the session ended with its page: {answer}");
}

#[test]
fn a_person_who_thinks_still_gets_the_engines_move_at_once() {
    let gui = Gui::start(&[]);
    let mut page = gui.open_page();
    let session = page.session.clone();
    let go = |search: u64, moves: Value| {
        gui.post(
            "/api/go",
            json!({"session": session, "engine": 0, "start": START,
            "moves": moves, "limits": {"movetime": 100}, "search": search}),
        )
    };
    go(1, json!(["g2-f3"]));
    page.events_until(|e| e["type"] == "bestmove" && e["search"] == 1);
    let engine = children_of(gui.child.id());
    // Longer than the old server's 8 s of silence that ended a page.
    std::thread::sleep(Duration::from_secs(10));
    let asked = Instant::now();
    let (status, answer) = go(2, json!(["g2-f3", "b7-b6"]));
    assert_eq!(status, 200, "{answer}");
    page.events_until(|e| e["type"] == "bestmove" && e["search"] == 2);
    assert!(
        asked.elapsed() < Duration::from_secs(2),
        "{:?}",
        asked.elapsed()
    );
    assert_eq!(
        children_of(gui.child.id()),
        engine,
        "the same engine process"
    );
}

/// The page's level reaches the engine as its `Skill Level`: level 0 searches depth 1 and its
/// nine lines; the next search without a level is at full strength again (one line, deeper).
#[test]
fn a_level_is_the_engines_skill_level_for_that_search() {
    let gui = Gui::start(&[]);
    let mut page = gui.open_page();
    let session = page.session.clone();
    let mut search = |id: u64, skill: Option<u64>| {
        let mut body = json!({"session": session, "engine": 0, "start": START,
            "limits": {"movetime": 200}, "search": id});
        if let Some(skill) = skill {
            body["skill"] = json!(skill);
        }
        let (status, answer) = gui.post("/api/go", body);
        assert_eq!(status, 200, "{answer}");
        let events = page.events_until(|e| e["type"] == "bestmove" && e["search"] == id);
        events
            .into_iter()
            .filter(|e| e["type"] == "info" && e["search"] == id)
            .collect::<Vec<Value>>()
    };
    let weak = search(1, Some(0));
    assert!(weak.iter().any(|e| e["multipv"] == 9), "{weak:?}");
    assert!(weak.iter().all(|e| e["depth"] == 1), "{weak:?}");
    let full = search(2, None);
    assert!(full.iter().all(|e| e["multipv"] == 1), "{full:?}");
    assert!(
        full.iter().any(|e| e["depth"].as_u64() > Some(1)),
        "{full:?}"
    );
}

#[test]
fn requests_of_the_wrong_type_are_refused_and_sessions_are_bounded() {
    let gui = Gui::start(&[]);
    let mut pages = vec![gui.open_page()];
    let session = pages[0].session.clone();
    for (field, value, expect) in [
        ("engine", json!("0"), "invalid type"),
        ("engine", json!(-1), "invalid value"),
        ("engine", json!(1.5), "invalid type"),
        ("engine", json!(1), "no engine 1"),
        ("multipv", json!(1000), "multipv must be 1 to 32"),
        ("multipv", json!(0), "multipv must be 1 to 32"),
        ("skill", json!(21), "skill must be 0 to 20"),
        ("skill", json!(-1), "invalid value"),
        ("colour", json!("blue"), "unknown field `colour`"),
    ] {
        let mut body = json!({"session": session, "engine": 0, "start": START,
            "limits": {"movetime": 10}});
        body[field] = value.clone();
        let (status, answer) = gui.post("/api/go", body);
        assert_eq!(status, 400, "{field} {value}: {answer}");
        assert!(
            answer["error"].as_str().unwrap().contains(expect),
            "{answer}"
        );
    }
    let (status, answer) = gui.post("/api/stop", json!({"session": session}));
    assert_eq!(status, 400, "{answer}");
    assert!(answer["error"]
        .as_str()
        .unwrap()
        .contains("missing field `engine`"));
    // Nothing of that started an engine, nor did naming sessions that were never opened.
    for n in 0..20 {
        let (status, _) = gui.post(
            "/api/go",
            json!({"session": format!("madeup{n:04}"),
            "engine": 0, "start": START, "limits": {"movetime": 10}}),
        );
        assert_eq!(status, 404);
    }
    assert!(children_of(gui.child.id()).is_empty());
    while pages.len() < 16 {
        pages.push(gui.open_page());
    }
    let (status, text) = gui.request("GET", "/api/events", "", &[]);
    assert_eq!(status, 429, "{text}");
    // A closed page frees its place.
    pages.pop();
    let started = Instant::now();
    loop {
        let (status, _) = gui.request("GET", "/api/engines", "", &[]);
        assert_eq!(status, 200);
        let mut stream = TcpStream::connect(("127.0.0.1", gui.port)).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(5)))
            .unwrap();
        let head = format!(
            "GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n\r\n",
            gui.port
        );
        stream.write_all(head.as_bytes()).unwrap();
        let mut status_line = String::new();
        BufReader::new(stream).read_line(&mut status_line).unwrap();
        if status_line.contains(" 200 ") {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(3), "{status_line}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn ctrl_c_ends_the_server_and_its_engines() {
    use nix::sys::signal::{kill, Signal};
    use nix::unistd::Pid;
    let mut gui = Gui::start(&[]);
    let mut page = gui.open_page();
    let session = page.session.clone();
    gui.post(
        "/api/go",
        json!({"session": session, "engine": 0, "start": START, "limits": {"infinite": true}, "search": 1}),
    );
    page.events_until(|e| e["type"] == "info");
    let engines = children_of(gui.child.id());
    assert_eq!(engines.len(), 1);
    kill(Pid::from_raw(gui.child.id() as i32), Signal::SIGINT).unwrap();
    let started = Instant::now();
    let status = loop {
        if let Some(status) = gui.child.try_wait().unwrap() {
            break status;
        }
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "the server ignored Ctrl-C"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(130));
    // The engine was this test's grandchild: once orphaned, init reaps it.
    wait_until_gone(engines[0], started, Duration::from_secs(5), "the server");
}

#[test]
fn a_new_search_replaces_a_running_one_at_once() {
    let gui = Gui::start(&[]);
    let mut page = gui.open_page();
    let session = page.session.clone();
    gui.post(
        "/api/go",
        json!({"session": session, "engine": 0, "start": START, "limits": {"infinite": true}, "search": 1}),
    );
    page.events_until(|e| e["type"] == "info");
    // Stepping to another position while analysing: the next search starts at once.
    let asked = Instant::now();
    gui.post("/api/go", json!({"session": session, "engine": 0, "start": START, "moves": ["g2-f3"], "limits": {"movetime": 50}, "search": 2}));
    page.events_until(|e| e["type"] == "bestmove" && e["search"] == 2);
    assert!(
        asked.elapsed() < Duration::from_secs(3),
        "{:?}",
        asked.elapsed()
    );
}

fn apgame_fixture(name: &str) -> String {
    let path = format!(
        "{}/tests/fixtures/apgame/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(path).unwrap()
}

#[test]
fn load_reads_every_format_and_save_writes_what_load_reads_back() {
    let gui = Gui::start(&[]);
    // Abstract Play records: three games, their players, results and header.
    let text = apgame_fixture("lielow-9x9.json");
    let (status, loaded) = gui.post("/api/load", json!({ "text": text }));
    assert_eq!(status, 200, "{loaded}");
    assert_eq!(loaded["format"], "Abstract Play records");
    let games = loaded["games"].as_array().unwrap();
    assert_eq!(games.len(), 3);
    assert_eq!(games[0]["blue"], "carol");
    assert_eq!(
        games[0]["result"],
        json!({"winner": "Blue", "reason": "king-captured"})
    );
    assert_eq!(games[1]["result"], Value::Null);
    assert!(games[1]["tags"]
        .as_array()
        .unwrap()
        .contains(&json!(["ending", "resign"])));
    // Saved as an Abstract Play record, a record line and PGN, each loads back the same game.
    for (format, wanted) in [
        ("apgame", "Abstract Play records"),
        ("record", "lielow records"),
        ("pgn", "PGN"),
    ] {
        let (status, saved) = gui.post("/api/save", json!({ "format": format, "game": games[0] }));
        assert_eq!(status, 200, "{saved}");
        let (status, again) = gui.post("/api/load", json!({ "text": saved["text"] }));
        assert_eq!(
            (status, again["format"].as_str()),
            (200, Some(wanted)),
            "{again}"
        );
        let game = &again["games"][0];
        for field in ["start", "moves", "result", "blue", "red"] {
            assert_eq!(game[field], games[0][field], "{format}: {field}");
        }
    }
    // A resigned game saves with its ending; an unfinished one as "LFEN moves ...".
    let (_, saved) = gui.post("/api/save", json!({ "format": "apgame", "game": games[1] }));
    let (_, again) = gui.post("/api/load", json!({ "text": saved["text"] }));
    assert_eq!(again["games"][0]["tags"], games[1]["tags"]);
    let unfinished = json!({ "start": START, "moves": ["a2-a3"] });
    let (_, saved) = gui.post(
        "/api/save",
        json!({ "format": "record", "game": unfinished }),
    );
    assert_eq!(saved["text"], format!("{START} moves a2-a3\n"));
    // A position, and "startpos moves ..." on the board asked for.
    let (status, position) = gui.post(
        "/api/load",
        json!({ "text": "startpos moves a1-b2", "size": 9 }),
    );
    assert_eq!(
        (status, position["format"].as_str()),
        (200, Some("position")),
        "{position}"
    );
    assert_eq!(position["games"][0]["moves"], json!(["a1-b2"]));
    // Bad input: a 400 with one line that says why (and where).
    let mut broken: Value = serde_json::from_str(&apgame_fixture("lielow-8x8.json")).unwrap();
    broken["moves"][2][0]["move"] = "c2-c5".into();
    for (body, wanted) in [
        (
            json!({ "text": broken.to_string() }),
            "game 1, ply 5 'c2-c5': a stack of height 1",
        ),
        (json!({ "text": "{\"header\": " }), "not JSON"),
        (json!({ "text": "  " }), "nothing to load"),
        (
            json!({ "text": "startpos", "size": 10 }),
            "size must be 8 or 9",
        ),
        (json!({ "text": "not a position" }), "bad LFEN"),
    ] {
        let (status, refusal) = gui.post("/api/load", body);
        let message = refusal["error"].as_str().unwrap();
        assert_eq!(status, 400, "{message}");
        assert!(
            message.contains(wanted) && !message.contains('\n'),
            "{message}"
        );
    }
    let lying = json!({ "start": START, "moves": ["a2-a3"], "result": {"winner": "Blue", "reason": "king-captured"} });
    let (status, refusal) = gui.post("/api/save", json!({ "format": "apgame", "game": lying }));
    assert_eq!(status, 400, "{refusal}");
    assert!(refusal["error"]
        .as_str()
        .unwrap()
        .contains("the game goes on"));
}
