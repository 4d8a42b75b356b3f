//! The gain schedules and the perturbations of one iteration.
//!
//! Iteration k (from 0) of N perturbs parameter i by `c_k = c / (k+1)^γ` and moves it by
//! `a_k * r * Δ_i / c_k` with `a_k = a / (k+1+A)^α`, where r is the iteration's score (wins
//! minus losses of θ+cΔ) and Δ_i is ±1. The per-parameter constants follow fishtest's
//! convention, from the values wanted at the last iteration: `c = c_end * N^γ` and
//! `a = r_end * c_end^2 * (A+N)^α`, so that at the end the perturbation is `c_end` and one
//! point of score moves θ by `r_end * c_end`. A, the stability constant, defaults to a tenth of
//! N. An iteration of P game pairs has a score from −2P to 2P: it moves θ as far as P of
//! fishtest's single-pair iterations would.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::param_file::TunedParam;

/// What decides the schedule, apart from the parameters.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Schedule {
    /// N, the iterations of the run.
    pub iterations: u64,
    /// A.
    pub stability: f64,
    /// α (0.602 by default).
    pub alpha: f64,
    /// γ (0.101 by default).
    pub gamma: f64,
}

impl Schedule {
    /// The perturbation of `param` at iteration `k`.
    pub fn c_k(&self, param: &TunedParam, k: u64) -> f64 {
        let c = param.c_end * (self.iterations as f64).powf(self.gamma);
        c / ((k + 1) as f64).powf(self.gamma)
    }

    /// The gain of `param` at iteration `k`.
    pub fn a_k(&self, param: &TunedParam, k: u64) -> f64 {
        let n = self.iterations as f64;
        let a = param.r_end * param.c_end * param.c_end * (self.stability + n).powf(self.alpha);
        a / ((k + 1) as f64 + self.stability).powf(self.alpha)
    }
}

/// A value stream for iteration `k` of the run seeded `seed`, one per purpose: the same
/// (seed, k, purpose) always gives the same stream, whatever ran before.
pub fn iteration_seed(seed: u64, k: u64, purpose: u64) -> u64 {
    splitmix(splitmix(seed ^ splitmix(k.wrapping_add(1))) ^ purpose)
}

fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The signs Δ of iteration `k`, one ±1 per parameter.
pub fn signs(seed: u64, k: u64, count: usize) -> Vec<f64> {
    let mut rng = StdRng::seed_from_u64(iteration_seed(seed, k, 1));
    (0..count)
        .map(|_| if rng.gen::<bool>() { 1.0 } else { -1.0 })
        .collect()
}

/// The value sent for `param` at `theta` moved by `offset`: clamped to its range and rounded
/// (the options are integers).
pub fn sent_value(param: &TunedParam, theta: f64, offset: f64) -> i64 {
    (theta + offset).clamp(param.min, param.max).round() as i64
}

/// θ after one iteration that scored `score` for θ+cΔ, each parameter clamped to its range.
pub fn update(
    params: &[TunedParam],
    schedule: &Schedule,
    theta: &[f64],
    signs: &[f64],
    k: u64,
    score: i64,
) -> Vec<f64> {
    params
        .iter()
        .zip(theta.iter().zip(signs))
        .map(|(param, (&value, &sign))| {
            let step = schedule.a_k(param, k) * score as f64 * sign / schedule.c_k(param, k);
            (value + step).clamp(param.min, param.max)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param() -> TunedParam {
        TunedParam {
            name: "X".into(),
            start: 100.0,
            min: 0.0,
            max: 200.0,
            c_end: 4.0,
            r_end: 0.002,
        }
    }

    #[test]
    fn the_last_iteration_has_the_end_values() {
        let schedule = Schedule {
            iterations: 50,
            stability: 5.0,
            alpha: 0.602,
            gamma: 0.101,
        };
        let p = param();
        assert!((schedule.c_k(&p, 49) - 4.0).abs() < 1e-12);
        // One point of score moves θ by r_end * c_end at the end.
        let step = schedule.a_k(&p, 49) / schedule.c_k(&p, 49);
        assert!((step - 0.008).abs() < 1e-12);
        // Larger at the start.
        assert!(schedule.c_k(&p, 0) > 5.0);
        let moved = update(
            std::slice::from_ref(&p),
            &schedule,
            &[100.0],
            &[-1.0],
            49,
            10,
        );
        assert!((moved[0] - (100.0 - 0.08)).abs() < 1e-9);
        assert_eq!(
            update(&[p], &schedule, &[199.99], &[1.0], 0, 1000),
            vec![200.0]
        );
    }

    #[test]
    fn signs_depend_on_seed_and_iteration_only() {
        assert_eq!(signs(7, 3, 16), signs(7, 3, 16));
        assert_ne!(signs(7, 3, 64), signs(7, 4, 64));
        assert_ne!(signs(7, 3, 64), signs(8, 3, 64));
        assert!(signs(1, 0, 64).iter().all(|s| s.abs() == 1.0));
        assert_eq!(sent_value(&param(), 199.0, 4.0), 200);
        assert_eq!(sent_value(&param(), 80.4, 0.2), 81);
    }
}
