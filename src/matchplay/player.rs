//! What the runner asks of a player, whether an external UGI engine or a built-in one.

use std::time::Duration;

use crate::limits::Limits;
use crate::moves::Move;
use crate::position::Position;

use super::builtin::{Builtin, BuiltinPlayer};
use super::ugi_client::UgiEngine;
use super::Reason;

/// How to start one player of a match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The name shown in tables and written in records.
    pub name: String,
    /// What runs.
    pub kind: EngineKind,
    /// UGI options, sent as `setoption name <NAME> value <VALUE>` after the handshake.
    pub options: Vec<(String, String)>,
    /// This engine's own `movetime` (ms), instead of the match's: for time-odds matches such
    /// as the engine at 200 ms/move against itself at 50 ms/move.
    pub movetime: Option<u64>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
/// What kind of player an [`EngineSpec`] starts.
pub enum EngineKind {
    /// A program and its arguments.
    Command(Vec<String>),
    /// A built-in player (no process).
    Builtin(Builtin),
}

impl EngineSpec {
    /// Starts a fresh player (an external engine is spawned lazily, at its first game).
    pub fn create(&self, timeouts: Timeouts) -> Box<dyn Player> {
        match &self.kind {
            EngineKind::Command(argv) => {
                Box::new(UgiEngine::new(argv.clone(), self.options.clone(), timeouts))
            }
            EngineKind::Builtin(kind) => Box::new(BuiltinPlayer::new(*kind)),
        }
    }
}

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
}
