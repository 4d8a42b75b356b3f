//! Static exchange evaluation: what a capture wins once every recapture on its landing square
//! has been played out, each side stopping when going on would lose.
//!
//! In Lielow every capture removes one enemy stack and leaves the capturer on the square at
//! height 1, so an exchange on one square is a series of stack-for-stack trades: the first
//! capture wins the victim (and whatever the capturer's shrinking to height 1 is worth), every
//! recapture wins the height-1 stack standing there. Jumps ignore what lies between, so the
//! stacks that can recapture are fixed by the position before the exchange: no x-rays. A king
//! standing on the square is worth the game, so the side that captures with its king does so
//! last. Crown moves caused by the trades are ignored; the quiescence search plays the real
//! captures and sees them.

use crate::eval;
use lielow_rules::attacks;
use lielow_rules::board::{Bitboard, Square};
use lielow_rules::moves::Move;
use lielow_rules::position::Position;

/// Worth of a king standing on the exchange square: more than any material.
const KING_VALUE: i32 = 10_000;

/// The material the capture `mv` wins for the side to move after the best sequence of
/// recaptures on its square (negative: the exchange loses). `mv` must be a capture.
pub fn exchange(position: &Position, mv: Move) -> i32 {
    let Some(to) = mv.to() else { return 0 };
    let us = position.side_to_move();
    let kings = [position.king(us), position.king(us.opponent())];
    let worth = |square: Square, height: usize| {
        if kings.contains(&Some(square)) {
            KING_VALUE
        } else {
            eval::stack_value(height)
        }
    };
    let from = mv.from();
    let mut attackers = [
        attacks::attackers(position, us, to) & !from.bit(),
        attacks::attackers(position, us.opponent(), to),
    ];
    // gains[d]: what the d-th capture of the sequence wins for its side, if the other side
    // stopped there.
    let mut gains = [0i32; 2 * lielow_rules::board::SQUARES];
    gains[0] = eval::capture_gain(position.height(from), position.height(to));
    // The stack now on the square: the first capturer, at height 1.
    let mut on_square = worth(from, 1);
    let mut depth = 0;
    let mut side = 1;
    while let Some(capturer) = least_valuable(position, attackers[side], &kings) {
        attackers[side] &= !capturer.bit();
        depth += 1;
        let height = position.height(capturer);
        gains[depth] = on_square + eval::shrink_gain(height) - gains[depth - 1];
        on_square = worth(capturer, 1);
        side ^= 1;
    }
    // Each side stops where going on would lose: fold the sequence back.
    while depth > 0 {
        gains[depth - 1] = -(-gains[depth - 1]).max(gains[depth]);
        depth -= 1;
    }
    gains[0]
}

/// The capturer to use next among `candidates`: not a king while another will do, and the
/// tallest (its shrinking to height 1 costs least, even gains).
fn least_valuable(
    position: &Position,
    candidates: Bitboard,
    kings: &[Option<Square>; 2],
) -> Option<Square> {
    let is_king = |square: &Square| kings.contains(&Some(*square));
    candidates
        .into_iter()
        .max_by_key(|square| (!is_king(square), position.height(*square)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn capture(lfen: &str, text: &str) -> i32 {
        let position = Position::from_lfen(lfen).unwrap();
        let mv = position.parse_move(text).unwrap();
        exchange(&position, mv)
    }

    #[test]
    fn an_undefended_victim_is_won_outright() {
        // b1 takes the red stack on b2; no red stack can land on b2.
        let gain = capture("r17/8/8/8/8/8/1r16/1b11b11b12 b", "b1xb2");
        assert_eq!(gain, eval::capture_gain(1, 1));
    }

    #[test]
    fn a_defended_victim_is_an_even_trade_for_equal_stacks() {
        // Blue b1 takes b2; red c3 (height 1) retakes diagonally.
        let gain = capture("8/8/8/8/8/2r15/1r16/1b11b14 b", "b1xb2");
        assert_eq!(gain, 0);
    }

    #[test]
    fn the_king_does_not_capture_into_a_defended_square() {
        // Blue's king (height 2 on b1) takes b3; red c3 retakes and would win the game.
        let gain = capture("8/8/8/8/8/1r1r15/8/1B2b1b14 b", "b1xb3");
        assert!(gain < 0, "{gain}");
    }
}
