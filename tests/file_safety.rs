//! No command destroys a file it was given, hangs on a file, reads one without bound, accepts a
//! count it cannot handle, or echoes a huge or raw line: each case of the audit, through the
//! binary.

mod support;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};
use std::time::{Duration, Instant};

use support::{lielow, lielow_command, scratch, stderr};

fn path(p: &Path) -> String {
    p.display().to_string()
}

/// A refusal: exit status 2, one line on stderr.
fn refused(out: &Output, what: &str) -> String {
    let message = stderr(out);
    assert_eq!(out.status.code(), Some(2), "{what}: {message}");
    assert_eq!(message.trim_end().lines().count(), 1, "{what}: {message}");
    message
}

/// Two shard summaries of one small match of built-in players.
fn shard_summaries(dir: &Path) -> (PathBuf, PathBuf) {
    let files: Vec<PathBuf> = (1..=2)
        .map(|k| {
            let json = dir.join(format!("shard{k}.json"));
            let out = random_vs_greedy(&[
                "--games",
                "4",
                "--shard",
                &format!("{k}/2"),
                "--json",
                &path(&json),
            ]);
            assert!(out.status.success(), "{}", stderr(&out));
            json
        })
        .collect();
    (files[0].clone(), files[1].clone())
}

/// A small datagen file.
fn data_file(dir: &Path, games: &str) -> PathBuf {
    let data = dir.join("data.bin");
    let out = lielow(&[
        "datagen",
        "-o",
        &path(&data),
        "--games",
        games,
        "--nodes",
        "300",
        "--eval",
        "hand-set",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    data
}

#[cfg(unix)]
fn fifo(dir: &Path) -> PathBuf {
    let fifo = dir.join("fifo");
    let status = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(status.success());
    fifo
}

/// `lielow match` between the built-in random and greedy players, with `extra` flags.
fn random_vs_greedy(extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "match",
        "--engine",
        "builtin:random",
        "--engine",
        "builtin:greedy",
    ];
    args.extend_from_slice(extra);
    lielow(&args)
}

#[test]
fn an_output_that_is_an_input_is_refused_and_the_input_kept() {
    let dir = scratch("clash");
    let (a, b) = shard_summaries(&dir);
    let before = std::fs::read(&a).unwrap();
    let out = lielow(&[
        "match",
        "--merge",
        &path(&a),
        &path(&b),
        "--json",
        &path(&a),
    ]);
    assert!(refused(&out, "merge into an input").contains("same file"));
    assert_eq!(std::fs::read(&a).unwrap(), before);
    // A failing merge leaves an existing --json whole.
    let merged = dir.join("merged.json");
    std::fs::write(&merged, "the old merge").unwrap();
    let garbage = dir.join("garbage.json");
    std::fs::write(&garbage, "{").unwrap();
    let out = lielow(&[
        "match",
        "--merge",
        &path(&a),
        &path(&garbage),
        "--json",
        &path(&merged),
    ]);
    refused(&out, "a failing merge");
    assert_eq!(std::fs::read_to_string(&merged).unwrap(), "the old merge");
    // analyse X --json X, and the same file spelled otherwise.
    let records = dir.join("games.txt");
    std::fs::write(&records, "x\n").unwrap();
    let spelled = dir.join(".").join("games.txt");
    let out = lielow(&["analyse", &path(&records), "--json", &path(&spelled)]);
    refused(&out, "analyse into its records");
    assert_eq!(std::fs::read_to_string(&records).unwrap(), "x\n");
    // train --data d.bin -o d.bin.
    let data = data_file(&dir, "6");
    let bytes = std::fs::read(&data).unwrap();
    let out = lielow(&["train", "--data", &path(&data), "-o", &path(&data)]);
    refused(&out, "train into its data");
    assert_eq!(std::fs::read(&data).unwrap(), bytes);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_torn_last_record_is_left_out_with_a_warning() {
    let dir = scratch("torn");
    let records = dir.join("games.txt");
    let out = random_vs_greedy(&["--games", "2", "--records", &path(&records)]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&records).unwrap();
    let torn = &text[..text.len() - 20];
    std::fs::write(&records, torn).unwrap();
    let json = dir.join("review.json");
    let out = lielow(&[
        "analyse",
        &path(&records),
        "--depth",
        "1",
        "--json",
        &path(&json),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("game 2 is cut short"),
        "{}",
        stderr(&out)
    );
    let reviews: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(reviews.as_array().unwrap().len(), 1);
    // A bad line that is not the last (or ends with its line break) is still an error.
    std::fs::write(&records, format!("{torn}\n")).unwrap();
    let out = lielow(&["analyse", &path(&records), "--depth", "1"]);
    assert!(refused(&out, "a bad whole line").contains("game 2"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_damaged_datagen_block_is_named_on_resume_and_on_reading() {
    let dir = scratch("damage");
    let data = data_file(&dir, "4");
    let mut bytes = std::fs::read(&data).unwrap();
    // The header is 8 + 2 + 2 + settings + 4 bytes; flip a byte inside the first block.
    let settings = u16::from_le_bytes([bytes[10], bytes[11]]) as usize;
    bytes[16 + settings + 12] ^= 0x04;
    std::fs::write(&data, &bytes).unwrap();
    let out = lielow(&[
        "datagen",
        "-o",
        &path(&data),
        "--games",
        "6",
        "--nodes",
        "300",
        "--eval",
        "hand-set",
    ]);
    assert!(refused(&out, "resume").contains("game block 1"));
    assert_eq!(
        std::fs::read(&data).unwrap(),
        bytes,
        "the damaged file is not resumed"
    );
    let out = lielow(&[
        "train",
        "--data",
        &path(&data),
        "-o",
        &path(&dir.join("n.nnue")),
    ]);
    assert!(refused(&out, "train").contains("game block 1"));
    let out = lielow(&["tune", "--data", &path(&data)]);
    assert!(refused(&out, "tune").contains("game block 1"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Runs `lielow` with `input` on stdin; panics when it has not exited within `limit`.
fn protocol(input: &str, limit: Duration) -> String {
    let mut child = lielow_command()
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > limit {
            let _ = child.kill();
            panic!("the engine did not answer within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    String::from_utf8(child.wait_with_output().unwrap().stdout).unwrap()
}

#[cfg(unix)]
#[test]
fn special_files_are_refused_without_blocking() {
    let dir = scratch("special");
    let fifo = fifo(&dir);
    for file in [
        path(&fifo),
        "/dev/zero".to_owned(),
        "/dev/urandom".to_owned(),
    ] {
        let out = protocol(
            &format!("setoption name EvalFile value {file}\nisready\nquit\n"),
            Duration::from_secs(5),
        );
        assert!(out.contains("not a regular file"), "{file}: {out}");
        assert!(out.contains("readyok"), "{file}: {out}");
        for args in [
            vec!["analyse", &file],
            vec!["match", "--merge", &file],
            vec![
                "match",
                "--engine",
                "builtin:random",
                "--engine",
                "builtin:greedy",
                "--openings",
                &file,
            ],
            vec!["train", "--data", &file, "-o", "/nonexistent-dir/n.nnue"],
            vec!["tune", "--data", &file],
            vec!["bench", "1", "--eval", &file],
            vec!["datagen", "-o", &file, "--games", "1"],
        ] {
            let started = Instant::now();
            let out = lielow(&args);
            let message = refused(&out, &format!("{args:?}"));
            assert!(
                message.contains("not a regular file"),
                "{args:?}: {message}"
            );
            assert!(started.elapsed() < Duration::from_secs(5), "{args:?}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn counts_are_bounded_and_checked() {
    let out = random_vs_greedy(&["--shard", "1/1000000000000"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("N <= 10000"), "{}", stderr(&out));
    for count in ["18446744073709551615", "10000000000"] {
        let out = lielow(&["openings", "--plies", "2", "--count", count]);
        assert!(refused(&out, count).contains("--count"));
    }
    let out = lielow(&["perft", "4294967295"]);
    assert_eq!(out.status.code(), Some(2));
    let dir = scratch("counts");
    let (a, b) = shard_summaries(&dir);
    let edit = |file: &Path, from: &str, to: &str| {
        let text = std::fs::read_to_string(file).unwrap();
        assert!(text.contains(from), "{text}");
        let edited = dir.join("edited.json");
        std::fs::write(&edited, text.replacen(from, to, 1)).unwrap();
        edited
    };
    let text = std::fs::read_to_string(&a).unwrap();
    let games = text
        .lines()
        .find(|l| l.contains("\"games\""))
        .unwrap()
        .trim()
        .to_owned();
    let huge = edit(&a, &games, "\"games\": 9223372036854775807,");
    let out = lielow(&["match", "--merge", &path(&huge), &path(&b)]);
    assert!(refused(&out, "a huge count").contains("games is above"));
    let shard = edit(&a, "\"count\": 2", "\"count\": 1000000000000");
    let out = lielow(&["match", "--merge", &path(&shard)]);
    refused(&out, "a huge shard count in a summary");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn sprt_parameters_read_back_are_checked() {
    let dir = scratch("sprt");
    let json = dir.join("sprt.json");
    let out = random_vs_greedy(&[
        "--games",
        "2",
        "--sprt",
        "elo0=0,elo1=5",
        "--json",
        &path(&json),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&json).unwrap();
    assert!(text.contains("\"alpha\": 0.05"), "{text}");
    let bad = dir.join("bad.json");
    std::fs::write(&bad, text.replacen("\"alpha\": 0.05", "\"alpha\": -1", 1)).unwrap();
    let out = lielow(&["match", "--merge", &path(&bad)]);
    assert!(refused(&out, "alpha -1").contains("alpha"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn echoes_stay_short_and_clean() {
    let moves = vec!["zz9-zz9"; 200_000].join(" ");
    let out = protocol(
        &format!("go searchmoves {moves}\nisready\nquit\n"),
        Duration::from_secs(20),
    );
    let error = out
        .lines()
        .find(|l| l.contains("searchmoves"))
        .expect("an error line");
    assert!(error.len() < 1000, "{} bytes", error.len());
    assert!(error.contains("and 199995 more"), "{error}");
    let dir = scratch("echo");
    let records = dir.join("games.txt");
    let out = lielow(&[
        "match",
        "--engine",
        "builtin:random",
        "name=a",
        "--engine",
        "builtin:greedy",
        "--games",
        "2",
        "--records",
        &path(&records),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&records).unwrap();
    let first = text.lines().nth(1).unwrap();
    // A 1 MB winner field: the error quotes 40 characters of it.
    let fields: Vec<&str> = first.split(" ; ").collect();
    let long = "x".repeat(1 << 20);
    let mut huge = fields.clone();
    huge[2] = &long;
    std::fs::write(&records, format!("{}\n", huge.join(" ; "))).unwrap();
    let out = lielow(&["analyse", &path(&records), "--depth", "1"]);
    assert!(refused(&out, "a huge field").len() < 300);
    // An engine name with an escape sequence reaches the terminal masked.
    let mut named = fields.clone();
    named[4] = "evil\x1b[2J";
    std::fs::write(&records, format!("{}\n", named.join(" ; "))).unwrap();
    let out = lielow(&["analyse", &path(&records), "--depth", "1"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!out.stdout.contains(&0x1b) && !out.stderr.contains(&0x1b));
    assert!(String::from_utf8_lossy(&out.stdout).contains("evil?[2J"));
    std::fs::remove_dir_all(&dir).unwrap();
}
