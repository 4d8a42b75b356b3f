//! The update paths against a refresh: the move's own delta against the comparison of every
//! stack, and the lazy stack of the search, evaluated at random plies, against a refresh of
//! every position, on random games of both sizes, with the shipped network and random ones;
//! the evaluation against a recomputation from the weights; and files of every version and
//! narrower widths through writing and reading, every damaged byte of a version 4 file
//! refused.
//! (The kernels against their reference are in `rows`; a build for another target runs these
//! same tests on its own vectors: see the module docs.)

use super::file::tests::{older, resealed};
use super::{
    Accumulator, AccumulatorStack, Delta, NetError, Network, HIDDEN, INPUTS, QA, QB, VERSION,
};
use crate::score::Score;
use lielow_rules::board::{BoardSize, Side};
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

/// A network of random weights: `spread` is the largest weight, so a large one makes the sums
/// wrap around `i16`, which every path must do the same way.
fn random_network(seed: u64, spread: i16) -> Network {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut weight = || rng.gen_range(-spread..=spread);
    let input_weights = (0..INPUTS)
        .map(|_| std::array::from_fn(|_| weight()))
        .collect();
    let hidden_bias = std::array::from_fn(|_| weight());
    let output_weights = std::array::from_fn(|_| std::array::from_fn(|_| weight()));
    let output_bias = [7, -5];
    Network::from_parts(
        input_weights,
        hidden_bias,
        output_weights,
        output_bias,
        100,
        "random".into(),
    )
}

fn networks() -> Vec<Network> {
    vec![
        (*Network::embedded()).clone(),
        random_network(1, 40),
        random_network(2, i16::MAX),
        random_network(3, 40),
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

/// The evaluation computed from the weights alone, in `i32` (no wrapping: the weights must be
/// small), with every input worked out from its documented index, none of the engine's paths
/// shared.
fn recomputed(net: &Network, position: &Position) -> i32 {
    let size = position.size();
    let n = size.n();
    let nine = usize::from(size == BoardSize::Nine);
    let layer = nine;
    let mover = position.side_to_move();
    let mut sum = net.output_bias[layer];
    for (half, viewer) in [mover, mover.opponent()].into_iter().enumerate() {
        for unit in 0..HIDDEN {
            let mut h = i32::from(net.hidden_bias[unit]);
            for square in position.all_stacks() {
                let (owner, height) = position.stack(square).unwrap();
                let crowned = position.king(owner) == Some(square);
                let rank = if viewer == Side::Blue {
                    square.rank()
                } else {
                    n - 1 - square.rank()
                };
                let theirs = usize::from(owner != viewer);
                let input = (((nine * 2 + theirs) * 2 + usize::from(crowned)) * 9 + height - 1)
                    * 81
                    + rank * 9
                    + square.file();
                h += i32::from(net.input_weights[input][unit]);
            }
            let weight = i32::from(net.output_weights[layer][half * HIDDEN + unit]);
            sum += h.clamp(0, QA) * weight;
        }
    }
    let bound = i64::from(Score::MATE_BOUND - 1);
    (i64::from(sum) * i64::from(net.scale) / i64::from(QA * QB)).clamp(-bound, bound) as i32
}

#[test]
fn the_evaluation_equals_a_recomputation_from_the_weights() {
    let mut rng = StdRng::seed_from_u64(34);
    for seed in [11, 13] {
        let net = random_network(seed, 40);
        for size in [BoardSize::Eight, BoardSize::Nine] {
            for _ in 0..3 {
                for (_, position) in random_game(size, &mut rng) {
                    assert_eq!(
                        net.evaluate_position(&position),
                        recomputed(&net, &position),
                        "network {seed}: {position}"
                    );
                }
            }
        }
    }
    let shipped = Network::embedded();
    for (_, position) in random_game(BoardSize::Nine, &mut rng) {
        assert_eq!(
            shipped.evaluate_position(&position),
            recomputed(&shipped, &position),
            "{position}"
        );
    }
}

/// Evaluations of the positions of a few random games, the same for two networks.
fn assert_same_play(a: &Network, b: &Network) {
    let mut rng = StdRng::seed_from_u64(35);
    for size in [BoardSize::Eight, BoardSize::Nine] {
        for (_, position) in random_game(size, &mut rng) {
            assert_eq!(
                a.evaluate_position(&position),
                b.evaluate_position(&position),
                "{position}"
            );
        }
    }
}

#[test]
fn a_network_round_trips_as_version_4_and_old_versions_still_read() {
    let net = random_network(6, 200);
    let bytes = net.to_bytes();
    assert_eq!(u16::from_le_bytes([bytes[8], bytes[9]]), VERSION, "version");
    let read = Network::from_bytes(&bytes).unwrap();
    assert_eq!(read.to_bytes(), bytes);
    assert!(read.checked());
    assert_same_play(&read, &net);
    // The same network in the files of before: read (checked where they carry a checksum),
    // the same play, and written back as version 4.
    for old_version in [1, 2, 3] {
        let old = Network::from_bytes(&older(&bytes, old_version)).unwrap();
        assert_eq!(old.file_version(), old_version);
        assert_eq!(old.checked(), old_version == 3, "version {old_version}");
        assert_same_play(&old, &net);
        assert_eq!(old.to_bytes(), bytes);
    }
}

/// CRC-32 sees every error within 32 consecutive bits, so every change to one byte: the
/// magic and the version are checked before it (a version that names another known one is
/// refused too, below), every later byte is covered by it, the checksum itself included. Each
/// byte of a narrow network's file is flipped by four patterns (one bit, the top bit, all
/// bits, and a value that differs from byte to byte, so that every pattern is tried
/// somewhere), every cut and every extra byte is refused; the shipped file's header,
/// description, ends and every 997th weight byte too.
#[test]
fn every_damaged_byte_of_a_version_4_file_is_refused() {
    let mut net = random_network(9, 300);
    net.width = 1;
    let shipped = Network::embedded().to_bytes();
    for bytes in [net.to_bytes(), shipped] {
        let description = u32::from_le_bytes(bytes[20..24].try_into().unwrap()) as usize;
        let weights_at = 24 + description;
        let positions: Vec<usize> = if bytes.len() < 100_000 {
            (0..bytes.len()).collect()
        } else {
            (0..weights_at + 500)
                .chain((weights_at + 500..bytes.len() - 500).step_by(997))
                .chain(bytes.len() - 500..bytes.len())
                .collect()
        };
        for &at in &positions {
            for pattern in [0x01, 0x80, 0xff, (at % 255 + 1) as u8] {
                let mut damaged = bytes.clone();
                damaged[at] ^= pattern;
                let error = Network::from_bytes(&damaged).err();
                match at {
                    0..=7 => assert_eq!(error, Some(NetError::Magic), "byte {at}"),
                    8..=9 => assert!(
                        matches!(error, Some(NetError::Version(_))),
                        "byte {at} ^ {pattern:#x}: {error:?}"
                    ),
                    _ => assert_eq!(error, Some(NetError::Checksum), "byte {at} ^ {pattern:#x}"),
                }
            }
        }
        if bytes.len() < 100_000 {
            for cut in 0..bytes.len() {
                let error = Network::from_bytes(&bytes[..cut]).err();
                let expected = if cut < 24 {
                    NetError::Magic
                } else {
                    NetError::Checksum
                };
                assert_eq!(error, Some(expected), "cut at {cut}");
            }
            for extra in 0..=u8::MAX {
                let mut longer = bytes.clone();
                longer.push(extra);
                assert_eq!(Network::from_bytes(&longer).err(), Some(NetError::Checksum));
            }
        }
        // Relabelled as an older version: a checksum that no longer matches (version 3), or
        // checksum bytes where none belong (1), or weights where a bucket count belongs (2).
        for version in [1u16, 2, 3] {
            let mut relabelled = bytes.clone();
            relabelled[8..10].copy_from_slice(&version.to_le_bytes());
            let error = Network::from_bytes(&relabelled).err();
            assert!(error.is_some(), "version {version}");
        }
    }
}

/// Versions 2 and 3 are read when they hold one output bucket: a file of several (networks
/// no longer made), or whose table names a bucket but the first, is refused with the reason,
/// under a matching checksum too; cut short, a version 2 file is found by its length.
#[test]
fn old_files_of_several_buckets_or_cut_short_are_refused() {
    let net = random_network(7, 200);
    let count_at = 24 + net.description().len();
    for version in [2, 3] {
        let bytes = older(&net.to_bytes(), version);
        let changed = |at: usize, value: u8| {
            let mut bytes = bytes.clone();
            bytes[at] = value;
            let bytes = if version == 3 { resealed(bytes) } else { bytes };
            Network::from_bytes(&bytes).err()
        };
        for count in [0, 4, 255] {
            let error = changed(count_at, count).expect("refused");
            assert_eq!(error, NetError::Buckets(count.into()), "{count}");
        }
        assert_eq!(
            NetError::Buckets(4).to_string(),
            "a network of 4 output buckets; this program reads one output layer per board size"
        );
        let error = changed(count_at + 2 + 10, 3).expect("refused");
        assert_eq!(
            error.to_string(),
            "the network's bucket table names output buckets it does not have"
        );
    }
    // Cut anywhere: in the count, in the table, in the weights, or by a byte at the end.
    let bytes = older(&net.to_bytes(), 2);
    for cut in [
        count_at + 1,
        count_at + 50,
        bytes.len() / 2,
        bytes.len() - 1,
    ] {
        let error = Network::from_bytes(&bytes[..cut]).err().expect("refused");
        assert!(
            matches!(error, NetError::Length { .. }),
            "cut at {cut}: {error:?}"
        );
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(matches!(
        Network::from_bytes(&longer),
        Err(NetError::Length { .. })
    ));
}

/// A file of fewer hidden units reads as this program's width with the rest silent: the same
/// evaluations, and the same bytes written back.
#[test]
fn a_narrower_network_file_plays_the_same_and_writes_back_narrow() {
    const NARROW: usize = 16;
    let mut net = random_network(8, 300);
    for row in net.input_weights.iter_mut() {
        row[NARROW..].fill(0);
    }
    net.hidden_bias[NARROW..].fill(0);
    for layer in net.output_weights.iter_mut() {
        layer[NARROW..HIDDEN].fill(0);
        layer[HIDDEN + NARROW..].fill(0);
    }
    let wide = net.clone();
    net.width = NARROW;
    let bytes = net.to_bytes();
    assert_eq!(
        usize::from(u16::from_le_bytes([bytes[10], bytes[11]])),
        NARROW
    );
    assert!(bytes.len() < wide.to_bytes().len() / 4);
    let read = Network::from_bytes(&bytes).unwrap();
    assert_eq!(read.to_bytes(), bytes);
    assert_same_play(&read, &wide);
}
