//! The update paths against a refresh: the move's own delta against the comparison of every
//! stack, and the lazy stack of the search, evaluated at random plies, against a refresh of
//! every position, on random games of both sizes, with the shipped network and random ones.
//! (The kernels against their reference are in `rows`; a build for another target runs these
//! same tests on its own vectors: see the module docs.)

use super::{Accumulator, AccumulatorStack, Delta, Network, INPUTS};
use lielow_rules::board::BoardSize;
use lielow_rules::moves::Move;
use lielow_rules::position::Position;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

/// Each position of a random game with the move that led to it (`None` for the start).
fn random_game(size: BoardSize, rng: &mut StdRng) -> Vec<(Option<Move>, Position)> {
    let mut position = Position::start(size);
    let mut line = vec![(None, position)];
    while !position.is_game_over() && line.len() < 300 {
        let moves = position.legal_moves();
        let mv = *moves.as_slice().choose(rng).expect("a live game has moves");
        position = position.play(mv);
        line.push((Some(mv), position));
    }
    line
}

/// A network of random weights: `spread` is the largest weight, so a large one makes the
/// sums wrap around `i16`, which every path must do the same way.
fn random_network(seed: u64, spread: i16) -> Network {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut weight = || rng.gen_range(-spread..=spread);
    let input_weights = (0..INPUTS)
        .map(|_| std::array::from_fn(|_| weight()))
        .collect();
    let hidden_bias = std::array::from_fn(|_| weight());
    let output_weights = std::array::from_fn(|_| std::array::from_fn(|_| weight()));
    Network::from_parts(
        input_weights,
        hidden_bias,
        output_weights,
        [7, -3],
        100,
        "random".into(),
    )
}

fn networks() -> Vec<Network> {
    vec![
        (*Network::embedded()).clone(),
        random_network(1, 40),
        random_network(2, i16::MAX),
    ]
}

fn sorted(mut inputs: Vec<[u16; 2]>) -> Vec<[u16; 2]> {
    inputs.sort_unstable();
    inputs
}

#[test]
fn the_delta_of_a_move_equals_the_comparison_of_every_stack() {
    let mut rng = StdRng::seed_from_u64(31);
    for size in [BoardSize::Eight, BoardSize::Nine] {
        for _ in 0..60 {
            let line = random_game(size, &mut rng);
            for pair in line.windows(2) {
                let (parent, (mv, child)) = (&pair[0].1, (pair[1].0.unwrap(), &pair[1].1));
                let fast = Delta::of_move(parent, mv, child);
                let slow = Delta::between(parent, child);
                assert_eq!(
                    sorted(fast.removed().to_vec()),
                    sorted(slow.removed().to_vec()),
                    "removed by {mv} from {parent}"
                );
                assert_eq!(
                    sorted(fast.added().to_vec()),
                    sorted(slow.added().to_vec()),
                    "added by {mv} from {parent}"
                );
            }
        }
    }
}

#[test]
fn updating_by_the_move_equals_a_refresh_after_every_move() {
    let mut rng = StdRng::seed_from_u64(32);
    for net in networks() {
        for size in [BoardSize::Eight, BoardSize::Nine] {
            for _ in 0..15 {
                let line = random_game(size, &mut rng);
                let mut accumulator = Accumulator::refresh(&net, &line[0].1);
                for pair in line.windows(2) {
                    let (parent, (mv, child)) = (&pair[0].1, (pair[1].0.unwrap(), &pair[1].1));
                    let mut next = Accumulator::default();
                    next.apply(&accumulator, &net, &Delta::of_move(parent, mv, child));
                    assert_eq!(
                        next,
                        Accumulator::refresh(&net, child),
                        "after {mv}: {child}"
                    );
                    let mut compared = Accumulator::default();
                    compared.update_from(&accumulator, &net, parent, child);
                    assert_eq!(compared, next, "after {mv}: {child}");
                    accumulator = next;
                }
            }
        }
    }
}

/// The search's use of the stack: along a line, with null moves mixed in, evaluating only
/// some plies (so that several deltas wait to be applied at once), and a refresh part way
/// down as a helper thread makes at a split point.
#[test]
fn the_lazy_stack_evaluates_every_ply_as_a_refresh_does() {
    let mut rng = StdRng::seed_from_u64(33);
    for net in networks() {
        for size in [BoardSize::Eight, BoardSize::Nine] {
            for _ in 0..15 {
                let line = random_game(size, &mut rng);
                let mut stack = AccumulatorStack::new(3 * line.len() + 1);
                let mut position = line[0].1;
                stack.refresh(&net, &position, 0);
                let mut ply = 0;
                let mut evaluated = 0;
                for (mv, child) in &line[1..] {
                    if rng.gen_bool(0.2) {
                        // Two null moves, so that the game's next move is the mover's again.
                        for _ in 0..2 {
                            position = position.pass();
                            stack.pass(&position, ply);
                            ply += 1;
                        }
                    }
                    stack.play(mv.unwrap(), child, ply);
                    position = *child;
                    ply += 1;
                    if rng.gen_bool(0.05) {
                        stack.refresh(&net, &position, ply);
                    }
                    if rng.gen_bool(0.3) {
                        assert_eq!(
                            stack.evaluate(&net, &position, ply),
                            net.evaluate_position(&position),
                            "{position}"
                        );
                        assert_eq!(*stack.get(&net, ply), Accumulator::refresh(&net, &position));
                        evaluated += 1;
                    }
                }
                assert_eq!(*stack.get(&net, ply), Accumulator::refresh(&net, &position));
                assert!(evaluated > 0 || line.len() < 10);
            }
        }
    }
}

/// A line searched again from a shallower ply (the search backs up and tries another move)
/// must not reuse the sums computed for the old line below it.
#[test]
fn a_new_line_from_a_shallower_ply_forgets_the_old_one() {
    let net = random_network(4, 60);
    let start = Position::start(BoardSize::Eight);
    let moves = start.legal_moves();
    let mut stack = AccumulatorStack::new(4);
    stack.refresh(&net, &start, 0);
    for &mv in moves.as_slice() {
        let child = start.play(mv);
        stack.play(mv, &child, 0);
        let reply = child.legal_moves().as_slice()[0];
        let grandchild = child.play(reply);
        stack.play(reply, &grandchild, 1);
        assert_eq!(
            stack.evaluate(&net, &grandchild, 2),
            net.evaluate_position(&grandchild),
            "{mv} {reply}"
        );
    }
}
