//! `lielow gui`: play and analyse in the browser. A local web server whose page is a client of
//! the UGI protocol: the server starts each engine as a child process and speaks UGI to it as
//! any GUI would, so the page works with any UGI engine for this game.
//!
//! - [`server`]: the HTTP side (axum on hyper and tokio): the limits every connection and the
//!   checks every request passes (host, origin, size), the page's static files; [`routes`]: the
//!   JSON API; [`api`]: that API's requests and answers as types; [`sessions`]: the open pages,
//!   each living exactly as long as its event stream;
//! - [`engine`]: one engine process per page and engine, on its own thread, spoken to through
//!   the engine crate's UGI client; its orders and the page's events, typed;
//! - `static/`: the page (HTML, CSS, JavaScript), embedded in the binary.

pub mod api;
pub mod engine;
pub mod routes;
pub mod server;
pub mod sessions;

use std::fmt;
use std::path::PathBuf;

use clap::Args;

use crate::matchplay::process::{split_command_line, CommandLineError};

/// Flags of `lielow gui`.
#[derive(Args, Debug)]
pub struct GuiArgs {
    /// An engine to play and analyse with: its command line (split like a shell does), then
    /// optionally `name=NAME` (repeat --engine for more; default: this program).
    #[arg(long, num_args = 1.., value_name = "CMD [name=N]")]
    engine: Vec<String>,
    /// The port to listen on (127.0.0.1 only); 0 picks a free one.
    #[arg(long, default_value_t = 7878)]
    port: u16,
    /// Open the page in the default browser.
    #[arg(long)]
    open: bool,
}

/// One configured engine.
#[derive(Clone, Debug)]
pub struct EngineConfig {
    /// Shown on the page.
    pub name: String,
    /// The command line.
    pub argv: Vec<String>,
}

/// Why `lielow gui` cannot start.
#[derive(Debug)]
pub enum GuiError {
    /// `name=NAME` before any engine command.
    NameFirst(String),
    /// An engine's command line does not split into words.
    CommandLine(CommandLineError),
    /// This program's own path (the default engine) is unknown.
    OwnPath(std::io::Error),
    /// The port cannot be listened on.
    Listen {
        /// The port.
        port: u16,
        /// Why.
        reason: Box<dyn std::error::Error + Send + Sync>,
    },
}

impl fmt::Display for GuiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GuiError::NameFirst(word) => write!(f, "'{word}' comes before any engine"),
            GuiError::CommandLine(error) => error.fmt(f),
            GuiError::OwnPath(error) => write!(f, "cannot find this program: {error}"),
            GuiError::Listen { port, reason } => {
                write!(f, "cannot listen on 127.0.0.1:{port}: {reason}")
            }
        }
    }
}

impl std::error::Error for GuiError {}

/// The engines of the command line; this program when none is given.
fn engines(args: &GuiArgs) -> Result<Vec<EngineConfig>, GuiError> {
    let mut engines: Vec<EngineConfig> = Vec::new();
    for word in &args.engine {
        if let Some(name) = word.strip_prefix("name=") {
            let last = engines
                .last_mut()
                .ok_or_else(|| GuiError::NameFirst(word.clone()))?;
            last.name = name.to_owned();
            continue;
        }
        let argv = split_command_line(word).map_err(GuiError::CommandLine)?;
        let name = PathBuf::from(&argv[0])
            .file_name()
            .map_or(argv[0].clone(), |n| n.to_string_lossy().into_owned());
        engines.push(EngineConfig { name, argv });
    }
    if engines.is_empty() {
        let me = std::env::current_exe().map_err(GuiError::OwnPath)?;
        engines.push(EngineConfig {
            name: "lielow".to_owned(),
            argv: vec![me.display().to_string()],
        });
    }
    Ok(engines)
}

/// `lielow gui`: returns the exit code.
pub fn run(args: &GuiArgs) -> i32 {
    let result = engines(args).and_then(|engines| server::serve(engines, args.port, args.open));
    match result {
        Ok(()) => 0,
        Err(error) => {
            eprintln!("lielow gui: {error}");
            2
        }
    }
}
