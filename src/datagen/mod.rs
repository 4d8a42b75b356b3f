//! `lielow datagen`: self-play games for training an evaluation, written as the positions
//! with the search's score, the ply and the game's result ([`format`]).
//!
//! Game `g` of a run is the same whatever the thread, the shard or the machine: its random
//! opening and board size come from the seed and `g`, and each game is searched by a fresh
//! one-thread searcher at a fixed number of nodes (deterministic). Games are written in their
//! order in the run, so the same settings write the same bytes. A run resumes from the games
//! already in its file (same settings required); `--shard K/N` plays games K-1, K-1+N, ...,
//! and `--join` puts the shards of a run back together into the very file of the whole run
//! ([`join`]).
//!
//! Not every position is kept: the evaluation should learn quiet positions, so positions whose
//! best move is a capture, whose side to move has its king attacked, or whose score is a
//! proven result are dropped.

pub mod format;
pub mod join;

use std::fs::OpenOptions;
use std::io::Write;
use std::ops::Range;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

use clap::{Args, ValueEnum};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::file_error::FileError;
use crate::files;
use crate::openings::random_opening;
use crate::pool::{self, InOrder};
use crate::progress::Progress;
use crate::shard::Shard;
use format::{FormatError, GameSamples, Sample};
use lielow_engine::limits::Limits;
use lielow_engine::nnue::{EvalChoice, NetError, Network};
use lielow_engine::search::Searcher;
use lielow_rules::attacks;
use lielow_rules::board::BoardSize;
use lielow_rules::position::Position;

/// The longest game played, in plies (Lielow games end far sooner).
const MAX_GAME_PLIES: usize = 600;

/// Which boards a run plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Sizes {
    /// 8x8 only.
    #[value(name = "8")]
    Eight,
    /// 9x9 only.
    #[value(name = "9")]
    Nine,
    /// Each game's board drawn from its seed, half and half.
    Both,
}

/// Flags of `lielow datagen`.
#[derive(Args, Debug)]
pub struct DatagenArgs {
    /// The data file (created, or resumed when it holds games of the same settings; with
    /// --join, the whole run's file, replaced).
    #[arg(short, long, value_name = "FILE")]
    output: PathBuf,
    /// Games in the whole run (a shard plays its share).
    #[arg(long)]
    games: u64,
    /// Play nothing: join the shard files of one run (every K/N of its N, each complete) into
    /// --output, the very file the run writes in one piece. Give only --games besides.
    #[arg(long, num_args = 1.., value_name = "SHARD",
          conflicts_with_all = ["size", "nodes", "random_plies", "seed", "concurrency", "threads", "shard", "eval"])]
    join: Vec<PathBuf>,
    /// Boards to play.
    #[arg(long, value_enum, default_value_t = Sizes::Both)]
    size: Sizes,
    /// Nodes per move.
    #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: u64,
    /// Random plies before the search plays.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u64).range(0..=40))]
    random_plies: u64,
    /// Seed of the openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once (one search thread each; default: the machine's cores).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=256))]
    concurrency: Option<u32>,
    /// Refused with a message naming --concurrency: everywhere else `--threads` is a search's
    /// threads, and a datagen game is searched by one thread so that it is reproducible.
    #[arg(long, hide = true, value_name = "N")]
    threads: Option<String>,
    /// Play only share K of N of the games.
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
    /// The evaluation the games are played with: `embedded` (the shipped network),
    /// `hand-set`, or a network file.
    #[arg(long, default_value = "embedded", value_name = "EVAL")]
    eval: EvalChoice,
}

/// What decides a run's games (a resumed run must have the same).
#[derive(Clone)]
pub struct Settings {
    /// Boards.
    pub sizes: Sizes,
    /// Nodes per move.
    pub nodes: u64,
    /// Random opening plies.
    pub random_plies: usize,
    /// Seed.
    pub seed: u64,
    /// This run's share.
    pub shard: Shard,
    /// The network the games are played with (`None`: the hand-set evaluation).
    pub network: Option<Arc<Network>>,
}

impl Settings {
    /// The header text. The network is named by a hash of its file's bytes: a resumed run
    /// must play with the same one.
    pub fn text(&self) -> String {
        let eval = match &self.network {
            None => "hand-set".to_string(),
            Some(network) => format!("network-{:016x}", fnv1a(&network.to_bytes())),
        };
        format!(
            "seed={} nodes={} size={:?} random_plies={} {} eval={eval}",
            self.seed,
            self.nodes,
            self.sizes,
            self.random_plies,
            shard_word(self.shard)
        )
    }

    /// A header's settings text read as the shard it was played for and the text of the whole
    /// run (the same with `shard=1/1`); `None` when it names no valid shard.
    pub fn split_shard(text: &str) -> Option<(Shard, String)> {
        let mut shard = None;
        let words: Vec<String> = text
            .split(' ')
            .map(|word| match word.strip_prefix(SHARD_KEY) {
                Some(value) if shard.is_none() => {
                    shard = Some(value.parse::<Shard>().ok());
                    shard_word(Shard::WHOLE)
                }
                _ => word.to_owned(),
            })
            .collect();
        Some((shard??, words.join(" ")))
    }
}

/// The key of the shard in the settings text.
const SHARD_KEY: &str = "shard=";

/// `shard=K/N`, as the settings text says it.
fn shard_word(shard: Shard) -> String {
    format!("{SHARD_KEY}{}/{}", shard.index, shard.count)
}

/// The 64-bit FNV-1a hash: a fingerprint of a network file, not a security measure.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Whether the side to move's king can be captured at once.
fn king_attacked(position: &Position) -> bool {
    let us = position.side_to_move();
    position
        .king(us)
        .is_some_and(|king| attacks::attacked(position, us.opponent(), king))
}

/// Plays game `game` of a run with `settings`, in `searcher` (one thread).
pub fn play_game(game: u64, settings: &Settings, searcher: &mut Searcher) -> GameSamples {
    let mut rng = StdRng::seed_from_u64(
        settings
            .seed
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .wrapping_add(game),
    );
    // Drawn, not by the game's parity: shards take every N-th game.
    let nine: bool = rng.gen();
    let size = match settings.sizes {
        Sizes::Eight => BoardSize::Eight,
        Sizes::Nine => BoardSize::Nine,
        Sizes::Both if nine => BoardSize::Nine,
        Sizes::Both => BoardSize::Eight,
    };
    let opening = (0..1000)
        .find_map(|_| random_opening(size, settings.random_plies, &mut rng))
        .unwrap_or_else(|| random_opening(size, 0, &mut rng).expect("the start position"));
    let mut position = opening.position();
    let mut ply = opening.moves.len();
    searcher.new_game();
    let limits = Limits {
        nodes: Some(settings.nodes),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    let mut kept: Vec<(Position, u16, i16)> = Vec::new();
    while !position.is_game_over() && ply < MAX_GAME_PLIES {
        let result = searcher.search(&position, &limits, &stop, &mut |_| {});
        let Some(best) = result.best_move else { break };
        let quiet = !best.is_capture() && !king_attacked(&position) && !result.score.is_proven();
        if quiet {
            let score = result.score.0.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
            kept.push((position, ply as u16, score));
        }
        position = position.play(best);
        ply += 1;
    }
    let winner = position.winner();
    let samples = kept
        .into_iter()
        .filter_map(|(position, ply, score)| {
            let result = match winner {
                Some(w) if w == position.side_to_move() => 1,
                Some(_) => -1,
                None => return None, // an unfinished game teaches no result
            };
            Some(Sample {
                position,
                ply,
                score,
                result,
            })
        })
        .collect();
    GameSamples { game, samples }
}

/// An `--eval` that does not load (`lielow datagen`, `lielow bench`).
#[derive(Debug)]
pub struct EvalFlagError {
    /// The flag's value.
    pub eval: String,
    /// Why it does not load.
    pub error: NetError,
}

impl std::fmt::Display for EvalFlagError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "--eval {}: {}", self.eval, self.error)
    }
}

impl std::error::Error for EvalFlagError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

impl EvalFlagError {
    /// Loads the network `eval` names.
    pub fn load(eval: &EvalChoice) -> Result<Option<Arc<Network>>, EvalFlagError> {
        eval.load().map_err(|error| EvalFlagError {
            eval: eval.to_string(),
            error,
        })
    }
}

/// Why `lielow datagen` stopped.
#[derive(Debug)]
pub enum DatagenError {
    /// The `--eval` network does not load.
    Eval(EvalFlagError),
    /// The output cannot be created or written.
    File(FileError),
    /// The output to resume is not a datagen file.
    Data {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        error: FormatError,
    },
    /// The output to resume was written with other settings.
    OtherSettings {
        /// The file.
        path: PathBuf,
        /// Its settings.
        settings: String,
    },
    /// The output to resume holds games of another order (another shard).
    OutOfOrder(PathBuf),
    /// `--threads`, which would mean search threads: games at once is `--concurrency`.
    ThreadsFlag,
    /// `--join` refused its shard files (nothing written).
    Join(join::JoinError),
    /// Writing games failed during the run.
    WriteFailed {
        /// The file.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
}

impl std::fmt::Display for DatagenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DatagenError::Eval(error) => error.fmt(f),
            DatagenError::Join(error) => error.fmt(f),
            DatagenError::ThreadsFlag => f.write_str(
                "--threads: each game is searched by one thread (so that it is reproducible); \
                 the games played at once are --concurrency N",
            ),
            DatagenError::File(error) => error.fmt(f),
            DatagenError::Data { path, error } => write!(f, "{}: {error}", path.display()),
            DatagenError::OtherSettings { path, settings } => write!(
                f,
                "{} was written with other settings ({settings}); give another --output",
                path.display()
            ),
            DatagenError::OutOfOrder(path) => write!(f, "{}: games out of order", path.display()),
            DatagenError::WriteFailed { path, error } => {
                write!(f, "writing {} failed: {error}", path.display())
            }
        }
    }
}

impl std::error::Error for DatagenError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            DatagenError::Eval(error) => Some(error),
            DatagenError::Join(error) => Some(error),
            DatagenError::File(error) => Some(error),
            DatagenError::Data { error, .. } => Some(error),
            DatagenError::WriteFailed { error, .. } => Some(error),
            _ => None,
        }
    }
}

impl From<FileError> for DatagenError {
    fn from(error: FileError) -> DatagenError {
        DatagenError::File(error)
    }
}

/// `lielow datagen`: plays and writes the games (or resumes a run, or joins its shards).
pub fn run(args: &DatagenArgs) -> Result<(), DatagenError> {
    if !args.join.is_empty() {
        return join::run(&args.join, &args.output, args.games).map_err(DatagenError::Join);
    }
    if args.threads.is_some() {
        return Err(DatagenError::ThreadsFlag);
    }
    let settings = Settings {
        sizes: args.size,
        nodes: args.nodes,
        random_plies: args.random_plies as usize,
        seed: args.seed,
        shard: args.shard.unwrap_or(Shard::WHOLE),
        network: EvalFlagError::load(&args.eval).map_err(DatagenError::Eval)?,
    };
    let total = settings.shard.jobs_of(args.games);
    let path = &args.output;
    if let EvalChoice::File(network) = &args.eval {
        files::check_outputs(&[network], &[path])?;
    }
    let done = resume_or_start(path, &settings)?;
    let mut out = std::io::BufWriter::new(
        OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(|error| FileError::write(path, error))?,
    );
    if done >= total {
        eprintln!(
            "lielow datagen: {} already holds all {total} games",
            path.display()
        );
        return Ok(());
    }
    let threads = args.concurrency.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |t| t as usize,
    );
    match play_and_write(&settings, done..total, threads, &mut out) {
        Some(error) => Err(DatagenError::WriteFailed {
            path: path.clone(),
            error,
        }),
        None => Ok(()),
    }
}

/// Resume: the number of games already in `path`, which must be this run's first ones (the file
/// is cut after its last complete game); a missing or empty file starts the run with its header.
fn resume_or_start(path: &PathBuf, settings: &Settings) -> Result<u64, DatagenError> {
    // A missing or empty file starts a run; anything else must be a readable data file (never
    // a FIFO or a device, which would block or never end).
    let existing = match std::fs::metadata(path) {
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => None,
        _ => Some(files::read_bytes(path, files::limits::DATA)?).filter(|bytes| !bytes.is_empty()),
    };
    let Some(bytes) = existing else {
        let mut handle =
            std::fs::File::create(path).map_err(|error| FileError::write(path, error))?;
        format::write_header(&mut handle, &settings.text())
            .map_err(|error| FileError::write(path, error))?;
        return Ok(0);
    };
    let file = format::read_games(&bytes).map_err(|error| DatagenError::Data {
        path: path.clone(),
        error,
    })?;
    if file.settings != settings.text() {
        return Err(DatagenError::OtherSettings {
            path: path.clone(),
            settings: file.settings,
        });
    }
    for (k, game) in file.games.iter().enumerate() {
        if game.game != settings.shard.job(k as u64) {
            return Err(DatagenError::OutOfOrder(path.clone()));
        }
    }
    let handle = OpenOptions::new()
        .write(true)
        .open(path)
        .map_err(|error| FileError::write(path, error))?;
    handle
        .set_len(file.complete as u64)
        .map_err(|error| FileError::write(path, error))?;
    Ok(file.games.len() as u64)
}

/// Plays this shard's games numbered `games` on `threads` threads, each with its own one-thread
/// searcher, and appends them to `out` in their order in the run, whatever order the threads
/// finish in; the first write error, if any.
fn play_and_write(
    settings: &Settings,
    games: Range<u64>,
    threads: usize,
    out: &mut impl Write,
) -> Option<std::io::Error> {
    let (done, total) = (games.start, games.end);
    let started = Instant::now();
    let progress = Progress::bar(total - done, "games");
    let mut write_error = None;
    let mut in_order = InOrder::starting_at(done);
    let (mut written, mut positions) = (done, 0u64);
    let start_worker = || {
        let mut searcher = Searcher::new();
        searcher.set_network(settings.network.clone());
        let _ = searcher.set_hash_mb(16);
        searcher
    };
    pool::run(
        games,
        threads,
        start_worker,
        |searcher, k, outbox| {
            outbox.send((k, play_game(settings.shard.job(k), settings, searcher)))
        },
        |(k, game)| {
            for game in in_order.put(k, game) {
                if let Err(e) = format::write_game(&mut *out, &game).and_then(|()| out.flush()) {
                    write_error.get_or_insert(e);
                }
                positions += game.samples.len() as u64;
                written += 1;
                let seconds = started.elapsed().as_secs_f64().max(1e-9);
                let per_game = seconds / (written - done) as f64;
                let rate = format!(
                    "positions {positions}  {:.0} positions/s",
                    positions as f64 / seconds
                );
                if written % 10 == 0 || written == total {
                    progress.log(&format!(
                        "games {written}/{total}  {rate}  ETA {:.0} s",
                        per_game * (total - written) as f64
                    ));
                }
                progress.set(written - done, rate);
            }
            true
        },
    );
    progress.finish();
    write_error
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shard_header_splits_into_its_shard_and_the_whole_run_header() {
        let settings = |shard| Settings {
            sizes: Sizes::Both,
            nodes: 300,
            random_plies: 8,
            seed: 4,
            shard,
            network: None,
        };
        let shard = Shard { index: 2, count: 3 };
        let (found, whole) = Settings::split_shard(&settings(shard).text()).unwrap();
        assert_eq!((found.index, found.count), (2, 3));
        assert_eq!(whole, settings(Shard::WHOLE).text());
        assert!(whole.contains(" shard=1/1 "), "{whole}");
        assert!(Settings::split_shard("seed=1 nodes=5").is_none());
        assert!(Settings::split_shard("seed=1 shard=4/3").is_none());
    }
}
