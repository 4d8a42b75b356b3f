//! The parameters by name: each one's option name, kind of value, range and tuning step, and
//! the field of [`Params`] it sets. [`SPECS`](super::SPECS) itself is generated from the
//! declaration in `params.rs`.

use lielow_rules::board::BoardSize;

use super::setting::{parse_switch, ParamError, ParamSetting, ParamValue};
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
