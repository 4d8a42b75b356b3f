//! `position`, in both directions: the line an engine parses into a [`PositionCommand`], and the
//! line a runner or GUI prints from one ([`PositionCommand`]'s `Display`). One grammar, kept in
//! one place, so what the client sends is by construction what the session reads.

use std::fmt;

use super::{shown, CommandError, Tokens};
use lielow_rules::lfen::LfenError;
use lielow_rules::moves::Move;
use lielow_rules::position::Position;

/// Where `position` starts before its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// The start position of the `BoardSize` option.
    StartPos,
    /// An LFEN position (already parsed: an unreadable one is refused by the parser).
    Fen(Box<Position>),
}

/// `position ... [moves ...]`: the moves are checked against the position by the engine, which
/// alone knows the board size `startpos` means.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionCommand {
    /// The position the moves start from.
    pub start: Start,
    /// The moves, as written (checked when applied).
    pub moves: Vec<String>,
}

impl PositionCommand {
    /// The game from `start` through `moves`, as a client sends it: `position fen <LFEN> moves
    /// ...`, never `startpos`, so that the engine needs no `BoardSize` to read it.
    pub fn game(start: &Position, moves: &[Move]) -> PositionCommand {
        PositionCommand {
            start: Start::Fen(Box::new(*start)),
            moves: moves.iter().map(Move::to_string).collect(),
        }
    }
}

/// The line `parse_position` reads back as the same command: `position startpos` or
/// `position fen <LFEN>`, then ` moves ...` when there are moves.
impl fmt::Display for PositionCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.start {
            Start::StartPos => f.write_str("position startpos")?,
            Start::Fen(position) => write!(f, "position fen {}", position.to_lfen())?,
        }
        if !self.moves.is_empty() {
            f.write_str(" moves")?;
            for mv in &self.moves {
                write!(f, " {mv}")?;
            }
        }
        Ok(())
    }
}

/// The word of an LFEN's `fields` that `error` is about, quoted through [`shown`], if the error
/// is about one word.
pub fn lfen_word(fields: &[&str], error: LfenError) -> Option<String> {
    let index = match error {
        LfenError::BadSide => 1,
        LfenError::TrailingText => 2,
        _ => return None,
    };
    fields.get(index).map(|word| shown(word))
}

pub(super) fn parse_position(mut tokens: Tokens) -> Result<PositionCommand, CommandError> {
    const COMMAND: &str = "position";
    let start = match tokens.next() {
        Some("startpos") => Start::StartPos,
        Some("fen") => {
            let fields: Vec<&str> = tokens.clone().take_while(|&t| t != "moves").collect();
            if fields.is_empty() {
                return Err(CommandError::missing(COMMAND, "the LFEN after 'fen'"));
            }
            for _ in 0..fields.len() {
                tokens.next();
            }
            let position =
                Position::from_lfen(&fields.join(" ")).map_err(|error| CommandError::BadFen {
                    error,
                    word: lfen_word(&fields, error),
                })?;
            Start::Fen(Box::new(position))
        }
        Some(other) => return Err(CommandError::unexpected(COMMAND, other)),
        None => return Err(CommandError::missing(COMMAND, "'startpos' or 'fen <LFEN>'")),
    };
    let moves = match tokens.next() {
        None => Vec::new(),
        Some("moves") => tokens.map(str::to_owned).collect(),
        Some(other) => return Err(CommandError::unexpected(COMMAND, other)),
    };
    Ok(PositionCommand { start, moves })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ugi::Command;
    use lielow_rules::board::BoardSize;

    fn parse(line: &str) -> Result<Command, CommandError> {
        line.parse()
    }

    #[test]
    fn position_keeps_the_move_texts_for_the_engine() {
        let Ok(Command::Position(command)) =
            parse("position fen 8/r1r1r1r1r1r1r1r1/8/8/8/8/b1b1b1b1b1b1b1b1/8 b moves a2-a3 zz")
        else {
            panic!("position should parse");
        };
        assert_eq!(
            command.start,
            Start::Fen(Box::new(Position::start(BoardSize::Eight)))
        );
        assert_eq!(command.moves, ["a2-a3", "zz"]);
        assert!(matches!(
            parse("position fen 8/8 b"),
            Err(CommandError::BadFen { .. })
        ));
        for line in [
            "position",
            "position fen",
            "position startpos a2-a3",
            "position start",
        ] {
            assert!(parse(line).is_err(), "{line}");
        }
    }

    /// What a client prints is what the engine reads: the same command back, for both starts,
    /// both board sizes, with and without moves.
    #[test]
    fn the_printed_line_parses_back_to_the_same_command() {
        let eight = Position::start(BoardSize::Eight);
        let after: Vec<Move> = {
            let mut position = eight;
            let mut moves = Vec::new();
            for _ in 0..6 {
                let mv = position.legal_moves()[0];
                moves.push(mv);
                position = position.play(mv);
            }
            moves
        };
        let commands = [
            PositionCommand::game(&eight, &[]),
            PositionCommand::game(&eight, &after),
            PositionCommand::game(&Position::start(BoardSize::Nine), &[]),
            PositionCommand {
                start: Start::StartPos,
                moves: vec!["a2-a3".into(), "a7-a6".into()],
            },
            PositionCommand {
                start: Start::StartPos,
                moves: Vec::new(),
            },
        ];
        for command in commands {
            let line = command.to_string();
            assert_eq!(parse(&line), Ok(Command::Position(command)), "{line}");
        }
        assert_eq!(
            PositionCommand::game(&eight, &after[..2]).to_string(),
            format!(
                "position fen {} moves {} {}",
                eight.to_lfen(),
                after[0],
                after[1]
            )
        );
    }
}
