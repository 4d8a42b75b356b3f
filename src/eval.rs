//! Static evaluation, from the side to move's point of view.

use crate::position::Position;

/// The evaluation's terms, for the `eval` command: (name, score for the side to move).
pub fn trace(position: &Position) -> Vec<(&'static str, i32)> {
    let us = position.side_to_move();
    let material =
        100 * (position.stacks(us).count() as i32 - position.stacks(us.opponent()).count() as i32);
    vec![("material", material)]
}

/// The static evaluation in centipawn-like units, positive when the side to move stands better.
pub fn evaluate(position: &Position) -> i32 {
    trace(position).iter().map(|(_, score)| score).sum()
}
