//! A parameter's value once read and checked, and why a value is refused.

use std::fmt;

use super::spec::{NumberField, ParamSpec};
use super::Params;

/// Why a value was refused for a parameter (and, in `ugi`, for any option): the one owner of
/// the text that says what was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamError {
    /// No parameter has that name.
    UnknownName,
    /// A switch takes `true` or `false`.
    NotASwitch,
    /// A number outside `min..=max`, or not a number.
    OutOfRange {
        /// The smallest value accepted.
        min: i64,
        /// The largest value accepted.
        max: i64,
    },
}

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamError::UnknownName => write!(f, "no such search parameter"),
            ParamError::NotASwitch => write!(f, "expected true or false"),
            ParamError::OutOfRange { min, max } => {
                write!(f, "expected an integer from {min} to {max}")
            }
        }
    }
}

impl std::error::Error for ParamError {}

/// A switch as `setoption` and `option.NAME=VALUE` write it: `true` or `false`, in any case.
pub fn parse_switch(text: &str) -> Result<bool, ParamError> {
    match text.to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(ParamError::NotASwitch),
    }
}

/// One parameter's value, read and checked once ([`ParamSpec::parse`]): applying it cannot fail.
#[derive(Clone, Copy)]
pub struct ParamSetting {
    name: &'static str,
    value: ParamValue,
}

/// The value with the field it goes to; built only by [`ParamSpec::parse`], so a switch's
/// field always gets a `bool` and a number's an `i32` in its range.
#[derive(Clone, Copy)]
pub(super) enum ParamValue {
    Switch(fn(&mut Params) -> &mut bool, bool),
    Number(NumberField, i32),
}

impl ParamSetting {
    /// A checked value of the parameter `name` (only [`ParamSpec::parse`] makes one).
    pub(super) fn new(name: &'static str, value: ParamValue) -> ParamSetting {
        ParamSetting { name, value }
    }

    /// The parameter's name as the engine spells it.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// Sets the value in `params`.
    pub fn apply(&self, params: &mut Params) {
        match self.value {
            ParamValue::Switch(field, value) => *field(params) = value,
            ParamValue::Number(field, value) => field.set(params, value),
        }
    }
}

impl fmt::Debug for ParamSetting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = f.debug_struct("ParamSetting");
        out.field("name", &self.name);
        match self.value {
            ParamValue::Switch(_, value) => out.field("value", &value),
            ParamValue::Number(_, value) => out.field("value", &value),
        };
        out.finish()
    }
}

/// Two settings are equal when they set the same parameter to the same value (the name decides
/// the field, and so the kind of value).
impl PartialEq for ParamSetting {
    fn eq(&self, other: &ParamSetting) -> bool {
        let same_value = match (self.value, other.value) {
            (ParamValue::Switch(_, one), ParamValue::Switch(_, other)) => one == other,
            (ParamValue::Number(_, one), ParamValue::Number(_, other)) => one == other,
            (ParamValue::Switch(..), ParamValue::Number(..))
            | (ParamValue::Number(..), ParamValue::Switch(..)) => false,
        };
        self.name == other.name && same_value
    }
}

impl Eq for ParamSetting {}

impl Params {
    /// Sets the parameter called `name` from its text; on error nothing changes.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), ParamError> {
        ParamSpec::find(name)
            .ok_or(ParamError::UnknownName)?
            .parse(value)?
            .apply(self);
        Ok(())
    }
}
