//! The parameter table against the struct: names, ranges, steps, refusals.

use super::*;

#[test]
fn every_field_has_one_name_and_defaults_are_in_range() {
    let defaults = Params::default();
    for (i, spec) in SPECS.iter().enumerate() {
        assert!(SPECS[..i]
            .iter()
            .all(|other| !other.name.eq_ignore_ascii_case(spec.name)));
        let mut params = defaults;
        spec.parse(&spec.value(&defaults))
            .unwrap()
            .apply(&mut params);
        assert_eq!(params, defaults, "{}", spec.name);
    }
    // Each spec sets its own field: changing one changes the struct.
    for spec in &SPECS {
        let mut params = defaults;
        let other = match spec.access {
            Access::Switch(field) => (!*field(&mut params.clone())).to_string(),
            Access::Number {
                field, min, max, ..
            } => {
                let value = *field(&mut params.clone());
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
            let value = *field(&mut defaults.clone());
            assert!((min..=max).contains(&value), "{}", spec.name);
            assert!(step >= 1 && step <= (max - min) / 2, "{}", spec.name);
        }
    }
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
    assert_eq!(params.qsearch_full_plies, 7);
}
