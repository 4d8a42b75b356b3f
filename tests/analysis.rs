//! `lielow board`, `lielow analyse` and `lielow solve`, through the library and the binary.

mod support;

use std::sync::atomic::AtomicBool;

use lielow::analysis::solve::{solve, Budget, Verdict};
use lielow_engine::limits::Limits;
use lielow_engine::search::Searcher;
use lielow_rules::{BoardSize, Position, Side};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use support::{lielow, scratch};

fn count(text: &str, needle: &str) -> usize {
    text.matches(needle).count()
}

/// `lielow board` for `args`, the SVG it printed.
fn board(args: &[&str]) -> String {
    let mut all = vec!["board"];
    all.extend(args);
    all.extend(["-o", "-"]);
    let output = lielow(&all);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("UTF-8")
}

#[test]
fn board_pictures_hold_every_stack_crown_and_mark() {
    // The start positions.
    for (size, stacks) in [("8", 16), ("9", 36)] {
        let svg = board(&["startpos", "--size", size]);
        let n: usize = size.parse().unwrap();
        assert_eq!(count(&svg, "<g class=\"stack\""), stacks);
        assert_eq!(count(&svg, "class=\"square\""), n * n);
        assert_eq!(count(&svg, "class=\"coordinate\""), 2 * n);
        assert_eq!(count(&svg, "data-king"), 0);
        assert!(svg.contains("Blue to move"));
    }
    // Crowned kings, the last move and arrows (a capture and a bear-off).
    let crowned = "8/r1r1r15/8/3R24/8/3B24/b1b1b15/8 b";
    let svg = board(&[
        crowned,
        "--last-move",
        "c4-d5",
        "--arrow",
        "d3xd5",
        "--arrow",
        "a2-off",
    ]);
    assert_eq!(count(&svg, "data-king=\"true\""), 2);
    assert_eq!(count(&svg, "class=\"crown\""), 2);
    assert!(svg.contains("data-square=\"d5\" data-side=\"red\" data-height=\"2\" data-king"));
    assert!(svg.contains("data-square=\"d3\" data-side=\"blue\" data-height=\"2\" data-king"));
    assert_eq!(count(&svg, "class=\"last-move\""), 2);
    assert!(svg.contains("class=\"arrow\" data-move=\"d3xd5\""));
    assert!(svg.contains("class=\"arrow\" data-move=\"a2-off\""));
    // A crowded 8x8 middle game and a 9x9 one, flipped: every stack drawn with its height.
    for (file, size) in [("crowded_8.lfen", 8usize), ("crowded_9.lfen", 9)] {
        let path = format!("{}/tests/data/{file}", env!("CARGO_MANIFEST_DIR"));
        let lfen = std::fs::read_to_string(path)
            .unwrap()
            .lines()
            .next()
            .unwrap()
            .to_owned();
        let position = Position::from_lfen(&lfen).unwrap();
        let svg = board(&[&lfen, "--flip"]);
        assert_eq!(position.size().n(), size);
        let stacks = position.all_stacks().count() as usize;
        assert_eq!(count(&svg, "<g class=\"stack\""), stacks);
        let heights: usize = (0..size * size)
            .filter_map(|i| lielow_rules::Square::new(i % size, i / size))
            .filter_map(|square| position.stack(square))
            .map(|(_, height)| height)
            .sum();
        let drawn: usize = svg
            .split("data-height=\"")
            .skip(1)
            .map(|rest| rest.split('"').next().unwrap().parse::<usize>().unwrap())
            .sum();
        assert_eq!(drawn, heights);
        // Flipped: the top-left square is the last file's first rank.
        let first_square = svg.split("class=\"square\" data-square=\"").nth(1).unwrap();
        let top_left = svg.find(&format!(
            "data-square=\"{}1\" x=\"30\" y=\"30\"",
            (b'a' + size as u8 - 1) as char
        ));
        assert!(top_left.is_some(), "{}", &first_square[..20]);
    }
}

#[test]
fn board_refuses_bad_input_with_one_line() {
    let dir = scratch("board-errors");
    let missing = dir.join("no/such/dir/x.svg").display().to_string();
    for (args, expect) in [
        (vec!["8/8/8 b"], "position '8/8/8 b'"),
        (vec!["startpos", "--arrow", "z9-a1"], "--arrow 'z9-a1'"),
        (
            vec!["startpos", "--last-move", "i9-a1"],
            "off the 8x8 board",
        ),
        (vec!["startpos", "--size", "7"], "size"),
    ] {
        let mut all = vec!["board"];
        all.extend(&args);
        all.extend(["-o", "-"]);
        let output = lielow(&all);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(expect), "{args:?}: {stderr}");
        assert!(output.stdout.is_empty());
    }
    let output = lielow(&["board", "startpos", "-o", &missing]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&output.stderr).lines().count(), 1);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The puzzles of tests/data/puzzles.txt: (position, side-to-move wins?, moves, plies).
fn puzzles() -> Vec<(String, bool, u32, u32)> {
    let path = format!("{}/tests/data/puzzles.txt", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.split(" ; ").collect();
            (
                fields[0].to_owned(),
                fields[1] == "win",
                fields[2].parse().unwrap(),
                fields[3].parse().unwrap(),
            )
        })
        .collect()
}

fn budget(max_nodes: u64) -> Budget<'static> {
    Budget {
        max_nodes,
        deadline: None,
        stop: None,
    }
}

#[test]
fn solve_proves_each_puzzle_at_its_distance_and_alphabeta_agrees() {
    let puzzles = puzzles();
    assert!(puzzles.len() >= 14);
    for (lfen, wins, moves, plies) in puzzles {
        let position = Position::from_lfen(&lfen).unwrap();
        let solution = solve(&position, &budget(20_000_000), 2, true).unwrap();
        let (got_win, got_moves, got_plies, line) = match solution.verdict {
            Verdict::Win {
                moves,
                plies,
                line,
                exact: true,
            } => (true, moves, plies, line),
            Verdict::Loss {
                moves,
                plies,
                line,
                exact: true,
            } => (false, moves, plies, line),
            Verdict::Win { .. } | Verdict::Loss { .. } => panic!("{lfen}: not exact"),
            Verdict::Unknown { .. } => panic!("{lfen}: unknown"),
        };
        assert_eq!(
            (got_win, got_moves, got_plies),
            (wins, moves, plies),
            "{lfen}"
        );
        assert!(solution.proof_size.unwrap() > 0);
        // The line is legal and ends the game the right way after exactly `plies` plies.
        let end = position.try_play_moves(&line).expect("legal");
        let winner = if wins {
            position.side_to_move()
        } else {
            position.side_to_move().opponent()
        };
        assert_eq!(end.winner(), Some(winner), "{lfen}");
        assert_eq!(line.len() as u32, plies, "{lfen}");
        // The second method: the engine's alpha-beta search run to a proven score.
        let mut searcher = Searcher::new();
        let limits = Limits {
            depth: Some(plies + 6),
            ..Limits::default()
        };
        let result = searcher.search(&position, &limits, &AtomicBool::new(false), &mut |_| {});
        let expected = if wins { moves as i32 } else { -(moves as i32) };
        assert_eq!(result.score.mate_moves(), Some(expected), "{lfen}");
    }
}

/// A result: the side to move wins, or loses, in so many plies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outcome {
    Win(u32),
    Loss(u32),
}

/// The exact result of `position` within `depth` plies by plain minimax (no pruning, no table),
/// `None` when neither side wins within `depth`.
fn exhaustive(position: &Position, depth: u32) -> Option<Outcome> {
    if let Some(winner) = position.winner() {
        return Some(if winner == position.side_to_move() {
            Outcome::Win(0)
        } else {
            Outcome::Loss(0)
        });
    }
    if depth == 0 {
        return None;
    }
    let mut fastest_win: Option<u32> = None;
    let mut slowest_loss: Option<u32> = Some(0);
    for mv in position.legal_moves() {
        match exhaustive(&position.play(mv), depth - 1) {
            Some(Outcome::Loss(k)) => {
                fastest_win = Some(fastest_win.map_or(k + 1, |w| w.min(k + 1)));
            }
            Some(Outcome::Win(k)) => slowest_loss = slowest_loss.map(|l| l.max(k + 1)),
            None => slowest_loss = None,
        }
    }
    match (fastest_win, slowest_loss) {
        (Some(plies), _) => Some(Outcome::Win(plies)),
        (None, Some(plies)) => Some(Outcome::Loss(plies)),
        (None, None) => None,
    }
}

/// A random legal position with few stacks (a king on each side's uniquely tallest).
fn sparse_position(rng: &mut StdRng) -> Option<Position> {
    let n = 8;
    let mut grid: Vec<Option<(Side, usize, bool)>> = vec![None; n * n];
    for side in Side::BOTH {
        let stacks = rng.gen_range(2..=3);
        let mut placed = Vec::new();
        while placed.len() < stacks {
            let square = rng.gen_range(0..n * n);
            if grid[square].is_none() {
                let height = rng.gen_range(1..=3);
                grid[square] = Some((side, height, false));
                placed.push(square);
            }
        }
        let tallest = *placed.iter().max_by_key(|&&s| grid[s].unwrap().1).unwrap();
        let top = grid[tallest].unwrap().1;
        if placed
            .iter()
            .filter(|&&s| grid[s].unwrap().1 == top)
            .count()
            > 1
        {
            return None;
        }
        grid[tallest] = Some((side, top, true));
    }
    let mut lfen = String::new();
    for rank in (0..n).rev() {
        let mut empty = 0;
        for file in 0..n {
            match grid[rank * n + file] {
                None => empty += 1,
                Some((side, height, king)) => {
                    if empty > 0 {
                        lfen += &empty.to_string();
                        empty = 0;
                    }
                    let letter = side.letter();
                    let letter = if king {
                        letter.to_ascii_uppercase()
                    } else {
                        letter
                    };
                    lfen += &format!("{letter}{height}");
                }
            }
        }
        if empty > 0 {
            lfen += &empty.to_string();
        }
        if rank > 0 {
            lfen.push('/');
        }
    }
    lfen += if rng.gen_bool(0.5) { " b" } else { " r" };
    Position::from_lfen(&lfen)
        .ok()
        .filter(|p| !p.is_game_over())
}

#[test]
fn solve_never_claims_a_result_plain_minimax_contradicts() {
    let mut rng = StdRng::seed_from_u64(12);
    let depth = 4;
    let (mut checked, mut decided) = (0, 0);
    while checked < 150 {
        let Some(position) = sparse_position(&mut rng) else {
            continue;
        };
        checked += 1;
        let truth = exhaustive(&position, depth);
        let solution = solve(&position, &budget(100_000), 1, true).unwrap();
        let claimed = match solution.verdict {
            Verdict::Win { plies, .. } => Some(Outcome::Win(plies)),
            Verdict::Loss { plies, .. } => Some(Outcome::Loss(plies)),
            Verdict::Unknown { .. } => None,
        };
        let lfen = position.to_lfen();
        match truth {
            Some(exact) => {
                decided += 1;
                assert_eq!(claimed, Some(exact), "{lfen}");
            }
            // Not decided within `depth` plies: any proof must be longer.
            None => match claimed {
                Some(Outcome::Win(plies) | Outcome::Loss(plies)) => {
                    assert!(plies > depth, "{lfen}: {claimed:?}")
                }
                None => {}
            },
        }
    }
    assert!(
        decided >= 10,
        "only {decided} positions decided within {depth} plies"
    );
}

#[test]
fn solve_on_the_command_line_prints_the_verdict_line_and_proof() {
    let output = lielow(&["solve", "8/r1r1r15/8/3R24/8/3B24/b1b1b15/8 b", "--verify"]);
    assert!(output.status.success());
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.starts_with("win in 1 (1 plies): d3xd5\n"),
        "{stdout}"
    );
    assert!(stdout.contains("proof verified: 2 nodes"), "{stdout}");
    let output = lielow(&["solve", "startpos", "--max-nodes", "2000"]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.starts_with("unknown: neither side forces a win within"),
        "{stdout}"
    );
    for (args, expect) in [
        (
            vec!["solve", "8/8/8/8/8/8/b1b1b1b1b1b1b1b1/8 r"],
            "the game is over",
        ),
        (vec!["solve", "startpos", "--time", "0"], "--time"),
        (vec!["solve", "garbage"], "position 'garbage'"),
    ] {
        let output = lielow(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(
            String::from_utf8_lossy(&output.stderr).contains(expect),
            "{args:?}"
        );
    }
}

#[test]
fn analyse_labels_the_move_that_leaves_the_king_capturable() {
    let dir = scratch("analyse");
    let json = dir.join("review.json").display().to_string();
    let html = dir.join("review.html").display().to_string();
    // Red walks its king into the capture of Blue's, which takes it.
    let game = "8/r1r1r1R24/8/8/8/3B24/b1b1b15/8 r moves d7-d5 d3xd5";
    let output = lielow(&[
        "analyse",
        "--game",
        game,
        "--depth",
        "4",
        "--multipv",
        "2",
        "--json",
        &json,
        "--html",
        &html,
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let table = String::from_utf8_lossy(&output.stdout);
    let first = table
        .lines()
        .find(|l| l.trim_start().starts_with("1 "))
        .expect("ply 1");
    assert!(
        first.contains("d7-d5") && first.contains("blunder (allows mate 1)"),
        "{table}"
    );
    assert!(table.contains("turning point: ply 1"), "{table}");
    assert!(
        table.contains("Blue won: Blue captured Red's king."),
        "{table}"
    );
    let review: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let moves = review[0]["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 2);
    assert_eq!(moves[0]["label"], "blunder");
    assert_eq!(moves[0]["allows_mate"], 1);
    assert_eq!(moves[0]["eval_played"], "mate -1");
    assert_eq!(moves[1]["label"], serde_json::Value::Null);
    assert_eq!(moves[0]["lines"].as_array().unwrap().len(), 2);
    assert_eq!(review[0]["winner"], "Blue");
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>"));
    // Three boards (start and after each move), drawn by the page from their positions, and
    // no unescaped end of the script.
    let mut position = Position::from_lfen("8/r1r1r1R24/8/8/8/3B24/b1b1b15/8 r").unwrap();
    assert!(page.contains(&format!("\"{}\"", position.to_lfen())));
    for mv in ["d7-d5", "d3xd5"] {
        position = position.play(position.parse_move(mv).unwrap());
        assert!(
            page.contains(&format!("\"{}\"", position.to_lfen())),
            "{mv}"
        );
    }
    assert_eq!(
        count(&page, "<svg xmlns"),
        1,
        "one board drawer, no pictures"
    );
    assert_eq!(count(&page, "</script>"), 1);
    assert!(page.contains("ArrowRight"));
    // What was asked is on the page: both lines of --multipv 2 with their moves, the result
    // in words, the scores' side and unit, the score sheet's columns and the graph's legend.
    for line in moves[0]["lines"].as_array().unwrap() {
        assert!(page.contains(line["pv"].as_str().unwrap()), "{line}");
    }
    for text in [
        "Blue won: Blue captured Red's king.",
        "Scores are from Blue's side",
        "in stacks",
        "<th>#</th><th>Blue</th><th>Red</th>",
        "td class=\"no\"",
        "Blue's winning chances after each ply",
        "opening, not judged",
        ">ply</text>",
    ] {
        assert!(page.contains(text), "{text}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn analyse_reads_a_records_file_and_refuses_bad_games() {
    let dir = scratch("analyse-records");
    let records = dir.join("games.txt");
    std::fs::write(
        &records,
        "8/r1r1r1R24/8/8/8/3B24/b1b1b15/8 r ; d7-d5 d3xd5 ; b ; king-captured ; x ; y\n\
         8/r1r1r1r1r1r1r1r1/8/8/8/8/b1b1b1b1b1b1b1b1/8 b ; g2-g1 e7-e8 ; b ; no-reply ; x ; y\n",
    )
    .unwrap();
    let records = records.display().to_string();
    let output = lielow(&["analyse", &records, "--game", "2", "--nodes", "2000"]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let table = String::from_utf8_lossy(&output.stdout);
    assert!(
        table.starts_with("Game 2: x (Blue) vs y (Red), Blue won by no-reply"),
        "{table}"
    );
    assert!(
        table.contains("g2-g1") && !table.contains("d7-d5"),
        "{table}"
    );
    let output = lielow(&["analyse", &records, "--nodes", "2000"]);
    assert_eq!(count(&String::from_utf8_lossy(&output.stdout), "Game "), 2);
    for (args, expect) in [
        (vec!["analyse", &records, "--game", "3"], "has no game 3"),
        (
            vec!["analyse", &records, "--game", "x"],
            "the game's number",
        ),
        (
            vec!["analyse", "--game", "startpos moves a2-a4"],
            "move 1 'a2-a4'",
        ),
        (vec!["analyse"], "give a file of games"),
        (vec!["analyse", "/no/such/file"], "cannot read"),
    ] {
        let output = lielow(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(expect), "{args:?}: {stderr}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_nine_by_nine_start_is_drawn_with_blue_on_ranks_one_and_three() {
    let svg = board(&["startpos", "--size", "9"]);
    let position = Position::start(BoardSize::Nine);
    for square in ["a1", "i3", "e1"] {
        assert!(svg.contains(&format!("data-square=\"{square}\" data-side=\"blue\"")));
    }
    for square in ["a9", "i7"] {
        assert!(svg.contains(&format!("data-square=\"{square}\" data-side=\"red\"")));
    }
    assert!(svg.contains(&position.to_lfen()));
}

/// `lielow analyse` of the records in `text` (one file per test), its table.
fn analyse_records(name: &str, text: &str, args: &[&str]) -> String {
    let dir = scratch(name);
    let records = dir.join("games.txt");
    std::fs::write(&records, text).unwrap();
    let records = records.display().to_string();
    let mut all = vec!["analyse", &records];
    all.extend_from_slice(args);
    let output = lielow(&all);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The table's row of `ply`.
fn row(table: &str, ply: usize) -> &str {
    table
        .lines()
        .find(|l| l.trim_start().starts_with(&format!("{ply} ")))
        .unwrap_or_else(|| panic!("no ply {ply} in {table}"))
}

/// Red walks its king into the capture of Blue's, which takes it.
const BLUNDER_GAME: &str =
    "8/r1r1r1R24/8/8/8/3B24/b1b1b15/8 r ; d7-d5 d3xd5 ; b ; king-captured ; x ; y";

#[test]
fn the_opening_of_a_record_is_shown_but_never_judged() {
    // Marked as the opening, the blunder is nobody's: no label, no count, no turning point.
    let table = analyse_records(
        "analyse-opening",
        &format!("{BLUNDER_GAME} ; opening 1\n"),
        &["--depth", "4"],
    );
    assert!(row(&table, 1).trim_end().ends_with("opening"), "{table}");
    assert!(!row(&table, 1).contains("blunder"), "{table}");
    assert!(
        table.contains("Plies 1-1") || table.contains("Ply 1 was the opening"),
        "{table}"
    );
    assert!(
        table.contains("Red: accuracy -, 0 inaccuracies, 0 mistakes, 0 blunders"),
        "{table}"
    );
    assert!(!table.contains("turning point"), "{table}");
    // The same record without the field (as written before it existed): every move judged.
    let table = analyse_records(
        "analyse-no-opening",
        &format!("{BLUNDER_GAME}\n"),
        &["--depth", "4"],
    );
    assert!(
        row(&table, 1).contains("blunder (allows mate 1)"),
        "{table}"
    );
    assert!(
        table.contains("does not say where the opening ends"),
        "{table}"
    );
    assert!(table.contains("turning point: ply 1"), "{table}");
}

#[test]
fn a_mate_the_proof_search_did_not_confirm_is_labelled_unproven_and_not_judged() {
    // No proofs allowed: the search's mate against Red is reported as seen, not as proven,
    // and is left out of the counts and the turning point.
    let table = analyse_records(
        "analyse-unproven",
        &format!("{BLUNDER_GAME} ; opening 0\n"),
        &["--depth", "4", "--proof-nodes", "0"],
    );
    let first = row(&table, 1);
    assert!(
        first.contains("mate seen against") && first.contains("unproven"),
        "{table}"
    );
    assert!(
        !first.contains("allows mate") && !first.contains("blunder"),
        "{table}"
    );
    assert!(
        table.contains("0 blunders, 0 lost wins (1 unproven, not judged)"),
        "{table}"
    );
    assert!(!table.contains("turning point"), "{table}");
}
