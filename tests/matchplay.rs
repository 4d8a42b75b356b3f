//! `lielow match` and `lielow openings`, end to end (the real binary against built-in players and
//! the deliberately broken engines of tests/engines/broken.sh), plus the statistics checked
//! against values worked out by hand.

mod support;

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use lielow::matchplay::stats::{elo_from_score, Pentanomial, Sprt, Verdict};
use lielow::openings::{parse_file, Opening};
use lielow::players::builtin::greedy_move;
use lielow::process::split_command_line;
use lielow::reason::Reason;
use lielow::records::GameRecord;
use lielow_rules::{BoardSize, Position};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use support::{lielow, lielow_command, scratch, LIELOW};

const BROKEN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/engines/broken.sh");
const LOGGED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/engines/logged.sh");
const NOISY: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/engines/noisy.sh");
const SPAWNER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/engines/spawner.sh");

/// Runs a match writing JSON and records; returns (json, records, stdout).
fn run_match(name: &str, args: &[&str]) -> (String, Vec<GameRecord>, String) {
    let (json, records, stdout, _) = run_match_with_stderr(name, args);
    (json, records, stdout)
}

/// A record's line without its thinking times, which differ from run to run.
fn untimed(record: &GameRecord) -> String {
    let mut record = record.clone();
    if let Some(played) = record.played.as_mut() {
        played.sides.iter_mut().for_each(|side| side.micros = 0);
    }
    record.to_string()
}

/// [`run_match`], with its stderr too.
fn run_match_with_stderr(name: &str, args: &[&str]) -> (String, Vec<GameRecord>, String, String) {
    let dir = scratch(name);
    let json = dir.join("summary.json");
    let records = dir.join("games.txt");
    let mut all: Vec<&str> = args.to_vec();
    let (json_s, records_s) = (json.display().to_string(), records.display().to_string());
    all.extend(["--json", &json_s, "--records", &records_s]);
    let output = lielow(&all);
    assert!(
        output.status.success(),
        "lielow match {args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let json = std::fs::read_to_string(&json).expect("json written");
    let records = std::fs::read_to_string(&records)
        .expect("records written")
        .lines()
        .filter(|line| !line.starts_with('#'))
        .map(|line| GameRecord::parse(line).unwrap_or_else(|e| panic!("{line}: {e}")))
        .collect::<Vec<GameRecord>>();
    // Lines are written as games end: in the order of their numbers, each pair's games follow
    // each other.
    let mut records = records;
    records.sort_by_key(|record| record.played.expect("a match record").number);
    let _ = std::fs::remove_dir_all(&dir);
    (
        json,
        records,
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// The `Finished game N (BLUE vs RED): RESULT {...}` lines of a match's stderr, as (N, the rest
/// after the colon).
fn finished_games(stderr: &str) -> Vec<(u64, String)> {
    stderr
        .lines()
        .filter_map(|line| line.strip_prefix("Finished game "))
        .map(|rest| {
            let (number, rest) = rest.split_once(' ').expect("a number, then the game");
            (number.parse().expect("a game number"), rest.to_owned())
        })
        .collect()
}

/// The text a `Finished game` line gives `record` after its number (the forfeit's detail not
/// included).
fn finished_text(record: &GameRecord) -> String {
    let (result, winner) = match record.winner {
        lielow_rules::Side::Blue => ("1-0", "Blue"),
        lielow_rules::Side::Red => ("0-1", "Red"),
    };
    format!(
        "({} vs {}): {result} {{{winner} wins: {}",
        record.blue, record.red, record.reason
    )
}

/// The integer after `"field": ` on the JSON line that starts the object `{"<key>": "<name>"`.
fn json_field(json: &str, key: &str, name: &str, field: &str) -> u64 {
    let line = json
        .lines()
        .find(|l| l.contains(&format!("{{\"{key}\": \"{name}\"")))
        .unwrap_or_else(|| panic!("no {key} {name} in {json}"));
    let at = line
        .find(&format!("\"{field}\": "))
        .unwrap_or_else(|| panic!("no {field} in {line}"))
        + field.len()
        + 4;
    line[at..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect::<String>()
        .parse()
        .unwrap_or_else(|_| panic!("{field} in {line}"))
}

/// Every record replays to its recorded winner, with the recorded players.
fn check_replays(records: &[GameRecord]) {
    for record in records {
        assert_eq!(record.replay(), Ok(record.winner), "{record}");
        // The same through the text a GUI would send: position fen <start> moves <moves>.
        let line = record.to_string();
        let moves: Vec<&str> = line
            .split(" ; ")
            .nth(1)
            .unwrap()
            .split_whitespace()
            .collect();
        let mut position = Position::from_lfen(line.split(" ; ").next().unwrap()).unwrap();
        for text in moves {
            position = position.play(position.parse_move(text).expect("legal"));
        }
        match position.winner() {
            Some(winner) => assert_eq!(winner, record.winner, "{record}"),
            None => {
                assert!(record.reason.is_forfeit(), "{record}");
                assert_eq!(
                    position.side_to_move(),
                    record.winner.opponent(),
                    "{record}"
                );
            }
        }
    }
}

#[test]
fn builtin_match_totals_are_consistent_and_reproducible() {
    let args = [
        "match",
        "--engine",
        "builtin:greedy",
        "--engine",
        "builtin:random",
        "--games",
        "40",
        "--concurrency",
        "2",
        "--random-plies",
        "4",
        "--seed",
        "7",
    ];
    let (json, records, table, stderr) = run_match_with_stderr("totals", &args);
    assert_eq!(records.len(), 40);
    // One `Finished game` line per game, numbered 1 to 40, saying what its record says.
    let finished = finished_games(&stderr);
    let mut numbers: Vec<u64> = finished.iter().map(|(n, _)| *n).collect();
    numbers.sort_unstable();
    assert_eq!(numbers, (1..=40).collect::<Vec<u64>>(), "{stderr}");
    let mut said: Vec<String> = finished.into_iter().map(|(_, text)| text).collect();
    let mut recorded: Vec<String> = records.iter().map(|r| finished_text(r) + "}").collect();
    said.sort();
    recorded.sort();
    assert_eq!(said, recorded);
    let wins = json_field(&json, "first", "greedy", "wins");
    let losses = json_field(&json, "first", "greedy", "losses");
    assert_eq!(wins + losses, 40);
    assert_eq!(json_field(&json, "name", "greedy", "wins"), wins);
    assert_eq!(json_field(&json, "name", "random", "wins"), losses);
    assert_eq!(json_field(&json, "name", "greedy", "losses"), losses);
    assert_eq!(json_field(&json, "name", "random", "losses"), wins);
    assert_eq!(json_field(&json, "name", "greedy", "games"), 40);
    // Greedy takes every king it can reach; random does not.
    assert!(wins >= 30, "greedy won only {wins} of 40:\n{table}");
    // Records: the same opening twice with colours swapped, every game decided by the rules.
    for pair in records.chunks(2) {
        assert_eq!(pair[0].blue, pair[1].red);
        assert_eq!(pair[0].start, pair[1].start);
        assert_eq!(pair[0].moves[..4], pair[1].moves[..4]);
    }
    assert!(records.iter().all(|r| !r.reason.is_forfeit()));
    let greedy_wins = records
        .iter()
        .filter(|r| {
            (if r.winner == lielow_rules::Side::Blue {
                &r.blue
            } else {
                &r.red
            }) == "greedy"
        })
        .count() as u64;
    assert_eq!(greedy_wins, wins);
    check_replays(&records);
    // Same seed, same games, whatever the thread timing.
    let (_, again, _) = run_match("totals-again", &args);
    let key = untimed;
    let mut first: Vec<String> = records.iter().map(key).collect();
    let mut second: Vec<String> = again.iter().map(key).collect();
    first.sort();
    second.sort();
    assert_eq!(first, second);
    assert!(table.contains("greedy vs random"));
    // The table's pentanomial line gives the summary's counts.
    let counts = json
        .split("\"pentanomial\": ")
        .nth(1)
        .and_then(|rest| rest.split(']').next())
        .expect("the summary's pentanomial");
    let line = format!("Ptnml(0-2): {counts}]  greedy vs random");
    assert!(table.lines().any(|l| l == line), "{line}\n{table}");
}

#[test]
fn round_robin_and_gauntlet_schedule_every_pairing() {
    let engines = [
        "--engine",
        "builtin:random",
        "name=a",
        "--engine",
        "builtin:random",
        "name=b",
        "--engine",
        "builtin:greedy",
        "name=c",
    ];
    let mut args = vec!["match", "--games", "4"];
    args.extend(engines);
    let (json, records, _) = run_match("round-robin", &args);
    assert_eq!(records.len(), 12);
    for name in ["a", "b", "c"] {
        assert_eq!(json_field(&json, "name", name, "games"), 8);
    }
    args.push("--gauntlet");
    let (json, records, _) = run_match("gauntlet", &args);
    assert_eq!(records.len(), 8);
    assert_eq!(json_field(&json, "name", "a", "games"), 8);
    assert_eq!(json_field(&json, "name", "b", "games"), 4);
    assert_eq!(json_field(&json, "name", "c", "games"), 4);
    check_replays(&records);
}

/// A broken engine against random, 4 games: every game is its loss by `reason`, and the match
/// runs to its end. The limits leave a prompt engine plenty of time even on a loaded machine
/// (a bash script answers in a few ms); only the hang test waits for the no-reply timeout.
fn broken_engine_loses(mode: &str, reason: Reason, limits: &[&str]) {
    let command = format!("{BROKEN} {mode}");
    let mut args = vec![
        "match",
        "--engine",
        &command,
        "name=bad",
        "--engine",
        "builtin:random",
        "--games",
        "4",
        "--timeout-ms",
        if reason == Reason::NoReply {
            "300"
        } else {
            "2000"
        },
    ];
    args.extend(limits);
    let (json, records, _, stderr) = run_match_with_stderr(mode, &args);
    assert_eq!(records.len(), 4, "the match must go on to its end");
    // Each game's line gives the forfeit and what went wrong after it.
    let finished = finished_games(&stderr);
    assert_eq!(finished.len(), 4, "{stderr}");
    for (_, text) in &finished {
        assert!(
            records
                .iter()
                .any(|r| text.starts_with(&(finished_text(r) + ", "))),
            "{text}"
        );
    }
    assert_eq!(json_field(&json, "name", "bad", "games"), 4);
    assert_eq!(
        json_field(&json, "name", "bad", reason.as_str()),
        4,
        "{json}"
    );
    assert_eq!(json_field(&json, "name", "random", "wins"), 4);
    for record in &records {
        assert_eq!(record.reason, reason);
        let loser = if record.winner == lielow_rules::Side::Blue {
            &record.red
        } else {
            &record.blue
        };
        assert_eq!(loser, "bad");
    }
    check_replays(&records);
}

#[test]
fn illegal_move_loses() {
    broken_engine_loses("illegal", Reason::IllegalMove, &["--movetime", "1000"]);
}

#[test]
fn bestmove_none_loses_as_illegal() {
    broken_engine_loses("none", Reason::IllegalMove, &["--depth", "3"]);
}

#[test]
fn garbage_output_loses_as_illegal() {
    broken_engine_loses("garbage", Reason::IllegalMove, &["--nodes", "1000"]);
}

#[test]
fn hung_engine_is_killed_and_restarted() {
    broken_engine_loses("hang", Reason::NoReply, &["--movetime", "50"]);
}

#[test]
fn overrunning_movetime_is_a_time_forfeit() {
    broken_engine_loses("slow 0.5", Reason::TimeForfeit, &["--movetime", "50"]);
}

#[test]
fn overrunning_the_clock_is_a_time_forfeit() {
    broken_engine_loses("slow 0.5", Reason::TimeForfeit, &["--tc", "0.2+0.01"]);
}

#[test]
fn an_engines_own_movetime_replaces_the_matchs() {
    // The match allows 2 s a move, but the slow engine has its own 50 ms: it must forfeit on
    // time, while the built-in opponent (whose budget stays 2 s) plays on.
    let command = format!("{BROKEN} slow 0.3");
    let args = [
        "match",
        "--engine",
        &command,
        "name=bad",
        "movetime=50",
        "--engine",
        "builtin:random",
        "--games",
        "2",
        "--movetime",
        "2000",
    ];
    let (json, records, _) = run_match("own-movetime", &args);
    assert_eq!(records.len(), 2);
    assert_eq!(
        json_field(&json, "name", "bad", Reason::TimeForfeit.as_str()),
        2,
        "{json}"
    );
}

#[test]
fn exiting_mid_game_is_a_crash_and_the_engine_restarts() {
    broken_engine_loses("exit", Reason::Crash, &["--movetime", "1000"]);
}

#[test]
fn engine_that_never_finishes_the_handshake_stops_the_match_before_it_starts() {
    let command = format!("{BROKEN} nougiok");
    let output = lielow(&[
        "match",
        "--engine",
        &command,
        "--engine",
        "builtin:random",
        "--timeout-ms",
        "300",
    ]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("failed to start") && stderr.contains("ugiok"),
        "{stderr}"
    );
    let output = lielow(&[
        "match",
        "--engine",
        "/no/such/engine",
        "--engine",
        "builtin:random",
    ]);
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn bad_flags_are_clear_errors() {
    for (args, expect) in [
        (vec!["--engine", "builtin:random"], "at least two"),
        (
            vec!["--engine", "builtin:nope", "--engine", "builtin:random"],
            "unknown built-in",
        ),
        (
            vec![
                "--engine",
                "builtin:random",
                "--engine",
                "builtin:random",
                "--tc",
                "x",
            ],
            "--tc",
        ),
        (
            vec!["--engine", "'unterminated", "--engine", "builtin:random"],
            "unterminated",
        ),
        (
            vec!["--engine", "name=x", "--engine", "builtin:greedy"],
            "before any engine",
        ),
        (
            vec![
                "--engine",
                "builtin:random",
                "--engine",
                "builtin:greedy",
                "--sprt",
                "elo1=5",
            ],
            "elo0",
        ),
        (
            vec![
                "--engine",
                "builtin:random",
                "--engine",
                "builtin:random",
                "--tc",
                "0/10+0",
            ],
            "MOVES must be a positive whole number",
        ),
        (
            vec![
                "--engine",
                "builtin:random",
                "ponder",
                "--engine",
                "builtin:greedy",
            ],
            "does not ponder",
        ),
    ] {
        let mut all = vec!["match"];
        all.extend(args);
        let output = lielow(&all);
        assert_eq!(output.status.code(), Some(2), "{all:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(expect), "{all:?}: {stderr}");
    }
}

#[test]
fn sprt_stops_the_match_when_a_bound_is_crossed() {
    let (json, records, table) = run_match(
        "sprt",
        &[
            "match",
            "--engine",
            "builtin:greedy",
            "--engine",
            "builtin:random",
            "--games",
            "2000",
            "--sprt",
            "elo0=0,elo1=20",
            "--random-plies",
            "2",
            "--concurrency",
            "2",
        ],
    );
    assert!(json.contains("\"verdict\": \"H1\""), "{json}");
    // No verdict before 10 pairs; then at most one pair per worker still in flight.
    assert!(
        (20..=40).contains(&records.len()),
        "SPRT should stop soon after 10 pairs, played {}",
        records.len()
    );
    assert!(table.contains("H1 accepted"), "{table}");
}

#[test]
fn openings_file_is_validated_line_by_line() {
    let good = "# comment\n\n8/r1r1r1r1r1r1r1r1/8/8/8/8/b1b1b1b1b1b1b1b1/8 b moves a2-a3 h7-h6\n";
    let openings = parse_file(good, "book.txt").expect("valid");
    assert_eq!(openings.len(), 1);
    assert_eq!(openings[0].moves.len(), 2);
    let bad = format!("{good}8/r1r1r1r1r1r1r1r1/8/8/8/8/b1b1b1b1b1b1b1b1/8 b moves a2-a4\n");
    let error = parse_file(&bad, "book.txt").unwrap_err().to_string();
    assert!(
        error.starts_with("book.txt:4:") && error.contains("a2-a4"),
        "{error}"
    );
    let error = parse_file("8/8 b\n", "book.txt").unwrap_err().to_string();
    assert!(error.starts_with("book.txt:1:"), "{error}");
    // A game already over is no opening: Red to move with no stacks.
    assert!(Opening::parse("8/8/8/8/8/8/b1b1b1b1b1b1b1b1/8 r").is_err());
    // Through the command line, the match is refused before it starts.
    let dir = scratch("book");
    let path = dir.join("book.txt");
    std::fs::write(&path, &bad).unwrap();
    let path = path.display().to_string();
    let output = lielow(&[
        "match",
        "--engine",
        "builtin:random",
        "--engine",
        "builtin:random",
        "--openings",
        &path,
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("book.txt:4:"));
    // A valid book is used (each pair from its line, in order).
    std::fs::write(dir.join("ok.txt"), good).unwrap();
    let ok = dir.join("ok.txt").display().to_string();
    let (_, records, _) = run_match(
        "book-ok",
        &[
            "match",
            "--engine",
            "builtin:greedy",
            "--engine",
            "builtin:random",
            "--openings",
            &ok,
        ],
    );
    assert!(records
        .iter()
        .all(|r| r.moves[..2] == openings[0].moves[..]));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn openings_command_prints_distinct_legal_positions() {
    for size in ["8", "9"] {
        let output = lielow(&[
            "openings", "--plies", "6", "--count", "40", "--size", size, "--seed", "5",
        ]);
        assert!(output.status.success());
        let text = String::from_utf8(output.stdout).unwrap();
        let positions: Vec<Position> = text
            .lines()
            .map(|l| Position::from_lfen(l).unwrap_or_else(|e| panic!("{l}: {e}")))
            .collect();
        assert_eq!(positions.len(), 40);
        let mut keys: Vec<u64> = positions.iter().map(Position::key).collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), 40, "openings must be distinct");
        assert!(positions
            .iter()
            .all(|p| !p.is_game_over() && p.size().n().to_string() == size));
        // Six plies from the start: Blue to move again.
        assert!(positions
            .iter()
            .all(|p| p.side_to_move() == lielow_rules::Side::Blue));
        let again = lielow(&[
            "openings", "--plies", "6", "--count", "40", "--size", size, "--seed", "5",
        ]);
        assert_eq!(
            String::from_utf8(again.stdout).unwrap(),
            text,
            "same seed, same openings"
        );
    }
    let balanced = lielow(&[
        "openings",
        "--plies",
        "4",
        "--count",
        "5",
        "--balanced-depth",
        "2",
        "--max-eval",
        "300",
    ]);
    assert!(balanced.status.success());
    assert_eq!(
        String::from_utf8(balanced.stdout).unwrap().lines().count(),
        5
    );
    // One ply from the 8x8 start has only so many distinct results.
    let too_many = lielow(&["openings", "--plies", "1", "--count", "1000"]);
    assert_eq!(too_many.status.code(), Some(1));
}

#[test]
fn greedy_follows_its_rules() {
    let mut rng = StdRng::seed_from_u64(11);
    let mut checked = [0usize; 3];
    for _ in 0..300 {
        let mut position = Position::start(if rng.gen_bool_half() {
            BoardSize::Eight
        } else {
            BoardSize::Nine
        });
        while !position.is_game_over() {
            let moves = position.legal_moves();
            let us = position.side_to_move();
            let mv = greedy_move(&position, &mut rng).expect("a move while the game is on");
            assert!(moves.contains(&mv));
            let king_captures: Vec<_> = moves
                .iter()
                .filter(|m| m.is_capture() && m.to() == position.king(us.opponent()))
                .collect();
            let best_capture = moves
                .iter()
                .filter(|m| m.is_capture())
                .map(|m| position.height(m.to().unwrap()))
                .max();
            if !king_captures.is_empty() {
                assert!(king_captures.contains(&&mv));
                checked[0] += 1;
            } else if let Some(best) = best_capture {
                assert!(mv.is_capture() && position.height(mv.to().unwrap()) == best);
                checked[1] += 1;
            } else if mv.is_bear_off() && Some(mv.from()) == position.king(us) {
                assert_eq!(
                    moves.len(),
                    1,
                    "bore off its king with other moves available"
                );
            } else {
                checked[2] += 1;
            }
            // Continue with a random move so that all kinds of positions come up.
            position = position.play(*moves.choose(&mut rng).unwrap());
        }
    }
    assert!(checked.iter().all(|&n| n > 20), "{checked:?}");
}

trait HalfCoin {
    fn gen_bool_half(&mut self) -> bool;
}

impl HalfCoin for StdRng {
    fn gen_bool_half(&mut self) -> bool {
        rand::Rng::gen_bool(self, 0.5)
    }
}

#[test]
fn mcts_beats_random() {
    let (json, records, _) = run_match(
        "mcts",
        &[
            "match",
            "--engine",
            "builtin:mcts:300",
            "--engine",
            "builtin:random",
            "--games",
            "10",
        ],
    );
    assert_eq!(records.len(), 10);
    let wins = json_field(&json, "first", "mcts300", "wins");
    assert!(wins >= 9, "mcts300 won {wins} of 10");
}

#[test]
fn command_lines_split_like_a_shell() {
    let split = |s: &str| split_command_line(s);
    assert_eq!(split("./lielow").unwrap(), ["./lielow"]);
    assert_eq!(split("  a  b\tc ").unwrap(), ["a", "b", "c"]);
    assert_eq!(
        split(r#"'/my engines/x' --flag "a b" c\ d"#).unwrap(),
        ["/my engines/x", "--flag", "a b", "c d"]
    );
    assert_eq!(
        split(r#""q\"uote" 'it''s' "a\nb" """#).unwrap(),
        ["q\"uote", "its", "a\\nb", ""]
    );
    assert!(split("'open").is_err());
    assert!(split("\"open").is_err());
    assert!(split("trailing\\").is_err());
    assert!(split("   ").is_err());
}

#[test]
fn elo_interval_and_los_match_the_hand_computation() {
    // 20 pairs: 3 lost both games (0 of 2 points), 10 split (1 point), 7 won both (2 points).
    // Pair scores as fractions x = 0, 0.5, 1.
    //   mean s = (3*0 + 10*0.5 + 7*1) / 20 = 12/20 = 0.6
    //   var    = (3*0.6^2 + 10*0.1^2 + 7*0.4^2) / 20 = (1.08 + 0.10 + 1.12) / 20 = 0.115
    //   se     = sqrt(0.115 / 20) = sqrt(0.00575) = 0.0758288
    //   Elo(s) = -400 log10(1/0.6 - 1) = -400 log10(2/3) = 70.4365
    //   95%: s +- 1.959964 * 0.0758288 = 0.6 +- 0.148622 -> [0.451378, 0.748622]
    //        Elo(0.451378) = -400 log10(1.215439) = -33.893; Elo(0.748622) = -400 log10(0.335787) = 189.574
    //   LOS = Phi((0.6 - 0.5) / 0.0758288) = Phi(1.318761) = 0.906375
    let pairs = Pentanomial {
        counts: [3, 0, 10, 0, 7],
    };
    assert_eq!(pairs.pairs(), 20);
    let e = pairs.elo().unwrap();
    assert!((e.score - 0.6).abs() < 1e-12);
    assert!((e.elo - 70.4365).abs() < 1e-3, "{e:?}");
    assert!((e.lower - -33.893).abs() < 1e-2, "{e:?}");
    assert!((e.upper - 189.574).abs() < 1e-2, "{e:?}");
    assert!((e.error() - (189.574 + 33.893) / 2.0).abs() < 1e-2);
    assert!((e.los - 0.906375).abs() < 1e-5, "{e:?}");
    // Symmetry: swapping the engines mirrors everything.
    let mirrored = Pentanomial {
        counts: [7, 0, 10, 0, 3],
    }
    .elo()
    .unwrap();
    assert!((mirrored.elo + e.elo).abs() < 1e-9 && (mirrored.los + e.los - 1.0).abs() < 1e-6);
    assert!((elo_from_score(0.5)).abs() < 1e-12);
    assert!(elo_from_score(1.0).is_infinite() && Pentanomial::default().elo().is_none());
}

#[test]
fn elo_stays_finite_where_the_pair_interval_fails() {
    let elo = |counts| Pentanomial { counts }.elo().unwrap();
    // Two pairs won (4 games of 4): the Elo is infinite, but the Wilson interval's lower end
    // is 4 / (4 + 1.959964^2) = 0.510110, Elo(0.510110) = -400 log10(0.960362) = +7.025.
    let won = elo([0, 0, 0, 0, 2]);
    assert_eq!(won.elo, f64::INFINITY);
    assert_eq!(won.upper, f64::INFINITY);
    assert!((won.lower - 7.025).abs() < 1e-2, "{won:?}");
    let lost = elo([2, 0, 0, 0, 0]);
    assert_eq!(
        (lost.elo, lost.lower),
        (f64::NEG_INFINITY, f64::NEG_INFINITY)
    );
    assert!((lost.upper + 7.025).abs() < 1e-2, "{lost:?}");
    // 1 pair lost, 1 split (score 0.25 over 4 games): score - 1.96 se < 0, so Wilson:
    //   centre = (0.25 + 0.480182) / 1.960365 = 0.372473,
    //   half = 1.959964 sqrt(0.046875 + 0.060023) / 1.960365 = 0.326885 -> [0.045587, 0.699358]
    //   Elo(0.045740) = -528.4, Elo(0.699394) = +146.7.
    let lopsided = elo([1, 0, 1, 0, 0]);
    assert!((lopsided.lower + 528.4).abs() < 0.1, "{lopsided:?}");
    assert!((lopsided.upper - 146.7).abs() < 0.1, "{lopsided:?}");
    // Every pair split: no variance between pairs, yet four games do not prove equality.
    let even = elo([0, 0, 2, 0, 0]);
    assert!(even.elo.abs() < 1e-9 && even.error() > 200.0, "{even:?}");
    assert!((even.lower + even.upper).abs() < 1e-9);
}

#[test]
fn a_match_without_a_loss_prints_the_elo_bound_not_infinity() {
    let args = [
        "match",
        "--engine",
        "builtin:greedy",
        "--engine",
        "builtin:random",
        "--games",
        "4",
        "--random-plies",
        "2",
    ];
    let (_, records, table, stderr) = run_match_with_stderr("unbeaten", &args);
    // With the default seed greedy wins all four games.
    assert!(records.iter().all(|r| match r.winner {
        lielow_rules::Side::Blue => r.blue == "greedy",
        lielow_rules::Side::Red => r.red == "greedy",
    }));
    let row = table
        .lines()
        .find(|l| l.starts_with("greedy vs random"))
        .expect("the pairing's row");
    assert!(
        row.contains("4-0") && row.contains("> +7.0") && row.contains("[+7.0, +inf)"),
        "{table}"
    );
    assert!(
        !table.contains("± inf") && !table.contains("+inf ±"),
        "{table}"
    );
    assert!(
        stderr.contains("4-0 (100.0%)  elo > +7.0 (no losses yet)"),
        "{stderr}"
    );
}

#[test]
fn sprt_llr_and_bounds_match_the_hand_computation() {
    // Bounds for alpha = beta = 0.05: ln(0.05/0.95) = -2.944439, ln(0.95/0.05) = +2.944439.
    let sprt = Sprt::parse("elo0=0,elo1=5,alpha=0.05,beta=0.05").unwrap();
    let (lower, upper) = sprt.bounds();
    assert!((lower + 2.944439).abs() < 1e-6 && (upper - 2.944439).abs() < 1e-6);
    // All five bins filled (no regularisation): counts 1, 2, 6, 3, 4 (N = 16 pairs), elo0 = 0,
    // elo1 = 10, alpha = 0.05, beta = 0.1.
    //   s  = (0 + 2*0.25 + 6*0.5 + 3*0.75 + 4*1) / 16 = 9.75 / 16 = 0.609375
    //   var = (1*0.609375^2 + 2*0.359375^2 + 6*0.109375^2 + 3*0.140625^2 + 4*0.390625^2) / 16
    //       = (0.371338 + 0.258301 + 0.071777 + 0.059326 + 0.610352) / 16 = 0.0856934
    //   s0 = 1/(1+10^0) = 0.5, s1 = 1/(1+10^(-10/400)) = 0.5143872
    //   LLR = N (s1-s0)(2s-s0-s1) / (2 var) = 16 * 0.0143872 * 0.2043628 / 0.1713867 = 0.274486
    //   bounds: ln(0.1/0.95) = -2.251292, ln(0.9/0.05) = 2.890372
    let sprt = Sprt::parse("elo0=0, elo1=10, alpha=0.05, beta=0.1").unwrap();
    let pairs = Pentanomial {
        counts: [1, 2, 6, 3, 4],
    };
    assert!(
        (sprt.llr(&pairs) - 0.274486).abs() < 1e-5,
        "{}",
        sprt.llr(&pairs)
    );
    let (lower, upper) = sprt.bounds();
    assert!((lower + 2.251292).abs() < 1e-6 && (upper - 2.890372).abs() < 1e-6);
    // Empty bins weigh 1e-3 (fishtest's regularisation): counts 3, 0, 10, 0, 7 become
    // 3, 0.001, 10, 0.001, 7 (N = 20.002): s = 0.599990, var = 0.1149958, and with
    // elo0 = 0, elo1 = 5 (s1 = 0.5071951): LLR = 20.002 * 0.0071951 * 0.1927849 / 0.2299915 = 0.120634.
    let sprt = Sprt::parse("elo0=0,elo1=5").unwrap();
    let pairs = Pentanomial {
        counts: [3, 0, 10, 0, 7],
    };
    assert!(
        (sprt.llr(&pairs) - 0.120634).abs() < 1e-5,
        "{}",
        sprt.llr(&pairs)
    );
    assert_eq!(sprt.verdict(3.0), Some(Verdict::H1));
    assert_eq!(sprt.verdict(-3.0), Some(Verdict::H0));
    assert_eq!(sprt.verdict(0.1), None);
    // Two won pairs give a huge LLR, but no verdict is taken on fewer than 10 pairs.
    let two = Pentanomial {
        counts: [0, 0, 0, 0, 2],
    };
    assert!(sprt.llr(&two) > 2.944 && sprt.decide(&two).is_none());
    let ten = Pentanomial {
        counts: [0, 0, 0, 0, 10],
    };
    assert_eq!(sprt.decide(&ten), Some(Verdict::H1));
    // Evidence of a stronger first engine pushes the LLR up, of a weaker one down.
    assert!(
        sprt.llr(&Pentanomial {
            counts: [0, 0, 25, 0, 75]
        }) > 2.944
    );
    assert!(
        sprt.llr(&Pentanomial {
            counts: [75, 0, 25, 0, 0]
        }) < -2.944
    );
    for bad in [
        "elo0=5,elo1=0",
        "elo0=0",
        "elo0=0,elo1=5,alpha=0",
        "elo0=x,elo1=5",
        "elo0=0,elo1=5,gamma=1",
    ] {
        assert!(Sprt::parse(bad).is_err(), "{bad}");
    }
}

#[test]
fn the_real_engine_plays_whole_games_through_the_protocol() {
    let engine = LIELOW;
    let (json, records, _) = run_match(
        "real-engine",
        &[
            "match",
            "--engine",
            engine,
            "name=lielow",
            "option.Hash=1",
            "--engine",
            "builtin:random",
            "--games",
            "8",
            "--depth",
            "2",
            "--concurrency",
            "2",
            "--random-plies",
            "2",
            "--size",
            "9",
        ],
    );
    assert_eq!(records.len(), 8);
    // Every game ended by the rules: the engine never sent an illegal move, hung or crashed.
    assert!(records.iter().all(|r| !r.reason.is_forfeit()), "{json}");
    assert!(records.iter().all(|r| r.start.size() == BoardSize::Nine));
    check_replays(&records);
    assert_eq!(json_field(&json, "name", "lielow", "games"), 8);
}

/// The `go` lines an engine was sent in the first game of its log, with the moves of the
/// `position` line before each.
fn first_game_gos(log: &str) -> Vec<(usize, String)> {
    let mut games = log.split("uginewgame\n");
    let first = games.nth(1).expect("a game in the log");
    let mut moves = 0;
    let mut gos = Vec::new();
    for line in first.lines() {
        if line.starts_with("position ") {
            moves = line
                .split(" moves ")
                .nth(1)
                .map_or(0, |m| m.split(' ').count());
        } else if line.starts_with("go") {
            gos.push((moves, line.to_owned()));
        }
    }
    gos
}

/// The number after `word` in a `go` line.
fn go_value(go: &str, word: &str) -> Option<u64> {
    let mut words = go.split(' ');
    words.find(|w| *w == word)?;
    words.next()?.parse().ok()
}

/// A scratch directory, and the command line of the real engine behind the logging wrapper
/// with its log in that directory.
fn logged_engine(name: &str) -> (PathBuf, PathBuf, String) {
    let dir = scratch(name);
    let log = dir.join("engine.log");
    let command = format!("{LOGGED} {} {}", log.display(), LIELOW);
    (dir, log, command)
}

#[test]
fn a_moves_time_control_sends_movestogo_and_refills_the_clock() {
    let (dir, log, engine) = logged_engine("movestogo");
    let (json, records, _) = run_match(
        "movestogo",
        &[
            "match",
            "--engine",
            &engine,
            "name=lielow",
            "--engine",
            "builtin:greedy",
            "--games",
            "2",
            "--tc",
            "2/0.3+0",
        ],
    );
    assert!(records.iter().all(|r| !r.reason.is_forfeit()), "{json}");
    check_replays(&records);
    let log = std::fs::read_to_string(&log).expect("the log");
    // In the first game the engine is Blue: its own clock is p1time.
    let gos = first_game_gos(&log);
    assert!(gos.len() >= 3, "{gos:?}");
    for (k, (_, go)) in gos.iter().enumerate() {
        assert_eq!(go_value(go, "movestogo"), Some(2 - k as u64 % 2), "{go}");
    }
    let own: Vec<u64> = gos
        .iter()
        .map(|(_, go)| go_value(go, "p1time").unwrap())
        .collect();
    assert_eq!(own[0], 300);
    // The first period's two moves use some of its 300 ms; the third move has 300 more.
    assert!(own[1] < 300 && own[2] > 300, "{own:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_pondering_engine_ponders_on_the_expected_reply() {
    let (dir, log, engine) = logged_engine("ponder");
    let (json, records, table) = run_match(
        "ponder",
        &[
            "match",
            "--engine",
            &engine,
            "name=pondering",
            "ponder",
            "option.Threads=1",
            "--engine",
            LIELOW,
            "name=plain",
            "option.Threads=1",
            "--games",
            "2",
            "--tc",
            "0.5+0.02",
        ],
    );
    assert!(records.iter().all(|r| !r.reason.is_forfeit()), "{json}");
    check_replays(&records);
    let log = std::fs::read_to_string(&log).expect("the log");
    assert!(log.contains("setoption name Ponder value true\n"), "{log}");
    // After each `go ponder`: `ponderhit` when the opponent played the expected reply (the
    // position sent was the game's), `stop` otherwise, before the next position.
    let lines: Vec<&str> = log.lines().collect();
    let (mut hits, mut stops) = (0, 0);
    for (i, line) in lines.iter().enumerate() {
        if line.starts_with("go ") && line.ends_with(" ponder") {
            match lines.get(i + 1) {
                Some(&"ponderhit") => hits += 1,
                Some(&"stop") => stops += 1,
                Some(&"quit") | None => {}
                other => panic!("after {line}: {other:?}"),
            }
        }
    }
    assert!(hits > 0 && stops > 0, "{hits} hits, {stops} stops");
    assert_eq!(json_field(&json, "name", "pondering", "ponder_hits"), hits);
    assert_eq!(json_field(&json, "name", "plain", "ponder_hits"), 0);
    assert!(table.contains(&format!("pondering: {hits} of ")), "{table}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `lielow match` with `args` must fail at once with exit status 2 and `expect` on stderr.
fn refused_at_once(args: &[&str], expect: &str) {
    let started = Instant::now();
    let output = lielow(args);
    let took = started.elapsed();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(stderr.contains(expect), "{args:?}: {stderr}");
    assert!(!stderr.contains("games 1/"), "a game was played: {stderr}");
    eprintln!("{args:?}: refused in {took:?}");
}

/// The openings (as LFEN) that a match's game pairs started from, in the order played
/// (one worker: pair order).
fn pair_openings(records: &[GameRecord]) -> Vec<String> {
    records
        .chunks(2)
        .map(|pair| pair[0].start.to_lfen())
        .collect()
}

#[test]
fn openings_are_taken_in_order_or_shuffled_by_the_seed_from_a_given_start() {
    let dir = scratch("openings-order");
    let book = dir.join("book.txt");
    let lines = support::stdout(&lielow(&["openings", "--plies", "1", "--count", "6"]));
    std::fs::write(&book, &lines).unwrap();
    let book_s = book.display().to_string();
    let book: Vec<String> = lines.lines().map(str::to_owned).collect();
    assert_eq!(book.len(), 6);
    let played = |name: &str, extra: &[&str]| {
        let mut args = vec![
            "match",
            "--engine",
            "builtin:random",
            "--engine",
            "builtin:greedy",
            "--games",
            "12",
            "--openings",
            &book_s,
        ];
        args.extend(extra);
        pair_openings(&run_match(name, &args).1)
    };
    // Sequential (the default), from the third: 3, 4, 5, 6, 1, 2.
    assert_eq!(played("sequential", &[]), book);
    let mut from_third = book.clone();
    from_third.rotate_left(2);
    assert_eq!(played("from-third", &["--openings-start", "3"]), from_third);
    // Random: every opening once, a different order than the file's, the same for the same
    // seed, another for another seed.
    let shuffled = played("random", &["--openings-order", "random", "--seed", "3"]);
    let mut sorted = shuffled.clone();
    sorted.sort();
    let mut book_sorted = book.clone();
    book_sorted.sort();
    assert_eq!(sorted, book_sorted);
    assert_ne!(shuffled, book);
    assert_eq!(
        played(
            "random-again",
            &["--openings-order", "random", "--seed", "3"]
        ),
        shuffled
    );
    assert_ne!(
        played(
            "random-seed-4",
            &["--openings-order", "random", "--seed", "4"]
        ),
        shuffled
    );
    // The start applies to the shuffled order, and shards pick the whole match's opening for
    // each pair: shard 1/2 plays pairs 0, 2, 4 and shard 2/2 pairs 1, 3, 5.
    let random_from_2 = [
        "--openings-order",
        "random",
        "--seed",
        "3",
        "--openings-start",
        "2",
    ];
    let whole = played("random-from-2", &random_from_2);
    let mut expected = shuffled.clone();
    expected.rotate_left(1);
    assert_eq!(whole, expected);
    for k in 1..=2 {
        let shard = format!("{k}/2");
        let mut args = random_from_2.to_vec();
        args.extend(["--shard", &shard]);
        let pairs: Vec<String> = whole.iter().skip(k - 1).step_by(2).cloned().collect();
        assert_eq!(played(&format!("shard-{k}"), &args), pairs, "shard {shard}");
    }
    // Out of range, or without a file: refused before the first game.
    let engines = [
        "match",
        "--engine",
        "builtin:random",
        "--engine",
        "builtin:random",
    ];
    for (start, expect) in [
        ("0", "--openings-start 0: expected 1 to 6"),
        ("7", "expected 1 to 6"),
    ] {
        let mut args = engines.to_vec();
        args.extend(["--openings", &book_s, "--openings-start", start]);
        refused_at_once(&args, expect);
    }
    let mut args = engines.to_vec();
    args.extend(["--openings-order", "random"]);
    refused_at_once(&args, "--openings");
    let mut args = engines.to_vec();
    args.extend(["--openings", &book_s, "--openings-order", "shuffle"]);
    refused_at_once(&args, "possible values: sequential, random");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn impossible_openings_and_absurd_game_counts_are_refused_at_once() {
    let random = ["--engine", "builtin:random", "--engine", "builtin:random"];
    let with = |extra: &[&'static str]| -> Vec<&'static str> {
        let mut args = vec!["match"];
        args.extend(random);
        args.extend(extra);
        args
    };
    refused_at_once(
        &with(&["--games", "2", "--random-plies", "1000"]),
        "no random game from the start lasted 1000 plies",
    );
    for games in ["18446744073709551615", "4000000000"] {
        refused_at_once(
            &with(&["--games", games]),
            "give 1 to 1000000000 games per pairing",
        );
    }
}

#[test]
fn an_output_path_that_cannot_be_written_is_refused_before_the_first_game() {
    let dir = scratch("bad-output");
    let missing = dir.join("no/such/dir/out.json");
    let records = dir.join("games.txt");
    let (missing, records) = (missing.display().to_string(), records.display().to_string());
    let base = [
        "match",
        "--engine",
        "builtin:random",
        "--engine",
        "builtin:random",
        "--games",
        "1000",
    ];
    let mut args = base.to_vec();
    args.extend(["--records", &records, "--json", &missing]);
    refused_at_once(&args, "cannot write");
    let mut args = base.to_vec();
    args.extend(["--records", &missing]);
    refused_at_once(&args, "cannot write");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn stray_output_after_bestmove_answers_nothing_and_costs_nothing() {
    // The engine repeats each bestmove and floods 3000 lines after it; at 200 ms a move and a
    // 50 ms allowance, neither may cost it a move or time.
    let command = format!("{NOISY} {}", LIELOW);
    let (json, records, _) = run_match(
        "noisy",
        &[
            "match",
            "--engine",
            &command,
            "name=noisy",
            "--engine",
            "builtin:greedy",
            "--games",
            "2",
            "--movetime",
            "200",
        ],
    );
    assert!(records.iter().all(|r| !r.reason.is_forfeit()), "{json}");
    assert_eq!(json_field(&json, "name", "noisy", "wins"), 2, "{json}");
    check_replays(&records);
}

/// Whether process `pid` is gone (a zombie counts as gone: it runs nothing).
fn is_gone(pid: &str) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit(')')
            .next()
            .is_some_and(|rest| rest.trim_start().starts_with('Z')),
    }
}

/// Waits up to 10 s for `pidfile` to name the spawner engine's shell and its child.
fn spawned_pids(pidfile: &std::path::Path) -> Vec<String> {
    let started = Instant::now();
    loop {
        if let Ok(text) = std::fs::read_to_string(pidfile) {
            let pids: Vec<String> = text.split_whitespace().map(str::to_owned).collect();
            if pids.len() == 2 {
                return pids;
            }
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the engine never went"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A match of the spawner engine (hung, with a child) against the random player, limited by
/// `limits`: its scratch directory, the engine's pid file, and the command, not started.
fn spawner_match(name: &str, limits: &[&str]) -> (PathBuf, PathBuf, Command) {
    let dir = scratch(name);
    let pidfile = dir.join("pids");
    let engine = format!("{SPAWNER} {}", pidfile.display());
    let mut command = lielow_command();
    command.args([
        "match",
        "--engine",
        &engine,
        "name=hung",
        "--engine",
        "builtin:random",
        "--games",
        "2",
    ]);
    command.args(limits);
    (dir, pidfile, command)
}

/// Waits up to 5 s for every process of `pids` to be gone.
fn assert_all_gone(pids: &[String]) {
    let started = Instant::now();
    while !pids.iter().all(|pid| is_gone(pid)) {
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "left running: {pids:?}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_hung_engine_and_its_children_are_killed_without_a_path() {
    let (dir, pidfile, mut command) =
        spawner_match("no-path", &["--movetime", "50", "--timeout-ms", "200"]);
    let output = command
        .env("PATH", "/nonexistent")
        .output()
        .expect("run lielow");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_all_gone(&spawned_pids(&pidfile));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sigterm_stops_the_runner_and_every_engine_it_started() {
    use nix::sys::signal::{kill, Signal};
    use nix::unistd::Pid;
    let (dir, pidfile, mut command) = spawner_match("sigterm", &["--movetime", "60000"]);
    let mut runner = command
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run lielow");
    let pids = spawned_pids(&pidfile);
    kill(Pid::from_raw(runner.id() as i32), Signal::SIGTERM).expect("signal the runner");
    let started = Instant::now();
    let status = loop {
        if let Some(status) = runner.try_wait().expect("wait") {
            break status;
        }
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "the runner ignored SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(10));
    };
    assert_eq!(status.code(), Some(130));
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut runner.stderr.take().unwrap(), &mut stderr).unwrap();
    assert!(stderr.contains("interrupted"), "{stderr}");
    assert_all_gone(&pids);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The summary's lines without the wall-time fields (which no two runs share).
fn without_times(json: &str) -> Vec<String> {
    json.lines()
        .map(|line| {
            line.split(", ")
                .filter(|field| {
                    !field.starts_with("\"time_ms\"")
                        && !field.starts_with("\"average_ms_per_move\"")
                })
                .collect::<Vec<_>>()
                .join(", ")
        })
        .collect()
}

#[test]
fn merged_shards_give_exactly_the_whole_matchs_figures() {
    let engine = LIELOW;
    let base = [
        "match",
        "--engine",
        engine,
        "name=lielow",
        "option.Threads=1",
        "--engine",
        "builtin:greedy",
        "--games",
        "10",
        "--nodes",
        "400",
        "--random-plies",
        "4",
        "--seed",
        "3",
        "--sprt",
        "elo0=0,elo1=50",
    ];
    let (whole_json, whole_records, whole_table) = run_match("whole", &base);
    let dir = scratch("shards");
    let mut shard_files = Vec::new();
    let mut shard_records = Vec::new();
    for k in 1..=4 {
        let shard = format!("{k}/4");
        let mut args = base.to_vec();
        args.extend(["--shard", &shard]);
        let (json, records, _) = run_match(&format!("shard{k}"), &args);
        let file = dir.join(format!("shard{k}.json"));
        std::fs::write(&file, &json).unwrap();
        shard_files.push(file.display().to_string());
        shard_records.extend(records);
    }
    // The shards played exactly the whole match's games (pairs 0..5 split 2, 1, 1, 1).
    let sorted = |records: &[GameRecord]| {
        let mut lines: Vec<String> = records.iter().map(untimed).collect();
        lines.sort();
        lines
    };
    assert_eq!(sorted(&shard_records), sorted(&whole_records));
    let merged_json = dir.join("merged.json");
    let mut args = vec!["match", "--merge"];
    args.extend(shard_files.iter().map(String::as_str));
    let merged_json_s = merged_json.display().to_string();
    args.extend(["--json", &merged_json_s]);
    let output = lielow(&args);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let merged_table = String::from_utf8_lossy(&output.stdout).into_owned();
    let merged = std::fs::read_to_string(&merged_json).unwrap();
    assert_eq!(without_times(&merged), without_times(&whole_json));
    // The table too, but for the ms/move column.
    let rows = |table: &str| -> Vec<String> {
        table
            .lines()
            .filter(|l| {
                !l.contains("ms/move") && !l.starts_with("lielow ") && !l.starts_with("greedy ")
            })
            .map(str::to_owned)
            .collect()
    };
    assert_eq!(rows(&merged_table), rows(&whole_table));
    assert!(
        merged_table.contains("SPRT elo0=0 elo1=50"),
        "{merged_table}"
    );

    // Three of four: merged, with the missing one named.
    let output = lielow(&[
        "match",
        "--merge",
        &shard_files[0],
        &shard_files[2],
        &shard_files[3],
    ]);
    assert!(output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("merged 3 of 4 shards; missing 2"),
        "{stderr}"
    );
    // The same shard twice, or a shard of another match, or not a summary: refused.
    let other = dir.join("other.json");
    std::fs::write(
        &other,
        whole_json.replace("\"fingerprint\": \"", "\"fingerprint\": \"0"),
    )
    .unwrap();
    let garbage = dir.join("garbage.json");
    std::fs::write(&garbage, "{\"games\": 3}").unwrap();
    for (second, expect) in [
        (shard_files[0].clone(), "shard 1/4 is already merged"),
        (other.display().to_string(), "a shard of another match"),
        (garbage.display().to_string(), "not a lielow match summary"),
    ] {
        let output = lielow(&["match", "--merge", &shard_files[0], &second]);
        assert_eq!(output.status.code(), Some(2));
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(expect), "{stderr}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
