//! Every line of the reference data (`tests/data/reference/*.txt`), checked against the library:
//! start-position perft, perft(1..3) of the listed positions, and the listed games replayed
//! move by move to their final position and winner.
//!
//! The files are a copy, kept in the repository so that a bare clone passes its tests, of the
//! project's shared reference data (computed by two independent implementations; see
//! `tests/data/reference/README.md`). `.ci/run` checks that the copy equals the shared one
//! when that is present. A missing file fails the test: the data is never skipped.

use lielow_rules::perft::perft;
use lielow_rules::{BoardSize, Position, Side};

/// Reads a reference file, failing loudly (never skipping) when it is not there.
fn read_reference(name: &str) -> String {
    let path = format!("{}/tests/data/reference/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path)
        .unwrap_or_else(|error| panic!("reference file {path} cannot be read ({error})"))
}

/// The non-empty lines of a reference file, split into their ` ; ` fields.
fn records(name: &str) -> Vec<Vec<String>> {
    let text = read_reference(name);
    let rows: Vec<Vec<String>> = text
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| line.split(" ; ").map(str::to_owned).collect())
        .collect();
    assert!(!rows.is_empty(), "{name} has no lines");
    rows
}

fn parse_side(text: &str) -> Side {
    match text {
        "b" => Side::Blue,
        "r" => Side::Red,
        other => panic!("bad winner field '{other}' in games.txt"),
    }
}

#[test]
fn start_position_perft() {
    let text = read_reference("perft_start.txt");
    let mut checked = 0;
    for line in text.lines().filter(|line| !line.trim().is_empty()) {
        let fields: Vec<u64> = line
            .split_whitespace()
            .map(|field| field.parse().expect("perft_start.txt holds numbers"))
            .collect();
        let [size, depth, nodes] = fields[..] else {
            panic!("perft_start.txt line '{line}' does not have three fields");
        };
        let size = BoardSize::from_n(size as usize).expect("size 8 or 9");
        let start = Position::start(size);
        assert_eq!(
            perft(&start, depth as u32),
            nodes,
            "perft({depth}) of the {size}x{size} start position"
        );
        checked += 1;
    }
    // 8x8 depths 1-5 and 9x9 depths 1-4.
    assert_eq!(checked, 9, "perft_start.txt should have 9 lines");
}

#[test]
fn listed_positions_perft() {
    let rows = records("perft_positions.txt");
    assert_eq!(rows.len(), 40, "perft_positions.txt should have 40 lines");
    for row in rows {
        assert_eq!(row.len(), 4, "line {row:?} should have 4 fields");
        let position =
            Position::from_lfen(&row[0]).unwrap_or_else(|error| panic!("{}: {error}", row[0]));
        assert_eq!(position.to_lfen(), row[0], "LFEN round trip");
        for depth in 1..=3u32 {
            let expected: u64 = row[depth as usize].parse().expect("a count");
            assert_eq!(
                perft(&position, depth),
                expected,
                "perft({depth}) of {}",
                row[0]
            );
        }
    }
}

#[test]
fn listed_games_replay() {
    let rows = records("games.txt");
    assert_eq!(rows.len(), 20, "games.txt should have 20 lines");
    for row in rows {
        assert_eq!(row.len(), 4, "line {row:?} should have 4 fields");
        let (start, moves, winner, final_lfen) = (&row[0], &row[1], &row[2], &row[3]);
        let mut position =
            Position::from_lfen(start).unwrap_or_else(|error| panic!("{start}: {error}"));
        let moves: Vec<&str> = moves.split(' ').collect();
        assert!(!moves.is_empty());
        for (ply, text) in moves.iter().enumerate() {
            assert!(
                !position.is_game_over(),
                "game from {start}: over before move {ply} ({text}) in {position}"
            );
            let mv = position
                .parse_move(text)
                .unwrap_or_else(|error| panic!("game from {start}, ply {ply}: {error}"));
            assert_eq!(mv.to_string(), *text, "canonical notation");
            position = position
                .try_play(mv)
                .unwrap_or_else(|error| panic!("game from {start}, ply {ply}: {error}"));
            assert_eq!(
                position.key(),
                position.compute_key(),
                "incremental key after {text} (ply {ply}) of the game from {start}"
            );
        }
        assert!(
            position.is_game_over(),
            "game from {start} should be over after its last move: {position}"
        );
        assert!(
            position.legal_moves().is_empty(),
            "a finished game has no moves"
        );
        assert_eq!(position.to_lfen(), *final_lfen, "final position of {start}");
        assert_eq!(
            position.winner(),
            Some(parse_side(winner)),
            "winner of the game from {start}"
        );
    }
}

/// The first game of games.txt is the documented case where the winner's crown stays on the
/// height-1 stack that captured the king although another of its stacks is now uniquely tallest.
#[test]
fn crown_rule_not_applied_after_the_winning_capture() {
    let rows = records("games.txt");
    let mut position = Position::from_lfen(&rows[0][0]).expect("start position");
    for text in rows[0][1].split(' ') {
        let mv = position.parse_move(text).expect("a legal move");
        position = position.play(mv);
    }
    let square = |text: &str| lielow_rules::Square::parse(text).expect("a square");
    assert_eq!(position.winner(), Some(Side::Red));
    assert_eq!(position.king(Side::Red), Some(square("g3")));
    assert_eq!(position.stack(square("g3")), Some((Side::Red, 1)));
    assert_eq!(position.uniquely_tallest(Side::Red), Some(square("c4")));
    assert_eq!(position.king(Side::Blue), None);
}
