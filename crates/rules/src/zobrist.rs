//! Zobrist keys, fixed at compile time so that keys (and the bench signature) are the same on
//! every run and every machine.

use crate::board::{Side, Square, MAX_HEIGHT, SQUARES};

/// SplitMix64: a tiny generator whose outputs are well spread, good enough for hash keys.
const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

struct Keys {
    /// `stack[side][height][square]`; height 0 is never used.
    stack: [[[u64; SQUARES]; MAX_HEIGHT + 1]; 2],
    crown: [[u64; SQUARES]; 2],
    red_to_move: u64,
    nine_by_nine: u64,
}

const KEYS: Keys = {
    let mut state = 0x4C49_454C_4F57_u64; // "LIELOW"
    let mut stack = [[[0u64; SQUARES]; MAX_HEIGHT + 1]; 2];
    let mut crown = [[0u64; SQUARES]; 2];
    let mut side = 0;
    while side < 2 {
        let mut h = 1;
        while h <= MAX_HEIGHT {
            let mut sq = 0;
            while sq < SQUARES {
                let (s, k) = splitmix(state);
                state = s;
                stack[side][h][sq] = k;
                sq += 1;
            }
            h += 1;
        }
        let mut sq = 0;
        while sq < SQUARES {
            let (s, k) = splitmix(state);
            state = s;
            crown[side][sq] = k;
            sq += 1;
        }
        side += 1;
    }
    let (state, red_to_move) = splitmix(state);
    let (_, nine_by_nine) = splitmix(state);
    Keys {
        stack,
        crown,
        red_to_move,
        nine_by_nine,
    }
};

/// Key of a stack of `side` and `height` on `square`.
#[inline]
pub fn stack(side: Side, height: usize, square: Square) -> u64 {
    KEYS.stack[side.index()][height][square.index()]
}

/// Key of `side`'s crown on `square` (a side with no crown on the board adds nothing).
#[inline]
pub fn crown(side: Side, square: Square) -> u64 {
    KEYS.crown[side.index()][square.index()]
}

/// Added when Red is to move.
#[inline]
pub fn red_to_move() -> u64 {
    KEYS.red_to_move
}

/// Added for 9x9 positions, so that the two sizes never share keys in one table.
#[inline]
pub fn nine_by_nine() -> u64 {
    KEYS.nine_by_nine
}
