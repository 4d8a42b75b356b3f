//! UGI, the text protocol: one input line parsed into a typed [`Command`], and the text of every
//! reply. This module only parses and formats; `engine` owns the state and the threads.
//! [`position`](PositionCommand) is read and printed in one place; [`client`] is the other side
//! of the conversation, the one a match runner or a GUI speaks through.
//!
//! Parsing is strict: a line that does not match a command's grammar exactly is refused with a
//! [`CommandError`] and nothing is done, so a typo never half-applies (protocol.md lists every form).

use std::fmt;
use std::str::FromStr;

use crate::limits::{Clock, Limits};
use crate::search::params::{ParamError, ParamSpec, Params};
use lielow_rules::board::BoardSize;
use lielow_rules::lfen::LfenError;

/// Which handshake opened the session: both answer the same, ending in `ugiok` or `uciok`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// `ugi`: answered with `ugiok`.
    Ugi,
    /// `uci`: the same handshake, answered with `uciok`.
    Uci,
}

/// A spin option as advertised by the handshake; its bounds are checked before any setter runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpinOption {
    /// The name `setoption` uses (case-insensitive).
    pub name: &'static str,
    /// The value before any `setoption`.
    pub default: usize,
    /// Smallest accepted value.
    pub min: usize,
    /// Largest accepted value.
    pub max: usize,
}

/// Transposition table size in MiB.
pub const HASH: SpinOption = SpinOption {
    name: "Hash",
    default: crate::search::DEFAULT_HASH_MB,
    min: 1,
    max: crate::search::MAX_HASH_MB,
};
/// Search threads (work splitting, shared table).
pub const THREADS: SpinOption = SpinOption {
    name: "Threads",
    default: 1,
    min: 1,
    max: 256,
};
/// What `startpos` means: the 8x8 or the 9x9 start position.
pub const BOARD_SIZE: SpinOption = SpinOption {
    name: "BoardSize",
    default: 8,
    min: 8,
    max: 9,
};
/// Milliseconds kept back from every time budget for the process and pipe latency of the GUI
/// or runner (`Move Overhead`, as in Stockfish).
pub const MOVE_OVERHEAD: SpinOption = SpinOption {
    name: "Move Overhead",
    default: crate::time::DEFAULT_MOVE_OVERHEAD_MS as usize,
    min: 0,
    max: 5000,
};
/// Principal variations reported per iteration.
pub const MULTI_PV: SpinOption = SpinOption {
    name: "MultiPV",
    default: 1,
    min: 1,
    max: 256,
};
/// Every spin option, in handshake order.
pub const OPTIONS: [SpinOption; 5] = [HASH, THREADS, BOARD_SIZE, MOVE_OVERHEAD, MULTI_PV];
/// `Clear Hash`: a button (no value) that empties the transposition table.
pub const CLEAR_HASH: &str = "Clear Hash";
/// `Ponder`: a check (true/false). On, `bestmove` names the reply the engine expects, for
/// `go ponder`; off (the default), `bestmove` is two tokens, which UGI runners expect.
pub const PONDER: &str = "Ponder";
/// `EvalFile`: a development option (not listed by `ugi`): `embedded` (the default), `hand-set`,
/// or the path of a network file.
pub const EVAL_FILE: &str = "EvalFile";

/// A `setoption` whose name and value were both accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionSetting {
    /// `Hash`, in MiB.
    HashMb(usize),
    /// `Threads`, the number of search threads.
    Threads(usize),
    /// `BoardSize`: what `startpos` means.
    BoardSize(BoardSize),
    /// `Move Overhead`, in milliseconds.
    MoveOverheadMs(u64),
    /// `MultiPV`: principal variations per iteration.
    MultiPv(usize),
    /// The `Clear Hash` button.
    ClearHash,
    /// `Ponder`: whether `bestmove` names a move to ponder on.
    Ponder(bool),
    /// `EvalFile`: the evaluation the search uses.
    EvalFile(crate::nnue::EvalChoice),
    /// A development option: one of the search's parameters (`search::params`), not listed by
    /// `ugi`. The value has been checked.
    SearchParam {
        /// The parameter's name as the engine spells it.
        name: &'static str,
        /// Its value, as given.
        value: String,
    },
}

/// `query <question>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Query {
    /// `query gameover`.
    GameOver,
    /// `query p1turn`.
    P1Turn,
    /// `query result`.
    Result,
    /// `query fen` (extension).
    Fen,
    /// `query moves` (extension).
    Moves,
}

/// `go` as understood: its limits, and the words it did not know, which are ignored (the
/// search runs with the rest, as UCI engines do, so a runner that sends a parameter this engine
/// lacks still gets its `bestmove`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoCommand {
    /// What bounds the search.
    pub limits: Limits,
    /// `searchmoves`: the root moves to search, as written (checked against the position by
    /// the engine); empty: every move.
    pub searchmoves: Vec<String>,
    /// The unknown words, each quoted through [`shown`] (at most [`MAX_IGNORED_SHOWN`]).
    pub ignored: Vec<String>,
}

/// How many ignored words a `go` warning quotes.
pub const MAX_IGNORED_SHOWN: usize = 8;

/// One input line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `ugi` or `uci`: the handshake.
    Hello(Dialect),
    /// `isready`.
    IsReady,
    /// `setoption name <NAME> value <VALUE>`, name and range already checked.
    SetOption(OptionSetting),
    /// `uginewgame` or `ucinewgame`.
    NewGame,
    /// `position ...`.
    Position(PositionCommand),
    /// `go` with its limits (a bare `go` is infinite).
    Go(GoCommand),
    /// `go perft <depth>`.
    Perft(u32),
    /// `stop`.
    Stop,
    /// `ponderhit`: the opponent played the move the engine ponders on.
    PonderHit,
    /// `quit`.
    Quit,
    /// `query <question>`.
    Query(Query),
    /// `d`: the board picture.
    Display,
    /// `eval`: the static evaluation's terms.
    Eval,
    /// `bench [depth]`.
    Bench(Option<u32>),
}

/// Why a line was refused. Input text quoted in a message is shortened and cleaned by [`shown`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandError {
    /// A line with no token: the engine ignores it silently.
    Empty,
    /// The first word is no command.
    UnknownCommand(String),
    /// A required argument is missing.
    Missing {
        /// The command.
        command: &'static str,
        /// What was expected.
        what: &'static str,
    },
    /// A word the command does not take.
    Unexpected {
        /// The command.
        command: &'static str,
        /// The word.
        token: String,
    },
    /// A number that does not parse.
    BadNumber {
        /// What the number is.
        what: &'static str,
        /// The word.
        token: String,
    },
    /// A parameter given twice.
    Repeated {
        /// The command.
        command: &'static str,
        /// The parameter.
        token: &'static str,
    },
    /// The LFEN of `position fen` is malformed.
    BadFen {
        /// What is wrong.
        error: LfenError,
        /// The word the error is about, quoted through [`shown`], when it is one word (a bad
        /// side to move, trailing text).
        word: Option<String>,
    },
    /// `query` of something unknown.
    UnknownQuery(String),
    /// `setoption` of an unknown option.
    UnknownOption(String),
    /// A bad value for a development option.
    BadParamValue {
        /// The parameter.
        name: &'static str,
        /// The value (quoted through [`shown`]).
        value: String,
        /// What is wrong with it.
        why: ParamError,
    },
    /// A value out of an option's range.
    BadOptionValue {
        /// The option.
        option: SpinOption,
        /// The value as written.
        value: String,
    },
}

impl CommandError {
    /// `command` does not take `token` (shown shortened and with control characters masked).
    fn unexpected(command: &'static str, token: &str) -> CommandError {
        CommandError::Unexpected {
            command,
            token: shown(token),
        }
    }

    /// `command` lacks `what`.
    fn missing(command: &'static str, what: &'static str) -> CommandError {
        CommandError::Missing { command, what }
    }
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::Empty => f.write_str("empty line"),
            CommandError::UnknownCommand(word) => write!(f, "unknown command '{word}'"),
            CommandError::Missing { command, what } => write!(f, "{command}: missing {what}"),
            CommandError::Unexpected { command, token } => {
                write!(f, "{command}: unexpected '{token}'")
            }
            CommandError::BadNumber { what, token } => {
                write!(f, "{what}: bad number '{token}'")
            }
            CommandError::Repeated { command, token } => {
                write!(f, "{command}: '{token}' given twice")
            }
            CommandError::BadFen { error, word } => {
                write!(f, "position: {error}")?;
                match word {
                    Some(word) => write!(f, " (found '{word}')"),
                    None => Ok(()),
                }
            }
            CommandError::UnknownQuery(word) => write!(
                f,
                "unknown query '{word}' (expected gameover, p1turn, result, fen or moves)"
            ),
            CommandError::UnknownOption(name) => write!(
                f,
                "unknown option '{name}' (expected Hash, Threads, BoardSize, Move Overhead, MultiPV, Ponder or Clear Hash)"
            ),
            CommandError::BadParamValue { name, value, why } => {
                write!(f, "option {name}: bad value '{value}' ({why})")
            }
            CommandError::BadOptionValue { option, value } => write!(
                f,
                "option {}: bad value '{value}' (expected an integer from {} to {})",
                option.name, option.min, option.max
            ),
        }
    }
}

impl std::error::Error for CommandError {}

// The rules crate owns how input is quoted: its replay errors quote a bad move the same way.
pub use lielow_rules::quote::shown;

pub mod client;
mod position;
mod reply;

use position::parse_position;
pub use position::{lfen_word, PositionCommand, Start};
pub use reply::{
    bestmove_line, bestmove_ponder_line, board_picture, currmove_line, error_line, eval_report,
    game_over_line, handshake, ignored_words_line, info_line, read_info, report_line, response,
    warning_line, InfoFields,
};

type Tokens<'a> = std::str::SplitWhitespace<'a>;

impl FromStr for Command {
    type Err = CommandError;

    fn from_str(line: &str) -> Result<Command, CommandError> {
        let mut tokens = line.split_whitespace();
        let Some(word) = tokens.next() else {
            return Err(CommandError::Empty);
        };
        let simple = |command: &'static str, tokens: Tokens, value: Command| {
            end(command, tokens).map(|()| value)
        };
        match word {
            "ugi" => simple("ugi", tokens, Command::Hello(Dialect::Ugi)),
            "uci" => simple("uci", tokens, Command::Hello(Dialect::Uci)),
            "isready" => simple("isready", tokens, Command::IsReady),
            "uginewgame" | "ucinewgame" => simple("uginewgame", tokens, Command::NewGame),
            "stop" => simple("stop", tokens, Command::Stop),
            "ponderhit" => simple("ponderhit", tokens, Command::PonderHit),
            "quit" => simple("quit", tokens, Command::Quit),
            "d" => simple("d", tokens, Command::Display),
            "eval" => simple("eval", tokens, Command::Eval),
            "setoption" => parse_setoption(tokens).map(Command::SetOption),
            "position" => parse_position(tokens).map(Command::Position),
            "go" => parse_go(tokens),
            "query" => parse_query(tokens).map(Command::Query),
            "bench" => {
                let depth = match tokens.next() {
                    None => None,
                    Some(token) => Some(number::<u32>("bench depth (1 or more)", token)?),
                };
                if depth == Some(0) {
                    return Err(CommandError::BadNumber {
                        what: "bench depth (1 or more)",
                        token: "0".into(),
                    });
                }
                end("bench", tokens).map(|()| Command::Bench(depth))
            }
            other => Err(CommandError::UnknownCommand(shown(other))),
        }
    }
}

/// Refuses anything left on the line.
fn end(command: &'static str, mut tokens: Tokens) -> Result<(), CommandError> {
    match tokens.next() {
        None => Ok(()),
        Some(token) => Err(CommandError::unexpected(command, token)),
    }
}

fn number<T: FromStr>(what: &'static str, token: &str) -> Result<T, CommandError> {
    token.parse().map_err(|_| CommandError::BadNumber {
        what,
        token: shown(token),
    })
}

fn parse_setoption(mut tokens: Tokens) -> Result<OptionSetting, CommandError> {
    const COMMAND: &str = "setoption";
    match tokens.next() {
        Some("name") => {}
        Some(other) => return Err(CommandError::unexpected(COMMAND, other)),
        None => {
            return Err(CommandError::missing(
                COMMAND,
                "'name <NAME> value <VALUE>'",
            ))
        }
    }
    let name: Vec<&str> = tokens.by_ref().take_while(|&t| t != "value").collect();
    let value: Vec<&str> = tokens.collect();
    if name.is_empty() {
        return Err(CommandError::missing(COMMAND, "the option name"));
    }
    let name = name.join(" ");
    if name.eq_ignore_ascii_case(CLEAR_HASH) {
        // A button: a value, if a GUI sends one, means nothing.
        return Ok(OptionSetting::ClearHash);
    }
    if value.is_empty() {
        return Err(CommandError::missing(COMMAND, "'value <VALUE>'"));
    }
    let value = value.join(" ");
    if name.eq_ignore_ascii_case(EVAL_FILE) {
        let Ok(choice) = value.parse();
        return Ok(OptionSetting::EvalFile(choice));
    }
    if name.eq_ignore_ascii_case(PONDER) {
        return match value.to_ascii_lowercase().as_str() {
            "true" => Ok(OptionSetting::Ponder(true)),
            "false" => Ok(OptionSetting::Ponder(false)),
            _ => Err(CommandError::BadParamValue {
                name: PONDER,
                value: shown(&value),
                why: ParamError::NotASwitch,
            }),
        };
    }
    let Some(&option) = OPTIONS.iter().find(|o| o.name.eq_ignore_ascii_case(&name)) else {
        let Some(spec) = ParamSpec::find(&name) else {
            return Err(CommandError::UnknownOption(shown(&name)));
        };
        // Checked on a scratch copy: the engine applies it to its own parameters.
        return match spec.set(&mut Params::default(), &value) {
            Ok(()) => Ok(OptionSetting::SearchParam {
                name: spec.name,
                value,
            }),
            Err(why) => Err(CommandError::BadParamValue {
                name: spec.name,
                value: shown(&value),
                why,
            }),
        };
    };
    let bad = || CommandError::BadOptionValue {
        option,
        value: shown(&value),
    };
    let number: usize = value.parse().map_err(|_| bad())?;
    if !(option.min..=option.max).contains(&number) {
        return Err(bad());
    }
    Ok(match option.name {
        "Hash" => OptionSetting::HashMb(number),
        "Threads" => OptionSetting::Threads(number),
        "Move Overhead" => OptionSetting::MoveOverheadMs(number as u64),
        "MultiPV" => OptionSetting::MultiPv(number),
        _ => OptionSetting::BoardSize(BoardSize::from_n(number).ok_or_else(bad)?),
    })
}

/// `go`: the clock fields fill a [`Clock`] (p1 = Blue = index 0; a missing field is 0); a bare
/// `go` searches until `stop`, as `go infinite`.
/// The clock parameters of `go`: their UGI names, their UCI aliases (white = Blue = p1), and
/// the slot of [`parse_go`]'s clock they fill.
const CLOCK_WORDS: [(&str, &str); 4] = [
    ("p1time", "wtime"),
    ("p2time", "btime"),
    ("p1inc", "winc"),
    ("p2inc", "binc"),
];

/// The parameters `go` knows (they end a `searchmoves` list).
const GO_WORDS: [&str; 17] = [
    "perft",
    "ponder",
    "mate",
    "infinite",
    "depth",
    "nodes",
    "movetime",
    "movestogo",
    "searchmoves",
    "p1time",
    "p2time",
    "p1inc",
    "p2inc",
    "wtime",
    "btime",
    "winc",
    "binc",
];

fn parse_go(mut tokens: Tokens) -> Result<Command, CommandError> {
    const COMMAND: &str = "go";
    let mut go = GoCommand::default();
    let mut limits = Limits::default();
    let mut clock: [Option<u64>; 4] = [None; 4];
    let mut moves_to_go = None;
    let mut any = false;
    while let Some(token) = tokens.next() {
        let first = !any;
        any = true;
        let mut value =
            |what: &'static str| tokens.next().ok_or(CommandError::missing(COMMAND, what));
        let repeated = |token| CommandError::Repeated {
            command: COMMAND,
            token,
        };
        let clock_slot = CLOCK_WORDS
            .iter()
            .position(|&(ugi, uci)| token == ugi || token == uci);
        match token {
            "perft" if first => {
                let depth = number("perft depth", value("the perft depth")?)?;
                return end(COMMAND, tokens).map(|()| Command::Perft(depth));
            }
            "ponder" if limits.ponder => return Err(repeated("ponder")),
            "ponder" => limits.ponder = true,
            "infinite" if limits.infinite => return Err(repeated("infinite")),
            "infinite" => limits.infinite = true,
            "depth" if limits.depth.is_some() => return Err(repeated("depth")),
            "depth" => limits.depth = Some(number("depth", value("the depth")?)?),
            "nodes" if limits.nodes.is_some() => return Err(repeated("nodes")),
            "nodes" => limits.nodes = Some(number("nodes", value("the node count")?)?),
            "movetime" if limits.movetime.is_some() => return Err(repeated("movetime")),
            "movetime" => limits.movetime = Some(milliseconds("movetime", value("the time")?)?),
            "searchmoves" if !go.searchmoves.is_empty() => return Err(repeated("searchmoves")),
            "searchmoves" => {
                // Every word up to the next parameter is a move.
                while let Some(word) = tokens.clone().next() {
                    if GO_WORDS.contains(&word) {
                        break;
                    }
                    go.searchmoves.push(word.to_owned());
                    tokens.next();
                }
                if go.searchmoves.is_empty() {
                    return Err(CommandError::missing(
                        COMMAND,
                        "the moves after 'searchmoves'",
                    ));
                }
            }
            "mate" if limits.mate.is_some() => return Err(repeated("mate")),
            "mate" => limits.mate = Some(number("mate", value("the number of moves")?)?),
            "movestogo" if moves_to_go.is_some() => return Err(repeated("movestogo")),
            "movestogo" => moves_to_go = Some(number("movestogo", value("the move count")?)?),
            _ if clock_slot.is_some() => {
                let slot = clock_slot.expect("matched");
                let name = CLOCK_WORDS[slot].0;
                if clock[slot].is_some() {
                    return Err(repeated(name));
                }
                clock[slot] = Some(milliseconds(name, value("the time in ms")?)?);
            }
            other => {
                if go.ignored.len() < MAX_IGNORED_SHOWN {
                    go.ignored.push(shown(other));
                }
            }
        }
    }
    if clock.iter().any(Option::is_some) {
        let ms = |i: usize| clock[i].unwrap_or(0);
        limits.clock = Some(Clock {
            time: [ms(0), ms(1)],
            increment: [ms(2), ms(3)],
            moves_to_go,
        });
    } else if moves_to_go.is_some() {
        go.ignored.push("movestogo (no clock given)".to_owned());
    }
    let understood = limits != Limits::default();
    if !understood {
        // A bare `go` (or one with nothing understood) searches until `stop`.
        limits.infinite = true;
    }
    go.limits = limits;
    Ok(Command::Go(go))
}

/// The `go` line that [`parse_go`] reads back as `limits`: what a match runner sends. Clocks use
/// the UGI names; a `movestogo` follows them.
pub fn go_line(limits: &Limits) -> String {
    let mut go = String::from("go");
    if let Some(clock) = limits.clock {
        let values = [
            clock.time[0],
            clock.time[1],
            clock.increment[0],
            clock.increment[1],
        ];
        for ((name, _), value) in CLOCK_WORDS.iter().zip(values) {
            go += &format!(" {name} {value}");
        }
        if let Some(moves) = clock.moves_to_go {
            go += &format!(" movestogo {moves}");
        }
    }
    if let Some(movetime) = limits.movetime {
        go += &format!(" movetime {movetime}");
    }
    if let Some(depth) = limits.depth {
        go += &format!(" depth {depth}");
    }
    if let Some(nodes) = limits.nodes {
        go += &format!(" nodes {nodes}");
    }
    if let Some(moves) = limits.mate {
        go += &format!(" mate {moves}");
    }
    if limits.infinite {
        go += " infinite";
    }
    if limits.ponder {
        go += " ponder";
    }
    go
}

/// A time in ms; a negative one (a runner's clock that ran past zero) counts as 0.
fn milliseconds(what: &'static str, token: &str) -> Result<u64, CommandError> {
    match token.strip_prefix('-') {
        Some(digits) => number::<u64>(what, digits).map(|_| 0),
        None => number(what, token),
    }
}

fn parse_query(mut tokens: Tokens) -> Result<Query, CommandError> {
    let query = match tokens.next() {
        Some("gameover") => Query::GameOver,
        Some("p1turn") => Query::P1Turn,
        Some("result") => Query::Result,
        Some("fen") => Query::Fen,
        Some("moves") => Query::Moves,
        Some(other) => return Err(CommandError::UnknownQuery(shown(other))),
        None => {
            return Err(CommandError::missing(
                "query",
                "the question (gameover, p1turn, result, fen or moves)",
            ))
        }
    };
    end("query", tokens).map(|()| query)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Result<Command, CommandError> {
        line.parse()
    }

    #[test]
    fn go_maps_every_field_to_limits() {
        let Ok(Command::Go(limits)) =
            parse("go p1time 1000 p2time 2000 p1inc 10 p2inc 20 depth 7 nodes 99 movetime 50")
        else {
            panic!("go should parse");
        };
        assert_eq!(
            limits.limits.clock,
            Some(Clock {
                time: [1000, 2000],
                increment: [10, 20],
                moves_to_go: None,
            })
        );
        let limits = limits.limits;
        assert_eq!(
            (limits.depth, limits.nodes, limits.movetime),
            (Some(7), Some(99), Some(50))
        );
        assert!(!limits.infinite);
        let Ok(Command::Go(go)) = parse("go p2time -5") else {
            panic!("a negative time is read as 0");
        };
        assert_eq!(go.limits.clock.map(|c| c.time), Some([0, 0]));
        assert_eq!(
            parse("go"),
            Ok(Command::Go(GoCommand {
                limits: Limits {
                    infinite: true,
                    ..Limits::default()
                },
                ..GoCommand::default()
            }))
        );
        assert_eq!(parse("go perft 3"), Ok(Command::Perft(3)));
        let Ok(Command::Go(go)) = parse("go searchmoves a2-a3 zz depth 3") else {
            panic!("searchmoves lists the words up to the next parameter");
        };
        assert_eq!(go.searchmoves, ["a2-a3", "zz"]);
        assert_eq!(go.limits.depth, Some(3));
    }

    #[test]
    fn uci_clock_names_movestogo_and_unknown_words() {
        let Ok(Command::Go(go)) = parse("go wtime 900 btime 800 winc 9 binc 8 movestogo 12") else {
            panic!("UCI clock names are aliases");
        };
        assert_eq!(
            go.limits.clock,
            Some(Clock {
                time: [900, 800],
                increment: [9, 8],
                moves_to_go: Some(12),
            })
        );
        assert!(go.ignored.is_empty());
        let Ok(Command::Go(go)) = parse("go depth 3 sideways 2 \u{1b}]0;x") else {
            panic!("unknown words do not refuse go");
        };
        assert_eq!(go.limits.depth, Some(3));
        assert_eq!(go.ignored, ["sideways", "2", "?]0;x"]);
        let Ok(Command::Go(go)) = parse("go sideways") else {
            panic!("nothing understood: infinite");
        };
        assert!(go.limits.infinite && go.ignored == ["sideways"]);
    }

    /// `go_line` prints what `parse_go` reads: the runner's `go` and the engine's are one text.
    #[test]
    fn go_line_round_trips() {
        let clock = Clock {
            time: [60_000, 59_000],
            increment: [100, 0],
            moves_to_go: Some(40),
        };
        for limits in [
            Limits {
                clock: Some(clock),
                ..Limits::default()
            },
            Limits {
                clock: Some(Clock {
                    moves_to_go: None,
                    ..clock
                }),
                movetime: Some(500),
                ..Limits::default()
            },
            Limits {
                depth: Some(9),
                nodes: Some(12_345),
                ..Limits::default()
            },
            Limits {
                mate: Some(3),
                movetime: Some(1000),
                ..Limits::default()
            },
            Limits {
                ponder: true,
                clock: Some(clock),
                ..Limits::default()
            },
            Limits {
                infinite: true,
                movetime: Some(5),
                ..Limits::default()
            },
        ] {
            let line = go_line(&limits);
            assert_eq!(
                parse(&line),
                Ok(Command::Go(GoCommand {
                    limits,
                    ..GoCommand::default()
                })),
                "{line}"
            );
        }
    }

    #[test]
    fn malformed_go_is_refused() {
        for line in [
            "go depth",
            "go depth x",
            "go depth -1",
            "go nodes 1 nodes 2",
            "go wtime 100 p1time 100",
            "go movestogo x wtime 100",
            "go searchmoves",
            "go searchmoves depth 3",
            "go searchmoves a2-a3 searchmoves b2-b3",
            "go infinite infinite",
            "go perft",
            "go perft 2 depth 3",
        ] {
            assert!(parse(line).is_err(), "{line}");
        }
    }

    #[test]
    fn options_are_checked_by_name_and_range() {
        assert_eq!(
            parse("setoption name hash value 64"),
            Ok(Command::SetOption(OptionSetting::HashMb(64)))
        );
        assert_eq!(
            parse("setoption name BOARDSIZE value 9"),
            Ok(Command::SetOption(OptionSetting::BoardSize(
                BoardSize::Nine
            )))
        );
        for line in [
            "setoption",
            "setoption name",
            "setoption name Hash",
            "setoption name Hash value",
            "setoption name Hash value 0",
            "setoption name Threads value many",
            "setoption name BoardSize value 10",
            "setoption name Ponder value maybe",
            "setoption value 3",
        ] {
            assert!(parse(line).is_err(), "{line}");
        }
    }

    #[test]
    fn extra_tokens_and_unknown_words_are_refused() {
        assert_eq!(parse(""), Err(CommandError::Empty));
        assert_eq!(parse("isready"), Ok(Command::IsReady));
        for line in [
            "isready now",
            "quit 1",
            "query",
            "query fen 2",
            "query colour",
            "bench 0",
            "xyzzy",
        ] {
            assert!(parse(line).is_err(), "{line}");
        }
        assert_eq!(parse("bench 3"), Ok(Command::Bench(Some(3))));
    }

    #[test]
    fn quoted_input_stays_short_and_printable() {
        assert_eq!(shown("a\u{0}b"), "a?b");
        let long = "x".repeat(1000);
        assert_eq!(shown(&long).len(), 43);
        let message = parse(&long).unwrap_err().to_string();
        assert!(message.len() < 80, "{message}");
    }
}
