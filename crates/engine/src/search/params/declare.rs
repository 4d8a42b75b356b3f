//! The macro that turns the one table of parameters (`params.rs`) into the [`Params`] struct,
//! its defaults per board size, the [`SPECS`] the options and the SPSA list read, and the
//! documentation table of [`Params`].
//!
//! [`Params`]: super::Params
//! [`SPECS`]: super::SPECS

/// Declares every parameter once. Each entry is its doc comment, then
/// `field: KIND(ARGS),` with one of three kinds:
///
/// - `switch("Name", default)`: a `bool`, a UCI `check` option;
/// - `number("Name", default, min, max, step)`: an `i32` in `min..=max` whose SPSA step is
///   `step`;
/// - `per_size("Name", default on 8x8, default on 9x9, min, max, step)`: a [`PerSize`] number,
///   one parameter whose best value differs by board size; `setoption` sets it on both.
///
/// [`PerSize`]: super::PerSize
macro_rules! declare_params {
    ($( $(#[doc = $doc:literal])* $field:ident : $kind:ident ( $($args:tt)* ), )*) => {
        /// Switches and numbers of the search; the default is the engine as it plays. Every
        /// field is a development option (see the module doc):
        ///
        /// | option | default | range | step | what it does |
        /// | --- | --- | --- | --- | --- |
        $( #[doc = param_row!($kind ($($args)*) $($doc)*)] )*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct Params {
            $( $(#[doc = $doc])* pub $field: param_type!($kind), )*
        }

        impl Default for Params {
            fn default() -> Self {
                Params {
                    $( $field: param_default!($kind ($($args)*)), )*
                }
            }
        }

        /// How many parameters there are.
        const COUNT: usize = [$(stringify!($field)),*].len();

        /// Every parameter, by option name, in the order of their declaration: numbers with
        /// their range and SPSA step.
        pub const SPECS: [ParamSpec; COUNT] = [
            $( param_spec!($kind $field ($($args)*)), )*
        ];
    };
}

/// The field type of a kind of parameter.
macro_rules! param_type {
    (switch) => {
        bool
    };
    (number) => {
        i32
    };
    (per_size) => {
        PerSize
    };
}

/// The default value of a parameter.
macro_rules! param_default {
    (switch ($name:literal, $default:literal)) => {
        $default
    };
    (number ($name:literal, $default:literal, $($range_and_step:literal),*)) => {
        $default
    };
    (per_size ($name:literal, $eight:literal, $nine:literal, $($range_and_step:literal),*)) => {
        PerSize {
            eight: $eight,
            nine: $nine,
        }
    };
}

/// The [`ParamSpec`](super::ParamSpec) of a parameter: its name, kind and field.
macro_rules! param_spec {
    (switch $field:ident ($name:literal, $default:literal)) => {
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
    (number $field:ident
        ($name:literal, $default:literal, $min:literal, $max:literal, $step:literal)) => {
        ParamSpec {
            name: $name,
            access: Access::Number {
                field: NumberField::Shared({
                    fn field(params: &mut Params) -> &mut i32 {
                        &mut params.$field
                    }
                    field
                }),
                min: $min,
                max: $max,
                step: $step,
            },
        }
    };
    (per_size $field:ident
        ($name:literal, $eight:literal, $nine:literal, $min:literal, $max:literal,
        $step:literal)) => {
        ParamSpec {
            name: $name,
            access: Access::Number {
                field: NumberField::PerSize({
                    fn field(params: &mut Params) -> &mut PerSize {
                        &mut params.$field
                    }
                    field
                }),
                min: $min,
                max: $max,
                step: $step,
            },
        }
    };
}

/// A parameter's row of the documentation table.
macro_rules! param_row {
    (switch ($name:literal, $default:literal) $($doc:literal)*) => {
        concat!("| `", $name, "` | ", $default, " | switch |  |", $($doc,)* " |")
    };
    (number ($name:literal, $default:literal, $min:literal, $max:literal, $step:literal)
        $($doc:literal)*) => {
        concat!(
            "| `", $name, "` | ", $default, " | ", $min, "..", $max, " | ", $step, " |",
            $($doc,)* " |"
        )
    };
    (per_size ($name:literal, $eight:literal, $nine:literal, $min:literal, $max:literal,
        $step:literal) $($doc:literal)*) => {
        concat!(
            "| `", $name, "` | ", $eight, " (9x9: ", $nine, ") | ", $min, "..", $max, " | ",
            $step, " |", $($doc,)* " |"
        )
    };
}
