//! The update paths against a refresh: the move's own delta against the comparison of every
//! stack, and the lazy stack of the search, evaluated at random plies, against a refresh of
//! every position, on random games of both sizes, with the shipped network and random ones of
//! one and several output buckets; the evaluation against a recomputation from the weights;
//! and files of every version and narrower widths through writing and reading, every damaged
//! byte of a version 3 file refused.
//! (The kernels against their reference are in `rows`; a build for another target runs these
//! same tests on its own vectors: see the module docs.)

use super::file::tests::{resealed, unchecked};
use super::{
    Accumulator, AccumulatorStack, BucketError, Buckets, Delta, NetError, Network, HIDDEN, INPUTS,
    QA, QB, VERSION,
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

/// A network of random weights and `buckets` even output buckets: `spread` is the largest
/// weight, so a large one makes the sums wrap around `i16`, which every path must do the same
/// way.
fn random_network(seed: u64, spread: i16, buckets: usize) -> Network {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut weight = || rng.gen_range(-spread..=spread);
    let input_weights = (0..INPUTS)
        .map(|_| std::array::from_fn(|_| weight()))
        .collect();
    let hidden_bias = std::array::from_fn(|_| weight());
    let output_weights = (0..2 * buckets)
        .map(|_| std::array::from_fn(|_| weight()))
        .collect();
    let output_bias = (0..2 * buckets as i32).map(|i| 7 - 5 * i).collect();
    Network::from_parts(
        input_weights,
        hidden_bias,
        output_weights,
        output_bias,
        Buckets::even(buckets).unwrap(),
        100,
        "random".into(),
    )
}

fn networks() -> Vec<Network> {
    vec![
        (*Network::embedded()).clone(),
        random_network(1, 40, 1),
        random_network(2, i16::MAX, 1),
        random_network(3, 40, 4),
        random_network(4, i16::MAX, 16),
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
    let net = random_network(4, 60, 3);
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
/// small), with the bucket worked out from the documented formula and every input from its
/// documented index, none of the engine's paths shared.
fn recomputed(net: &Network, position: &Position) -> i32 {
    let size = position.size();
    let n = size.n();
    let buckets = net.buckets.count();
    let stacks = position.all_stacks().count() as usize;
    let start = match size {
        BoardSize::Eight => 16,
        BoardSize::Nine => 36,
    };
    let bucket = ((stacks.max(1) - 1) * buckets / start).min(buckets - 1);
    let nine = usize::from(size == BoardSize::Nine);
    let layer = nine * buckets + bucket;
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
fn the_evaluation_with_buckets_equals_a_recomputation_from_the_weights() {
    let mut rng = StdRng::seed_from_u64(34);
    for buckets in [1, 3, 16] {
        let net = random_network(10 + buckets as u64, 40, buckets);
        for size in [BoardSize::Eight, BoardSize::Nine] {
            let mut seen = vec![false; buckets];
            for _ in 0..6 {
                for (_, position) in random_game(size, &mut rng) {
                    assert_eq!(
                        net.evaluate_position(&position),
                        recomputed(&net, &position),
                        "{buckets} buckets: {position}"
                    );
                    seen[net.buckets.of_position(&position)] = true;
                }
            }
            // The games reach more than one stage, so a wrong layer would have shown.
            let stages = seen.iter().filter(|&&seen| seen).count();
            assert!(stages >= buckets.min(2), "{buckets} buckets: {seen:?}");
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
fn a_network_of_any_buckets_round_trips_as_version_3_and_old_versions_still_read() {
    for (buckets, old_version) in [(5, 2), (1, 2), (1, 1)] {
        let net = random_network(5 + buckets as u64, 200, buckets);
        let bytes = net.to_bytes();
        assert_eq!(u16::from_le_bytes([bytes[8], bytes[9]]), VERSION, "version");
        let read = Network::from_bytes(&bytes).unwrap();
        assert_eq!(read.to_bytes(), bytes);
        assert_eq!(read.buckets(), net.buckets());
        assert!(read.checked());
        assert_same_play(&read, &net);
        // The same network in a file of before checksums: read, unchecked, the same play,
        // and written back as version 3.
        let old = Network::from_bytes(&unchecked(&bytes, old_version)).unwrap();
        assert_eq!(old.file_version(), old_version);
        assert!(!old.checked());
        assert_eq!(old.buckets(), net.buckets());
        assert_same_play(&old, &net);
        assert_eq!(old.to_bytes(), bytes);
    }
}

/// CRC-32 sees every error within 32 consecutive bits, so every change to one byte: the
/// magic and the version are checked before it (a version flipped to 1 or 2 then finds the
/// file 4 or 170 bytes too long), every later byte is covered by it, the checksum itself
/// included. Each byte of a narrow network's file is flipped by four patterns (one bit, the
/// top bit, all bits, and a value that differs from byte to byte, so that every pattern is
/// tried somewhere), every cut and every extra byte is refused; the shipped file's header,
/// description, table, ends and every 997th weight byte too.
#[test]
fn every_damaged_byte_of_a_version_3_file_is_refused() {
    let mut net = random_network(9, 300, 2);
    net.width = 1;
    let shipped = Network::embedded().to_bytes();
    for bytes in [net.to_bytes(), shipped] {
        let description = u32::from_le_bytes(bytes[20..24].try_into().unwrap()) as usize;
        let weights_at = 24 + description + 2 + 2 * 82;
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
                        matches!(error, Some(NetError::Version(_) | NetError::Length { .. })),
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
    }
}

/// The bucket count and table are checked in files of before checksums, and under a matching
/// checksum; cut short, a version 2 file is found by its length.
#[test]
fn files_with_bad_buckets_or_cut_short_are_refused() {
    let net = random_network(7, 200, 3);
    let bytes = unchecked(&net.to_bytes(), 2);
    let count_at = 24 + net.description().len();
    let with_count = |count: u16, seal: bool| {
        let mut bytes = if seal { net.to_bytes() } else { bytes.clone() };
        bytes[count_at..count_at + 2].copy_from_slice(&count.to_le_bytes());
        Network::from_bytes(&if seal { resealed(bytes) } else { bytes }).err()
    };
    for seal in [false, true] {
        for count in [0, 17, u16::MAX] {
            let error = with_count(count, seal).expect("refused");
            assert_eq!(
                error,
                NetError::Buckets(BucketError::Count(count.into())),
                "{count}"
            );
            assert_eq!(
                error.to_string(),
                format!(
                    "the network's output buckets: {count} output buckets; a network has 1 to 16"
                )
            );
        }
        // A count the rest of the file does not match.
        assert!(matches!(with_count(4, seal), Some(NetError::Length { .. })));
    }
    // A table naming a bucket beyond the count.
    let mut bad_entry = bytes.clone();
    bad_entry[count_at + 2 + 10] = 3;
    let mut sealed = net.to_bytes();
    sealed[count_at + 2 + 10] = 3;
    for bad in [bad_entry, resealed(sealed)] {
        let error = Network::from_bytes(&bad).err().expect("refused");
        assert_eq!(
            error.to_string(),
            "the network's output buckets: the bucket of 10 stacks on 8x8 is 3, but the network has 3 buckets"
        );
    }
    // Cut anywhere: in the count, in the table, in the weights, or by a byte at the end.
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
    let mut net = random_network(8, 300, 2);
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
