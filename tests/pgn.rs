//! PGN both ways: what `lielow match --pgn` and [`write_game`] write reads back through our
//! own reader with every tag; cutegames' PGN (the fixtures it wrote, tests/fixtures/cutegames)
//! reads as it is, on both board sizes; a malformed file is refused with one line naming the
//! game and the move; `lielow analyse` reviews a PGN file.

mod support;

use std::path::Path;

use lielow::games::pgn::write_game;
use lielow::games::{read_games, GamesError, LoadedGame};
use lielow::reason::Reason;
use lielow_rules::board::{BoardSize, Side};
use lielow_rules::position::Position;
use support::{lielow, scratch, stderr};

/// The cutegames fixture of `size` (8 or 9).
fn cutegames(size: usize) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/cutegames")
        .join(format!("{size}x{size}.pgn"));
    std::fs::read_to_string(path).expect("the fixture")
}

/// A game from `start` with `moves` (legal), its result and tags.
fn game(start: &str, moves: &str, result: Option<(Side, Reason)>) -> LoadedGame {
    let start: Position = start.parse().unwrap();
    let (_, moves) = start.replay(moves.split_whitespace()).unwrap();
    LoadedGame {
        start,
        moves,
        opening: Some(1),
        result,
        blue: Some("new \"quoted\" \\ name".to_owned()),
        red: Some("base".to_owned()),
        tags: vec![
            ("Event".to_owned(), "test".to_owned()),
            ("Site".to_owned(), "here".to_owned()),
            ("Date".to_owned(), "2026.12.07".to_owned()),
            ("Round".to_owned(), "7".to_owned()),
            ("Annotator".to_owned(), "kept as it is".to_owned()),
        ],
    }
}

/// Red walks its king into the capture of Blue's (Red moves first: `1... d7-d5`).
const RED_FIRST: &str = "8/r1r1r1R24/8/8/8/3B24/b1b1b15/8 r";

#[test]
fn a_written_game_reads_back_with_every_tag() {
    let won = game(
        RED_FIRST,
        "d7-d5 d3xd5",
        Some((Side::Blue, Reason::KingCaptured)),
    );
    let text = write_game(&won);
    for line in [
        "[Event \"test\"]",
        "[Site \"here\"]",
        "[Date \"2026.12.07\"]",
        "[Round \"7\"]",
        "[White \"new \\\"quoted\\\" \\\\ name\"]",
        "[Black \"base\"]",
        "[Result \"1-0\"]",
        "[SetUp \"1\"]",
        &format!("[FEN \"{RED_FIRST}\"]"),
        "[Variant \"lielow\"]",
        "[BoardSize \"8\"]",
        "[OpeningPlies \"1\"]",
        "[PlyCount \"2\"]",
        "[Termination \"normal\"]",
        "[Annotator \"kept as it is\"]",
        "1... d7-d5 2. d3xd5 {Blue wins: king-captured} 1-0",
    ] {
        assert!(text.lines().any(|l| l == line), "{line} in\n{text}");
    }
    let read = read_games(&text, BoardSize::Eight).unwrap();
    assert_eq!(read.games, vec![won]);
    assert!(read.warnings.is_empty());
}

#[test]
fn every_ending_and_an_unfinished_game_read_back_on_both_sizes() {
    let mut games = Vec::new();
    for size in [BoardSize::Eight, BoardSize::Nine] {
        let start = Position::start(size).to_lfen();
        let moves = match size {
            BoardSize::Eight => "a2-a3 a7-a6",
            BoardSize::Nine => "e1-f2 b9-b8",
        };
        // After two moves Blue is to move: a forfeit is Blue's loss.
        for reason in Reason::ALL.into_iter().filter(|r| r.is_forfeit()) {
            games.push(game(&start, moves, Some((Side::Red, reason))));
        }
        games.push(game(&start, moves, None));
    }
    let text: String = games.iter().map(write_game).collect();
    assert!(text.contains("[Termination \"time forfeit\"]"));
    assert!(text.contains("{Red wins: no-reply} 0-1"));
    assert!(text.contains("a7-a6 *\n") && text.contains("b9-b8 *\n"));
    let read = read_games(&text, BoardSize::Eight).unwrap();
    assert_eq!(read.games, games);
}

#[test]
fn cutegames_pgn_reads_as_it_is_on_both_sizes() {
    for (size, board) in [(8, BoardSize::Eight), (9, BoardSize::Nine)] {
        // The size is told by the moves when --size does not say it (it is 8 by default).
        let read = read_games(&cutegames(size), BoardSize::Eight).unwrap();
        assert_eq!(read.games.len(), 4, "{size}");
        assert!(read.warnings.is_empty(), "{:?}", read.warnings);
        for (index, game) in read.games.iter().enumerate() {
            assert_eq!(game.start.size(), board);
            let (blue, red) = if index % 2 == 0 {
                ("lielow-a", "lielow-b")
            } else {
                ("lielow-b", "lielow-a")
            };
            assert_eq!(game.blue.as_deref(), Some(blue));
            assert_eq!(game.red.as_deref(), Some(red));
            let (winner, reason) = game.result.expect("decided");
            assert!(!reason.is_forfeit());
            let end = game.start.play_moves(&game.moves).outcome().unwrap();
            assert_eq!(end.winner, winner);
            // Its own tags are kept: the event, Winner, Loser.
            assert!(game
                .tags
                .iter()
                .any(|(k, v)| k == "Winner" && v == if winner == Side::Blue { blue } else { red }));
            assert!(game.tags.iter().any(|(k, _)| k == "Event"));
        }
        assert_eq!(read.games[0].start, Position::start(board), "startpos");
        assert_ne!(read.games[2].start, Position::start(board), "an LFEN");
        // Read back from what we write, the same games.
        let text: String = read.games.iter().map(write_game).collect();
        assert_eq!(read_games(&text, board).unwrap().games, read.games);
    }
}

/// The error reading `text`, as a message.
fn refused(text: &str) -> String {
    match read_games(text, BoardSize::Eight) {
        Err(error) => {
            let message = error.to_string();
            assert_eq!(message.lines().count(), 1, "{message}");
            message
        }
        Ok(read) => panic!("read {} games from {text}", read.games.len()),
    }
}

#[test]
fn a_malformed_pgn_is_refused_naming_the_game_and_the_move() {
    let good = cutegames(8);
    let games: Vec<&str> = good.split("\n\n\n").filter(|g| !g.is_empty()).collect();
    let second = |edit: &dyn Fn(&str) -> String| {
        format!("{}\n\n\n{}\n\n\n{}", games[0], edit(games[1]), games[2])
    };
    let cases: Vec<(String, Vec<&str>)> = vec![
        (
            second(&|g| g.replace("[Round \"1\"]", "[Round 1]")),
            vec!["game 2", "line 19", "a tag is written"],
        ),
        (
            second(&|g| g.replace("5. a2-b2", "5. a2-a4")),
            vec![
                "game 2 (lielow-b vs lielow-a)",
                "move 5. a2-a4",
                "exactly 1 squares",
            ],
        ),
        (
            second(&|g| g.replace("h4xe7 0-1", "h4xe7")),
            vec!["game 2 (lielow-b vs lielow-a)", "without its result"],
        ),
        (
            format!("{}\n\n\n{}", games[0], &games[1][..games[1].len() - 40]),
            vec!["game 2", "without its result"],
        ),
        (
            second(&|g| g.replace("[Result \"0-1\"]", "[Result \"2-0\"]")),
            vec!["game 2", "Result tag '2-0'"],
        ),
        (
            second(&|g| g.replace("0-1", "1-0")),
            vec![
                "game 2",
                "move 17... h4xe7",
                "the result is 1-0 but the rules end the game: Red wins",
            ],
        ),
        (
            second(&|g| g.replace("h4xe7 0-1", "h4xe7 1-0")),
            vec![
                "game 2",
                "the Result tag says 0-1 but the moves end with 1-0",
            ],
        ),
        (
            second(&|g| g.replace("0-1", "1/2-1/2")),
            vec!["game 2", "Lielow has no draws"],
        ),
        (
            second(&|g| g.replace("17. g6-f5", "17. g6-f5 h4xe7 18. a1-a2")),
            vec!["game 2", "move 18. a1-a2", "the game is over"],
        ),
        (
            second(&|g| g.replace("2. b2-b3", "2. b2-b3 (2... x")),
            vec!["game 2", "do not pair up"],
        ),
        (
            second(&|g| g.replace("[FEN \"startpos\"]", "[Variant \"chess\"]")),
            vec!["game 2", "Variant tag says 'chess'"],
        ),
        (
            second(&|g| g.replace("[PlyCount \"34\"]", "[PlyCount \"36\"]")),
            vec!["game 2", "PlyCount tag says 36 moves, the game has 34"],
        ),
        (
            second(&|g| g.replace("[FEN \"startpos\"]", "[OpeningPlies \"99\"]")),
            vec![
                "game 2",
                "OpeningPlies tag '99' is not a number of moves up to 34",
            ],
        ),
        (
            "[Event \"only tags\"]\n".to_owned(),
            vec!["game 1", "without its result"],
        ),
    ];
    for (text, expected) in cases {
        let message = refused(&text);
        for part in expected {
            assert!(message.contains(part), "'{part}' in: {message}");
        }
    }
    assert!(matches!(
        read_games("", BoardSize::Eight),
        Err(GamesError::Empty(_))
    ));
    assert!(matches!(
        read_games("\n\n", BoardSize::Eight),
        Err(GamesError::Empty(_))
    ));
}

#[test]
fn variations_are_skipped_with_a_warning_and_comments_nags_and_escapes_ignored() {
    let good = cutegames(8);
    let text = good
        .replacen(
            "2. b2-b3",
            "2. b2-b3 $1 {a comment (not a variation)} (2. a2-a3 (2... x)) ; to the end\n",
            1,
        )
        .replacen("\n[Event", "\n% an escaped line\n[Event", 1);
    let read = read_games(&text, BoardSize::Eight).unwrap();
    assert_eq!(
        read.games,
        read_games(&good, BoardSize::Eight).unwrap().games
    );
    assert_eq!(read.warnings.len(), 1);
    assert!(
        read.warnings[0].starts_with("game 1: 1 variation"),
        "{:?}",
        read.warnings
    );
}

#[test]
fn analyse_reviews_a_pgn_file_and_refuses_a_malformed_one() {
    let dir = scratch("analyse-pgn");
    let file = dir.join("games.pgn");
    std::fs::write(&file, cutegames(9)).unwrap();
    let path = file.display().to_string();
    let out = lielow(&["analyse", &path, "--game", "3", "--nodes", "500"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(
        table.starts_with("Game 3: lielow-a (Blue) vs lielow-b (Red), "),
        "{table}"
    );
    std::fs::write(&file, cutegames(9).replace("3. f2-d2", "3. f2-d9")).unwrap();
    let out = lielow(&["analyse", &path, "--nodes", "500"]);
    assert_eq!(out.status.code(), Some(2));
    let message = stderr(&out);
    assert_eq!(message.lines().count(), 1, "{message}");
    assert!(
        message.contains("game 1 (lielow-a vs lielow-b)") && message.contains("move 3. f2-d9"),
        "{message}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_match_writes_pgn_that_reads_back_is_rebuilt_on_resume_and_refuses_a_file_with_games() {
    let dir = scratch("match-pgn");
    let pgn = dir.join("games.pgn");
    let records = dir.join("games.txt");
    let (pgn, records) = (pgn.display().to_string(), records.display().to_string());
    let args = [
        "match",
        "--engine",
        "builtin:random",
        "--engine",
        "builtin:greedy",
        "--games",
        "4",
        "--random-plies",
        "2",
        "--records",
        &records,
        "--pgn",
        &pgn,
    ];
    let out = lielow(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&pgn).unwrap();
    let read = read_games(&text, BoardSize::Eight).unwrap();
    let recorded = read_games(
        &std::fs::read_to_string(&records).unwrap(),
        BoardSize::Eight,
    )
    .unwrap()
    .games;
    assert_eq!(read.games.len(), 4);
    for game in &read.games {
        let tag = |name: &str| {
            game.tags
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone())
                .unwrap_or_else(|| panic!("{name}"))
        };
        assert_eq!(tag("Event"), "lielow match");
        assert_eq!(tag("Date").len(), 10);
        let round: usize = tag("Round").parse().unwrap();
        let mut same = recorded[round - 1].clone();
        same.tags.clone_from(&game.tags);
        assert_eq!(*game, same, "game {round}");
    }
    // --resume rebuilds the PGN from the records: a torn last game is whole again.
    std::fs::write(&pgn, &text[..text.len() - 30]).unwrap();
    let resume: Vec<&str> = args.iter().copied().chain(["--resume"]).collect();
    let out = lielow(&resume);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&pgn).unwrap(), text);
    // An existing file with games is refused, as the records are, and never emptied.
    std::fs::remove_file(&records).unwrap();
    let out = lielow(&args);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("already holds games"),
        "{}",
        stderr(&out)
    );
    std::fs::remove_file(&records).unwrap();
    let out = lielow(&resume);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("the records hold none"),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read_to_string(&pgn).unwrap(), text);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_game_docs_formats_md_shows_is_what_the_writer_writes() {
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/formats.md"))
            .unwrap();
    let start = doc
        .find("    [Event \"lielow match\"]")
        .expect("the example");
    let end = start + doc[start..].find("0-1\n").expect("its end") + 4;
    let shown: String = doc[start..end]
        .lines()
        .map(|line| format!("{}\n", line.strip_prefix("    ").unwrap_or(line)))
        .collect();
    let read = read_games(&shown, BoardSize::Eight).unwrap();
    assert_eq!(read.games.len(), 1);
    assert_eq!(write_game(&read.games[0]), format!("{shown}\n"));
}

#[test]
fn damaged_pgn_never_crashes_the_reader() {
    use rand::{Rng, SeedableRng};
    let good = cutegames(9);
    let pieces = [
        "[", "]", "{", "}", "(", ")", ";", "\"", "\\", "$", "%", "\n", ".", "1-0", "*", "é", "x",
    ];
    let mut rng = rand::rngs::StdRng::seed_from_u64(50);
    for _ in 0..2000 {
        let mut text = good.clone();
        for _ in 0..rng.gen_range(1..4) {
            let mut at = rng.gen_range(0..=text.len());
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            if rng.gen_bool(0.5) {
                text.insert_str(at, pieces[rng.gen_range(0..pieces.len())]);
            } else {
                let mut end = (at + rng.gen_range(1..20)).min(text.len());
                while !text.is_char_boundary(end) {
                    end -= 1;
                }
                text.replace_range(at..end, "");
            }
        }
        // Either games that replay, or one line of error: never a panic.
        match read_games(&text, BoardSize::Eight) {
            Ok(read) => assert!(!read.games.is_empty()),
            Err(error) => assert_eq!(error.to_string().lines().count(), 1, "{error}"),
        }
    }
}
