//! Real signals to the real binary: an interrupted match leaves whole record lines and the
//! summary of the games it finished, and an interrupted training run leaves the old network.
#![cfg(unix)]

mod support;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use lielow::matchplay::summary::Summary;
use lielow::reason::Reason;
use lielow::records::GameRecord;
use nix::sys::signal::{kill, Signal};
use nix::unistd::Pid;
use support::{lielow_command, scratch, LIELOW};

/// Reads the child's stderr until `wanted` lines start with `prefix`, then sends `signal`;
/// returns the exit status.
fn signal_after(mut child: Child, prefix: &str, wanted: usize, signal: Signal) -> Option<i32> {
    let stderr = child.stderr.take().expect("piped stderr");
    let mut seen = 0;
    let mut lines = BufReader::new(stderr).lines();
    while seen < wanted {
        match lines.next() {
            Some(Ok(line)) if line.trim_start().starts_with(prefix) => seen += 1,
            Some(Ok(_)) => {}
            _ => panic!("the child ended before {wanted} lines starting with '{prefix}'"),
        }
    }
    kill(Pid::from_raw(child.id() as i32), signal).expect("signal sent");
    // Drain stderr so that the child never blocks writing it.
    std::thread::spawn(move || lines.for_each(drop));
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            return status.code();
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "no exit 20 s after the signal"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// No temporary output is left in `dir`.
fn no_temporary_left(dir: &Path) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        assert!(!name.ends_with(".tmp"), "temporary file {name} left");
    }
}

fn interrupted_match_keeps_whole_records_and_the_summary(signal: Signal) {
    let dir = scratch("match");
    let (records, json) = (dir.join("games.txt"), dir.join("summary.json"));
    std::fs::write(&json, "old").unwrap();
    let child = lielow_command()
        .args([
            "match", "--engine", LIELOW, "name=a", "--engine", LIELOW, "name=b",
        ])
        .args(["--games", "400", "--movetime", "10", "--concurrency", "2"])
        .arg("--records")
        .arg(&records)
        .arg("--json")
        .arg(&json)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("lielow runs");
    let status = signal_after(child, "games ", 2, signal);
    assert_eq!(status, Some(130), "{signal}: the interrupted status");
    let text = std::fs::read_to_string(&records).expect("the records are renamed into place");
    assert!(text.ends_with('\n'), "{signal}: the last line is whole");
    assert!(text.starts_with("# lielow match "), "the settings line");
    let games: Vec<GameRecord> = text
        .lines()
        .skip(1)
        .map(|line| GameRecord::parse(line).expect("every line is a record"))
        .collect();
    assert!(games.len() >= 4, "{}", games.len());
    // Games are recorded as they end; the summary counts the pairs both of whose games are.
    let numbers: Vec<u64> = games.iter().map(|g| g.played.unwrap().number).collect();
    let paired = numbers
        .iter()
        .filter(|&&n| numbers.contains(&(if n % 2 == 1 { n + 1 } else { n - 1 })))
        .count();
    assert!(
        games
            .iter()
            .all(|g| !matches!(g.reason, Reason::Crash | Reason::NoReply)),
        "{signal}: no game lost to the stopped engines is kept"
    );
    let summary = Summary::parse(&std::fs::read_to_string(&json).unwrap()).expect("a summary");
    assert_eq!(
        summary.games, paired as u64,
        "{signal}: the summary counts the records' pairs"
    );
    assert_eq!(summary.planned_games, 400);
    no_temporary_left(&dir);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn sigint_ends_a_match_with_whole_files() {
    interrupted_match_keeps_whole_records_and_the_summary(Signal::SIGINT);
}

#[test]
fn sigterm_ends_a_match_with_whole_files() {
    interrupted_match_keeps_whole_records_and_the_summary(Signal::SIGTERM);
}

#[test]
fn interrupted_training_leaves_the_old_network_whole() {
    let dir = scratch("train");
    let data = dir.join("data.bin");
    let out = lielow_command()
        .args([
            "datagen", "--games", "20", "--nodes", "400", "--eval", "hand-set", "-o",
        ])
        .arg(&data)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let net = dir.join("net.nnue");
    std::fs::write(&net, b"the old network").unwrap();
    let child = lielow_command()
        .arg("train")
        .arg("--data")
        .arg(&data)
        .arg("-o")
        .arg(&net)
        .args(["--epochs", "10000", "--validation-every", "5"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The loss table goes to stdout: wait for its first epoch there.
    let mut child = child;
    let stdout = child.stdout.take().unwrap();
    let mut lines = BufReader::new(stdout).lines();
    while !lines
        .next()
        .expect("train prints its table")
        .unwrap()
        .starts_with("|     1 |")
    {}
    kill(Pid::from_raw(child.id() as i32), Signal::SIGINT).unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    assert_eq!(std::fs::read(&net).unwrap(), b"the old network");
    no_temporary_left(&dir);
    std::fs::remove_dir_all(&dir).unwrap();
}
