//! What bounds a search: the `go` parameters, as one type.

/// The limits of one search. Every bound that is set applies; none set means search until stopped.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration, in plies.
    pub depth: Option<u32>,
    /// Stop after about this many nodes (checked often enough to be exact for one thread).
    pub nodes: Option<u64>,
    /// Think exactly this long, in milliseconds.
    pub movetime: Option<u64>,
    /// The clocks, for a clock game.
    pub clock: Option<Clock>,
    /// Search until `stop`, whatever else is set.
    pub infinite: bool,
    /// Stop as soon as a forced win in at most this many moves is proven (UCI `go mate N`).
    pub mate: Option<u32>,
    /// `go ponder`: think on the opponent's time. The time limits start to count only at the
    /// caller's ponder-hit signal; until then the search runs as if infinite.
    pub ponder: bool,
}

/// Remaining time and increment of each side, in milliseconds, indexed by `Side::index()`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left on each side's clock.
    pub time: [u64; 2],
    /// Added to a side's clock after each of its moves.
    pub increment: [u64; 2],
    /// Moves until the next time control (UCI `movestogo`): the clock must last that many
    /// moves of the side to move, after which it is topped up. `None`: the rest of the game.
    pub moves_to_go: Option<u32>,
}
