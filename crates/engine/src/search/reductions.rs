//! The late-move reduction by depth and move number, looked up instead of computed: the
//! formula takes two logarithms and a division at every reduced move, the table one load.
//!
//! The reduction is `LMRBase / 100 + ln(depth) * ln(move number) / (LMRDivisor / 100)` plies,
//! truncated to whole plies. Depths and move numbers past the table (rare: deep extensions,
//! crowded 9x9 boards) use the formula itself, so every entry agrees with it.

use crate::search::params::Params;

/// Depths the table covers (0..DEPTHS).
const DEPTHS: usize = 64;
/// Move numbers the table covers (0..MOVES).
const MOVES: usize = 256;

/// The table, built for one `LMRBase` and `LMRDivisor`.
pub struct Reductions {
    /// The (`LMRBase`, `LMRDivisor`) the table was built for.
    built_for: (i32, i32),
    /// `plies[depth][move number]`: the reduction in whole plies.
    plies: Box<[[i32; MOVES]; DEPTHS]>,
}

impl Default for Reductions {
    fn default() -> Self {
        let defaults = Params::default();
        let mut table = Reductions {
            built_for: (defaults.lmr_base, defaults.lmr_divisor),
            plies: Box::new([[0; MOVES]; DEPTHS]),
        };
        table.fill();
        table
    }
}

impl Reductions {
    /// Rebuilds the table if `params` have another base or divisor than it was built for (a
    /// `setoption` between searches); a search never rebuilds it.
    pub fn prepare(&mut self, params: &Params) {
        let wanted = (params.lmr_base, params.lmr_divisor);
        if wanted != self.built_for {
            self.built_for = wanted;
            self.fill();
        }
    }

    fn fill(&mut self) {
        let (base, divisor) = self.built_for;
        for (depth, row) in self.plies.iter_mut().enumerate() {
            for (moves, entry) in row.iter_mut().enumerate() {
                *entry = formula(base, divisor, depth as i32, moves);
            }
        }
    }

    /// The reduction at `depth` of the move numbered `moves` (from 0), in plies.
    #[inline]
    pub fn plies(&self, depth: i32, moves: usize) -> i32 {
        match self
            .plies
            .get(depth as usize)
            .and_then(|row| row.get(moves))
        {
            Some(&entry) => entry,
            None => formula(self.built_for.0, self.built_for.1, depth, moves),
        }
    }
}

/// The reduction formula in whole plies. The hundredths are divided in `f32`, so 80 and 200
/// give exactly the `f32` values of 0.8 and 2.0 (the formula's first constants).
fn formula(base: i32, divisor: i32, depth: i32, moves: usize) -> i32 {
    let base = base as f32 / 100.0;
    let divisor = divisor as f32 / 100.0;
    let r = base + (depth as f32).ln() * (moves as f32).ln() / divisor;
    r as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The formula in whole plies as the search computed it before the table.
    fn plies_by_formula(base: i32, divisor: i32, depth: i32, moves: usize) -> i32 {
        let r = base as f32 / 100.0
            + (depth as f32).ln() * (moves as f32).ln() / (divisor as f32 / 100.0);
        r as i32
    }

    #[test]
    fn table_gives_the_formula_s_whole_plies_everywhere() {
        let mut table = Reductions::default();
        for (base, divisor) in [(80, 200), (-200, 50), (400, 1000), (137, 173)] {
            let params = Params {
                lmr_base: base,
                lmr_divisor: divisor,
                ..Params::default()
            };
            table.prepare(&params);
            for depth in 1..80 {
                for moves in 1..300 {
                    assert_eq!(
                        table.plies(depth, moves),
                        plies_by_formula(base, divisor, depth, moves),
                        "base {base} divisor {divisor} depth {depth} move {moves}"
                    );
                }
            }
        }
    }

    #[test]
    fn prepare_rebuilds_only_for_other_numbers() {
        let mut table = Reductions::default();
        let before = table.plies(20, 30);
        table.prepare(&Params::default());
        assert_eq!(table.plies(20, 30), before);
        table.prepare(&Params {
            lmr_divisor: 100,
            ..Params::default()
        });
        assert!(
            table.plies(20, 30) > before,
            "a smaller divisor reduces more"
        );
    }
}
