//! Crowded positions: middle games full of captures, the stress test of the quiescence search.
//!
//! Random games that avoid captures fill the board with stacks that face each other; sampled
//! between [`MIN_PLIES`] and [`MAX_PLIES`] plies, the positions with the most captures available
//! are the ones where a capture search explodes if nothing bounds it (before the quiescence
//! search was bounded, about 2% of such 9x9 positions could not finish `go depth 1` in minutes).
//! `lielow openings --crowded` prints them; `tests/data/crowded_*.lfen` keeps a fixed set, and
//! `crates/measure` (`--bin crowded-search`) measures the search over them.

use std::collections::HashSet;

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use lielow_rules::attacks;
use lielow_rules::board::BoardSize;
use lielow_rules::movegen::{self, Kind, MoveList};
use lielow_rules::position::Position;

/// The earliest ply a crowded position is taken at.
pub const MIN_PLIES: usize = 20;
/// The latest ply a crowded position is taken at.
pub const MAX_PLIES: usize = 70;
/// Candidates drawn per position kept: the kept ones are the candidates with the most captures.
const CANDIDATES_PER_POSITION: usize = 4;
/// Chance of playing a capture when a quiet move is also possible ("mostly avoid captures").
const CAPTURE_CHANCE: f64 = 0.05;

/// How many captures the side to move has.
pub fn captures_available(position: &Position) -> usize {
    let mut list = MoveList::new();
    movegen::generate_kind(position, Kind::Captures, &mut list);
    list.len()
}

/// Plays one random game that mostly avoids captures (and never bears off its own king unless
/// forced) up to a random ply in `MIN_PLIES..=MAX_PLIES`; `None` if it ended before or the side
/// to move can capture the enemy king.
fn candidate(size: BoardSize, rng: &mut StdRng) -> Option<Position> {
    let plies = rng.gen_range(MIN_PLIES..=MAX_PLIES);
    let mut position = Position::start(size);
    let mut quiets = MoveList::new();
    let mut captures = MoveList::new();
    for _ in 0..plies {
        quiets.clear();
        captures.clear();
        movegen::generate_kind(&position, Kind::Quiets, &mut quiets);
        movegen::generate_kind(&position, Kind::Captures, &mut captures);
        let own_king = position.king(position.side_to_move());
        quiets.retain(|mv| !(mv.is_bear_off() && Some(mv.from()) == own_king));
        let pool = if quiets.is_empty() || (!captures.is_empty() && rng.gen_bool(CAPTURE_CHANCE)) {
            &captures
        } else {
            &quiets
        };
        let &mv = pool.choose(rng)?;
        position = position.play(mv);
        if position.is_game_over() {
            return None;
        }
    }
    // A king the side to move can take makes the search trivial, not crowded.
    let us = position.side_to_move();
    let king_en_prise = position
        .king(us.opponent())
        .is_some_and(|king| attacks::attacked(&position, us, king));
    (!king_en_prise).then_some(position)
}

/// `count` distinct crowded positions of `size`, reproducible from `seed`, most captures first.
/// Fewer only if a generous number of tries finds no more.
pub fn crowded_positions(size: BoardSize, count: usize, seed: u64) -> Vec<Position> {
    let mut rng = StdRng::seed_from_u64(seed);
    let wanted = count * CANDIDATES_PER_POSITION;
    let mut seen = HashSet::new();
    let mut candidates = Vec::with_capacity(wanted);
    for _ in 0..wanted * 20 + 100 {
        if candidates.len() == wanted {
            break;
        }
        if let Some(position) = candidate(size, &mut rng) {
            if seen.insert(position.key()) {
                candidates.push((captures_available(&position), position));
            }
        }
    }
    // Stable: equal counts keep the order they were drawn in, so the output is reproducible.
    candidates.sort_by_key(|&(captures, _)| std::cmp::Reverse(captures));
    candidates
        .into_iter()
        .take(count)
        .map(|(_, position)| position)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crowded_positions_are_reproducible_playable_and_full_of_captures() {
        for size in [BoardSize::Eight, BoardSize::Nine] {
            let positions = crowded_positions(size, 20, 7);
            assert_eq!(positions.len(), 20);
            assert_eq!(positions, crowded_positions(size, 20, 7));
            let captures: Vec<usize> = positions.iter().map(captures_available).collect();
            assert!(captures.windows(2).all(|w| w[0] >= w[1]), "{captures:?}");
            assert!(captures[0] >= 3, "{captures:?}");
            for position in &positions {
                assert!(!position.is_game_over());
                assert_eq!(position.size(), size);
            }
        }
    }
}
