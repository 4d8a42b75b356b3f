//! The search at a fixed number of nodes: 8x8 and 9x9 start positions and an 8x8 middle game,
//! one thread, the built-in network, a fresh 16 MiB table each time (as `lielow bench`; making
//! the searcher is not timed). A fixed node count times the speed of the search, whatever
//! depth those nodes reach.
//!
//! ```text
//! cargo bench --bench search
//! ```

use std::hint::black_box;
use std::sync::atomic::AtomicBool;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use lielow_engine::bench::{BENCH_HASH_MB, POSITIONS};
use lielow_engine::limits::Limits;
use lielow_engine::search::Searcher;
use lielow_rules::Position;

/// The nodes of each search.
const NODES: u64 = 50_000;

fn fixed_nodes(c: &mut Criterion) {
    let mut group = c.benchmark_group("search");
    group.sample_size(20);
    let limits = Limits {
        nodes: Some(NODES),
        ..Limits::default()
    };
    // Both start positions and the bench's first 8x8 middle game (a quiet one: some bench
    // positions end in a mate found within a few nodes).
    for (name, text) in [
        ("8x8 start", POSITIONS[0]),
        ("9x9 start", POSITIONS[1]),
        ("8x8 middle game", POSITIONS[2]),
    ] {
        let position = Position::from_lfen(text).expect("bench positions are valid");
        group.bench_function(format!("{NODES} nodes {name}"), |b| {
            b.iter_batched(
                || {
                    let mut searcher = Searcher::new();
                    searcher
                        .set_hash_mb(BENCH_HASH_MB)
                        .expect("a valid hash size");
                    searcher
                },
                |mut searcher| {
                    let stop = AtomicBool::new(false);
                    black_box(searcher.search(&position, &limits, &stop, &mut |_| {}))
                },
                BatchSize::PerIteration,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, fixed_nodes);
criterion_main!(benches);
