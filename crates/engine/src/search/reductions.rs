//! The late-move reduction by depth and move number, looked up instead of computed: the
//! formula takes two logarithms and a division at every reduced move, the table one load.
//!
//! The reduction is `LMRBase / 100 + ln(depth) * ln(move number) / (LMRDivisor / 100)` plies,
//! kept in 1024ths of a ply so that a fractional term (`LMRCutNode`) can join it before
//! rounding. Whole plies are the 1024ths divided by 1024, which truncates exactly as the
//! formula's `as i32` did: scaling an `f32` by a power of two is exact, so both truncations see
//! the same number. Depths and move numbers past the table (rare: deep extensions, crowded 9x9
//! boards) use the formula itself, so every entry agrees with it.

use crate::search::params::Params;

/// Depths the table covers (0..DEPTHS).
const DEPTHS: usize = 64;
/// Move numbers the table covers (0..MOVES).
const MOVES: usize = 256;

/// One ply in the table's units.
pub const PLY: i32 = 1024;

/// The table, built for one `LMRBase` and `LMRDivisor`.
pub struct Reductions {
    /// The (`LMRBase`, `LMRDivisor`) the table was built for.
    built_for: (i32, i32),
    /// `fine[depth][move number]`: the reduction in 1024ths of a ply.
    fine: Box<[[i32; MOVES]; DEPTHS]>,
}

impl Default for Reductions {
    fn default() -> Self {
        let defaults = Params::default();
        let mut table = Reductions {
            built_for: (defaults.lmr_base, defaults.lmr_divisor),
            fine: Box::new([[0; MOVES]; DEPTHS]),
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
        for (depth, row) in self.fine.iter_mut().enumerate() {
            for (moves, entry) in row.iter_mut().enumerate() {
                *entry = formula(base, divisor, depth as i32, moves);
            }
        }
    }

    /// The reduction at `depth` of the move numbered `moves` (from 0), in 1024ths of a ply.
    #[inline]
    pub fn fine(&self, depth: i32, moves: usize) -> i32 {
        match self.fine.get(depth as usize).and_then(|row| row.get(moves)) {
            Some(&entry) => entry,
            None => formula(self.built_for.0, self.built_for.1, depth, moves),
        }
    }
}

/// The reduction formula in 1024ths of a ply. The hundredths are divided in `f32`, so 80 and
/// 200 give exactly the `f32` values of 0.8 and 2.0 (the formula's first constants).
fn formula(base: i32, divisor: i32, depth: i32, moves: usize) -> i32 {
    let base = base as f32 / 100.0;
    let divisor = divisor as f32 / 100.0;
    let r = base + (depth as f32).ln() * (moves as f32).ln() / divisor;
    (r * PLY as f32) as i32
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
                        table.fine(depth, moves) / PLY,
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
        let before = table.fine(20, 30);
        table.prepare(&Params::default());
        assert_eq!(table.fine(20, 30), before);
        table.prepare(&Params {
            lmr_divisor: 100,
            ..Params::default()
        });
        assert!(
            table.fine(20, 30) > before,
            "a smaller divisor reduces more"
        );
    }
}
