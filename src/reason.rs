//! Why a game ended, as match records, tables, summaries and reviews name it: the rules' own
//! three endings and the forfeits a match runner decides.

use std::fmt;
use std::str::FromStr;

use lielow_rules::outcome::GameEnd;

/// Why a game ended: the first three are the rules' own endings, the others are forfeits decided
/// by the runner (the loser is then the side to move after the recorded moves). Ordered as
/// declared (the order of tables and summaries); in JSON its name ([`Reason::as_str`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Reason {
    /// The enemy king was captured.
    KingCaptured,
    /// The loser bore off its own king.
    KingBorneOff,
    /// The loser had to move with no stack (so no move) left.
    NoMoves,
    /// The loser's engine sent an illegal or unparsable move (or `bestmove none`).
    IllegalMove,
    /// The loser's engine answered after its clock (or movetime) plus the latency allowance.
    TimeForfeit,
    /// The loser's engine did not answer in time (the no-reply timeout) and was killed.
    NoReply,
    /// The loser's engine exited, or could not be started.
    Crash,
}

impl Reason {
    /// Every reason, in order.
    pub const ALL: [Reason; 7] = [
        Reason::KingCaptured,
        Reason::KingBorneOff,
        Reason::NoMoves,
        Reason::IllegalMove,
        Reason::TimeForfeit,
        Reason::NoReply,
        Reason::Crash,
    ];

    /// The name written in records and tables.
    pub const fn as_str(self) -> &'static str {
        match self {
            Reason::KingCaptured => "king-captured",
            Reason::KingBorneOff => "king-borne-off",
            Reason::NoMoves => "no-moves",
            Reason::IllegalMove => "illegal-move",
            Reason::TimeForfeit => "time-forfeit",
            Reason::NoReply => "no-reply",
            Reason::Crash => "crash",
        }
    }

    /// Whether the runner, not the rules, ended the game.
    pub const fn is_forfeit(self) -> bool {
        !matches!(
            self,
            Reason::KingCaptured | Reason::KingBorneOff | Reason::NoMoves
        )
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A game-end reason's name that is none of [`Reason::ALL`]'s.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownReason(pub String);

impl fmt::Display for UnknownReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown game-end reason '{}'",
            lielow_rules::quote::shown(&self.0)
        )
    }
}

impl std::error::Error for UnknownReason {}

impl FromStr for Reason {
    type Err = UnknownReason;

    fn from_str(text: &str) -> Result<Reason, UnknownReason> {
        Reason::ALL
            .into_iter()
            .find(|reason| reason.as_str() == text)
            .ok_or_else(|| UnknownReason(text.to_owned()))
    }
}

impl serde::Serialize for Reason {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> serde::Deserialize<'de> for Reason {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Reason, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// The rules' endings are the first three reasons, of the same names.
impl From<GameEnd> for Reason {
    fn from(end: GameEnd) -> Reason {
        match end {
            GameEnd::KingCaptured => Reason::KingCaptured,
            GameEnd::KingBorneOff => Reason::KingBorneOff,
            GameEnd::NoMoves => Reason::NoMoves,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rules_endings_are_the_natural_reasons_of_the_same_names() {
        let natural: Vec<Reason> = GameEnd::ALL.into_iter().map(Reason::from).collect();
        let expected: Vec<Reason> = Reason::ALL
            .into_iter()
            .filter(|reason| !reason.is_forfeit())
            .collect();
        assert_eq!(natural, expected);
        for end in GameEnd::ALL {
            assert_eq!(Reason::from(end).as_str(), end.as_str());
        }
    }
}
