//! The parameter table against the struct: names, ranges, steps, refusals.

use super::*;

const SIZES: [BoardSize; 2] = [BoardSize::Eight, BoardSize::Nine];

#[test]
fn every_field_has_one_name_and_defaults_are_in_range() {
    let defaults = Params::default();
    for (i, spec) in SPECS.iter().enumerate() {
        assert!(SPECS[..i]
            .iter()
            .all(|other| !other.name.eq_ignore_ascii_case(spec.name)));
        // A parameter's value on one size, set, reads back on that size; a switch or a number
        // shared by both sizes leaves the whole struct as it was.
        for size in SIZES {
            let mut params = defaults;
            spec.parse(&spec.value(&defaults, size))
                .unwrap()
                .apply(&mut params);
            assert_eq!(
                spec.value(&params, size),
                spec.value(&defaults, size),
                "{}",
                spec.name
            );
            if !matches!(
                spec.access,
                Access::Number {
                    field: NumberField::PerSize(_),
                    ..
                }
            ) {
                assert_eq!(params, defaults, "{}", spec.name);
            }
        }
    }
    // Each spec sets its own field: changing one changes the struct.
    for spec in &SPECS {
        let mut params = defaults;
        let other = match spec.access {
            Access::Switch(field) => (!*field(&mut params.clone())).to_string(),
            Access::Number {
                field, min, max, ..
            } => {
                let value = field.get(&params, BoardSize::Eight);
                if value == max { min } else { value + 1 }.to_string()
            }
        };
        let setting = spec.parse(&other).unwrap();
        assert_eq!(setting.name(), spec.name);
        setting.apply(&mut params);
        assert_ne!(params, defaults, "{}", spec.name);
    }
}

#[test]
fn every_number_has_a_tuning_step_inside_its_range() {
    let defaults = Params::default();
    for spec in &SPECS {
        if let Access::Number {
            field,
            min,
            max,
            step,
        } = spec.access
        {
            for size in SIZES {
                let value = field.get(&defaults, size);
                assert!((min..=max).contains(&value), "{}", spec.name);
            }
            assert!(step >= 1 && step <= (max - min) / 2, "{}", spec.name);
        }
    }
}

/// A number with a default per board size is one option: its defaults differ by size, and a
/// value set applies to both.
#[test]
fn a_per_size_number_has_two_defaults_and_one_value_once_set() {
    let mut params = Params::default();
    assert_eq!(params.qsearch_full_plies, PerSize { eight: 3, nine: 2 });
    assert_eq!(
        params.history_prior,
        PerSize {
            eight: 100,
            nine: 0
        }
    );
    params.set("QSearchFullPlies", "5").unwrap();
    for size in SIZES {
        assert_eq!(params.qsearch_full_plies.on(size), 5);
    }
    assert_eq!(
        params.set("QSearchFullPlies9", "5"),
        Err(ParamError::UnknownName)
    );
}

#[test]
fn bad_values_are_refused_and_change_nothing() {
    let mut params = Params::default();
    assert_eq!(params.set("nosuch", "1"), Err(ParamError::UnknownName));
    assert_eq!(params.set("lmr", "yes"), Err(ParamError::NotASwitch));
    assert!(matches!(
        params.set("QSearchFullPlies", "-1"),
        Err(ParamError::OutOfRange { .. })
    ));
    assert!(params.set("DeltaMargin", "12x").is_err());
    assert_eq!(params, Params::default());
    params.set("lmr", "FALSE").unwrap();
    params.set("qsearchfullplies", "7").unwrap();
    assert!(!params.lmr);
    assert_eq!(params.qsearch_full_plies, PerSize::both(7));
}
