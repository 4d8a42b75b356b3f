//! `lielow gui`'s server through HTTP: the checks every request passes, the JSON API, and the
//! engines behind it (the real one, and broken ones from tests/engines/).

mod support;

use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
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
        let mut command = lielow_command();
        command.args(&args);
        Gui::spawn(command)
    }

    /// The server with at most `limit` open descriptors (the shell's `ulimit -n`).
    fn start_with_descriptors(limit: u32) -> Gui {
        let mut command = std::process::Command::new("sh");
        command.args([
            "-c",
            &format!("ulimit -n {limit} && exec \"$0\" gui --port 0"),
            support::LIELOW,
        ]);
        Gui::spawn(command)
    }

    fn spawn(mut command: std::process::Command) -> Gui {
        let mut child = command
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

    /// Opens a page's event stream: its session.
    fn open_page(&self) -> Page {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .unwrap();
        let head = format!(
            "GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nAccept: text/event-stream\r\n\r\n",
            self.port
        );
        stream.write_all(head.as_bytes()).unwrap();
        let mut reader = BufReader::new(stream);
        let mut status_line = String::new();
        reader.read_line(&mut status_line).unwrap();
        assert!(status_line.contains(" 200 "), "{status_line}");
        let mut chunked = false;
        loop {
            let mut line = String::new();
            reader.read_line(&mut line).unwrap();
            if line.trim().is_empty() {
                break;
            }
            chunked |= line
                .to_ascii_lowercase()
                .starts_with("transfer-encoding: chunked");
        }
        assert!(chunked, "an HTTP/1.1 stream comes in chunks");
        let mut page = Page {
            reader,
            text: String::new(),
            session: String::new(),
        };
        let (kind, data) = page.next_event();
        assert_eq!(kind, "session");
        page.session = data["session"].as_str().unwrap().to_owned();
        page
    }
}

/// An open page: its event stream (server-sent events in HTTP chunks) and its session.
struct Page {
    reader: BufReader<TcpStream>,
    /// Text received and not yet taken as events.
    text: String,
    session: String,
}

impl Page {
    /// The next event: its kind (`message` unless named) and its JSON data.
    fn next_event(&mut self) -> (String, Value) {
        loop {
            if let Some(end) = self.text.find("\n\n") {
                let block: String = self.text.drain(..end + 2).collect();
                let mut kind = "message".to_owned();
                let mut data = String::new();
                for line in block.lines() {
                    if let Some(value) = line.strip_prefix("event:") {
                        kind = value.trim().to_owned();
                    } else if let Some(value) = line.strip_prefix("data:") {
                        data += value.trim_start();
                    }
                }
                if data.is_empty() {
                    continue; // a keep-alive comment
                }
                return (kind, serde_json::from_str(&data).unwrap());
            }
            let mut size = String::new();
            self.reader.read_line(&mut size).unwrap();
            let size = usize::from_str_radix(size.trim(), 16).unwrap();
            assert!(size > 0, "the stream ended");
            let mut chunk = vec![0; size + 2];
            self.reader.read_exact(&mut chunk).unwrap();
            self.text += std::str::from_utf8(&chunk[..size]).unwrap();
        }
    }

    /// The engines' events until one satisfies `done` (or 20 s pass).
    fn events_until(&mut self, done: impl Fn(&Value) -> bool) -> Vec<Value> {
        let started = Instant::now();
        let mut seen = Vec::new();
        while started.elapsed() < Duration::from_secs(20) {
            let (_, event) = self.next_event();
            seen.push(event.clone());
            if done(&event) {
                return seen;
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

/// The resident memory of process `pid`, in KiB.
fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// The CPU time process `pid` has used (all its threads), in clock ticks.
fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    let fields: Vec<&str> = stat
        .rsplit(')')
        .next()
        .unwrap()
        .split_whitespace()
        .collect();
    fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap()
}

/// A connection that has sent `text`, waiting at most `wait` for each read.
fn connection(gui: &Gui, text: &str, wait: Duration) -> TcpStream {
    let mut stream = TcpStream::connect(("127.0.0.1", gui.port)).unwrap();
    stream.set_read_timeout(Some(wait)).unwrap();
    stream.write_all(text.as_bytes()).unwrap();
    stream
}

/// Whether the server closes `stream` within `limit` (reading and dropping what it answers).
fn closed_within(mut stream: TcpStream, limit: Duration) -> bool {
    let started = Instant::now();
    let mut buffer = [0; 4096];
    while started.elapsed() < limit {
        match stream.read(&mut buffer) {
            Ok(0) => return true,
            Ok(_) => {}
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
            Err(_) => return true,
        }
    }
    false
}

/// The server answers `GET /` with its page.
fn serves_the_page(gui: &mut Gui) {
    assert!(gui.child.try_wait().unwrap().is_none(), "the server ended");
    let (status, page) = gui.request("GET", "/", "", &[]);
    assert_eq!(status, 200);
    assert!(page.contains("<script src=\"/app.js\">"));
}

#[test]
fn a_huge_declared_body_is_refused_without_reading_it() {
    let mut gui = Gui::start(&[]);
    let own = format!("127.0.0.1:{}", gui.port);
    for (request, host, expect) in [
        ("GET /", own.as_str(), " 200 "),
        ("GET /", "evil.example", " 403 "),
        ("POST /api/position", own.as_str(), " 413 "),
        ("POST /api/go", own.as_str(), " 413 "),
    ] {
        let text =
            format!("{request} HTTP/1.1\r\nHost: {host}\r\nContent-Length: 1000000000000\r\n\r\n");
        let stream = connection(&gui, &text, Duration::from_secs(5));
        let mut status_line = String::new();
        let read = BufReader::new(stream).read_line(&mut status_line);
        assert!(
            status_line.contains(expect),
            "{request} {host}: {status_line} {read:?}"
        );
        serves_the_page(&mut gui);
    }
    assert!(rss_kib(gui.child.id()) < 64 * 1024);
}

#[test]
fn slow_idle_and_oversized_heads_are_cut_off() {
    let mut gui = Gui::start(&[]);
    let host = format!("Host: 127.0.0.1:{}", gui.port);
    // Nothing at all, half a head, half a head with LF-only line endings: closed once the
    // head's time is up (5 s), not held forever.
    let started = Instant::now();
    let waiting: Vec<TcpStream> = [
        "",
        &format!("GET / HTTP/1.1\r\n{host}\r\n"),
        &format!("GET / HTTP/1.1\n{host}\n"),
    ]
    .iter()
    .map(|text| connection(&gui, text, Duration::from_millis(200)))
    .collect();
    for stream in waiting {
        assert!(closed_within(stream, Duration::from_secs(9)));
    }
    assert!(
        started.elapsed() > Duration::from_secs(4),
        "not before its time"
    );
    // A complete head with LF-only line endings is a request like another.
    let stream = connection(
        &gui,
        &format!("GET / HTTP/1.1\n{host}\nConnection: close\n\n"),
        Duration::from_secs(5),
    );
    let mut status_line = String::new();
    BufReader::new(stream).read_line(&mut status_line).unwrap();
    assert!(status_line.contains(" 200 "), "{status_line}");
    // Three heads of up to 100 MB: each cut off after the head buffer (64 KiB), memory bounded.
    let line = format!("X-Filler: {}\r\n", "y".repeat(1000));
    let senders: Vec<_> = (0..3)
        .map(|_| {
            let mut stream = connection(
                &gui,
                &format!("GET / HTTP/1.1\r\n{host}\r\n"),
                Duration::from_secs(5),
            );
            let line = line.clone();
            std::thread::spawn(move || {
                let mut sent = 0usize;
                while sent < 100_000_000 {
                    if stream.write_all(line.as_bytes()).is_err() {
                        return sent;
                    }
                    sent += line.len();
                }
                sent
            })
        })
        .collect();
    for sender in senders {
        let sent = sender.join().unwrap();
        assert!(
            sent < 10_000_000,
            "the server read {sent} bytes of one head"
        );
    }
    assert!(rss_kib(gui.child.id()) < 64 * 1024);
    serves_the_page(&mut gui);
}

#[test]
fn running_out_of_descriptors_waits_instead_of_exiting() {
    let mut gui = Gui::start_with_descriptors(64);
    // Twice the process's descriptors in idle connections (the kernel queues what it cannot
    // take yet).
    let idle: Vec<TcpStream> = (0..128)
        .map(|_| TcpStream::connect(("127.0.0.1", gui.port)).unwrap())
        .collect();
    std::thread::sleep(Duration::from_secs(2));
    assert!(gui.child.try_wait().unwrap().is_none(), "the server ended");
    drop(idle);
    let started = Instant::now();
    loop {
        let mut stream = TcpStream::connect(("127.0.0.1", gui.port)).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(3)))
            .unwrap();
        let head = format!(
            "GET / HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\n\r\n",
            gui.port
        );
        let _ = stream.write_all(head.as_bytes());
        let mut status_line = String::new();
        let _ = BufReader::new(stream).read_line(&mut status_line);
        if status_line.contains(" 200 ") {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(15),
            "no page after the flood"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    serves_the_page(&mut gui);
}

/// A legal game of up to `plies` plies: the first legal move each time.
fn some_game(gui: &Gui, plies: usize) -> Vec<String> {
    let mut moves: Vec<String> = Vec::new();
    while moves.len() < plies {
        let (_, answer) = gui.post("/api/position", json!({"start": START, "moves": moves}));
        let legal = answer["legal"].as_array().unwrap();
        let Some(first) = legal.first() else { break };
        moves.push(first.as_str().unwrap().to_owned());
    }
    moves
}

#[test]
fn reviews_are_bounded_and_end_with_their_client() {
    let gui = Gui::start(&[]);
    let moves = some_game(&gui, 200);
    assert!(moves.len() >= 60, "a long game: {}", moves.len());
    let (status, answer) = gui.post(
        "/api/review",
        json!({"start": START, "moves": moves, "movetime": 5000}),
    );
    assert_eq!(status, 400, "{answer}");
    assert!(
        answer["error"]
            .as_str()
            .unwrap()
            .contains("movetime must be 10 to 2000"),
        "{answer}"
    );
    let (status, answer) = gui.post(
        "/api/review",
        json!({"start": START, "moves": moves, "movetime": 2000}),
    );
    assert_eq!(status, 400, "{answer}");
    assert!(
        answer["error"]
            .as_str()
            .unwrap()
            .contains("more than 120 s"),
        "{answer}"
    );
    // Two long reviews at once take the server's places for reviews; a third is refused.
    let body = json!({"start": START, "moves": &moves[..40], "movetime": 1000}).to_string();
    let head = format!(
        "POST /api/review HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Length: {}\r\n\r\n{body}",
        gui.port,
        body.len()
    );
    let running: Vec<TcpStream> = (0..2)
        .map(|_| connection(&gui, &head, Duration::from_secs(1)))
        .collect();
    std::thread::sleep(Duration::from_millis(500));
    let (status, answer) = gui.post(
        "/api/review",
        json!({"start": START, "moves": &moves[..4], "movetime": 10}),
    );
    assert_eq!(status, 429, "{answer}");
    // Their clients leave: the searches stop with them.
    drop(running);
    std::thread::sleep(Duration::from_millis(1500));
    let before = cpu_ticks(gui.child.id());
    std::thread::sleep(Duration::from_secs(3));
    let used = cpu_ticks(gui.child.id()) - before;
    assert!(
        used < 50,
        "{used} ticks of CPU in 3 s after the clients left"
    );
    let (status, answer) = gui.post(
        "/api/review",
        json!({"start": START, "moves": &moves[..4], "movetime": 10}),
    );
    assert_eq!(status, 200, "{answer}");
    assert!(answer["accuracy"].is_object(), "{answer}");
}
