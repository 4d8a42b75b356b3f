//! What a search tells its caller: a report after each finished iteration, the root move it
//! works on once it has run a while, and the result. The search never prints; the protocol
//! layer formats these.

use std::time::Duration;

use crate::score::Score;
use lielow_rules::moves::Move;

/// How long a search runs before it reports each root move it starts (as Stockfish does with
/// `currmove`): shorter searches would only flood the GUI.
pub const CURRENT_MOVE_AFTER: Duration = Duration::from_secs(1);

/// What the search reports while it runs, through the one callback a search is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Report<'a> {
    /// A finished iteration (with MultiPV above 1, one line of it; the lines come best first).
    Iteration(&'a Info),
    /// The main thread starts on a root move, after [`CURRENT_MOVE_AFTER`].
    CurrentMove(CurrentMove),
}

/// The root move the main thread starts searching.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CurrentMove {
    /// The iteration's depth.
    pub depth: u32,
    /// The move.
    pub mv: Move,
    /// Its place in the iteration's move order, from 1 (with MultiPV, counting the first moves
    /// of the lines already searched, as Stockfish does).
    pub number: u32,
}

/// The callback a search reports through. `Send` because it travels with the main thread.
pub type Reporter<'a> = dyn FnMut(Report<'_>) + Send + 'a;

/// What one finished iteration found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    /// The iteration's depth, in plies.
    pub depth: u32,
    /// The deepest ply reached (quiescence included).
    pub seldepth: u32,
    /// With `MultiPV` above 1, which line this is (1 = best); `None` with one line.
    pub multipv: Option<u32>,
    /// The score from the side to move's point of view.
    pub score: Score,
    /// Nodes searched so far, every thread included.
    pub nodes: u64,
    /// Nodes per second so far.
    pub nps: u64,
    /// Milliseconds since the search began.
    pub time_ms: u64,
    /// Per mille of the transposition table in use.
    pub hashfull: u32,
    /// The principal variation, best move first.
    pub pv: Vec<Move>,
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// `None` only when the game is over (no legal move).
    pub best_move: Option<Move>,
    /// The reply the search expects to the best move (the principal variation's second move),
    /// for `bestmove <m> ponder <reply>`.
    pub ponder: Option<Move>,
    /// The score of the best move.
    pub score: Score,
    /// The last completed depth.
    pub depth: u32,
    /// Nodes searched, every thread included.
    pub nodes: u64,
}
