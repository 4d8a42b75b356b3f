//! What the GUI's tests share: a running `lielow gui`, a page's event stream read from a raw
//! socket, and the processes and connections they look at. Each GUI test file takes it with
//! `mod gui_support;` (after `mod support;`).

// Each test file uses only some of these.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::support::{self, lielow_command};

pub const BROKEN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/engines/broken.sh");
pub const START: &str = "8/r1r1r1r1r1r1r1r1/8/8/8/8/b1b1b1b1b1b1b1b1/8 b";

/// A running `lielow gui`, killed when dropped.
pub struct Gui {
    pub child: Child,
    pub port: u16,
}

impl Gui {
    pub fn start(engines: &[&str]) -> Gui {
        let mut args = vec!["gui", "--port", "0"];
        for engine in engines {
            args.extend(["--engine", engine]);
        }
        let mut command = lielow_command();
        command.args(&args);
        Gui::spawn(command)
    }

    /// The server with at most `limit` open descriptors (the shell's `ulimit -n`).
    pub fn start_with_descriptors(limit: u32) -> Gui {
        let mut command = std::process::Command::new("sh");
        command.args([
            "-c",
            &format!("ulimit -n {limit} && exec \"$0\" gui --port 0"),
            support::LIELOW,
        ]);
        Gui::spawn(command)
    }

    pub fn spawn(mut command: std::process::Command) -> Gui {
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
    pub fn request(
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

    pub fn post(&self, path: &str, body: Value) -> (u16, Value) {
        let (status, text) = self.request("POST", path, &body.to_string(), &[]);
        (status, serde_json::from_str(&text).unwrap())
    }

    /// Opens a page's event stream: its session.
    pub fn open_page(&self) -> Page {
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
pub struct Page {
    reader: BufReader<TcpStream>,
    /// Text received and not yet taken as events.
    text: String,
    pub session: String,
}

impl Page {
    /// The next event: its kind (`message` unless named) and its JSON data.
    pub fn next_event(&mut self) -> (String, Value) {
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
    pub fn events_until(&mut self, done: impl Fn(&Value) -> bool) -> Vec<Value> {
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

/// The processes whose parent is `pid`.
pub fn children_of(pid: u32) -> Vec<u32> {
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
pub fn runs(pid: u32) -> bool {
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
pub fn wait_until_gone(pid: u32, started: Instant, limit: Duration, what: &str) {
    while runs(pid) {
        assert!(started.elapsed() < limit, "the engine outlived {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The resident memory of process `pid`, in KiB.
pub fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// The CPU time process `pid` has used (all its threads), in clock ticks.
pub fn cpu_ticks(pid: u32) -> u64 {
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
pub fn connection(gui: &Gui, text: &str, wait: Duration) -> TcpStream {
    let mut stream = TcpStream::connect(("127.0.0.1", gui.port)).unwrap();
    stream.set_read_timeout(Some(wait)).unwrap();
    stream.write_all(text.as_bytes()).unwrap();
    stream
}

/// Whether the server closes `stream` within `limit` (reading and dropping what it answers).
pub fn closed_within(mut stream: TcpStream, limit: Duration) -> bool {
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
pub fn serves_the_page(gui: &mut Gui) {
    assert!(gui.child.try_wait().unwrap().is_none(), "the server ended");
    let (status, page) = gui.request("GET", "/", "", &[]);
    assert_eq!(status, 200);
    assert!(page.contains("<script src=\"/app.js\">"));
}

/// A legal game of up to `plies` plies: the first legal move each time.
pub fn some_game(gui: &Gui, plies: usize) -> Vec<String> {
    let mut moves: Vec<String> = Vec::new();
    while moves.len() < plies {
        let (_, answer) = gui.post("/api/position", json!({"start": START, "moves": moves}));
        let legal = answer["legal"].as_array().unwrap();
        let Some(first) = legal.first() else { break };
        moves.push(first.as_str().unwrap().to_owned());
    }
    moves
}
