//! How a game ends: who won, and by which of the rules' three endings.
//!
//! The rules know no draw. A game ends when a move captures the enemy king (the mover wins),
//! when a move bears off the mover's own king (the mover loses), or when the side to move has
//! no legal move (it loses; that happens only to a side with no stack left). A finished
//! position remembers which: [`Position::outcome`] answers from the final position alone, so
//! a program that kept only the moves replays them ([`Position::play_moves`]) and asks.
//!
//! ```
//! use lielow_rules::{BoardSize, GameEnd, Outcome, Position, Side};
//!
//! // Red's king on d5 stands where Blue's stack on d3, of height 2, lands.
//! let position: Position = "8/8/8/3R14/8/3B24/8/8 b".parse()?;
//! assert_eq!(position.outcome(), None, "the game goes on");
//! let end = position.play(position.parse_move("d3xd5")?);
//! assert_eq!(
//!     end.outcome(),
//!     Some(Outcome { winner: Side::Blue, end: GameEnd::KingCaptured })
//! );
//! assert_eq!(end.winner(), Some(Side::Blue));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! [`Position::outcome`]: crate::Position::outcome
//! [`Position::play_moves`]: crate::Position::play_moves

use std::fmt;
use std::str::FromStr;

use crate::board::Side;

/// Which of the rules' endings ended a game. Its text form ([`GameEnd::as_str`], also
/// [`Display`](fmt::Display) and [`FromStr`]) is a lowercase name: `king-captured`,
/// `king-borne-off`, `no-moves`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum GameEnd {
    /// The winner captured the loser's king.
    KingCaptured,
    /// The loser bore off its own king.
    KingBorneOff,
    /// The loser was to move with no legal move (no stack) left.
    NoMoves,
}

impl GameEnd {
    /// Every ending, in the order declared.
    pub const ALL: [GameEnd; 3] = [
        GameEnd::KingCaptured,
        GameEnd::KingBorneOff,
        GameEnd::NoMoves,
    ];

    /// The ending's name.
    ///
    /// ```
    /// use lielow_rules::GameEnd;
    ///
    /// assert_eq!(GameEnd::KingBorneOff.as_str(), "king-borne-off");
    /// assert_eq!("no-moves".parse(), Ok(GameEnd::NoMoves));
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            GameEnd::KingCaptured => "king-captured",
            GameEnd::KingBorneOff => "king-borne-off",
            GameEnd::NoMoves => "no-moves",
        }
    }
}

impl fmt::Display for GameEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A text that names none of the endings. The message does not repeat the text: a caller
/// that shows it quotes it itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameEndError;

impl fmt::Display for GameEndError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a game ends by king-captured, king-borne-off or no-moves")
    }
}

impl std::error::Error for GameEndError {}

impl FromStr for GameEnd {
    type Err = GameEndError;

    /// Reads the name [`GameEnd::as_str`] writes (lowercase only).
    fn from_str(text: &str) -> Result<GameEnd, GameEndError> {
        GameEnd::ALL
            .into_iter()
            .find(|end| end.as_str() == text)
            .ok_or(GameEndError)
    }
}

/// Who won a finished game, and how: [`Position::outcome`](crate::Position::outcome).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The side that won (there are no draws).
    pub winner: Side,
    /// How the game ended.
    pub end: GameEnd,
}

impl Outcome {
    /// The side that lost.
    pub const fn loser(&self) -> Side {
        self.winner.opponent()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::BoardSize;
    use crate::position::Position;

    /// The final position after `moves` (texts) from `lfen`.
    fn after(lfen: &str, moves: &str) -> Position {
        let start: Position = lfen.parse().unwrap();
        start.replay(moves.split_whitespace()).unwrap().0
    }

    #[test]
    fn every_name_reads_back_and_nothing_else_does() {
        for end in GameEnd::ALL {
            assert_eq!(end.to_string().parse(), Ok(end));
        }
        for bad in ["", "King-captured", "king captured", "no-move", "crash"] {
            assert_eq!(bad.parse::<GameEnd>(), Err(GameEndError), "{bad:?}");
        }
        assert_eq!(
            GameEndError.to_string(),
            "a game ends by king-captured, king-borne-off or no-moves"
        );
    }

    #[test]
    fn a_game_in_progress_has_no_outcome() {
        let start = Position::start(BoardSize::Eight);
        assert_eq!(start.outcome(), None);
        assert_eq!(after(&start.to_lfen(), "d2-d3 e7-e6").outcome(), None);
    }

    #[test]
    fn capturing_the_king_wins_for_either_side() {
        let blue = after("8/8/8/3R14/8/3B24/8/8 b", "d3xd5");
        assert_eq!(
            blue.outcome(),
            Some(Outcome {
                winner: Side::Blue,
                end: GameEnd::KingCaptured
            })
        );
        // Red captures Blue's king while both keep other stacks.
        let red = after("8/r17/8/3R24/8/3B24/7b1/8 r", "d5xd3");
        let outcome = red.outcome().unwrap();
        assert_eq!((outcome.winner, outcome.loser()), (Side::Red, Side::Blue));
        assert_eq!(outcome.end, GameEnd::KingCaptured);
        assert_eq!(red.winner(), Some(Side::Red));
    }

    #[test]
    fn bearing_off_the_own_king_loses() {
        // Blue's king on a2, height 2, bears off; Blue keeps another stack.
        let end = after("8/R17/8/8/8/8/B21b15/8 b", "a2-off");
        assert_eq!(
            end.outcome(),
            Some(Outcome {
                winner: Side::Red,
                end: GameEnd::KingBorneOff
            })
        );
        assert_eq!(end.side_to_move(), Side::Red, "the winner is to move");
    }

    #[test]
    fn a_side_left_without_stacks_has_no_move_and_loses() {
        // Red has no stack (a set-up position): once Blue has moved, Red cannot move.
        let end = after("8/8/8/8/8/8/B17/8 b", "a2-a3");
        assert_eq!(
            end.outcome(),
            Some(Outcome {
                winner: Side::Blue,
                end: GameEnd::NoMoves
            })
        );
        assert!(end.legal_moves().is_empty());
        let set_up: Position = "8/8/8/8/8/8/B17/8 r".parse().unwrap();
        assert_eq!(set_up.outcome(), end.outcome());
    }

    #[test]
    fn capturing_a_king_that_was_the_last_stack_is_a_king_capture() {
        let end = after("8/8/8/8/8/R17/b16b1/8 b", "a2xa3");
        assert_eq!(end.stacks(Side::Red).count(), 0);
        assert_eq!(
            end.outcome(),
            Some(Outcome {
                winner: Side::Blue,
                end: GameEnd::KingCaptured
            })
        );
    }
}
