//! The parameters by name: each one's option name, kind of value, range and tuning step, and
//! the field of [`Params`] it sets.

use super::setting::{parse_switch, ParamError, ParamSetting, ParamValue};
use super::Params;

/// What kind of value a parameter takes.
#[derive(Clone, Copy)]
pub enum Access {
    /// `true` / `false` (a UCI `check` option).
    Switch(fn(&mut Params) -> &mut bool),
    /// An integer in `min..=max` (a UCI `spin` option).
    Number {
        /// The field it sets.
        field: fn(&mut Params) -> &mut i32,
        /// The smallest value accepted.
        min: i32,
        /// The largest value accepted.
        max: i32,
        /// The SPSA perturbation at the end of a run (`c_end`), in the parameter's units.
        step: i32,
    },
}

/// One named parameter.
#[derive(Clone, Copy)]
pub struct ParamSpec {
    /// The option name, as `setoption` takes it (case-insensitive).
    pub name: &'static str,
    /// Its kind of value and the field it sets.
    pub access: Access,
}

macro_rules! switch {
    ($name:literal, $field:ident) => {
        ParamSpec {
            name: $name,
            access: Access::Switch({
                fn field(params: &mut Params) -> &mut bool {
                    &mut params.$field
                }
                field
            }),
        }
    };
}

macro_rules! number {
    ($name:literal, $field:ident, $min:expr, $max:expr, $step:expr) => {
        ParamSpec {
            name: $name,
            access: Access::Number {
                field: {
                    fn field(params: &mut Params) -> &mut i32 {
                        &mut params.$field
                    }
                    field
                },
                min: $min,
                max: $max,
                step: $step,
            },
        }
    };
}

/// Every parameter, by option name: numbers with their range and SPSA step.
pub const SPECS: [ParamSpec; 42] = [
    switch!("TT", tt),
    switch!("QSearch", qsearch),
    switch!("QSearchTT", qsearch_tt),
    number!("EvasionPlies", evasion_plies, 0, 16, 1),
    number!("QSearchFullPlies", qsearch_full_plies, 0, 128, 1),
    number!("QSearchFullPlies9", qsearch_full_plies_9, 0, 128, 1),
    switch!("DeltaPruning", delta_pruning),
    number!("DeltaMargin", delta_margin, 0, 1000, 10),
    number!("ExchangeThreshold", exchange_threshold, -32000, 1000, 10),
    switch!("DangerExtension", danger_extension),
    switch!("LMR", lmr),
    number!("LMRHistoryDivisor", lmr_history_divisor, 100, 100_000, 500),
    number!("LMRBase", lmr_base, -200, 400, 10),
    number!("LMRDivisor", lmr_divisor, 50, 1000, 15),
    number!("LMRMinDepth", lmr_min_depth, 2, 64, 1),
    number!("LMRMinIndex", lmr_min_index, 1, 64, 1),
    switch!("ReverseFutility", reverse_futility),
    number!("ReverseFutilityMargin", reverse_futility_margin, 0, 1000, 8),
    number!("ReverseFutilityDepth", reverse_futility_depth, 0, 64, 1),
    switch!("Aspiration", aspiration),
    number!("AspirationWindow", aspiration_window, 1, 1000, 4),
    number!("AspirationMinDepth", aspiration_min_depth, 1, 64, 1),
    number!("AspirationLimit", aspiration_limit, 1, 32000, 50),
    switch!("NullMove", null_move),
    number!("NullMoveMinStacks", null_move_min_stacks, 0, 81, 1),
    number!("NullMoveBase", null_move_base, 0, 64, 1),
    number!("NullMoveDivisor", null_move_divisor, 1, 64, 1),
    number!("NullMoveMinDepth", null_move_min_depth, 1, 64, 1),
    switch!("LateMovePruning", late_move_pruning),
    number!("LateMoveDepth", late_move_depth, 0, 64, 1),
    number!("LateMoveBase", late_move_base, 0, 256, 1),
    number!("LateMoveFactor", late_move_factor, 0, 64, 1),
    switch!("IIR", iir),
    number!("IIRMinDepth", iir_min_depth, 2, 64, 1),
    number!("HistoryBonus", history_bonus, 0, 1000, 10),
    number!("HistoryPrior", history_prior, 0, 1000, 10),
    number!("HistoryPrior9", history_prior_9, 0, 1000, 10),
    switch!("ContHistory", cont_history),
    switch!("Improving", improving),
    number!("LateMoveWorsening", late_move_worsening, 10, 100, 5),
    switch!("TTEval", tt_eval),
    number!("TimeMovesToGo", time_moves_to_go, 2, 100, 2),
];

impl ParamSpec {
    /// The parameter called `name` (case-insensitive).
    pub fn find(name: &str) -> Option<&'static ParamSpec> {
        SPECS
            .iter()
            .find(|spec| spec.name.eq_ignore_ascii_case(name))
    }

    /// The value's text in `params`, as `setoption` takes it.
    pub fn value(&self, params: &Params) -> String {
        let mut copy = *params;
        match self.access {
            Access::Switch(field) => field(&mut copy).to_string(),
            Access::Number { field, .. } => field(&mut copy).to_string(),
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
