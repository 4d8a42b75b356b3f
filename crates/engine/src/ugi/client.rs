//! The other side of UGI: a match runner or a GUI speaking to an engine, line by line. The one
//! client both use; it knows nothing of processes (the tools start, watch and kill those), only
//! of the engine's input (any [`Write`]) and of its output lines ([`Lines`]).
//!
//! A reader thread ([`spawn_reader`]) turns the engine's output into lines of at most
//! [`MAX_LINE`] bytes on a channel, so every wait is a timeout and an engine that stops talking
//! can never hang the caller: a wait ends with the line it wanted, with
//! [`ClientError::Closed`] (the engine's output ended: it exited or crashed) or with
//! [`ClientError::Silent`] (nothing wanted came in time).
//!
//! The conversation: `ugi` -> `ugiok`; `setoption name N value V` per option; `isready` ->
//! `readyok` ([`Client::handshake`]). Before each game: `uginewgame`, `isready` -> `readyok`
//! (which also drains anything left over from the previous game; [`Client::new_game`]). Each
//! move ([`Client::go`]): `position fen <start> [moves ...]`, then a barrier (`isready`, every
//! line up to `readyok` dropped: stray output after the last `bestmove`, a second `bestmove`
//! included, costs nothing and answers nothing), then `go ...`; then lines until
//! `bestmove <move>` ([`Client::wait_for_bestmove`]); `info` lines are read (through
//! [`super::read_info`]) for their depth and score, other lines ignored.
//!
//! A pondering engine (`Ponder` set true) is sent, right after its move, the position after the
//! reply it expects and `go ponder ...`. If the opponent plays that reply, the runner sends
//! `ponderhit` and its clock runs from then; otherwise (or when the game ends, or a new one
//! starts) it sends `stop`, drops the `bestmove` of the ponder search
//! ([`Client::stop_search`]), and asks as usual.

use std::fmt;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use super::{go_line, read_info, InfoFields, PositionCommand};
use crate::limits::Limits;

/// Longest line kept whole; a longer one is cut into pieces of this size, so an engine that
/// prints without end cannot exhaust the caller's memory.
pub const MAX_LINE: usize = 64 * 1024;

/// What the reader thread passes on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Heard {
    /// One line, without its line end; invalid UTF-8 replaced.
    Line(String),
    /// The engine closed its output (it exited or crashed); nothing follows.
    Closed,
}

/// Starts the thread that reads the engine's `output` and hands each line, then
/// [`Heard::Closed`], to `deliver`; it ends at the end of the output or when `deliver` returns
/// false (nobody listens any more).
pub fn spawn_reader<R, F>(output: R, mut deliver: F)
where
    R: Read + Send + 'static,
    F: FnMut(Heard) -> bool + Send + 'static,
{
    thread::spawn(move || {
        let mut reader = BufReader::new(output);
        let mut buffer = Vec::new();
        loop {
            buffer.clear();
            match (&mut reader)
                .take(MAX_LINE as u64)
                .read_until(b'\n', &mut buffer)
            {
                Ok(0) | Err(_) => {
                    deliver(Heard::Closed);
                    return;
                }
                Ok(_) => {
                    let text = String::from_utf8_lossy(&buffer);
                    let line = text.trim_end_matches(['\n', '\r']).to_string();
                    if !deliver(Heard::Line(line)) {
                        return;
                    }
                }
            }
        }
    });
}

/// What waiting for the engine's next line gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Next {
    /// A line.
    Line(String),
    /// The engine's output ended.
    Closed,
    /// Nothing within the time given.
    TimedOut,
}

/// Where the client reads the engine's lines: the channel of its own reader thread
/// ([`LineChannel`]), or a caller's inbox that carries other messages too (a GUI's orders),
/// which it then keeps for later.
pub trait Lines {
    /// The next line, waiting at most `timeout`.
    fn next_line(&mut self, timeout: Duration) -> Next;
}

/// The lines of one engine, from a reader thread of its own.
pub struct LineChannel {
    lines: Receiver<Heard>,
}

impl LineChannel {
    /// Starts a reader thread on the engine's `output`.
    pub fn reading(output: impl Read + Send + 'static) -> LineChannel {
        let (sender, lines) = mpsc::channel();
        spawn_reader(output, move |heard| sender.send(heard).is_ok());
        LineChannel { lines }
    }
}

impl Lines for LineChannel {
    fn next_line(&mut self, timeout: Duration) -> Next {
        match self.lines.recv_timeout(timeout) {
            Ok(Heard::Line(line)) => Next::Line(line),
            Ok(Heard::Closed) | Err(RecvTimeoutError::Disconnected) => Next::Closed,
            Err(RecvTimeoutError::Timeout) => Next::TimedOut,
        }
    }
}

/// The reply a wait is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Awaited {
    /// `ugiok`, the end of the engine's introduction.
    UgiOk,
    /// `readyok`, the answer to `isready`.
    ReadyOk,
    /// `bestmove` of a search the caller wants.
    BestMove,
    /// `bestmove` of a search the caller stopped and drops.
    BestMoveAfterStop,
}

impl Awaited {
    /// Whether `line` is this reply.
    fn answered_by(self, line: &str) -> bool {
        match self {
            Awaited::UgiOk => line.trim() == "ugiok",
            Awaited::ReadyOk => line.trim() == "readyok",
            Awaited::BestMove | Awaited::BestMoveAfterStop => first_word_is(line, "bestmove"),
        }
    }
}

impl fmt::Display for Awaited {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Awaited::UgiOk => "ugiok",
            Awaited::ReadyOk => "readyok",
            Awaited::BestMove => "bestmove",
            Awaited::BestMoveAfterStop => "bestmove after stop",
        })
    }
}

/// Why the engine did not give what the client asked.
#[derive(Debug)]
pub enum ClientError {
    /// Its input could not be written (it has gone, typically).
    Write(io::Error),
    /// Its output ended while the client waited.
    Closed(Awaited),
    /// It did not answer in time.
    Silent {
        /// The answer waited for.
        awaited: Awaited,
        /// How long the client waited.
        timeout: Duration,
    },
}

impl fmt::Display for ClientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientError::Write(error) => write!(f, "cannot write to the engine: {error}"),
            ClientError::Closed(awaited) => {
                write!(f, "the engine exited while the client waited for {awaited}")
            }
            ClientError::Silent { awaited, timeout } => {
                write!(f, "no {awaited} within {} ms", timeout.as_millis())
            }
        }
    }
}

impl std::error::Error for ClientError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ClientError::Write(error) => Some(error),
            _ => None,
        }
    }
}

/// `bestmove <move> [ponder <reply>]`, as written (the caller checks the move).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BestMove {
    /// The move; empty when the line names none.
    pub text: String,
    /// The reply the engine expects, when it names one.
    pub ponder: Option<String>,
}

/// One line of the engine, as the client reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Said<'a> {
    /// `bestmove ...`: the search ended.
    BestMove(BestMove),
    /// An `info` line of a finished iteration (depth, score, PV ...).
    Info(InfoFields),
    /// An `info ... currmove ...` line: the root move under way, not a finished depth.
    Searching(InfoFields),
    /// `info string <text>`: a message for the user.
    Message(&'a str),
    /// Anything else (ignored).
    Other,
}

/// Reads one line of the engine.
pub fn read_line(line: &str) -> Said<'_> {
    if first_word_is(line, "bestmove") {
        let mut words = line.split_whitespace().skip(1);
        let text = words.next().unwrap_or("").to_owned();
        let ponder = match (words.next(), words.next()) {
            (Some("ponder"), Some(reply)) => Some(reply.to_owned()),
            _ => None,
        };
        return Said::BestMove(BestMove { text, ponder });
    }
    match read_info(line) {
        Some(info) if info.currmove.is_some() => Said::Searching(info),
        Some(info) => Said::Info(info),
        None => match line.strip_prefix("info string ") {
            Some(text) => Said::Message(text),
            None => Said::Other,
        },
    }
}

fn first_word_is(line: &str, word: &str) -> bool {
    line.split_whitespace().next() == Some(word)
}

/// A UGI engine as its runner or GUI sees it: its input, and its output's lines.
pub struct Client<W, L = LineChannel> {
    input: W,
    lines: L,
}

impl<W: Write> Client<W, LineChannel> {
    /// A client writing to `input` and reading `output` on a reader thread of its own.
    pub fn reading(input: W, output: impl Read + Send + 'static) -> Client<W, LineChannel> {
        Client::new(input, LineChannel::reading(output))
    }
}

impl<W: Write, L: Lines> Client<W, L> {
    /// A client writing to `input` and reading `lines`.
    pub fn new(input: W, lines: L) -> Client<W, L> {
        Client { input, lines }
    }

    /// Sends one line (and flushes it).
    pub fn send(&mut self, line: impl fmt::Display) -> Result<(), ClientError> {
        writeln!(self.input, "{line}")
            .and_then(|()| self.input.flush())
            .map_err(ClientError::Write)
    }

    /// Waits at most `timeout` for `awaited`, handing every other line to `other`; returns the
    /// line that answered.
    pub fn wait_for(
        &mut self,
        awaited: Awaited,
        timeout: Duration,
        mut other: impl FnMut(&str),
    ) -> Result<String, ClientError> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.next_line(left) {
                Next::Line(line) if awaited.answered_by(&line) => return Ok(line),
                Next::Line(line) => other(&line),
                Next::Closed => return Err(ClientError::Closed(awaited)),
                Next::TimedOut => return Err(ClientError::Silent { awaited, timeout }),
            }
        }
    }

    /// `ugi` -> `ugiok`, the `options` (name, value), `isready` -> `readyok`, each wait at
    /// most `timeout`. Returns the `info string` lines the engine printed about the options
    /// (errors, typically), for the caller to show.
    pub fn handshake(
        &mut self,
        options: &[(String, String)],
        timeout: Duration,
    ) -> Result<Vec<String>, ClientError> {
        self.send("ugi")?;
        self.wait_for(Awaited::UgiOk, timeout, |_| {})?;
        for (name, value) in options {
            self.set_option(name, value)?;
        }
        self.send("isready")?;
        let mut notes = Vec::new();
        self.wait_for(Awaited::ReadyOk, timeout, |line| {
            if first_word_is(line, "info") && line.contains("string") {
                notes.push(line.to_owned());
            }
        })?;
        Ok(notes)
    }

    /// `setoption name <name> value <value>` (its answer, if any, comes before the next
    /// `readyok`).
    pub fn set_option(&mut self, name: &str, value: impl fmt::Display) -> Result<(), ClientError> {
        self.send(format_args!("setoption name {name} value {value}"))
    }

    /// The barrier: `isready`, and every line up to `readyok` dropped. What an engine printed
    /// after its last `bestmove` (a second `bestmove`, a flood of `info`) is read here, before
    /// a clock starts, so it can neither answer the next move nor cost it time.
    pub fn ready(&mut self, timeout: Duration) -> Result<(), ClientError> {
        self.send("isready")?;
        self.wait_for(Awaited::ReadyOk, timeout, |_| {}).map(drop)
    }

    /// `uginewgame`, then the barrier.
    pub fn new_game(&mut self, timeout: Duration) -> Result<(), ClientError> {
        self.send("uginewgame")?;
        self.ready(timeout)
    }

    /// Starts a search: `position`, the barrier (at most `timeout`), `go` with `limits` (with
    /// `limits.ponder`: `go ponder ...`). Returns as soon as `go` is sent: the search's lines
    /// are read by [`Client::wait_for_bestmove`].
    pub fn go(
        &mut self,
        position: &PositionCommand,
        limits: &Limits,
        timeout: Duration,
    ) -> Result<(), ClientError> {
        self.send(position)?;
        self.ready(timeout)?;
        self.send(go_line(limits))
    }

    /// `ponderhit`: the ponder search goes on as the real one.
    pub fn ponder_hit(&mut self) -> Result<(), ClientError> {
        self.send("ponderhit")
    }

    /// `stop`: the search ends soon, with its `bestmove`.
    pub fn stop(&mut self) -> Result<(), ClientError> {
        self.send("stop")
    }

    /// Ends a search whose result is not wanted: `stop`, and its `bestmove` (waited for at
    /// most `timeout`) dropped.
    pub fn stop_search(&mut self, timeout: Duration) -> Result<(), ClientError> {
        self.stop()?;
        self.wait_for(Awaited::BestMoveAfterStop, timeout, |_| {})
            .map(drop)
    }

    /// Waits at most `timeout` for the `bestmove` of the search under way, handing the `info`
    /// of each finished iteration to `on_info` (`currmove` lines and anything else are
    /// dropped).
    pub fn wait_for_bestmove(
        &mut self,
        timeout: Duration,
        mut on_info: impl FnMut(&InfoFields),
    ) -> Result<BestMove, ClientError> {
        let line = self.wait_for(Awaited::BestMove, timeout, |line| {
            if let Said::Info(info) = read_line(line) {
                on_info(&info);
            }
        })?;
        match read_line(&line) {
            Said::BestMove(best) => Ok(best),
            _ => unreachable!("wait_for returns a bestmove line"),
        }
    }

    /// `quit` (the caller sees to it that the process ends).
    pub fn quit(&mut self) -> Result<(), ClientError> {
        self.send("quit")
    }
}

#[cfg(test)]
mod tests;
