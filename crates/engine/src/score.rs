//! Search scores: centipawn-like evaluations and proven wins and losses by distance.

use std::fmt;

/// A score from the side to move's point of view. Proven results are `±(MATE - plies)`, so a
/// faster win scores higher and a slower loss scores higher than a faster one.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct Score(pub i32);

impl Score {
    /// The score of winning right now (the enemy king is gone).
    pub const MATE: i32 = 32_000;
    /// Scores beyond this magnitude are proven results.
    pub const MATE_BOUND: i32 = Score::MATE - 1_000;
    /// Above every real score.
    pub const INFINITE: i32 = 32_500;

    /// A win `plies` plies from the root (1 = this move captures the king).
    pub const fn win_in(plies: i32) -> Score {
        Score(Score::MATE - plies)
    }

    /// A loss `plies` plies from the root.
    pub const fn loss_in(plies: i32) -> Score {
        Score(-Score::MATE + plies)
    }

    /// A proven win or loss rather than an evaluation.
    pub const fn is_proven(self) -> bool {
        self.0 > Score::MATE_BOUND || self.0 < -Score::MATE_BOUND
    }

    /// Moves (not plies) to the end, as UCI's `score mate N`: positive when the side to move
    /// wins, `ceil(plies / 2)`; `None` for an unproven score.
    pub const fn mate_moves(self) -> Option<i32> {
        if self.0 > Score::MATE_BOUND {
            Some((Score::MATE - self.0 + 1) / 2)
        } else if self.0 < -Score::MATE_BOUND {
            Some(-((Score::MATE + self.0 + 1) / 2))
        } else {
            None
        }
    }
}

impl fmt::Display for Score {
    /// The UCI form: `cp X` or `mate N`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.mate_moves() {
            Some(moves) => write!(f, "mate {moves}"),
            None => write!(f, "cp {}", self.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_distances_print_in_moves() {
        assert_eq!(Score::win_in(1).to_string(), "mate 1");
        assert_eq!(Score::win_in(3).to_string(), "mate 2");
        assert_eq!(Score::loss_in(2).to_string(), "mate -1");
        assert_eq!(Score::loss_in(4).to_string(), "mate -2");
        assert_eq!(Score(-37).to_string(), "cp -37");
        assert!(Score::win_in(1) > Score::win_in(3));
        assert!(Score::loss_in(4) > Score::loss_in(2));
    }
}
