//! The runner's side of UGI: an engine as a child process, spoken to line by line.
//!
//! A reader thread turns the engine's stdout into lines on a channel, so every wait is a
//! `recv_timeout` and an engine that stops talking can never hang the match. An engine that dies
//! (end of its output) is a `crash`, one that misses a deadline a `no-reply`; either way the
//! process (and, on Unix, its whole process group, so a wrapper script's children go too) is
//! killed, and the next game starts a fresh one with a new handshake.
//!
//! The conversation: `ugi` -> `ugiok`; `setoption name N value V` per option; `isready` ->
//! `readyok`. Before each game: `uginewgame`, `isready` -> `readyok` (which also drains anything
//! left over from the previous game). Each move: `position fen <start> [moves ...]`, then a
//! barrier (`isready`, every line up to `readyok` dropped: stray output after the last
//! `bestmove`, a second `bestmove` included, costs nothing and answers nothing), then `go ...`
//! with the clock started, and lines until `bestmove <move>`; `info` lines are read for their
//! depth, other lines ignored.
//!
//! A pondering engine (`Ponder` set true) is sent, right after its move, the position after the
//! reply it expects and `go ponder ...`. If the opponent plays that reply, the runner sends
//! `ponderhit` and its clock runs from then; otherwise (or when the game ends, or a new one
//! starts) it sends `stop`, drops the `bestmove` of the ponder search, and asks as usual.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::Mutex;
use std::thread;
use std::time::{Duration, Instant};

use lielow_engine::ugi;
use lielow_rules::moves::Move;

use super::player::{Failure, MoveRequest, Player, Reply, Timeouts};
use super::Reason;

/// Longest line kept whole; a longer one is cut into pieces of this size.
const MAX_LINE: u64 = 64 * 1024;

/// How long an engine gets to exit by itself after `quit`.
const QUIT_GRACE: Duration = Duration::from_millis(300);

/// Splits a command line into words the way a POSIX shell does for plain words: whitespace
/// separates; `'...'` keeps everything literally; `"..."` keeps everything except that `\` escapes
/// `"`, `\`, `$` and `` ` ``; outside quotes `\` escapes any character. No expansions.
pub fn split_command_line(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err(format!("unterminated ' in command '{line}'")),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\' | '$' | '`')) => word.push(c),
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err(format!("unterminated \" in command '{line}'")),
                        },
                        Some(c) => word.push(c),
                        None => return Err(format!("unterminated \" in command '{line}'")),
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next() {
                    Some(c) => word.push(c),
                    None => return Err(format!("command '{line}' ends with a lone \\")),
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    if words.is_empty() {
        return Err("empty engine command".into());
    }
    Ok(words)
}

/// What the reader thread passes on.
enum Event {
    Line(String),
    /// The engine closed its output (it exited or crashed).
    Eof,
}

/// A running engine process.
struct Process {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Event>,
}

impl Process {
    fn spawn(argv: &[String]) -> Result<Process, String> {
        let mut child = spawn_engine(argv)?;
        let stdin = child.stdin.take().ok_or("no stdin pipe")?;
        let stdout = child.stdout.take().ok_or("no stdout pipe")?;
        let (sender, lines) = mpsc::channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buffer = Vec::new();
            loop {
                buffer.clear();
                match (&mut reader).take(MAX_LINE).read_until(b'\n', &mut buffer) {
                    Ok(0) | Err(_) => {
                        let _ = sender.send(Event::Eof);
                        return;
                    }
                    Ok(_) => {
                        let text = String::from_utf8_lossy(&buffer);
                        let line = text.trim_end_matches(['\n', '\r']).to_string();
                        if sender.send(Event::Line(line)).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        Ok(Process {
            child,
            stdin,
            lines,
        })
    }

    fn send(&mut self, line: &str) -> Result<(), Failure> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| Failure::new(Reason::Crash, format!("cannot write to the engine: {e}")))
    }

    /// Waits until a line satisfying `wanted` arrives (other lines go to `other`), or `timeout`.
    fn wait_for(
        &mut self,
        timeout: Duration,
        what: &str,
        wanted: impl Fn(&str) -> bool,
        mut other: impl FnMut(&str),
    ) -> Result<String, Failure> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(Event::Line(line)) if wanted(&line) => return Ok(line),
                Ok(Event::Line(line)) => other(&line),
                Ok(Event::Eof) | Err(RecvTimeoutError::Disconnected) => {
                    let status = self.exit_status();
                    return Err(Failure::new(
                        Reason::Crash,
                        format!("the engine exited while the runner waited for {what} ({status})"),
                    ));
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(Failure::new(
                        Reason::NoReply,
                        format!("no {what} within {} ms", timeout.as_millis()),
                    ))
                }
            }
        }
    }

    /// The barrier before each `go`: `isready`, and every line up to `readyok` dropped. What
    /// an engine printed after its last `bestmove` (a second `bestmove`, a flood of `info`) is
    /// read here, before the clock starts, so it can neither answer the next move nor cost it
    /// time.
    fn barrier(&mut self, timeout: Duration) -> Result<(), Failure> {
        self.send("isready")?;
        self.wait_for(timeout, "readyok", |l| l.trim() == "readyok", |_| {})
            .map(|_| ())
    }

    /// How the process ended, waiting briefly: a process that closed its output may still be
    /// running (the caller then kills it), and the runner must never block on it.
    fn exit_status(&mut self) -> String {
        let deadline = Instant::now() + Duration::from_millis(100);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return status.to_string(),
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(2)),
                Ok(None) => return "its output closed, still running".into(),
                Err(e) => return e.to_string(),
            }
        }
    }

    /// Kills the engine (and its process group) and reaps it.
    fn kill(&mut self) {
        kill_group(self.child.id());
        let _ = self.child.kill();
        let _ = self.child.wait();
        forget_group(self.child.id());
    }

    /// Asks the engine to quit, killing it if it does not within a short grace.
    fn quit(mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + QUIT_GRACE;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                // Children it left behind in its group go too.
                kill_group(self.child.id());
                forget_group(self.child.id());
                return;
            }
            thread::sleep(Duration::from_millis(5));
        }
        self.kill();
    }
}

/// Starts an engine from `argv` with piped input and output, as the leader of a process group
/// of its own (so that it can be killed with whatever it starts), registered for
/// [`kill_all_engines`]. Used by the match runner and the GUI.
pub(crate) fn spawn_engine(argv: &[String]) -> Result<Child, String> {
    let (program, args) = argv.split_first().ok_or("empty engine command")?;
    let mut command = Command::new(program);
    command
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        command.process_group(0);
    }
    let child = command
        .spawn()
        .map_err(|e| format!("cannot start '{program}': {e}"))?;
    remember_group(child.id());
    Ok(child)
}

/// The process groups of the engines running, for [`kill_all_engines`].
static RUNNING_GROUPS: Mutex<Vec<u32>> = Mutex::new(Vec::new());

fn remember_group(id: u32) {
    RUNNING_GROUPS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .push(id);
}

pub(crate) fn forget_group(id: u32) {
    RUNNING_GROUPS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .retain(|&group| group != id);
}

/// Kills the process group `id` (the engine started as its leader, and whatever it started)
/// with a system call, not the `kill` program, which may not be on the PATH.
pub(crate) fn kill_group(id: u32) {
    #[cfg(unix)]
    {
        use nix::sys::signal::{killpg, Signal};
        use nix::unistd::Pid;
        if let Ok(id) = i32::try_from(id) {
            // It may be gone already (ESRCH): nothing is left to kill then.
            let _ = killpg(Pid::from_raw(id), Signal::SIGKILL);
        }
    }
    #[cfg(not(unix))]
    let _ = id;
}

/// Kills every engine this process started, and their children: what the runner does when it
/// is interrupted (Ctrl-C, SIGTERM), so that no engine outlives it.
pub fn kill_all_engines() {
    let groups = std::mem::take(
        &mut *RUNNING_GROUPS
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner()),
    );
    for group in groups {
        kill_group(group);
    }
}

fn first_word_is(line: &str, word: &str) -> bool {
    line.split_whitespace().next() == Some(word)
}

/// An external UGI engine: the command, its options, and the process when running.
pub struct UgiEngine {
    argv: Vec<String>,
    options: Vec<(String, String)>,
    timeouts: Timeouts,
    process: Option<Process>,
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
            process: None,
            handshake_notes: Vec::new(),
            ponders: false,
            pondering: None,
            ponder_failure: None,
        }
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
        self.with_process(|process| {
            process.send("stop")?;
            process
                .wait_for(
                    timeout,
                    "bestmove after stop",
                    |l| first_word_is(l, "bestmove"),
                    |_| {},
                )
                .map(|_| ())
        })
    }

    /// Starts the process and completes the handshake, if not running.
    pub fn ensure_started(&mut self) -> Result<(), Failure> {
        if self.process.is_some() {
            return Ok(());
        }
        let mut process = Process::spawn(&self.argv).map_err(|e| Failure::new(Reason::Crash, e))?;
        let timeout = self.timeouts.handshake;
        let mut notes = Vec::new();
        let result = (|| {
            process.send("ugi")?;
            process.wait_for(timeout, "ugiok", |l| l.trim() == "ugiok", |_| {})?;
            for (name, value) in &self.options {
                process.send(&format!("setoption name {name} value {value}"))?;
            }
            process.send("isready")?;
            process.wait_for(
                timeout,
                "readyok",
                |l| l.trim() == "readyok",
                |l| {
                    if first_word_is(l, "info") && l.contains("string") {
                        notes.push(l.to_string());
                    }
                },
            )?;
            Ok(())
        })();
        self.handshake_notes = notes;
        match result {
            Ok(()) => {
                self.process = Some(process);
                Ok(())
            }
            Err(failure) => {
                process.kill();
                Err(failure)
            }
        }
    }

    /// Runs `talk` on the process; a failure kills it so the next game restarts it.
    fn with_process<T>(
        &mut self,
        talk: impl FnOnce(&mut Process) -> Result<T, Failure>,
    ) -> Result<T, Failure> {
        self.ensure_started()?;
        let process = self.process.as_mut().expect("started above");
        let result = talk(process);
        if result.is_err() {
            self.pondering = None;
            if let Some(mut process) = self.process.take() {
                process.kill();
            }
        }
        result
    }

    /// Stops the engine politely (`quit`), killing it if it lingers.
    pub fn shut_down(&mut self) {
        if let Some(process) = self.process.take() {
            process.quit();
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
        self.with_process(|process| {
            process.send("uginewgame")?;
            process.send("isready")?;
            process
                .wait_for(timeout, "readyok", |l| l.trim() == "readyok", |_| {})
                .map(|_| ())
        })
    }

    fn go(&mut self, request: &MoveRequest) -> Result<Reply, Failure> {
        let ponder_hit = self.pondering.as_deref() == Some(request.moves);
        if ponder_hit {
            self.pondering = None;
        } else {
            self.stop_pondering()?;
        }
        let position = position_line(request);
        let go = ugi::go_line(&request.limits);
        let timeout = self.timeouts.handshake;
        self.with_process(|process| {
            if ponder_hit {
                process.send("ponderhit")?;
            } else {
                process.send(&position)?;
                process.barrier(timeout)?;
                process.send(&go)?;
            }
            let sent = Instant::now();
            let mut depth = None;
            let line = process.wait_for(
                request.deadline,
                "bestmove",
                |l| first_word_is(l, "bestmove"),
                |l| {
                    // A `currmove` line names the depth under way, not one finished.
                    let finished = ugi::read_info(l).filter(|info| info.currmove.is_none());
                    if let Some(d) = finished.and_then(|info| info.depth) {
                        depth = Some(d);
                    }
                },
            )?;
            let elapsed = sent.elapsed();
            let mut words = line.split_whitespace().skip(1);
            let text = words.next().unwrap_or("").to_string();
            let ponder = match (words.next(), words.next()) {
                (Some("ponder"), Some(reply)) => Some(reply.to_string()),
                _ => None,
            };
            Ok(Reply {
                text,
                elapsed,
                depth,
                ponder,
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
        let position = position_line(request);
        let go = ugi::go_line(&lielow_engine::limits::Limits {
            ponder: true,
            ..request.limits
        });
        let timeout = self.timeouts.handshake;
        match self.with_process(|process| {
            process.send(&position)?;
            process.barrier(timeout)?;
            process.send(&go)
        }) {
            Ok(()) => self.pondering = Some(request.moves.to_vec()),
            Err(failure) => self.ponder_failure = Some(failure),
        }
    }
}

/// `position fen <start> [moves ...]` for `request`.
fn position_line(request: &MoveRequest) -> String {
    let mut line = format!("position fen {}", request.start.to_lfen());
    if !request.moves.is_empty() {
        line += " moves";
        for mv in request.moves {
            line += &format!(" {mv}");
        }
    }
    line
}
