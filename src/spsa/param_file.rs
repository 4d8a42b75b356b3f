//! The parameter file: which options are tuned, from where, within what, by how much.
//!
//! One parameter a line, fishtest's format: `NAME, START, MIN, MAX, C_END, R_END` (commas,
//! spaces around them allowed); `#` starts a comment, blank lines are skipped. START, MIN and
//! MAX are in the option's own units (integers or decimals: the tuner keeps decimals and rounds
//! only what it sends); C_END is the perturbation at the end of the run, in the same units;
//! R_END is the step at the end, as a fraction of C_END per unit of score (fishtest's default
//! is 0.002). `lielow spsa --list` prints the engine's own numbers in this format, with each
//! step from `search/params.rs`.

use std::fmt;

use lielow_engine::search::params::{Access, Params, SPECS};
use lielow_rules::board::BoardSize;

/// fishtest's default `r_end`, written by `--list`.
pub const DEFAULT_R_END: f64 = 0.002;

/// One tuned option.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TunedParam {
    /// The option's name, as `setoption` takes it.
    pub name: String,
    /// Where θ starts.
    pub start: f64,
    /// The smallest value θ and the values sent may take.
    pub min: f64,
    /// The largest.
    pub max: f64,
    /// The perturbation at the last iteration, in the option's units.
    pub c_end: f64,
    /// The step at the last iteration per unit of score, as a fraction of `c_end`.
    pub r_end: f64,
}

/// What is wrong with a parameter file, and on which line (from 1).
#[derive(Clone, Debug, PartialEq)]
pub enum ParamFileError {
    /// Not six comma-separated fields.
    Fields {
        /// The line.
        line: usize,
        /// How many fields it had.
        found: usize,
    },
    /// A field that is not a finite number.
    Number {
        /// The line.
        line: usize,
        /// Which field (`START`, `MIN`, ...).
        field: &'static str,
        /// Its text.
        text: String,
    },
    /// An empty name, or one with a space or `=` (it could not be sent).
    Name {
        /// The line.
        line: usize,
    },
    /// MIN above MAX, or START outside them.
    Range {
        /// The line.
        line: usize,
    },
    /// C_END or R_END not above 0.
    Step {
        /// The line.
        line: usize,
    },
    /// The same name twice.
    Repeated {
        /// The line of the second.
        line: usize,
        /// The name.
        name: String,
    },
    /// No parameter at all.
    Empty,
}

impl fmt::Display for ParamFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const FORMAT: &str = "NAME, START, MIN, MAX, C_END, R_END";
        match self {
            ParamFileError::Fields { line, found } => {
                write!(
                    f,
                    "line {line}: expected {FORMAT} (6 fields), found {found}"
                )
            }
            ParamFileError::Number { line, field, text } => {
                write!(f, "line {line}: {field} '{text}' is not a number")
            }
            ParamFileError::Name { line } => {
                write!(
                    f,
                    "line {line}: NAME must be non-empty, without spaces or '='"
                )
            }
            ParamFileError::Range { line } => {
                write!(f, "line {line}: expected MIN <= START <= MAX")
            }
            ParamFileError::Step { line } => {
                write!(f, "line {line}: C_END and R_END must be above 0")
            }
            ParamFileError::Repeated { line, name } => {
                write!(f, "line {line}: parameter '{name}' is listed twice")
            }
            ParamFileError::Empty => write!(f, "no parameter to tune ({FORMAT} per line)"),
        }
    }
}

impl std::error::Error for ParamFileError {}

/// Reads a parameter file.
pub fn parse(text: &str) -> Result<Vec<TunedParam>, ParamFileError> {
    let mut params: Vec<TunedParam> = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let content = raw.split('#').next().unwrap_or("").trim();
        if content.is_empty() {
            continue;
        }
        let fields: Vec<&str> = content.split(',').map(str::trim).collect();
        if fields.len() != 6 {
            return Err(ParamFileError::Fields {
                line,
                found: fields.len(),
            });
        }
        let name = fields[0];
        if name.is_empty() || name.contains(|c: char| c.is_whitespace() || c == '=') {
            return Err(ParamFileError::Name { line });
        }
        let number = |at: usize, field: &'static str| {
            fields[at]
                .parse::<f64>()
                .ok()
                .filter(|value| value.is_finite())
                .ok_or_else(|| ParamFileError::Number {
                    line,
                    field,
                    text: fields[at].to_owned(),
                })
        };
        let param = TunedParam {
            name: name.to_owned(),
            start: number(1, "START")?,
            min: number(2, "MIN")?,
            max: number(3, "MAX")?,
            c_end: number(4, "C_END")?,
            r_end: number(5, "R_END")?,
        };
        if !(param.min <= param.start && param.start <= param.max) {
            return Err(ParamFileError::Range { line });
        }
        if param.c_end <= 0.0 || param.r_end <= 0.0 {
            return Err(ParamFileError::Step { line });
        }
        if params.iter().any(|p| p.name.eq_ignore_ascii_case(name)) {
            return Err(ParamFileError::Repeated {
                line,
                name: name.to_owned(),
            });
        }
        params.push(param);
    }
    if params.is_empty() {
        return Err(ParamFileError::Empty);
    }
    Ok(params)
}

/// The engine's own tunable numbers as a parameter file: every number of
/// `search/params.rs` at its default on `size`, with its range and step (delete the lines not
/// to tune).
pub fn engine_defaults(size: BoardSize) -> String {
    let defaults = Params::default();
    let mut text = String::from("# NAME, START, MIN, MAX, C_END, R_END\n");
    for spec in &SPECS {
        if let Access::Number { min, max, step, .. } = spec.access {
            text.push_str(&format!(
                "{}, {}, {min}, {max}, {step}, {DEFAULT_R_END}\n",
                spec.name,
                spec.value(&defaults, size)
            ));
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_engine_defaults_read_back() {
        let params = parse(&engine_defaults(BoardSize::Eight)).unwrap();
        let lmr = params.iter().find(|p| p.name == "LMRBase").unwrap();
        let default = f64::from(lielow_engine::search::Params::default().lmr_base);
        assert_eq!(
            (lmr.start, lmr.min, lmr.max, lmr.c_end),
            (default, -200.0, 400.0, 10.0)
        );
        assert_eq!(
            params.len(),
            SPECS
                .iter()
                .filter(|s| matches!(s.access, Access::Number { .. }))
                .count()
        );
    }

    #[test]
    fn bad_files_say_which_line_and_why() {
        let cases = [
            (
                "A, 1, 0, 2, 1\n",
                "line 1: expected NAME, START, MIN, MAX, C_END, R_END (6 fields), found 5",
            ),
            (
                "# c\nA, x, 0, 2, 1, 0.002\n",
                "line 2: START 'x' is not a number",
            ),
            (
                "A, 3, 0, 2, 1, 0.002\n",
                "line 1: expected MIN <= START <= MAX",
            ),
            (
                "A, 1, 0, 2, 0, 0.002\n",
                "line 1: C_END and R_END must be above 0",
            ),
            (
                "A B, 1, 0, 2, 1, 0.002\n",
                "line 1: NAME must be non-empty, without spaces or '='",
            ),
            (
                "A, 1, 0, 2, 1, 0.002\na, 1, 0, 2, 1, 0.002\n",
                "line 2: parameter 'a' is listed twice",
            ),
            (
                "A, inf, 0, 2, 1, 0.002\n",
                "line 1: START 'inf' is not a number",
            ),
            (
                "\n# nothing\n",
                "no parameter to tune (NAME, START, MIN, MAX, C_END, R_END per line)",
            ),
        ];
        for (text, message) in cases {
            assert_eq!(parse(text).unwrap_err().to_string(), message, "{text:?}");
        }
        let good = parse("LMRBase, 80.5, 0, 300, 10, 0.002 # the base\n").unwrap();
        assert_eq!(good[0].start, 80.5);
    }
}
