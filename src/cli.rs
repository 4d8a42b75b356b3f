//! The command line: `lielow <subcommand>`, parsed with clap.

use std::time::Instant;

use clap::{Parser, Subcommand};

use crate::analysis::command;
use crate::analysis::command_error::AnalysisError;
use crate::datagen::{DatagenError, EvalFlagError};
use crate::matchplay::command::{run_match, run_openings};
use crate::matchplay::command_error::{MatchError, OpeningsError};
use crate::position_arg::{PositionArg, PositionArgError};
use crate::printer::Printer;
use crate::train::TrainError;
use lielow_engine::bench;
use lielow_engine::search::MAX_THREADS;
use lielow_rules::board::BoardSize;
use lielow_rules::perft;
use lielow_rules::position::Position;

#[derive(Parser, Debug)]
#[command(
    name = "lielow",
    version,
    about = "A Lielow engine: rules, perft, UGI protocol, search and matches"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

/// The deepest `lielow perft`.
const MAX_PERFT_DEPTH: u32 = 16;

#[derive(Subcommand, Debug)]
enum Command {
    /// Count the legal move sequences of DEPTH plies (the move generator's test).
    Perft {
        /// Number of plies (at most 16: deeper counts take years from any real position, and
        /// from the start position overflow 64 bits past depth 11).
        #[arg(value_parser = clap::value_parser!(u32).range(0..=MAX_PERFT_DEPTH as i64))]
        depth: u32,
        /// The position: `startpos` (the default), an LFEN, or either followed by `moves m1
        /// m2 ...` (quote it: it holds spaces).
        #[arg(conflicts_with = "fen")]
        position: Option<String>,
        /// The position, as a flag (the same as the positional POSITION, for older scripts).
        #[arg(long, value_name = "POSITION")]
        fen: Option<String>,
        /// Board size of `startpos` (an LFEN's board sets its own size).
        #[arg(long, default_value_t = BoardSize::Eight)]
        size: BoardSize,
        /// Print the count below each root move.
        #[arg(long)]
        divide: bool,
        /// Split the root moves over this many threads.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
        threads: u32,
    },
    /// Play engines (UGI programs or built-in players) against each other: matches, round-robins,
    /// SPRT, game records.
    Match(Box<crate::matchplay::command::MatchArgs>),
    /// Draw a position as an SVG picture (board, stacks, crowns, last move, arrows).
    Board(crate::analysis::command::BoardArgs),
    /// Review games: each move against the engine's best, labels, accuracy, as a table, JSON
    /// or an HTML page.
    Analyse(crate::analysis::command::AnalyseArgs),
    /// Self-play games for training an evaluation: positions with scores and results, in a
    /// binary file.
    Datagen(crate::datagen::DatagenArgs),
    /// Train the evaluation network on datagen files and write it (the loss table on stdout).
    Train(crate::train::TrainArgs),
    /// Fit the hand-set evaluation's weights to datagen files (Texel tuning).
    Tune(crate::train::TuneArgs),
    /// Tune numeric engine options by SPSA: game pairs of theta+c*delta against theta-c*delta
    /// through the match runner, a state file after every iteration, shards for clusters.
    Spsa(Box<crate::spsa::command::SpsaArgs>),
    /// Play and analyse in the browser: a local web server speaking UGI to the engines.
    Gui(crate::gui::GuiArgs),
    /// Prove the value of a position: win or loss in N moves for the side to move, with a line.
    Solve(crate::analysis::command::SolveArgs),
    /// Find puzzles in games (or in games the engine plays): positions whose side to move wins
    /// by force in N moves with one first move only, both proven; rated, written to a file.
    Puzzles(crate::puzzles::command::PuzzlesArgs),
    /// Print random openings (LFEN, one per line), optionally only roughly balanced ones.
    Openings(crate::matchplay::command::OpeningsArgs),
    /// Search the fixed bench positions to DEPTH (one thread, small hash) and print the total
    /// as `<N> nodes <M> nps`: the node count is the engine's signature.
    Bench {
        /// Depth of each search.
        #[arg(default_value_t = bench::DEFAULT_DEPTH, value_parser = clap::value_parser!(u32).range(1..=64))]
        depth: u32,
        /// Search threads. The node count is the signature only with 1; more threads measure the
        /// time to reach the same depth (the parallel speed-up).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=MAX_THREADS as i64))]
        threads: u32,
        /// The evaluation: `embedded` (the signature's), `hand-set`, or a network file.
        #[arg(long, default_value = "embedded", value_name = "EVAL")]
        eval: lielow_engine::nnue::EvalChoice,
    },
}

/// Why a subcommand failed: its own error, printed once, by [`run`], as
/// `lielow <command>: <error>` on stderr.
#[derive(Debug)]
pub enum CliError {
    /// `lielow perft` of a position that does not read.
    Perft(PositionArgError),
    /// `lielow bench --eval` that does not load.
    Bench(EvalFlagError),
    /// `lielow match`.
    Match(MatchError),
    /// `lielow openings`.
    Openings(OpeningsError),
    /// `lielow board`.
    Board(AnalysisError),
    /// `lielow solve`.
    Solve(AnalysisError),
    /// `lielow analyse`.
    Analyse(AnalysisError),
    /// `lielow datagen`.
    Datagen(DatagenError),
    /// `lielow train`.
    Train(TrainError),
    /// `lielow tune`.
    Tune(TrainError),
    /// `lielow spsa`.
    Spsa(crate::spsa::error::SpsaError),
    /// `lielow puzzles`.
    Puzzles(crate::puzzles::command::PuzzlesError),
}

impl CliError {
    /// The subcommand's name, which starts the message.
    pub fn command(&self) -> &'static str {
        match self {
            CliError::Perft(_) => "perft",
            CliError::Bench(_) => "bench",
            CliError::Match(_) => "match",
            CliError::Openings(_) => "openings",
            CliError::Board(_) => "board",
            CliError::Solve(_) => "solve",
            CliError::Analyse(_) => "analyse",
            CliError::Datagen(_) => "datagen",
            CliError::Train(_) => "train",
            CliError::Tune(_) => "tune",
            CliError::Spsa(_) => "spsa",
            CliError::Puzzles(_) => "puzzles",
        }
    }

    /// The exit status: 2 (bad input) but for `lielow openings` short of positions (1).
    pub fn exit_code(&self) -> i32 {
        match self {
            CliError::Openings(error) => error.exit_code(),
            _ => 2,
        }
    }

    /// Whether the error is said on stderr (not when the reader of stdout went away).
    pub fn is_reported(&self) -> bool {
        match self {
            CliError::Openings(error) => error.is_reported(),
            _ => true,
        }
    }
}

impl std::fmt::Display for CliError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CliError::Perft(error) => error.fmt(f),
            CliError::Bench(error) => error.fmt(f),
            CliError::Match(error) => error.fmt(f),
            CliError::Openings(error) => error.fmt(f),
            CliError::Board(error) | CliError::Solve(error) | CliError::Analyse(error) => {
                error.fmt(f)
            }
            CliError::Datagen(error) => error.fmt(f),
            CliError::Train(error) | CliError::Tune(error) => error.fmt(f),
            CliError::Spsa(error) => error.fmt(f),
            CliError::Puzzles(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for CliError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(match self {
            CliError::Perft(error) => error,
            CliError::Bench(error) => error,
            CliError::Match(error) => error,
            CliError::Openings(error) => error,
            CliError::Board(error) | CliError::Solve(error) | CliError::Analyse(error) => error,
            CliError::Datagen(error) => error,
            CliError::Train(error) | CliError::Tune(error) => error,
            CliError::Spsa(error) => error,
            CliError::Puzzles(error) => error,
        })
    }
}

/// Runs the program with the process arguments; returns the exit code.
pub fn run() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => {
            let _ = error.print();
            return if error.use_stderr() { 2 } else { 0 };
        }
    };
    let result = match cli.command {
        // No subcommand: speak UGI on stdin/stdout until `quit` or end of input.
        None => {
            return lielow_engine::session::run(
                std::io::stdin().lock(),
                Box::new(std::io::stdout()),
            )
        }
        Some(command) => run_command(command),
    };
    match result {
        Ok(status) => status,
        Err(error) => {
            if error.is_reported() {
                eprintln!("lielow {}: {error}", error.command());
            }
            error.exit_code()
        }
    }
}

/// Runs a subcommand; its exit status (0, or the GUI's, which reports its own errors), or the
/// error for [`run`] to print.
fn run_command(command: Command) -> Result<i32, CliError> {
    match command {
        Command::Perft {
            depth,
            position,
            fen,
            size,
            divide,
            threads,
        } => {
            let text = position.or(fen);
            let position = PositionArg::read(text.as_deref().unwrap_or("startpos"), size)
                .map_err(CliError::Perft)?
                .position;
            run_perft(&position, depth, divide, threads as usize);
        }
        Command::Match(args) => run_match(&args).map_err(CliError::Match)?,
        Command::Openings(args) => run_openings(&args).map_err(CliError::Openings)?,
        Command::Board(args) => command::run_board(&args).map_err(CliError::Board)?,
        Command::Solve(args) => command::run_solve(&args).map_err(CliError::Solve)?,
        Command::Puzzles(args) => crate::puzzles::command::run(&args).map_err(CliError::Puzzles)?,
        Command::Analyse(args) => command::run_analyse(&args).map_err(CliError::Analyse)?,
        Command::Datagen(args) => crate::datagen::run(&args).map_err(CliError::Datagen)?,
        Command::Train(args) => crate::train::run(&args).map_err(CliError::Train)?,
        Command::Tune(args) => crate::train::tune(&args).map_err(CliError::Tune)?,
        Command::Spsa(args) => crate::spsa::command::run(&args).map_err(CliError::Spsa)?,
        Command::Gui(args) => return Ok(crate::gui::run(&args)),
        Command::Bench {
            depth,
            threads,
            eval,
        } => {
            let network = EvalFlagError::load(&eval).map_err(CliError::Bench)?;
            let result = bench::run_with_threads(depth, threads as usize, network);
            eprintln!("time {} ms", result.time_ms);
            Printer::new().line(format_args!("{} nodes {} nps", result.nodes, result.nps));
        }
    }
    Ok(0)
}

fn run_perft(position: &Position, depth: u32, divide: bool, threads: usize) {
    let started = Instant::now();
    let mut out = Printer::new();
    let nodes = if depth == 0 {
        1
    } else if divide || threads > 1 {
        let split = perft::divide(position, depth, threads);
        if divide {
            for (mv, count) in &split {
                out.line(format_args!("{mv}: {count}"));
            }
        }
        split.iter().map(|(_, count)| count).sum()
    } else {
        perft::perft(position, depth)
    };
    let elapsed = started.elapsed();
    out.line(format_args!("Nodes searched: {nodes}"));
    let seconds = elapsed.as_secs_f64();
    let nps = if seconds > 0.0 {
        nodes as f64 / seconds
    } else {
        0.0
    };
    eprintln!("time {:.3} s, {:.0} nodes/s", seconds, nps);
}
