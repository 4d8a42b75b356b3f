//! Game records: one line per game, written by `lielow match --records FILE`.
//!
//! ```text
//! <start LFEN> ; <moves, canonical, space separated> ; <winner: b|r> ; <reason> ; <Blue name> ; <Red name>
//! ```
//!
//! The moves are every move played from the start position, opening moves included, so
//! `position fen <start> moves <moves>` sets up the final position exactly. For the rules' own
//! endings (`king-captured`, `king-borne-off`, `no-moves`) that final position is over and its
//! winner is the recorded one; for a forfeit (`illegal-move`, `time-forfeit`, `no-reply`,
//! `crash`) the game is still in progress there and the loser is the side to move — the side
//! whose engine failed to produce a legal move in time. The offending move itself is not recorded.

use std::fmt;

use lielow_engine::ugi::shown;
use lielow_rules::board::Side;
use lielow_rules::moves::Move;
use lielow_rules::position::Position;

use super::Reason;

/// One finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// Where the game started (before any opening moves).
    pub start: Position,
    /// Every move, opening moves included; the failing move of a forfeit is not one of them.
    pub moves: Vec<Move>,
    /// Who won.
    pub winner: Side,
    /// How the game ended.
    pub reason: Reason,
    /// Name of the engine that played Blue.
    pub blue: String,
    /// Name of the engine that played Red.
    pub red: String,
}

impl fmt::Display for GameRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ; ", self.start.to_lfen())?;
        for (i, mv) in self.moves.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{mv}")?;
        }
        write!(
            f,
            " ; {} ; {} ; {} ; {}",
            self.winner.letter(),
            self.reason,
            self.blue,
            self.red
        )
    }
}

impl GameRecord {
    /// Reads a record line, checking that every move is legal in turn.
    pub fn parse(line: &str) -> Result<GameRecord, String> {
        let fields: Vec<&str> = line.trim_end().split(" ; ").collect();
        let [start, moves, winner, reason, blue, red] = fields[..] else {
            return Err(format!(
                "a record has 6 fields separated by ' ; ', this line has {}",
                fields.len()
            ));
        };
        let start = Position::from_lfen(start).map_err(|e| format!("start position: {e}"))?;
        let mut position = start;
        let mut played = Vec::new();
        for text in moves.split_whitespace() {
            let mv = position
                .parse_move(text)
                .map_err(|e| format!("move {} '{}': {e}", played.len() + 1, shown(text)))?;
            position = position.play(mv);
            played.push(mv);
        }
        let winner = match winner {
            "b" => Side::Blue,
            "r" => Side::Red,
            other => return Err(format!("winner '{other}' is not b or r")),
        };
        Ok(GameRecord {
            start,
            moves: played,
            winner,
            reason: reason.parse()?,
            blue: blue.to_string(),
            red: red.to_string(),
        })
    }

    /// The position after all the recorded moves.
    pub fn final_position(&self) -> Position {
        self.moves.iter().fold(self.start, |p, &mv| p.play(mv))
    }

    /// Replays the game and returns the winner the rules (for a natural ending) or the forfeit
    /// convention (the side to move lost) give; an error when the record contradicts itself.
    pub fn replay(&self) -> Result<Side, String> {
        let mut position = self.start;
        for (i, &mv) in self.moves.iter().enumerate() {
            position = position
                .try_play(mv)
                .map_err(|e| format!("move {} ({mv}): {e}", i + 1))?;
        }
        match (position.winner(), self.reason.is_forfeit()) {
            (Some(winner), false) => {
                let ending = natural_reason(&self.moves, &self.start);
                if ending != Some(self.reason) {
                    return Err(format!(
                        "the game ends by {}, the record says {}",
                        ending.map_or("?", Reason::as_str),
                        self.reason
                    ));
                }
                Ok(winner)
            }
            (None, true) => Ok(position.side_to_move().opponent()),
            (Some(_), true) => Err("a forfeit recorded after the game was over".into()),
            (None, false) => Err(format!(
                "the record says {} but the game is not over",
                self.reason
            )),
        }
    }
}

/// How a game that the rules ended did end, from its last move.
fn natural_reason(moves: &[Move], start: &Position) -> Option<Reason> {
    let (&last, before) = moves.split_last()?;
    let previous = before.iter().fold(*start, |p, &mv| p.play(mv));
    Some(ending_of(&previous, last))
}

/// The reason a game that `mv` (played in `before`) finished ended.
pub fn ending_of(before: &Position, mv: Move) -> Reason {
    let us = before.side_to_move();
    if mv.is_capture() && mv.to() == before.king(us.opponent()) {
        Reason::KingCaptured
    } else if mv.is_bear_off() && before.king(us) == Some(mv.from()) {
        Reason::KingBorneOff
    } else {
        Reason::NoMoves
    }
}
