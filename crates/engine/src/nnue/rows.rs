//! The one arithmetic of an update: a view's sums are its parent's, less some weight rows,
//! plus others, in one pass.
//!
//! Written in safe Rust for the compiler to vectorise, with no `std::arch` intrinsics: every
//! loop runs over fixed-size arrays (so no bounds check is left inside it), lane by lane in
//! `i16`, with wrapping arithmetic (so the order of additions cannot change a result and
//! nothing can overflow-panic). What width the compiler picks is decided when the program is
//! built: the workspace's `.cargo/config.toml` builds for x86-64-v3, where each loop becomes
//! 256-bit AVX2 instructions (16 lanes: a view is 8 registers); a build for plain x86-64
//! (`RUSTFLAGS=""`) gets the same loops in 128-bit SSE2, and any other target its own
//! vectors or scalar code. The results are the same integers on every target, since the
//! arithmetic is exact modulo 2^16.
//!
//! The common shapes of a move (a quiet move: one row out, one in; a capture: two out, one
//! in; a crown changing hands on a quiet move: two and two; a bear-off: one out) each get a
//! kernel whose row counts are constants, so the loop over the rows unrolls away and each
//! lane is loaded from the parent once, updated in a register and stored once. Other shapes
//! go through [`apply_any`], which does the same a register-sized chunk at a time.

use super::network::HIDDEN;

/// One weight row, or one view's sums.
pub type Row = [i16; HIDDEN];

/// Lanes of one chunk of [`apply_any`]: a 256-bit register of `i16`.
const CHUNK: usize = 16;
const _: () = assert!(HIDDEN.is_multiple_of(CHUNK), "the chunks divide a row");

/// `out = from - Σ removed + Σ added`, lane by lane, wrapping, for a number of rows fixed at
/// compile time.
#[inline(always)]
pub fn apply_fixed<const REMOVED: usize, const ADDED: usize>(
    out: &mut Row,
    from: &Row,
    removed: [&Row; REMOVED],
    added: [&Row; ADDED],
) {
    for i in 0..HIDDEN {
        let mut sum = from[i];
        for row in removed {
            sum = sum.wrapping_sub(row[i]);
        }
        for row in added {
            sum = sum.wrapping_add(row[i]);
        }
        out[i] = sum;
    }
}

/// [`apply_fixed`] for any number of rows: a chunk of lanes at a time, kept in a register while
/// every row is applied to it.
#[inline]
pub fn apply_any(out: &mut Row, from: &Row, removed: &[&Row], added: &[&Row]) {
    for start in (0..HIDDEN).step_by(CHUNK) {
        let mut sums: [i16; CHUNK] = std::array::from_fn(|i| from[start + i]);
        for row in removed {
            let lanes = &row[start..start + CHUNK];
            for (sum, w) in sums.iter_mut().zip(lanes) {
                *sum = sum.wrapping_sub(*w);
            }
        }
        for row in added {
            let lanes = &row[start..start + CHUNK];
            for (sum, w) in sums.iter_mut().zip(lanes) {
                *sum = sum.wrapping_add(*w);
            }
        }
        out[start..start + CHUNK].copy_from_slice(&sums);
    }
}

/// `view += row`, lane by lane, wrapping (the refresh's sum).
#[inline]
pub fn add(view: &mut Row, row: &Row) {
    for (v, w) in view.iter_mut().zip(row) {
        *v = v.wrapping_add(*w);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// The plainest statement of the update, one row and one lane at a time.
    fn reference(from: &Row, removed: &[&Row], added: &[&Row]) -> Row {
        let mut out = *from;
        for row in removed {
            for (o, w) in out.iter_mut().zip(row.iter()) {
                *o = o.wrapping_sub(*w);
            }
        }
        for row in added {
            add(&mut out, row);
        }
        out
    }

    fn random_row(rng: &mut StdRng) -> Row {
        // The whole i16 range, so that wrapping is exercised.
        std::array::from_fn(|_| rng.gen())
    }

    #[test]
    fn every_kernel_equals_the_reference_for_every_shape() {
        let mut rng = StdRng::seed_from_u64(22);
        let rows: Vec<Row> = (0..12).map(|_| random_row(&mut rng)).collect();
        for trial in 0..20 {
            let from = random_row(&mut rng);
            for removed_count in 0..=6 {
                for added_count in 0..=6 {
                    let pick = |count: usize, rng: &mut StdRng| -> Vec<&Row> {
                        (0..count)
                            .map(|_| &rows[rng.gen_range(0..rows.len())])
                            .collect()
                    };
                    let removed = pick(removed_count, &mut rng);
                    let added = pick(added_count, &mut rng);
                    let expected = reference(&from, &removed, &added);
                    let shape = format!("trial {trial}: {removed_count} out, {added_count} in");

                    let mut out = [0; HIDDEN];
                    apply_any(&mut out, &from, &removed, &added);
                    assert_eq!(out, expected, "apply_any, {shape}");
                }
            }
            // The fixed kernels, for the shapes `Accumulator::apply` gives them.
            let [r1, r2, a1, a2] = [0, 1, 2, 3].map(|i| &rows[i + trial % 8]);
            let mut out = [0; HIDDEN];
            apply_fixed(&mut out, &from, [r1], [a1]);
            assert_eq!(out, reference(&from, &[r1], &[a1]));
            apply_fixed(&mut out, &from, [r1, r2], [a1]);
            assert_eq!(out, reference(&from, &[r1, r2], &[a1]));
            apply_fixed(&mut out, &from, [r1, r2], [a1, a2]);
            assert_eq!(out, reference(&from, &[r1, r2], &[a1, a2]));
            apply_fixed(&mut out, &from, [r1], []);
            assert_eq!(out, reference(&from, &[r1], &[]));
        }
    }
}
