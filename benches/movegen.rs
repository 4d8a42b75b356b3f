//! Move generation: listing the legal moves, counting them without a list, and playing each,
//! in an opening, a middle game and an ending of each board size; and perft(4) of both start
//! positions (the rules crate's move code end to end).
//!
//! ```text
//! cargo bench --bench movegen
//! ```

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use lielow_rules::movegen::{self, MoveList};
use lielow_rules::{perft, BoardSize, Position};

/// A few positions from the reference data: an opening, a middle game and an ending per size.
const POSITIONS: [&str; 4] = [
    "8/r1r1r1r1r1r1r1r1/8/8/8/8/b1b1b1b1b1b1b1b1/8 b",
    "1R26/1r12r1r1r1r1/1r22r23/8/8/1B26/1b11b1b1b11b1/3b21b22 b",
    "r11r12r11r1r1/1r21r3r22r2r2/1r14r1r21/R35r32/1r37/1b21b22r31B4/b16b11/b2b21b22b2b2b2/3b1b1b1b11b1 r",
    "8/8/4r33/r5b36/B64b52/3r54/4R6r42/8 r",
];

fn positions() -> Vec<Position> {
    POSITIONS
        .iter()
        .map(|text| Position::from_lfen(text).expect("a valid LFEN"))
        .collect()
}

fn bench_movegen(c: &mut Criterion) {
    let positions = positions();
    c.bench_function("generate (4 positions)", |b| {
        b.iter(|| {
            let mut total = 0;
            for position in &positions {
                let mut list = MoveList::new();
                movegen::generate(black_box(position), &mut list);
                total += list.len();
            }
            total
        })
    });
    c.bench_function("count (4 positions)", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| movegen::count(black_box(p)))
                .sum::<u64>()
        })
    });
    let moves: Vec<_> = positions.iter().map(|p| p.legal_moves()).collect();
    c.bench_function("play every legal move (4 positions)", |b| {
        b.iter(|| {
            let mut keys = 0u64;
            for (position, list) in positions.iter().zip(&moves) {
                for &mv in list {
                    keys ^= black_box(position).play(mv).key();
                }
            }
            keys
        })
    });
}

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for size in [BoardSize::Eight, BoardSize::Nine] {
        let start = Position::start(size);
        group.bench_function(format!("perft(4) {size}x{size} start"), |b| {
            b.iter(|| perft::perft(black_box(&start), 4))
        });
    }
    group.finish();
}

criterion_group!(benches, bench_movegen, bench_perft);
criterion_main!(benches);
