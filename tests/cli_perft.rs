//! Black-box tests of `lielow perft`: the real binary, its stdout, stderr and exit status.

mod support;

use std::collections::BTreeSet;

use lielow_rules::{BoardSize, Position};
use support::{lielow, stderr, stdout};

/// Runs a perft that must succeed; returns its stdout lines.
fn perft_ok(args: &[&str]) -> Vec<String> {
    let output = lielow(args);
    assert!(
        output.status.success(),
        "lielow {args:?} failed: {}",
        stderr(&output)
    );
    let lines: Vec<String> = stdout(&output).lines().map(str::to_owned).collect();
    assert!(!lines.is_empty(), "lielow {args:?} printed nothing");
    lines
}

/// The node count of the final `Nodes searched: N` line.
fn nodes(lines: &[String]) -> u64 {
    let last = lines.last().expect("a last line");
    last.strip_prefix("Nodes searched: ")
        .unwrap_or_else(|| panic!("last line is '{last}'"))
        .parse()
        .expect("a node count")
}

/// The `<move>: <count>` lines of a divide.
fn divide_lines(lines: &[String]) -> Vec<(String, u64)> {
    lines[..lines.len() - 1]
        .iter()
        .filter(|line| !line.is_empty())
        .map(|line| {
            let (mv, count) = line
                .split_once(": ")
                .unwrap_or_else(|| panic!("divide line '{line}'"));
            (mv.to_owned(), count.parse().expect("a count"))
        })
        .collect()
}

#[test]
fn perft_3_of_the_start_position() {
    let output = lielow(&["perft", "3"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let lines: Vec<String> = stdout(&output).lines().map(str::to_owned).collect();
    assert_eq!(
        lines.last().map(String::as_str),
        Some("Nodes searched: 97520")
    );
    // Timing goes to stderr, not stdout.
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(!stderr(&output).is_empty());
}

#[test]
fn perft_depths_0_and_1() {
    assert_eq!(nodes(&perft_ok(&["perft", "0"])), 1);
    assert_eq!(nodes(&perft_ok(&["perft", "1"])), 46);
    assert_eq!(nodes(&perft_ok(&["perft", "1", "--size", "9"])), 86);
}

#[test]
fn divide_lists_each_legal_move_once_and_sums_to_the_total() {
    for (args, size) in [
        (vec!["perft", "3", "--divide"], BoardSize::Eight),
        (
            vec!["perft", "2", "--divide", "--size", "9"],
            BoardSize::Nine,
        ),
    ] {
        let lines = perft_ok(&args);
        let split = divide_lines(&lines);
        let total = nodes(&lines);
        assert_eq!(split.iter().map(|(_, count)| count).sum::<u64>(), total);
        let listed: BTreeSet<String> = split.iter().map(|(mv, _)| mv.clone()).collect();
        assert_eq!(listed.len(), split.len(), "a move listed twice");
        let start = Position::start(size);
        let legal: BTreeSet<String> = start.legal_moves().iter().map(|m| m.to_string()).collect();
        assert_eq!(listed, legal, "{args:?}");
        for (mv, count) in &split {
            let child = start.play(start.parse_move(mv).expect("legal"));
            let depth = if size == BoardSize::Eight { 2 } else { 1 };
            assert_eq!(*count, lielow_rules::perft::perft(&child, depth), "{mv}");
        }
    }
}

#[test]
fn nine_by_nine_start() {
    assert_eq!(nodes(&perft_ok(&["perft", "3", "--size", "9"])), 626_080);
}

#[test]
fn two_threads_count_the_same_as_one() {
    for args in [["perft", "4", "--size", "8"], ["perft", "3", "--size", "9"]] {
        let one = nodes(&perft_ok(&args));
        let mut threaded = args.to_vec();
        threaded.extend(["--threads", "2"]);
        assert_eq!(nodes(&perft_ok(&threaded)), one, "{threaded:?}");
        threaded.push("--divide");
        let lines = perft_ok(&threaded);
        let mut single = args.to_vec();
        single.push("--divide");
        assert_eq!(lines, perft_ok(&single), "divide with 2 threads");
    }
    assert_eq!(
        nodes(&perft_ok(&["perft", "4", "--threads", "2"])),
        4_426_560
    );
}

#[test]
fn perft_of_a_given_position() {
    // The first line of perft_positions.txt: 22 ; 755 ; 14365.
    let fen = "2r33r21/5r31r1/4r22r2/b37/7B4/8/4r2b12/4b3R12 b";
    assert_eq!(nodes(&perft_ok(&["perft", "1", "--fen", fen])), 22);
    assert_eq!(nodes(&perft_ok(&["perft", "3", "--fen", fen])), 14_365);
    // --fen sets the size; --size is ignored with it.
    let nine = "9/9/9/9/4B54/9/9/9/r1r1r1r1R2r1r1r1r1 b";
    let lines = perft_ok(&["perft", "1", "--fen", nine, "--divide", "--size", "8"]);
    assert_eq!(lines, ["e5-off: 1", "Nodes searched: 1"]);
    assert_eq!(nodes(&perft_ok(&["perft", "2", "--fen", nine])), 0);
}

#[test]
fn malformed_fen_fails_with_the_error_on_stderr() {
    for fen in [
        "8/8/8 b",
        "8/r1r1r1r1r1r1r1r1/8/8/8/8/b1b1b1b1b1b1b1b1/8 x",
        "8/r1r1r1r1r1r1r1r1/8/8/8/8/b2b1b1b1b1b1b1b1/8 b",
        "",
    ] {
        let output = lielow(&["perft", "2", "--fen", fen]);
        assert!(!output.status.success(), "'{fen}' accepted");
        assert_eq!(stdout(&output), "", "'{fen}': nothing on stdout");
        let error = stderr(&output);
        assert!(error.contains("LFEN"), "'{fen}': stderr '{error}'");
        assert_eq!(
            error.trim().lines().count(),
            1,
            "a one-line error: '{error}'"
        );
    }
}

#[test]
fn bad_arguments_fail() {
    for args in [
        vec!["perft", "x"],
        vec!["perft", "-1"],
        vec!["perft"],
        vec!["perft", "2", "--size", "7"],
        vec!["perft", "2", "--size", "10"],
        vec!["perft", "2", "--threads", "0"],
        vec!["perft", "2", "--threads", "many"],
        vec!["perft", "2", "--bogus"],
        vec!["perft", "2", "--fen"],
        vec!["nonsense"],
    ] {
        let output = lielow(&args);
        assert!(!output.status.success(), "lielow {args:?} succeeded");
        assert_eq!(stdout(&output), "", "lielow {args:?} wrote to stdout");
        assert!(
            !stderr(&output).is_empty(),
            "lielow {args:?}: no error message"
        );
    }
}
