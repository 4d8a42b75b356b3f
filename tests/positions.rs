//! One way to name a position on the command line: `startpos`, an LFEN, or either followed by
//! `moves ...`, read the same by `perft`, `board`, `solve` and `analyse --game`.

mod support;

use lielow_rules::{BoardSize, Position};
use support::{lielow, stderr, stdout};

/// The LFEN of the 8x8 start position after `moves`.
fn lfen_after(moves: &[&str]) -> String {
    let (position, _) = Position::start(BoardSize::Eight).replay(moves).unwrap();
    position.to_lfen()
}

/// The node count of a perft that must succeed.
fn perft_nodes(args: &[&str]) -> u64 {
    let output = lielow(args);
    assert!(output.status.success(), "{args:?}: {}", stderr(&output));
    stdout(&output)
        .lines()
        .last()
        .and_then(|line| line.strip_prefix("Nodes searched: "))
        .and_then(|count| count.parse().ok())
        .unwrap_or_else(|| panic!("{args:?}: {}", stdout(&output)))
}

#[test]
fn perft_takes_the_position_as_an_argument_or_as_fen() {
    assert_eq!(perft_nodes(&["perft", "1", "startpos"]), 46);
    assert_eq!(perft_nodes(&["perft", "1", "--fen", "startpos"]), 46);
    assert_eq!(perft_nodes(&["perft", "1", "startpos", "--size", "9"]), 86);
    let after = lfen_after(&["a2-a3"]);
    let by_moves = perft_nodes(&["perft", "2", "startpos moves a2-a3"]);
    assert_eq!(by_moves, perft_nodes(&["perft", "2", &after]));
    assert_eq!(by_moves, perft_nodes(&["perft", "2", "--fen", &after]));
    let lfen_moves = format!("{} moves a2-a3", lfen_after(&[]));
    assert_eq!(by_moves, perft_nodes(&["perft", "2", &lfen_moves]));
    // Both forms at once are refused.
    let output = lielow(&["perft", "1", "startpos", "--fen", "startpos"]);
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn board_draws_the_position_after_the_moves_with_the_last_one_tinted() {
    let svg = |args: &[&str]| {
        let output = lielow(args);
        assert!(output.status.success(), "{args:?}: {}", stderr(&output));
        stdout(&output)
    };
    let by_moves = svg(&["board", "startpos moves a2-a3 a7-a6", "-o", "-"]);
    let after = lfen_after(&["a2-a3", "a7-a6"]);
    let by_lfen = svg(&["board", &after, "--last-move", "a7-a6", "-o", "-"]);
    assert_eq!(by_moves, by_lfen);
    assert!(by_moves.contains("last-move"), "the last move is tinted");
}

#[test]
fn solve_plays_the_moves_first() {
    let output = lielow(&["solve", "startpos moves a2-a3", "--max-nodes", "2000"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stdout(&output).starts_with("unknown:"),
        "{}",
        stdout(&output)
    );
}

#[test]
fn every_command_refuses_the_same_bad_position_with_the_same_one_line() {
    let bad = "8/8/8 b";
    for args in [
        vec!["perft", "1", bad],
        vec!["perft", "1", "--fen", bad],
        vec!["board", bad, "-o", "-"],
        vec!["solve", bad],
        vec!["analyse", "--game", bad],
    ] {
        let output = lielow(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let error = stderr(&output);
        assert!(
            error.contains("position '8/8/8 b': bad LFEN"),
            "{args:?}: {error}"
        );
        assert_eq!(error.lines().count(), 1, "{args:?}: {error}");
        assert_eq!(stdout(&output), "", "{args:?}");
    }
}

#[test]
fn a_bare_move_list_is_told_what_is_expected() {
    for args in [
        vec!["analyse", "--game", "g2-f3 b7-c6"],
        vec!["board", "g2-f3 b7-c6", "-o", "-"],
        vec!["perft", "1", "g2-f3 b7-c6"],
    ] {
        let output = lielow(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let error = stderr(&output);
        assert!(
            error.contains("without the position")
                && error.contains("'startpos moves g2-f3 b7-c6'"),
            "{args:?}: {error}"
        );
        assert!(!error.contains("side to move"), "{args:?}: {error}");
    }
}
