//! Self-play between two search configurations, to let games decide search and evaluation
//! choices until the match runner exists.
//!
//! ```text
//! cargo run --release --example selfplay -- PAIRS SPEC_A SPEC_B [SEED]
//! ```
//!
//! Each of PAIRS random openings (6 random plies from a start position, half on each board size)
//! is played twice with colours swapped. A SPEC is a comma-separated list of:
//! `nodes=N`, `movetime=MS`, `depth=D` (the limit per move), and feature switches
//! `-tt -qs -evasions +ext -ext -lmr -rfp +futility -asp`. Node-limited matches play two games at once
//! (rayon); timed ones play one at a time so the clocks are not shared.
//!
//! Prints W-L for A per board size and overall, the score and a rough Elo with a 95% interval
//! (binomial; Lielow has no draws).

use std::sync::atomic::AtomicBool;

use lielow::limits::Limits;
use lielow::search::{Features, Searcher};
use lielow::{BoardSize, Position, Side};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rayon::prelude::*;

#[derive(Clone, Copy, Debug)]
struct Config {
    limits: Limits,
    features: Features,
}

fn parse_spec(spec: &str) -> Config {
    let mut config = Config {
        limits: Limits::default(),
        features: Features::default(),
    };
    for token in spec.split(',').filter(|t| !t.is_empty()) {
        let f = &mut config.features;
        match token.split_once('=') {
            Some(("nodes", n)) => config.limits.nodes = Some(n.parse().expect("nodes=N")),
            Some(("movetime", n)) => config.limits.movetime = Some(n.parse().expect("movetime=MS")),
            Some(("depth", n)) => config.limits.depth = Some(n.parse().expect("depth=D")),
            Some(("evplies", n)) => f.evasion_plies = n.parse().expect("evplies=N"),
            _ => match token {
                "-tt" => f.tt = false,
                "-qs" => f.qsearch = false,
                "-evasions" => f.qsearch_evasions = false,
                "+ext" => f.danger_extension = true,
                "-ext" => f.danger_extension = false,
                "-lmr" => f.lmr = false,
                "-rfp" => f.reverse_futility = false,
                "+futility" => f.futility = true,
                "-asp" => f.aspiration = false,
                other => panic!("unknown spec token {other}"),
            },
        }
    }
    config
}

/// Plays one game from `opening`; returns the winner.
fn play(opening: &Position, blue: &Config, red: &Config) -> Side {
    let mut searchers = [Searcher::new(), Searcher::new()];
    for (searcher, config) in searchers.iter_mut().zip([blue, red]) {
        searcher.set_features(config.features);
        searcher.set_hash_mb(16).expect("valid hash size");
    }
    let configs = [blue, red];
    let stop = AtomicBool::new(false);
    let mut position = *opening;
    while position.winner().is_none() {
        let side = position.side_to_move().index();
        let result = searchers[side].search(&position, &configs[side].limits, &stop, &mut |_| {});
        let mv = result.best_move.expect("a position in play has a move");
        position = position.try_play(mv).expect("the search plays legal moves");
    }
    position.winner().expect("the loop ends with a winner")
}

fn elo(score: f64) -> f64 {
    let s = score.clamp(1e-3, 1.0 - 1e-3);
    -400.0 * (1.0 / s - 1.0).log10()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 3 {
        eprintln!("usage: selfplay PAIRS SPEC_A SPEC_B [SEED]");
        std::process::exit(2);
    }
    let pairs: usize = args[0].parse().expect("PAIRS is a number");
    let a = parse_spec(&args[1]);
    let b = parse_spec(&args[2]);
    let seed: u64 = args
        .get(3)
        .map_or(1, |s| s.parse().expect("SEED is a number"));
    let mut rng = StdRng::seed_from_u64(seed);
    let mut openings = Vec::new();
    while openings.len() < pairs {
        let size = if openings.len() % 2 == 0 {
            BoardSize::Eight
        } else {
            BoardSize::Nine
        };
        let mut position = Position::start(size);
        for _ in 0..6 {
            if let Some(&mv) = position.legal_moves().choose(&mut rng) {
                position = position.play(mv);
            }
        }
        // Keep only openings still in play where nobody can take a king at once.
        let king_en_prise = Side::BOTH.iter().any(|&side| {
            position
                .king(side)
                .is_some_and(|king| lielow::attacks::attacked(&position, side.opponent(), king))
        });
        if !position.is_game_over() && !king_en_prise {
            openings.push(position);
        }
    }
    let timed = a.limits.movetime.is_some() || b.limits.movetime.is_some();
    let run = |opening: &Position| {
        let a_blue = play(opening, &a, &b) == Side::Blue;
        let a_red = play(opening, &b, &a) == Side::Red;
        (opening.size(), u32::from(a_blue) + u32::from(a_red))
    };
    let results: Vec<(BoardSize, u32)> = if timed {
        openings.iter().map(run).collect()
    } else {
        openings.par_iter().map(run).collect()
    };
    let mut total = (0, 0);
    for size in [BoardSize::Eight, BoardSize::Nine] {
        let wins: u32 = results.iter().filter(|r| r.0 == size).map(|r| r.1).sum();
        let games = 2 * results.iter().filter(|r| r.0 == size).count() as u32;
        println!("{size}x{size}: A {wins} - {} B", games - wins);
        total.0 += wins;
        total.1 += games;
    }
    let n = f64::from(total.1);
    let score = f64::from(total.0) / n;
    let margin = 1.96 * (score * (1.0 - score) / n).sqrt();
    println!(
        "total: A {} - {} B, score {:.1}%, Elo {:+.0} [{:+.0}, {:+.0}]",
        total.0,
        total.1 - total.0,
        100.0 * score,
        elo(score),
        elo(score - margin),
        elo(score + margin)
    );
}
