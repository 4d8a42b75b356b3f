//! The runner's side of UGI: an external engine as a [`Player`], a child process spoken to
//! through `lielow_engine::ugi::client` (whose module doc describes the conversation, pondering
//! included), started and ended by [`crate::process`].
//!
//! Every wait is a timeout: an engine that dies (end of its output) is a `crash`, one that
//! misses a deadline a `no-reply`; either way the process (and, on Unix, its whole process
//! group, so a wrapper script's children go too) is killed, and the next game starts a fresh
//! one with a new handshake.

use std::process::ChildStdin;
use std::time::{Duration, Instant};

use lielow_engine::limits::Limits;
use lielow_engine::ugi::client::{Client, ClientError};
use lielow_engine::ugi::PositionCommand;
use lielow_rules::moves::Move;

use super::player::{Failure, MoveRequest, Player, Reply, Timeouts};
use crate::process::EngineProcess;
use crate::reason::Reason;

/// How long an engine gets to exit by itself after `quit`.
const QUIT_GRACE: Duration = Duration::from_millis(300);

/// A running engine: the process, and the client that speaks to it.
struct Running {
    process: EngineProcess,
    client: Client<ChildStdin>,
}

impl Running {
    fn spawn(argv: &[String]) -> Result<Running, Failure> {
        let spawned =
            EngineProcess::spawn(argv).map_err(|e| Failure::new(Reason::Crash, e.to_string()))?;
        Ok(Running {
            process: spawned.process,
            client: Client::reading(spawned.input, spawned.output),
        })
    }

    /// The failure for `error`: a closed output is a crash (with how the process ended), a
    /// missed deadline a no-reply.
    fn failure(&mut self, error: ClientError) -> Failure {
        match error {
            ClientError::Write(_) => Failure::new(Reason::Crash, error.to_string()),
            ClientError::Closed(awaited) => {
                let status = self.process.exit_status();
                Failure::new(
                    Reason::Crash,
                    format!("the engine exited while the runner waited for {awaited} ({status})"),
                )
            }
            ClientError::Silent { .. } => Failure::new(Reason::NoReply, error.to_string()),
        }
    }

    /// Asks the engine to quit, killing it if it does not within a short grace.
    fn quit(mut self) {
        let _ = self.client.quit();
        self.process.end_within(QUIT_GRACE);
    }
}

/// An external UGI engine: the command, its options, and the process when running.
pub struct UgiEngine {
    argv: Vec<String>,
    options: Vec<(String, String)>,
    timeouts: Timeouts,
    running: Option<Running>,
    /// `info string` lines seen during the last handshake (errors about options, typically).
    pub handshake_notes: Vec<String>,
    /// Whether the engine is sent `go ponder` after its moves.
    ponders: bool,
    /// While a ponder search runs: the moves of the position it searches.
    pondering: Option<Vec<Move>>,
    /// Why the last ponder search could not start: reported at the next `go` or new game.
    ponder_failure: Option<Failure>,
}

impl UgiEngine {
    /// An engine run as `argv`, given `options` after each handshake; not started yet.
    pub fn new(argv: Vec<String>, options: Vec<(String, String)>, timeouts: Timeouts) -> UgiEngine {
        UgiEngine {
            argv,
            options,
            timeouts,
            running: None,
            handshake_notes: Vec::new(),
            ponders: false,
            pondering: None,
            ponder_failure: None,
        }
    }

    /// Starts the engine once (handshake, `options`, `isready`) and shuts it down: the `info
    /// string` lines it said during the handshake, or why it did not start.
    pub fn try_start(
        argv: &[String],
        options: &[(String, String)],
        timeouts: Timeouts,
    ) -> Result<Vec<String>, Failure> {
        let mut engine = UgiEngine::new(argv.to_vec(), options.to_vec(), timeouts);
        engine.ensure_started()?;
        let notes = std::mem::take(&mut engine.handshake_notes);
        engine.shut_down();
        Ok(notes)
    }

    /// Whether the engine ponders (it must also be given the `Ponder` option).
    pub fn set_pondering(&mut self, on: bool) {
        self.ponders = on;
    }

    /// Ends a ponder search whose result is not wanted: `stop`, and its `bestmove` dropped.
    fn stop_pondering(&mut self) -> Result<(), Failure> {
        if let Some(failure) = self.ponder_failure.take() {
            return Err(failure);
        }
        if self.pondering.take().is_none() {
            return Ok(());
        }
        let timeout = self.timeouts.handshake;
        self.talk(|client| client.stop_search(timeout))
    }

    /// Starts the process and completes the handshake, if not running.
    pub fn ensure_started(&mut self) -> Result<(), Failure> {
        if self.running.is_some() {
            return Ok(());
        }
        let mut running = Running::spawn(&self.argv)?;
        match running
            .client
            .handshake(&self.options, self.timeouts.handshake)
        {
            Ok(notes) => {
                self.handshake_notes = notes;
                self.running = Some(running);
                Ok(())
            }
            Err(error) => {
                self.handshake_notes = Vec::new();
                let failure = running.failure(error);
                running.process.kill();
                Err(failure)
            }
        }
    }

    /// Runs `talk` on the engine's client; a failure kills the process so the next game
    /// restarts it.
    fn talk<T>(
        &mut self,
        talk: impl FnOnce(&mut Client<ChildStdin>) -> Result<T, ClientError>,
    ) -> Result<T, Failure> {
        self.ensure_started()?;
        let running = self.running.as_mut().expect("started above");
        talk(&mut running.client).map_err(|error| {
            self.pondering = None;
            let mut running = self.running.take().expect("started above");
            let failure = running.failure(error);
            running.process.kill();
            failure
        })
    }

    /// Stops the engine politely (`quit`), killing it if it lingers.
    pub fn shut_down(&mut self) {
        if let Some(running) = self.running.take() {
            running.quit();
        }
    }
}

impl Drop for UgiEngine {
    fn drop(&mut self) {
        self.shut_down();
    }
}

impl Player for UgiEngine {
    fn new_game(&mut self, _seed: u64) -> Result<(), Failure> {
        self.stop_pondering()?;
        let timeout = self.timeouts.handshake;
        self.talk(|client| client.new_game(timeout))
    }

    fn go(&mut self, request: &MoveRequest) -> Result<Reply, Failure> {
        let ponder_hit = self.pondering.as_deref() == Some(request.moves);
        if ponder_hit {
            self.pondering = None;
        } else {
            self.stop_pondering()?;
        }
        let position = PositionCommand::game(request.start, request.moves);
        let timeout = self.timeouts.handshake;
        self.talk(|client| {
            if ponder_hit {
                client.ponder_hit()?;
            } else {
                client.go(&position, &request.limits, timeout)?;
            }
            let sent = Instant::now();
            let mut depth = None;
            let best = client.wait_for_bestmove(request.deadline, |info| {
                if let Some(d) = info.depth {
                    depth = Some(d);
                }
            })?;
            Ok(Reply {
                text: best.text,
                elapsed: sent.elapsed(),
                depth,
                ponder: best.ponder,
                ponder_hit,
            })
        })
    }

    fn ponders(&self) -> bool {
        self.ponders
    }

    fn ponder(&mut self, request: &MoveRequest) {
        if !self.ponders {
            return;
        }
        if let Err(failure) = self.stop_pondering() {
            self.ponder_failure = Some(failure);
            return;
        }
        let position = PositionCommand::game(request.start, request.moves);
        let limits = Limits {
            ponder: true,
            ..request.limits
        };
        let timeout = self.timeouts.handshake;
        match self.talk(|client| client.go(&position, &limits, timeout)) {
            Ok(()) => self.pondering = Some(request.moves.to_vec()),
            Err(failure) => self.ponder_failure = Some(failure),
        }
    }
}
