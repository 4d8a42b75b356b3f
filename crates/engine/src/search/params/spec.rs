//! The parameters by name: each one's option name, kind of value, range and tuning step, and
//! the field of [`Params`] it sets; a value once read and checked, and why a value is refused.
//! [`SPECS`](super::SPECS) itself is generated from the declaration in `params.rs`.

use std::fmt;

use lielow_rules::board::BoardSize;

use super::{Params, PerSize, SPECS};

/// What kind of value a parameter takes.
#[derive(Clone, Copy)]
pub enum Access {
    /// `true` / `false` (a UCI `check` option).
    Switch(fn(&mut Params) -> &mut bool),
    /// An integer in `min..=max` (a UCI `spin` option).
    Number {
        /// The field it sets.
        field: NumberField,
        /// The smallest value accepted.
        min: i32,
        /// The largest value accepted.
        max: i32,
        /// The SPSA perturbation at the end of a run (`c_end`), in the parameter's units.
        step: i32,
    },
}

/// The field a number sets.
#[derive(Clone, Copy)]
pub enum NumberField {
    /// One value for both board sizes.
    Shared(fn(&mut Params) -> &mut i32),
    /// A value per board size; setting the parameter sets both.
    PerSize(fn(&mut Params) -> &mut PerSize),
}

impl NumberField {
    /// The value in `params` on `size`.
    pub fn get(self, params: &Params, size: BoardSize) -> i32 {
        let mut copy = *params;
        match self {
            NumberField::Shared(field) => *field(&mut copy),
            NumberField::PerSize(field) => field(&mut copy).on(size),
        }
    }

    /// Sets the value in `params` (on both sizes).
    pub fn set(self, params: &mut Params, value: i32) {
        match self {
            NumberField::Shared(field) => *field(params) = value,
            NumberField::PerSize(field) => *field(params) = PerSize::both(value),
        }
    }
}

/// One named parameter.
#[derive(Clone, Copy)]
pub struct ParamSpec {
    /// The option name, as `setoption` takes it (case-insensitive).
    pub name: &'static str,
    /// Its kind of value and the field it sets.
    pub access: Access,
}

impl ParamSpec {
    /// The parameter called `name` (case-insensitive).
    pub fn find(name: &str) -> Option<&'static ParamSpec> {
        SPECS
            .iter()
            .find(|spec| spec.name.eq_ignore_ascii_case(name))
    }

    /// The value's text in `params` on `size`, as `setoption` takes it.
    pub fn value(&self, params: &Params, size: BoardSize) -> String {
        match self.access {
            Access::Switch(field) => field(&mut params.clone()).to_string(),
            Access::Number { field, .. } => field.get(params, size).to_string(),
        }
    }

    /// Reads and checks `text` as a value of this parameter.
    pub fn parse(&self, text: &str) -> Result<ParamSetting, ParamError> {
        let value = match self.access {
            Access::Switch(field) => ParamValue::Switch(field, parse_switch(text)?),
            Access::Number {
                field, min, max, ..
            } => {
                let value = text
                    .parse::<i32>()
                    .ok()
                    .filter(|value| (min..=max).contains(value))
                    .ok_or(ParamError::OutOfRange {
                        min: min.into(),
                        max: max.into(),
                    })?;
                ParamValue::Number(field, value)
            }
        };
        Ok(ParamSetting::new(self.name, value))
    }
}

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
enum ParamValue {
    Switch(fn(&mut Params) -> &mut bool, bool),
    Number(NumberField, i32),
}

impl ParamSetting {
    /// A checked value of the parameter `name` (only [`ParamSpec::parse`] makes one).
    fn new(name: &'static str, value: ParamValue) -> ParamSetting {
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
