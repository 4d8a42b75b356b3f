//! `lielow gui`'s server through HTTP: the checks every request passes, the JSON API, and the
//! engines behind it (the real one, and broken ones from tests/engines/).

mod support;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use support::lielow_command;

const BROKEN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/engines/broken.sh");
const START: &str = "8/r1r1r1r1r1r1r1r1/8/8/8/8/b1b1b1b1b1b1b1b1/8 b";

/// A running `lielow gui`, killed when dropped.
struct Gui {
    child: Child,
    port: u16,
}

impl Gui {
    fn start(engines: &[&str]) -> Gui {
        let mut args = vec!["gui", "--port", "0"];
        for engine in engines {
            args.extend(["--engine", engine]);
        }
        let mut child = lielow_command()
            .args(&args)
            .stdout(Stdio::piped())
            .spawn()
            .expect("start lielow gui");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let port = line
            .trim()
            .trim_end_matches('/')
            .rsplit(':')
            .next()
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("first line {line:?}"));
        Gui { child, port }
    }

    /// (status, JSON body) of a request with these headers.
    fn request(
        &self,
        method: &str,
        path: &str,
        body: &str,
        headers: &[(&str, &str)],
    ) -> (u16, String) {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        let mut head = format!(
            "{method} {path} HTTP/1.1\r\nContent-Length: {}\r\nConnection: close\r\n",
            body.len()
        );
        let has_host = headers.iter().any(|(name, _)| *name == "Host");
        if !has_host {
            head += &format!("Host: 127.0.0.1:{}\r\n", self.port);
        }
        for (name, value) in headers {
            head += &format!("{name}: {value}\r\n");
        }
        head += "\r\n";
        stream.write_all(head.as_bytes()).unwrap();
        let _ = stream.write_all(body.as_bytes());
        let mut reader = BufReader::new(stream);
        let mut status_line = String::new();
        reader.read_line(&mut status_line).unwrap();
        let status = status_line
            .split_whitespace()
            .nth(1)
            .unwrap()
            .parse()
            .unwrap();
        let mut length = 0;
        loop {
            let mut line = String::new();
            reader.read_line(&mut line).unwrap();
            if line.trim().is_empty() {
                break;
            }
            if let Some((name, value)) = line.split_once(':') {
                if name.eq_ignore_ascii_case("content-length") {
                    length = value.trim().parse().unwrap();
                }
            }
        }
        let mut text = vec![0; length];
        reader.read_exact(&mut text).unwrap();
        (status, String::from_utf8(text).unwrap())
    }

    fn post(&self, path: &str, body: Value) -> (u16, Value) {
        let (status, text) = self.request("POST", path, &body.to_string(), &[]);
        (status, serde_json::from_str(&text).unwrap())
    }

    /// The events of `session` until one satisfies `done` (or 20 s pass).
    fn events_until(&self, session: &str, done: impl Fn(&Value) -> bool) -> Vec<Value> {
        let started = Instant::now();
        let mut after = 0;
        let mut seen = Vec::new();
        while started.elapsed() < Duration::from_secs(20) {
            let (status, text) = self.request(
                "GET",
                &format!("/api/events?session={session}&after={after}"),
                "",
                &[],
            );
            assert_eq!(status, 200, "{text}");
            let answer: Value = serde_json::from_str(&text).unwrap();
            for item in answer["events"].as_array().unwrap() {
                after = item["n"].as_u64().unwrap();
                seen.push(item["event"].clone());
                if done(&item["event"]) {
                    return seen;
                }
            }
        }
        panic!("no awaited event in {seen:?}");
    }
}

impl Drop for Gui {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

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
    let (status, answer) = gui.post(
        "/api/go",
        json!({"session": "x", "start": START, "limits": {"movetime": 10}}),
    );
    assert_eq!(status, 400, "{answer}");
    let session = "abcdefgh01";
    let (status, answer) = gui.post(
        "/api/go",
        json!({"session": session, "start": START, "limits": {}}),
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
            json!({"session": session, "start": START, "limits": limits}),
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
    let session = "realengine01";
    let (status, _) = gui.post(
        "/api/go",
        json!({"session": session, "engine": 0, "start": START, "moves": ["g2-f3"],
               "limits": {"movetime": 100}, "multipv": 2, "search": 7}),
    );
    assert_eq!(status, 200);
    let events = gui.events_until(session, |e| e["type"] == "bestmove");
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
        json!({"session": session, "start": START, "limits": {"infinite": true}, "search": 8}),
    );
    assert_eq!(status, 200);
    gui.events_until(session, |e| e["type"] == "info" && e["search"] == 8);
    gui.post("/api/stop", json!({"session": session, "engine": 0}));
    gui.events_until(session, |e| e["type"] == "bestmove" && e["search"] == 8);
}

#[test]
fn broken_engines_give_a_message_not_a_stuck_page() {
    let illegal = format!("{BROKEN} illegal");
    let exits = format!("{BROKEN} exit");
    let gui = Gui::start(&[&illegal, &exits]);
    let session = "brokenengine1";
    // An illegal move reaches the page as it is: the page checks it against the legal moves.
    gui.post("/api/go", json!({"session": session, "engine": 0, "start": START, "limits": {"movetime": 50}, "search": 1}));
    let events = gui.events_until(session, |e| e["type"] == "bestmove");
    assert_eq!(events.last().unwrap()["move"], "a1-a2");
    // An engine that exits mid-game: an error event, then it is started again.
    gui.post("/api/go", json!({"session": session, "engine": 1, "start": START, "limits": {"movetime": 50}, "search": 2}));
    gui.events_until(session, |e| e["type"] == "bestmove" && e["search"] == 2);
    gui.post("/api/go", json!({"session": session, "engine": 1, "start": START, "moves": ["a2-a3", "a7-a6"], "limits": {"movetime": 50}, "search": 3}));
    let events = gui.events_until(session, |e| e["type"] == "error");
    let message = events.last().unwrap()["message"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(message.contains("exited"), "{message}");
    gui.post("/api/go", json!({"session": session, "engine": 1, "start": START, "limits": {"movetime": 50}, "search": 4}));
    let events = gui.events_until(session, |e| e["type"] == "bestmove" && e["search"] == 4);
    assert_eq!(events.last().unwrap()["move"], "a2-a3");
}

#[test]
fn a_hung_engine_is_stopped_and_reported() {
    let hang = format!("{BROKEN} hang");
    let gui = Gui::start(&[&hang]);
    let session = "hungengine01";
    let asked = Instant::now();
    gui.post(
        "/api/go",
        json!({"session": session, "start": START, "limits": {"movetime": 50}, "search": 1}),
    );
    let events = gui.events_until(session, |e| e["type"] == "error");
    let message = events.last().unwrap()["message"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(message.contains("stopped answering"), "{message}");
    // Reported a few seconds past its budget, not never.
    assert!(asked.elapsed() < Duration::from_secs(15));
}

/// The processes whose parent is `pid`.
fn children_of(pid: u32) -> Vec<u32> {
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(Result::ok)
        .filter_map(|entry| entry.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&child| {
            std::fs::read_to_string(format!("/proc/{child}/stat"))
                .ok()
                .and_then(|stat| {
                    stat.rsplit(')')
                        .next()?
                        .split_whitespace()
                        .nth(1)?
                        .parse::<u32>()
                        .ok()
                })
                == Some(pid)
        })
        .collect()
}

/// Whether process `pid` still runs (a zombie does not).
fn runs(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        !stat
            .rsplit(')')
            .next()
            .unwrap_or("")
            .trim_start()
            .starts_with('Z')
    })
}

/// Waits until process `pid` is gone, at most `limit` after `started`.
fn wait_until_gone(pid: u32, started: Instant, limit: Duration, what: &str) {
    while runs(pid) {
        assert!(started.elapsed() < limit, "the engine outlived {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_page_that_goes_away_has_its_engine_ended() {
    let gui = Gui::start(&[]);
    let session = "closedtab001";
    // An analysis that would run forever, then the page stops asking (its tab was closed).
    gui.post(
        "/api/go",
        json!({"session": session, "start": START, "limits": {"infinite": true}, "search": 1}),
    );
    gui.events_until(session, |e| e["type"] == "info");
    let engines = children_of(gui.child.id());
    assert_eq!(engines.len(), 1, "one engine process: {engines:?}");
    let started = Instant::now();
    wait_until_gone(engines[0], started, Duration::from_secs(20), "its page");
    // Gone after the page's 8 s of silence, not at once.
    assert!(
        started.elapsed() > Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn ctrl_c_ends_the_server_and_its_engines() {
    use nix::sys::signal::{kill, Signal};
    use nix::unistd::Pid;
    let mut gui = Gui::start(&[]);
    let session = "ctrlcpage001";
    gui.post(
        "/api/go",
        json!({"session": session, "start": START, "limits": {"infinite": true}, "search": 1}),
    );
    gui.events_until(session, |e| e["type"] == "info");
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
    let session = "replacing001";
    gui.post(
        "/api/go",
        json!({"session": session, "start": START, "limits": {"infinite": true}, "search": 1}),
    );
    gui.events_until(session, |e| e["type"] == "info");
    // Stepping to another position while analysing: the next search starts at once.
    let asked = Instant::now();
    gui.post("/api/go", json!({"session": session, "start": START, "moves": ["g2-f3"], "limits": {"movetime": 50}, "search": 2}));
    gui.events_until(session, |e| e["type"] == "bestmove" && e["search"] == 2);
    assert!(
        asked.elapsed() < Duration::from_secs(3),
        "{:?}",
        asked.elapsed()
    );
}
