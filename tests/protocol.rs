//! Black-box protocol tests: transcripts against the real `lielow` binary over stdin/stdout.
//!
//! Every wait has a generous timeout, so a hang fails the test instead of blocking the suite;
//! timing assertions are loose (the real figures are printed with `--nocapture`).

mod support;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use lielow_rules::{BoardSize, Move, Position, Side};
use support::lielow_command;

const TIMEOUT: Duration = Duration::from_secs(20);

/// A running engine with a thread that forwards its stdout lines.
struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = lielow_command()
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the lielow binary starts");
        let stdout = child.stdout.take().expect("piped stdout");
        let (sender, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        let engine = Engine {
            child,
            stdin,
            lines,
        };
        // The greeting comes first, before any input; every test starts after it.
        assert_eq!(engine.recv(), greeting());
        engine
    }

    fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin still open");
        stdin.write_all(bytes).expect("the engine reads its input");
        stdin.flush().expect("flush");
    }

    fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    fn recv(&self) -> String {
        match self.lines.recv_timeout(TIMEOUT) {
            Ok(line) => line,
            Err(RecvTimeoutError::Timeout) => panic!("no line from the engine within {TIMEOUT:?}"),
            Err(RecvTimeoutError::Disconnected) => panic!("the engine closed its output"),
        }
    }

    /// Every line up to and including the first one that `last` accepts.
    fn until(&self, last: impl Fn(&str) -> bool) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let line = self.recv();
            let done = last(&line);
            lines.push(line);
            if done {
                return lines;
            }
        }
    }

    /// Sends `isready` and returns what came before `readyok`.
    fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.until(|line| line == "readyok");
        lines.pop();
        lines
    }

    /// Sends `line` and returns its output (everything before the `readyok` of a following
    /// `isready`): right for every command whose output is written before the next is read.
    fn ask(&mut self, line: &str) -> Vec<String> {
        self.send(line);
        self.sync()
    }

    /// The single `response` to a query.
    fn query(&mut self, what: &str) -> String {
        let mut lines = self.ask(&format!("query {what}"));
        // A running search may report meanwhile.
        lines.retain(|line| !line.starts_with("info depth "));
        assert_eq!(lines.len(), 1, "query {what}: {lines:?}");
        let answer = lines[0].strip_prefix("response ");
        answer
            .unwrap_or_else(|| panic!("query {what}: {lines:?}"))
            .to_owned()
    }

    /// Runs `go ...` to its end; returns the info lines and the move of `bestmove`.
    fn go(&mut self, line: &str) -> (Vec<String>, String) {
        self.send(line);
        let mut lines = self.until(|line| line.starts_with("bestmove"));
        let last = lines.pop().expect("a bestmove line");
        let tokens: Vec<&str> = last.split(' ').collect();
        assert_eq!(tokens.len(), 2, "bestmove is two tokens: {last:?}");
        (lines, tokens[1].to_owned())
    }

    fn close_input(&mut self) {
        self.stdin = None;
    }

    fn wait_exit(&mut self, limit: Duration) -> ExitStatus {
        let started = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                return status;
            }
            assert!(started.elapsed() < limit, "the engine did not exit");
            thread::sleep(Duration::from_millis(2));
        }
    }

    /// Lines still to come before the output closes.
    fn rest(&self) -> Vec<String> {
        let mut lines = Vec::new();
        while let Ok(line) = self.lines.recv_timeout(TIMEOUT) {
            lines.push(line);
        }
        lines
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn is_error(line: &str) -> bool {
    line.starts_with("info string error: ")
}

/// A reproducible pseudo-random game from `start` (xorshift over the legal moves).
fn random_game(start: Position, seed: u64, plies: usize) -> Vec<Move> {
    let mut state = seed | 1;
    let mut position = start;
    let mut moves = Vec::new();
    while moves.len() < plies && !position.is_game_over() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let legal = position.legal_moves();
        let mv = legal[(state % legal.len() as u64) as usize];
        moves.push(mv);
        position = position.play(mv);
    }
    moves
}

fn joined(moves: &[Move]) -> String {
    moves
        .iter()
        .map(Move::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The line the engine prints at start.
fn greeting() -> String {
    format!(
        "lielow {} by the lielow developers: a Lielow engine speaking UGI (and UCI); 'help' \
         lists the commands",
        env!("CARGO_PKG_VERSION")
    )
}

#[test]
fn the_engine_greets_in_one_line_and_help_lists_the_commands() {
    // Engine::start has read the greeting (it fails otherwise); nothing else comes unasked.
    let mut engine = Engine::start();
    assert!(engine.sync().is_empty());
    let help = engine.ask("help");
    for command in [
        "ugi",
        "isready",
        "setoption",
        "uginewgame",
        "position",
        "go",
        "stop",
        "ponderhit",
        "query",
        "d",
        "eval",
        "bench",
        "help",
        "quit",
    ] {
        assert!(
            help.iter()
                .any(|line| line.split_whitespace().next() == Some(command)),
            "{command} missing from {help:?}"
        );
    }
    assert!(help.iter().all(|line| !is_error(line)), "{help:?}");
    // The handshake still works after the greeting and help.
    engine.send("ugi");
    assert_eq!(
        engine.until(|line| line == "ugiok").last().unwrap(),
        "ugiok"
    );
}

#[test]
fn handshake_lists_id_and_options() {
    let mut engine = Engine::start();
    for (hello, ok) in [("ugi", "ugiok"), ("uci", "uciok")] {
        engine.send(hello);
        let lines = engine.until(|line| line == ok);
        assert_eq!(
            lines,
            [
                format!("id name lielow {}", env!("CARGO_PKG_VERSION")),
                "id author the lielow developers".to_owned(),
                "option name Hash type spin default 16 min 1 max 32768".to_owned(),
                "option name Threads type spin default 1 min 1 max 256".to_owned(),
                "option name BoardSize type spin default 8 min 8 max 9".to_owned(),
                "option name Move Overhead type spin default 10 min 0 max 5000".to_owned(),
                "option name MultiPV type spin default 1 min 1 max 256".to_owned(),
                "option name Ponder type check default false".to_owned(),
                "option name Clear Hash type button".to_owned(),
                "option name Skill Level type spin default 20 min 0 max 20".to_owned(),
                "option name UCI_LimitStrength type check default false".to_owned(),
                format!(
                    "option name UCI_Elo type spin default {} min {} max {}",
                    lielow_engine::search::skill::MIN_ELO,
                    lielow_engine::search::skill::MIN_ELO,
                    lielow_engine::search::skill::MAX_ELO
                ),
                ok.to_owned(),
            ]
        );
    }
    assert!(engine.sync().is_empty());
}

/// protocol.md's table of options gives each number option the range and default the
/// handshake declares, and the README the range of `UCI_Elo`: the ladder behind `UCI_Elo` is
/// measured again with each new network, and a copy of its ends in the documents must follow.
#[test]
fn documented_option_ranges_match_the_handshake() {
    let protocol = std::fs::read_to_string("protocol.md").expect("protocol.md");
    let readme = std::fs::read_to_string("README.md").expect("README.md");
    let mut engine = Engine::start();
    engine.send("ugi");
    let spins: Vec<String> = engine
        .until(|line| line == "ugiok")
        .into_iter()
        .filter(|line| line.contains(" type spin "))
        .collect();
    assert!(spins.len() >= 5, "{spins:?}");
    for line in spins {
        let (name, declared) = line
            .strip_prefix("option name ")
            .and_then(|rest| rest.split_once(" type spin "))
            .unwrap_or_else(|| panic!("{line}"));
        let words: Vec<&str> = declared.split(' ').collect();
        let [_, default, _, min, _, max] = words[..] else {
            panic!("{line}")
        };
        let row_start = format!("| `{name}` | ");
        let row = protocol
            .lines()
            .find(|row| row.starts_with(&row_start))
            .unwrap_or_else(|| panic!("protocol.md has no row for {name}"));
        let range = row[row_start.len()..].split(" |").next().unwrap();
        let range_text = range.split(" (").next().unwrap();
        assert!(
            range_text == format!("{min}..{max}") || range_text == format!("{min} or {max}"),
            "protocol.md gives {name} the range {range:?}; the engine {min} to {max}"
        );
        if let Some(documented) = range.split(" (").nth(1) {
            assert_eq!(
                documented,
                format!("{default})"),
                "{name}'s default in protocol.md"
            );
        }
        if name == "UCI_Elo" {
            let text = format!("`UCI_Elo` {min} to {max}");
            assert!(readme.contains(&text), "the README should say {text}");
        }
    }
}

#[test]
fn options_are_applied_or_refused_with_one_error() {
    let mut engine = Engine::start();
    for good in [
        "setoption name Hash value 4",
        "setoption name threads value 2",
        "setoption name BOARDSIZE value 8",
        "setoption name skill level value 0",
        "setoption name UCI_LimitStrength value true",
        "setoption name Skill Seed value 9",
    ] {
        assert!(engine.ask(good).is_empty(), "{good}");
    }
    for bad in [
        "setoption name Hash value 0",
        "setoption name Hash value 99999999",
        "setoption name Hash value lots",
        "setoption name Threads value 0",
        "setoption name BoardSize value 10",
        "setoption name Ponder value maybe",
        "setoption name Pondering value true",
        "setoption name Skill Level value 21",
        "setoption name Skill Level value -3",
        "setoption name UCI_LimitStrength value sometimes",
        "setoption name UCI_Elo value 0",
        "setoption name Skill Seed value -1",
        "setoption name Hash",
        "setoption Hash 3",
    ] {
        let lines = engine.ask(bad);
        assert!(lines.len() == 1 && is_error(&lines[0]), "{bad}: {lines:?}");
    }
    // BoardSize decides what startpos means and resets the game to it.
    engine.send("position startpos moves a2-a3");
    assert!(engine.ask("setoption name BoardSize value 9").is_empty());
    assert_eq!(
        engine.query("fen"),
        Position::start(BoardSize::Nine).to_lfen()
    );
    engine.send("position startpos moves a3-a4");
    assert_eq!(
        engine.query("fen"),
        Position::start(BoardSize::Nine)
            .play(
                Position::start(BoardSize::Nine)
                    .parse_move("a3-a4")
                    .unwrap()
            )
            .to_lfen()
    );
}

#[test]
fn a_bad_position_is_refused_whole_and_the_previous_one_stays() {
    let mut engine = Engine::start();
    let start = Position::start(BoardSize::Eight);
    let moves = random_game(start, 7, 6);
    engine.send(&format!("position startpos moves {}", joined(&moves)));
    let before = engine.query("fen");
    let expected = start.play_moves(&moves);
    assert_eq!(before, expected.to_lfen());
    let cases = [
        (
            format!("position startpos moves {} b2-e5", joined(&moves[..2])),
            "move 3 'b2-e5'",
        ),
        (
            format!("position startpos moves {} zz", joined(&moves[..1])),
            "move 2 'zz'",
        ),
        ("position fen 8/8/8 b".to_owned(), "LFEN"),
        (
            "position fen 8/r1r1r1r1r1r1r1r1/8/8/8/8/b1b1b1b1b1b1b1b1/8 x".to_owned(),
            "LFEN",
        ),
        ("position startpos moves a2-a4".to_owned(), "move 1 'a2-a4'"),
        ("position startpos a2-a3".to_owned(), "unexpected"),
        ("position".to_owned(), "missing"),
        ("position fen".to_owned(), "missing"),
    ];
    for (line, names) in cases {
        let lines = engine.ask(&line);
        assert!(
            lines.len() == 1 && is_error(&lines[0]) && lines[0].contains(names),
            "{line}: {lines:?}"
        );
        assert_eq!(engine.query("fen"), before, "{line} changed the position");
    }
    // A move after the end of the game is an error too.
    let game = random_game(start, 11, 10_000);
    let over = start.play_moves(&game);
    assert!(over.is_game_over());
    let extra = format!("position startpos moves {} a2-a3", joined(&game));
    let lines = engine.ask(&extra);
    assert!(
        lines.len() == 1 && lines[0].contains("game is over"),
        "{lines:?}"
    );
    assert_eq!(engine.query("fen"), before);
}

#[test]
fn queries_answer_start_middle_and_finished_games_on_both_sizes() {
    let mut engine = Engine::start();
    for (size, seed) in [
        (BoardSize::Eight, 3),
        (BoardSize::Nine, 5),
        (BoardSize::Eight, 9),
    ] {
        engine.send(&format!("setoption name BoardSize value {}", size.n()));
        let start = Position::start(size);
        let game = random_game(start, seed, 10_000);
        for plies in [0, game.len() / 2, game.len() - 1, game.len()] {
            let position = start.play_moves(&game[..plies]);
            if plies == 0 {
                engine.send("position startpos");
            } else {
                engine.send(&format!(
                    "position startpos moves {}",
                    joined(&game[..plies])
                ));
            }
            // The order the cutegames runner asks in, after every `position`.
            assert_eq!(
                engine.query("p1turn"),
                (position.side_to_move() == Side::Blue).to_string()
            );
            assert_eq!(
                engine.query("gameover"),
                position.is_game_over().to_string()
            );
            let result = match position.winner() {
                Some(Side::Blue) => "p1win",
                Some(Side::Red) => "p2win",
                None => "none",
            };
            assert_eq!(engine.query("result"), result);
            assert_eq!(engine.query("fen"), position.to_lfen());
            let legal = joined(&position.legal_moves());
            let legal = if legal.is_empty() {
                "none".to_owned()
            } else {
                legal
            };
            assert_eq!(engine.query("moves"), legal);
        }
        assert_ne!(engine.query("result"), "none", "the game ended");
    }
    for bad in ["query", "query colour", "query fen now"] {
        let lines = engine.ask(bad);
        assert!(lines.len() == 1 && is_error(&lines[0]), "{bad}: {lines:?}");
    }
}

#[test]
fn go_depth_reports_iterations_then_one_legal_bestmove() {
    let mut engine = Engine::start();
    let start = Position::start(BoardSize::Eight);
    let moves = random_game(start, 21, 4);
    let position = start.play_moves(&moves);
    engine.send(&format!("position startpos moves {}", joined(&moves)));
    let (infos, best) = engine.go("go depth 2");
    assert!(position.parse_move(&best).is_ok(), "{best} is legal");
    assert!(!infos.is_empty());
    for (line, depth) in infos.iter().zip(1..) {
        let fields: Vec<&str> = line.split(' ').collect();
        assert_eq!(
            &fields[..3],
            ["info", "depth", &depth.to_string()],
            "{line}"
        );
        assert_eq!(
            [fields[3], fields[5], fields[6], fields[8], fields[10], fields[12], fields[14]],
            ["seldepth", "score", fields[6], "nodes", "nps", "time", "hashfull"],
            "{line}"
        );
        assert!(matches!(fields[6], "cp" | "mate"), "{line}");
        if fields.len() > 16 {
            assert_eq!(fields[16], "pv", "{line}");
            let mut pv_position = position;
            for text in &fields[17..] {
                let mv = pv_position.parse_move(text).expect("the pv is legal");
                pv_position = pv_position.play(mv);
            }
        }
    }
    // Nothing follows the bestmove.
    assert!(engine.sync().is_empty());
}

#[test]
fn go_nodes_repeats_exactly_after_uginewgame() {
    let mut engine = Engine::start();
    let without_timing = |lines: Vec<String>| -> Vec<String> {
        lines
            .iter()
            .map(|line| {
                let fields: Vec<&str> = line.split(' ').collect();
                let mut kept = Vec::new();
                let mut i = 0;
                while i < fields.len() {
                    if matches!(fields[i], "nps" | "time") {
                        i += 2;
                    } else {
                        kept.push(fields[i]);
                        i += 1;
                    }
                }
                kept.join(" ")
            })
            .collect()
    };
    let mut runs = Vec::new();
    for _ in 0..2 {
        engine.send("uginewgame");
        engine.send("position startpos moves d2-d3 e7-e6");
        let (infos, best) = engine.go("go nodes 20000");
        runs.push((without_timing(infos), best));
    }
    assert_eq!(runs[0], runs[1]);
}

#[test]
fn stop_ends_an_infinite_search_at_once_and_isready_answers_meanwhile() {
    let mut engine = Engine::start();
    engine.send("position startpos");
    engine.send("go infinite");
    // Let it pass any depth a search could complete quickly: infinite still waits for stop.
    thread::sleep(Duration::from_millis(300));
    let asked = Instant::now();
    let before = engine.sync();
    let ready = asked.elapsed();
    assert!(
        before.iter().all(|line| line.starts_with("info depth")),
        "{before:?}"
    );
    assert_eq!(engine.query("p1turn"), "true");
    // What needs the searcher is refused while it searches; the search goes on.
    for busy in [
        "go depth 1",
        "setoption name Hash value 2",
        "uginewgame",
        "go perft 1",
        "bench 1",
    ] {
        let mut lines = engine.ask(busy);
        lines.retain(|line| !line.starts_with("info depth "));
        assert!(lines.len() == 1 && is_error(&lines[0]), "{busy}: {lines:?}");
    }
    let stopped = Instant::now();
    engine.send("stop");
    let lines = engine.until(|line| line.starts_with("bestmove"));
    let latency = stopped.elapsed();
    eprintln!("isready answered in {ready:?} while searching; stop -> bestmove in {latency:?}");
    assert!(latency < Duration::from_secs(1), "{latency:?}");
    let best = lines.last().unwrap().strip_prefix("bestmove ").unwrap();
    assert!(Position::start(BoardSize::Eight).parse_move(best).is_ok());
    // Exactly one bestmove, and a stop with nothing running is ignored silently.
    assert!(engine.ask("stop").is_empty());
}

#[test]
fn a_search_stopped_at_once_still_gives_a_legal_move() {
    let mut engine = Engine::start();
    engine.send("position startpos moves a2-a3");
    engine.send("go infinite");
    engine.send("stop");
    let lines = engine.until(|line| line.starts_with("bestmove"));
    let best = lines.last().unwrap().strip_prefix("bestmove ").unwrap();
    let start = Position::start(BoardSize::Eight);
    let position = start.play(start.parse_move("a2-a3").unwrap());
    assert!(position.parse_move(best).is_ok(), "{best}");
}

/// `go infinite`, `stop`, then at once `position` and `go`, as GUIs send them without waiting
/// for the stopped search's `bestmove`: every line up to the second `bestmove`.
fn stop_then_go(engine: &mut Engine, position: &str, go: &str) -> Vec<String> {
    engine.send("go infinite");
    engine.send("stop");
    engine.send(position);
    engine.send(go);
    let mut lines = engine.until(|line| line.starts_with("bestmove"));
    lines.extend(engine.until(|line| line.starts_with("bestmove")));
    lines
}

#[test]
fn go_right_after_stop_waits_for_the_stopped_search() {
    let mut engine = Engine::start();
    let lines = stop_then_go(&mut engine, "position startpos moves a2-a3", "go depth 1");
    assert!(!lines.iter().any(|line| is_error(line)), "{lines:?}");
    let best = lines.last().unwrap().strip_prefix("bestmove ").unwrap();
    let start = Position::start(BoardSize::Eight);
    let position = start.play(start.parse_move("a2-a3").unwrap());
    assert!(position.parse_move(best).is_ok(), "{best}");
    assert!(engine.sync().is_empty());
}

#[test]
fn quit_and_end_of_input_stop_the_search_and_exit() {
    for quit in [true, false] {
        let mut engine = Engine::start();
        engine.send("go infinite");
        thread::sleep(Duration::from_millis(100));
        let asked = Instant::now();
        if quit {
            engine.send("quit");
        } else {
            engine.close_input();
        }
        let status = engine.wait_exit(Duration::from_secs(5));
        eprintln!("quit={quit}: exited in {:?}", asked.elapsed());
        assert!(status.success());
        let lines = engine.rest();
        let bestmoves = lines.iter().filter(|l| l.starts_with("bestmove")).count();
        assert_eq!(bestmoves, 1, "{lines:?}");
    }
}

#[test]
fn malformed_input_gives_at_most_one_error_line_each() {
    let mut engine = Engine::start();
    let huge = "x".repeat(1 << 20);
    let huge_position = format!("position startpos moves {}", "a2-a3 ".repeat(200_000));
    let corpus: Vec<Vec<u8>> = [
        "",
        "   ",
        "\t",
        "xyzzy",
        "isready now",
        "go depth",
        "go depth -3",
        "go nodes many",
        "go movetime",
        "go perft",
        "go perft x",
        "go infinite infinite",
        "go depth 1 depth 2",
        "position startpos moves",
        "position fen",
        "position fen moves",
        "position startpos junk",
        "setoption",
        "setoption name",
        "setoption name value 3",
        "query",
        "query what",
        "bench 0",
        "bench deep",
        "uginewgame now",
        "d d",
        "eval 3",
        "stop",
        "stop now",
        "ugi\rok",
        "quit now",
        huge.as_str(),
        huge_position.as_str(),
    ]
    .iter()
    .map(|s| s.as_bytes().to_vec())
    .chain([
        vec![0xff, 0xfe, b'g', b'o'],
        vec![0, 1, 2, 3, 0x80],
        b"go\0depth 2".to_vec(),
        "\u{feff}isready".as_bytes().to_vec(),
        "géo".as_bytes().to_vec(),
    ])
    .collect();
    for bytes in &corpus {
        let mut line = bytes.clone();
        line.push(b'\n');
        engine.send_bytes(&line);
        let lines = engine.sync();
        let shown = String::from_utf8_lossy(&bytes[..bytes.len().min(40)]).into_owned();
        assert!(lines.len() <= 1, "{shown:?}: {lines:?}");
        for line in &lines {
            assert!(is_error(line), "{shown:?}: {line}");
            assert!(
                line.len() < 200,
                "{shown:?}: an error line of {} bytes",
                line.len()
            );
        }
    }
    // A CRLF line is the same as an LF one, and the engine still works.
    engine.send_bytes(b"position startpos moves a2-a3\r\n");
    assert_eq!(engine.query("moves").split(' ').count(), 46);
    let (_, best) = engine.go("go depth 1");
    assert!(!best.is_empty());
}

#[test]
fn go_perft_prints_the_divide_of_the_command_line() {
    let mut engine = Engine::start();
    engine.send("position startpos moves b2-b3");
    let start = Position::start(BoardSize::Eight);
    let position = start.play(start.parse_move("b2-b3").unwrap());
    engine.send("go perft 3");
    let lines = engine.until(|line| line.starts_with("Nodes searched: "));
    let split = lielow_rules::perft::divide(&position, 3, 1);
    let mut expected: Vec<String> = split.iter().map(|(m, n)| format!("{m}: {n}")).collect();
    let total: u64 = split.iter().map(|(_, n)| n).sum();
    expected.push(format!("Nodes searched: {total}"));
    assert_eq!(lines, expected);
    engine.send("go perft 0");
    assert_eq!(engine.recv(), "Nodes searched: 1");
}

#[test]
fn a_finished_game_gives_bestmove_none() {
    let mut engine = Engine::start();
    let start = Position::start(BoardSize::Eight);
    let game = random_game(start, 13, 10_000);
    engine.send(&format!("position startpos moves {}", joined(&game)));
    let (infos, best) = engine.go("go depth 3");
    assert_eq!(best, "none");
    assert_eq!(infos.len(), 1);
    assert!(infos[0].starts_with("info string game over: "), "{infos:?}");
    assert!(engine.ask("eval")[0].starts_with("info string game over"));
}

#[test]
fn after_a_stopped_search_a_finished_game_still_says_why() {
    // The stopped search may not have finished when `go` arrives: `go` must wait for it before
    // it looks at the position, or the game-over line is lost.
    for _ in 0..5 {
        let mut engine = Engine::start();
        engine.send("position startpos");
        let position = "position fen 8/8/8/8/8/8/b1b1b1b1b1b1b1b1/8 r";
        let lines = stop_then_go(&mut engine, position, "go depth 3");
        let n = lines.len();
        assert_eq!(lines[n - 1], "bestmove none", "{lines:?}");
        assert!(
            lines[n - 2].starts_with("info string game over: "),
            "{lines:?}"
        );
    }
}

#[test]
fn bench_and_deep_perft_end_at_once_on_stop() {
    for (command, partial, last) in [
        ("bench 30", "info string bench stopped", " nodes "),
        (
            "go perft 9",
            "info string perft stopped",
            "Nodes searched: ",
        ),
    ] {
        let mut engine = Engine::start();
        engine.send(command);
        thread::sleep(Duration::from_millis(200));
        let stopped = Instant::now();
        engine.send("stop");
        let lines = engine.until(|line| line.contains(last));
        let latency = stopped.elapsed();
        eprintln!("{command}: stop -> last line in {latency:?}");
        assert!(latency < Duration::from_secs(2), "{command}: {latency:?}");
        assert!(
            lines.iter().any(|line| line.starts_with(partial)),
            "{command}: {lines:?}"
        );
        // The engine is free again.
        assert_eq!(engine.go("go depth 1").1.len(), 5);
    }
}

#[test]
fn development_options_set_search_parameters_or_give_one_error() {
    let mut engine = Engine::start();
    assert!(engine
        .ask("setoption name QSearchFullPlies value 2")
        .is_empty());
    assert!(engine.ask("setoption name lmr value false").is_empty());
    for bad in [
        "setoption name QSearchFullPlies value -1",
        "setoption name LMR value maybe",
        "setoption name DeltaMargin value 1e9",
    ] {
        let lines = engine.ask(bad);
        assert!(lines.len() == 1 && is_error(&lines[0]), "{bad}: {lines:?}");
    }
    // Not listed by the handshake: they are for measurements, not for GUIs.
    let handshake = engine.ask("ugi");
    assert!(!handshake.iter().any(|line| line.contains("QSearch")));
    let (infos, best) = engine.go("go depth 4");
    assert!(!infos.is_empty() && best.len() == 5, "{infos:?} {best}");
}

/// The engine takes every parameter of the search at both ends of its range and refuses one
/// past it. (Their table is generated from the one declaration, `search/params.rs`, so there is
/// no copy in protocol.md to keep in step.)
#[test]
fn every_search_parameter_is_settable_within_its_range() {
    use lielow_engine::search::params::{Access, Params, SPECS};
    let mut engine = Engine::start();
    let defaults = Params::default();
    for spec in &SPECS {
        let Access::Number { min, max, .. } = spec.access else {
            continue;
        };
        for value in [min, max] {
            let line = format!("setoption name {} value {value}", spec.name);
            assert!(engine.ask(&line).is_empty(), "{line}");
        }
        let past = format!("setoption name {} value {}", spec.name, max + 1);
        let lines = engine.ask(&past);
        assert!(lines.len() == 1 && is_error(&lines[0]), "{past}: {lines:?}");
        let back = format!(
            "setoption name {} value {}",
            spec.name,
            spec.value(&defaults, BoardSize::Eight)
        );
        assert!(engine.ask(&back).is_empty(), "{back}");
    }
    let (_, best) = engine.go("go depth 3");
    assert_eq!(best.len(), 5);
}

#[test]
fn go_ignores_unknown_words_with_one_warning_and_still_answers() {
    let mut engine = Engine::start();
    engine.send("position startpos");
    // A GUI's `go` with words this engine does not know (yet): one warning, then the search.
    let (infos, best) = engine.go("go depth 3 sideways 7 \u{1b}]0;x");
    let warnings: Vec<&String> = infos.iter().filter(|l| l.contains("warning")).collect();
    assert_eq!(warnings.len(), 1, "{infos:?}");
    assert_eq!(
        warnings[0],
        "info string warning: go: ignored 'sideways' '7' '?]0;x'"
    );
    assert!(
        infos.iter().any(|l| l.starts_with("info depth 3 ")),
        "{infos:?}"
    );
    assert_eq!(best.len(), 5);
}

#[test]
fn uci_clock_names_and_movestogo_are_understood() {
    let mut engine = Engine::start();
    engine.send("position startpos");
    for go in [
        "go wtime 3000 btime 3000 winc 0 binc 0",
        "go wtime 3000 btime 3000 movestogo 10",
        // The last move before the time control, with little time left: it must still answer
        // well inside the clock.
        "go wtime 300 btime 300 movestogo 1",
    ] {
        let asked = Instant::now();
        let (infos, best) = engine.go(go);
        let took = asked.elapsed();
        eprintln!("{go}: {took:?}");
        assert!(
            !infos.iter().any(|l| is_error(l) || l.contains("warning")),
            "{go}: {infos:?}"
        );
        assert_eq!(best.len(), 5, "{go}");
        assert!(took < Duration::from_millis(3000), "{go}: {took:?}");
    }
}

#[test]
fn errors_quote_the_input_short_and_clean() {
    let mut engine = Engine::start();
    let escape = "\u{1b}]0;x\u{7}";
    for (line, expected) in [
        (
            format!("position fen 8/8/8/8/8/8/8/8 {escape}"),
            "info string error: position: bad LFEN: bad side to move: expected 'b' or 'r' (found '?]0;x?')".to_owned(),
        ),
        (
            format!("position fen 8/r1r1r1r1r1r1r1r1/8/8/8/8/b1b1b1b1b1b1b1b1/8 b {}", "j".repeat(1 << 20)),
            format!("info string error: position: bad LFEN: trailing text after the side to move (found '{}...')", "j".repeat(40)),
        ),
        (
            format!("position startpos moves a2-a3 {escape}"),
            "info string error: position: move 2 '?]0;x?': the origin square must be a1..i9; position unchanged".to_owned(),
        ),
    ] {
        let lines = engine.ask(&line);
        assert_eq!(lines, [expected], "{}", line.chars().take(40).collect::<String>());
    }
}

/// MemAvailable, in MiB (Linux), if known.
fn available_mib() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    Some(line.split_whitespace().nth(1)?.parse::<u64>().ok()? / 1024)
}

#[test]
fn a_hash_the_machine_cannot_give_is_refused_at_isready_and_the_old_table_kept() {
    let mut engine = Engine::start();
    // No table before the first isready: the handshake alone allocates nothing large.
    engine.send("setoption name Hash value 8");
    assert!(engine.sync().is_empty());
    let max = 32_768;
    if available_mib().is_some_and(|free| free < max) {
        engine.send(&format!("setoption name Hash value {max}"));
        let lines = engine.sync();
        assert_eq!(
            lines,
            [format!(
                "info string error: Hash {max} MiB: cannot allocate {max} MiB; keeping 8 MiB"
            )]
        );
    }
    let (infos, best) = engine.go("go depth 3");
    assert!(!infos.iter().any(|l| is_error(l)), "{infos:?}");
    assert_eq!(best.len(), 5);
}

#[test]
fn clear_hash_and_move_overhead() {
    let nodes = |infos: &[String]| -> u64 {
        let last = infos.last().expect("an info line");
        lielow_engine::ugi::read_info(last)
            .and_then(|i| i.nodes)
            .expect("nodes")
    };
    // One thread searches deterministically: the second search of a session differs from the
    // first only by what the first left in the table and the history. With the table cleared
    // in between (a button: no value), the second search must differ from one that kept it.
    let mut kept = Engine::start();
    kept.send("position startpos");
    let (first, _) = kept.go("go depth 7");
    let (with_table, _) = kept.go("go depth 7");
    let mut engine = Engine::start();
    engine.send("position startpos");
    let (first_again, _) = engine.go("go depth 7");
    assert_eq!(nodes(&first), nodes(&first_again));
    assert!(engine.ask("setoption name Clear Hash").is_empty());
    let (without_table, _) = engine.go("go depth 7");
    assert_ne!(nodes(&with_table), nodes(&without_table));
    // An overhead as large as the movetime still leaves all but a sixteenth of it (47 ms of
    // 50), and a move.
    assert!(engine
        .ask("setoption name Move Overhead value 5000")
        .is_empty());
    let (_, best) = engine.go("go movetime 50");
    assert_eq!(best.len(), 5);
    let lines = engine.ask("setoption name Move Overhead value -1");
    assert!(lines.len() == 1 && is_error(&lines[0]), "{lines:?}");
}

/// 256 search threads on a machine of a few cores still answer `go movetime 50` about as fast
/// as one thread does. Each round times one thread, then 256, one after the other, so that a
/// machine busy with other work slows both alike: an oversubscribed search that ignores the
/// clock takes far longer than the bound (380-760 ms against 50 on an idle 2-core machine).
#[test]
fn more_threads_than_cores_keep_the_clock() {
    let mut one = Engine::start();
    let mut many = Engine::start();
    many.send("setoption name Threads value 256");
    for engine in [&mut one, &mut many] {
        assert!(engine.ask("position startpos moves d2-d3 b7-c6").is_empty());
    }
    let timed = |engine: &mut Engine| {
        let asked = Instant::now();
        let (_, best) = engine.go("go movetime 50");
        assert_eq!(best.len(), 5);
        asked.elapsed()
    };
    for _ in 0..3 {
        let alone = timed(&mut one);
        let crowded = timed(&mut many);
        eprintln!("go movetime 50: Threads 1 {alone:?}, Threads 256 {crowded:?}");
        assert!(
            crowded < alone * 2 + Duration::from_millis(150),
            "Threads 256 {crowded:?} against Threads 1 {alone:?}"
        );
    }
}

#[test]
fn searchmoves_restricts_the_root_moves() {
    let mut engine = Engine::start();
    engine.send("position startpos");
    let (infos, best) = engine.go("go depth 5 searchmoves h2-h3 a2-a3");
    assert!(["h2-h3", "a2-a3"].contains(&best.as_str()), "{best}");
    for info in &infos {
        let pv = &lielow_engine::ugi::read_info(info)
            .expect("info lines only")
            .pv;
        assert!(["h2-h3", "a2-a3"].contains(&pv[0].as_str()), "{info}");
    }
    // One move: it is played, even when it is a poor one.
    let (_, best) = engine.go("go depth 4 searchmoves a2-a3");
    assert_eq!(best, "a2-a3");
    // Illegal ones are named in one error, and the rest is searched.
    let (infos, best) = engine.go("go depth 3 searchmoves a2-a5 zz b2-b3");
    assert_eq!(best, "b2-b3");
    let errors: Vec<&String> = infos.iter().filter(|l| is_error(l)).collect();
    assert_eq!(errors.len(), 1, "{infos:?}");
    assert!(
        errors[0].contains("'a2-a5'") && errors[0].contains("'zz'"),
        "{errors:?}"
    );
    // None left: bestmove none, with the reason.
    engine.send("go depth 3 searchmoves a7-a6");
    let lines = engine.until(|line| line.starts_with("bestmove"));
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(
        is_error(&lines[0]) && lines[0].contains("no move left"),
        "{lines:?}"
    );
    assert_eq!(lines[1], "bestmove none");
}

#[test]
fn go_mate_stops_once_a_short_enough_win_is_proven() {
    let mut engine = Engine::start();
    // A king capture on the board: mate 1, found at once.
    engine.send("position fen 8/r1r1r15/8/3R24/8/3B24/b1b1b15/8 b");
    let (infos, best) = engine.go("go mate 1");
    assert_eq!(best, "d3xd5");
    assert!(
        infos.last().unwrap().contains(" score mate 1 "),
        "{infos:?}"
    );
    // A forced win in two moves: no other limit is given, so only the proof ends the search.
    engine.send("position fen R11b15/8/b17/8/8/8/8/7b1 b");
    let (infos, best) = engine.go("go mate 2");
    let last = infos.last().unwrap();
    assert!(last.contains(" score mate 2 "), "{infos:?}");
    assert!(last.contains(&format!(" pv {best}")), "{last}");
    // Without a forced win, other limits still end it.
    engine.send("position startpos");
    let (_, best) = engine.go("go mate 1 movetime 100");
    assert_eq!(best.len(), 5);
}

#[test]
fn a_search_past_one_second_reports_each_root_move_it_starts() {
    let mut engine = Engine::start();
    engine.send("position startpos");
    let legal: Vec<String> = Position::start(BoardSize::Eight)
        .legal_moves()
        .iter()
        .map(|mv| mv.to_string())
        .collect();
    let asked = Instant::now();
    let (quick, _) = engine.go("go depth 3");
    if asked.elapsed() < Duration::from_millis(900) {
        assert!(!quick.iter().any(|l| l.contains("currmove")), "{quick:?}");
    }
    // An infinite search until it starts a root move past the first second (how many plies
    // that takes depends on the evaluation and the machine), then stopped.
    engine.send("go infinite");
    let mut infos = engine.until(|line| line.contains("currmove"));
    engine.send("stop");
    infos.extend(engine.until(|line| line.starts_with("bestmove")));
    let best = infos.pop().unwrap();
    assert!(best.starts_with("bestmove "), "{best}");
    let fields: Vec<lielow_engine::ugi::InfoFields> = infos
        .iter()
        .map(|line| lielow_engine::ugi::read_info(line).expect("info lines only"))
        .collect();
    let first = fields
        .iter()
        .position(|f| f.currmove.is_some())
        .unwrap_or_else(|| panic!("no currmove line: {infos:?}"));
    // Only after the first second: every iteration reported after the first currmove line
    // finished after it.
    for later in fields[first..].iter().filter(|f| f.currmove.is_none()) {
        assert!(later.time_ms.expect("time") >= 1000, "{infos:?}");
    }
    for (line, f) in infos
        .iter()
        .zip(&fields)
        .filter(|(_, f)| f.currmove.is_some())
    {
        let mv = f.currmove.as_deref().unwrap();
        assert!(legal.iter().any(|m| m == mv), "{line}");
        let number = f.currmovenumber.expect("currmovenumber") as usize;
        assert!((1..=legal.len()).contains(&number), "{line}");
        assert!(f.depth.is_some_and(|d| d > 1), "{line}");
        assert_eq!((f.score, f.nodes), (None, None), "{line}");
    }
}

/// The `multipv` lines of the last depth reported: (k, score text, first move).
fn last_lines(infos: &[String]) -> Vec<(u32, String, String)> {
    let fields: Vec<lielow_engine::ugi::InfoFields> = infos
        .iter()
        .filter_map(|line| lielow_engine::ugi::read_info(line))
        .filter(|f| f.currmove.is_none())
        .collect();
    let depth = fields.last().and_then(|f| f.depth);
    fields
        .iter()
        .filter(|f| f.depth == depth)
        .map(|f| {
            (
                f.multipv.expect("multipv with MultiPV above 1"),
                f.score.expect("a score").to_string(),
                f.pv[0].clone(),
            )
        })
        .collect()
}

#[test]
fn multipv_reports_distinct_lines_best_first() {
    let mut engine = Engine::start();
    assert!(engine.ask("setoption name MultiPV value 4").is_empty());
    engine.send("position startpos");
    let (infos, best) = engine.go("go depth 5");
    let lines = last_lines(&infos);
    assert_eq!(lines.len(), 4, "{infos:?}");
    assert_eq!(lines.iter().map(|l| l.0).collect::<Vec<_>>(), [1, 2, 3, 4]);
    let scores: Vec<i32> = lines
        .iter()
        .map(|l| l.1.strip_prefix("cp ").unwrap().parse().unwrap())
        .collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{lines:?}");
    let mut firsts: Vec<&String> = lines.iter().map(|l| &l.2).collect();
    assert_eq!(&best, firsts[0]);
    firsts.sort();
    firsts.dedup();
    assert_eq!(firsts.len(), 4, "{lines:?}");

    // More lines than legal moves: one line per move. A king capture on the board is mate 1.
    assert!(engine.ask("setoption name MultiPV value 256").is_empty());
    engine.send("position fen 6R71/8/8/2B61r53/8/8/8/6b61 b");
    let (infos, best) = engine.go("go depth 3");
    let lines = last_lines(&infos);
    assert_eq!(lines.len(), 5, "{infos:?}");
    assert_eq!(best, lines[0].2);

    // A king capture is line 1, and only line 1: the others are the best of the rest.
    assert!(engine.ask("setoption name MultiPV value 3").is_empty());
    engine.send("position fen 8/r1r1r15/8/3R24/8/3B24/b1b1b15/8 b");
    let (infos, best) = engine.go("go depth 3");
    let lines = last_lines(&infos);
    assert_eq!(best, "d3xd5");
    assert_eq!(
        (lines[0].1.as_str(), lines[0].2.as_str()),
        ("mate 1", "d3xd5")
    );
    assert!(lines[1..].iter().all(|l| l.2 != "d3xd5"), "{lines:?}");
    // With searchmoves that leave it out, it is not played.
    let (_, best) = engine.go("go depth 3 searchmoves a2-a3");
    assert_eq!(best, "a2-a3");

    // With searchmoves, only those moves have lines.
    engine.send("position startpos");
    let (infos, best) = engine.go("go depth 3 searchmoves a2-a3 h2-h3");
    let lines = last_lines(&infos);
    assert_eq!(lines.len(), 2, "{infos:?}");
    let mut firsts: Vec<&str> = lines.iter().map(|l| l.2.as_str()).collect();
    assert_eq!(best, firsts[0]);
    firsts.sort();
    assert_eq!(firsts, ["a2-a3", "h2-h3"]);
}

/// Reads up to `bestmove`; returns that line whole (it may name a ponder move).
fn bestmove_line(engine: &Engine) -> String {
    engine
        .until(|line| line.starts_with("bestmove"))
        .pop()
        .expect("a bestmove line")
}

#[test]
fn ponder_search_waits_for_ponderhit_or_stop() {
    let mut engine = Engine::start();
    engine.send("position startpos");
    // Off (the default): two tokens, as UGI runners parse them.
    let (_, best) = engine.go("go depth 4");
    assert_eq!(best.len(), 5);
    assert!(engine.ask("setoption name Ponder value true").is_empty());
    let start = Position::start(BoardSize::Eight);
    let named = |line: &str| {
        let words: Vec<&str> = line.split(' ').collect();
        assert_eq!(
            (words.len(), words[0], words[2]),
            (4, "bestmove", "ponder"),
            "{line}"
        );
        let mv = start.parse_move(words[1]).unwrap();
        assert!(start.play(mv).parse_move(words[3]).is_ok(), "{line}");
    };
    engine.send("go depth 4");
    named(&bestmove_line(&engine));

    // go ponder, then stop: the bestmove comes at once.
    engine.send("go ponder p1time 10000 p2time 10000");
    thread::sleep(Duration::from_millis(200));
    engine.send("stop");
    named(&bestmove_line(&engine));

    // A ponder search that has run out of depth waits for the ponder hit...
    engine.send("go ponder depth 2");
    thread::sleep(Duration::from_millis(200));
    assert!(engine.sync().iter().all(|l| l.starts_with("info depth")));
    let hit = Instant::now();
    engine.send("ponderhit");
    named(&bestmove_line(&engine));
    assert!(hit.elapsed() < Duration::from_secs(1));

    // ... and ponderhit turns one into a timed search from that moment.
    engine.send("go ponder movetime 100");
    thread::sleep(Duration::from_millis(400));
    assert!(engine.sync().iter().all(|l| !l.starts_with("bestmove")));
    let hit = Instant::now();
    engine.send("ponderhit");
    named(&bestmove_line(&engine));
    let after = hit.elapsed();
    eprintln!("ponderhit -> bestmove with movetime 100: {after:?}");
    assert!(
        after >= Duration::from_millis(50) && after < Duration::from_secs(2),
        "{after:?}"
    );

    // A ponderhit with no ponder search is ignored.
    assert!(engine.ask("ponderhit").is_empty());
}

#[test]
fn d_eval_and_bench_print_their_reports() {
    let mut engine = Engine::start();
    engine.send("position startpos moves a2-a3");
    let picture = engine.ask("d");
    let start = Position::start(BoardSize::Eight);
    let position = start.play(start.parse_move("a2-a3").unwrap());
    assert!(picture.contains(&format!("LFEN: {}", position.to_lfen())));
    assert!(picture.contains(&format!("Key: {:016x}", position.key())));
    assert!(picture.contains(&"Side to move: Red (player 2)".to_owned()));
    assert!(
        picture.iter().any(|line| line.starts_with(" 3 | B2 |")),
        "{picture:?}"
    );
    let eval = engine.ask("eval");
    // The search evaluates with the shipped network; the hand-set terms are shown beside it.
    let network = lielow_engine::nnue::Network::embedded().evaluate_position(&position);
    let total =
        format!("Static evaluation: {network:+} for Red (the side to move), from the network");
    assert_eq!(eval.last().unwrap(), &total, "{eval:?}");
    let hand_set = format!(
        "{:<24}{:>+8}",
        "hand-set total",
        lielow_engine::eval::evaluate(&position)
    );
    assert!(eval.contains(&hand_set), "{eval:?}");
    let record = format!(
        "Network: {}",
        lielow_engine::nnue::Network::embedded().description()
    );
    assert!(eval.contains(&record), "{eval:?}");
    engine.send("setoption name EvalFile value hand-set");
    let eval = engine.ask("eval");
    let total = format!(
        "Static evaluation: {:+} for Red (the side to move), from the hand-set evaluation",
        lielow_engine::eval::evaluate(&position)
    );
    assert_eq!(eval.last().unwrap(), &total, "{eval:?}");
    // A file that is no network is refused with the reason, and the evaluation stays.
    let refused = engine.ask("setoption name EvalFile value Cargo.toml");
    assert_eq!(
        refused,
        ["info string error: EvalFile 'Cargo.toml': not a lielow network file (no LIELOWNN header)"]
    );
    assert_eq!(engine.ask("eval").last().unwrap(), &total);
    engine.send("bench 1");
    let line = engine.until(|line| line.ends_with(" nps")).pop().unwrap();
    let fields: Vec<&str> = line.split(' ').collect();
    assert_eq!(fields.len(), 4, "{line}");
    assert_eq!(fields[1], "nodes");
    assert!(fields[0].parse::<u64>().unwrap() > 0 && fields[2].parse::<u64>().is_ok());
}

/// Whole games through the protocol, as a match runner plays them: every `bestmove` is legal
/// and the engine's `query result` at the end is the library's winner.
#[test]
fn complete_games_through_the_protocol_end_with_the_right_result() {
    for (size, threads) in [
        (BoardSize::Eight, 2),
        (BoardSize::Nine, 2),
        (BoardSize::Eight, 1),
    ] {
        let mut engine = Engine::start();
        engine.send("ugi");
        engine.until(|line| line == "ugiok");
        engine.send(&format!("setoption name Threads value {threads}"));
        engine.send(&format!("setoption name BoardSize value {}", size.n()));
        engine.send("setoption name Hash value 2");
        assert!(engine.sync().is_empty());
        engine.send("uginewgame");
        let mut position = Position::start(size);
        let mut moves: Vec<Move> = Vec::new();
        loop {
            // As cutegames does: no `moves` keyword before the first move.
            if moves.is_empty() {
                engine.send("position startpos");
            } else {
                engine.send(&format!("position startpos moves {}", joined(&moves)));
            }
            if engine.query("gameover") == "true" {
                break;
            }
            assert!(!position.is_game_over());
            let (_, best) = engine.go("go nodes 300");
            let mv = position.parse_move(&best).unwrap_or_else(|e| panic!("{e}"));
            position = position.play(mv);
            moves.push(mv);
            assert!(moves.len() < 2_000, "the game should have ended");
        }
        let winner = position
            .winner()
            .expect("the library agrees that the game is over");
        let expected = if winner == Side::Blue {
            "p1win"
        } else {
            "p2win"
        };
        assert_eq!(engine.query("result"), expected);
        engine.send("quit");
        assert!(engine.wait_exit(Duration::from_secs(5)).success());
    }
}
