//! Checked play: moves that come from outside (a user, a file, another program) checked against
//! the position before they are played.
//!
//! The ladder of ways to play a move, from the search's unchecked path to a whole game's text:
//!
//! | you have | call | checks |
//! |---|---|---|
//! | a [`Move`] from [`Position::legal_moves`] | [`Position::play`], [`Position::play_in_place`] | nothing |
//! | a [`Move`] from elsewhere (a table, [`Move::from_str`]) | [`Position::is_legal`], [`Position::try_play`], [`Position::try_play_in_place`] | that it is legal here |
//! | a move's text (`b2-e5`) | [`Position::parse_move`], then `play` | notation, then legality, with the reason |
//! | a list of moves' texts | [`Position::replay`] | each move in turn; names the first bad one |
//! | a list of [`Move`]s, such as a game record's | [`Position::play_moves`] / [`Position::try_play_moves`] | nothing / each move in turn; names the first bad one |
//!
//! The checked calls never change the position on an error. A move read as text is the legal
//! move that text names, so `b2-e5` and `b2xe5` are different texts and at most one is legal.
//!
//! ```
//! use lielow_rules::{BoardSize, IllegalMove, Move, Position};
//!
//! let start = Position::start(BoardSize::Eight);
//! let mv = start.parse_move("d2-d3")?;
//! assert_eq!(start.try_play(mv)?, start.play(mv));
//! assert_eq!(start.parse_move("d2-d4"), Err(IllegalMove::WrongDistance { height: 1 }));
//! let unchecked: Move = "d7-d6".parse()?;
//! assert_eq!(start.try_play(unchecked), Err(IllegalMove::NotLegal), "Red's stack, Blue's turn");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! [`Move::from_str`]: std::str::FromStr::from_str

use std::fmt;

use crate::board::Side;
use crate::moves::{Move, MoveText, MoveTextError};
use crate::position::Position;
use crate::quote::shown;

/// Why a move cannot be played in a position. The message never repeats the move's text: a
/// caller that shows it quotes it itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    /// The text is no move.
    Text(MoveTextError),
    /// The game is over.
    GameOver {
        /// Who won.
        winner: Side,
    },
    /// The origin square is off this board.
    OriginOffBoard,
    /// No stack stands on the origin square.
    NoStack,
    /// The stack on the origin square is the opponent's.
    OpponentStack,
    /// A bear-off of a stack that cannot reach the edge.
    NoBearOff,
    /// The landing square is off this board.
    LandingOffBoard,
    /// The landing square holds a friendly stack.
    FriendlyLanding,
    /// A capture written with `-`.
    CaptureNeedsX,
    /// A move to an empty square written with `x`.
    EmptyNeedsDash,
    /// The landing is not exactly the stack's height away in a straight line.
    WrongDistance {
        /// The stack's height.
        height: usize,
    },
    /// The move is not among the legal moves (a move given as a value, not text).
    NotLegal,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            IllegalMove::Text(error) => write!(f, "{error}"),
            IllegalMove::GameOver { winner } => write!(f, "the game is over ({winner} has won)"),
            IllegalMove::OriginOffBoard => f.write_str("the origin square is off the board"),
            IllegalMove::NoStack => f.write_str("no stack on the origin square"),
            IllegalMove::OpponentStack => f.write_str("the stack there belongs to the opponent"),
            IllegalMove::NoBearOff => {
                f.write_str("that stack is too far from every edge to bear off")
            }
            IllegalMove::LandingOffBoard => f.write_str("the landing square is off the board"),
            IllegalMove::FriendlyLanding => {
                f.write_str("the landing square holds a friendly stack")
            }
            IllegalMove::CaptureNeedsX => {
                f.write_str("that lands on an enemy stack: write it with 'x'")
            }
            IllegalMove::EmptyNeedsDash => {
                f.write_str("the landing square is empty: write it with '-'")
            }
            IllegalMove::WrongDistance { height } => write!(
                f,
                "a stack of height {height} moves exactly {height} squares in a straight line"
            ),
            IllegalMove::NotLegal => f.write_str("not a legal move here"),
        }
    }
}

impl std::error::Error for IllegalMove {}

/// Why [`Position::replay`] or [`Position::try_play_moves`] stopped: the first move of the
/// list that cannot be played, and why. Nothing of the list was kept.
///
/// Its message names the move by its number (from 1) and its text (quoted by
/// [`shown`]: cut and cleaned, as the text may be anything a program was sent), then the
/// reason: `move 3 'a3-a4': a stack of height 2 moves exactly 2 squares in a straight line`.
/// [`Error::source`](std::error::Error::source) is `None`, since the message already holds
/// the reason (an error reporter would otherwise print it twice).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayError {
    /// The index of the bad move in the list, from 0.
    pub index: usize,
    /// The bad move's text, as given (a [`Move`]'s is its notation).
    pub text: String,
    /// Why it cannot be played after the moves before it.
    pub reason: IllegalMove,
}

impl ReplayError {
    /// The bad move's number in the list, from 1 (as messages count moves).
    pub fn number(&self) -> usize {
        self.index + 1
    }
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "move {} '{}': {}",
            self.number(),
            shown(&self.text),
            self.reason
        )
    }
}

impl std::error::Error for ReplayError {}

/// The checked rungs of the ladder (see the module documentation).
impl Position {
    /// Whether `mv` is one of the legal moves here (none is once the game is over).
    ///
    /// ```
    /// use lielow_rules::{BoardSize, Move, Position};
    ///
    /// let start = Position::start(BoardSize::Eight);
    /// assert!(start.is_legal("a2-off".parse::<Move>()?));
    /// assert!(!start.is_legal("b2-off".parse::<Move>()?), "b2 is 2 squares from every edge");
    /// # Ok::<(), lielow_rules::moves::MoveTextError>(())
    /// ```
    pub fn is_legal(&self, mv: Move) -> bool {
        self.legal_moves().contains(&mv)
    }

    /// Checks that `mv` is legal, then plays it, returning the child; an illegal move (any move
    /// once the game is over) is [`IllegalMove::NotLegal`]. For a move's text,
    /// [`Position::parse_move`] says more precisely what is wrong.
    ///
    /// ```
    /// use lielow_rules::{BoardSize, IllegalMove, Position};
    ///
    /// let start = Position::start(BoardSize::Eight);
    /// let child = start.try_play("c2-c3".parse()?)?;
    /// assert_eq!(child.height("c3".parse()?), 2);
    /// assert_eq!(child.try_play("c3-c4".parse()?), Err(IllegalMove::NotLegal), "Red to move");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn try_play(&self, mv: Move) -> Result<Position, IllegalMove> {
        if self.is_legal(mv) {
            Ok(self.play(mv))
        } else {
            Err(IllegalMove::NotLegal)
        }
    }

    /// [`Position::try_play`] in place: plays `mv` if it is legal, else leaves the position as
    /// it was.
    ///
    /// ```
    /// use lielow_rules::{BoardSize, Position, Side};
    ///
    /// let mut position = Position::start(BoardSize::Nine);
    /// position.try_play_in_place("a3-a4".parse()?)?;
    /// assert!(position.try_play_in_place("a4-a6".parse()?).is_err());
    /// assert_eq!(position.side_to_move(), Side::Red);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn try_play_in_place(&mut self, mv: Move) -> Result<(), IllegalMove> {
        if self.is_legal(mv) {
            self.play_in_place(mv);
            Ok(())
        } else {
            Err(IllegalMove::NotLegal)
        }
    }

    /// Reads a move in canonical notation and checks that it is legal here, saying what is
    /// wrong if not: the notation ([`IllegalMove::Text`]), the game being over, then what the
    /// rules forbid about this move.
    ///
    /// ```
    /// use lielow_rules::moves::MoveTextError;
    /// use lielow_rules::{BoardSize, IllegalMove, Position};
    ///
    /// let start = Position::start(BoardSize::Eight);
    /// let mv = start.parse_move("h2-off")?;
    /// assert!(mv.is_bear_off());
    /// assert_eq!(start.parse_move("h7-h6"), Err(IllegalMove::OpponentStack));
    /// assert_eq!(start.parse_move("a2-b2"), Err(IllegalMove::FriendlyLanding));
    /// assert_eq!(start.parse_move("a2"), Err(IllegalMove::Text(MoveTextError::Shape)));
    /// assert_eq!(
    ///     start.parse_move("a2xa3").unwrap_err().to_string(),
    ///     "the landing square is empty: write it with '-'"
    /// );
    /// # Ok::<(), IllegalMove>(())
    /// ```
    pub fn parse_move(&self, text: &str) -> Result<Move, IllegalMove> {
        let written = MoveText::parse(text).map_err(IllegalMove::Text)?;
        if let Some(winner) = self.winner() {
            return Err(IllegalMove::GameOver { winner });
        }
        Err(match self.stack(written.from) {
            _ if !written.from.is_on(self.size()) => IllegalMove::OriginOffBoard,
            None => IllegalMove::NoStack,
            Some((side, _)) if side != self.side_to_move() => IllegalMove::OpponentStack,
            Some(_) => {
                let found = self.legal_moves().into_iter().find(|m| {
                    m.from() == written.from
                        && m.to() == written.to
                        && m.is_capture() == written.capture
                });
                if let Some(mv) = found {
                    return Ok(mv);
                }
                match written.to.map(|to| (to, self.stack(to))) {
                    None => IllegalMove::NoBearOff,
                    Some((to, _)) if !to.is_on(self.size()) => IllegalMove::LandingOffBoard,
                    Some((_, Some((side, _)))) if side == self.side_to_move() => {
                        IllegalMove::FriendlyLanding
                    }
                    Some((_, Some(_))) if !written.capture => IllegalMove::CaptureNeedsX,
                    Some((_, None)) if written.capture => IllegalMove::EmptyNeedsDash,
                    _ => IllegalMove::WrongDistance {
                        height: self.height(written.from),
                    },
                }
            }
        })
    }

    /// Plays a list of moves given as text, each checked in the position the ones before it
    /// reached, all or nothing: the final position and the moves, or the first move that cannot
    /// be played (its index, its text and why) and nothing else. An empty list gives this
    /// position and no moves. The list can be any iterator of texts: a slice of `String`s, the
    /// words of a line.
    ///
    /// ```
    /// use lielow_rules::{BoardSize, IllegalMove, Position};
    ///
    /// let start = Position::start(BoardSize::Eight);
    /// let (position, moves) = start.replay("a2-a3 a7-a6 a3-a5".split_whitespace())?;
    /// assert_eq!(moves.len(), 3);
    /// assert_eq!(position.to_lfen(), "8/1r1r1r1r1r1r1r1/R27/B37/8/8/1b1b1b1b1b1b1b1/8 r");
    ///
    /// let error = start.replay(["a2-a3", "a7-a6", "a3-a4"]).unwrap_err();
    /// assert_eq!((error.index, error.text.as_str()), (2, "a3-a4"));
    /// assert_eq!(error.reason, IllegalMove::WrongDistance { height: 2 });
    /// assert_eq!(
    ///     error.to_string(),
    ///     "move 3 'a3-a4': a stack of height 2 moves exactly 2 squares in a straight line"
    /// );
    /// # Ok::<(), lielow_rules::play::ReplayError>(())
    /// ```
    pub fn replay<I>(&self, moves: I) -> Result<(Position, Vec<Move>), ReplayError>
    where
        I: IntoIterator,
        I::Item: AsRef<str>,
    {
        let moves = moves.into_iter();
        let mut position = *self;
        let mut played = Vec::with_capacity(moves.size_hint().0);
        for (index, text) in moves.enumerate() {
            let text = text.as_ref();
            match position.parse_move(text) {
                Ok(mv) => {
                    position.play_in_place(mv);
                    played.push(mv);
                }
                Err(reason) => {
                    return Err(ReplayError {
                        index,
                        text: text.to_owned(),
                        reason,
                    })
                }
            }
        }
        Ok((position, played))
    }
}

/// Checked play of a list of moves given as values (see the module documentation).
impl Position {
    /// Plays a list of moves, each checked as by [`Position::try_play`] in the position the
    /// ones before it reached, all or nothing: the final position, or the first move that is
    /// not legal there (its index, its notation and [`IllegalMove::NotLegal`]). For moves
    /// known to be legal, [`Position::play_moves`] skips the checks.
    ///
    /// ```
    /// use lielow_rules::{BoardSize, IllegalMove, Move, Position};
    ///
    /// let start = Position::start(BoardSize::Eight);
    /// let moves: Vec<Move> = ["a2-a3", "a7-a6", "a3-a5"].map(|t| t.parse().unwrap()).into();
    /// assert_eq!(start.try_play_moves(&moves), Ok(start.play_moves(&moves)));
    ///
    /// let error = start.try_play_moves(&moves[1..]).unwrap_err();
    /// assert_eq!((error.index, error.reason), (0, IllegalMove::NotLegal));
    /// assert_eq!(error.to_string(), "move 1 'a7-a6': not a legal move here");
    /// ```
    pub fn try_play_moves(&self, moves: &[Move]) -> Result<Position, ReplayError> {
        let mut position = *self;
        for (index, &mv) in moves.iter().enumerate() {
            position
                .try_play_in_place(mv)
                .map_err(|reason| ReplayError {
                    index,
                    text: mv.to_string(),
                    reason,
                })?;
        }
        Ok(position)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::BoardSize;

    fn start() -> Position {
        Position::start(BoardSize::Eight)
    }

    #[test]
    fn replay_of_no_moves_is_the_position_itself() {
        let nine = Position::start(BoardSize::Nine);
        assert_eq!(nine.replay(Vec::<String>::new()), Ok((nine, Vec::new())));
        assert_eq!(nine.replay("  ".split_whitespace()), Ok((nine, Vec::new())));
    }

    #[test]
    fn replay_plays_what_parse_move_and_play_play() {
        let texts = ["d2-d3", "e7-e6", "d3-d5", "e6-e4", "d5-d8"];
        let (position, moves) = start().replay(texts.map(String::from).iter()).unwrap();
        let mut expected = start();
        for (text, mv) in texts.iter().zip(&moves) {
            assert_eq!(mv.to_string(), *text);
            expected = expected.play(expected.parse_move(text).unwrap());
        }
        assert_eq!(position, expected);
        assert_eq!(moves.len(), texts.len());
        assert_eq!(position.height("d8".parse().unwrap()), 4);
    }

    #[test]
    fn a_bad_first_move_is_move_one() {
        let error = start().replay(["e2e4", "a7-a6"]).unwrap_err();
        assert_eq!(
            error,
            ReplayError {
                index: 0,
                text: "e2e4".to_owned(),
                reason: IllegalMove::Text(MoveTextError::Separator),
            }
        );
        assert_eq!(error.number(), 1);
        assert_eq!(
            error.to_string(),
            "move 1 'e2e4': expected '-' or 'x' after the origin square"
        );
    }

    #[test]
    fn a_bad_move_in_the_middle_is_named_after_the_good_ones() {
        // After a2-a3 it is Red's turn: Blue's stack may not move again.
        let error = start()
            .replay("a2-a3 a3-a4 a7-a6".split_whitespace())
            .unwrap_err();
        assert_eq!((error.index, error.number()), (1, 2));
        assert_eq!(error.reason, IllegalMove::OpponentStack);
        assert_eq!(
            error.to_string(),
            "move 2 'a3-a4': the stack there belongs to the opponent"
        );
    }

    #[test]
    fn a_move_after_the_game_ended_is_refused() {
        // Blue captures Red's only stack, its king, and has won: no move follows.
        let position = Position::from_lfen("8/8/8/8/8/R17/b16b1/8 b").unwrap();
        let error = position.replay(["a2xa3", "h2-h3"]).unwrap_err();
        assert_eq!(error.index, 1);
        assert_eq!(error.reason, IllegalMove::GameOver { winner: Side::Blue });
        assert_eq!(
            error.to_string(),
            "move 2 'h2-h3': the game is over (Blue has won)"
        );
        let (end, moves) = position.replay(["a2xa3"]).unwrap();
        assert_eq!((end.winner(), moves.len()), (Some(Side::Blue), 1));
    }

    #[test]
    fn the_message_quotes_the_text_cut_and_cleaned() {
        let long = format!("a2-a3\n{}", "x".repeat(60));
        let error = start().replay([long.as_str()]).unwrap_err();
        assert_eq!(error.text, long, "the error keeps the text as given");
        assert_eq!(
            error.to_string(),
            format!(
                "move 1 '{}': {}",
                shown(&long),
                IllegalMove::Text(MoveTextError::Landing)
            )
        );
        assert!(error.to_string().contains("a2-a3?xxx"));
        assert!(error.to_string().contains("...'"));
    }

    #[test]
    fn typed_moves_replay_as_their_texts_do() {
        let texts = ["d2-d3", "e7-e6", "d3-d5", "e6-e4", "d5-d8"];
        let (position, moves) = start().replay(texts).unwrap();
        assert_eq!(start().play_moves(&moves), position);
        assert_eq!(start().try_play_moves(&moves), Ok(position));
        assert_eq!(start().try_play_moves(&[]), Ok(start()));
        for plies in 0..moves.len() {
            let (before, _) = start().replay(&texts[..plies]).unwrap();
            assert_eq!(start().play_moves(&moves[..plies]), before);
        }
    }

    #[test]
    fn a_typed_move_that_is_not_legal_is_named_and_nothing_is_kept() {
        let moves: Vec<Move> = ["a2-a3", "a7-a6", "a3-a4"]
            .iter()
            .map(|text| text.parse().unwrap())
            .collect();
        let error = start().try_play_moves(&moves).unwrap_err();
        assert_eq!(
            error,
            ReplayError {
                index: 2,
                text: "a3-a4".to_owned(),
                reason: IllegalMove::NotLegal,
            }
        );
        assert_eq!(error.to_string(), "move 3 'a3-a4': not a legal move here");
        // A move after the end of the game is not legal either.
        let over = Position::from_lfen("8/8/8/8/8/R17/b16b1/8 b").unwrap();
        let moves: Vec<Move> = ["a2xa3", "h2-h3"]
            .iter()
            .map(|t| t.parse().unwrap())
            .collect();
        let error = over.try_play_moves(&moves).unwrap_err();
        assert_eq!((error.index, error.reason), (1, IllegalMove::NotLegal));
        assert_eq!(over.play_moves(&moves[..1]).winner(), Some(Side::Blue));
    }

    #[test]
    fn checked_play_leaves_the_position_on_an_error() {
        let mut position = start();
        let red_move: Move = "a7-a6".parse().unwrap();
        assert_eq!(
            position.try_play_in_place(red_move),
            Err(IllegalMove::NotLegal)
        );
        assert_eq!(position, start());
        assert!(!position.is_legal(red_move));
        let blue_move: Move = "a2-a3".parse().unwrap();
        assert_eq!(position.try_play_in_place(blue_move), Ok(()));
        assert_eq!(position, start().play(blue_move));
        assert!(position.is_legal(red_move));
    }
}
