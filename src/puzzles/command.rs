//! `lielow puzzles`: finds puzzles in games and writes the puzzle file (docs/puzzles.md is the
//! guide, docs/formats.md the file's reference).
//!
//! The games are numbered jobs on worker threads ([`crate::pool`]): a worker plays (or takes)
//! game G, proves its candidates ([`super::find`]) and rates the puzzles ([`super::rate`]);
//! the calling thread takes the games back in their order ([`InOrder`]), keeps each position
//! once (its first occurrence) and stops once `--count` puzzles are kept. Every step depends
//! on the arguments alone (node limits, never the clock), so the same arguments write the same
//! file, whatever the number of workers.

use std::collections::{BTreeMap, HashSet};
use std::path::PathBuf;
use std::time::Instant;

use lielow_engine::search::Searcher;
use lielow_rules::board::BoardSize;

use super::file::{write_file, Puzzle};
use super::find::{find, Finding};
use super::rate::{effort, rating};
use super::sources::{Game, SelfPlay};
use crate::file_error::FileError;
use crate::files;
use crate::games::{read_games, GamesError};
use crate::pool::{self, InOrder};
use crate::progress::Progress;

/// `lielow puzzles`'s arguments.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:\n  \
    lielow puzzles --size 8 --count 300 --concurrency 2 -o puzzles/8x8.txt   (the shipped set)\n  \
    lielow puzzles games.pgn records.txt --min-moves 2 -o mine.txt\n\n\
    A puzzle: the side to move wins by force in N moves and no other first move wins in N or \
    fewer, both proven by the proof search. Guide: docs/puzzles.md.")]
pub struct PuzzlesArgs {
    /// Files of games to look in (lielow records, PGN, Abstract Play records); none: the
    /// engine plays its own games.
    #[arg(value_name = "GAMES")]
    pub files: Vec<PathBuf>,
    /// The puzzle file to write (replaced when complete).
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,
    /// The board: self-play's, and that of a `startpos` in the files (games on the other
    /// board are left out).
    #[arg(long, default_value_t = BoardSize::Eight)]
    pub size: BoardSize,
    /// Stop once this many puzzles are found.
    #[arg(long, default_value_t = 300, value_parser = clap::value_parser!(u64).range(1..=99_999))]
    pub count: u64,
    /// Self-play: play at most this many games.
    #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_games: u64,
    /// Self-play: the seed of the random opening plies.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Self-play: nodes per move of the engine.
    #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: u64,
    /// Self-play: random plies from the start before the engine plays.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u64).range(0..=40))]
    pub random_plies: u64,
    /// The fewest moves to the win (2 leaves out the wins in one: a harder set).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=12))]
    pub min_moves: u32,
    /// The most moves to the win.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=12))]
    pub max_moves: u32,
    /// At most this share of --count (in percent) may be king captures in one, the easiest
    /// and most trivial puzzles; 0 leaves them out.
    #[arg(long, default_value_t = 10, value_name = "PERCENT", value_parser = clap::value_parser!(u32).range(0..=100))]
    pub king_in_one: u32,
    /// Nodes of the proof search for each position (a position it cannot settle is skipped).
    #[arg(long, default_value_t = 300_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub proof_nodes: u64,
    /// Nodes of the engine's search that rates each puzzle.
    #[arg(long, default_value_t = 1_000_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub rating_nodes: u64,
    /// Games worked on at once (one thread each; the file is the same for any number).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub concurrency: u32,
}

/// Why `lielow puzzles` failed.
#[derive(Debug)]
pub enum PuzzlesError {
    /// A file could not be read, or the output written.
    File(FileError),
    /// A file of games does not read.
    Games(PathBuf, Box<GamesError>),
    /// No game of the files is on the board asked.
    NoGames(BoardSize),
    /// --min-moves is above --max-moves.
    Moves(u32, u32),
}

impl std::fmt::Display for PuzzlesError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PuzzlesError::File(error) => error.fmt(f),
            PuzzlesError::Games(path, error) => write!(f, "{}: {error}", path.display()),
            PuzzlesError::NoGames(size) => {
                write!(f, "no game of the files is on the {size}x{size} board")
            }
            PuzzlesError::Moves(min, max) => {
                write!(f, "--min-moves {min} is above --max-moves {max}")
            }
        }
    }
}

impl std::error::Error for PuzzlesError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PuzzlesError::File(error) => Some(error),
            PuzzlesError::Games(_, error) => Some(error),
            _ => None,
        }
    }
}

impl From<FileError> for PuzzlesError {
    fn from(error: FileError) -> PuzzlesError {
        PuzzlesError::File(error)
    }
}

/// A puzzle found in game G, before it is numbered.
struct Found {
    puzzle: Puzzle,
    key: u64,
    /// Its answer captures the king in one move.
    king_in_one: bool,
}

/// The puzzles kept so far, in the games' order: each position once, king captures in one up
/// to their share, until the count.
struct Kept {
    puzzles: Vec<Puzzle>,
    seen: HashSet<u64>,
    count: usize,
    king_in_one: usize,
    max_king_in_one: usize,
}

impl Kept {
    fn new(args: &PuzzlesArgs) -> Kept {
        Kept {
            puzzles: Vec::new(),
            seen: HashSet::new(),
            count: args.count as usize,
            king_in_one: 0,
            max_king_in_one: args.count as usize * args.king_in_one as usize / 100,
        }
    }

    fn is_full(&self) -> bool {
        self.puzzles.len() >= self.count
    }

    /// Keeps `found` if there is room for it and its position is new.
    fn offer(&mut self, found: Found) {
        let room = if found.king_in_one {
            self.king_in_one < self.max_king_in_one
        } else {
            true
        };
        if self.is_full() || !room || !self.seen.insert(found.key) {
            return;
        }
        self.king_in_one += usize::from(found.king_in_one);
        self.puzzles.push(found.puzzle);
    }
}

/// Runs `lielow puzzles`.
pub fn run(args: &PuzzlesArgs) -> Result<(), PuzzlesError> {
    if args.min_moves > args.max_moves {
        return Err(PuzzlesError::Moves(args.min_moves, args.max_moves));
    }
    let inputs: Vec<&std::path::Path> = args.files.iter().map(PathBuf::as_path).collect();
    files::check_outputs(&inputs, &[args.output.as_path()])?;
    let loaded = load_games(args)?;
    files::remove_unfinished_on_interrupt();
    let started = Instant::now();
    let jobs = match &loaded {
        Some(games) => games.len() as u64,
        None => args.max_games,
    };
    let (puzzles, games) = search(args, loaded.as_deref(), jobs);
    let text = write_file(&settings(args), &puzzles);
    files::write_whole(&args.output, text.as_bytes())?;
    eprintln!(
        "{} puzzles from {games} games in {:.0} s: {}",
        puzzles.len(),
        started.elapsed().as_secs_f64(),
        args.output.display()
    );
    Ok(())
}

/// The games of the files on the board asked, in order; `None` for self-play.
fn load_games(args: &PuzzlesArgs) -> Result<Option<Vec<Game>>, PuzzlesError> {
    if args.files.is_empty() {
        return Ok(None);
    }
    let mut games = Vec::new();
    let mut other_board = 0;
    for path in &args.files {
        let text = files::read_text(path, files::limits::RECORDS)?;
        let read = read_games(&text, args.size)
            .map_err(|e| PuzzlesError::Games(path.clone(), Box::new(e)))?;
        for warning in &read.warnings {
            eprintln!("{}: {warning}", path.display());
        }
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        for (index, game) in read.games.iter().enumerate() {
            if game.start.size() == args.size {
                games.push(Game::loaded(game, &name, index + 1));
            } else {
                other_board += 1;
            }
        }
    }
    if games.is_empty() {
        return Err(PuzzlesError::NoGames(args.size));
    }
    if other_board > 0 {
        eprintln!(
            "{other_board} games on another board than {0}x{0} left out",
            args.size
        );
    }
    Ok(Some(games))
}

/// The puzzles of games `0..jobs` (numbered and sorted by rating) and the games looked at.
fn search(args: &PuzzlesArgs, loaded: Option<&[Game]>, jobs: u64) -> (Vec<Puzzle>, u64) {
    let self_play = SelfPlay {
        size: args.size,
        random_plies: args.random_plies as usize,
        nodes: args.nodes,
        seed: args.seed,
    };
    let progress = Progress::bar(args.count, "puzzles");
    let mut in_order = InOrder::starting_at(0);
    let mut kept = Kept::new(args);
    let mut games = 0;
    pool::run(
        0..jobs,
        args.concurrency as usize,
        Searcher::new,
        |searcher, number, outbox| {
            let game = match loaded {
                Some(games) => games[number as usize].clone(),
                None => self_play.play(number + 1, searcher),
            };
            outbox.send((number, puzzles_of(&game, args, searcher)))
        },
        |(number, found)| {
            for found in in_order.put(number, found) {
                if kept.is_full() {
                    break; // a game finished after the last puzzle needed
                }
                games += 1;
                found.into_iter().for_each(|one| kept.offer(one));
                let done = kept.puzzles.len();
                let line = format!("games {games}  puzzles {done}/{}", args.count);
                progress.set(done as u64, line.clone());
                progress.log(&line);
            }
            !kept.is_full()
        },
    );
    progress.finish();
    let mut puzzles = kept.puzzles;
    // Easiest first; a stable sort keeps the games' order among equal ratings.
    puzzles.sort_by_key(|puzzle| (puzzle.rating, puzzle.moves));
    for (index, puzzle) in puzzles.iter_mut().enumerate() {
        puzzle.id = Puzzle::id_for(args.size, index + 1);
    }
    (puzzles, games)
}

/// The puzzles of one game's candidates, proven and rated (ids still blank).
fn puzzles_of(game: &Game, args: &PuzzlesArgs, searcher: &mut Searcher) -> Vec<Found> {
    let mut found = Vec::new();
    for candidate in game.candidates(args.max_moves) {
        let Finding::Unique(proven) = find(&candidate.position, args.max_moves, args.proof_nodes)
        else {
            continue;
        };
        if proven.moves < args.min_moves {
            continue;
        }
        let effort = effort(
            searcher,
            &candidate.position,
            proven.answer,
            proven.moves,
            args.rating_nodes,
        );
        let position = &candidate.position;
        let king = position.king(position.side_to_move().opponent());
        found.push(Found {
            king_in_one: proven.moves == 1 && proven.answer.to().is_some_and(|to| Some(to) == king),
            key: candidate.position.key(),
            puzzle: Puzzle {
                id: String::new(),
                position: candidate.position,
                answer: proven.answer,
                line: proven.line,
                moves: proven.moves,
                rating: rating(proven.moves, effort),
                source: candidate.source,
            },
        });
    }
    found
}

/// The settings line's JSON: the command as given and each setting that decides the puzzles.
fn settings(args: &PuzzlesArgs) -> String {
    let command: Vec<String> = std::env::args().skip(1).collect();
    let mut map = BTreeMap::new();
    map.insert("command", format!("lielow {}", command.join(" ")));
    map.insert("size", args.size.to_string());
    map.insert("count", args.count.to_string());
    map.insert("min_moves", args.min_moves.to_string());
    map.insert("max_moves", args.max_moves.to_string());
    map.insert("king_in_one", format!("{}%", args.king_in_one));
    map.insert("proof_nodes", args.proof_nodes.to_string());
    map.insert("rating_nodes", args.rating_nodes.to_string());
    if args.files.is_empty() {
        map.insert("games", format!("self-play, at most {}", args.max_games));
        map.insert("seed", args.seed.to_string());
        map.insert("nodes", args.nodes.to_string());
        map.insert("random_plies", args.random_plies.to_string());
    } else {
        let names: Vec<String> = args.files.iter().map(|p| p.display().to_string()).collect();
        map.insert("games", names.join(", "));
    }
    serde_json::to_string(&map).expect("a map of strings")
}
