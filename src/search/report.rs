//! What a search tells its caller: a report after each finished iteration, and the result. The
//! search never prints; the protocol layer formats these.

use crate::moves::Move;
use crate::score::Score;

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
