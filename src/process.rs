//! An engine's process, from its command line to its end: the match runner and the GUI start
//! engines here, each as the leader of a process group of its own, so that a hung engine can
//! be killed with whatever it started (a wrapper script's children too), and so that Ctrl-C
//! can end every engine still running ([`kill_all_engines`]). What is said to the engine is
//! `lielow_engine::ugi::client`'s; this module only starts, watches and ends processes.

use std::fmt;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Mutex;
use std::thread;
use std::time::{Duration, Instant};

/// Why an engine's command line could not be split into words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandLineError {
    /// A quote (`'` or `"`) is never closed.
    Unterminated {
        /// The quote.
        quote: char,
        /// The command line.
        line: String,
    },
    /// The line ends with a `\` that escapes nothing.
    LoneBackslash(String),
    /// No word at all.
    Empty,
}

impl fmt::Display for CommandLineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandLineError::Unterminated { quote, line } => {
                write!(f, "unterminated {quote} in command '{line}'")
            }
            CommandLineError::LoneBackslash(line) => {
                write!(f, "command '{line}' ends with a lone \\")
            }
            CommandLineError::Empty => f.write_str("empty engine command"),
        }
    }
}

impl std::error::Error for CommandLineError {}

/// Splits a command line into words the way a POSIX shell does for plain words: whitespace
/// separates; `'...'` keeps everything literally; `"..."` keeps everything except that `\` escapes
/// `"`, `\`, `$` and `` ` ``; outside quotes `\` escapes any character. No expansions.
pub fn split_command_line(line: &str) -> Result<Vec<String>, CommandLineError> {
    let unterminated = |quote| CommandLineError::Unterminated {
        quote,
        line: line.to_owned(),
    };
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
                        None => return Err(unterminated('\'')),
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
                            None => return Err(unterminated('"')),
                        },
                        Some(c) => word.push(c),
                        None => return Err(unterminated('"')),
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next() {
                    Some(c) => word.push(c),
                    None => return Err(CommandLineError::LoneBackslash(line.to_owned())),
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
        return Err(CommandLineError::Empty);
    }
    Ok(words)
}

/// Why an engine could not be started.
#[derive(Debug)]
pub enum SpawnError {
    /// No program was named.
    EmptyCommand,
    /// The system refused to start it.
    Start {
        /// The program.
        program: String,
        /// Why.
        error: std::io::Error,
    },
    /// It started without the pipes asked for (it is killed).
    NoPipe(&'static str),
}

impl fmt::Display for SpawnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpawnError::EmptyCommand => f.write_str("empty engine command"),
            SpawnError::Start { program, error } => write!(f, "cannot start '{program}': {error}"),
            SpawnError::NoPipe(which) => write!(f, "no {which} pipe"),
        }
    }
}

impl std::error::Error for SpawnError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SpawnError::Start { error, .. } => Some(error),
            _ => None,
        }
    }
}

/// A running engine, leader of its own process group, registered for [`kill_all_engines`].
pub struct EngineProcess {
    child: Child,
}

/// A started engine and the two ends of its pipes, for a `ugi::client::Client`.
pub struct Spawned {
    /// The process.
    pub process: EngineProcess,
    /// Its standard input.
    pub input: ChildStdin,
    /// Its standard output.
    pub output: ChildStdout,
}

impl EngineProcess {
    /// Starts an engine from `argv` with piped input and output (its errors go nowhere).
    pub fn spawn(argv: &[String]) -> Result<Spawned, SpawnError> {
        let (program, args) = argv.split_first().ok_or(SpawnError::EmptyCommand)?;
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
        let mut child = command.spawn().map_err(|error| SpawnError::Start {
            program: program.clone(),
            error,
        })?;
        remember_group(child.id());
        let pipes = (child.stdin.take(), child.stdout.take());
        let mut process = EngineProcess { child };
        match pipes {
            (Some(input), Some(output)) => Ok(Spawned {
                process,
                input,
                output,
            }),
            (input, _) => {
                process.kill_now();
                Err(SpawnError::NoPipe(if input.is_none() {
                    "stdin"
                } else {
                    "stdout"
                }))
            }
        }
    }

    /// How the process ended, waiting briefly: a process that closed its output may still be
    /// running (the caller then kills it), and no caller may block on it.
    pub fn exit_status(&mut self) -> String {
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
    pub fn kill(mut self) {
        self.kill_now();
    }

    fn kill_now(&mut self) {
        kill_group(self.child.id());
        let _ = self.child.kill();
        let _ = self.child.wait();
        forget_group(self.child.id());
    }

    /// Gives an engine told to `quit` up to `grace` to exit by itself, then kills it; children
    /// it left behind in its group go either way.
    pub fn end_within(mut self, grace: Duration) {
        let deadline = Instant::now() + grace;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                kill_group(self.child.id());
                forget_group(self.child.id());
                return;
            }
            thread::sleep(Duration::from_millis(5));
        }
        self.kill_now();
    }
}

/// The process groups of the engines running, for [`kill_all_engines`].
static RUNNING_GROUPS: Mutex<Vec<u32>> = Mutex::new(Vec::new());

fn remember_group(id: u32) {
    RUNNING_GROUPS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .push(id);
}

fn forget_group(id: u32) {
    RUNNING_GROUPS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .retain(|&group| group != id);
}

/// Kills the process group `id` (the engine started as its leader, and whatever it started)
/// with a system call, not the `kill` program, which may not be on the PATH.
fn kill_group(id: u32) {
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

/// Kills every engine this process started, and their children: what the runner and the GUI
/// do when they are interrupted (Ctrl-C, SIGTERM), so that no engine outlives them.
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
