//! The command line as a user meets it: defaults shown as they are, output where it is expected,
//! progress during long work, and exit status 2 for every usage error.

mod support;

use support::{lielow, stderr, stdout};

#[test]
fn board_without_an_output_writes_the_svg_to_stdout() {
    let output = lielow(&["board", "startpos"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let svg = stdout(&output);
    assert!(
        svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"),
        "{svg}"
    );
    assert_eq!(svg, stdout(&lielow(&["board", "startpos", "-o", "-"])));
}

#[test]
fn bench_help_shows_the_real_default_depth() {
    let help = stdout(&lielow(&["bench", "--help"]));
    let default = format!("[default: {}]", lielow_engine::bench::DEFAULT_DEPTH);
    assert!(help.contains(&default), "{help}");
    assert!(!help.contains("bench::DEFAULT_DEPTH"), "{help}");
}

#[test]
fn a_long_proof_says_it_is_still_at_work() {
    let output = lielow(&[
        "solve",
        "startpos",
        "--time",
        "5.5",
        "--max-nodes",
        "100000000000",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let error = stderr(&output);
    assert!(
        error.contains("lielow solve: still proving after 5 s"),
        "{error}"
    );
    assert!(
        stdout(&output).starts_with("unknown:"),
        "{}",
        stdout(&output)
    );
}

#[test]
fn every_usage_error_exits_2_with_a_message() {
    for args in [
        vec!["openings", "--plies", "1000", "--count", "2"],
        vec!["openings", "--count", "1"],
        vec!["perft", "x"],
        vec!["perft", "1", "garbage"],
        vec!["bench", "0"],
        vec!["board"],
        vec!["board", "startpos", "--arrow", "zz"],
        vec!["solve", "startpos", "--time", "0"],
        vec!["analyse"],
        vec!["datagen", "--games", "1"],
        vec![
            "datagen",
            "-o",
            "/nonexistent/x.bin",
            "--games",
            "1",
            "--threads",
            "2",
        ],
        vec!["match", "--engine", "builtin:random"],
        vec!["gui", "--port", "x"],
        vec!["nonsense"],
    ] {
        let output = lielow(&args);
        assert_eq!(
            output.status.code(),
            Some(2),
            "lielow {args:?}: {}",
            stderr(&output)
        );
        assert!(
            !stderr(&output).trim().is_empty(),
            "lielow {args:?}: no message"
        );
    }
}

#[test]
fn gui_checks_every_engine_before_the_page_opens() {
    for (args, expect) in [
        (
            vec!["gui", "--port", "0", "--engine", "./no-such-engine"],
            "engine 'no-such-engine' failed to start",
        ),
        (
            vec!["gui", "--port", "0", "--engine", "builtin:random"],
            "built-in player",
        ),
        (vec!["gui", "--port", "0", "--engine", "name=x"], "'name=x'"),
    ] {
        let output = lielow(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let error = stderr(&output);
        assert!(error.contains(expect), "{args:?}: {error}");
        assert!(
            !error.contains("http://"),
            "{args:?}: the page opened: {error}"
        );
    }
}
