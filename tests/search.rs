//! The search's observable behaviour: proven results in hand-made positions, determinism,
//! limits, and legality with several threads.

mod support;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use lielow_engine::bench;
use lielow_engine::limits::{Clock, Limits};
use lielow_engine::score::Score;
use lielow_engine::search::{Info, Params, Report, SearchResult, Searcher};
use lielow_rules::attacks;
use lielow_rules::{BoardSize, Position};
use support::lielow_command;

fn position(lfen: &str) -> Position {
    Position::from_lfen(lfen).expect("test positions are valid")
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

fn search_with(
    searcher: &mut Searcher,
    position: &Position,
    limits: &Limits,
) -> (SearchResult, Vec<Info>) {
    let stop = AtomicBool::new(false);
    let mut infos = Vec::new();
    let result = searcher.search(position, limits, &stop, &mut |report| {
        if let Report::Iteration(info) = report {
            infos.push(info.clone())
        }
    });
    (result, infos)
}

fn search(position: &Position, limits: &Limits) -> (SearchResult, Vec<Info>) {
    search_with(&mut Searcher::new(), position, limits)
}

/// Whether the side to move can capture the enemy king at once.
fn can_capture_king(position: &Position) -> bool {
    let us = position.side_to_move();
    position
        .king(us.opponent())
        .is_some_and(|king| attacks::attacked(position, us, king))
}

#[test]
fn king_capture_in_one_is_played_and_reported_as_mate_1() {
    let start = position("8/r1r1r15/8/3R24/8/3B24/b1b1b15/8 b");
    for d in [1, 4, 8] {
        let (result, infos) = search(&start, &depth(d));
        assert_eq!(result.best_move.unwrap().to_string(), "d3xd5");
        assert_eq!(result.score, Score::win_in(1));
        assert_eq!(result.score.to_string(), "mate 1");
        assert_eq!(infos.last().unwrap().score.to_string(), "mate 1");
        assert_eq!(infos.last().unwrap().pv[0].to_string(), "d3xd5");
    }
    // Even a search stopped before it starts plays the capture.
    let stop = AtomicBool::new(true);
    let result = Searcher::new().search(&start, &Limits::default(), &stop, &mut |_| {});
    assert_eq!(result.best_move.unwrap().to_string(), "d3xd5");
}

#[test]
fn forced_king_capture_in_three_plies_is_mate_2() {
    // Red's lone king on a8 has no safe square once Blue makes a quiet move; bearing off
    // loses faster, so Red's best defence loses on ply 3.
    let start = position("R11b15/8/b17/8/8/8/8/7b1 b");
    let (result, infos) = search(&start, &depth(6));
    assert_eq!(result.score, Score::win_in(3), "{infos:?}");
    assert_eq!(result.score.to_string(), "mate 2");
    let after = start.play(result.best_move.unwrap());
    assert!(!after.is_game_over());
    for reply in after.legal_moves() {
        let next = after.play(reply);
        assert!(
            next.is_game_over() || can_capture_king(&next),
            "{reply} escapes"
        );
    }
}

#[test]
fn a_two_ply_king_loss_is_avoided() {
    // Red's d5 stack attacks Blue's king on d4: most Blue moves lose the king next ply.
    let start = position("7R2/8/8/3r14/3B24/8/b1b1b15/8 b");
    for d in [1, 2, 5] {
        let (result, _) = search(&start, &depth(d));
        let after = start.play(result.best_move.unwrap());
        assert!(
            !can_capture_king(&after),
            "depth {d}: {} loses the king",
            result.best_move.unwrap()
        );
        assert!(result.score > Score::loss_in(2), "depth {d}");
    }
}

#[test]
fn own_king_is_borne_off_only_when_it_is_the_only_move() {
    // The only Blue stack is its king: bearing it off is forced, and a loss on this move.
    let forced = position("9/9/9/9/4B54/9/9/9/r1r1r1r1R2r1r1r1r1 b");
    let (result, _) = search(&forced, &depth(3));
    assert_eq!(result.best_move.unwrap().to_string(), "e5-off");
    assert_eq!(result.score, Score::loss_in(1));
    assert_eq!(result.score.to_string(), "mate -1");
    // A king on the edge with other moves available never bears off.
    let edge = position("4R23/r1r1r1r1r1r1r1r1/8/8/8/8/b1b1b1b1b1b1b1b1/B27 b");
    for d in [1, 3, 6] {
        let (result, _) = search(&edge, &depth(d));
        assert_ne!(result.best_move.unwrap().to_string(), "a1-off");
    }
}

#[test]
fn faster_wins_are_preferred() {
    // Blue can capture the king at once; a deeper search must not prefer a slower win.
    let start = position("8/r1r1r15/8/3R24/8/3B24/b1b1b15/8 b");
    let (result, _) = search(&start, &depth(7));
    assert_eq!(result.score, Score::win_in(1));
    assert!(Score::win_in(1) > Score::win_in(3) && Score::loss_in(4) > Score::loss_in(2));
}

#[test]
fn node_limited_searches_repeat_exactly_after_new_game() {
    for size in [BoardSize::Eight, BoardSize::Nine] {
        let start = Position::start(size);
        let limits = Limits {
            nodes: Some(30_000),
            ..Limits::default()
        };
        let mut searcher = Searcher::new();
        let (first, first_infos) = search_with(&mut searcher, &start, &limits);
        // Searching again without new_game may differ (the table is warm); after it, not.
        let _ = search_with(&mut searcher, &start, &limits);
        searcher.new_game();
        let (second, second_infos) = search_with(&mut searcher, &start, &limits);
        assert_eq!(first, second);
        assert_eq!(
            first.nodes, 30_000,
            "the node limit is exact with one thread"
        );
        let strip = |infos: &[Info]| {
            infos
                .iter()
                .map(|i| (i.depth, i.score, i.nodes, i.pv.clone()))
                .collect::<Vec<_>>()
        };
        assert_eq!(strip(&first_infos), strip(&second_infos));
        // Depth-limited too.
        searcher.new_game();
        let (a, _) = search_with(&mut searcher, &start, &depth(5));
        searcher.new_game();
        let (b, _) = search_with(&mut searcher, &start, &depth(5));
        assert_eq!(a, b);
    }
}

#[test]
fn bench_signature_is_stable() {
    let first = bench::run(3);
    let second = bench::run(3);
    assert_eq!(first.nodes, second.nodes);
    assert!(first.nodes > 1000);
}

/// `lielow bench` (the real binary, default depth) prints the signature kept in
/// `bench::SIGNATURE`: a change in search behaviour fails here until the constant, and the
/// commit's `Bench:` line, say the new number.
#[test]
fn lielow_bench_prints_the_recorded_signature() {
    let output = lielow_command()
        .arg("bench")
        .output()
        .expect("the lielow binary runs");
    assert!(output.status.success());
    let stdout = String::from_utf8(output.stdout).expect("UTF-8 output");
    let nodes: u64 = stdout
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("bench printed '{stdout}'"));
    assert_eq!(
        nodes,
        bench::SIGNATURE,
        "lielow bench no longer matches bench::SIGNATURE: update it (and say Bench: {nodes})"
    );
}

#[test]
fn several_threads_play_legal_moves_to_the_end_of_games() {
    for size in [BoardSize::Eight, BoardSize::Nine] {
        let mut searcher = Searcher::new();
        searcher.set_threads(3).unwrap();
        // Every helper runs, even on a machine with fewer cores.
        searcher.set_helper_limit(8);
        searcher.set_hash_mb(2).unwrap();
        let mut game = Position::start(size);
        let mut plies = 0;
        while !game.is_game_over() && plies < 200 {
            let limits = Limits {
                nodes: Some(3_000),
                ..Limits::default()
            };
            let (result, _) = search_with(&mut searcher, &game, &limits);
            let mv = result.best_move.expect("a position in play has a move");
            game = game.try_play(mv).expect("the search plays legal moves");
            plies += 1;
        }
        assert!(game.is_game_over(), "{size}: games are finite");
        let (over, _) = search_with(&mut searcher, &game, &depth(3));
        assert_eq!(over.best_move, None);
    }
}

#[test]
fn depth_limited_searches_with_several_threads_end_at_that_depth() {
    // The result and the last report are of exactly that depth, and the reports' depths never
    // go back.
    for (size, threads) in [(BoardSize::Eight, 2), (BoardSize::Nine, 3)] {
        let mut searcher = Searcher::new();
        searcher.set_threads(threads).unwrap();
        // Every helper runs, even on a machine with fewer cores.
        searcher.set_helper_limit(8);
        let start = Position::start(size);
        for _ in 0..5 {
            searcher.new_game();
            let (result, infos) = search_with(&mut searcher, &start, &depth(8));
            assert_eq!(result.depth, 8, "{size}");
            let last = infos.last().expect("every iteration is reported");
            assert_eq!(last.depth, 8);
            assert_eq!(last.pv.first().copied(), result.best_move);
            assert!(last.nodes <= result.nodes);
            assert!(
                infos.windows(2).all(|w| w[0].depth < w[1].depth),
                "{infos:?}"
            );
            assert!(start.legal_moves().contains(&result.best_move.unwrap()));
        }
    }
}

/// Plain alpha-beta with quiescence: no table, no pruning, reduction or aspiration window.
/// Its root score is the minimax value of the tree, whatever order the moves are searched in.
fn exact_minimax() -> Params {
    Params {
        tt: false,
        delta_pruning: false,
        lmr: false,
        reverse_futility: false,
        aspiration: false,
        null_move: false,
        late_move_pruning: false,
        iir: false,
        ..Params::default()
    }
}

#[test]
fn shared_nodes_give_the_same_minimax_value_as_one_thread() {
    // Threads share the moves of a node after the first (split points): a result lost,
    // recorded twice, or searched with a wrong window changes the root score, which without
    // pruning must be exactly the one-thread score.
    let positions = [
        bench::POSITIONS[2],
        bench::POSITIONS[3],
        bench::POSITIONS[16],
        bench::POSITIONS[21],
    ];
    for lfen in positions {
        let start = position(lfen);
        let mut one = Searcher::new();
        one.set_params(exact_minimax());
        let (expected, _) = search_with(&mut one, &start, &depth(5));
        for threads in [2, 3] {
            for _ in 0..3 {
                let mut many = Searcher::new();
                many.set_params(exact_minimax());
                many.set_threads(threads).unwrap();
                // Every helper runs, even on a machine with fewer cores.
                many.set_helper_limit(8);
                let (result, infos) = search_with(&mut many, &start, &depth(5));
                assert_eq!(result.score, expected.score, "{lfen}, {threads} threads");
                assert_eq!(result.depth, 5);
                let pv = &infos.last().unwrap().pv;
                assert_eq!(pv.first().copied(), result.best_move);
                // The principal variation is a line of legal moves.
                let mut line = start;
                for &mv in pv {
                    line = line.try_play(mv).expect("pv moves are legal");
                }
            }
        }
    }
}

/// `searcher` finds a mate in two (a win in three plies) and keeps its attacked king.
fn assert_finds_the_forced_results(searcher: &mut Searcher, what: &str) {
    let mate_in_two = position("R11b15/8/b17/8/8/8/8/7b1 b");
    let king_attacked = position("7R2/8/8/3r14/3B24/8/b1b1b15/8 b");
    let (result, _) = search_with(searcher, &mate_in_two, &depth(8));
    assert_eq!(result.score, Score::win_in(3), "{what}");
    searcher.new_game();
    let (result, _) = search_with(searcher, &king_attacked, &depth(8));
    let after = king_attacked.play(result.best_move.unwrap());
    assert!(!can_capture_king(&after), "{what}");
}

#[test]
fn several_threads_find_the_forced_results() {
    for threads in [2, 3] {
        for _ in 0..3 {
            let mut searcher = Searcher::new();
            searcher.set_threads(threads).unwrap();
            // Every helper runs, even on a machine with fewer cores.
            searcher.set_helper_limit(8);
            assert_finds_the_forced_results(&mut searcher, &format!("{threads} threads"));
        }
    }
}

#[test]
fn stop_and_time_limits_are_obeyed() {
    let start = Position::start(BoardSize::Nine);
    // `go infinite` ends with `stop`, promptly.
    let stop = AtomicBool::new(false);
    let started = Instant::now();
    let result = std::thread::scope(|scope| {
        let handle = scope.spawn(|| {
            Searcher::new().search(
                &start,
                &Limits {
                    infinite: true,
                    ..Limits::default()
                },
                &stop,
                &mut |_| {},
            )
        });
        std::thread::sleep(Duration::from_millis(100));
        stop.store(true, Ordering::Relaxed);
        handle.join().unwrap()
    });
    assert!(started.elapsed() < Duration::from_secs(2));
    assert!(start.legal_moves().contains(&result.best_move.unwrap()));
    // A clock with almost nothing left still gets a legal move, quickly.
    let limits = Limits {
        clock: Some(Clock {
            time: [60, 60],
            increment: [0, 0],
            moves_to_go: None,
        }),
        ..Limits::default()
    };
    let started = Instant::now();
    let (result, _) = search(&start, &limits);
    assert!(started.elapsed() < Duration::from_millis(500));
    assert!(start.legal_moves().contains(&result.best_move.unwrap()));
}

#[test]
fn options_reject_bad_values() {
    let mut searcher = Searcher::new();
    assert!(searcher.set_hash_mb(0).is_err());
    assert!(searcher.set_threads(0).is_err());
    assert!(searcher.set_threads(100_000).is_err());
    assert!(searcher.set_hash_mb(4).is_ok());
    assert!(searcher.set_threads(2).is_ok());
}

/// The crowded positions kept in `tests/data` (see `lielow::matchplay::crowded`).
fn crowded_positions() -> Vec<Position> {
    ["crowded_8.lfen", "crowded_9.lfen"]
        .iter()
        .flat_map(|name| {
            let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
            let text = std::fs::read_to_string(&path).expect("the crowded positions are there");
            text.lines()
                .map(|line| Position::from_lfen(line).expect("a valid LFEN"))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// In crowded positions an unbounded capture search took minutes at depth 1. Bounded, depth 4
/// completes in every one within a small number of nodes (the largest here is about 60,000).
#[test]
fn crowded_positions_complete_depth_four_in_few_nodes() {
    let positions = crowded_positions();
    assert_eq!(positions.len(), 120);
    let mut largest = 0;
    for position in &positions {
        let mut searcher = Searcher::new();
        let (result, _) = search_with(&mut searcher, position, &depth(4));
        assert_eq!(result.depth, 4, "{}", position.to_lfen());
        assert!(result.best_move.is_some());
        largest = largest.max(result.nodes);
        assert!(
            result.nodes < 300_000,
            "{} nodes in {}",
            result.nodes,
            position.to_lfen()
        );
    }
    eprintln!("largest go depth 4: {largest} nodes");
}

/// The clock never cuts the first iteration: even a 1 ms budget plays a searched move.
#[test]
fn the_move_played_always_comes_from_a_completed_iteration() {
    let limits = Limits {
        movetime: Some(1),
        ..Limits::default()
    };
    for position in crowded_positions().iter().step_by(6) {
        let mut searcher = Searcher::new();
        let (result, infos) = search_with(&mut searcher, position, &limits);
        assert!(
            result.depth >= 1 && !infos.is_empty(),
            "{}",
            position.to_lfen()
        );
        let best = result.best_move.expect("a move");
        assert!(position.legal_moves().contains(&best));
    }
}

/// Every heuristic that is a switch of its own, on: the forced results and the 1-ply safety
/// must survive whichever of them games keep, with one thread and with several.
fn every_heuristic_on() -> Params {
    Params {
        cont_history: true,
        improving: true,
        tt_eval: true,
        ..Params::default()
    }
}

/// Each optional heuristic is wired into the search: switched alone from its default (on, or
/// off where games kept it), it changes the trees that fixed-depth searches walk, from the start
/// and from crowded middle games (the same nodes would mean it never acted).
#[test]
fn each_optional_heuristic_changes_the_search() {
    let mut positions = vec![(Position::start(BoardSize::Eight), 10)];
    positions.extend(crowded_positions().into_iter().step_by(10).map(|p| (p, 6)));
    let nodes = |params: Params| -> Vec<u64> {
        positions
            .iter()
            .map(|(position, plies)| {
                let mut searcher = Searcher::new();
                searcher.set_params(params);
                search_with(&mut searcher, position, &depth(*plies)).0.nodes
            })
            .collect()
    };
    let plain = nodes(Params::default());
    let variants = [("TTEval", "false"), ("Improving", "false")];
    for (name, value) in variants {
        let mut params = Params::default();
        params.set(name, value).unwrap();
        assert_ne!(
            nodes(params),
            plain,
            "{name} {value} searched the same trees as the default"
        );
    }
}

#[test]
fn the_optional_heuristics_keep_the_forced_results() {
    for threads in [1, 2] {
        let mut searcher = Searcher::new();
        searcher.set_params(every_heuristic_on());
        searcher.set_threads(threads).unwrap();
        searcher.set_helper_limit(8);
        assert_finds_the_forced_results(&mut searcher, &format!("{threads} threads, all on"));
        // The histories learn from a real search and still give a legal move at every depth.
        let start = Position::start(BoardSize::Eight);
        let (result, infos) = search_with(&mut searcher, &start, &depth(9));
        assert!(start.legal_moves().contains(&result.best_move.unwrap()));
        assert_eq!(infos.last().map(|info| info.depth), Some(9));
    }
}
