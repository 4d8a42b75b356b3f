//! How to start one player of a match: an external UGI program or a built-in player, with its
//! name, options and own time. Kept apart from `player` (the trait the players implement) so
//! that the players build on the trait and this builds on the players, with no loop.

use super::builtin::{Builtin, BuiltinPlayer};
use super::player::{Player, Timeouts};
use super::ugi_client::UgiEngine;

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
    /// Pondering: the engine gets `setoption name Ponder value true` and thinks about the
    /// reply it expects while the opponent moves (`go ponder`, then `ponderhit` or `stop`).
    pub ponder: bool,
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
                let mut options = self.options.clone();
                if self.ponder {
                    options.push(("Ponder".to_owned(), "true".to_owned()));
                }
                let mut engine = UgiEngine::new(argv.clone(), options, timeouts);
                engine.set_pondering(self.ponder);
                Box::new(engine)
            }
            EngineKind::Builtin(kind) => Box::new(BuiltinPlayer::new(*kind)),
        }
    }
}
