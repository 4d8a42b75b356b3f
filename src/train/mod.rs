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
use lielow_engine::nnue::EvalChoice;
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
    /// Also train on each training position's left-right mirror image (the rules are
    /// symmetric: the same score and result); the validation set stays as played.
    #[arg(long)]
    mirror: bool,
    /// Worker threads (default: the machine's cores; the result does not depend on it).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
    threads: Option<u32>,
    /// Go on from a network instead of random weights: `embedded` (the shipped one) or a
    /// network file.
    #[arg(long, value_name = "NETWORK")]
    init: Option<EvalChoice>,
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

/// Trains in the thread pool: reads the data, prints the table's head, runs the epochs (a row
/// each) and writes the network.
fn train_in_pool(args: &TrainArgs, target: Target) -> Result<(), TrainError> {
    let started = Instant::now();
    let inputs: Vec<&std::path::Path> = args.data.iter().map(PathBuf::as_path).collect();
    files::check_outputs(&inputs, &[&args.output])?;
    let (model, origin) = first_model(args)?;
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
    // A reader that goes away early costs the table, not the network.
    let mut out = Printer::new();
    let hand_set = print_head(&mut out, args, &data, &target, started);

    let mut trainer = Trainer::new(model, args.seed, data.train.examples.len());
    let mut validation_loss = 0.0;
    let batches = data.train.examples.len().div_ceil(args.batch as usize) as u64;
    let bar = Progress::bar(u64::from(args.epochs) * batches, "batches");
    for epoch in 0..args.epochs {
        let rate = step_size(args, epoch);
        bar.set(
            u64::from(epoch) * batches,
            format!("epoch {} of {}", epoch + 1, args.epochs),
        );
        let training_loss = trainer.epoch(&data.train, &target, args.batch as usize, rate, &bar);
        validation_loss = model::loss(&trainer.model, &data.validation, &target);
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

    let description = description(args, &origin, &data, validation_loss, hand_set);
    let network = trainer.model.quantize(args.scale, description);
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

/// Prints what was read, the hand-set evaluation's loss and the head of the epochs' table; the
/// hand-set loss.
fn print_head(
    out: &mut Printer,
    args: &TrainArgs,
    data: &data::Data,
    target: &Target,
    started: Instant,
) -> f64 {
    out.line(format_args!(
        "{} training{} and {} validation positions, read in {:.1} s",
        data.train.examples.len(),
        if args.mirror {
            " (half of them mirrored)"
        } else {
            ""
        },
        data.validation.examples.len(),
        started.elapsed().as_secs_f64()
    ));
    let hand_set = hand_set_loss(&data.validation, target);
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
    hand_set
}

/// Adam's step size in `epoch`: `--rate` falling on a cosine to a twentieth by the last epoch.
fn step_size(args: &TrainArgs, epoch: u32) -> f32 {
    let progress = f64::from(epoch) / f64::from(args.epochs);
    args.rate * (0.05 + 0.95 * 0.5 * (1.0 + (std::f64::consts::PI * progress).cos()) as f32)
}

/// The network in training, its optimizer, and the buffers of a step.
struct Trainer {
    model: Model,
    adam: Adam,
    /// The training positions' order, shuffled each epoch.
    order: Vec<u32>,
    rng: StdRng,
    /// One gradient per part of a batch ([`BATCH_PARTS`]).
    parts: Vec<Vec<f32>>,
    /// The parts summed.
    gradient: Vec<f32>,
}

impl Trainer {
    /// Training of `model` on `examples` training positions, shuffled from `seed`.
    fn new(model: Model, seed: u64, examples: usize) -> Trainer {
        let parameters = model.parameters();
        Trainer {
            adam: Adam::new(parameters),
            model,
            order: (0..examples as u32).collect(),
            rng: StdRng::seed_from_u64(seed),
            parts: vec![vec![0.0f32; parameters]; BATCH_PARTS],
            gradient: vec![0.0f32; parameters],
        }
    }

    /// One pass over `train_set` in a new order, in batches of `batch` positions at step size
    /// `rate`, a step of `bar` a batch; the mean training loss.
    fn epoch(
        &mut self,
        train_set: &data::Set,
        target: &Target,
        batch: usize,
        rate: f32,
        bar: &Progress,
    ) -> f64 {
        self.order.shuffle(&mut self.rng);
        let order = std::mem::take(&mut self.order);
        let mut training_loss = 0.0f64;
        for indices in order.chunks(batch) {
            training_loss += self.step(train_set, indices, target, rate);
            bar.step();
        }
        self.order = order;
        training_loss / train_set.examples.len() as f64
    }

    /// One optimizer step on the positions `batch` of `train_set`: the gradients of the batch's
    /// parts computed in parallel and summed in order, then Adam; the batch's summed loss.
    fn step(&mut self, train_set: &data::Set, batch: &[u32], target: &Target, rate: f32) -> f64 {
        let Trainer {
            model,
            adam,
            parts,
            gradient,
            ..
        } = self;
        let part_len = batch.len().div_ceil(BATCH_PARTS);
        let used = batch.len().div_ceil(part_len);
        let scale = 1.0 / batch.len() as f32;
        let loss = parts
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
        adam.step(&mut model.params, &gradient[..], rate);
        model.clip();
        loss
    }
}

/// The network file's description: the command's settings, where training started, the data
/// and the losses.
fn description(
    args: &TrainArgs,
    origin: &str,
    data: &data::Data,
    validation_loss: f64,
    hand_set: f64,
) -> String {
    format!(
        "lielow {} train: {}{} epochs, batch {}, step size {}, lambda {}, scale {}, seed {}, every {}th game for validation{}; {} training and {} validation positions; validation loss {:.6} (hand-set evaluation {:.6}); data: {}",
        env!("CARGO_PKG_VERSION"),
        origin,
        args.epochs,
        args.batch,
        args.rate,
        args.lambda,
        args.scale,
        args.seed,
        args.validation_every,
        if args.mirror { ", mirrored training positions" } else { "" },
        data.train.examples.len(),
        data.validation.examples.len(),
        validation_loss,
        hand_set,
        data.sources.join("; ")
    )
}

/// The model training starts from, and how the description says so: `--init`'s network
/// (named with the first words of its own description), or random weights drawn from
/// `--seed` (said by nothing).
fn first_model(args: &TrainArgs) -> Result<(Model, String), TrainError> {
    let Some(init) = &args.init else {
        return Ok((Model::new(args.seed), String::new()));
    };
    let network = match init.load() {
        Ok(Some(network)) => network,
        Ok(None) => return Err(TrainError::InitHandSet),
        Err(error) => return Err(TrainError::Init(init.to_string(), error)),
    };
    let words: Vec<&str> = network.description().split_whitespace().take(12).collect();
    let origin = format!("from {init} ({} ...), ", words.join(" "));
    Ok((Model::from_network(&network, args.scale), origin))
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
