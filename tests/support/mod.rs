//! What the integration tests share: the `lielow` binary under test, run to its end or started
//! as a child, and scratch directories. Each test file takes it with `mod support;`.

// Each test file is its own crate and uses only some of these.
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The path of the `lielow` binary Cargo built for these tests (also an engine for matches).
pub const LIELOW: &str = env!("CARGO_BIN_EXE_lielow");

/// The `lielow` binary, as a command to add arguments and pipes to.
pub fn lielow_command() -> Command {
    Command::new(LIELOW)
}

/// Runs `lielow args...` to its end.
pub fn lielow(args: &[&str]) -> Output {
    lielow_command()
        .args(args)
        .output()
        .expect("the lielow binary runs")
}

/// Its standard output, which must be UTF-8.
pub fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 output")
}

/// Its standard error, which must be UTF-8.
pub fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("UTF-8 output")
}

/// A fresh directory for one test, named after the test file and `name` and unique within the
/// run (the process id and a counter), so that tests in parallel never share files.
pub fn scratch(name: &str) -> PathBuf {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "lielow-{}-{}-{name}-{}",
        env!("CARGO_CRATE_NAME"),
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}
