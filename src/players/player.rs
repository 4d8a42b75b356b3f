//! What the match runner asks of a player, whether an external UGI engine or a built-in one.
//! Which player to start, and starting it, is `engine_spec`.

use std::time::Duration;

use lielow_engine::limits::Limits;
use lielow_rules::moves::Move;
use lielow_rules::position::Position;

use crate::reason::Reason;

/// How long the runner waits for the handshake replies (`ugiok`, `readyok`) of an engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timeouts {
    /// Longest wait for `ugiok` and for `readyok`.
    pub handshake: Duration,
}

/// One request for a move.
pub struct MoveRequest<'a> {
    /// Where the game started and every move since: sent as `position fen <start> moves ...`.
    pub start: &'a Position,
    /// Every move played since `start` (opening moves included).
    pub moves: &'a [Move],
    /// The position after `moves`, for built-in players.
    pub position: &'a Position,
    /// The `go` parameters (clock for both sides, movetime, depth, nodes).
    pub limits: Limits,
    /// How long to wait for `bestmove` before the engine is declared hung.
    pub deadline: Duration,
}

/// A player's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// The move as the player wrote it (checked by the runner).
    pub text: String,
    /// Wall time from `go` to `bestmove`.
    pub elapsed: Duration,
    /// The depth of the last `info` line, when there was one.
    pub depth: Option<u32>,
    /// The reply the player expects (`bestmove <m> ponder <reply>`), as written.
    pub ponder: Option<String>,
    /// The move came from a ponder search that the opponent's move confirmed (`ponderhit`).
    pub ponder_hit: bool,
}

/// Why a player produced no move: the process died (`Crash`) or stayed silent (`NoReply`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// `Crash` or `NoReply`.
    pub reason: Reason,
    /// What happened, for the log.
    pub detail: String,
}

impl Failure {
    /// A failure for `reason`, explained by `detail`.
    pub fn new(reason: Reason, detail: impl Into<String>) -> Failure {
        Failure {
            reason,
            detail: detail.into(),
        }
    }
}

/// A player kept alive across the games of one worker.
pub trait Player: Send {
    /// Gets ready for a new game (starting or restarting the engine when needed); `seed` makes
    /// built-in players' choices reproducible.
    fn new_game(&mut self, seed: u64) -> Result<(), Failure>;

    /// Asks for a move.
    fn go(&mut self, request: &MoveRequest) -> Result<Reply, Failure>;

    /// Whether the player thinks on the opponent's time.
    fn ponders(&self) -> bool {
        false
    }

    /// Starts thinking on the opponent's time about `request`, the position after the reply
    /// the player expects, and returns at once. The next [`Player::go`] or
    /// [`Player::new_game`] ends that search: `go` for the same moves continues it (a ponder
    /// hit), anything else stops it first. A failure here is returned by that next call, so
    /// that it counts against the player's own move.
    fn ponder(&mut self, _request: &MoveRequest) {}
}
