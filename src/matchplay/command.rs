//! The `lielow match` and `lielow openings` subcommands: their flags, checks and output.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::Args;

use lielow_rules::board::BoardSize;

use super::apgame_file::ApgameFile;
use super::command_error::{MatchError, OpeningsError, MAX_GAMES, MAX_OPENINGS};
use super::crowded;
use super::limits::MoveLimits;
use super::merge;
use super::outputs::{self, MatchOutputs, SharedOutputs};
use super::pgn_file::PgnFile;
use super::report::{self, Tally};
use super::resume::RecordsFile;
use super::runner::{self, MatchConfig, PairResult, Recorded};
use super::stats::Sprt;
use crate::files::{self, Output};
use crate::openings::{self, OpeningFilter, OpeningsOrder};
use crate::players::engine_spec::EngineSpec;
use crate::pool::InOrder;
use crate::printer::Printer;
use crate::progress::Progress;
use crate::shard::Shard;

/// The most distinct random openings a match makes; a longer match cycles through them.
const MAX_RANDOM_OPENINGS: usize = 100_000;

/// Flags of `lielow match`.
#[derive(Args, Debug)]
#[command(after_help = "\
Engines: --engine takes the command line (split like a shell does: quotes and backslashes \
work; quote a command with arguments as one value) or a built-in player, then optional \
per-engine settings, which belong to the engine before them:
  --engine \"./lielow\" name=new option.Hash=64 option.Threads=1 --engine builtin:greedy
  --engine \"/path/to/other --uci-mode\" name=other
  --engine ./lielow name=fast movetime=50 (this engine's own movetime, for time-odds matches)
  --engine ./lielow name=pondering ponder (thinks on the opponent's time, as UCI's ponder)
Built-in players: builtin:random, builtin:greedy (king capture, else the tallest capture, else \
random, never bearing off its own king unless forced), builtin:mcts (UCT with random playouts; \
builtin:mcts:N for N iterations per move, builtin:mcts:200ms for a time per move; otherwise it \
follows the match's limits).

Games: each opening is played twice with colours swapped; --games counts games per pairing and is \
rounded up to an even number. Two engines play a match; more play a round-robin (every pairing), or \
with --gauntlet the first engine plays each of the others.

Time: --tc BASE+INC (seconds) gives each side a clock kept by the runner: the wall time from `go` \
to `bestmove` is taken off, and a move slower than the clock plus --latency-ms is a time forfeit. \
--tc MOVES/BASE+INC adds BASE again after every MOVES moves of a side, and `go` sends movestogo. \
--movetime MS is sent in `go`, and a move slower than MS plus --latency-ms is a time forfeit. \
--depth and --nodes are sent in `go`. Without any of these, --movetime 100. An engine silent for \
--timeout-ms past its budget (default 5000 ms; 60000 ms from `go` when only --depth/--nodes limit \
it) is declared hung (no-reply), killed, and restarted for its next game. A crash (the engine exits) \
or an illegal or unparsable move loses the game too; the match always goes on.

Shards: --shard K/N plays the game pairs numbered K-1 modulo N of the match (same openings, seeds \
and colours); `lielow match --merge FILE... [--json FILE]` adds up the shards' --json summaries \
into the table one run would print.

Output: on stderr, `Finished game N (BLUE vs RED): 1-0 {Blue wins: REASON}` as each game ends \
(1-0 Blue, player 1, won; 0-1 Red won; a forfeit adds what went wrong) and a progress line \
(updated in place on a terminal, one line per game pair otherwise), then a table on stdout; --json FILE writes the same summary as JSON, --records FILE one \
line per game (see docs/formats.md, \"Game records\"), --pgn FILE every game as PGN (docs/formats.md, \"PGN\"; rate a \
tournament with Ordo: docs/matches.md), --apgame FILE the games as Abstract Play game records (docs/formats.md, \
\"Abstract Play records\").")]
pub struct MatchArgs {
    /// An engine: a command line or builtin:random|greedy|mcts[:N|:Tms], then optional
    /// name=NAME, movetime=MS and option.NAME=VALUE (repeat --engine for each engine).
    #[arg(
        long,
        required_unless_present = "merge",
        num_args = 1..,
        value_name = "CMD [name=N] [option.K=V]..."
    )]
    engine: Vec<String>,
    /// Instead of playing: add up the --json summaries of a match's shards (--shard K/N) and
    /// print the table (and --json) that one run of those games would give.
    #[arg(long, num_args = 1.., value_name = "FILE", conflicts_with_all = ["engine", "records", "apgame", "shard"])]
    merge: Vec<PathBuf>,
    /// Games per pairing (rounded up to whole pairs).
    #[arg(long, default_value_t = 10)]
    games: usize,
    /// Games played at once (each with its own engine processes).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    concurrency: u32,
    /// Clock per side: [MOVES/]BASE+INC in seconds, e.g. 10+0.1, or 40/60+0 (60 s for every
    /// 40 moves).
    #[arg(long, value_name = "[MOVES/]BASE+INC")]
    tc: Option<String>,
    /// Time per move in milliseconds.
    #[arg(long, value_name = "MS")]
    movetime: Option<u64>,
    /// Nodes per move.
    #[arg(long)]
    nodes: Option<u64>,
    /// Depth per move.
    #[arg(long)]
    depth: Option<u32>,
    /// Board size of the start position and of random openings.
    #[arg(long, default_value_t = BoardSize::Eight)]
    size: BoardSize,
    /// Openings file: one LFEN per line, optionally followed by ` moves ...`; game pair k plays
    /// the k-th opening of --openings-order from --openings-start, cycling.
    #[arg(long, value_name = "FILE", conflicts_with = "random_plies")]
    openings: Option<PathBuf>,
    /// The order of the file's openings: as in the file, or shuffled by --seed (the same
    /// shuffle for the same seed, in every shard).
    #[arg(long, value_enum, default_value_t = OpeningsOrder::Sequential, requires = "openings")]
    openings_order: OpeningsOrder,
    /// Start at the N-th opening of that order (from 1, as cutechess's start=N).
    #[arg(long, value_name = "N", default_value_t = 1, requires = "openings")]
    openings_start: usize,
    /// Random openings of K plies from the start position (default: the start position itself).
    #[arg(long, value_name = "K")]
    random_plies: Option<usize>,
    /// Seed of random openings and built-in players: the same seed gives the same openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Play only share K of N of the match's game pairs (the pairs numbered K-1 modulo N, with
    /// the openings, seeds and colours the whole match gives them); combine the shards' --json
    /// summaries with --merge. A shard never stops early on its SPRT: the merge decides.
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
    /// Sequential probability ratio test, e.g. elo0=0,elo1=5,alpha=0.05,beta=0.05 (two engines;
    /// the first is the one tested): the match stops when a bound is crossed (never before 10
    /// game pairs).
    #[arg(long, value_name = "elo0=E0,elo1=E1[,alpha=A,beta=B]")]
    sprt: Option<String>,
    /// Write one line per game to FILE, as each game ends (the file must be new or empty,
    /// unless --resume).
    #[arg(long, value_name = "FILE")]
    records: Option<PathBuf>,
    /// Write every game as PGN to FILE, as each game ends (for Ordo or BayesElo; the file must
    /// be new or empty, unless --resume, which rebuilds it from the records).
    #[arg(long, value_name = "FILE", conflicts_with = "merge")]
    pgn: Option<PathBuf>,
    /// Continue the match whose --records FILE this is (killed or interrupted): its games are
    /// not played again, the others are played as one uninterrupted run would play them. A
    /// records file of other settings is refused; a missing or empty one starts the match.
    /// A --pgn file is rebuilt from the records' games.
    #[arg(long, requires = "records")]
    resume: bool,
    /// Write the final summary as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Write the games as Abstract Play game records (a JSON array) to FILE, rewritten after
    /// each game (the file must be new, unless --resume: it is then rebuilt from the --records
    /// file's games).
    #[arg(long, value_name = "FILE")]
    apgame: Option<PathBuf>,
    /// With three or more engines: the first plays each of the others only.
    #[arg(long)]
    gauntlet: bool,
    /// Latency allowance in ms before a slow move is a time forfeit.
    #[arg(long, default_value_t = 50, value_name = "MS")]
    latency_ms: u64,
    /// How long (ms) an engine may stay silent past its budget before it is hung (no-reply);
    /// also the wait for `ugiok` and `readyok`.
    #[arg(long, value_name = "MS")]
    timeout_ms: Option<u64>,
}

/// Flags of `lielow openings`.
#[derive(Args, Debug)]
pub struct OpeningsArgs {
    /// Random plies played from the start position.
    #[arg(long, required_unless_present = "crowded")]
    plies: Option<usize>,
    /// Print crowded middle-game positions instead: random games that mostly avoid captures,
    /// sampled at 20 to 70 plies, the ones with the most captures available first (the stress
    /// test of the quiescence search).
    #[arg(long, conflicts_with_all = ["plies", "balanced_depth"])]
    crowded: bool,
    /// Openings to print.
    #[arg(long, default_value_t = 100)]
    count: usize,
    /// Board size.
    #[arg(long, default_value_t = BoardSize::Eight)]
    size: BoardSize,
    /// Random seed: the same seed prints the same openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Keep only openings whose search at this depth scores within --max-eval.
    #[arg(long, value_name = "D")]
    balanced_depth: Option<u32>,
    /// Largest |score| (centipawns, side to move) of a balanced opening.
    #[arg(
        long,
        value_name = "CP",
        default_value_t = 100,
        requires = "balanced_depth"
    )]
    max_eval: i32,
}

/// Makes names unique by appending `#2`, `#3`, ... to repeats.
fn unique_names(engines: &mut [EngineSpec]) {
    for i in 1..engines.len() {
        let base = engines[i].name.clone();
        let mut k = 1;
        while engines[..i].iter().any(|e| e.name == engines[i].name) {
            k += 1;
            engines[i].name = format!("{base}#{k}");
        }
    }
}

/// Builds the match from the flags.
pub fn build_config(args: &MatchArgs) -> Result<MatchConfig, MatchError> {
    let mut engines = EngineSpec::read_all(&args.engine)?;
    if engines.len() < 2 {
        return Err(MatchError::TooFewEngines);
    }
    unique_names(&mut engines);
    let sprt = args.sprt.as_deref().map(Sprt::parse).transpose()?;
    if sprt.is_some() && engines.len() != 2 {
        return Err(MatchError::SprtEngines);
    }
    if args.games == 0 || args.games > MAX_GAMES {
        return Err(MatchError::Games(args.games));
    }
    let limits = MoveLimits::from_flags(args.tc.as_deref(), args.movetime, args.depth, args.nodes)?;
    if limits.clock.is_some() && engines.iter().any(|engine| engine.movetime.is_some()) {
        return Err(MatchError::EngineMovetimeWithTc);
    }
    let size = args.size;
    let pairs = args.games.div_ceil(2);
    let openings = match (&args.openings, args.random_plies) {
        (Some(path), _) => {
            let text = files::read_text(path, files::limits::OPENINGS)?;
            let book = openings::parse_file(&text, &path.display().to_string())?;
            openings::arrange(book, args.openings_order, args.openings_start, args.seed)
                .map_err(MatchError::OpeningsStart)?
        }
        (None, Some(plies)) => {
            openings::random_openings(size, plies, pairs.min(MAX_RANDOM_OPENINGS), args.seed)
                .map_err(|error| MatchError::RandomPlies { plies, error })?
        }
        (None, None) => {
            openings::random_openings(size, 0, 1, args.seed).map_err(MatchError::StartOpening)?
        }
    };
    let timeout_ms = limits.no_reply_timeout_ms(args.timeout_ms);
    Ok(MatchConfig {
        engines,
        games: pairs * 2,
        concurrency: args.concurrency as usize,
        limits,
        latency: Duration::from_millis(args.latency_ms),
        timeout: Duration::from_millis(timeout_ms),
        openings,
        gauntlet: args.gauntlet,
        sprt,
        seed: args.seed,
        shard: args.shard.unwrap_or(Shard::WHOLE),
    })
}

/// Starts each external engine once, so a wrong command fails before the match, not as a lost game.
fn check_engines(config: &MatchConfig) -> Result<(), MatchError> {
    for spec in &config.engines {
        for note in spec.start_check(config.timeout)? {
            eprintln!("lielow match: engine '{}' said: {note}", spec.name);
        }
    }
    Ok(())
}

/// The files a match reads: the openings and the `--merge` summaries.
fn match_inputs(args: &MatchArgs) -> Vec<&Path> {
    args.openings
        .iter()
        .chain(&args.merge)
        .map(PathBuf::as_path)
        .collect()
}

/// `lielow match`: plays the match (or merges `--merge` summaries) and prints the table.
pub fn run_match(args: &MatchArgs) -> Result<(), MatchError> {
    let outputs: Vec<&Path> = args
        .records
        .iter()
        .chain(&args.pgn)
        .chain(&args.json)
        .chain(&args.apgame)
        .map(PathBuf::as_path)
        .collect();
    files::check_outputs(&match_inputs(args), &outputs)?;
    if !args.merge.is_empty() {
        return merge_summaries(args);
    }
    let config = build_config(args)?;
    // Every output is checked before the first game, so that a wrong path costs no games.
    if let Some(json) = &args.json {
        drop(Output::create(json)?);
    }
    if let Some(path) = &args.apgame {
        ApgameFile::check(path, args.resume)?;
    }
    let (records, recorded) = match &args.records {
        Some(path) => {
            let (file, recorded) = RecordsFile::open(path, &config, args.resume)?;
            (Some(file), recorded)
        }
        None => (None, Recorded::new()),
    };
    let pgn = match &args.pgn {
        Some(path) => Some(PgnFile::open(path, args.resume, &recorded)?),
        None => None,
    };
    let pairings = config.pairings();
    let names = config.engines.iter().map(|e| e.name.clone()).collect();
    let planned = 2 * config.shard.jobs_of(config.total_jobs());
    let mut tally = Tally::new(names, &pairings, planned, config.sprt);
    tally.shard = config.shard;
    tally.fingerprint = config.fingerprint();
    let apgame = match &args.apgame {
        Some(path) => Some(ApgameFile::open(path, &recorded)?),
        None => None,
    };
    let shared = MatchOutputs::new(tally, records, pgn, args.json.clone());
    outputs::lock(&shared).apgame = apgame;
    outputs::finish_on_interrupt(&shared);
    check_engines(&config)?;
    play(&config, &recorded, &shared);
    outputs::lock(&shared).finish()?;
    Ok(())
}

/// Plays the match's games but those `recorded`, each recorded as it ends (before it is
/// reported), each pair counted as it ends, or with an SPRT in the order of the pairs, so that
/// where it stops depends on the games alone, not on which finished first.
fn play(config: &MatchConfig, recorded: &Recorded, shared: &SharedOutputs) {
    let planned = 2 * config.shard.jobs_of(config.total_jobs());
    let progress = Progress::bar(planned, "games");
    let on_game = |number, game: &_| {
        let mut out = outputs::lock(shared);
        if out.interrupted() {
            return;
        }
        out.record(number, game);
        progress.println(&report::finished_line(number, game));
    };
    let shard = config.shard;
    let mut in_order = InOrder::starting_at(0);
    // Once the SPRT has decided, the pairs still in flight are not counted.
    let mut decided = false;
    runner::run_reporting_games(config, recorded, on_game, |pair| {
        let mut out = outputs::lock(shared);
        if out.interrupted() || decided {
            return false;
        }
        let due: Vec<PairResult> = match config.sprt {
            Some(_) => in_order.put(shard.index_of(pair.job), pair).collect(),
            None => vec![pair],
        };
        let mut go_on = true;
        for pair in &due {
            // A shard plays its share whatever its own SPRT says: the merge decides.
            go_on = out.tally.add(pair) || shard != Shard::WHOLE;
            let line = out.tally.progress_line();
            progress.log(&line);
            progress.set(out.tally.games, line);
            if !go_on {
                decided = true;
                break;
            }
        }
        go_on
    });
    progress.finish();
}

/// `lielow match --merge`: the shards' summaries added up, printed and written as one. Every
/// summary is read and checked before the `--json` output is written.
fn merge_summaries(args: &MatchArgs) -> Result<(), MatchError> {
    let mut summaries = Vec::new();
    for path in &args.merge {
        let source = path.display().to_string();
        let text = files::read_text(path, files::limits::SUMMARY)?;
        let tally = merge::read_summary(&text, &source)?;
        summaries.push((source, tally));
    }
    let merged = merge::merge(summaries)?;
    if let Some(missing) = merged.missing_text() {
        eprintln!(
            "lielow match: merged {} of {} shards; missing {missing}",
            merged.shards.len(),
            merged.count,
        );
    }
    Printer::new().text(&merged.tally.table());
    if let Some(path) = &args.json {
        files::write_whole(path, merged.tally.json().as_bytes())?;
    }
    Ok(())
}

/// `lielow openings`: prints the openings, one LFEN a line.
pub fn run_openings(args: &OpeningsArgs) -> Result<(), OpeningsError> {
    let size = args.size;
    if args.count > MAX_OPENINGS {
        return Err(OpeningsError::Count(args.count));
    }
    let plies = args.plies.unwrap_or(0);
    let found = if args.crowded {
        crowded::crowded_positions(size, args.count, args.seed)
    } else {
        openings::generate(&OpeningFilter {
            size,
            plies,
            count: args.count,
            seed: args.seed,
            balanced: args.balanced_depth.map(|d| (d, args.max_eval)),
        })
        .map_err(OpeningsError::Plies)?
    };
    let mut out = std::io::stdout().lock();
    for position in &found {
        if writeln!(out, "{}", position.to_lfen()).is_err() {
            return Err(OpeningsError::StdoutClosed);
        }
    }
    if found.len() < args.count {
        return Err(OpeningsError::TooFew {
            found: found.len(),
            asked: args.count,
        });
    }
    Ok(())
}
