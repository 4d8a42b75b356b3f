//! `lielow spsa`: its flags, its modes (a whole run, a shard, an update, the parameter list)
//! and what it prints.

use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;
use lielow_rules::board::BoardSize;

use super::error::SpsaError;
use super::gains::Schedule;
use super::param_file;
use super::play;
use super::state::{Partial, Setup, State};
use crate::printer::Printer;
use crate::progress::Progress;
use crate::shard::Shard;

/// Flags of `lielow spsa`.
#[derive(Args, Debug)]
#[command(after_help = "\
Modes:
  lielow spsa --params FILE --engine CMD [option.K=V]... --state S [flags]   a new run, played here
  lielow spsa --resume --state S                     go on from S (its own flags)
  lielow spsa ... --init                             write the new run's state S and stop
  lielow spsa --state S --shard K/N --partial P      play share K of N of S's next iteration
  lielow spsa --state S --update P...                add up the shards' partials, move theta
  lielow spsa --list [--size N]                      the engine's tunable numbers as a FILE

FILE: one parameter a line, `NAME, START, MIN, MAX, C_END, R_END` (see docs/tuning.md, \"The \
parameter file\"). Iteration k plays --pairs game pairs (same opening, colours swapped) of \
theta+c_k*delta against theta-c_k*delta, and moves theta by a_k*(wins-losses)*delta/c_k, \
with c_k = C_END*N^gamma/(k+1)^gamma and a_k = R_END*C_END^2*(A+N)^alpha/(k+1+A)^alpha.")]
pub struct SpsaArgs {
    /// The parameter file of a new run.
    #[arg(long, value_name = "FILE")]
    params: Option<PathBuf>,
    /// The tuned engine: a command line, then optional option.NAME=VALUE settings kept fixed.
    #[arg(long, num_args = 1.., value_name = "CMD [option.K=V]...")]
    engine: Vec<String>,
    /// The state file: written after every iteration (temporary file, then rename).
    #[arg(long, value_name = "FILE", required_unless_present = "list")]
    state: Option<PathBuf>,
    /// Iterations of the run (N).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    iterations: u64,
    /// Game pairs per iteration.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pairs: u64,
    /// Clock per side, [MOVES/]BASE+INC in seconds.
    #[arg(long, value_name = "[MOVES/]BASE+INC")]
    tc: Option<String>,
    /// Time per move in milliseconds (100 when no limit is given).
    #[arg(long, value_name = "MS")]
    movetime: Option<u64>,
    /// Nodes per move (with one thread the games are then deterministic).
    #[arg(long)]
    nodes: Option<u64>,
    /// Depth per move.
    #[arg(long)]
    depth: Option<u32>,
    /// Board size.
    #[arg(long, default_value_t = BoardSize::Eight)]
    size: BoardSize,
    /// Random plies of each pair's opening.
    #[arg(long, default_value_t = 8, value_name = "K")]
    random_plies: usize,
    /// Seed of the perturbations and openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The stability constant A (default: a tenth of --iterations).
    #[arg(long, value_name = "A")]
    stability: Option<f64>,
    /// α of the gain a_k.
    #[arg(long, default_value_t = 0.602)]
    alpha: f64,
    /// γ of the perturbation c_k.
    #[arg(long, default_value_t = 0.101)]
    gamma: f64,
    /// Games played at once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    concurrency: u32,
    /// Latency allowance in ms before a slow move is a time forfeit.
    #[arg(long, default_value_t = 50, value_name = "MS")]
    latency_ms: u64,
    /// How long (ms) an engine may stay silent past its budget before it is hung.
    #[arg(long, value_name = "MS")]
    timeout_ms: Option<u64>,
    /// Continue the run of --state.
    #[arg(long, conflicts_with_all = ["params", "engine", "init"])]
    resume: bool,
    /// Write the new run's state and stop (for the cluster driver).
    #[arg(long, requires = "params")]
    init: bool,
    /// Play at most this many iterations now, then stop (the state keeps the rest).
    #[arg(long, value_name = "M")]
    stop_after: Option<u64>,
    /// Play only share K of N of the next iteration's game pairs; write them to --partial.
    #[arg(long, value_name = "K/N", requires = "partial", conflicts_with_all = ["params", "resume", "init", "update"])]
    shard: Option<Shard>,
    /// Where --shard writes its partial result.
    #[arg(long, value_name = "FILE", requires = "shard")]
    partial: Option<PathBuf>,
    /// Add up the partial results of every shard of the next iteration and move θ.
    #[arg(long, num_args = 1.., value_name = "FILE", conflicts_with_all = ["params", "resume", "init"])]
    update: Vec<PathBuf>,
    /// Print the engine's tunable numbers as a parameter file, at their defaults on --size,
    /// and stop.
    #[arg(long, conflicts_with_all = ["params", "engine", "state", "resume", "init", "shard", "update"])]
    list: bool,
}

/// `lielow spsa`.
pub fn run(args: &SpsaArgs) -> Result<(), SpsaError> {
    if args.list {
        Printer::new().text(&param_file::engine_defaults(args.size));
        return Ok(());
    }
    let path = args.state.as_deref().ok_or(SpsaError::Missing("--state"))?;
    if let (Some(shard), Some(partial)) = (args.shard, &args.partial) {
        let state = unfinished(path)?;
        play::check_engine(&state.setup)?;
        let result = play::play_iteration(&state, shard, args.concurrency as usize)?;
        result.write(partial)?;
        eprintln!(
            "lielow spsa: iteration {} shard {}/{}: plus {} minus {}",
            state.iteration + 1,
            shard.index,
            shard.count,
            result.plus_wins,
            result.minus_wins
        );
        return Ok(());
    }
    if !args.update.is_empty() {
        let mut state = unfinished(path)?;
        let mut partials = Vec::new();
        for file in &args.update {
            partials.push((file.display().to_string(), Partial::read(file)?));
        }
        state.update(&partials)?;
        state.write(path)?;
        eprintln!("{}", progress_line(&state, None));
        if state.finished() {
            Printer::new().text(&table(&state));
        }
        return Ok(());
    }
    let mut state = if args.resume {
        unfinished(path)?
    } else {
        let state = State::new(setup(args)?);
        if path.exists() {
            return Err(SpsaError::StateExists(path.to_owned()));
        }
        play::check_engine(&state.setup)?;
        state.write(path)?;
        if args.init {
            return Ok(());
        }
        state
    };
    if args.resume {
        play::check_engine(&state.setup)?;
    }
    let _ = ctrlc::set_handler(|| {
        crate::process::kill_all_engines();
        eprintln!("\nlielow spsa: interrupted; the state file holds the last whole iteration");
        std::process::exit(130);
    });
    let started = Instant::now();
    let mut played = 0;
    let left = state.setup.schedule.iterations - state.iteration;
    let progress = Progress::bar(
        args.stop_after.map_or(left, |most| most.min(left)),
        "iterations",
    );
    while !state.finished() && args.stop_after.is_none_or(|most| played < most) {
        let partial = play::play_iteration(&state, Shard::WHOLE, args.concurrency as usize)?;
        state.update(&[("this run".to_owned(), partial)])?;
        state.write(path)?;
        played += 1;
        let per_iteration = started.elapsed().as_secs_f64() / played as f64;
        progress.println(&progress_line(&state, Some(per_iteration)));
        progress.set(
            played,
            format!(
                "iteration {} of {}",
                state.iteration, state.setup.schedule.iterations
            ),
        );
    }
    progress.finish();
    Printer::new().text(&table(&state));
    Ok(())
}

/// The state of `path`, refused when every iteration is done.
fn unfinished(path: &Path) -> Result<State, SpsaError> {
    let state = State::read(path)?;
    if state.finished() {
        return Err(SpsaError::Finished(path.to_owned()));
    }
    Ok(state)
}

/// A new run's setup from the flags.
fn setup(args: &SpsaArgs) -> Result<Setup, SpsaError> {
    let path = args
        .params
        .as_ref()
        .ok_or(SpsaError::Missing("--params (or --resume)"))?;
    if args.engine.is_empty() {
        return Err(SpsaError::Missing("--engine"));
    }
    let text = std::fs::read_to_string(path)
        .map_err(|error| crate::file_error::FileError::read(path, error))?;
    let params = param_file::parse(&text).map_err(|error| SpsaError::ParamFile {
        path: path.clone(),
        error,
    })?;
    let stability = args.stability.unwrap_or(args.iterations as f64 / 10.0);
    if !(stability.is_finite() && stability >= 0.0) {
        return Err(SpsaError::Flag(
            "--stability: expected a number of at least 0",
        ));
    }
    if !(args.alpha.is_finite() && args.alpha > 0.0 && args.gamma.is_finite() && args.gamma > 0.0) {
        return Err(SpsaError::Flag(
            "--alpha and --gamma: expected numbers above 0",
        ));
    }
    let setup = Setup {
        engine: args.engine.clone(),
        params,
        schedule: Schedule {
            iterations: args.iterations,
            stability,
            alpha: args.alpha,
            gamma: args.gamma,
        },
        pairs: args.pairs,
        tc: args.tc.clone(),
        movetime: args.movetime,
        nodes: args.nodes,
        depth: args.depth,
        size: args.size,
        random_plies: args.random_plies,
        seed: args.seed,
        latency_ms: args.latency_ms,
        timeout_ms: args.timeout_ms,
    };
    // Refuse bad engine words and limits now, not at the first iteration.
    play::base_engine(&setup)?;
    play::limits(&setup)?;
    Ok(setup)
}

/// `spsa 3/100 games 16 (+9 -7) eta 4m10s | LMRBase 80.41 LMRDivisor 199.73`.
fn progress_line(state: &State, per_iteration: Option<f64>) -> String {
    let last = state.history.last();
    let (plus, minus) = last.map_or((0, 0), |r| (r.plus_wins, r.minus_wins));
    let mut line = format!(
        "spsa {}/{} games {} (+{plus} -{minus})",
        state.iteration,
        state.setup.schedule.iterations,
        plus + minus
    );
    if let Some(seconds) = per_iteration {
        let left = state.setup.schedule.iterations - state.iteration;
        line.push_str(&format!(" eta {}", duration(seconds * left as f64)));
    }
    line.push_str(" |");
    for (param, value) in state.setup.params.iter().zip(&state.theta) {
        line.push_str(&format!(" {} {value:.2}", param.name));
    }
    line
}

fn duration(seconds: f64) -> String {
    let seconds = seconds.round() as u64;
    match seconds {
        0..60 => format!("{seconds}s"),
        60..3600 => format!("{}m{:02}s", seconds / 60, seconds % 60),
        _ => format!("{}h{:02}m", seconds / 3600, seconds % 3600 / 60),
    }
}

/// The final (or current) table: each parameter's start, value, what the engine gets and range.
fn table(state: &State) -> String {
    let width = state
        .setup
        .params
        .iter()
        .map(|p| p.name.len())
        .max()
        .unwrap_or(4)
        .max(9);
    let mut text = format!(
        "SPSA after {} of {} iterations ({} games)\n{:<width$} {:>10} {:>10} {:>8} {:>10} {:>10}\n",
        state.iteration,
        state.setup.schedule.iterations,
        state
            .history
            .iter()
            .map(|r| r.plus_wins + r.minus_wins)
            .sum::<u64>(),
        "parameter",
        "start",
        "value",
        "option",
        "min",
        "max"
    );
    for (param, value) in state.setup.params.iter().zip(&state.theta) {
        text.push_str(&format!(
            "{:<width$} {:>10.2} {:>10.2} {:>8} {:>10} {:>10}\n",
            param.name,
            param.start,
            value,
            super::gains::sent_value(param, *value, 0.0),
            param.min,
            param.max
        ));
    }
    text
}
