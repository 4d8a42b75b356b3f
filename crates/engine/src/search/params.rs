//! The search's switches and tunable numbers, by name: what ablations and tuning change.
//!
//! Each parameter is declared once, below: its doc, option name, default (per board size where
//! the best value differs), range and SPSA step. The [`Params`] struct, its [`Default`] (the
//! engine as it plays), [`SPECS`] (what `setoption` and `lielow spsa --list` read) and the
//! table in the documentation of [`Params`] are all generated from that declaration
//! (`params/declare.rs`).
//!
//! Every field is also a development option of the protocol (`setoption name <NAME> value
//! <VALUE>`, see protocol.md), which `ugi` does not list, so that a measurement runs through
//! `lielow match` and `scripts/sprt.sh` with `option.NAME=VALUE` instead of a program of its
//! own. A number with a default per board size ([`PerSize`]) is one option: setting it sets
//! the value on both sizes.
//!
//! Every number of the search a tuner could move is here, none is a constant in the code. A
//! number that a formula uses as a fraction is kept in hundredths (`LMRBase` 86 is 0.86), so
//! that the integer options of the protocol reach it and the default reproduces the float the
//! formula had bit for bit (86 / 100 in `f32` is the nearest `f32` to 0.86, the literal's value).
//!
//! Each number's `step` is its SPSA perturbation at the end of a run (`c_end` in fishtest's
//! terms), in the parameter's own units: roughly the change that moves strength by a few Elo,
//! at least 1 (the engine only takes integers). `lielow spsa --list` prints them as a parameter
//! file.
//!
//! Not parameters, and why: the split depths of `worker/splitting.rs` decide which nodes the
//! threads share, so they change time to depth, not the tree one thread searches (a tuner plays
//! games with one thread, where they do nothing); the move ordering's bands and `HISTORY_MAX`
//! (`ordering.rs`) are orders of magnitude that keep the bands apart, not quantities; the
//! aspiration window's doubling and the reduction's cap at `depth - 2` keep the search sound
//! (every window eventually opens, every reduced search keeps a ply).

#[macro_use]
mod declare;
mod spec;
#[cfg(test)]
mod tests;

use lielow_rules::board::BoardSize;

pub use spec::{parse_switch, Access, NumberField, ParamError, ParamSetting, ParamSpec};

/// A number whose best value differs by board size: one parameter, a value per size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PerSize {
    /// The value on 8x8.
    pub eight: i32,
    /// The value on 9x9.
    pub nine: i32,
}

impl PerSize {
    /// The same value on both sizes.
    pub fn both(value: i32) -> PerSize {
        PerSize {
            eight: value,
            nine: value,
        }
    }

    /// The value on `size`.
    #[inline]
    pub fn on(self, size: BoardSize) -> i32 {
        match size {
            BoardSize::Eight => self.eight,
            BoardSize::Nine => self.nine,
        }
    }
}

declare_params! {
    /// Probe and store the transposition table.
    tt: switch("TT", true),
    /// Quiescence search on captures at the leaves (else the static evaluation).
    qsearch: switch("QSearch", true),
    /// Probe and store the table in quiescence too (with `TT`).
    qsearch_tt: switch("QSearchTT", true),
    /// Quiescence plies that may try every move while the king is attacked (0: none).
    evasion_plies: number("EvasionPlies", 2, 0, 16, 1),
    /// Quiescence plies that try every capture; deeper, only recaptures on the square of the
    /// last capture (fewer on 9x9, where crowded positions have the most captures).
    qsearch_full_plies: per_size("QSearchFullPlies", 3, 2, 0, 128, 1),
    /// Delta pruning in quiescence: skip a capture whose material gain plus `DeltaMargin`
    /// cannot lift the static evaluation to alpha.
    delta_pruning: switch("DeltaPruning", true),
    /// What delta pruning allows a capture beyond its material gain (the positional terms it
    /// changes: mobility, king safety, the crown).
    delta_margin: number("DeltaMargin", 110, 0, 1000, 10),
    /// In quiescence, skip a capture whose static exchange is below this (`-32000`: never).
    exchange_threshold: number("ExchangeThreshold", -58, -32000, 1000, 10),
    /// Search one ply deeper while the side to move's king is attacked.
    danger_extension: switch("DangerExtension", true),
    /// Late-move reductions of quiet moves.
    lmr: switch("LMR", true),
    /// History points worth one ply less (or more) of late-move reduction.
    lmr_history_divisor: number("LMRHistoryDivisor", 5934, 100, 100_000, 500),
    /// The late-move reduction's constant term, in hundredths of a ply: the reduction is
    /// `LMRBase / 100 + ln(depth) * ln(move number) / (LMRDivisor / 100)`.
    lmr_base: number("LMRBase", 83, -200, 400, 10),
    /// The divisor of the late-move reduction's logarithmic term, in hundredths.
    lmr_divisor: number("LMRDivisor", 169, 50, 1000, 15),
    /// The shallowest depth at which late moves are reduced (at least 2: a reduced search
    /// keeps one ply).
    lmr_min_depth: number("LMRMinDepth", 3, 2, 64, 1),
    /// The first move number (from 0) that may be reduced.
    lmr_min_index: number("LMRMinIndex", 1, 1, 64, 1),
    /// Reverse futility pruning: far enough above beta near the leaves, the side to move keeps
    /// it.
    reverse_futility: switch("ReverseFutility", true),
    /// Reverse futility margin per ply of depth.
    reverse_futility_margin: number("ReverseFutilityMargin", 70, 0, 1000, 8),
    /// The deepest node reverse futility pruning may cut.
    reverse_futility_depth: number("ReverseFutilityDepth", 3, 0, 64, 1),
    /// Aspiration windows around the previous iteration's score.
    aspiration: switch("Aspiration", true),
    /// The first half-width of an aspiration window.
    aspiration_window: number("AspirationWindow", 30, 1, 1000, 4),
    /// The first iteration searched in an aspiration window (shallower ones: the full window).
    aspiration_min_depth: number("AspirationMinDepth", 5, 1, 64, 1),
    /// A window that has widened past this half-width is opened fully.
    aspiration_limit: number("AspirationLimit", 500, 1, 32000, 50),
    /// Null-move pruning: when passing still fails high at a reduced depth, so does the node.
    null_move: switch("NullMove", true),
    /// The fewest stacks the side to move must have for null-move pruning (below, zugzwang
    /// gets likelier).
    null_move_min_stacks: number("NullMoveMinStacks", 4, 0, 81, 1),
    /// The null move's reduction: `NullMoveBase + depth / NullMoveDivisor` plies.
    null_move_base: number("NullMoveBase", 2, 0, 64, 1),
    /// The depth per extra ply of null-move reduction.
    null_move_divisor: number("NullMoveDivisor", 4, 1, 64, 1),
    /// The shallowest node that tries a null move.
    null_move_min_depth: number("NullMoveMinDepth", 3, 1, 64, 1),
    /// Late move pruning: near the leaves, skip the quiet moves ordered after the first few.
    late_move_pruning: switch("LateMovePruning", true),
    /// The deepest node late move pruning acts at.
    late_move_depth: number("LateMoveDepth", 4, 0, 64, 1),
    /// Late move pruning searches `LateMoveBase + LateMoveFactor * depth^2` moves.
    late_move_base: number("LateMoveBase", 5, 0, 256, 1),
    /// See `LateMoveBase`.
    late_move_factor: number("LateMoveFactor", 4, 0, 64, 1),
    /// Internal iterative reduction: one ply less where the table has no move.
    iir: switch("IIR", true),
    /// The shallowest node internal iterative reduction reduces (at least 2: it keeps a ply).
    iir_min_depth: number("IIRMinDepth", 4, 2, 64, 1),
    /// A cut-off's history bonus in hundredths of depth^2 (the tried quiet moves lose as much).
    history_bonus: number("HistoryBonus", 102, 0, 1000, 10),
    /// When every move of a node fails low, the opponent's quiet move that led to it gains this
    /// many hundredths of a cut-off's history bonus (0: nothing).
    history_prior: per_size("HistoryPrior", 100, 0, 0, 1000, 10),
    /// Continuation histories (one and two plies back) in move ordering and reductions.
    cont_history: switch("ContHistory", true),
    /// The improving flag (static evaluation above two plies before) in reverse futility,
    /// late move pruning and reductions.
    improving: switch("Improving", true),
    /// With `Improving`, late move pruning's move count when not improving, in hundredths of
    /// the count.
    late_move_worsening: number("LateMoveWorsening", 60, 10, 100, 5),
    /// The table's score in place of the static evaluation where its bound says the true
    /// score lies beyond it ([`crate::tt::Entry::sharpen`]), for the pruning decisions and
    /// quiescence's stand-pat.
    tt_eval: switch("TTEval", true),
    /// How many more moves a clock without `movestogo` is planned to last: the soft deadline
    /// plans the remaining time over this, plus three quarters of the increment.
    time_moves_to_go: number("TimeMovesToGo", 25, 2, 100, 2),
}
