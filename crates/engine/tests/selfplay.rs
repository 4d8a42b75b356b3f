//! Hundreds of fast self-play games through the library's search, on both board sizes and with
//! several threads racing on the transposition table: every move the engine chooses must be
//! legal, every game must end, and it must end with the result the rules give.

use std::sync::atomic::AtomicBool;

use lielow_engine::limits::Limits;
use lielow_engine::search::Searcher;
use lielow_rules::{BoardSize, Move, Position, Side};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

/// Plies after which a game would be a bug: every move either raises the mover's total height
/// (bounded by N per stack) or removes a stack, so real games are far shorter.
const MAX_PLIES: usize = 2_000;

/// Why the last move ended the game, read from the position before it.
fn expected_winner(before: &Position, last: Move) -> Side {
    let mover = before.side_to_move();
    if last.to().is_some() && last.to() == before.king(mover.opponent()) {
        mover // the enemy king was captured
    } else if last.is_bear_off() && Some(last.from()) == before.king(mover) {
        mover.opponent() // the mover bore off its own king
    } else {
        // Otherwise the opponent was left without a move, which needs it to have no stack.
        assert!(before.play(last).stacks(mover.opponent()).is_empty());
        mover
    }
}

/// Plays one game from a random opening of `opening_plies` plies, both sides the same searcher.
fn play_game(searcher: &mut Searcher, size: BoardSize, rng: &mut StdRng, opening_plies: usize) {
    let mut position = Position::start(size);
    for _ in 0..opening_plies {
        let moves = position.legal_moves();
        let Some(&mv) = moves.choose(rng) else { break };
        if position.play(mv).is_game_over() {
            break;
        }
        position = position.play(mv);
    }
    let stop = AtomicBool::new(false);
    let limits = Limits {
        nodes: Some(1_500),
        ..Limits::default()
    };
    let mut plies = 0;
    while !position.is_game_over() {
        assert!(plies < MAX_PLIES, "game from {position} does not end");
        let result = searcher.search(&position, &limits, &stop, &mut |_| {});
        let mv = result.best_move.expect("a position in play has a move");
        let next = position
            .try_play(mv)
            .unwrap_or_else(|e| panic!("illegal engine move in {position}: {e}"));
        if next.is_game_over() {
            assert_eq!(
                next.winner(),
                Some(expected_winner(&position, mv)),
                "{position} {mv}"
            );
            // The winner never bears off its own king while another move existed.
            assert!(
                !(mv.is_bear_off() && Some(mv.from()) == position.king(position.side_to_move()))
                    || position.legal_moves().len() == 1
            );
        }
        position = next;
        plies += 1;
    }
    let over = searcher.search(&position, &limits, &stop, &mut |_| {});
    assert_eq!(over.best_move, None, "a finished game has no best move");
}

#[test]
fn hundreds_of_games_with_several_threads_end_legally_with_the_rules_result() {
    let mut rng = StdRng::seed_from_u64(0x5e1f_91a7);
    for (size, threads) in [(BoardSize::Eight, 2), (BoardSize::Nine, 3)] {
        let mut searcher = Searcher::new();
        searcher.set_threads(threads).unwrap();
        // Every helper runs, even on a machine with fewer cores.
        searcher.set_helper_limit(8);
        searcher.set_hash_mb(4).unwrap();
        for game in 0..100 {
            if game % 10 == 0 {
                searcher.new_game();
            }
            play_game(&mut searcher, size, &mut rng, 2 + game % 7);
        }
    }
}
