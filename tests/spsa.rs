//! `lielow spsa` end to end with the real engine at a fixed node count (deterministic games):
//! the state after each iteration, resuming, shards added up, and refusals.

mod support;

use std::fs;
use std::path::Path;

use support::{lielow, scratch, stderr, LIELOW};

const PARAMS: &str = "# two of the search's numbers, with large steps so that θ moves\n\
                      LMRBase, 80, 0, 300, 20, 0.05\n\
                      NullMoveBase, 3, 1, 6, 1, 0.05\n";

/// The flags of the test run: 2 iterations of 2 pairs at 2000 nodes a move (enough depth for
/// the tuned reductions to change the games), with the hand-set evaluation, so that shipping a
/// new network leaves these games, and the seed chosen for them, as they are.
fn run_flags(dir: &Path) -> Vec<String> {
    let params = dir.join("params.txt");
    fs::write(&params, PARAMS).unwrap();
    [
        "spsa",
        "--params",
        params.to_str().unwrap(),
        "--engine",
        LIELOW,
        "option.Threads=1",
        "option.EvalFile=hand-set",
        "--iterations",
        "2",
        "--pairs",
        "2",
        "--nodes",
        "2000",
        "--random-plies",
        "4",
        "--seed",
        "14",
    ]
    .map(String::from)
    .to_vec()
}

fn spsa(args: &[String], more: &[&str]) -> std::process::Output {
    let mut all: Vec<&str> = args.iter().map(String::as_str).collect();
    all.extend_from_slice(more);
    lielow(&all)
}

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn a_run_writes_its_state_each_iteration_and_resumes_to_the_same_end() {
    let dir = scratch("spsa-resume");
    let flags = run_flags(&dir);
    let whole = dir.join("whole.json");
    let out = spsa(&flags, &["--state", whole.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    // One progress line per iteration, then the table.
    let log = stderr(&out);
    assert!(
        log.contains("spsa 1/2 games 4 ") && log.contains("spsa 2/2 games 4 "),
        "{log}"
    );
    assert!(log.contains("| LMRBase "), "{log}");
    let table = support::stdout(&out);
    assert!(
        table.starts_with("SPSA after 2 of 2 iterations (8 games)"),
        "{table}"
    );
    assert!(table.contains("NullMoveBase"), "{table}");

    let state = json(&whole);
    assert_eq!(state["iteration"], 2);
    let history = state["history"].as_array().unwrap();
    assert_eq!(history.len(), 2);
    for (k, entry) in history.iter().enumerate() {
        assert_eq!(entry["iteration"], k);
        let games = entry["plus_wins"].as_u64().unwrap() + entry["minus_wins"].as_u64().unwrap();
        assert_eq!(games, 4);
    }
    assert_eq!(state["theta"], history[1]["theta"]);
    // θ moves exactly when the iteration's score is not zero; this seed's games have one.
    let mut before = serde_json::json!([80.0, 3.0]);
    let mut moved = 0;
    for entry in history {
        let even = entry["plus_wins"] == entry["minus_wins"];
        assert_eq!(entry["theta"] == before, even, "{entry}");
        moved += usize::from(!even);
        before = entry["theta"].clone();
    }
    assert!(
        moved > 0,
        "no iteration moved θ: choose another --seed for this test"
    );
    // Every θ within its range.
    let theta = state["theta"].as_array().unwrap();
    let lmr = theta[0].as_f64().unwrap();
    let null = theta[1].as_f64().unwrap();
    assert!((0.0..=300.0).contains(&lmr) && (1.0..=6.0).contains(&null));

    // Interrupted after one iteration, then resumed: the same file at the end.
    let split = dir.join("split.json");
    let first = spsa(
        &flags,
        &["--state", split.to_str().unwrap(), "--stop-after", "1"],
    );
    assert!(first.status.success(), "{}", stderr(&first));
    let after_one = json(&split);
    assert_eq!(after_one["iteration"], 1);
    assert_eq!(after_one["history"][0], history[0]);
    let resumed = lielow(&["spsa", "--resume", "--state", split.to_str().unwrap()]);
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    assert_eq!(fs::read(&split).unwrap(), fs::read(&whole).unwrap());

    // A finished run is not resumed, and a new run does not overwrite a state.
    let again = lielow(&["spsa", "--resume", "--state", split.to_str().unwrap()]);
    assert_eq!(again.status.code(), Some(2));
    assert!(stderr(&again).contains("every iteration is done"));
    let over = spsa(&flags, &["--state", split.to_str().unwrap()]);
    assert_eq!(over.status.code(), Some(2));
    assert!(
        stderr(&over).contains("exists: continue it with --resume"),
        "{}",
        stderr(&over)
    );
    assert_eq!(fs::read(&split).unwrap(), fs::read(&whole).unwrap());
}

#[test]
fn shards_added_up_move_theta_as_the_whole_iteration_does() {
    let dir = scratch("spsa-shards");
    let flags = run_flags(&dir);
    let whole = dir.join("whole.json");
    let out = spsa(
        &flags,
        &["--state", whole.to_str().unwrap(), "--stop-after", "1"],
    );
    assert!(out.status.success(), "{}", stderr(&out));

    let state = dir.join("state.json");
    let state_arg = state.to_str().unwrap();
    let init = spsa(&flags, &["--state", state_arg, "--init"]);
    assert!(init.status.success(), "{}", stderr(&init));
    assert_eq!(json(&state)["iteration"], 0);
    let mut parts = Vec::new();
    for k in 1..=2 {
        let part = dir.join(format!("part-{k}.json"));
        let shard = format!("{k}/2");
        let out = lielow(&[
            "spsa",
            "--state",
            state_arg,
            "--shard",
            &shard,
            "--partial",
            part.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        let games = json(&part)["plus_wins"].as_u64().unwrap()
            + json(&part)["minus_wins"].as_u64().unwrap();
        assert_eq!(games, 2, "shard {shard}: one pair");
        parts.push(part.to_str().unwrap().to_owned());
    }
    let before = fs::read(&state).unwrap();
    // A missing shard or one given twice changes nothing.
    for bad in [vec![&parts[0]], vec![&parts[0], &parts[0]]] {
        let mut args = vec!["spsa", "--state", state_arg, "--update"];
        args.extend(bad.iter().map(|p| p.as_str()));
        let out = lielow(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let message = stderr(&out);
        assert!(
            message.contains("shard 2/2 is missing") || message.contains("given twice"),
            "{message}"
        );
        assert_eq!(fs::read(&state).unwrap(), before);
    }
    let update = lielow(&[
        "spsa", "--state", state_arg, "--update", &parts[0], &parts[1],
    ]);
    assert!(update.status.success(), "{}", stderr(&update));
    assert_eq!(fs::read(&state).unwrap(), fs::read(&whole).unwrap());
    // The same partials do not fit the next iteration.
    let stale = lielow(&[
        "spsa", "--state", state_arg, "--update", &parts[0], &parts[1],
    ]);
    assert_eq!(stale.status.code(), Some(2));
    assert!(
        stderr(&stale).contains("played for another iteration"),
        "{}",
        stderr(&stale)
    );
}

#[test]
fn bad_parameter_files_and_options_are_refused_with_exit_2() {
    let dir = scratch("spsa-bad");
    let state = dir.join("state.json");
    let cases = [
        (
            "LMRBase, 80, 0, 300, 20\n",
            "line 1: expected NAME, START, MIN, MAX, C_END, R_END (6 fields), found 5",
        ),
        (
            "# ok\nLMRBase, 500, 0, 300, 20, 0.002\n",
            "line 2: expected MIN <= START <= MAX",
        ),
        (
            "LMRBase, 80, 0, 300, zero, 0.002\n",
            "line 1: C_END 'zero' is not a number",
        ),
        ("", "no parameter to tune"),
        // The engine has no such option: refused before any game.
        (
            "NoSuchOption, 1, 0, 2, 1, 0.002\n",
            "the engine refused an option: info string error: unknown option 'NoSuchOption'",
        ),
        // Past the engine's own range at an end of the file's.
        (
            "LMRBase, 80, 0, 5000, 20, 0.002\n",
            "the engine refused an option: info string error: option LMRBase: bad value '5000'",
        ),
    ];
    for (text, message) in cases {
        let params = dir.join("params.txt");
        fs::write(&params, text).unwrap();
        let out = lielow(&[
            "spsa",
            "--params",
            params.to_str().unwrap(),
            "--engine",
            LIELOW,
            "--nodes",
            "100",
            "--state",
            state.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(2), "{text:?}");
        let said = stderr(&out);
        assert!(said.starts_with("lielow spsa: "), "{said}");
        assert!(said.contains(message), "{text:?}: {said}");
        assert_eq!(said.lines().count(), 1, "{said}");
        assert!(!state.exists(), "{text:?}: no state written");
    }
    let listed = lielow(&["spsa", "--list"]);
    assert!(listed.status.success());
    let list = support::stdout(&listed);
    let lmr_base = lielow_engine::search::Params::default().lmr_base;
    assert!(
        list.contains(&format!("\nLMRBase, {lmr_base}, -200, 400, 10, 0.002\n")),
        "{list}"
    );
    assert!(
        list.contains("\nNullMoveBase, 2, 0, 64, 1, 0.002\n"),
        "{list}"
    );
    // A number with a default per board size starts from the default on --size.
    assert!(
        list.contains("\nHistoryPrior, 100, 0, 1000, 10, 0.002\n"),
        "{list}"
    );
    let nine = lielow(&["spsa", "--list", "--size", "9"]);
    assert!(nine.status.success());
    let nine = support::stdout(&nine);
    assert!(
        nine.contains("\nHistoryPrior, 0, 0, 1000, 10, 0.002\n"),
        "{nine}"
    );
    assert!(
        nine.contains("\nQSearchFullPlies, 2, 0, 128, 1, 0.002\n"),
        "{nine}"
    );
}
