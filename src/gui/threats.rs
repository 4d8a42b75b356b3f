//! What the page's threat display marks: for each side, its stacks that the opponent could
//! capture with its next move, and its king when that king is one of them. Answered by the rules
//! crate's attack tables (`lielow_rules::attacks`), the same the search asks, so the page holds
//! no rules of its own.

use serde::Serialize;

use lielow_rules::attacks;
use lielow_rules::board::Side;
use lielow_rules::position::Position;

/// One side's stacks in danger.
#[derive(Debug, Default, PartialEq, Eq, Serialize)]
pub struct Threatened {
    /// The squares of this side's stacks that an enemy stack could land on next move.
    pub stacks: Vec<String>,
    /// This side's king's square when the king is among them (the game hangs on it).
    pub king: Option<String>,
}

/// Both sides' stacks in danger, by side name as the page writes it.
#[derive(Debug, Default, PartialEq, Eq, Serialize)]
pub struct Threats {
    /// Blue's stacks that Red could capture.
    #[serde(rename = "Blue")]
    pub blue: Threatened,
    /// Red's stacks that Blue could capture.
    #[serde(rename = "Red")]
    pub red: Threatened,
}

/// The threats in `position`; none once the game is over (no move follows).
pub fn threats(position: &Position) -> Threats {
    if position.is_game_over() {
        return Threats::default();
    }
    let [blue, red] = Side::BOTH.map(|side| threatened(position, side));
    Threats { blue, red }
}

fn threatened(position: &Position, side: Side) -> Threatened {
    let stacks: Vec<_> = position
        .stacks(side)
        .filter(|&square| attacks::attacked(position, side.opponent(), square))
        .collect();
    let king = position
        .king(side)
        .filter(|king| stacks.contains(king))
        .map(|king| king.to_string());
    Threatened {
        stacks: stacks.iter().map(ToString::to_string).collect(),
        king,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_has_no_threats() {
        let start = Position::from_lfen("8/r1r1r1r1r1r1r1r1/8/8/8/8/b1b1b1b1b1b1b1b1/8 b").unwrap();
        assert_eq!(threats(&start), Threats::default());
    }

    #[test]
    fn a_stack_in_reach_is_threatened_and_a_king_in_reach_is_named() {
        // Two kings of height 2 on one file, two squares apart: each can take the other.
        let position = Position::from_lfen("8/3R24/8/3B24/8/8/8/8 b").unwrap();
        let found = threats(&position);
        assert_eq!(found.red.stacks, ["d7"]);
        assert_eq!(found.red.king.as_deref(), Some("d7"));
        assert_eq!(found.blue.stacks, ["d5"]);
        assert_eq!(found.blue.king.as_deref(), Some("d5"));
    }
}
