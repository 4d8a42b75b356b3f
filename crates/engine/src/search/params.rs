//! The search's switches and tunable numbers, by name: what ablations and tuning change.
//!
//! [`Params::default`] is the engine as it plays. Every field is also a development option of
//! the protocol (`setoption name <NAME> value <VALUE>`, see protocol.md), which `ugi` does not
//! list, so that a measurement runs through `lielow match` and `scripts/sprt.sh` with
//! `option.NAME=VALUE` instead of a program of its own. [`SPECS`] is that list: a name, a kind
//! (switch or number with its range and tuning step) and the field it sets.
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

mod setting;
mod spec;
#[cfg(test)]
mod tests;

pub use setting::{parse_switch, ParamError, ParamSetting};
pub use spec::{Access, ParamSpec, SPECS};

/// Switches and numbers of the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    /// Probe and store the transposition table.
    pub tt: bool,
    /// Quiescence search on captures at the leaves (else the static evaluation).
    pub qsearch: bool,
    /// Probe and store the table in quiescence too (with `tt`).
    pub qsearch_tt: bool,
    /// Quiescence plies that may try every move while the king is attacked (0: none).
    pub evasion_plies: i32,
    /// Quiescence plies that try every capture on 8x8; deeper, only recaptures on the square of
    /// the last capture.
    pub qsearch_full_plies: i32,
    /// The same on 9x9, where crowded positions have the most captures.
    pub qsearch_full_plies_9: i32,
    /// Delta pruning in quiescence: skip a capture whose material gain plus `delta_margin`
    /// cannot lift the static evaluation to alpha.
    pub delta_pruning: bool,
    /// What delta pruning allows a capture beyond its material gain (the positional terms it
    /// changes: mobility, king safety, the crown).
    pub delta_margin: i32,
    /// In quiescence, skip a capture whose static exchange is below this (`-32000`: never).
    pub exchange_threshold: i32,
    /// Search one ply deeper while the side to move's king is attacked.
    pub danger_extension: bool,
    /// Late-move reductions of quiet moves.
    pub lmr: bool,
    /// History points worth one ply less (or more) of late-move reduction.
    pub lmr_history_divisor: i32,
    /// The late-move reduction's constant term, in hundredths of a ply: the reduction is
    /// `lmr_base / 100 + ln(depth) * ln(move number) / (lmr_divisor / 100)`.
    pub lmr_base: i32,
    /// The divisor of the late-move reduction's logarithmic term, in hundredths.
    pub lmr_divisor: i32,
    /// The shallowest depth at which late moves are reduced (at least 2: a reduced search
    /// keeps one ply).
    pub lmr_min_depth: i32,
    /// The first move number (from 0) that may be reduced.
    pub lmr_min_index: i32,
    /// Reverse futility pruning: far enough above beta near the leaves, the side to move keeps it.
    pub reverse_futility: bool,
    /// Reverse futility margin per ply of depth.
    pub reverse_futility_margin: i32,
    /// The deepest node reverse futility pruning may cut.
    pub reverse_futility_depth: i32,
    /// Aspiration windows around the previous iteration's score.
    pub aspiration: bool,
    /// The first half-width of an aspiration window.
    pub aspiration_window: i32,
    /// The first iteration searched in an aspiration window (shallower ones: the full window).
    pub aspiration_min_depth: i32,
    /// A window that has widened past this half-width is opened fully.
    pub aspiration_limit: i32,
    /// Null-move pruning: when passing still fails high at a reduced depth, so does the node.
    pub null_move: bool,
    /// The fewest stacks the side to move must have for null-move pruning (below, zugzwang
    /// gets likelier).
    pub null_move_min_stacks: i32,
    /// The null move's reduction: `null_move_base + depth / null_move_divisor` plies.
    pub null_move_base: i32,
    /// The depth per extra ply of null-move reduction.
    pub null_move_divisor: i32,
    /// The shallowest node that tries a null move.
    pub null_move_min_depth: i32,
    /// Late move pruning: near the leaves, skip the quiet moves ordered after the first few.
    pub late_move_pruning: bool,
    /// The deepest node late move pruning acts at.
    pub late_move_depth: i32,
    /// Late move pruning searches `late_move_base + late_move_factor * depth^2` moves.
    pub late_move_base: i32,
    /// See `late_move_base`.
    pub late_move_factor: i32,
    /// Internal iterative reduction: one ply less where the table has no move.
    pub iir: bool,
    /// The shallowest node internal iterative reduction reduces (at least 2: it keeps a ply).
    pub iir_min_depth: i32,
    /// A cut-off's history bonus in hundredths of depth^2 (the tried quiet moves lose as much).
    pub history_bonus: i32,
    /// When every move of a node fails low, the opponent's quiet move that led to it gains this
    /// many hundredths of a cut-off's history bonus (0: nothing), on 8x8.
    pub history_prior: i32,
    /// The same on 9x9.
    pub history_prior_9: i32,
    /// Continuation histories (one and two plies back) in move ordering and reductions.
    pub cont_history: bool,
    /// The improving flag (static evaluation above two plies before) in reverse futility,
    /// late move pruning and reductions.
    pub improving: bool,
    /// Late move pruning's move count when not improving, in hundredths of the count.
    pub late_move_worsening: i32,
    /// The table's score in place of the static evaluation where its bound says the true
    /// score lies beyond it ([`crate::tt::Entry::sharpen`]), for the pruning decisions and
    /// quiescence's stand-pat.
    pub tt_eval: bool,
    /// How many more moves a clock without `movestogo` is planned to last: the soft deadline
    /// plans the remaining time over this ([`crate::time::DEFAULT_MOVES_TO_GO`]).
    pub time_moves_to_go: i32,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            tt: true,
            qsearch: true,
            qsearch_tt: true,
            evasion_plies: 2,
            qsearch_full_plies: 3,
            qsearch_full_plies_9: 2,
            delta_pruning: true,
            delta_margin: 110,
            exchange_threshold: -58,
            danger_extension: true,
            lmr: true,
            lmr_history_divisor: 5934,
            lmr_base: 83,
            lmr_divisor: 169,
            lmr_min_depth: 3,
            lmr_min_index: 1,
            reverse_futility: true,
            reverse_futility_margin: 70,
            reverse_futility_depth: 3,
            aspiration: true,
            aspiration_window: 30,
            aspiration_min_depth: 5,
            aspiration_limit: 500,
            null_move: true,
            null_move_min_stacks: 4,
            null_move_base: 2,
            null_move_divisor: 4,
            null_move_min_depth: 3,
            late_move_pruning: true,
            late_move_depth: 4,
            late_move_base: 5,
            late_move_factor: 4,
            iir: true,
            iir_min_depth: 4,
            history_bonus: 102,
            history_prior: 100,
            history_prior_9: 0,
            cont_history: true,
            improving: true,
            late_move_worsening: 60,
            tt_eval: true,
            time_moves_to_go: crate::time::DEFAULT_MOVES_TO_GO,
        }
    }
}
