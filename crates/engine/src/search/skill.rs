//! Weakened play (`Skill Level`, `UCI_LimitStrength` with `UCI_Elo`): a level below full
//! strength searches shallower and plays a move drawn from the best few root lines, pushed
//! toward worse ones by a level-dependent weakness, as Stockfish's `Skill` does. The mistakes
//! are a person's: a move a shallow look likes, never a random move.
//!
//! How a level `L` (0 to 20, fractional when it comes from `UCI_Elo`) plays:
//!
//! - it searches to depth `1 + L / 3` at most (depth 1 at levels 0 to 2, 7 at 18 and 19),
//!   within the `go` limits; below level 4 without the capture search at the leaves (it does
//!   not follow exchanges, though it still sees a king capture one move away);
//! - it searches `4 + (20 - L) / 4` root lines (MultiPV, whatever `MultiPV` says: 9 at level
//!   0, 4 near 20), all reported;
//! - of the last completed iteration's lines it plays the one with the highest
//!   `score + push`, where, with `weakness = 120 - 2L`, `top` the best score and `spread` the
//!   gap from the best to the last line (at most [`SPREAD_CAP`]),
//!   `push = (weakness * (top - score) + spread * (random % weakness)) / 128`
//!   (Stockfish's formula: a deterministic pull toward the worse lines and a random term, both
//!   larger at lower levels);
//! - a proven win the search found is always played, and a line proven lost is never chosen
//!   while another is not: a player that sees the king capture takes it.
//!
//! Level 20 is full strength: the search is the engine's own, move for move (the bench
//! signature is unchanged). The random term is seeded (see [`Skill::seed`]): with a seed the
//! same position and lines give the same move; seed 0 takes a fresh number from the clock at
//! each pick, so games vary.
//!
//! Calibration (`scripts/levels.sh`; `docs/results/levels.md`) measured each level in games; the
//! ladder's Elo is [`LADDER`], which `UCI_Elo` is mapped through.

use std::time::{SystemTime, UNIX_EPOCH};

use crate::score::Score;
use lielow_rules::moves::Move;

/// The full-strength level (`Skill Level`'s default and maximum).
pub const FULL_LEVEL: u32 = 20;
/// Levels are held in hundredths, so that one from `UCI_Elo` can fall between two.
const HUNDREDTHS: u32 = 100;
/// The most the spread of the lines counts in the random term, in centipawns (a pawn, as in
/// Stockfish): a wide spread must not turn the random term into a lottery.
pub const SPREAD_CAP: i32 = 100;

/// The calibrated ladder: (`Skill Level`, Elo with `builtin:random` at 0), ascending in both.
/// Measured at 20 ms a move on 8x8 by `scripts/levels.sh` with network 9, 200 games a step
/// (2,200 in all; `docs/results/levels.md` has the intervals). `UCI_Elo` takes
/// `LADDER[0].1 ..= LADDER[last].1` and is interpolated linearly between the rungs.
pub const LADDER: [(u32, u32); 8] = [
    (0, 840),
    (3, 1362),
    (6, 1904),
    (9, 2210),
    (12, 2373),
    (15, 2540),
    (18, 2716),
    (20, 3148),
];

/// The lowest `UCI_Elo` (level 0's).
pub const MIN_ELO: u32 = LADDER[0].1;
/// The highest `UCI_Elo` (full strength's).
pub const MAX_ELO: u32 = LADDER[LADDER.len() - 1].1;

/// A strength handicap, as the search takes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skill {
    /// The level in hundredths (0 to 2000; 2000 is full strength).
    hundredths: u32,
    /// The seed of the random term; 0: from the clock.
    seed: u64,
}

impl Default for Skill {
    /// Full strength.
    fn default() -> Skill {
        Skill::level(FULL_LEVEL)
    }
}

/// One root line a weakened search may play: its score and first two moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// The line's score, from the side to move's point of view.
    pub score: i32,
    /// The move.
    pub mv: Move,
    /// The line's reply to it, if any (for `bestmove ... ponder`).
    pub reply: Option<Move>,
}

impl Skill {
    /// `Skill Level` `level` (0 to 20; more is full strength).
    pub fn level(level: u32) -> Skill {
        Skill {
            hundredths: level.min(FULL_LEVEL) * HUNDREDTHS,
            seed: 0,
        }
    }

    /// The level `UCI_Elo` `elo` stands for on the calibrated [`LADDER`], interpolated between
    /// its rungs (an Elo outside the ladder is clamped to its ends).
    pub fn from_elo(elo: u32) -> Skill {
        let elo = elo.clamp(MIN_ELO, MAX_ELO);
        let hundredths = LADDER.windows(2).find(|rungs| elo <= rungs[1].1).map_or(
            FULL_LEVEL * HUNDREDTHS,
            |rungs| {
                let ((low_level, low_elo), (high_level, high_elo)) = (rungs[0], rungs[1]);
                let levels = (high_level - low_level) * HUNDREDTHS;
                low_level * HUNDREDTHS + levels * (elo - low_elo) / (high_elo - low_elo).max(1)
            },
        );
        Skill {
            hundredths,
            seed: 0,
        }
    }

    /// The same skill with the random term seeded by `seed` (0: from the clock).
    pub fn seed(self, seed: u64) -> Skill {
        Skill { seed, ..self }
    }

    /// The level in hundredths (2000: full strength).
    pub fn hundredths(&self) -> u32 {
        self.hundredths
    }

    /// Whether the handicap is on (any level below 20).
    pub fn enabled(&self) -> bool {
        self.hundredths < FULL_LEVEL * HUNDREDTHS
    }

    /// The deepest iteration at this level: `1 + level / 3`. (Pilot games, 20 each at 20 ms a
    /// move: with `1 + level / 2`, level 0 scored 1-19 against level 4 but 9-11 was level 4's
    /// score against level 8: the first plies are worth far more than the later ones.)
    pub fn max_depth(&self) -> u32 {
        1 + self.hundredths / (3 * HUNDREDTHS)
    }

    /// Whether this level searches captures at the leaves (from level 4).
    pub fn quiescence(&self) -> bool {
        self.hundredths >= 4 * HUNDREDTHS
    }

    /// The root lines searched at this level: `4 + (20 - level) / 4`.
    pub fn lines(&self) -> usize {
        4 + ((FULL_LEVEL * HUNDREDTHS - self.hundredths) / (4 * HUNDREDTHS)) as usize
    }

    /// `120 - 2 * level`, in hundredths of a level.
    fn weakness_hundredths(&self) -> i64 {
        (120 * HUNDREDTHS - 2 * self.hundredths) as i64
    }

    /// The line to play among `lines` (best first, the last completed iteration's) in the
    /// position whose key is `key`; `None` when there are none.
    pub fn pick(&self, lines: &[Candidate], key: u64) -> Option<Candidate> {
        let top = lines.first()?;
        if Score(top.score).is_proven() && top.score > 0 {
            return Some(*top);
        }
        let lost = |line: &&Candidate| Score(line.score).is_proven() && line.score < 0;
        let worst = lines.iter().rfind(|line| !lost(line)).unwrap_or(top);
        let spread = (top.score - worst.score).min(SPREAD_CAP) as i64;
        let weakness = self.weakness_hundredths();
        let mut random = Random::new(self.seed, key);
        let mut best: Option<(i64, Candidate)> = None;
        for line in lines {
            if lost(&line) && !lost(&top) {
                continue;
            }
            let noise = (random.next() % weakness.max(1) as u64) as i64;
            let push = (weakness * (top.score - line.score) as i64 + spread * noise)
                / (128 * HUNDREDTHS as i64);
            let value = line.score as i64 + push;
            if best.is_none_or(|(most, _)| value >= most) {
                best = Some((value, *line));
            }
        }
        best.map(|(_, line)| line)
    }
}

/// SplitMix64: a small, good generator; no crate for a few numbers a move.
struct Random(u64);

impl Random {
    /// A stream for `seed` (0: the clock) and the position `key`.
    fn new(seed: u64, key: u64) -> Random {
        let seed = if seed == 0 {
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(1, |since| since.as_nanos() as u64)
        } else {
            seed
        };
        Random(seed ^ key.rotate_left(17))
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lielow_rules::board::BoardSize;
    use lielow_rules::position::Position;

    /// Four distinct legal moves of the start position with the given scores, best first.
    fn lines(scores: &[i32]) -> Vec<Candidate> {
        let position = Position::start(BoardSize::Eight);
        let moves = position.legal_moves();
        scores
            .iter()
            .zip(moves.iter())
            .map(|(&score, &mv)| Candidate {
                score,
                mv,
                reply: None,
            })
            .collect()
    }

    #[test]
    fn levels_shape_the_search() {
        assert!(!Skill::default().enabled());
        assert!(!Skill::level(25).enabled());
        assert_eq!(Skill::level(0).max_depth(), 1);
        assert_eq!(Skill::level(2).max_depth(), 1);
        assert_eq!(Skill::level(19).max_depth(), 7);
        assert!(!Skill::level(3).quiescence() && Skill::level(4).quiescence());
        assert_eq!(Skill::level(0).lines(), 9);
        assert_eq!(Skill::level(19).lines(), 4);
    }

    #[test]
    fn elo_maps_monotonically_onto_the_ladder() {
        assert_eq!(Skill::from_elo(0).hundredths(), 0);
        assert_eq!(Skill::from_elo(MIN_ELO).hundredths(), 0);
        assert_eq!(
            Skill::from_elo(MAX_ELO).hundredths(),
            FULL_LEVEL * HUNDREDTHS
        );
        assert!(!Skill::from_elo(MAX_ELO).enabled());
        for &(level, elo) in &LADDER {
            assert_eq!(Skill::from_elo(elo).hundredths(), level * HUNDREDTHS);
        }
        let mut last = 0;
        for elo in MIN_ELO..=MAX_ELO {
            let hundredths = Skill::from_elo(elo).hundredths();
            assert!(hundredths >= last, "{elo}");
            last = hundredths;
        }
        assert!(LADDER
            .windows(2)
            .all(|r| r[0].0 < r[1].0 && r[0].1 < r[1].1));
    }

    #[test]
    fn a_seeded_pick_repeats_and_a_low_level_varies() {
        let lines = lines(&[30, 20, 10, 0]);
        let skill = Skill::level(0);
        let mut picked = Vec::new();
        for seed in 1..=64 {
            let one = skill.seed(seed).pick(&lines, 99);
            assert_eq!(one, skill.seed(seed).pick(&lines, 99));
            picked.push(one.expect("lines").mv);
        }
        assert!(picked.iter().any(|&mv| mv != lines[0].mv));
        assert!(picked.iter().all(|mv| lines.iter().any(|l| l.mv == *mv)));
        assert!(picked.contains(&lines[0].mv));
    }

    #[test]
    fn a_high_level_keeps_to_the_best_when_the_others_are_much_worse() {
        let lines = lines(&[100, -300, -400, -500]);
        for seed in 1..=64 {
            let one = Skill::level(19).seed(seed).pick(&lines, 7).expect("lines");
            assert_eq!(one.mv, lines[0].mv);
        }
    }

    #[test]
    fn proven_wins_are_taken_and_proven_losses_avoided() {
        let won = lines(&[Score::win_in(1).0, 50, 40, 30]);
        let lost = lines(&[10, 5, Score::loss_in(2).0, Score::loss_in(2).0]);
        for seed in 1..=64 {
            let skill = Skill::level(0).seed(seed);
            assert_eq!(skill.pick(&won, 3).expect("lines").mv, won[0].mv);
            let mv = skill.pick(&lost, 3).expect("lines").mv;
            assert!(mv == lost[0].mv || mv == lost[1].mv);
        }
        assert_eq!(Skill::level(0).pick(&[], 3), None);
    }
}
