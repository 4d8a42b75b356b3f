//! `lielow gui`'s server against what an attacker or an unlucky client sends: huge declared
//! bodies, slow, idle, LF-only and oversized heads, more connections than descriptors, and
//! reviews without end. Each test talks to the running server over raw sockets, bounded in time
//! and count.

mod gui_support;
mod support;

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use gui_support::*;
use serde_json::json;

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
