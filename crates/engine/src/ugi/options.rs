//! The options `setoption` sets, in one typed table: [`OPTIONS`] (what the handshake lists, in
//! its order) and [`DEVELOPMENT_OPTIONS`] (not listed), with the search's parameters
//! (`search::params::SPECS`) as the last development options. The table is the one source of
//! each option's name, kind, default and range: the handshake prints it, the unknown-option
//! error names it, and [`parse_setoption`] reads a `setoption` line through it into a typed
//! [`OptionSetting`], each entry building its own setting (no catch-all).

use super::{shown, CommandError, Tokens};
use crate::nnue::EvalChoice;
use crate::search::params::{parse_switch, ParamError, ParamSetting, ParamSpec};
use lielow_rules::board::BoardSize;

/// A `spin` option: an integer in `min..=max`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spin {
    /// The name `setoption` uses (case-insensitive).
    pub name: &'static str,
    /// The value before any `setoption`.
    pub default: u64,
    /// Smallest accepted value.
    pub min: u64,
    /// Largest accepted value.
    pub max: u64,
}

/// A `check` option: `true` or `false`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Check {
    /// The name `setoption` uses (case-insensitive).
    pub name: &'static str,
    /// The value before any `setoption`.
    pub default: bool,
}

/// A `button` option: no value, an action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Button {
    /// The name `setoption` uses (case-insensitive).
    pub name: &'static str,
}

/// A `string` option: any text (the rest of the line).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Text {
    /// The name `setoption` uses (case-insensitive).
    pub name: &'static str,
    /// The value before any `setoption`.
    pub default: &'static str,
}

/// One entry of the table: an option's kind, with what it is called and takes, and the typed
/// setting a checked value becomes.
#[derive(Clone, Copy)]
pub enum UgiOption {
    /// A spin option; the setting is `None` for a number in range that still means nothing.
    Spin(Spin, fn(u64) -> Option<OptionSetting>),
    /// A check option.
    Check(Check, fn(bool) -> OptionSetting),
    /// A button.
    Button(Button, fn() -> OptionSetting),
    /// A string option.
    Text(Text, fn(&str) -> OptionSetting),
}

/// Transposition table size in MiB.
pub const HASH: Spin = Spin {
    name: "Hash",
    default: crate::search::DEFAULT_HASH_MB as u64,
    min: 1,
    max: crate::search::MAX_HASH_MB as u64,
};
/// Search threads (work splitting, shared table).
pub const THREADS: Spin = Spin {
    name: "Threads",
    default: 1,
    min: 1,
    max: crate::search::MAX_THREADS as u64,
};
/// What `startpos` means: the 8x8 or the 9x9 start position.
pub const BOARD_SIZE: Spin = Spin {
    name: "BoardSize",
    default: 8,
    min: 8,
    max: 9,
};
/// Milliseconds kept back from every time budget for the process and pipe latency of the GUI
/// or runner (`Move Overhead`, as in Stockfish).
pub const MOVE_OVERHEAD: Spin = Spin {
    name: "Move Overhead",
    default: crate::time::DEFAULT_MOVE_OVERHEAD_MS,
    min: 0,
    max: 5000,
};
/// Principal variations reported per iteration.
pub const MULTI_PV: Spin = Spin {
    name: "MultiPV",
    default: 1,
    min: 1,
    max: 256,
};
/// `Ponder`: on, `bestmove` names the reply the engine expects, for `go ponder`; off (the
/// default), `bestmove` is two tokens, which UGI runners expect.
pub const PONDER: Check = Check {
    name: "Ponder",
    default: false,
};
/// `Skill Level`: 0 (weakest) to 20 (full strength, the default); see `search::skill`.
pub const SKILL_LEVEL: Spin = Spin {
    name: "Skill Level",
    default: crate::search::skill::FULL_LEVEL as u64,
    min: 0,
    max: crate::search::skill::FULL_LEVEL as u64,
};
/// `UCI_LimitStrength`: on, the engine plays at `UCI_Elo` (and `Skill Level` is not used).
pub const LIMIT_STRENGTH: Check = Check {
    name: "UCI_LimitStrength",
    default: false,
};
/// `UCI_Elo`: the strength `UCI_LimitStrength` plays at, on the calibrated ladder
/// (`search::skill::LADDER`, `builtin:random` = 0).
pub const ELO: Spin = Spin {
    name: "UCI_Elo",
    default: crate::search::skill::MIN_ELO as u64,
    min: crate::search::skill::MIN_ELO as u64,
    max: crate::search::skill::MAX_ELO as u64,
};
/// `Skill Seed`: seeds a weakened engine's choice, so a game repeats (0, the default: from the
/// clock, so games vary).
pub const SKILL_SEED: Spin = Spin {
    name: "Skill Seed",
    default: 0,
    min: 0,
    max: u32::MAX as u64,
};
/// `Clear Hash`: empties the transposition table.
pub const CLEAR_HASH: Button = Button { name: "Clear Hash" };
/// `EvalFile`: `embedded` (the default), `hand-set`, or the path of a network file.
pub const EVAL_FILE: Text = Text {
    name: "EvalFile",
    default: "embedded",
};

/// The options the handshake lists, in its order.
pub const OPTIONS: [UgiOption; 10] = [
    UgiOption::Spin(HASH, |megabytes| {
        Some(OptionSetting::HashMb(megabytes as usize))
    }),
    UgiOption::Spin(THREADS, |threads| {
        Some(OptionSetting::Threads(threads as usize))
    }),
    UgiOption::Spin(BOARD_SIZE, |n| {
        BoardSize::from_n(n as usize).map(OptionSetting::BoardSize)
    }),
    UgiOption::Spin(MOVE_OVERHEAD, |milliseconds| {
        Some(OptionSetting::MoveOverheadMs(milliseconds))
    }),
    UgiOption::Spin(MULTI_PV, |lines| {
        Some(OptionSetting::MultiPv(lines as usize))
    }),
    UgiOption::Check(PONDER, OptionSetting::Ponder),
    UgiOption::Button(CLEAR_HASH, || OptionSetting::ClearHash),
    UgiOption::Spin(SKILL_LEVEL, |level| {
        Some(OptionSetting::SkillLevel(level as u32))
    }),
    UgiOption::Check(LIMIT_STRENGTH, OptionSetting::LimitStrength),
    UgiOption::Spin(ELO, |elo| Some(OptionSetting::Elo(elo as u32))),
];

/// The options for measurements rather than GUIs, which the handshake does not list (nor do
/// the search's parameters, the development options after these).
pub const DEVELOPMENT_OPTIONS: [UgiOption; 2] = [
    UgiOption::Text(EVAL_FILE, |text| {
        let Ok(choice) = text.parse::<EvalChoice>();
        OptionSetting::EvalFile(choice)
    }),
    UgiOption::Spin(SKILL_SEED, |seed| Some(OptionSetting::SkillSeed(seed))),
];

/// A `setoption` whose name and value were both accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionSetting {
    /// `Hash`, in MiB.
    HashMb(usize),
    /// `Threads`, the number of search threads.
    Threads(usize),
    /// `BoardSize`: what `startpos` means.
    BoardSize(BoardSize),
    /// `Move Overhead`, in milliseconds.
    MoveOverheadMs(u64),
    /// `MultiPV`: principal variations per iteration.
    MultiPv(usize),
    /// The `Clear Hash` button.
    ClearHash,
    /// `Ponder`: whether `bestmove` names a move to ponder on.
    Ponder(bool),
    /// `EvalFile`: the evaluation the search uses.
    EvalFile(EvalChoice),
    /// `Skill Level`: 0 to 20.
    SkillLevel(u32),
    /// `UCI_LimitStrength`: play at `UCI_Elo`.
    LimitStrength(bool),
    /// `UCI_Elo`: the strength asked for.
    Elo(u32),
    /// `Skill Seed`: the seed of a weakened engine's choice (0: the clock).
    SkillSeed(u64),
    /// A development option: one of the search's parameters (`search::params`), not listed by
    /// `ugi`, with its value read and checked.
    SearchParam(ParamSetting),
}

impl UgiOption {
    /// The name `setoption` uses.
    pub fn name(&self) -> &'static str {
        match self {
            UgiOption::Spin(spin, _) => spin.name,
            UgiOption::Check(check, _) => check.name,
            UgiOption::Button(button, _) => button.name,
            UgiOption::Text(text, _) => text.name,
        }
    }

    /// The option's handshake line: `option name <NAME> type <KIND> ...`.
    pub fn handshake_line(&self) -> String {
        match self {
            UgiOption::Spin(spin, _) => format!(
                "option name {} type spin default {} min {} max {}",
                spin.name, spin.default, spin.min, spin.max
            ),
            UgiOption::Check(check, _) => format!(
                "option name {} type check default {}",
                check.name, check.default
            ),
            UgiOption::Button(button, _) => format!("option name {} type button", button.name),
            UgiOption::Text(text, _) => format!(
                "option name {} type string default {}",
                text.name, text.default
            ),
        }
    }

    /// The setting `value` gives this option, or why it is refused.
    fn read(&self, value: &str) -> Result<OptionSetting, CommandError> {
        let bad = |why| CommandError::BadOptionValue {
            name: self.name(),
            value: shown(value),
            why,
        };
        match self {
            UgiOption::Spin(spin, setting) => {
                let out_of_range = || {
                    bad(ParamError::OutOfRange {
                        min: spin.min as i64,
                        max: spin.max as i64,
                    })
                };
                let number: u64 = value.parse().map_err(|_| out_of_range())?;
                if !(spin.min..=spin.max).contains(&number) {
                    return Err(out_of_range());
                }
                setting(number).ok_or_else(out_of_range)
            }
            UgiOption::Check(_, setting) => parse_switch(value).map(setting).map_err(bad),
            UgiOption::Button(_, setting) => Ok(setting()),
            UgiOption::Text(_, setting) => Ok(setting(value)),
        }
    }
}

/// The names of the listed options, as an error message names them: `A, B, ... or Z`.
pub fn listed_names() -> String {
    let names: Vec<&str> = OPTIONS.iter().map(UgiOption::name).collect();
    match names.split_last() {
        Some((last, [])) => (*last).to_owned(),
        Some((last, others)) => format!("{} or {last}", others.join(", ")),
        None => String::new(),
    }
}

/// The option called `name` (case-insensitive), listed or not; the search's parameters aside.
fn find(name: &str) -> Option<&'static UgiOption> {
    OPTIONS
        .iter()
        .chain(&DEVELOPMENT_OPTIONS)
        .find(|option| option.name().eq_ignore_ascii_case(name))
}

/// `setoption name <NAME> [value <VALUE>]` (the tokens after `setoption`). A name and a value
/// may both be several words.
pub(super) fn parse_setoption(mut tokens: Tokens) -> Result<OptionSetting, CommandError> {
    const COMMAND: &str = "setoption";
    match tokens.next() {
        Some("name") => {}
        Some(other) => return Err(CommandError::unexpected(COMMAND, other)),
        None => {
            return Err(CommandError::missing(
                COMMAND,
                "'name <NAME> value <VALUE>'",
            ))
        }
    }
    let name: Vec<&str> = tokens.by_ref().take_while(|&t| t != "value").collect();
    let value: Vec<&str> = tokens.collect();
    if name.is_empty() {
        return Err(CommandError::missing(COMMAND, "the option name"));
    }
    let name = name.join(" ");
    let option = find(&name);
    if let Some(UgiOption::Button(_, setting)) = option {
        // A button: a value, if a GUI sends one, means nothing.
        return Ok(setting());
    }
    if value.is_empty() {
        return Err(CommandError::missing(COMMAND, "'value <VALUE>'"));
    }
    let value = value.join(" ");
    if let Some(option) = option {
        return option.read(&value);
    }
    let Some(spec) = ParamSpec::find(&name) else {
        return Err(CommandError::UnknownOption(shown(&name)));
    };
    spec.parse(&value)
        .map(OptionSetting::SearchParam)
        .map_err(|why| CommandError::BadOptionValue {
            name: spec.name,
            value: shown(&value),
            why,
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every name is taken once, by the table or by a search parameter, whatever the case.
    #[test]
    fn every_option_has_its_own_name() {
        let names: Vec<&str> = OPTIONS
            .iter()
            .chain(&DEVELOPMENT_OPTIONS)
            .map(UgiOption::name)
            .chain(crate::search::params::SPECS.iter().map(|spec| spec.name))
            .collect();
        for (i, name) in names.iter().enumerate() {
            assert!(
                names[..i]
                    .iter()
                    .all(|other| !other.eq_ignore_ascii_case(name)),
                "{name}"
            );
        }
    }

    /// Each option's default is a value it accepts (a button has none).
    #[test]
    fn every_default_is_accepted() {
        for option in OPTIONS.iter().chain(&DEVELOPMENT_OPTIONS) {
            let default = match option {
                UgiOption::Spin(spin, _) => spin.default.to_string(),
                UgiOption::Check(check, _) => check.default.to_string(),
                UgiOption::Button(..) => continue,
                UgiOption::Text(text, _) => text.default.to_owned(),
            };
            assert!(option.read(&default).is_ok(), "{}", option.name());
        }
    }

    #[test]
    fn the_unknown_option_error_names_the_listed_options() {
        assert_eq!(
            listed_names(),
            "Hash, Threads, BoardSize, Move Overhead, MultiPV, Ponder, Clear Hash, Skill Level, \
             UCI_LimitStrength or UCI_Elo"
        );
    }

    fn parse(line: &str) -> Result<super::super::Command, CommandError> {
        line.parse()
    }

    #[test]
    fn strength_options_are_read() {
        use super::super::Command::SetOption;
        assert_eq!(
            parse("setoption name skill level value 3"),
            Ok(SetOption(OptionSetting::SkillLevel(3)))
        );
        assert_eq!(
            parse("setoption name UCI_LimitStrength value true"),
            Ok(SetOption(OptionSetting::LimitStrength(true)))
        );
        let elo = format!("setoption name UCI_Elo value {}", ELO.max);
        assert_eq!(
            parse(&elo),
            Ok(SetOption(OptionSetting::Elo(ELO.max as u32)))
        );
        assert_eq!(
            parse("setoption name Skill Seed value 42"),
            Ok(SetOption(OptionSetting::SkillSeed(42)))
        );
    }

    #[test]
    fn options_are_checked_by_name_and_range() {
        assert_eq!(
            parse("setoption name hash value 64"),
            Ok(super::super::Command::SetOption(OptionSetting::HashMb(64)))
        );
        assert_eq!(
            parse("setoption name BOARDSIZE value 9"),
            Ok(super::super::Command::SetOption(OptionSetting::BoardSize(
                BoardSize::Nine
            )))
        );
        for line in [
            "setoption",
            "setoption name",
            "setoption name Hash",
            "setoption name Hash value",
            "setoption name Hash value 0",
            "setoption name Threads value many",
            "setoption name BoardSize value 10",
            "setoption name Ponder value maybe",
            "setoption name Skill Level value 21",
            "setoption name Skill Level value -1",
            "setoption name UCI_LimitStrength value 1x",
            "setoption name UCI_Elo value 1",
            "setoption name Skill Seed value x",
            "setoption value 3",
        ] {
            assert!(parse(line).is_err(), "{line}");
        }
    }
}
