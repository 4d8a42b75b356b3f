//! Which player to start and how: an `--engine` group of words (`lielow match`, `lielow spsa`,
//! `lielow gui`) read into an [`EngineSpec`], the player it starts, and the start check that
//! catches a wrong command before anything is played. Kept apart from `player` (the trait the
//! players implement) so that the players build on the trait and this builds on the players,
//! with no loop.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use super::builtin::{Builtin, BuiltinError, BuiltinPlayer};
use super::player::{Player, Timeouts};
use super::ugi_client::UgiEngine;
use crate::process::{split_command_line, CommandLineError};

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

/// Why an `--engine` group of words is no engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineSpecError {
    /// An `--engine` group without a command.
    NoCommand,
    /// A `builtin:` player that does not exist.
    Builtin(BuiltinError),
    /// An engine's command line does not split.
    CommandLine(CommandLineError),
    /// `movetime=` without a positive number: the setting.
    Movetime(String),
    /// `option.` without `=`: the setting.
    OptionSyntax(String),
    /// `option.=VALUE`: the setting.
    OptionName(String),
    /// A setting that is none of name=, movetime=, ponder, option.
    UnknownSetting {
        /// The setting.
        setting: String,
        /// The engine's command it follows.
        command: String,
    },
    /// An empty name, or one with `;` or a line break (which records cannot hold).
    BadName(String),
    /// Options or `ponder` given to a built-in player: its command.
    BuiltinSettings(String),
    /// A setting before the first engine.
    SettingFirst(String),
}

impl fmt::Display for EngineSpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineSpecError::NoCommand => f.write_str("--engine needs a command"),
            EngineSpecError::Builtin(error) => error.fmt(f),
            EngineSpecError::CommandLine(error) => error.fmt(f),
            EngineSpecError::Movetime(setting) => {
                write!(f, "'{setting}': movetime=MS needs a positive number")
            }
            EngineSpecError::OptionSyntax(setting) => {
                write!(f, "'{setting}': write option.NAME=VALUE")
            }
            EngineSpecError::OptionName(setting) => {
                write!(f, "'{setting}': the option has no name")
            }
            EngineSpecError::UnknownSetting { setting, command } => write!(
                f,
                "'{setting}' after --engine {command}: expected name=NAME, movetime=MS, ponder or option.NAME=VALUE"
            ),
            EngineSpecError::BadName(name) => write!(
                f,
                "engine name '{}' must be non-empty and hold no ';', line break or other \
                 control character",
                lielow_rules::quote::shown(name)
            ),
            EngineSpecError::BuiltinSettings(command) => write!(
                f,
                "built-in player {command} takes no options and does not ponder"
            ),
            EngineSpecError::SettingFirst(word) => write!(f, "'{word}' comes before any engine"),
        }
    }
}

impl std::error::Error for EngineSpecError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            EngineSpecError::Builtin(error) => Some(error),
            EngineSpecError::CommandLine(error) => Some(error),
            _ => None,
        }
    }
}

/// An external engine that did not start (its start check, or the first game's start).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineStartError {
    /// Its name.
    pub name: String,
    /// What went wrong.
    pub detail: String,
}

impl fmt::Display for EngineStartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "engine '{}' failed to start: {}", self.name, self.detail)
    }
}

impl std::error::Error for EngineStartError {}

impl FromStr for EngineKind {
    type Err = EngineSpecError;

    /// Reads `builtin:NAME[:BUDGET]` as a built-in player, anything else as a command line
    /// split like a shell does.
    fn from_str(command: &str) -> Result<EngineKind, EngineSpecError> {
        match Builtin::parse(command) {
            Some(builtin) => Ok(EngineKind::Builtin(
                builtin.map_err(EngineSpecError::Builtin)?,
            )),
            None => split_command_line(command)
                .map(EngineKind::Command)
                .map_err(EngineSpecError::CommandLine),
        }
    }
}

impl EngineKind {
    /// The name a player of this kind has unless `name=` gives another: the built-in's name, or
    /// the program's file name.
    fn default_name(&self) -> String {
        match self {
            EngineKind::Builtin(builtin) => builtin.name(),
            EngineKind::Command(argv) => std::path::Path::new(&argv[0])
                .file_name()
                .map_or(argv[0].clone(), |s| s.to_string_lossy().into_owned()),
        }
    }
}

/// The prefixes of the settings that follow an engine's command in its `--engine` group.
const SETTING_PREFIXES: [&str; 3] = ["name=", "movetime=", "option."];

/// Whether an `--engine` word is a setting of the engine before it (not a new engine).
fn is_setting(word: &str) -> bool {
    word == "ponder"
        || SETTING_PREFIXES
            .iter()
            .any(|prefix| word.starts_with(prefix))
}

impl EngineSpec {
    /// Reads one `--engine` group: the command (or built-in) and its `name=`, `movetime=`,
    /// `ponder` and `option.` settings.
    pub fn from_words(words: &[String]) -> Result<EngineSpec, EngineSpecError> {
        let (command, settings) = words.split_first().ok_or(EngineSpecError::NoCommand)?;
        let command = command.strip_prefix("cmd=").unwrap_or(command);
        let kind: EngineKind = command.parse()?;
        let mut spec = EngineSpec {
            name: kind.default_name(),
            kind,
            options: Vec::new(),
            movetime: None,
            ponder: false,
        };
        for setting in settings {
            spec.apply(setting, command)?;
        }
        let name = &spec.name;
        if name.is_empty() || name.contains(';') || name.chars().any(char::is_control) {
            return Err(EngineSpecError::BadName(spec.name));
        }
        if matches!(spec.kind, EngineKind::Builtin(_)) && (!spec.options.is_empty() || spec.ponder)
        {
            return Err(EngineSpecError::BuiltinSettings(command.to_owned()));
        }
        Ok(spec)
    }

    /// Applies one setting word that follows `command` in its group.
    fn apply(&mut self, setting: &String, command: &str) -> Result<(), EngineSpecError> {
        if setting == "ponder" {
            self.ponder = true;
        } else if let Some(value) = setting.strip_prefix("name=") {
            self.name = value.to_string();
        } else if let Some(value) = setting.strip_prefix("movetime=") {
            match value.parse::<u64>() {
                Ok(ms) if ms > 0 => self.movetime = Some(ms),
                _ => return Err(EngineSpecError::Movetime(setting.clone())),
            }
        } else if let Some(option) = setting.strip_prefix("option.") {
            let (key, value) = option
                .split_once('=')
                .ok_or_else(|| EngineSpecError::OptionSyntax(setting.clone()))?;
            if key.is_empty() {
                return Err(EngineSpecError::OptionName(setting.clone()));
            }
            self.options.push((key.to_string(), value.to_string()));
        } else {
            return Err(EngineSpecError::UnknownSetting {
                setting: setting.clone(),
                command: command.to_owned(),
            });
        }
        Ok(())
    }

    /// Reads the `--engine` values: each engine's group ([`group_words`]) read by
    /// [`EngineSpec::from_words`].
    pub fn read_all(words: &[String]) -> Result<Vec<EngineSpec>, EngineSpecError> {
        group_words(words)?
            .iter()
            .map(|group| EngineSpec::from_words(group))
            .collect()
    }

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

    /// Starts an external engine once (handshake, its options, `isready`) and shuts it down:
    /// what it said about its options, or why it did not start. A built-in player passes.
    pub fn start_check(&self, timeout: Duration) -> Result<Vec<String>, EngineStartError> {
        let EngineKind::Command(argv) = &self.kind else {
            return Ok(Vec::new());
        };
        let timeouts = Timeouts { handshake: timeout };
        UgiEngine::try_start(argv, &self.options, timeouts).map_err(|failure| EngineStartError {
            name: self.name.clone(),
            detail: failure.detail,
        })
    }
}

/// Splits the `--engine` values into one group per engine: a setting (`name=...`,
/// `movetime=...`, `ponder`, `option.NAME=VALUE`) belongs to the engine before it, any other
/// value starts a new engine.
pub fn group_words(words: &[String]) -> Result<Vec<Vec<String>>, EngineSpecError> {
    let mut groups: Vec<Vec<String>> = Vec::new();
    for word in words {
        match groups.last_mut() {
            Some(group) if is_setting(word) => group.push(word.clone()),
            None if is_setting(word) => return Err(EngineSpecError::SettingFirst(word.clone())),
            _ => groups.push(vec![word.clone()]),
        }
    }
    Ok(groups)
}
