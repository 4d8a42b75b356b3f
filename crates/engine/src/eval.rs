//! Static evaluation, from the side to move's point of view, in centipawn-like units.
//!
//! Every term is computed for both sides from bulk bit-set operations (no per-move work) and
//! reported by name through [`trace`]; [`evaluate`] is their sum. The terms and why they count:
//!
//! - `stacks`: each stack is a unit of force; a side out of stacks has lost, and every capture
//!   removes one. The dominant term.
//! - `heights`: a stack of height 2 still has landings in most directions; every level above
//!   that takes landings away, brings the forced bear-off closer, and holds in one stack (one
//!   unit of force) what could be several. So the table gives a little for height 2 and charges
//!   more and more from height 4 up. Games decided the shape: the first table, which rewarded
//!   heights 2 to 7, did worse than no table at all, and this one beats it by well over 100 Elo
//!   at fixed nodes (see `WEIGHTS`).
//! - `king attackers`: enemy stacks that could land on the king with their next move. On the
//!   enemy's turn that loses at once (the search sees it); on ours it still forces a reply.
//! - `king escapes`: the king's own landing squares on the board: a king that cannot move is
//!   easier to trap.
//! - `crown margin`: how much taller the king is than the side's next tallest stack. A small
//!   margin means another stack can take the crown by growing, which moves the king out of reach
//!   of an attack; a large one pins the crown on one stack.
//! - `mobility`: legal landings on the board (bear-offs excluded), the usual measure of freedom.
//! - `stuck stacks`: stacks with no landing square on the board at all: their only move is the
//!   bear-off, so they are dead weight (and a stuck king can never move without losing).
//! - `tempo`: the side to move gets to act first.
//!
//! A side with no king yet (early in the game, or one that never had a uniquely tallest stack)
//! simply scores no king terms: none of its stacks is critical.
//!
//! Each term was weighed by games, leaving it out against the full evaluation; `king
//! attackers`, `stuck stacks` and `tempo` showed no measurable effect either way (the search
//! sees an attack on the king one ply later anyway) and stay, being cheap and part of the
//! design. Measured: see `docs/results/evaluation.md`.

use lielow_rules::attacks;
use lielow_rules::board::{Bitboard, Side, Square, STEPS};
use lielow_rules::position::Position;

/// How many numbers describe a position to the evaluation (see [`features`]).
pub const FEATURES: usize = 16;
/// Index of the stack count in [`features`] and [`WEIGHTS`].
pub const STACKS: usize = 0;
/// Index of the count of stacks of height `h` (1..=9) is `HEIGHTS + h - 1`.
pub const HEIGHTS: usize = 1;
const LAST_HEIGHT: usize = HEIGHTS + 8;
const KING_ATTACKERS: usize = 10;
const KING_ESCAPES: usize = 11;
const CROWN_MARGIN: usize = 12;
const MOBILITY: usize = 13;
const STUCK: usize = 14;
/// Index of the tempo (always 1: the side to move).
pub const TEMPO: usize = 15;

/// The weight of each feature, in centipawn-like units (a stack is worth 100).
///
/// - `stacks` (100): the unit of the scale, never tuned.
/// - heights 1 to 9 (height 1 is 0: the stack count already pays for it), first set by games,
///   each table against the one before, from one that rewarded tall stacks to one that charges
///   more and more from height 4 up.
/// - king attackers (per enemy stack that can land on the king), king escapes (per landing
///   square of the king on the board), crown margin (per level of the king's height over the
///   next tallest stack, capped at 3), mobility (per on-board landing of any stack), stuck (per
///   stack whose only move is its bear-off), tempo.
///
/// The weights are the Texel fit of the last hand-set table (`lielow tune`: `stacks` and height
/// 1 held) on self-play games of the hand-set engine; the fit made tall stacks dearer still and
/// dropped the tempo to nothing. The network (module `nnue`) has replaced this evaluation in
/// the search; these weights still price captures for the quiescence search's exchange and
/// delta estimates, and they are the network's baseline. Measured: see
/// `docs/results/evaluation.md`.
pub const WEIGHTS: [i32; FEATURES] = [
    100, // stacks
    0, 2, -9, -39, -76, -109, -137, -168, -195, // heights 1 to 9
    -50,  // king attackers
    4,    // king escapes
    -7,   // crown margin
    3,    // mobility
    -37,  // stuck
    0,    // tempo
];

/// What a stack of `height` is worth to its owner in the material terms (`stacks` and
/// `heights`): what its capture takes from it. The quiescence search's exchange and delta
/// estimates count captures with it.
#[inline]
pub fn stack_value(height: usize) -> i32 {
    WEIGHTS[STACKS] + WEIGHTS[HEIGHTS + height - 1]
}

/// What a stack of `height` gains in the material terms by dropping to height 1, as a capturing
/// stack does.
#[inline]
pub fn shrink_gain(height: usize) -> i32 {
    WEIGHTS[HEIGHTS] - WEIGHTS[HEIGHTS + height - 1]
}

/// The material a capture of a stack of `victim` height by a stack of `attacker` height gains:
/// the victim's value, and the attacker's change to height 1.
#[inline]
pub fn capture_gain(attacker: usize, victim: usize) -> i32 {
    stack_value(victim) + shrink_gain(attacker)
}

/// The names of the terms, in the order [`terms`] returns them.
pub const TERM_NAMES: [&str; 8] = [
    "stacks",
    "heights",
    "king attackers",
    "king escapes",
    "crown margin",
    "mobility",
    "stuck stacks",
    "tempo",
];

/// The term each feature adds to, as an index into [`TERM_NAMES`].
const TERM_OF_FEATURE: [usize; FEATURES] = [0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 3, 4, 5, 6, 7];

/// The name of feature `index`: its term's, with the height for the height counts.
pub fn feature_name(index: usize) -> String {
    match index {
        HEIGHTS..=LAST_HEIGHT => format!("height {}", index - HEIGHTS + 1),
        _ => TERM_NAMES[TERM_OF_FEATURE[index]].to_string(),
    }
}

/// Every feature of one side (tempo excluded), in [`WEIGHTS`] order.
#[allow(clippy::needless_range_loop)] // heights and directions index several tables in step
fn side_features(position: &Position, side: Side) -> [i32; FEATURES] {
    let size = position.size();
    let geometry = size.geometry();
    let own = position.stacks(side);
    let mut features = [0; FEATURES];
    features[STACKS] = own.count() as i32;
    let mut mobility = 0;
    let mut stuck = 0;
    for height in 1..=size.n() {
        let stacks = position.stacks_of_height(side, height);
        if stacks.is_empty() {
            continue;
        }
        features[HEIGHTS + height - 1] = stacks.count() as i32;
        let mut movable = Bitboard::EMPTY;
        for d in 0..8 {
            let sources = stacks & geometry.sources[height][d];
            movable |= sources;
            mobility += (sources.shifted(STEPS[d] * height as i32) & !own).count() as i32;
        }
        stuck += (stacks & !movable).count() as i32;
    }
    features[MOBILITY] = mobility;
    features[STUCK] = stuck;
    if let Some(king) = position.king(side) {
        features[KING_ATTACKERS] =
            attacks::attackers(position, side.opponent(), king).count() as i32;
        let height = position.height(king);
        let mut escapes = 0;
        for d in 0..8 {
            if geometry.sources[height][d].contains(king) {
                let to = (king.index() as i32 + STEPS[d] * height as i32) as usize;
                if Square::from_index(to).is_some_and(|to| !own.contains(to)) {
                    escapes += 1;
                }
            }
        }
        features[KING_ESCAPES] = escapes;
        let others = own & !king.bit();
        let next = (1..=size.n())
            .rev()
            .find(|&h| (position.stacks_of_height(side, h) & others).any())
            .unwrap_or(0);
        features[CROWN_MARGIN] = (height as i32 - next as i32).clamp(0, 3);
    }
    features
}

/// The features for the side to move (own minus enemy; the tempo 1), in [`WEIGHTS`] order:
/// the evaluation is their dot product with the weights, which is what Texel tuning fits.
pub fn features(position: &Position) -> [i32; FEATURES] {
    let us = position.side_to_move();
    let ours = side_features(position, us);
    let theirs = side_features(position, us.opponent());
    let mut features = [0; FEATURES];
    for i in 0..FEATURES {
        features[i] = ours[i] - theirs[i];
    }
    features[TEMPO] = 1;
    features
}

/// The terms for the side to move, in [`TERM_NAMES`] order.
pub fn terms(position: &Position) -> [i32; 8] {
    let mut terms = [0; 8];
    for (i, feature) in features(position).into_iter().enumerate() {
        terms[TERM_OF_FEATURE[i]] += WEIGHTS[i] * feature;
    }
    terms
}

/// The evaluation's terms, for the `eval` command: (name, score for the side to move).
pub fn trace(position: &Position) -> Vec<(&'static str, i32)> {
    TERM_NAMES.iter().copied().zip(terms(position)).collect()
}

/// The static evaluation, positive when the side to move stands better.
pub fn evaluate(position: &Position) -> i32 {
    features(position)
        .iter()
        .zip(WEIGHTS)
        .map(|(feature, weight)| feature * weight)
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use lielow_rules::board::BoardSize;

    #[test]
    fn start_positions_are_level_but_for_tempo() {
        for size in [BoardSize::Eight, BoardSize::Nine] {
            let position = Position::start(size);
            assert_eq!(evaluate(&position), WEIGHTS[TEMPO]);
            assert_eq!(trace(&position).len(), TERM_NAMES.len());
        }
    }

    #[test]
    fn evaluation_is_symmetric() {
        // The same position seen from either side sums to two tempos.
        let position = Position::from_lfen("8/5B11r2/2b13R41/8/8/r42r42b21/3b14/4b23 b").unwrap();
        let mirrored = Position::from_lfen("8/5B11r2/2b13R41/8/8/r42r42b21/3b14/4b23 r").unwrap();
        assert_eq!(
            evaluate(&position) + evaluate(&mirrored),
            2 * WEIGHTS[TEMPO]
        );
    }

    #[test]
    fn an_extra_stack_is_better() {
        let ahead = Position::from_lfen("8/r1r1r1r1r1r1r11/8/8/8/8/b1b1b1b1b1b1b1b1/8 b").unwrap();
        assert!(evaluate(&ahead) > 50);
        let attacked = Position::from_lfen("8/8/8/3R24/8/8/b1b1b1b1b1b1b1b1/8 b").unwrap();
        let trace = trace(&attacked);
        assert_eq!(trace[0], ("stacks", 700));
    }
}
