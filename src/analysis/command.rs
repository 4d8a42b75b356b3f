//! The `lielow board`, `lielow analyse` and `lielow solve` subcommands: their flags, checks and
//! output. Errors ([`AnalysisError`]) are one line on stderr and exit status 2; nothing is
//! written then.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use clap::{Args, ValueEnum};

use super::command_error::AnalysisError;
use super::html::{self, PageGame};
use super::review::{self, Game, GameReview, ReviewBudget, ReviewSettings};
use super::review_report;
use super::solve::{self, Budget, SolveError, Verdict};
use crate::games::{self, apgame, GamesError, LoadedGame};
use lielow_engine::limits::Limits;
use lielow_engine::search::{Searcher, MAX_THREADS};

use crate::diagram::{self, Diagram};
use crate::file_error::FileError;
use crate::files::{self, Output};
use crate::position_arg::PositionArg;
use crate::printer::Printer;
use crate::progress::Progress;
use lielow_rules::board::BoardSize;
use lielow_rules::moves::{Move, MoveText};
use lielow_rules::position::Position;

/// Flags of `lielow board`.
#[derive(Args, Debug)]
pub struct BoardArgs {
    /// The position: `startpos`, an LFEN, or either followed by `moves m1 m2 ...` (quote it:
    /// it holds spaces).
    position: String,
    /// Board size of `startpos` (an LFEN's board gives its own size).
    #[arg(long, default_value_t = BoardSize::Eight)]
    size: BoardSize,
    /// The move that led to the position: its squares are tinted (default: the last of the
    /// position's `moves`).
    #[arg(long, value_name = "MOVE")]
    last_move: Option<String>,
    /// A move drawn as an arrow (repeat for more).
    #[arg(long, value_name = "MOVE")]
    arrow: Vec<String>,
    /// Red at the bottom.
    #[arg(long)]
    flip: bool,
    /// Where the SVG goes (`-`, or no -o: standard output).
    #[arg(short, long, value_name = "FILE.svg")]
    output: Option<PathBuf>,
}

/// A move in canonical notation whose squares lie on `position`'s board: arrows and the last
/// move need not be legal in the position (a threat is the opponent's move; the last move's
/// origin is empty now).
fn parse_drawn_move(
    text: &str,
    position: &Position,
    flag: &'static str,
) -> Result<Move, AnalysisError> {
    let parsed = MoveText::parse(text).map_err(|error| AnalysisError::DrawnMove {
        flag,
        text: text.to_owned(),
        error,
    })?;
    let size = position.size();
    let on_board = parsed.from.is_on(size) && parsed.to.is_none_or(|to| to.is_on(size));
    if !on_board {
        return Err(AnalysisError::OffBoard {
            flag,
            text: text.to_owned(),
            size,
        });
    }
    Ok(match parsed.to {
        Some(to) => Move::new(parsed.from, to, parsed.capture),
        None => Move::bear_off(parsed.from),
    })
}

/// Writes `text` to `path` (`-`: standard output), through a temporary file renamed into place.
pub fn write_output(path: &Path, text: &str) -> Result<(), FileError> {
    if path.as_os_str() == "-" {
        use std::io::Write;
        let mut out = std::io::stdout().lock();
        return out.write_all(text.as_bytes()).map_err(FileError::Stdout);
    }
    files::write_whole(path, text.as_bytes())
}

/// A record's engine name as the table and the page title show it: control characters (a
/// terminal's escape sequences) masked, and at most 40 characters.
fn shown_name(name: &str) -> String {
    lielow_rules::quote::shown(name)
}

/// `lielow board`: draws the position.
pub fn run_board(args: &BoardArgs) -> Result<(), AnalysisError> {
    let played = PositionArg::read(&args.position, args.size)?;
    let position = played.position;
    let last_move = match args.last_move.as_deref() {
        Some(text) => Some(parse_drawn_move(text, &position, "--last-move")?),
        None => played.moves.last().copied(),
    };
    let arrows = args
        .arrow
        .iter()
        .map(|text| parse_drawn_move(text, &position, "--arrow"))
        .collect::<Result<Vec<_>, _>>()?;
    let picture = diagram::svg(
        &position,
        &Diagram {
            last_move,
            arrows,
            flipped: args.flip,
        },
    );
    let output = args.output.as_deref().unwrap_or(Path::new("-"));
    Ok(write_output(output, &picture)?)
}

/// How `lielow solve` proves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Method {
    /// Depth-first proof-number search: exact shortest distances, and checkable proofs.
    Dfpn,
    /// The engine's alpha-beta search, iterated until its score is a proven mate (as `go
    /// mate`): for comparison; its pruning can miss the shortest win.
    Alphabeta,
}

/// Flags of `lielow solve`.
#[derive(Args, Debug)]
pub struct SolveArgs {
    /// The position: `startpos`, an LFEN, or either followed by `moves m1 m2 ...` (quote it:
    /// it holds spaces).
    position: String,
    /// Board size of `startpos`.
    #[arg(long, default_value_t = BoardSize::Eight)]
    size: BoardSize,
    /// Give up after this many nodes.
    #[arg(long, default_value_t = 50_000_000)]
    max_nodes: u64,
    /// Give up after this many seconds.
    #[arg(long, value_name = "S")]
    time: Option<f64>,
    /// Threads: 2 asks "does the side to move win?" and "does its opponent?" at once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=MAX_THREADS as i64))]
    threads: u32,
    /// Replay the proof against the rules and count its nodes (df-pn only).
    #[arg(long)]
    verify: bool,
    /// How to prove.
    #[arg(long, value_enum, default_value_t = Method::Dfpn)]
    method: Method,
}

/// `lielow solve`: proves the position's value and prints it.
pub fn run_solve(args: &SolveArgs) -> Result<(), AnalysisError> {
    let position = PositionArg::read(&args.position, args.size)?.position;
    if position.is_game_over() {
        return Err(SolveError::GameOver.into());
    }
    let time = match args.time {
        Some(seconds) if seconds.is_finite() && seconds > 0.0 && seconds < 1e9 => {
            Some(Duration::from_secs_f64(seconds))
        }
        Some(_) => return Err(AnalysisError::Time),
        None => None,
    };
    let started = Instant::now();
    let (done, finished) = std::sync::mpsc::channel::<()>();
    std::thread::scope(|scope| {
        scope.spawn(move || report_progress(&finished, started, args.max_nodes, time));
        let result = prove(args, &position, time, started);
        drop(done);
        result
    })
}

/// How often `lielow solve` says it is still at work.
const PROGRESS_EVERY: Duration = Duration::from_secs(5);

/// Says on stderr, every [`PROGRESS_EVERY`] until `finished` closes, how long the proof has run
/// and what its budget is: a search of millions of nodes is otherwise silent for minutes.
fn report_progress(
    finished: &std::sync::mpsc::Receiver<()>,
    started: Instant,
    max_nodes: u64,
    time: Option<Duration>,
) {
    let budget = match time {
        Some(time) => format!("{max_nodes} nodes or {} s", time.as_secs_f64()),
        None => format!("{max_nodes} nodes"),
    };
    let progress = Progress::spinner(format!("lielow solve: proving (budget: {budget})"));
    while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) =
        finished.recv_timeout(PROGRESS_EVERY)
    {
        progress.log(&format!(
            "lielow solve: still proving after {} s (budget: {budget})",
            started.elapsed().as_secs()
        ));
    }
    progress.clear();
}

/// The proof of `lielow solve`, printed.
fn prove(
    args: &SolveArgs,
    position: &Position,
    time: Option<Duration>,
    started: Instant,
) -> Result<(), AnalysisError> {
    let mut out = Printer::new();
    match args.method {
        Method::Dfpn => prove_by_dfpn(args, position, time, started, &mut out),
        Method::Alphabeta => prove_by_alphabeta(args, position, time, started, &mut out),
    }
}

/// `--method dfpn`: the proof-number search's verdict, its line and counts.
fn prove_by_dfpn(
    args: &SolveArgs,
    position: &Position,
    time: Option<Duration>,
    started: Instant,
    out: &mut Printer,
) -> Result<(), AnalysisError> {
    let budget = Budget {
        max_nodes: args.max_nodes,
        deadline: time.map(|t| started + t),
        stop: None,
    };
    let solution =
        solve::solve_on_big_stack(position, &budget, args.threads as usize, args.verify)?;
    let line = |moves: &[Move]| {
        moves
            .iter()
            .map(Move::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    };
    let proven = match &solution.verdict {
        Verdict::Win {
            moves,
            plies,
            line,
            exact,
        } => Some(("win", moves, plies, line, exact)),
        Verdict::Loss {
            moves,
            plies,
            line,
            exact,
        } => Some(("loss", moves, plies, line, exact)),
        Verdict::Unknown { plies } => {
            out.line(format_args!(
                "unknown: neither side forces a win within {plies} plies; the budget ran out"
            ));
            None
        }
    };
    if let Some((result, moves, plies, pv, exact)) = proven {
        let at_most = if *exact { "" } else { "at most " };
        out.line(format_args!(
            "{result} in {at_most}{moves} ({plies} plies): {}",
            line(pv)
        ));
    }
    out.line(format_args!(
        "nodes {} table {} time {:.3} s",
        solution.nodes,
        solution.table_size,
        started.elapsed().as_secs_f64()
    ));
    if let Some(size) = solution.proof_size {
        out.line(format_args!("proof verified: {size} nodes"));
    }
    Ok(())
}

/// `--method alphabeta`: the engine's search, and the proven result it finds, if any.
fn prove_by_alphabeta(
    args: &SolveArgs,
    position: &Position,
    time: Option<Duration>,
    started: Instant,
    out: &mut Printer,
) -> Result<(), AnalysisError> {
    let mut searcher = Searcher::new();
    searcher
        .set_threads(args.threads as usize)
        .map_err(|e| AnalysisError::Search(e.to_string()))?;
    let limits = Limits {
        nodes: Some(args.max_nodes),
        movetime: time.map(|t| t.as_millis().max(1) as u64),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    let result = searcher.search(position, &limits, &stop, &mut |_| {});
    match result.score.mate_moves() {
        Some(moves) if moves > 0 => out.line(format_args!(
            "win in {moves}: {}",
            result.best_move.map_or(String::new(), |m| m.to_string())
        )),
        Some(moves) => out.line(format_args!(
            "loss in {}: {}",
            -moves,
            result.best_move.map_or(String::new(), |m| m.to_string())
        )),
        None => out.line(format_args!(
            "unknown: no proven result by depth {} (score {}, best move {})",
            result.depth,
            result.score,
            result
                .best_move
                .map_or("none".to_owned(), |m| m.to_string())
        )),
    }
    out.line(format_args!(
        "nodes {} depth {} time {:.3} s",
        result.nodes,
        result.depth,
        started.elapsed().as_secs_f64()
    ));
    Ok(())
}

/// Flags of `lielow analyse`.
#[derive(Args, Debug)]
pub struct AnalyseArgs {
    /// A file of games (every game, or the one --game K names): the records of `lielow match
    /// --records`, PGN (`lielow match --pgn`, cutegames) or Abstract Play game records (JSON),
    /// told from the text.
    records: Option<PathBuf>,
    /// With a file: the game to review, from 1. Without: the game itself, as
    /// "startpos moves m1 m2 ..." or "<LFEN> moves m1 m2 ...".
    #[arg(long, value_name = "K | GAME")]
    game: Option<String>,
    /// Board size of `startpos` in --game and in a PGN file (cutegames writes `[FEN
    /// "startpos"]` on both sizes; moves that are not legal on it tell the other size).
    #[arg(long, default_value_t = BoardSize::Eight)]
    size: BoardSize,
    /// The budget per position, as node counts (the same review on every run and machine):
    /// quick 20 000 nodes (50 000 per proof), normal 100 000 (200 000), deep 500 000
    /// (1 000 000). --nodes, --depth or --movetime replace its search limit.
    #[arg(long, value_enum, default_value_t = ReviewBudget::Normal)]
    budget: ReviewBudget,
    /// Search time per position, in ms (varies from run to run, unlike a node budget).
    #[arg(long, value_name = "MS")]
    movetime: Option<u64>,
    /// Search depth per position.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    depth: Option<u32>,
    /// Nodes per position.
    #[arg(long)]
    nodes: Option<u64>,
    /// Nodes per proof of a forced result (a lost win, an allowed mate); 0: no proofs, so such
    /// claims are only reported as unproven.
    #[arg(long, value_name = "N")]
    proof_nodes: Option<u64>,
    /// Lines per position.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    multipv: u32,
    /// Search threads (more than 1 makes the review vary from run to run).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=MAX_THREADS as i64))]
    threads: u32,
    /// Hash per search, in MiB (emptied before each position).
    #[arg(long, default_value_t = review::HASH_MB)]
    hash: usize,
    /// Write the review as JSON.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Write the review as one self-contained HTML page (board at every ply, score sheet,
    /// engine lines, graph).
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
}

/// A game to review, with what the reports say about it.
struct GameToReview {
    game: Game,
    title: String,
    players: Option<(String, String, String)>,
}

/// "startpos moves ..." or "<LFEN> moves ...", read as every command reads a position.
fn parse_game(text: &str, size: BoardSize) -> Result<GameToReview, AnalysisError> {
    let played = PositionArg::read(text, size).map_err(AnalysisError::Game)?;
    Ok(GameToReview {
        game: Game::from_moves(played.start, played.moves, Some(0)),
        title: "Game".to_owned(),
        players: None,
    })
}

/// The games of the file (every one, or the one `--game K` names) or the game of `--game`.
fn games_to_review(args: &AnalyseArgs) -> Result<Vec<GameToReview>, AnalysisError> {
    let Some(path) = &args.records else {
        let text = args.game.as_deref().ok_or(AnalysisError::NoGame)?;
        return Ok(vec![parse_game(text, args.size)?]);
    };
    let wanted = match &args.game {
        Some(k) => Some(
            k.trim()
                .parse::<usize>()
                .ok()
                .filter(|&k| k > 0)
                .ok_or_else(|| AnalysisError::GameNumber(k.clone()))?,
        ),
        None => None,
    };
    let text = files::read_text(path, files::limits::RECORDS)?;
    let read = games::read_games(&text, args.size).map_err(|error| match error {
        GamesError::Empty(_) => AnalysisError::Empty(path.clone()),
        error => AnalysisError::Games {
            path: path.clone(),
            error: Box::new(error),
        },
    })?;
    for warning in &read.warnings {
        eprintln!("lielow analyse: warning: {}: {warning}", path.display());
    }
    let games: Vec<GameToReview> = read
        .games
        .into_iter()
        .enumerate()
        .filter(|(index, _)| wanted.is_none_or(|k| k == index + 1))
        .map(|(index, game)| to_review(index + 1, game))
        .collect();
    match wanted {
        Some(number) if games.is_empty() => Err(AnalysisError::NoSuchGame {
            path: path.clone(),
            number,
        }),
        _ => Ok(games),
    }
}

/// Game `number` of a file, titled with its players and result.
fn to_review(number: usize, game: LoadedGame) -> GameToReview {
    let blue = game.blue.unwrap_or_else(|| "?".to_owned());
    let red = game.red.unwrap_or_else(|| "?".to_owned());
    let (ending, reason) = match game.result {
        Some((winner, reason)) => (format!("{winner} won by {reason}"), reason.to_string()),
        // A game the rules did not end (an Abstract Play resignation) says how it ended.
        None => (
            apgame::ending(&game.tags).unwrap_or_else(|| "unfinished".to_owned()),
            "unfinished".to_owned(),
        ),
    };
    GameToReview {
        title: format!(
            "Game {number}: {} (Blue) vs {} (Red), {ending}",
            shown_name(&blue),
            shown_name(&red),
        ),
        players: Some((blue, red, reason)),
        game: Game {
            start: game.start,
            moves: game.moves,
            opening: game.opening,
            result: game.result,
        },
    }
}

/// `lielow analyse`: reviews the games and prints (and writes) the reviews.
pub fn run_analyse(args: &AnalyseArgs) -> Result<(), AnalysisError> {
    let outputs: Vec<&Path> = args
        .json
        .iter()
        .chain(&args.html)
        .map(PathBuf::as_path)
        .collect();
    files::check_outputs(
        &args
            .records
            .iter()
            .map(PathBuf::as_path)
            .collect::<Vec<_>>(),
        &outputs,
    )?;
    let games = games_to_review(args)?;
    // The outputs are created (as temporary files) before any search, so that a wrong path
    // costs nothing; the old files stay until the reviews are written.
    let create = |path: &PathBuf| Output::create(path);
    let json_file = args.json.as_ref().map(create).transpose()?;
    let html_file = args.html.as_ref().map(create).transpose()?;
    files::remove_unfinished_on_interrupt();
    let mut searcher = review_searcher(args)?;
    let settings = review_settings(args);
    let count = games.len();
    let positions = games.iter().map(|g| g.game.moves.len() as u64 + 1).sum();
    let bar = Progress::bar(positions, "positions");
    let mut reviewed = 0;
    let mut reviews: Vec<GameReview> = Vec::new();
    for (index, game) in games.iter().enumerate() {
        let mut progress = |ply: usize, plies: usize| {
            let line = format!(
                "lielow analyse: game {} of {count}, position {} of {}",
                index + 1,
                ply + 1,
                plies + 1
            );
            if ply.is_multiple_of(10) || ply == plies {
                bar.log(&line);
            }
            bar.set(reviewed + ply as u64 + 1, line);
        };
        reviews.push(review::review(
            &game.game,
            &mut searcher,
            &settings,
            &mut progress,
        ));
        reviewed += game.game.moves.len() as u64 + 1;
    }
    bar.finish();
    let mut out = Printer::new();
    for (game, review) in games.iter().zip(&reviews) {
        out.line(review_report::table(review, &game.title));
    }
    if let Some(file) = json_file {
        write_json(file, &games, &reviews)?;
    }
    if let Some(file) = html_file {
        write_html(file, &games, &reviews)?;
    }
    Ok(())
}

/// The searcher of `lielow analyse`: `--threads` and `--hash`.
fn review_searcher(args: &AnalyseArgs) -> Result<Searcher, AnalysisError> {
    let mut searcher = Searcher::new();
    searcher
        .set_threads(args.threads as usize)
        .map_err(|e| AnalysisError::Search(e.to_string()))?;
    searcher
        .set_hash_mb(args.hash)
        .map_err(|e| AnalysisError::Search(e.to_string()))?;
    Ok(searcher)
}

/// What each position's search gets: the `--budget`'s limits, or `--movetime`, `--depth` and
/// `--nodes` when any is given; `--proof-nodes` for the proofs of claimed results.
fn review_settings(args: &AnalyseArgs) -> ReviewSettings {
    let mut settings = ReviewSettings::of(args.budget, args.multipv as usize);
    if args.movetime.is_some() || args.depth.is_some() || args.nodes.is_some() {
        settings.limits = Limits {
            movetime: args.movetime,
            depth: args.depth,
            nodes: args.nodes,
            ..Limits::default()
        };
    }
    if let Some(nodes) = args.proof_nodes {
        settings.proof_nodes = nodes;
    }
    settings
}

/// `--json`: every game's review, with its players and ending when a record names them.
fn write_json(
    mut file: Output,
    games: &[GameToReview],
    reviews: &[GameReview],
) -> Result<(), AnalysisError> {
    let values: Vec<serde_json::Value> = games
        .iter()
        .zip(reviews)
        .map(|(game, review)| {
            let extra = match &game.players {
                Some((blue, red, reason)) => {
                    serde_json::json!({"blue": blue, "red": red, "reason": reason})
                }
                None => serde_json::json!({}),
            };
            review_report::game_json(review, extra)
        })
        .collect();
    let text = serde_json::to_string_pretty(&values).expect("JSON of plain values");
    file.write(text.as_bytes())?;
    file.commit()?;
    Ok(())
}

/// `--html`: the page of every game's review.
fn write_html(
    mut file: Output,
    games: &[GameToReview],
    reviews: &[GameReview],
) -> Result<(), AnalysisError> {
    let pages: Vec<PageGame> = games
        .iter()
        .zip(reviews)
        .map(|(game, review)| PageGame {
            review,
            title: game.title.clone(),
        })
        .collect();
    file.write(html::page(&pages).as_bytes())?;
    file.commit()?;
    Ok(())
}
