//! `lielow train` fits the network to `lielow datagen` games; `lielow tune` fits the hand-set
//! evaluation's weights to the same games (Texel tuning).
//!
//! Both minimise the mean squared error between a win probability and a target that blends
//! the search's score and the game's result ([`data::Target`]). The network's training is
//! deterministic: the same files and flags give the same bytes on any machine with any number
//! of cores (the batch is cut into a fixed number of parts whose gradients are summed in order).

pub mod data;
mod error;
pub mod mirror;
pub mod model;
mod texel;

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rayon::prelude::*;

use crate::files::{self, Output};
use crate::printer::Printer;
use crate::progress::Progress;
use data::{sigmoid, Target};
pub use error::TrainError;
use lielow_engine::nnue::{Buckets, MAX_BUCKETS};
use model::{Adam, Hidden, Model};
pub use texel::{tune, TuneArgs};

/// Parts a batch is cut into: fixed, so that the sums (and the network) do not depend on the
/// number of threads.
const BATCH_PARTS: usize = 8;

/// Flags of `lielow train`.
#[derive(Args, Debug)]
pub struct TrainArgs {
    /// Data files written by `lielow datagen`.
    #[arg(long, required = true, num_args = 1..)]
    data: Vec<PathBuf>,
    /// The network file to write.
    #[arg(short, long, value_name = "FILE")]
    output: PathBuf,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    epochs: u32,
    /// Positions per optimizer step.
    #[arg(long, default_value_t = 16384, value_parser = clap::value_parser!(u32).range(64..=10_000_000))]
    batch: u32,
    /// Adam's step size at the start (it falls to a twentieth by the last epoch, on a cosine).
    #[arg(long, default_value_t = 0.002)]
    rate: f32,
    /// Weight of the search score in the target (the rest is the game's result).
    #[arg(long, default_value_t = 0.9)]
    lambda: f32,
    /// Centipawns per unit of the logistic (the fitted K of `lielow tune`).
    #[arg(long, default_value_t = 120.0)]
    scale: f32,
    /// Every Nth game goes to the validation set.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(2..))]
    validation_every: u64,
    /// Seed of the initial weights and the shuffles.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Output buckets: output layers per board size, chosen by the stacks on the board (evenly
    /// from one stack to the start position's); 1 writes a network file of version 1.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=MAX_BUCKETS as i64))]
    buckets: u32,
    /// Also train on each training position's left-right mirror image (the rules are
    /// symmetric: the same score and result); the validation set stays as played.
    #[arg(long)]
    mirror: bool,
    /// Worker threads (default: the machine's cores; the result does not depend on it).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
    threads: Option<u32>,
}

/// `lielow train`: trains the network, prints the loss table and writes the network.
pub fn run(args: &TrainArgs) -> Result<(), TrainError> {
    let target = check_target(args.lambda, args.scale)?;
    if !(args.rate.is_finite() && args.rate > 0.0) {
        return Err(TrainError::Rate(args.rate));
    }
    pool(args.threads)?.install(|| train_in_pool(args, target))
}

/// Checks the numeric flags clap cannot.
fn check_target(lambda: f32, scale: f32) -> Result<Target, TrainError> {
    if !(0.0..=1.0).contains(&lambda) {
        return Err(TrainError::Lambda(lambda));
    }
    if !(scale.is_finite() && scale >= 1.0) {
        return Err(TrainError::Scale(scale));
    }
    Ok(Target { lambda, scale })
}

/// A thread pool of `threads` threads, or the machine's.
fn pool(threads: Option<u32>) -> Result<rayon::ThreadPool, TrainError> {
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(threads) = threads {
        builder = builder.num_threads(threads as usize);
    }
    builder.build().map_err(TrainError::Pool)
}

fn train_in_pool(args: &TrainArgs, target: Target) -> Result<(), TrainError> {
    let started = Instant::now();
    let inputs: Vec<&std::path::Path> = args.data.iter().map(PathBuf::as_path).collect();
    files::check_outputs(&inputs, &[&args.output])?;
    let data = data::load(
        &args.data,
        data::Loading {
            validation_every: args.validation_every,
            with_features: false,
            mirror: args.mirror,
        },
    )?;
    // Fail on an unwritable output now, not after the training; the old network stays until
    // the new one is complete (an interrupted run leaves it whole).
    let mut output = Output::create(&args.output)?;
    crate::files::remove_unfinished_on_interrupt();
    let train_set = &data.train;
    let validation = &data.validation;
    // A reader that goes away early costs the table, not the network.
    let mut out = Printer::new();
    out.line(format_args!(
        "{} training{} and {} validation positions, read in {:.1} s",
        train_set.examples.len(),
        if args.mirror {
            " (half of them mirrored)"
        } else {
            ""
        },
        validation.examples.len(),
        started.elapsed().as_secs_f64()
    ));
    let hand_set = hand_set_loss(validation, &target);
    out.line(format_args!(
        "hand-set evaluation: validation loss {hand_set:.6}"
    ));
    out.line("");
    out.line(format_args!(
        "| epoch | step size | training loss | validation loss | seconds |"
    ));
    out.line(format_args!(
        "|------:|----------:|--------------:|----------------:|--------:|"
    ));

    let buckets =
        Buckets::even(args.buckets as usize).expect("clap keeps --buckets within 1..=MAX_BUCKETS");
    let mut model = Model::with_buckets(args.seed, buckets);
    let parameters = model.parameters();
    let mut adam = Adam::new(parameters);
    let mut rng = StdRng::seed_from_u64(args.seed);
    let mut order: Vec<u32> = (0..train_set.examples.len() as u32).collect();
    let mut parts = vec![vec![0.0f32; parameters]; BATCH_PARTS];
    let mut gradient = vec![0.0f32; parameters];
    let mut validation_loss = 0.0;
    let batches = train_set.examples.len().div_ceil(args.batch as usize) as u64;
    let bar = Progress::bar(u64::from(args.epochs) * batches, "batches");
    for epoch in 0..args.epochs {
        let progress = f64::from(epoch) / f64::from(args.epochs);
        let rate = args.rate
            * (0.05 + 0.95 * 0.5 * (1.0 + (std::f64::consts::PI * progress).cos()) as f32);
        order.shuffle(&mut rng);
        let epoch_text = format!("epoch {} of {}", epoch + 1, args.epochs);
        bar.set(u64::from(epoch) * batches, epoch_text);
        let mut training_loss = 0.0f64;
        for batch in order.chunks(args.batch as usize) {
            let part_len = batch.len().div_ceil(BATCH_PARTS);
            let used = batch.len().div_ceil(part_len);
            let scale = 1.0 / batch.len() as f32;
            training_loss += parts
                .par_iter_mut()
                .zip(batch.par_chunks(part_len))
                .map(|(part, indices)| {
                    part.fill(0.0);
                    let mut hidden = Hidden::default();
                    let mut loss = 0.0f64;
                    for &index in indices {
                        let example = &train_set.examples[index as usize];
                        let p = sigmoid(model.forward(train_set, example, &mut hidden));
                        let error = p - target.of(example.score, example.result);
                        loss += f64::from(error * error);
                        let d_output = 2.0 * error * p * (1.0 - p) * scale;
                        model.backward(train_set, example, &hidden, d_output, part);
                    }
                    loss
                })
                // Collected, then summed in order: the same total with any number of threads.
                .collect::<Vec<f64>>()
                .iter()
                .sum::<f64>();
            gradient
                .par_chunks_mut(1 << 16)
                .enumerate()
                .for_each(|(k, out)| {
                    out.copy_from_slice(&parts[0][k << 16..][..out.len()]);
                    for part in &parts[1..used] {
                        for (o, g) in out.iter_mut().zip(&part[k << 16..]) {
                            *o += g;
                        }
                    }
                });
            adam.step(&mut model.params, &gradient, rate);
            model.clip();
            bar.step();
        }
        training_loss /= train_set.examples.len() as f64;
        validation_loss = model::loss(&model, validation, &target);
        bar.suspend(|| {
            out.line(format_args!(
                "| {:>5} | {:>9.6} | {:>13.6} | {:>15.6} | {:>7.1} |",
                epoch + 1,
                rate,
                training_loss,
                validation_loss,
                started.elapsed().as_secs_f64()
            ))
        });
    }
    bar.clear();

    // Named only when there are several, so that a network of one bucket is what it was.
    let buckets_text = match args.buckets {
        1 => String::new(),
        count => format!(", {count} output buckets by stacks"),
    };
    let description = format!(
        "lielow {} train: {} epochs{}, batch {}, step size {}, lambda {}, scale {}, seed {}, every {}th game for validation{}; {} training and {} validation positions; validation loss {:.6} (hand-set evaluation {:.6}); data: {}",
        env!("CARGO_PKG_VERSION"),
        args.epochs,
        buckets_text,
        args.batch,
        args.rate,
        args.lambda,
        args.scale,
        args.seed,
        args.validation_every,
        if args.mirror { ", mirrored training positions" } else { "" },
        train_set.examples.len(),
        validation.examples.len(),
        validation_loss,
        hand_set,
        data.sources.join("; ")
    );
    let network = model.quantize(args.scale, description);
    output.write(&network.to_bytes())?;
    output.commit()?;
    out.line("");
    out.line(format_args!(
        "wrote {} ({:.1} s in all)",
        args.output.display(),
        started.elapsed().as_secs_f64()
    ));
    Ok(())
}

/// The loss of the hand-set evaluation on `set`, its score read through the same logistic.
fn hand_set_loss(set: &data::Set, target: &Target) -> f64 {
    let total: f64 = set
        .examples
        .iter()
        .map(|example| {
            let p = sigmoid(f32::from(example.hand_set) / target.scale);
            let error = p - target.of(example.score, example.result);
            f64::from(error * error)
        })
        .sum();
    total / set.examples.len() as f64
}
