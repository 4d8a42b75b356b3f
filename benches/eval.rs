//! The evaluation: the built-in network from scratch (every stack's weights summed), its output
//! from sums already made, the incremental update after a move (the search's way), and the
//! hand-set evaluation, on an 8x8 middle game.
//!
//! ```text
//! cargo bench --bench eval
//! ```

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use lielow_engine::eval;
use lielow_engine::nnue::{Accumulator, Delta, Network};
use lielow_rules::Position;

/// An 8x8 middle game of the bench, full of captures.
const MIDDLE_GAME: &str = "8/3r11r12/2r23r31/6b11/B42r31R32/2b23b21/3b24/1b23b3b21 b";

fn evaluate(c: &mut Criterion) {
    let position = Position::from_lfen(MIDDLE_GAME).expect("a valid LFEN");
    let net = Network::embedded();
    c.bench_function("network: refresh and evaluate", |b| {
        b.iter(|| net.evaluate_position(black_box(&position)))
    });
    let sums = Accumulator::refresh(&net, &position);
    c.bench_function("network: evaluate from the sums", |b| {
        b.iter(|| black_box(&sums).evaluate(&net, &position))
    });
    c.bench_function("hand-set: evaluate", |b| {
        b.iter(|| eval::evaluate(black_box(&position)))
    });
}

fn update(c: &mut Criterion) {
    let position = Position::from_lfen(MIDDLE_GAME).expect("a valid LFEN");
    let net = Network::embedded();
    let parent = Accumulator::refresh(&net, &position);
    let children: Vec<(Position, Delta)> = position
        .legal_moves()
        .into_iter()
        .map(|mv| {
            let child = position.play(mv);
            let delta = Delta::of_move(&position, mv, &child);
            (child, delta)
        })
        .collect();
    let moves = children.len();
    // The sums of every child: from its parent's with the move's few rows, or from scratch.
    let mut sums = Accumulator::default();
    c.bench_function(
        &format!("network: update after each of {moves} moves"),
        |b| {
            b.iter(|| {
                for (_, delta) in &children {
                    sums.apply(black_box(&parent), &net, delta);
                    black_box(&sums);
                }
            })
        },
    );
    c.bench_function(
        &format!("network: refresh after each of {moves} moves"),
        |b| {
            b.iter(|| {
                for (child, _) in &children {
                    black_box(Accumulator::refresh(&net, black_box(child)));
                }
            })
        },
    );
}

criterion_group!(benches, evaluate, update);
criterion_main!(benches);
