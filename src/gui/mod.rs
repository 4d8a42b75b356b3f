//! `lielow gui`: play and analyse in the browser. A local web server whose page is a client of
//! the UGI protocol: the server starts each engine as a child process and speaks UGI to it as
//! any GUI would, so the page works with any UGI engine for this game.
//!
//! - [`server`]: the HTTP side (axum on hyper and tokio): the limits every connection and the
//!   checks every request passes (host, origin, size), the page's static files; [`routes`]: the
//!   JSON API; [`api`]: that API's requests and answers as types; [`games`]: Load and Save of
//!   games in every format; [`sessions`]: the open pages,
//!   each living exactly as long as its event stream; [`threats`]: the stacks each side could
//!   lose next move, for the page's threat display; [`puzzles`]: the puzzle mode's routes and
//!   puzzle sets, [`puzzle_judge`]: its referee, judging each move by proof;
//! - [`engine`]: one engine process per page and engine, on its own thread, spoken to through
//!   the engine crate's UGI client; its orders and the page's events, typed;
//! - `static/`: the page (HTML, CSS, JavaScript), embedded in the binary.

pub mod api;
pub mod engine;
pub mod games;
pub mod puzzle_judge;
pub mod puzzles;
pub mod routes;
pub mod server;
pub mod sessions;
pub mod threats;

use std::fmt;

use clap::Args;

use crate::players::engine_spec::{
    self, EngineKind, EngineSpec, EngineSpecError, EngineStartError,
};

/// Flags of `lielow gui`.
#[derive(Args, Debug)]
pub struct GuiArgs {
    /// An engine to play and analyse with, given as to `lielow match`: its command line (split
    /// like a shell does), then optionally `name=NAME` and `option.NAME=VALUE` settings, which
    /// belong to the engine before them (repeat --engine for more; default: this program).
    #[arg(long, num_args = 1.., value_name = "CMD [name=N] [option.NAME=V]")]
    engine: Vec<String>,
    /// The port to listen on (127.0.0.1 only); 0 picks a free one.
    #[arg(long, default_value_t = 7878)]
    port: u16,
    /// Open the page in the default browser.
    #[arg(long)]
    open: bool,
    /// A puzzle file (as `lielow puzzles` writes it) for the puzzle mode, in place of the
    /// shipped sets puzzles/8x8.txt and puzzles/9x9.txt (repeat for more files).
    #[arg(long, value_name = "FILE")]
    puzzles: Vec<std::path::PathBuf>,
}

/// One configured engine.
#[derive(Clone, Debug)]
pub struct EngineConfig {
    /// Shown on the page.
    pub name: String,
    /// The command line.
    pub argv: Vec<String>,
    /// UGI options, sent after the handshake (`option.NAME=VALUE`).
    pub options: Vec<(String, String)>,
}

/// How long the start check waits for an engine's `ugiok` and `readyok`.
const START_CHECK_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// Why `lielow gui` cannot start.
#[derive(Debug)]
pub enum GuiError {
    /// An `--engine` that does not read, as `lielow match` reads the words.
    Engine(EngineSpecError),
    /// An engine that does not start, by the start check of `lielow match`.
    EngineStart(EngineStartError),
    /// A built-in player or a match-only setting (`movetime=`, `ponder`): the GUI plays only
    /// UGI programs, under its own limits.
    NotForGui(String),
    /// A `--puzzles` file that cannot be read: the file, the line and why.
    Puzzles(String),
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
            GuiError::Engine(error) => error.fmt(f),
            GuiError::EngineStart(error) => error.fmt(f),
            GuiError::NotForGui(what) => write!(f, "--engine {what}"),
            GuiError::Puzzles(why) => write!(f, "--puzzles {why}"),
            GuiError::OwnPath(error) => write!(f, "cannot find this program: {error}"),
            GuiError::Listen { port, reason } => {
                write!(f, "cannot listen on 127.0.0.1:{port}: {reason}")
            }
        }
    }
}

impl std::error::Error for GuiError {}

/// One `--engine` group as the GUI takes it: a UGI program with a name and options.
fn gui_engine(spec: EngineSpec) -> Result<EngineConfig, GuiError> {
    let EngineKind::Command(argv) = spec.kind else {
        return Err(GuiError::NotForGui(format!(
            "'{}': a built-in player is no UGI engine; give a program",
            spec.name
        )));
    };
    if spec.movetime.is_some() || spec.ponder {
        return Err(GuiError::NotForGui(format!(
            "'{}': movetime= and ponder are lielow match's settings; the page sets its own limits",
            spec.name
        )));
    }
    Ok(EngineConfig {
        name: spec.name,
        argv,
        options: spec.options,
    })
}

/// The engines of the command line, read as `lielow match` reads them; this program when none
/// is given.
fn engines(args: &GuiArgs) -> Result<Vec<EngineConfig>, GuiError> {
    let mut engines = Vec::new();
    for words in engine_spec::group_words(&args.engine).map_err(GuiError::Engine)? {
        engines.push(gui_engine(
            EngineSpec::from_words(&words).map_err(GuiError::Engine)?,
        )?);
    }
    if engines.is_empty() {
        let me = std::env::current_exe().map_err(GuiError::OwnPath)?;
        engines.push(EngineConfig {
            name: "lielow".to_owned(),
            argv: vec![me.display().to_string()],
            options: Vec::new(),
        });
    }
    Ok(engines)
}

/// Starts each engine once with its options before the page opens, as `lielow match` does: a
/// wrong command fails here, not on the page. What an engine said about its options is shown.
fn check_engines(engines: &[EngineConfig]) -> Result<(), GuiError> {
    for engine in engines {
        let spec = EngineSpec {
            name: engine.name.clone(),
            kind: EngineKind::Command(engine.argv.clone()),
            options: engine.options.clone(),
            movetime: None,
            ponder: false,
        };
        let notes = spec
            .start_check(START_CHECK_TIMEOUT)
            .map_err(GuiError::EngineStart)?;
        for note in notes {
            eprintln!("lielow gui: engine '{}' said: {note}", engine.name);
        }
    }
    Ok(())
}

/// The shipped puzzle sets (made by scripts/puzzles.sh), embedded: (name, text).
const SHIPPED_PUZZLES: [(&str, &str); 2] = [
    ("puzzles/8x8.txt", include_str!("../../puzzles/8x8.txt")),
    ("puzzles/9x9.txt", include_str!("../../puzzles/9x9.txt")),
];

/// The puzzles of the `--puzzles` files, or the shipped sets without any.
fn puzzle_sets(args: &GuiArgs) -> Result<puzzles::PuzzleSets, GuiError> {
    let mut texts = Vec::new();
    for path in &args.puzzles {
        let text = std::fs::read_to_string(path)
            .map_err(|e| GuiError::Puzzles(format!("{}: {e}", path.display())))?;
        texts.push((path.display().to_string(), text));
    }
    if texts.is_empty() {
        texts = SHIPPED_PUZZLES
            .iter()
            .map(|(name, text)| (name.to_string(), text.to_string()))
            .collect();
    }
    let mut all = Vec::new();
    for (name, text) in texts {
        let file = crate::puzzles::file::parse_file(&text)
            .map_err(|e| GuiError::Puzzles(format!("{name}: {e}")))?;
        all.extend(file.puzzles);
    }
    puzzles::PuzzleSets::new(all).map_err(GuiError::Puzzles)
}

/// `lielow gui`: returns the exit code.
pub fn run(args: &GuiArgs) -> i32 {
    let result = engines(args).and_then(|engines| {
        let puzzles = puzzle_sets(args)?;
        check_engines(&engines)?;
        server::serve(engines, puzzles, args.port, args.open)
    });
    match result {
        Ok(()) => 0,
        Err(error) => {
            eprintln!("lielow gui: {error}");
            2
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(engine: &[&str]) -> GuiArgs {
        GuiArgs {
            engine: engine.iter().map(|word| word.to_string()).collect(),
            port: 0,
            open: false,
            puzzles: Vec::new(),
        }
    }

    #[test]
    fn engine_settings_belong_to_the_engine_before_them() {
        let engines = engines(&args(&[
            "./lielow",
            "name=one",
            "option.Threads=2",
            "option.Hash=64",
            "/bin/other --flag",
        ]))
        .unwrap();
        assert_eq!(engines.len(), 2, "{engines:?}");
        assert_eq!(engines[0].name, "one");
        assert_eq!(engines[0].argv, ["./lielow"]);
        assert_eq!(
            engines[0].options,
            [
                ("Threads".to_owned(), "2".to_owned()),
                ("Hash".to_owned(), "64".to_owned())
            ]
        );
        assert_eq!(engines[1].name, "other");
        assert_eq!(engines[1].argv, ["/bin/other", "--flag"]);
        assert!(engines[1].options.is_empty());
    }

    #[test]
    fn what_the_gui_cannot_use_is_refused() {
        for words in [
            &["name=x"][..],
            &["builtin:random"],
            &["./lielow", "movetime=50"],
            &["./lielow", "ponder"],
            &["./lielow", "option.=1"],
        ] {
            assert!(engines(&args(words)).is_err(), "{words:?}");
        }
    }
}
