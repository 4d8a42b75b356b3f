//! `go`: its words, read into [`Limits`] by [`parse_go`] and printed back by [`go_line`], both
//! from one table of the words ([`GO_WORDS`]), so the engine reads what a runner writes.

use super::{end, number, shown, Command, CommandError, Tokens};
use crate::limits::{Clock, Limits};

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

/// What a word of `go` sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum GoWord {
    Perft,
    Ponder,
    Mate,
    Infinite,
    Depth,
    Nodes,
    MoveTime,
    MovesToGo,
    SearchMoves,
    /// A clock field, by its slot in [`Clock`] order: p1 time, p2 time, p1 increment, p2
    /// increment (p1 = Blue = index 0).
    Clock(usize),
}

/// Every word `go` knows: [`parse_go`] reads them (and a `searchmoves` list ends at any of
/// them), and [`go_line`] writes each with its first spelling here. The clock fields have their
/// UGI names first, then UCI's aliases (white = Blue = p1).
pub(super) const GO_WORDS: [(&str, GoWord); 17] = [
    ("perft", GoWord::Perft),
    ("ponder", GoWord::Ponder),
    ("mate", GoWord::Mate),
    ("infinite", GoWord::Infinite),
    ("depth", GoWord::Depth),
    ("nodes", GoWord::Nodes),
    ("movetime", GoWord::MoveTime),
    ("movestogo", GoWord::MovesToGo),
    ("searchmoves", GoWord::SearchMoves),
    ("p1time", GoWord::Clock(0)),
    ("p2time", GoWord::Clock(1)),
    ("p1inc", GoWord::Clock(2)),
    ("p2inc", GoWord::Clock(3)),
    ("wtime", GoWord::Clock(0)),
    ("btime", GoWord::Clock(1)),
    ("winc", GoWord::Clock(2)),
    ("binc", GoWord::Clock(3)),
];

impl GoWord {
    /// The word `token` is, if `go` knows it.
    fn read(token: &str) -> Option<GoWord> {
        GO_WORDS
            .iter()
            .find(|&&(word, _)| word == token)
            .map(|&(_, meaning)| meaning)
    }

    /// The word as printed: its first spelling in [`GO_WORDS`].
    fn name(self) -> &'static str {
        GO_WORDS
            .iter()
            .find(|&&(_, meaning)| meaning == self)
            .map(|&(word, _)| word)
            .expect("every go word is in the table")
    }
}

/// `go`: the clock fields fill a [`Clock`] (a missing field is 0); a bare `go` searches until
/// `stop`, as `go infinite`.
pub(super) fn parse_go(mut tokens: Tokens) -> Result<Command, CommandError> {
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
        let repeated = |word: GoWord| CommandError::Repeated {
            command: COMMAND,
            token: word.name(),
        };
        let Some(word) = GoWord::read(token) else {
            if go.ignored.len() < MAX_IGNORED_SHOWN {
                go.ignored.push(shown(token));
            }
            continue;
        };
        let name = word.name();
        match word {
            GoWord::Perft if first => {
                let depth = number("perft depth", value("the perft depth")?)?;
                return end(COMMAND, tokens).map(|()| Command::Perft(depth));
            }
            // Not first: an unknown word, like the number after it.
            GoWord::Perft => {
                if go.ignored.len() < MAX_IGNORED_SHOWN {
                    go.ignored.push(shown(token));
                }
            }
            GoWord::Ponder if limits.ponder => return Err(repeated(word)),
            GoWord::Ponder => limits.ponder = true,
            GoWord::Infinite if limits.infinite => return Err(repeated(word)),
            GoWord::Infinite => limits.infinite = true,
            GoWord::Depth if limits.depth.is_some() => return Err(repeated(word)),
            GoWord::Depth => limits.depth = Some(number(name, value("the depth")?)?),
            GoWord::Nodes if limits.nodes.is_some() => return Err(repeated(word)),
            GoWord::Nodes => limits.nodes = Some(number(name, value("the node count")?)?),
            GoWord::MoveTime if limits.movetime.is_some() => return Err(repeated(word)),
            GoWord::MoveTime => limits.movetime = Some(milliseconds(name, value("the time")?)?),
            GoWord::SearchMoves if !go.searchmoves.is_empty() => return Err(repeated(word)),
            GoWord::SearchMoves => {
                // Every word up to the next parameter is a move.
                while let Some(word) = tokens.clone().next() {
                    if GoWord::read(word).is_some() {
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
            GoWord::Mate if limits.mate.is_some() => return Err(repeated(word)),
            GoWord::Mate => limits.mate = Some(number(name, value("the number of moves")?)?),
            GoWord::MovesToGo if moves_to_go.is_some() => return Err(repeated(word)),
            GoWord::MovesToGo => moves_to_go = Some(number(name, value("the move count")?)?),
            GoWord::Clock(slot) if clock[slot].is_some() => return Err(repeated(word)),
            GoWord::Clock(slot) => {
                clock[slot] = Some(milliseconds(name, value("the time in ms")?)?)
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

/// The `go` line that `parse_go` reads back as `limits`: what a match runner sends. Clocks use
/// the UGI names; a `movestogo` follows them.
pub fn go_line(limits: &Limits) -> String {
    let mut go = String::from("go");
    let mut field = |word: GoWord, value: &dyn std::fmt::Display| {
        go += &format!(" {} {value}", word.name());
    };
    if let Some(clock) = limits.clock {
        let values = [
            clock.time[0],
            clock.time[1],
            clock.increment[0],
            clock.increment[1],
        ];
        for (slot, value) in values.into_iter().enumerate() {
            field(GoWord::Clock(slot), &value);
        }
        if let Some(moves) = clock.moves_to_go {
            field(GoWord::MovesToGo, &moves);
        }
    }
    if let Some(movetime) = limits.movetime {
        field(GoWord::MoveTime, &movetime);
    }
    if let Some(depth) = limits.depth {
        field(GoWord::Depth, &depth);
    }
    if let Some(nodes) = limits.nodes {
        field(GoWord::Nodes, &nodes);
    }
    if let Some(moves) = limits.mate {
        field(GoWord::Mate, &moves);
    }
    if limits.infinite {
        go += &format!(" {}", GoWord::Infinite.name());
    }
    if limits.ponder {
        go += &format!(" {}", GoWord::Ponder.name());
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

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Result<Command, CommandError> {
        line.parse()
    }

    /// Each meaning has a printed name, and the name reads back as that meaning.
    #[test]
    fn every_go_word_is_named_by_the_table() {
        for &(_, meaning) in &GO_WORDS {
            assert_eq!(GoWord::read(meaning.name()), Some(meaning));
        }
        for slot in 0..4 {
            assert!(GO_WORDS.contains(&(GoWord::Clock(slot).name(), GoWord::Clock(slot))));
        }
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
}
