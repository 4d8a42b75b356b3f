//! The text of every reply: handshake, `info` lines, `bestmove`, `response`, and the pictures
//! of `d` and `eval`. Each function returns the text without its final newline; the engine's
//! output adds it and flushes.

use std::fmt;

use super::{Dialect, Query, COMMANDS, OPTIONS};
use crate::score::Score;
use crate::search::{CurrentMove, Info, Report};
use lielow_rules::board::Side;
use lielow_rules::moves::Move;
use lielow_rules::position::Position;

/// The engine's name and version, as `id name` and the greeting give them.
fn engine_name() -> String {
    format!("lielow {}", env!("CARGO_PKG_VERSION"))
}

/// Who wrote the engine, as `id author` and the greeting give it.
const AUTHOR: &str = "the lielow developers";

/// The line the engine prints at start, before reading anything (as Stockfish does): what it
/// is and how to learn more. Clients read up to `ugiok` and skip it.
pub fn greeting() -> String {
    format!(
        "{} by {AUTHOR}: a Lielow engine speaking UGI (and UCI); 'help' lists the commands",
        engine_name()
    )
}

/// The answer to `help`: one line per command of [`COMMANDS`], its name then what follows it.
pub fn help_text() -> String {
    let width = COMMANDS
        .iter()
        .map(|(name, _)| name.len())
        .max()
        .unwrap_or(0);
    COMMANDS
        .iter()
        .map(|(name, what)| format!("{name:<width$}  {what}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The answer to `ugi` / `uci`: id lines, one line per listed option, then `ugiok` / `uciok`.
pub fn handshake(dialect: Dialect) -> String {
    let mut text = format!("id name {}\nid author {AUTHOR}\n", engine_name());
    for option in OPTIONS {
        text.push_str(&option.handshake_line());
        text.push('\n');
    }
    text.push_str(match dialect {
        Dialect::Ugi => "ugiok",
        Dialect::Uci => "uciok",
    });
    text
}

/// An error reply: `info string error: <message>`.
pub fn error_line(message: impl fmt::Display) -> String {
    format!("info string error: {message}")
}

/// A warning: `info string warning: <message>` (the command still ran).
pub fn warning_line(message: impl fmt::Display) -> String {
    format!("info string warning: {message}")
}

/// The warning for the words a `go` ignored (each already quoted through `shown`).
pub fn ignored_words_line(words: &[String]) -> String {
    let quoted: Vec<String> = words.iter().map(|word| format!("'{word}'")).collect();
    warning_line(format!("go: ignored {}", quoted.join(" ")))
}

/// One finished iteration (or, with MultiPV, one line of it): `info depth .. seldepth ..
/// [multipv ..] score .. nodes .. nps .. time .. hashfull .. pv ..` (`multipv` only with more
/// than one line, `pv` left out when the search gave none).
pub fn info_line(info: &Info) -> String {
    let multipv = info
        .multipv
        .map_or(String::new(), |k| format!(" multipv {k}"));
    let mut line = format!(
        "info depth {} seldepth {}{multipv} score {} nodes {} nps {} time {} hashfull {}",
        info.depth, info.seldepth, info.score, info.nodes, info.nps, info.time_ms, info.hashfull
    );
    if !info.pv.is_empty() {
        line.push_str(" pv");
        for mv in &info.pv {
            line.push_str(&format!(" {mv}"));
        }
    }
    line
}

/// The root move the search starts on: `info depth <d> currmove <m> currmovenumber <n>`.
pub fn currmove_line(current: &CurrentMove) -> String {
    format!(
        "info depth {} currmove {} currmovenumber {}",
        current.depth, current.mv, current.number
    )
}

/// The line a search report is printed as.
pub fn report_line(report: Report) -> String {
    match report {
        Report::Iteration(info) => info_line(info),
        Report::CurrentMove(current) => currmove_line(&current),
    }
}

/// The fields of an `info` line read back, from this engine or another: the ones present, in
/// any order, others skipped. The inverse of [`info_line`], for the match runner.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InfoFields {
    /// `depth`.
    pub depth: Option<u32>,
    /// `seldepth`.
    pub seldepth: Option<u32>,
    /// `multipv`.
    pub multipv: Option<u32>,
    /// `score cp X` or `score mate N` (a mate as its shortest distance in plies).
    pub score: Option<Score>,
    /// `nodes`.
    pub nodes: Option<u64>,
    /// `nps`.
    pub nps: Option<u64>,
    /// `time`, in milliseconds.
    pub time_ms: Option<u64>,
    /// `hashfull`.
    pub hashfull: Option<u32>,
    /// `pv`, the moves as written (the rest of the line).
    pub pv: Vec<String>,
    /// `currmove`, as written: the line reports a root move started, not a finished iteration.
    pub currmove: Option<String>,
    /// `currmovenumber`.
    pub currmovenumber: Option<u32>,
}

/// Reads an `info` line (not `info string`); `None` for any other line.
pub fn read_info(line: &str) -> Option<InfoFields> {
    let mut words = line.split_whitespace();
    if words.next() != Some("info") {
        return None;
    }
    let mut fields = InfoFields::default();
    while let Some(word) = words.next() {
        match word {
            "string" => return None,
            "depth" => fields.depth = words.next().and_then(|w| w.parse().ok()),
            "seldepth" => fields.seldepth = words.next().and_then(|w| w.parse().ok()),
            "multipv" => fields.multipv = words.next().and_then(|w| w.parse().ok()),
            "nodes" => fields.nodes = words.next().and_then(|w| w.parse().ok()),
            "nps" => fields.nps = words.next().and_then(|w| w.parse().ok()),
            "time" => fields.time_ms = words.next().and_then(|w| w.parse().ok()),
            "hashfull" => fields.hashfull = words.next().and_then(|w| w.parse().ok()),
            "currmove" => fields.currmove = words.next().map(str::to_owned),
            "currmovenumber" => fields.currmovenumber = words.next().and_then(|w| w.parse().ok()),
            "score" => {
                let kind = words.next();
                let value: Option<i32> = words.next().and_then(|w| w.parse().ok());
                fields.score = match (kind, value) {
                    (Some("cp"), Some(cp)) => Some(Score(cp)),
                    (Some("mate"), Some(moves)) if moves > 0 => Some(Score::win_in(2 * moves - 1)),
                    (Some("mate"), Some(moves)) => Some(Score::loss_in(-2 * moves)),
                    _ => None,
                };
            }
            "pv" => {
                fields.pv = words.by_ref().map(str::to_owned).collect();
            }
            _ => {}
        }
    }
    Some(fields)
}

/// `bestmove <move>`, or `bestmove none` when the game is over.
pub fn bestmove_line(mv: Option<Move>) -> String {
    match mv {
        Some(mv) => format!("bestmove {mv}"),
        None => "bestmove none".to_owned(),
    }
}

/// `bestmove <move> ponder <reply>` (with the `Ponder` option, when a reply is known).
pub fn bestmove_ponder_line(mv: Move, reply: Move) -> String {
    format!("bestmove {mv} ponder {reply}")
}

/// The `info string` line sent before `bestmove none`.
pub fn game_over_line(winner: Side) -> String {
    format!("info string game over: {winner} has won")
}

/// The `response` to a query about `position`.
pub fn response(query: Query, position: &Position) -> String {
    let answer = match query {
        Query::GameOver => position.is_game_over().to_string(),
        Query::P1Turn => (position.side_to_move() == Side::Blue).to_string(),
        Query::Result => match position.winner() {
            Some(Side::Blue) => "p1win".to_owned(),
            Some(Side::Red) => "p2win".to_owned(),
            None => "none".to_owned(),
        },
        Query::Fen => position.to_lfen(),
        Query::Moves => {
            let moves: Vec<String> = position.legal_moves().iter().map(Move::to_string).collect();
            if moves.is_empty() {
                "none".to_owned()
            } else {
                moves.join(" ")
            }
        }
    };
    format!("response {answer}")
}

/// `d`: the board with every stack's owner and height (uppercase = the king, which carries its
/// side's crown), then the LFEN, the key, the side to move and the state of the game.
pub fn board_picture(position: &Position, moves_played: usize) -> String {
    let n = position.size().n();
    let border = format!("   +{}", "----+".repeat(n));
    let mut text = String::new();
    text.push_str(&border);
    text.push('\n');
    for rank in (0..n).rev() {
        text.push_str(&format!("{:>2} |", rank + 1));
        for file in 0..n {
            let square = lielow_rules::board::Square::new(file, rank).expect("on the board");
            let cell = match position.stack(square) {
                None => "    ".to_owned(),
                Some((side, height)) => {
                    let letter = side.letter();
                    let letter = if position.king(side) == Some(square) {
                        letter.to_ascii_uppercase()
                    } else {
                        letter
                    };
                    format!(" {letter}{height} ")
                }
            };
            text.push_str(&cell);
            text.push('|');
        }
        text.push('\n');
        text.push_str(&border);
        text.push('\n');
    }
    let files: Vec<String> = (0..n)
        .map(|file| ((b'a' + file as u8) as char).to_string())
        .collect();
    text.push_str(&format!("      {}\n", files.join("    ")));
    let king = |side| match position.king(side) {
        Some(square) => square.to_string(),
        None => "none".to_owned(),
    };
    let side = position.side_to_move();
    let player = if side == Side::Blue { 1 } else { 2 };
    text.push_str(&format!(
        "\nLFEN: {}\nKey: {:016x}\nSide to move: {side} (player {player})\nKings: Blue {}, Red {}\nMoves played: {moves_played}\n",
        position.to_lfen(),
        position.key(),
        king(Side::Blue),
        king(Side::Red),
    ));
    match position.winner() {
        Some(winner) => text.push_str(&format!("Game over: {winner} has won")),
        None => text.push_str(&format!("Legal moves: {}", position.legal_moves().len())),
    }
    text
}

/// `eval`: each term of the static evaluation, then the total, all for the side to move.
/// With a `network`, the search evaluates with it: its output is printed beside the hand-set
/// terms and is the static evaluation, and its record says which network it is (and, for a
/// file of a version without a checksum, that nothing proved it whole).
pub fn eval_report(position: &Position, network: Option<&crate::nnue::Network>) -> String {
    if let Some(winner) = position.winner() {
        return game_over_line(winner);
    }
    let mut text = format!("{:<24}{:>8}\n", "Term", "Score");
    for (name, score) in crate::eval::trace(position) {
        text.push_str(&format!("{name:<24}{score:>+8}\n"));
    }
    let hand_set = crate::eval::evaluate(position);
    text.push_str(&format!("{:<24}{hand_set:>+8}\n", "hand-set total"));
    let (total, source) = match network {
        Some(network) => {
            let output = network.evaluate_position(position);
            text.push_str(&format!("{:<24}{output:>+8}\n", "network"));
            text.push_str(&format!("Network: {}\n", network.description()));
            if !network.checked() {
                text.push_str(&format!(
                    "Network file: format version {}, unchecked (it carries no checksum; version {} does)\n",
                    network.file_version(),
                    crate::nnue::VERSION
                ));
            }
            (output, "the network")
        }
        None => (hand_set, "the hand-set evaluation"),
    };
    text.push_str(&format!(
        "Static evaluation: {total:+} for {} (the side to move), from {source}",
        position.side_to_move()
    ));
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use lielow_rules::board::BoardSize;

    #[test]
    fn responses_are_two_tokens_except_fen_and_moves() {
        let start = Position::start(BoardSize::Eight);
        assert_eq!(response(Query::GameOver, &start), "response false");
        assert_eq!(response(Query::P1Turn, &start), "response true");
        assert_eq!(response(Query::Result, &start), "response none");
        assert_eq!(response(Query::Moves, &start).split(' ').count(), 1 + 46);
        let lost = Position::from_lfen("8/8/8/8/8/8/b1b1b1b1b1b1b1b1/8 r").unwrap();
        assert_eq!(response(Query::Result, &lost), "response p1win");
        assert_eq!(response(Query::Moves, &lost), "response none");
    }

    /// `read_info` reads back every field `info_line` prints, and printing what it read gives
    /// the same line.
    #[test]
    fn info_lines_round_trip() {
        let start = Position::start(lielow_rules::board::BoardSize::Eight);
        let pv: Vec<Move> = (0..3)
            .scan(start, |position, _| {
                let mv = position.legal_moves()[0];
                *position = position.play(mv);
                Some(mv)
            })
            .collect();
        let scores = [
            Score(-37),
            Score(0),
            Score::win_in(1),
            Score::win_in(5),
            Score::loss_in(4),
        ];
        for (i, score) in scores.into_iter().enumerate() {
            let multipv = (i % 2 == 1).then_some(i as u32);
            let info = Info {
                depth: 12,
                seldepth: 20,
                multipv,
                score,
                nodes: 123_456,
                nps: 4_000_000,
                time_ms: 31,
                hashfull: 87,
                pv: pv.clone(),
            };
            let line = info_line(&info);
            let fields = read_info(&line).expect("an info line");
            assert_eq!(fields.depth, Some(12));
            assert_eq!(fields.seldepth, Some(20));
            assert_eq!(fields.multipv, multipv);
            assert_eq!(fields.score.map(|s| s.to_string()), Some(score.to_string()));
            assert_eq!(
                (fields.nodes, fields.nps, fields.time_ms),
                (Some(123_456), Some(4_000_000), Some(31))
            );
            assert_eq!(fields.hashfull, Some(87));
            let moves: Vec<Move> = fields
                .pv
                .iter()
                .scan(start, |position, text| {
                    let mv = position.parse_move(text).ok()?;
                    *position = position.play(mv);
                    Some(mv)
                })
                .collect();
            let again = Info {
                score: fields.score.unwrap(),
                pv: moves,
                ..info.clone()
            };
            assert_eq!(info_line(&again), line);
        }
        assert_eq!(read_info("info string error: x"), None);
        assert_eq!(read_info("bestmove a2-a3"), None);
        let other = read_info("info multipv 2 depth 7 currmove a2-a3 score cp 5").unwrap();
        assert_eq!((other.depth, other.score), (Some(7), Some(Score(5))));
        assert_eq!(other.multipv, Some(2));
        assert_eq!(other.currmove.as_deref(), Some("a2-a3"));
    }

    /// `currmove` lines read back to the move and number printed, and are told apart from
    /// finished iterations.
    #[test]
    fn currmove_lines_round_trip() {
        let start = Position::start(BoardSize::Eight);
        for (number, &mv) in start.legal_moves().iter().enumerate().step_by(7) {
            let current = CurrentMove {
                depth: 9,
                mv,
                number: number as u32 + 1,
            };
            let line = report_line(Report::CurrentMove(current));
            assert_eq!(line, currmove_line(&current));
            let fields = read_info(&line).expect("an info line");
            let read = CurrentMove {
                depth: fields.depth.expect("depth"),
                mv: start
                    .parse_move(fields.currmove.as_deref().expect("currmove"))
                    .unwrap(),
                number: fields.currmovenumber.expect("currmovenumber"),
            };
            assert_eq!(read, current);
            assert_eq!(fields.pv, Vec::<String>::new());
        }
    }

    #[test]
    fn handshake_lists_the_options_and_ends_with_ok() {
        let text = handshake(Dialect::Uci);
        assert!(text.starts_with(&format!("id name lielow {}\n", env!("CARGO_PKG_VERSION"))));
        assert!(text.contains("option name BoardSize type spin default 8 min 8 max 9\n"));
        assert!(text.ends_with("\nuciok"));
    }
}
