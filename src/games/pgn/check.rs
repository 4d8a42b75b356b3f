//! A PGN game's result, checked against the rules.
//!
//! When the rules end the game after its last move, the result must be theirs (a `*` is read
//! as theirs, with a warning); a reason stated (the comment after the last move, the
//! `Termination` tag, cutegames' `Adjudicated` tag) must be the rules' ending, not a forfeit.
//! When the game goes on, a decisive result is a forfeit, lost by the side to move (as in
//! `lielow match`'s records), and needs a stated forfeit reason; `*` is an unfinished game.

use lielow_rules::board::Side;
use lielow_rules::position::Position;

use crate::reason::Reason;

/// What a game's text says about its end.
pub struct Stated<'a> {
    /// The termination marker: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: &'a str,
    /// The comment after the last move.
    pub comment: Option<&'a str>,
    /// The `Termination` tag.
    pub termination: Option<&'a str>,
    /// cutegames' `Adjudicated` tag.
    pub adjudicated: Option<&'a str>,
}

/// The `Termination` tag's word for `reason` (the PGN standard's words, and cutechess's
/// `stalled connection` for an engine that stopped answering).
pub const fn termination(reason: Reason) -> &'static str {
    match reason {
        Reason::KingCaptured | Reason::KingBorneOff | Reason::NoMoves => "normal",
        Reason::IllegalMove => "rules infraction",
        Reason::TimeForfeit => "time forfeit",
        Reason::NoReply => "stalled connection",
        Reason::Crash => "abandoned",
    }
}

/// The comment after a finished game's last move: `Blue wins: king-captured`, as `lielow
/// match`'s `Finished game` lines say it.
pub fn comment(winner: Side, reason: Reason) -> String {
    format!("{winner} wins: {reason}")
}

/// The side a result names as winner: `Ok(None)` for `*`, `Err` for a draw.
fn winner_of(result: &str) -> Result<Option<Side>, ()> {
    match result {
        "1-0" => Ok(Some(Side::Blue)),
        "0-1" => Ok(Some(Side::Red)),
        "*" => Ok(None),
        _ => Err(()),
    }
}

impl Stated<'_> {
    /// The reason the text states, most precise first: our comment, the `Termination` tag,
    /// cutegames' `Adjudicated` tag.
    fn reason(&self) -> Option<Reason> {
        let from_comment = self.comment.and_then(|comment| {
            let (_, rest) = comment.trim().split_once(" wins: ")?;
            rest.split([',', ' ']).next()?.parse().ok()
        });
        let from_termination = self.termination.and_then(|word| {
            [
                Reason::IllegalMove,
                Reason::TimeForfeit,
                Reason::NoReply,
                Reason::Crash,
            ]
            .into_iter()
            .find(|&reason| word.trim().eq_ignore_ascii_case(termination(reason)))
        });
        let from_cutegames = self.adjudicated.and_then(|word| match word.trim() {
            "Out of time" => Some(Reason::TimeForfeit),
            "Crashed" => Some(Reason::Crash),
            "Illegal move" => Some(Reason::IllegalMove),
            _ => None,
        });
        from_comment.or(from_termination).or(from_cutegames)
    }
}

/// A game's result as read: who won and why (`None`: unfinished), and a warning.
pub type Checked = (Option<(Side, Reason)>, Option<String>);

/// The result of a game that ends in `end`, as `stated`, or why the statement contradicts the
/// rules.
pub fn result(end: &Position, stated: &Stated) -> Result<Checked, super::PgnWhy> {
    use super::PgnWhy::{Contradiction, Draw};
    let said = winner_of(stated.result).map_err(|()| Draw)?;
    let reason = stated.reason();
    let Some(outcome) = end.outcome() else {
        let (Some(winner), Some(reason)) = (said, reason) else {
            return match said {
                None => Ok((None, None)),
                Some(_) => Err(Contradiction(format!(
                    "the result is {} but the game goes on after the last move, and no \
                     forfeit is named (Termination tag)",
                    stated.result
                ))),
            };
        };
        let loser = end.side_to_move();
        if !reason.is_forfeit() {
            return Err(Contradiction(format!(
                "the game says {reason}, but it goes on after the last move"
            )));
        }
        if winner != loser.opponent() {
            return Err(Contradiction(format!(
                "a forfeit ({reason}) loses the game for the side to move, {loser}, but the \
                 result is {}",
                stated.result
            )));
        }
        return Ok((Some((winner, reason)), None));
    };
    let actual = Reason::from(outcome.end);
    let rules = comment(outcome.winner, actual);
    if said.is_some_and(|winner| winner != outcome.winner) {
        return Err(Contradiction(format!(
            "the result is {} but the rules end the game: {rules}",
            stated.result
        )));
    }
    if let Some(reason) = reason.filter(|&reason| reason != actual) {
        return Err(Contradiction(format!(
            "the game says {reason}, but the rules end it: {rules}"
        )));
    }
    let warning = said
        .is_none()
        .then(|| format!("the result is * but the rules end the game ({rules}); read so"));
    Ok((Some((outcome.winner, actual)), warning))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stated<'a>(
        result: &'a str,
        comment: Option<&'a str>,
        termination: Option<&'a str>,
    ) -> Stated<'a> {
        Stated {
            result,
            comment,
            termination,
            adjudicated: None,
        }
    }

    #[test]
    fn every_reason_is_read_back_from_the_comment_and_forfeits_from_the_termination_alone() {
        for reason in Reason::ALL {
            let text = comment(Side::Red, reason);
            let said = stated("0-1", Some(&text), Some(termination(reason)));
            assert_eq!(said.reason(), Some(reason));
            let tag_only = stated("0-1", None, Some(termination(reason)));
            let expected = reason.is_forfeit().then_some(reason);
            assert_eq!(tag_only.reason(), expected, "{reason}");
        }
    }

    #[test]
    fn results_are_checked_against_the_rules() {
        // Blue's stack of height 2 on d3 captures Red's king on d5.
        let before: Position = "8/8/8/3R14/8/3B24/8/8 b".parse().unwrap();
        let over = before.play(before.parse_move("d3xd5").unwrap());
        let won = Some((Side::Blue, Reason::KingCaptured));
        assert_eq!(result(&over, &stated("1-0", None, None)), Ok((won, None)));
        assert!(result(&over, &stated("0-1", None, None)).is_err());
        assert!(result(&over, &stated("1-0", Some("Blue wins: crash"), None)).is_err());
        let (read, warning) = result(&over, &stated("*", None, None)).unwrap();
        assert_eq!(read, won);
        assert!(warning.unwrap().contains("Blue wins: king-captured"));
        assert_eq!(
            result(&over, &stated("1/2-1/2", None, None)),
            Err(super::super::PgnWhy::Draw)
        );
        // The game goes on: Blue is to move, so a forfeit is Blue's loss.
        assert_eq!(result(&before, &stated("*", None, None)), Ok((None, None)));
        assert_eq!(
            result(&before, &stated("0-1", None, Some("time forfeit"))),
            Ok((Some((Side::Red, Reason::TimeForfeit)), None))
        );
        assert!(result(&before, &stated("1-0", None, Some("time forfeit"))).is_err());
        assert!(result(&before, &stated("0-1", None, None)).is_err());
        assert!(result(&before, &stated("0-1", Some("Red wins: no-moves"), None)).is_err());
    }
}
