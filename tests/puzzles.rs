//! The puzzles: the shipped sets read and each sampled puzzle is proven again from nothing,
//! and `lielow puzzles` finds puzzles in a file of games, the same for any number of workers,
//! and refuses bad input with one line.

mod support;

use lielow::analysis::solve::{Answer, Budget, Solver};
use lielow::puzzles::file::{parse_file, Puzzle};
use lielow_rules::{Position, Side};
use support::{lielow, scratch, stderr};

/// The shipped set of `size` (8 or 9), read through the puzzle file's reader.
fn shipped(size: usize) -> Vec<Puzzle> {
    let path = format!("{}/puzzles/{size}x{size}.txt", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let file = parse_file(&text).unwrap_or_else(|error| panic!("{path}: {error}"));
    let settings = file.settings.expect("a settings line");
    assert!(
        settings.contains(&format!("lielow puzzles --size {size} --count 300")),
        "{settings}"
    );
    file.puzzles
}

#[test]
fn the_shipped_sets_hold_300_distinct_puzzles_each_on_their_board() {
    for size in [8, 9] {
        let puzzles = shipped(size);
        assert!(puzzles.len() >= 300, "{size}: {}", puzzles.len());
        let mut keys: Vec<u64> = puzzles.iter().map(|p| p.position.key()).collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), puzzles.len(), "{size}: a position twice");
        for puzzle in &puzzles {
            assert_eq!(puzzle.position.size().n(), size, "{}", puzzle.id);
            assert!(puzzle.id.starts_with(&format!("{size}-")), "{}", puzzle.id);
            assert!((600..=2800).contains(&puzzle.rating), "{}", puzzle.id);
            assert!((1..=8).contains(&puzzle.moves), "{}", puzzle.id);
            assert!(puzzle.position.legal_moves().len() > 1, "{}", puzzle.id);
        }
    }
}

fn budget() -> Budget<'static> {
    Budget {
        max_nodes: 20_000_000,
        deadline: None,
        stop: None,
    }
}

/// Proves `puzzle` again with a fresh solver: N is exact, the answer wins in N (its proof
/// replayed by `verify`), every other first move is refuted within the same bound.
fn prove_again(puzzle: &Puzzle) {
    let (position, n, id) = (&puzzle.position, puzzle.moves, &puzzle.id);
    let me = position.side_to_move();
    let mut solver = Solver::new(me);
    assert_eq!(
        solver.prove(position, 2 * n, &budget()),
        Answer::Proven,
        "{id}"
    );
    if n > 1 {
        let shorter = solver.prove(position, 2 * n - 2, &budget());
        assert_eq!(
            shorter,
            Answer::Disproven,
            "{id}: a win in {} exists",
            n - 1
        );
    }
    let plies = puzzle.line.len() as u32;
    assert_eq!(
        solver.prove(position, plies, &budget()),
        Answer::Proven,
        "{id}"
    );
    solver.verify(position, plies).unwrap();
    for mv in position.legal_moves() {
        let child = position.play(mv);
        let wins = match child.winner() {
            Some(winner) => winner == me,
            None => match solver.prove(&child, 2 * n - 1, &budget()) {
                Answer::Proven => {
                    solver.verify(&child, 2 * n - 1).unwrap();
                    true
                }
                Answer::Disproven => false,
                Answer::Unknown => panic!("{id}: {mv} not settled"),
            },
        };
        assert_eq!(wins, mv == puzzle.answer, "{id}: {mv}");
    }
}

/// Whether `attacker` wins from `position` within `plies` plies, by looking at every line:
/// a check that shares nothing with the proof search.
fn wins_within(position: &Position, attacker: Side, plies: u32) -> bool {
    if let Some(winner) = position.winner() {
        return winner == attacker;
    }
    if plies == 0 {
        return false;
    }
    let mut children = position
        .legal_moves()
        .into_iter()
        .map(|mv| position.play(mv));
    if position.side_to_move() == attacker {
        children.any(|child| wins_within(&child, attacker, plies - 1))
    } else {
        children.all(|child| wins_within(&child, attacker, plies - 1))
    }
}

/// The brute-force check of a puzzle in one or two: the answer wins within 2N-1 plies after
/// it, no other first move does.
fn check_by_brute_force(puzzle: &Puzzle) {
    let position = &puzzle.position;
    let me = position.side_to_move();
    for mv in position.legal_moves() {
        let wins = wins_within(&position.play(mv), me, 2 * puzzle.moves - 1);
        assert_eq!(wins, mv == puzzle.answer, "{}: {mv}", puzzle.id);
    }
}

#[test]
fn a_sample_of_the_shipped_puzzles_is_proven_again() {
    for size in [8, 9] {
        let puzzles = shipped(size);
        // Six a set, spread over the ratings (the file is sorted by rating), and the longest.
        let step = puzzles.len() / 6;
        let mut sample: Vec<&Puzzle> = (0..6).map(|k| &puzzles[k * step + step / 2]).collect();
        sample.extend(puzzles.iter().max_by_key(|p| (p.moves, p.rating)));
        for puzzle in sample {
            prove_again(puzzle);
            if puzzle.moves <= 2 {
                check_by_brute_force(puzzle);
            }
        }
        // Every win in one, by brute force: cheap, and independent of the proofs.
        for puzzle in puzzles.iter().filter(|p| p.moves == 1) {
            check_by_brute_force(puzzle);
        }
    }
}

/// A game of 5 plies that ends with Blue's win: its ply 0 is a win in 3 with one answer.
const GAME: &str =
    "8/8/7r2/8/1b46/R6B6r11b13/8/8 b ; b3-h3 a3-g3 b4-b8 c3-d3 b8xg3 ; b ; king-captured ; x ; y";

#[test]
fn puzzles_are_found_in_a_file_of_games_once_each() {
    let dir = scratch("file");
    let games = dir.join("games.txt");
    std::fs::write(&games, format!("{GAME}\n{GAME}\n")).unwrap();
    let out = dir.join("out.txt");
    let output = lielow(&[
        "puzzles",
        games.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let file = parse_file(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let first = file
        .puzzles
        .iter()
        .find(|p| p.source == "games.txt game 1 ply 0")
        .expect("the win in 3");
    assert_eq!(
        (first.answer.to_string(), first.moves),
        ("b3-h3".to_owned(), 3)
    );
    // The second copy of the game gives nothing new.
    assert!(file
        .puzzles
        .iter()
        .all(|p| p.source.starts_with("games.txt game 1 ")));
    for puzzle in &file.puzzles {
        prove_again(puzzle);
    }
    assert!(file.settings.unwrap().contains("\"games\":\""));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn self_play_finds_the_same_puzzles_with_any_number_of_workers() {
    let dir = scratch("workers");
    let run = |workers: &str| {
        let out = dir.join(format!("{workers}.txt"));
        let output = lielow(&[
            "puzzles",
            "--count",
            "4",
            "--max-moves",
            "3",
            "--seed",
            "7",
            "--concurrency",
            workers,
            "-o",
            out.to_str().unwrap(),
        ]);
        assert!(output.status.success(), "{}", stderr(&output));
        let text = std::fs::read_to_string(&out).unwrap();
        // Every line but the settings line, which records the command as given.
        text.lines().skip(1).map(str::to_owned).collect::<Vec<_>>()
    };
    let one = run("1");
    assert_eq!(one.len(), 4);
    assert_eq!(one, run("2"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_input_is_refused_with_one_line() {
    let dir = scratch("bad");
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "8/r1r1 b ; d3xd5 ; b ; king-captured ; x ; y\n").unwrap();
    let eight = dir.join("eight.txt");
    std::fs::write(&eight, format!("{GAME}\n")).unwrap();
    let out = dir.join("out.txt");
    let out = out.to_str().unwrap();
    for (args, expect) in [
        (vec![bad.to_str().unwrap()], "bad.txt: game 1 (line 1):"),
        (
            vec!["/nonexistent/games.txt"],
            "cannot read /nonexistent/games.txt",
        ),
        (
            vec!["--min-moves", "3", "--max-moves", "2"],
            "--min-moves 3 is above --max-moves 2",
        ),
        (
            vec![eight.to_str().unwrap(), "--size", "9"],
            "no game of the files is on the 9x9 board",
        ),
    ] {
        let mut all = vec!["puzzles", "-o", out];
        all.extend(&args);
        let output = lielow(&all);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = stderr(&output);
        assert!(stderr.contains(expect), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(!std::path::Path::new(out).exists());
    }
    let _ = std::fs::remove_dir_all(&dir);
}
