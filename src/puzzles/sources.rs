//! Where `lielow puzzles` looks: games, either read from files (through
//! [`crate::games::read_games`], any format it reads) or played by the engine itself, and in
//! each game the positions worth proving.
//!
//! A game's candidates are the positions of its winner's turns in its last 2 · max N plies:
//! a forced win in N moves lasts at most 2N plies, so a position farther from the end would
//! need the loser to have gone wrong after it (possible, and left out: the proofs there would
//! mostly end in "no win", at their most expensive). A game without a winner gives none.

use std::sync::atomic::AtomicBool;

use rand::rngs::StdRng;
use rand::SeedableRng;

use lielow_engine::limits::Limits;
use lielow_engine::search::Searcher;
use lielow_rules::board::BoardSize;
use lielow_rules::position::Position;

use crate::games::LoadedGame;
use crate::openings::random_opening;

/// Self-play games end here if nobody has won (no game comes near it).
const MAX_GAME_PLIES: usize = 600;

/// A game to look in: the positions from its start, one before each move, and the last.
#[derive(Clone, Debug)]
pub struct Game {
    /// Every position of the game in order, the final one included.
    pub positions: Vec<Position>,
    /// Where it came from, for the puzzles' source (`self-play seed 1 game 3`).
    pub name: String,
}

/// A position to prove and where it came from.
#[derive(Clone, Debug)]
pub struct Candidate {
    /// The position, its side to move the game's winner.
    pub position: Position,
    /// `<game name> ply <P>`: P moves were played from the game's start to reach it.
    pub source: String,
}

impl Game {
    /// A game read from a file, named `<file> game <G>`.
    pub fn loaded(game: &LoadedGame, file: &str, number: usize) -> Game {
        let mut positions = Vec::with_capacity(game.moves.len() + 1);
        let mut position = game.start;
        positions.push(position);
        for &mv in &game.moves {
            position = position.play(mv);
            positions.push(position);
        }
        Game {
            positions,
            name: format!("{file} game {number}"),
        }
    }

    /// The positions worth proving (the module doc says which), in the game's order.
    pub fn candidates(&self, max_moves: u32) -> Vec<Candidate> {
        let Some(last) = self.positions.last() else {
            return Vec::new();
        };
        let Some(winner) = last.winner() else {
            return Vec::new();
        };
        let end = self.positions.len() - 1;
        let first = end.saturating_sub(2 * max_moves as usize);
        (first..end)
            .filter(|&ply| self.positions[ply].side_to_move() == winner)
            .map(|ply| Candidate {
                position: self.positions[ply],
                source: format!("{} ply {ply}", self.name),
            })
            .collect()
    }
}

/// How the engine plays its own games.
#[derive(Clone, Copy, Debug)]
pub struct SelfPlay {
    /// The board.
    pub size: BoardSize,
    /// Uniformly random plies from the start before the engine plays.
    pub random_plies: usize,
    /// Nodes per move of the engine's search (one thread: the game is the same every time).
    pub nodes: u64,
    /// The run's seed: game G's random plies come from it and G alone.
    pub seed: u64,
}

impl SelfPlay {
    /// Plays game `number` with `searcher` (emptied first): the same game for the same
    /// settings and number, whatever else ran before.
    pub fn play(&self, number: u64, searcher: &mut Searcher) -> Game {
        let mut rng = StdRng::seed_from_u64(
            self.seed
                .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                .wrapping_add(number),
        );
        let opening = (0..1000)
            .find_map(|_| random_opening(self.size, self.random_plies, &mut rng))
            .unwrap_or_else(|| random_opening(self.size, 0, &mut rng).expect("the start"));
        let mut positions = vec![opening.start];
        let mut position = opening.start;
        for &mv in &opening.moves {
            position = position.play(mv);
            positions.push(position);
        }
        searcher.new_game();
        let limits = Limits {
            nodes: Some(self.nodes),
            ..Limits::default()
        };
        let stop = AtomicBool::new(false);
        while !position.is_game_over() && positions.len() <= MAX_GAME_PLIES {
            let result = searcher.search(&position, &limits, &stop, &mut |_| {});
            let Some(best) = result.best_move else { break };
            position = position.play(best);
            positions.push(position);
        }
        Game {
            positions,
            name: format!("self-play seed {} game {number}", self.seed),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn self_play_repeats_and_its_candidates_are_the_winners_last_turns() {
        let play = SelfPlay {
            size: BoardSize::Eight,
            random_plies: 8,
            nodes: 300,
            seed: 5,
        };
        let mut searcher = Searcher::new();
        let game = play.play(2, &mut searcher);
        assert_eq!(game.positions, play.play(2, &mut searcher).positions);
        assert_ne!(game.positions, play.play(3, &mut searcher).positions);
        let last = *game.positions.last().unwrap();
        let winner = last.winner().expect("self-play games end with a winner");
        let candidates = game.candidates(2);
        assert_eq!(candidates.len(), 2);
        for candidate in &candidates {
            assert_eq!(candidate.position.side_to_move(), winner);
            assert!(candidate.source.starts_with("self-play seed 5 game 2 ply "));
        }
        // The winner's last turn: the ply before the end, or the one before that when the
        // loser's own move ended the game (a king borne off).
        let end = game.positions.len() - 1;
        let winners_last_turn = if game.positions[end - 1].side_to_move() == winner {
            end - 1
        } else {
            end - 2
        };
        assert_eq!(
            candidates[1].source,
            format!("self-play seed 5 game 2 ply {winners_last_turn}")
        );
    }
}
