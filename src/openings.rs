//! Openings: the start of each game pair, read from a file or made of random plies.
//!
//! An opening file has one opening per line: an LFEN, optionally followed by ` moves ` and
//! canonical moves played from it (`lielow openings` writes the plain LFEN form). Blank lines and
//! lines starting with `#` are skipped. Every line is checked — position, every move, and that the
//! game is not already over — and the first bad one is reported with its line number.

use std::collections::HashSet;
use std::sync::atomic::AtomicBool;

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

use lielow_engine::limits::Limits;
use lielow_engine::search::Searcher;
use lielow_engine::ugi::shown;
use lielow_rules::board::{BoardSize, Side};
use lielow_rules::lfen::LfenError;
use lielow_rules::moves::Move;
use lielow_rules::play::IllegalMove;
use lielow_rules::position::Position;

/// An LFEN that does not read, with the word at fault when the error points at one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadLfen {
    /// What is wrong.
    pub error: LfenError,
    /// The word found where the error is (quoted as [`shown`] prints it).
    pub found: Option<String>,
}

impl BadLfen {
    /// The error of reading the LFEN whose whitespace-separated words are `fields`.
    pub fn new(fields: &[&str], error: LfenError) -> BadLfen {
        BadLfen {
            error,
            found: lielow_engine::ugi::lfen_word(fields, error),
        }
    }

    /// Reads `text` as an LFEN.
    pub fn read(text: &str) -> Result<Position, BadLfen> {
        Position::from_lfen(text).map_err(|error| {
            let fields: Vec<&str> = text.split_whitespace().collect();
            BadLfen::new(&fields, error)
        })
    }
}

impl std::fmt::Display for BadLfen {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match &self.found {
            Some(word) => write!(f, "{} (found '{word}')", self.error),
            None => self.error.fmt(f),
        }
    }
}

impl std::error::Error for BadLfen {}

/// Why a line is not an opening.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningError {
    /// Fewer than the LFEN's two fields.
    TooShort,
    /// The LFEN does not read.
    Lfen(BadLfen),
    /// Something else than `moves` follows the LFEN: what.
    NotMoves(String),
    /// A move is not legal in turn.
    Move {
        /// The text found.
        text: String,
        /// Why it is not legal.
        error: IllegalMove,
    },
    /// The game is over at the end of the opening: the winner.
    Over(Side),
}

impl std::fmt::Display for OpeningError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            OpeningError::TooShort => f.write_str("expected '<board> <side> [moves ...]'"),
            OpeningError::Lfen(error) => error.fmt(f),
            OpeningError::NotMoves(found) => {
                write!(f, "expected 'moves' after the LFEN, found '{found}'")
            }
            OpeningError::Move { text, error } => write!(f, "move '{}': {error}", shown(text)),
            OpeningError::Over(winner) => {
                write!(f, "the game is already over ({winner} has won)")
            }
        }
    }
}

impl std::error::Error for OpeningError {}

/// Why an openings file cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningsFileError {
    /// A line (numbered from 1) is not an opening.
    Line {
        /// The file's name.
        source: String,
        /// The line's number.
        line: usize,
        /// What is wrong with it.
        error: OpeningError,
    },
    /// No line is an opening.
    Empty {
        /// The file's name.
        source: String,
    },
}

impl std::fmt::Display for OpeningsFileError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            OpeningsFileError::Line {
                source,
                line,
                error,
            } => write!(f, "{source}:{line}: {error}"),
            OpeningsFileError::Empty { source } => write!(f, "{source}: no openings in the file"),
        }
    }
}

impl std::error::Error for OpeningsFileError {}

/// Where a game pair starts: a position and the moves already played from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The position the opening's moves start from (recorded as the game's start).
    pub start: Position,
    /// Moves played from `start` before the engines take over.
    pub moves: Vec<Move>,
}

impl Opening {
    /// The position the engines start thinking from.
    pub fn position(&self) -> Position {
        self.start.play_moves(&self.moves)
    }

    /// Reads one opening line: `<LFEN> [moves <move>...]`.
    pub fn parse(line: &str) -> Result<Opening, OpeningError> {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        if tokens.len() < 2 {
            return Err(OpeningError::TooShort);
        }
        let start = Position::from_lfen(&tokens[..2].join(" "))
            .map_err(|error| OpeningError::Lfen(BadLfen::new(&tokens, error)))?;
        let mut moves = Vec::new();
        let mut position = start;
        match tokens.get(2) {
            None => {}
            Some(&"moves") => {
                for text in &tokens[3..] {
                    let mv = position
                        .parse_move(text)
                        .map_err(|error| OpeningError::Move {
                            text: (*text).to_owned(),
                            error,
                        })?;
                    position = position.play(mv);
                    moves.push(mv);
                }
            }
            Some(other) => return Err(OpeningError::NotMoves((*other).to_owned())),
        }
        if let Some(winner) = position.winner() {
            return Err(OpeningError::Over(winner));
        }
        Ok(Opening { start, moves })
    }
}

/// Reads an opening file's text; errors name the file and line.
pub fn parse_file(text: &str, source: &str) -> Result<Vec<Opening>, OpeningsFileError> {
    let mut openings = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let opening = Opening::parse(line).map_err(|error| OpeningsFileError::Line {
            source: source.to_owned(),
            line: number + 1,
            error,
        })?;
        openings.push(opening);
    }
    if openings.is_empty() {
        return Err(OpeningsFileError::Empty {
            source: source.to_owned(),
        });
    }
    Ok(openings)
}

/// In which order a match takes the openings of its file (`--openings-order`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum OpeningsOrder {
    /// As they stand in the file.
    #[default]
    Sequential,
    /// Shuffled, the same way for the same `--seed` (so every shard of a match agrees).
    Random,
}

/// An `--openings-start` outside the openings: the number given and how many there are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningsStartError {
    /// The number given (from 1).
    pub start: usize,
    /// How many openings there are.
    pub count: usize,
}

impl std::fmt::Display for OpeningsStartError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(
            f,
            "--openings-start {}: expected 1 to {} (the number of openings)",
            self.start, self.count
        )
    }
}

impl std::error::Error for OpeningsStartError {}

/// Mixed into `--seed` for the shuffle of `--openings-order random`, so that the order is not
/// tied to the random openings and built-in players the same seed makes.
const SHUFFLE_STREAM: u64 = 0x6f70_656e_696e_6773;

/// The openings in the order a match plays them (its pair k takes opening k modulo their
/// number): `order` applied (a shuffle seeded by `seed`), then started at the `start`-th of
/// that order (from 1, as cutechess's `start=`), the ones before it moved to the end. The
/// match's fingerprint covers the result, so shards of one match always agree.
pub fn arrange(
    mut openings: Vec<Opening>,
    order: OpeningsOrder,
    start: usize,
    seed: u64,
) -> Result<Vec<Opening>, OpeningsStartError> {
    if !(1..=openings.len()).contains(&start) {
        return Err(OpeningsStartError {
            start,
            count: openings.len(),
        });
    }
    if order == OpeningsOrder::Random {
        openings.shuffle(&mut StdRng::seed_from_u64(seed ^ SHUFFLE_STREAM));
    }
    openings.rotate_left(start - 1);
    Ok(openings)
}

/// Plays `plies` uniformly random moves from the start position; `None` when the game ended on
/// the way (the caller tries again).
pub fn random_opening(size: BoardSize, plies: usize, rng: &mut StdRng) -> Option<Opening> {
    let start = Position::start(size);
    let mut position = start;
    let mut moves = Vec::with_capacity(plies);
    for _ in 0..plies {
        let &mv = position.legal_moves().choose(rng)?;
        position = position.play(mv);
        moves.push(mv);
    }
    (!position.is_game_over()).then_some(Opening { start, moves })
}

/// How many random games may end before their opening plies are played, when none has lasted
/// that long yet, before random openings of that length are declared impossible.
const RANDOM_OPENING_FAILURES: usize = 1000;

/// Why random openings cannot be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TooManyPlies {
    /// The plies asked for.
    pub plies: usize,
    /// Random games tried, all over before that many plies.
    pub tries: usize,
}

impl std::fmt::Display for TooManyPlies {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(
            f,
            "no random game from the start lasted {} plies in {} tries (random games end \
             much sooner); ask for fewer plies",
            self.plies, self.tries
        )
    }
}

impl std::error::Error for TooManyPlies {}

/// `count` random openings of `plies` plies, reproducible from `seed`; distinct final positions
/// where the opening tree allows, repeats only when it is too small to give `count`, fewer
/// when games that long are so rare that a generous number of tries finds fewer. Random
/// games end by themselves: when [`RANDOM_OPENING_FAILURES`] in a row end before `plies` with
/// none lasting, the length cannot be had and the answer is an error, not an endless search.
pub fn random_openings(
    size: BoardSize,
    plies: usize,
    count: usize,
    seed: u64,
) -> Result<Vec<Opening>, TooManyPlies> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut seen = HashSet::new();
    let mut openings = Vec::with_capacity(count);
    let mut attempts = 0usize;
    while openings.len() < count {
        attempts += 1;
        let Some(opening) = random_opening(size, plies, &mut rng) else {
            if openings.is_empty() && attempts >= RANDOM_OPENING_FAILURES {
                return Err(TooManyPlies {
                    plies,
                    tries: attempts,
                });
            }
            if attempts > 100 * count + 10_000 {
                break; // rare enough: the match cycles through the ones found
            }
            continue;
        };
        let fresh = seen.insert(opening.position().key());
        if fresh || attempts > 20 * count + 1000 {
            openings.push(opening);
        }
    }
    Ok(openings)
}

/// What `lielow openings` looks for.
#[derive(Clone, Copy, Debug)]
pub struct OpeningFilter {
    /// Board size.
    pub size: BoardSize,
    /// Random plies from the start position.
    pub plies: usize,
    /// How many openings to find.
    pub count: usize,
    /// Seed of the random moves.
    pub seed: u64,
    /// Search depth and largest |score| (centipawns) a balanced opening may have.
    pub balanced: Option<(u32, i32)>,
}

/// Distinct random positions after `plies` plies (not over, optionally balanced by a shallow
/// search); fewer than asked when a generous number of tries cannot find more, and an error
/// when no random game lasts that long (as for [`random_openings`]).
pub fn generate(filter: &OpeningFilter) -> Result<Vec<Position>, TooManyPlies> {
    let mut rng = StdRng::seed_from_u64(filter.seed);
    let mut seen = HashSet::new();
    let mut found = Vec::with_capacity(filter.count);
    let mut searcher = Searcher::new();
    let stop = AtomicBool::new(false);
    let max_attempts = 200 * filter.count + 10_000;
    let mut any_lasted = false;
    for attempt in 1..=max_attempts {
        if found.len() == filter.count {
            break;
        }
        let Some(opening) = random_opening(filter.size, filter.plies, &mut rng) else {
            if !any_lasted && attempt >= RANDOM_OPENING_FAILURES {
                return Err(TooManyPlies {
                    plies: filter.plies,
                    tries: attempt,
                });
            }
            continue;
        };
        any_lasted = true;
        let position = opening.position();
        if !seen.insert(position.key()) {
            continue;
        }
        if let Some((depth, max_eval)) = filter.balanced {
            let limits = Limits {
                depth: Some(depth),
                ..Limits::default()
            };
            searcher.new_game();
            let result = searcher.search(&position, &limits, &stop, &mut |_| {});
            if result.score.is_proven() || result.score.0.abs() > max_eval {
                continue;
            }
        }
        found.push(position);
    }
    Ok(found)
}
