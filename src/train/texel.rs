//! Texel tuning: the hand-set evaluation is a dot product of features and weights
//! ([`eval::features`], [`eval::WEIGHTS`]), so fitting its weights to games is a logistic
//! regression. First the logistic's scale K is fitted to the game results with today's
//! weights (so the weights keep their centipawn meaning), then every weight but the unit
//! (`stacks`) and the height-1 count (which the stack count already measures) is fitted by
//! Adam on the whole training set at once.

use std::path::PathBuf;

use clap::Args;
use rayon::prelude::*;

use super::data::{self, Set, Target};
use super::TrainError;
use crate::printer::Printer;
use lielow_engine::eval::{self, FEATURES, WEIGHTS};

/// Flags of `lielow tune`.
#[derive(Args, Debug)]
pub struct TuneArgs {
    /// Data files written by `lielow datagen`.
    #[arg(long, required = true, num_args = 1..)]
    data: Vec<PathBuf>,
    /// Weight of the search score in the target (the rest is the game's result).
    #[arg(long, default_value_t = 0.5)]
    lambda: f32,
    /// Optimizer steps.
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    steps: u32,
    /// Every Nth game goes to the validation set.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(2..))]
    validation_every: u64,
}

/// Weights kept as they are: the unit, and the height-1 count (colinear with the stack count).
const FIXED: [usize; 2] = [eval::STACKS, eval::HEIGHTS];

fn evaluate(weights: &[f64; FEATURES], features: &[i32; FEATURES]) -> f64 {
    weights
        .iter()
        .zip(features)
        .map(|(w, &x)| w * f64::from(x))
        .sum()
}

/// The expectation a score of `eval` stands for, on the logistic of scale `k`.
fn expectation(eval: f64, k: f64) -> f64 {
    1.0 / (1.0 + (-eval / k).exp())
}

/// Mean squared error of `expectation(eval, k)` against the targets of `set`.
fn loss(set: &Set, weights: &[f64; FEATURES], k: f64, target: impl Fn(usize) -> f64 + Sync) -> f64 {
    let total: f64 = set
        .eval_features
        .par_iter()
        .enumerate()
        .map(|(i, features)| {
            let p = expectation(evaluate(weights, features), k);
            (p - target(i)).powi(2)
        })
        .sum();
    total / set.eval_features.len() as f64
}

/// The K that minimises the loss against the results alone, by golden-section search.
fn fit_scale(set: &Set, weights: &[f64; FEATURES]) -> f64 {
    let results = |i: usize| if set.examples[i].result > 0 { 1.0 } else { 0.0 };
    let (mut low, mut high) = (10.0f64, 3000.0f64);
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = high - ratio * (high - low);
        let b = low + ratio * (high - low);
        if loss(set, weights, a, results) < loss(set, weights, b, results) {
            high = b;
        } else {
            low = a;
        }
    }
    (low + high) / 2.0
}

/// `lielow tune`: fits the weights and prints them, with the losses before and after.
pub fn tune(args: &TuneArgs) -> Result<(), TrainError> {
    let target = Target {
        lambda: args.lambda,
        scale: 1.0,
    };
    if !(0.0..=1.0).contains(&args.lambda) {
        return Err(TrainError::Lambda(args.lambda));
    }
    let data = data::load(
        &args.data,
        data::Loading {
            validation_every: args.validation_every,
            with_features: true,
            mirror: false,
        },
    )?;
    let initial = WEIGHTS.map(f64::from);
    let k = fit_scale(&data.train, &initial);
    let mut out = Printer::new();
    out.line(format_args!(
        "{} training and {} validation positions; fitted scale K = {k:.1}",
        data.train.examples.len(),
        data.validation.examples.len()
    ));
    let target = Target {
        scale: k as f32,
        ..target
    };
    let targets = |set: &Set| -> Vec<f64> {
        set.examples
            .iter()
            .map(|e| f64::from(target.of(e.score, e.result)))
            .collect()
    };
    let train_targets = targets(&data.train);
    let validation_targets = targets(&data.validation);
    let train_loss = |w: &[f64; FEATURES]| loss(&data.train, w, k, |i| train_targets[i]);
    let validation_loss =
        |w: &[f64; FEATURES]| loss(&data.validation, w, k, |i| validation_targets[i]);

    let mut weights = initial;
    let mut adam = WeightAdam::default();
    for step in 1..=args.steps {
        let gradient = gradient(&data.train, &weights, k, &train_targets);
        adam.step(
            &mut weights,
            &gradient,
            data.train.eval_features.len() as f64,
            step,
        );
        if step % 500 == 0 || step == args.steps {
            eprintln!("step {step}: training loss {:.6}", train_loss(&weights));
        }
    }
    let rounded = weights.map(|w| w.round());
    print_weights(&mut out, &rounded);
    out.line("");
    out.line(format_args!("| loss | before | after |"));
    out.line(format_args!("|---|---:|---:|"));
    out.line(format_args!(
        "| training | {:.6} | {:.6} |",
        train_loss(&initial),
        train_loss(&rounded)
    ));
    out.line(format_args!(
        "| validation | {:.6} | {:.6} |",
        validation_loss(&initial),
        validation_loss(&rounded)
    ));
    out.line("");
    let list: Vec<String> = rounded.iter().map(|w| format!("{}", *w as i64)).collect();
    out.line(format_args!("WEIGHTS = [{}]", list.join(", ")));
    Ok(())
}

/// The gradient of the summed loss on `set` (its targets `targets`) at `weights`, scale `k`.
fn gradient(set: &Set, weights: &[f64; FEATURES], k: f64, targets: &[f64]) -> [f64; FEATURES] {
    set.eval_features
        .par_iter()
        .enumerate()
        .fold(
            || [0.0f64; FEATURES],
            |mut sum, (i, features)| {
                let p = expectation(evaluate(weights, features), k);
                let d = 2.0 * (p - targets[i]) * p * (1.0 - p) / k;
                for (s, &x) in sum.iter_mut().zip(features) {
                    *s += d * f64::from(x);
                }
                sum
            },
        )
        .reduce(
            || [0.0f64; FEATURES],
            |mut a, b| {
                a.iter_mut().zip(b).for_each(|(a, b)| *a += b);
                a
            },
        )
}

/// Adam over the weights (step size 1, one centipawn), the fixed ones left alone: its moment
/// estimates.
#[derive(Default)]
struct WeightAdam {
    m: [f64; FEATURES],
    v: [f64; FEATURES],
}

impl WeightAdam {
    /// Step number `step` (from 1) along the mean of `gradient`, summed over `n` positions.
    fn step(
        &mut self,
        weights: &mut [f64; FEATURES],
        gradient: &[f64; FEATURES],
        n: f64,
        step: u32,
    ) {
        let rate = 1.0;
        let WeightAdam { m, v } = self;
        for j in 0..FEATURES {
            if FIXED.contains(&j) {
                continue;
            }
            let g = gradient[j] / n;
            m[j] = 0.9 * m[j] + 0.1 * g;
            v[j] = 0.999 * v[j] + 0.001 * g * g;
            let m_hat = m[j] / (1.0 - 0.9f64.powi(step as i32));
            let v_hat = v[j] / (1.0 - 0.999f64.powi(step as i32));
            weights[j] -= rate * m_hat / (v_hat.sqrt() + 1e-12);
        }
    }
}

/// The table of the weights, before (the hand-set ones) and after.
fn print_weights(out: &mut Printer, rounded: &[f64; FEATURES]) {
    out.line("");
    out.line(format_args!("| weight | before | after |"));
    out.line(format_args!("|---|---:|---:|"));
    for j in 0..FEATURES {
        out.line(format_args!(
            "| {} | {} | {} |",
            eval::feature_name(j),
            WEIGHTS[j],
            rounded[j] as i64
        ));
    }
}
