//! UGI, the text protocol: one input line parsed into a typed [`Command`], and the text of every
//! reply. This module only parses and formats; `session` owns the state and the threads.
//! [`position`](PositionCommand) is read and printed in one place; [`client`] is the other side
//! of the conversation, the one a match runner or a GUI speaks through.
//!
//! Parsing is strict: a line that does not match a command's grammar exactly is refused with a
//! [`CommandError`] and nothing is done, so a typo never half-applies (protocol.md lists every form).

use std::fmt;
use std::str::FromStr;

use crate::search::params::ParamError;
use lielow_rules::lfen::LfenError;

/// Which handshake opened the session: both answer the same, ending in `ugiok` or `uciok`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// `ugi`: answered with `ugiok`.
    Ugi,
    /// `uci`: the same handshake, answered with `uciok`.
    Uci,
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
    /// `help`: the list of commands.
    Help,
}

/// Every command the engine reads, with what follows it: the one list `help` prints
/// ([`help_text`]), checked against the parser by a test so that neither can lose a command.
pub const COMMANDS: [(&str, &str); 14] = [
    (
        "ugi",
        "the handshake: id, options, ugiok (also `uci` ... uciok)",
    ),
    (
        "isready",
        "answered by readyok once every earlier command is done",
    ),
    (
        "setoption",
        "name <NAME> value <VALUE> (the options the handshake lists)",
    ),
    (
        "uginewgame",
        "a new game: the start position, a cleared table (also `ucinewgame`)",
    ),
    (
        "position",
        "startpos | fen <LFEN>, then optionally moves <m1> <m2> ...",
    ),
    (
        "go",
        "[depth D] [nodes N] [movetime MS] [mate N] [infinite] [ponder] [p1time MS p2time MS \
         p1inc MS p2inc MS (or wtime btime winc binc)] [movestogo N] [searchmoves <m>...]; \
         go perft D",
    ),
    ("stop", "ends the search: its bestmove follows"),
    (
        "ponderhit",
        "the expected move was played: the ponder search goes on, on the clock",
    ),
    ("query", "gameover | p1turn | result | fen | moves"),
    ("d", "the board as text"),
    ("eval", "the static evaluation's terms"),
    (
        "bench",
        "[DEPTH]: the fixed positions searched, `<N> nodes <M> nps`",
    ),
    ("help", "this list"),
    ("quit", "ends the program (so does the end of input)"),
];

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
    /// A bad value for an option or a development option.
    BadOptionValue {
        /// The option, as the engine spells it.
        name: &'static str,
        /// The value (quoted through [`shown`]).
        value: String,
        /// What is wrong with it.
        why: ParamError,
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
                "unknown option '{name}' (expected {})",
                options::listed_names()
            ),
            CommandError::BadOptionValue { name, value, why } => {
                write!(f, "option {name}: bad value '{value}' ({why})")
            }
        }
    }
}

impl std::error::Error for CommandError {}

// The rules crate owns how input is quoted: its replay errors quote a bad move the same way.
pub use lielow_rules::quote::shown;

pub mod client;
mod go;
mod options;
mod position;
mod reply;

pub use go::{go_line, GoCommand, MAX_IGNORED_SHOWN};
pub use options::{
    listed_names, Button, Check, OptionSetting, Spin, Text, UgiOption, BOARD_SIZE, CLEAR_HASH,
    DEVELOPMENT_OPTIONS, ELO, EVAL_FILE, HASH, LIMIT_STRENGTH, MOVE_OVERHEAD, MULTI_PV, OPTIONS,
    PONDER, SKILL_LEVEL, SKILL_SEED, THREADS,
};
use position::parse_position;
pub use position::{lfen_word, PositionCommand, Start};
pub use reply::{
    bestmove_line, bestmove_ponder_line, board_picture, currmove_line, error_line, eval_report,
    game_over_line, greeting, handshake, help_text, ignored_words_line, info_line, read_info,
    report_line, response, warning_line, InfoFields,
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
            "help" => simple("help", tokens, Command::Help),
            "setoption" => options::parse_setoption(tokens).map(Command::SetOption),
            "position" => parse_position(tokens).map(Command::Position),
            "go" => go::parse_go(tokens),
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
    fn help_lists_every_command_the_parser_reads_and_every_go_word() {
        for (name, _) in COMMANDS {
            assert!(
                !matches!(parse(name), Err(CommandError::UnknownCommand(_))),
                "{name} is listed but not read"
            );
        }
        let help = help_text();
        for (name, _) in COMMANDS {
            assert!(
                help.lines()
                    .any(|line| line.split_whitespace().next() == Some(name)),
                "{name}"
            );
        }
        for (word, _) in go::GO_WORDS {
            let go_line = help.lines().find(|line| line.starts_with("go ")).unwrap();
            assert!(
                go_line.contains(word),
                "go {word} is not in help: {go_line}"
            );
        }
        assert_eq!(parse("help"), Ok(Command::Help));
        assert!(parse("help me").is_err());
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
