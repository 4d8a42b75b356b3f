//! Criterion benches of the search: a fixed-depth search of both start positions with a fresh
//! searcher, and the static evaluation of a middle-game position.

use std::hint::black_box;
use std::sync::atomic::AtomicBool;

use criterion::{criterion_group, criterion_main, Criterion};
use lielow_engine::eval;
use lielow_engine::limits::Limits;
use lielow_engine::search::Searcher;
use lielow_rules::{BoardSize, Position};

fn search_start(c: &mut Criterion) {
    for size in [BoardSize::Eight, BoardSize::Nine] {
        let position = Position::start(size);
        let limits = Limits {
            depth: Some(5),
            ..Limits::default()
        };
        c.bench_function(&format!("search depth 5 start {size}x{size}"), |b| {
            b.iter(|| {
                let mut searcher = Searcher::new();
                let stop = AtomicBool::new(false);
                black_box(searcher.search(&position, &limits, &stop, &mut |_| {}))
            })
        });
    }
}

fn evaluate(c: &mut Criterion) {
    let position =
        Position::from_lfen("8/3r11r12/2r23r31/6b11/B42r31R32/2b23b21/3b24/1b23b3b21 b").unwrap();
    c.bench_function("evaluate middle game 8x8", |b| {
        b.iter(|| eval::evaluate(black_box(&position)))
    });
}

criterion_group!(benches, search_start, evaluate);
criterion_main!(benches);
