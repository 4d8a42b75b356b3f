//! The command line: `lielow <subcommand>`, parsed with clap.

use std::io::Write;
use std::time::Instant;

use clap::{Parser, Subcommand};

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

#[derive(Subcommand, Debug)]
enum Command {
    /// Count the legal move sequences of DEPTH plies (the move generator's test).
    Perft {
        /// Number of plies.
        depth: u32,
        /// Start from this LFEN position instead of the start position.
        #[arg(long)]
        fen: Option<String>,
        /// Board size of the start position (ignored with --fen, whose board sets the size).
        #[arg(long, default_value_t = 8, value_parser = lielow_rules::board::parse_size)]
        size: usize,
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
    /// Play and analyse in the browser: a local web server speaking UGI to the engines.
    Gui(crate::gui::GuiArgs),
    /// Prove the value of a position: win or loss in N moves for the side to move, with a line.
    Solve(crate::analysis::command::SolveArgs),
    /// Print random openings (LFEN, one per line), optionally only roughly balanced ones.
    Openings(crate::matchplay::command::OpeningsArgs),
    /// Search the fixed bench positions to DEPTH (one thread, small hash) and print the total
    /// as `<N> nodes <M> nps`: the node count is the engine's signature.
    Bench {
        /// Depth of each search (default: bench::DEFAULT_DEPTH).
        #[arg(value_parser = clap::value_parser!(u32).range(1..=64))]
        depth: Option<u32>,
        /// Search threads. The node count is the signature only with 1; more threads measure the
        /// time to reach the same depth (the parallel speed-up).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=MAX_THREADS as i64))]
        threads: u32,
        /// The evaluation: `embedded` (the signature's), `hand-set`, or a network file.
        #[arg(long, default_value = "embedded", value_name = "EVAL")]
        eval: lielow_engine::nnue::EvalChoice,
    },
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
    match cli.command {
        // No subcommand: speak UGI on stdin/stdout until `quit` or end of input.
        None => lielow_engine::session::run(std::io::stdin().lock(), Box::new(std::io::stdout())),
        Some(Command::Perft {
            depth,
            fen,
            size,
            divide,
            threads,
        }) => {
            let position = match fen {
                Some(text) => match Position::from_lfen(&text) {
                    Ok(position) => position,
                    Err(error) => {
                        let fields: Vec<&str> = text.split_whitespace().collect();
                        match lielow_engine::ugi::lfen_word(&fields, error) {
                            Some(word) => eprintln!("lielow perft: {error} (found '{word}')"),
                            None => eprintln!("lielow perft: {error}"),
                        }
                        return 2;
                    }
                },
                None => Position::start(BoardSize::from_n(size).expect("clap checked the size")),
            };
            run_perft(&position, depth, divide, threads as usize);
            0
        }
        Some(Command::Match(args)) => crate::matchplay::command::run_match(&args),
        Some(Command::Openings(args)) => crate::matchplay::command::run_openings(&args),
        Some(Command::Board(args)) => crate::analysis::command::run_board(&args),
        Some(Command::Solve(args)) => crate::analysis::command::run_solve(&args),
        Some(Command::Analyse(args)) => crate::analysis::command::run_analyse(&args),
        Some(Command::Gui(args)) => crate::gui::run(&args),
        Some(Command::Datagen(args)) => crate::datagen::run(&args),
        Some(Command::Train(args)) => crate::train::run(&args),
        Some(Command::Tune(args)) => crate::train::tune(&args),
        Some(Command::Bench {
            depth,
            threads,
            eval,
        }) => {
            let depth = depth.unwrap_or(bench::DEFAULT_DEPTH);
            let network = match eval.load() {
                Ok(network) => network,
                Err(error) => {
                    eprintln!("lielow bench: --eval {eval}: {error}");
                    return 2;
                }
            };
            let result = bench::run_with_threads(depth, threads as usize, network);
            eprintln!("time {} ms", result.time_ms);
            println!("{} nodes {} nps", result.nodes, result.nps);
            0
        }
    }
}

fn run_perft(position: &Position, depth: u32, divide: bool, threads: usize) {
    let started = Instant::now();
    let nodes = if depth == 0 {
        1
    } else if divide || threads > 1 {
        let split = perft::divide(position, depth, threads);
        if divide {
            let mut out = std::io::stdout().lock();
            for (mv, count) in &split {
                let _ = writeln!(out, "{mv}: {count}");
            }
        }
        split.iter().map(|(_, count)| count).sum()
    } else {
        perft::perft(position, depth)
    };
    let elapsed = started.elapsed();
    println!("Nodes searched: {nodes}");
    let seconds = elapsed.as_secs_f64();
    let nps = if seconds > 0.0 {
        nodes as f64 / seconds
    } else {
        0.0
    };
    eprintln!("time {:.3} s, {:.0} nodes/s", seconds, nps);
}
