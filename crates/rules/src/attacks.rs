//! Which stacks can land on a square next move, by table lookup.
//!
//! The search asks this at every node (can the side to move capture the enemy king? is its own
//! king attacked?), so it must cost a handful of instructions. Shifting the square back along
//! eight directions for every height would take 72 shifts of a `u128`; here the origins are
//! precomputed: `ORIGINS[size][h][square]` is every square from which a
//! stack of height `h` lands on `square`, so the answer is one AND per height present.

use crate::board::{Bitboard, BoardSize, Side, Square, DIRECTIONS, MAX_HEIGHT, SQUARES, STRIDE};
use crate::position::Position;

type Table = [[[Bitboard; SQUARES]; MAX_HEIGHT + 1]; 2];

const fn build() -> Table {
    let mut table = [[[Bitboard::EMPTY; SQUARES]; MAX_HEIGHT + 1]; 2];
    let mut s = 0;
    while s < 2 {
        let n = if s == 0 { 8 } else { 9 };
        let mut h = 1;
        while h <= MAX_HEIGHT as i32 {
            let mut rank = 0;
            while rank < n {
                let mut file = 0;
                while file < n {
                    let mut bits = 0u128;
                    let mut d = 0;
                    while d < 8 {
                        // The origin lies h steps behind the target.
                        let f = file - DIRECTIONS[d].0 * h;
                        let r = rank - DIRECTIONS[d].1 * h;
                        if f >= 0 && f < n && r >= 0 && r < n {
                            bits |= 1u128 << (r * STRIDE as i32 + f);
                        }
                        d += 1;
                    }
                    table[s][h as usize][(rank * STRIDE as i32 + file) as usize] = Bitboard(bits);
                    file += 1;
                }
                rank += 1;
            }
            h += 1;
        }
        s += 1;
    }
    table
}

static ORIGINS: Table = build();

/// The squares from which a stack of height `height` lands on `square` (on a board of `size`).
#[inline]
pub fn origins(size: BoardSize, height: usize, square: Square) -> Bitboard {
    ORIGINS[usize::from(size == BoardSize::Nine)][height][square.index()]
}

/// The stacks of `side` that could land on `square` with their next move: the threats to a king
/// standing there.
#[inline]
#[allow(clippy::needless_range_loop)] // heights index two tables in step
pub fn attackers(position: &Position, side: Side, square: Square) -> Bitboard {
    let size = position.size();
    let table = &ORIGINS[usize::from(size == BoardSize::Nine)];
    let own = position.stacks(side);
    let mut found = Bitboard::EMPTY;
    // A stack as tall as the board can only bear off.
    for height in 1..size.n() {
        found |= table[height][square.index()] & position.stacks_of_height(side, height);
    }
    found & own
}

/// Whether any stack of `side` could land on `square` next move.
#[inline]
pub fn attacked(position: &Position, side: Side, square: Square) -> bool {
    attackers(position, side, square).any()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The attackers found by walking each stack's eight landings square by square.
    fn walked(position: &Position, side: Side, square: Square) -> Bitboard {
        let n = position.size().n() as i32;
        let mut found = Bitboard::EMPTY;
        for from in position.stacks(side) {
            let h = position.height(from) as i32;
            for (dx, dy) in DIRECTIONS {
                let (f, r) = (from.file() as i32 + dx * h, from.rank() as i32 + dy * h);
                if (0..n).contains(&f)
                    && (0..n).contains(&r)
                    && Square::new(f as usize, r as usize) == Some(square)
                {
                    found |= from.bit();
                }
            }
        }
        found
    }

    /// A `target-cpu=native` (AVX-512) build once answered `{}` here: see `.cargo/config.toml`.
    #[test]
    fn a_height_two_king_attacks_two_squares_north() {
        let lfen = "r1r1r1r1r1r1r1r1r1/9/r11r1r1r1r1r1r1r1/2R26/9/2B26/b1b1b11b1b1b1b1b1/9/b1b1b1b1b1b1b1b1b1 b";
        let position = Position::from_lfen(lfen).unwrap();
        let c6 = Square::parse("c6").unwrap();
        let c4 = Square::parse("c4").unwrap();
        assert_eq!(attackers(&position, Side::Blue, c6), c4.bit());
        assert_eq!(walked(&position, Side::Blue, c6), c4.bit());
    }

    #[test]
    fn agrees_with_walking_along_random_games() {
        // A fixed xorshift walk through 40 games a size: openings, middle games and endgames.
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        for size in [BoardSize::Eight, BoardSize::Nine] {
            for _game in 0..40 {
                let mut position = Position::start(size);
                for _ply in 0..200 {
                    if position.is_game_over() {
                        break;
                    }
                    for square in size.geometry().board {
                        for side in Side::BOTH {
                            assert_eq!(
                                attackers(&position, side, square),
                                walked(&position, side, square),
                                "{} {square}",
                                position.to_lfen()
                            );
                        }
                    }
                    let moves = position.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    position = position.play(moves[(state % moves.len() as u64) as usize]);
                }
            }
        }
    }
}
