//! Invariants checked on every position of thousands of seeded random games of both sizes: the
//! incremental key, internal consistency, the crown invariant, LFEN round trips, copy-make,
//! move counting and generation by kind, move notation in both directions, and how each game
//! ended.

use std::collections::HashSet;

use lielow_rules::movegen::{self, Kind, MoveList};
use lielow_rules::{BoardSize, GameEnd, Move, Outcome, Position, Side, Square};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

const SIZES: [BoardSize; 2] = [BoardSize::Eight, BoardSize::Nine];

/// Every position of one random game from the start position, the final one included.
fn random_game(size: BoardSize, rng: &mut StdRng) -> Vec<Position> {
    let mut position = Position::start(size);
    let mut positions = vec![position];
    loop {
        let moves = position.legal_moves();
        if moves.is_empty() {
            return positions;
        }
        position = position.play(moves[rng.gen_range(0..moves.len())]);
        positions.push(position);
    }
}

/// `count` games of each size, every position of each game.
fn random_games(seed: u64, count: usize) -> Vec<Vec<Position>> {
    let mut rng = StdRng::seed_from_u64(seed);
    (0..count)
        .flat_map(|_| SIZES)
        .map(|size| random_game(size, &mut rng))
        .collect()
}

#[test]
fn every_position_of_random_games_is_consistent() {
    let games = random_games(1, 1500);
    let mut positions = 0;
    let mut kings_on_short_stacks = 0;
    for game in &games {
        let last = game.len() - 1;
        for (ply, position) in game.iter().enumerate() {
            positions += 1;
            assert_eq!(
                position.key(),
                position.compute_key(),
                "incremental key at ply {ply} of {position}"
            );
            if let Err(why) = position.validate() {
                panic!("ply {ply}, {position}: {why}");
            }
            if ply < last {
                assert!(!position.is_game_over(), "over before its end: {position}");
                // The crown invariant of a game in progress.
                for side in Side::BOTH {
                    if let Some(tallest) = position.uniquely_tallest(side) {
                        assert_eq!(position.king(side), Some(tallest), "{side} in {position}");
                    } else if let Some(king) = position.king(side) {
                        kings_on_short_stacks += usize::from(
                            position.stacks(side).count() > 1 && position.height(king) == 1,
                        );
                    }
                }
                let text = position.to_lfen();
                let back = Position::from_lfen(&text)
                    .unwrap_or_else(|error| panic!("{text} does not read back: {error}"));
                assert_eq!(back, *position, "LFEN round trip of {text}");
                assert_eq!(back.key(), position.key(), "key after reading back {text}");
                assert_eq!(back.to_lfen(), text);
            } else {
                assert!(position.is_game_over(), "the last position ends the game");
                assert!(position.winner().is_some());
                assert_eq!(movegen::count(position), 0);
                assert!(position.legal_moves().is_empty());
                // The side whose king fell (captured, or borne off by its own move) has no
                // crown; a game from the start never leaves a side without stacks first.
                let winner = position.winner().expect("a winner");
                assert_eq!(position.king(winner.opponent()), None, "{position}");
            }
        }
    }
    assert!(positions > 50_000, "only {positions} positions");
    // The games reach the interesting crown case (a king kept on a short stack).
    assert!(kings_on_short_stacks > 0);
}

#[test]
fn the_outcome_is_the_ending_the_last_move_made() {
    let mut seen = HashSet::new();
    for game in random_games(3, 300) {
        let (last, before) = game.split_last().expect("the start");
        for position in before {
            assert_eq!(position.outcome(), None, "{position}");
        }
        let previous = before.last().expect("no game is over at the start");
        let mover = previous.side_to_move();
        let played = previous
            .legal_moves()
            .into_iter()
            .find(|&mv| previous.play(mv) == *last)
            .expect("the last move");
        // The ending told from the move itself, as a referee who watched it would.
        let (winner, end) = if played.is_capture() && played.to() == previous.king(mover.opponent())
        {
            (mover, GameEnd::KingCaptured)
        } else if played.is_bear_off() && previous.king(mover) == Some(played.from()) {
            (mover.opponent(), GameEnd::KingBorneOff)
        } else {
            (mover, GameEnd::NoMoves)
        };
        let outcome = last.outcome().expect("the last position is over");
        assert_eq!(outcome, Outcome { winner, end }, "{played} in {previous}");
        assert_eq!(Some(outcome.winner), last.winner());
        seen.insert(end);
    }
    // Games from the start end by both king endings (no side there ever lacks a king).
    assert!(seen.contains(&GameEnd::KingCaptured) && seen.contains(&GameEnd::KingBorneOff));
}

#[test]
fn copy_make_leaves_the_parent_intact() {
    for game in random_games(2, 100) {
        for position in game {
            let saved = position;
            let lfen = position.to_lfen();
            for mv in position.legal_moves() {
                let child = position.play(mv);
                assert_ne!(child.side_to_move(), position.side_to_move());
                assert_ne!(child.key(), position.key(), "{mv} in {lfen}");
                assert_eq!(position, saved, "{mv} changed its parent {lfen}");
                let mut in_place = position;
                in_place.play_in_place(mv);
                assert_eq!(
                    in_place, child,
                    "play_in_place and play differ: {mv} in {lfen}"
                );
            }
            assert_eq!(position.to_lfen(), lfen);
            assert_eq!(position.key(), saved.key());
        }
    }
}

fn generated(position: &Position, kind: Kind) -> MoveList {
    let mut list = MoveList::new();
    movegen::generate_kind(position, kind, &mut list);
    list
}

#[test]
fn counting_and_generation_by_kind_agree() {
    for game in random_games(3, 500) {
        for position in game {
            let all = position.legal_moves();
            assert_eq!(movegen::count(&position), all.len() as u64, "{position}");
            let mut list = MoveList::new();
            movegen::generate(&position, &mut list);
            assert_eq!(list, all);
            assert_eq!(generated(&position, Kind::All), all);

            let captures = generated(&position, Kind::Captures);
            let quiets = generated(&position, Kind::Quiets);
            assert!(captures.iter().all(|m| m.is_capture()), "{position}");
            assert!(quiets.iter().all(|m| !m.is_capture()), "{position}");
            assert_eq!(captures.len() + quiets.len(), all.len(), "{position}");
            let all_set: HashSet<Move> = all.iter().copied().collect();
            assert_eq!(all_set.len(), all.len(), "duplicate moves in {position}");
            let split: HashSet<Move> = captures.iter().chain(&quiets).copied().collect();
            assert_eq!(split, all_set, "{position}");

            let us = position.side_to_move();
            let mut bear_offs = HashSet::new();
            for mv in &all {
                assert_eq!(position.stack(mv.from()).map(|(s, _)| s), Some(us));
                assert_eq!(Move::from_bits(mv.to_bits()), Some(*mv));
                match mv.to() {
                    None => {
                        assert!(mv.is_bear_off());
                        assert!(
                            bear_offs.insert(mv.from()),
                            "two bear-offs of {}",
                            mv.from()
                        );
                    }
                    Some(to) => {
                        assert!(!mv.is_bear_off());
                        let landing = position.stack(to).map(|(s, _)| s);
                        assert_eq!(mv.is_capture(), landing == Some(us.opponent()), "{mv}");
                        assert_ne!(landing, Some(us), "{mv} lands on a friendly stack");
                    }
                }
            }
        }
    }
}

#[test]
fn generated_moves_play_and_parse() {
    for game in random_games(4, 150) {
        for position in game {
            for mv in position.legal_moves() {
                let text = mv.to_string();
                assert_eq!(position.parse_move(&text), Ok(mv), "{text} in {position}");
                assert_eq!(position.try_play(mv), Ok(position.play(mv)), "{text}");
            }
        }
    }
}

/// Every text `parse_move` could be handed in a position: each origin square of the 9x9
/// layout, each landing square or `off`, with both separators.
fn every_move_text() -> Vec<String> {
    let squares: Vec<String> = (0..81)
        .map(|i| Square::from_index(i).expect("a square").to_string())
        .collect();
    let mut texts = Vec::new();
    for from in &squares {
        texts.push(format!("{from}-off"));
        texts.push(format!("{from}xoff"));
        for to in &squares {
            texts.push(format!("{from}-{to}"));
            texts.push(format!("{from}x{to}"));
        }
    }
    texts
}

#[test]
fn parse_move_accepts_exactly_the_legal_moves() {
    let texts = every_move_text();
    let mut rng = StdRng::seed_from_u64(5);
    let mut checked = 0;
    for size in SIZES {
        for _ in 0..12 {
            let game = random_game(size, &mut rng);
            // The start, a few positions along the game, and the final position.
            let picks = [
                0,
                game.len() / 3,
                game.len() / 2,
                2 * game.len() / 3,
                game.len() - 1,
            ];
            for &ply in &picks {
                let position = game[ply];
                let legal: HashSet<String> = position
                    .legal_moves()
                    .iter()
                    .map(|m| m.to_string())
                    .collect();
                for text in &texts {
                    match position.parse_move(text) {
                        Ok(mv) => {
                            assert!(legal.contains(text), "{text} accepted in {position}");
                            assert_eq!(mv.to_string(), *text);
                        }
                        Err(error) => {
                            assert!(
                                !legal.contains(text),
                                "{text} rejected in {position}: {error}"
                            );
                            assert!(!error.to_string().is_empty());
                        }
                    }
                    checked += 1;
                }
                if position.is_game_over() {
                    assert!(legal.is_empty());
                }
            }
        }
    }
    assert!(checked > 1_000_000);
    // Texts that are not moves at all.
    let start = Position::start(BoardSize::Eight);
    for bad in [
        "", "a2", "a2-", "a2-a3 ", " a2-a3", "A2-A3", "a2–a3", "a2-a33", "j2-a3", "a2a3",
    ] {
        assert!(start.parse_move(bad).is_err(), "'{bad}' accepted");
    }
}

/// `key_after` names the child's key without playing the move: always for a move to an empty
/// square, and for captures and bear-offs whenever no crown jumped to another stack than the
/// moving one. The moves where it may differ are counted, so the test also shows they are few.
#[test]
fn the_key_after_a_move_is_the_childs_key() {
    let (mut moves, mut crown_jumps) = (0, 0);
    for game in random_games(7, 300) {
        for position in &game[..game.len() - 1] {
            for mv in position.legal_moves() {
                moves += 1;
                let child = position.play(mv);
                let quiet = mv.to().is_some() && !mv.is_capture();
                let us = position.side_to_move();
                let carried = |side: Side| {
                    let crown = position.king(side);
                    if side == us && crown == Some(mv.from()) {
                        mv.to()
                    } else {
                        crown
                    }
                };
                let crowns_stayed = Side::BOTH
                    .iter()
                    .all(|&side| child.king(side) == carried(side));
                if quiet || crowns_stayed {
                    assert_eq!(position.key_after(mv), child.key(), "{mv} from {position}");
                } else {
                    crown_jumps += 1;
                }
            }
        }
    }
    assert!(
        crown_jumps * 20 < moves,
        "{crown_jumps} of {moves} moves moved a crown"
    );
}
