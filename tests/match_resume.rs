//! `lielow match` keeps its records game by game and resumes from them: killed with SIGKILL at
//! random moments and resumed, a match ends with the games and summary of one uninterrupted
//! run (and a PGN file of the same games), and never loses a game it reported finished; a torn
//! last line is left out; a records file of another match is refused; no hidden file is left
//! behind.

mod support;

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rand::{Rng, SeedableRng};
use support::{lielow, lielow_command, scratch, stderr, LIELOW};

/// A round-robin of the engine (as a process, at fixed nodes) and two built-in players: every
/// game is decided by its settings alone, whichever worker plays it.
fn round_robin() -> Vec<String> {
    let words = [
        "match",
        "--engine",
        LIELOW,
        "name=engine",
        "--engine",
        "builtin:greedy",
        "--engine",
        "builtin:mcts:300",
        "name=mcts",
        "--nodes",
        "3000",
        "--games",
        "60",
        "--random-plies",
        "4",
        "--concurrency",
        "2",
        "--seed",
        "7",
    ];
    words.iter().map(|word| word.to_string()).collect()
}

/// `args` with `--records dir/games.txt --json dir/summary.json` (and `extra`).
fn with_outputs(args: &[String], dir: &Path, extra: &[&str]) -> Vec<String> {
    let mut all = args.to_vec();
    for (flag, name) in [("--records", "games.txt"), ("--json", "summary.json")] {
        all.push(flag.to_owned());
        all.push(dir.join(name).display().to_string());
    }
    all.extend(extra.iter().map(|word| word.to_string()));
    all
}

/// Runs `lielow` with `args` to its end; its stderr.
fn run_ok(args: &[String]) -> String {
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = lielow(&words);
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    stderr(&out)
}

/// A record line without its timing figures (`us=`), which differ from run to run.
fn untimed(line: &str) -> String {
    line.split(' ')
        .filter(|word| !word.starts_with("us="))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The records file's lines, timing figures left out.
fn record_set(dir: &Path) -> BTreeSet<String> {
    std::fs::read_to_string(dir.join("games.txt"))
        .unwrap()
        .lines()
        .map(untimed)
        .collect()
}

/// The summary without its timing figures.
fn untimed_summary(dir: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(dir.join("summary.json")).unwrap();
    let mut summary: serde_json::Value = serde_json::from_str(&text).unwrap();
    for engine in summary["engines"].as_array_mut().unwrap() {
        let engine = engine.as_object_mut().unwrap();
        engine.remove("time_ms");
        engine.remove("average_ms_per_move");
    }
    summary
}

/// The numbers of the games recorded in `dir`.
fn recorded_numbers(dir: &Path) -> BTreeSet<u64> {
    let text = std::fs::read_to_string(dir.join("games.txt")).unwrap_or_default();
    text.lines()
        .filter(|line| !line.starts_with('#'))
        .filter_map(|line| lielow::records::GameRecord::parse(line).ok())
        .map(|record| record.played.expect("match fields").number)
        .collect()
}

/// Checks that the PGN file in `dir` holds the records' games, each once, as its `Round`.
fn pgn_matches_records(dir: &Path) {
    use lielow::games::read_games;
    use lielow_rules::board::BoardSize;
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap();
    let pgn = read_games(&read("games.pgn"), BoardSize::Eight).unwrap();
    let records = read_games(&read("games.txt"), BoardSize::Eight).unwrap();
    assert_eq!(pgn.games.len(), records.games.len());
    let numbers = recorded_numbers(dir);
    let mut rounds = BTreeSet::new();
    for game in &pgn.games {
        let round = game.tags.iter().find(|(k, _)| k == "Round").unwrap();
        let number: u64 = round.1.parse().unwrap();
        rounds.insert(number);
        let same = records.games.iter().any(|record| {
            (
                &record.start,
                &record.moves,
                record.result,
                &record.blue,
                &record.red,
            ) == (&game.start, &game.moves, game.result, &game.blue, &game.red)
        });
        assert!(same, "PGN game {number} is no recorded game");
    }
    assert_eq!(rounds, numbers, "each recorded game once in the PGN");
}

/// The files in `dir`, hidden ones included.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Starts `args`, kills it with SIGKILL after `after`, and returns the games it reported
/// finished on stderr before the kill (`None`: it ended by itself first).
fn kill_after(args: &[String], after: Duration) -> Option<Vec<u64>> {
    let mut child = lielow_command()
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("lielow runs");
    let reported = Arc::new(Mutex::new(Vec::new()));
    let pipe = child.stderr.take().unwrap();
    let seen = Arc::clone(&reported);
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(pipe).lines().map_while(Result::ok) {
            let number = line
                .strip_prefix("Finished game ")
                .and_then(|rest| rest.split(' ').next())
                .and_then(|n| n.parse::<u64>().ok());
            if let Some(number) = number {
                seen.lock().unwrap().push(number);
            }
        }
    });
    std::thread::sleep(after);
    // Read what was reported before the kill: a line read later may come after it.
    let before: Vec<u64> = reported.lock().unwrap().clone();
    let ended = child.try_wait().unwrap().is_some();
    let _ = child.kill();
    let _ = child.wait();
    let _ = reader.join();
    (!ended).then_some(before)
}

#[test]
fn five_kills_and_resumes_give_the_games_and_summary_of_one_run() {
    let whole = scratch("resume-whole");
    run_ok(&with_outputs(&round_robin(), &whole, &[]));
    let dir = scratch("resume-killed");
    let pgn = dir.join("games.pgn").display().to_string();
    let args = with_outputs(&round_robin(), &dir, &["--resume", "--pgn", &pgn]);
    let mut rng = rand::rngs::StdRng::seed_from_u64(51);
    let mut kills = 0;
    while kills < 5 {
        let after = Duration::from_millis(rng.gen_range(100..400));
        let reported = kill_after(&args, after).expect("the match ended before its fifth kill");
        kills += 1;
        let recorded = recorded_numbers(&dir);
        for number in reported {
            assert!(
                recorded.contains(&number),
                "game {number} reported, not kept"
            );
        }
    }
    run_ok(&args);
    assert_eq!(record_set(&dir), record_set(&whole), "the games");
    assert_eq!(
        untimed_summary(&dir),
        untimed_summary(&whole),
        "the summary"
    );
    assert_eq!(listing(&dir), ["games.pgn", "games.txt", "summary.json"]);
    pgn_matches_records(&dir);
    // Resuming a finished match plays nothing and writes the same summary.
    let records = std::fs::read_to_string(dir.join("games.txt")).unwrap();
    let err = run_ok(&args);
    assert!(!err.contains("Finished game"), "{err}");
    assert_eq!(
        std::fs::read_to_string(dir.join("games.txt")).unwrap(),
        records
    );
    assert_eq!(untimed_summary(&dir), untimed_summary(&whole));
    std::fs::remove_dir_all(&whole).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Built-in players only, one game at a time: runs are identical to the bit.
fn builtin_match(extra: &[&str]) -> Vec<String> {
    let games = if extra.contains(&"--sprt") {
        "100"
    } else {
        "20"
    };
    let mut words = vec![
        "match",
        "--engine",
        "builtin:random",
        "--engine",
        "builtin:greedy",
        "--games",
        games,
        "--random-plies",
        "2",
    ];
    words.extend(extra);
    words.iter().map(|word| word.to_string()).collect()
}

/// Copies `from`'s records cut after `lines` whole lines plus half of the next into `to`.
fn torn_copy(from: &Path, to: &Path, lines: usize) -> PathBuf {
    let text = std::fs::read_to_string(from.join("games.txt")).unwrap();
    let kept: Vec<&str> = text.split_inclusive('\n').take(lines + 1).collect();
    let last = kept[lines];
    let torn = format!("{}{}", kept[..lines].concat(), &last[..last.len() / 2]);
    let path = to.join("games.txt");
    std::fs::write(&path, torn).unwrap();
    path
}

#[test]
fn a_torn_last_line_is_left_out_and_the_game_played_again() {
    for (name, extra) in [
        ("torn-whole", vec![]),
        ("torn-shard", vec!["--shard", "2/3"]),
        (
            "torn-sprt",
            vec!["--sprt", "elo0=0,elo1=100", "--concurrency", "2"],
        ),
    ] {
        let args = builtin_match(&extra);
        let whole = scratch(&format!("{name}-a"));
        run_ok(&with_outputs(&args, &whole, &[]));
        let dir = scratch(&format!("{name}-b"));
        torn_copy(&whole, &dir, 3);
        let err = run_ok(&with_outputs(&args, &dir, &["--resume"]));
        assert!(err.contains("was cut short; left out"), "{name}: {err}");
        if name == "torn-sprt" {
            // With an SPRT, games past the deciding pair may differ; the summary may not.
            assert!(untimed_summary(&whole)["sprt"]["verdict"].is_string());
        } else {
            assert_eq!(record_set(&dir), record_set(&whole), "{name}");
        }
        assert_eq!(untimed_summary(&dir), untimed_summary(&whole), "{name}");
        assert_eq!(listing(&dir), ["games.txt", "summary.json"]);
        std::fs::remove_dir_all(&whole).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[test]
fn resuming_a_finished_match_plays_nothing_and_writes_the_same_summary() {
    let dir = scratch("resume-finished");
    let args = builtin_match(&[]);
    run_ok(&with_outputs(&args, &dir, &[]));
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap();
    let (records, summary) = (read("games.txt"), read("summary.json"));
    std::fs::remove_file(dir.join("summary.json")).unwrap();
    let err = run_ok(&with_outputs(&args, &dir, &["--resume"]));
    assert!(!err.contains("Finished game"), "{err}");
    assert_eq!(read("games.txt"), records);
    // One game at a time, the summary is rebuilt to the byte, timing figures included.
    assert_eq!(read("summary.json"), summary);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `lielow` with `args` fails with one line containing `wanted`.
fn refused(args: &[String], wanted: &str) {
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = lielow(&words);
    let message = stderr(&out);
    assert!(!out.status.success(), "{args:?} ran");
    assert_eq!(message.trim_end().lines().count(), 1, "{message}");
    assert!(message.contains(wanted), "{wanted}: {message}");
}

#[test]
fn records_of_another_match_are_refused_and_kept() {
    let dir = scratch("resume-other");
    let args = builtin_match(&[]);
    run_ok(&with_outputs(&args, &dir, &[]));
    let records = std::fs::read_to_string(dir.join("games.txt")).unwrap();
    refused(&with_outputs(&args, &dir, &[]), "add --resume");
    // A file with its settings line only (a start that failed) holds no game: it is reused.
    let empty = scratch("resume-empty");
    let settings = records.lines().next().unwrap().to_owned() + "\n";
    std::fs::write(empty.join("games.txt"), &settings).unwrap();
    run_ok(&with_outputs(&args, &empty, &[]));
    assert_eq!(record_set(&empty), record_set(&dir));
    std::fs::remove_dir_all(&empty).unwrap();
    let other_seed = builtin_match(&["--seed", "2"]);
    refused(
        &with_outputs(&other_seed, &dir, &["--resume"]),
        "other seed",
    );
    let mut other_engine = args.clone();
    other_engine[2] = "builtin:mcts:10".to_owned();
    refused(
        &with_outputs(&other_engine, &dir, &["--resume"]),
        "other engines",
    );
    let other_shard = builtin_match(&["--shard", "1/2"]);
    refused(
        &with_outputs(&other_shard, &dir, &["--resume"]),
        "other shard",
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("games.txt")).unwrap(),
        records
    );
    // Records from before the settings line: they read, but cannot be resumed.
    let old: String = records.lines().skip(1).map(|l| format!("{l}\n")).collect();
    std::fs::write(dir.join("games.txt"), &old).unwrap();
    refused(
        &with_outputs(&args, &dir, &["--resume"]),
        "no '# lielow match' settings line",
    );
    // A bad line that is not the last one is an error, never dropped.
    let mut lines: Vec<&str> = records.lines().collect();
    lines[2] = "x ; y";
    std::fs::write(dir.join("games.txt"), lines.join("\n") + "\n").unwrap();
    refused(&with_outputs(&args, &dir, &["--resume"]), "line 3");
    assert_eq!(listing(&dir), ["games.txt", "summary.json"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The games of `dir`'s file `name` (records or Abstract Play records), without what differs
/// from run to run or between the formats (timing figures, dates, tags).
fn games_of(dir: &Path, name: &str) -> Vec<lielow::games::LoadedGame> {
    let text = std::fs::read_to_string(dir.join(name)).unwrap();
    let read = lielow::games::read_games(&text, lielow_rules::board::BoardSize::Eight);
    let mut games = read.unwrap_or_else(|e| panic!("{name}: {e}")).games;
    for game in &mut games {
        game.tags.clear();
    }
    games
}

#[test]
fn the_apgame_file_holds_the_records_games_and_is_rebuilt_on_resume() {
    let args = builtin_match(&[]);
    let whole = scratch("apgame-whole");
    let apgame = |dir: &Path| dir.join("games.json").display().to_string();
    run_ok(&with_outputs(&args, &whole, &["--apgame", &apgame(&whole)]));
    // One game at a time: the records are in the order of the games' numbers, as the array is.
    let games = games_of(&whole, "games.json");
    assert_eq!(games.len(), 20);
    assert_eq!(games, games_of(&whole, "games.txt"));
    // Resumed from a torn records file, over an Abstract Play file of other games: rebuilt.
    let dir = scratch("apgame-resumed");
    torn_copy(&whole, &dir, 3);
    std::fs::write(dir.join("games.json"), "[]").unwrap();
    run_ok(&with_outputs(
        &args,
        &dir,
        &["--apgame", &apgame(&dir), "--resume"],
    ));
    assert_eq!(games_of(&dir, "games.json"), games);
    assert_eq!(listing(&dir), ["games.json", "games.txt", "summary.json"]);
    // Without --resume, an existing file is refused and kept.
    let kept = std::fs::read(whole.join("games.json")).unwrap();
    let fresh = scratch("apgame-fresh");
    let mut again = with_outputs(&args, &fresh, &["--apgame", &apgame(&whole)]);
    again.retain(|word| word != "--resume");
    refused(&again, "--apgame");
    assert_eq!(listing(&fresh), Vec::<String>::new());
    // With --resume but records of no game, a file of games is not rebuilt empty.
    let mut empty = with_outputs(&args, &fresh, &["--apgame", &apgame(&whole), "--resume"]);
    empty.retain(|word| !word.ends_with("summary.json") && word != "--json");
    refused(&empty, "rebuilt empty");
    assert_eq!(std::fs::read(whole.join("games.json")).unwrap(), kept);
    assert_eq!(std::fs::read(whole.join("games.json")).unwrap(), kept);
    for scratch_dir in [whole, dir, fresh] {
        std::fs::remove_dir_all(&scratch_dir).unwrap();
    }
}
