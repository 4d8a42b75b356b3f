//! The session driven line by line, as `run` drives it, with a search made to panic.

use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::{Engine, Flow, Output, Settings};
use crate::nnue::Network;
use crate::ugi::{OptionSetting, UgiOption, DEVELOPMENT_OPTIONS, OPTIONS};
use lielow_rules::board::BoardSize;
use lielow_rules::position::Position;

/// The session's output, kept for the test to read.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Captured {
    fn lines(&self) -> Vec<String> {
        String::from_utf8_lossy(&self.0.lock().unwrap())
            .lines()
            .map(str::to_owned)
            .collect()
    }

    /// The lines once `count` `bestmove` lines have come (a search job prints it last).
    fn after_bestmoves(&self, count: usize) -> Vec<String> {
        let started = Instant::now();
        loop {
            let lines = self.lines();
            if lines.iter().filter(|l| l.starts_with("bestmove ")).count() >= count {
                return lines;
            }
            assert!(started.elapsed() < Duration::from_secs(60), "{lines:?}");
            std::thread::sleep(Duration::from_millis(2));
        }
    }
}

fn session() -> (Engine, Captured) {
    let captured = Captured::default();
    (
        Engine::new(Output::new(Box::new(captured.clone()))),
        captured,
    )
}

fn send(engine: &mut Engine, line: &str) {
    assert_eq!(engine.handle(line), Flow::Continue, "{line}");
}

/// Every setting the option lines below give, as the session must keep them.
fn assert_settings(settings: &Settings) {
    assert_eq!(settings.hash_mb, 2);
    assert_eq!(settings.board_size, BoardSize::Eight);
    assert!(settings.ponder);
    assert_eq!(settings.search.threads, 2);
    assert_eq!(settings.search.multipv, 2);
    assert_eq!(settings.search.move_overhead_ms, 77);
    assert!(!settings.search.params.lmr);
    assert!(settings.search.network.is_none(), "EvalFile hand-set");
}

/// The searcher the session holds is configured from its settings.
fn assert_searcher_applies(engine: &Engine) {
    let searcher = engine.searcher.as_ref().expect("no job runs");
    let applied = searcher.settings();
    let settings = &engine.settings.search;
    assert_eq!(applied.threads, settings.threads);
    assert_eq!(applied.multipv, settings.multipv);
    assert_eq!(applied.move_overhead_ms, settings.move_overhead_ms);
    assert_eq!(applied.params, settings.params);
    assert!(settings.same_network(&applied.network));
    assert_eq!(applied.skill, settings.skill);
    assert_eq!(settings.skill, engine.settings.strength.skill());
    assert_eq!(searcher.hash_mb(), engine.settings.hash_mb);
}

/// A search that panics leaves every setting as it was, says so in one error line and still
/// plays one legal move; the searcher that replaces the lost one has the session's settings,
/// and the next `go` searches with them.
#[test]
fn a_panicking_search_keeps_every_setting_and_the_next_go_works() {
    let (mut engine, captured) = session();
    for line in [
        "setoption name Threads value 2",
        "setoption name MultiPV value 2",
        "setoption name Hash value 2",
        "setoption name Move Overhead value 77",
        "setoption name LMR value false",
        "setoption name EvalFile value hand-set",
        "setoption name Ponder value true",
        "isready",
    ] {
        send(&mut engine, line);
    }
    assert_eq!(captured.lines(), ["readyok"]);
    assert_settings(&engine.settings);
    assert_searcher_applies(&engine);

    engine.searches_to_panic = 1;
    send(&mut engine, "position startpos moves d2-d3");
    send(&mut engine, "go depth 3");
    let lines = captured.after_bestmoves(1);
    let bestmove = lines.last().expect("a bestmove line").clone();
    assert_eq!(
        lines,
        [
            "readyok".to_owned(),
            "info string error: the search failed; playing a legal move".to_owned(),
            bestmove.clone(),
        ]
    );
    let position = Position::start(BoardSize::Eight).play(
        Position::start(BoardSize::Eight)
            .parse_move("d2-d3")
            .unwrap(),
    );
    let words: Vec<&str> = bestmove.split_whitespace().collect();
    assert_eq!(words.len(), 2, "no reply is named after a failed search");
    assert!(position.parse_move(words[1]).is_ok(), "{bestmove}");

    // `isready` takes the searcher back: a new one, configured from the same settings.
    send(&mut engine, "isready");
    assert_eq!(captured.lines().last().map(String::as_str), Some("readyok"));
    assert_settings(&engine.settings);
    assert_searcher_applies(&engine);

    send(&mut engine, "go depth 3");
    let lines = captured.after_bestmoves(2);
    let second: Vec<&String> = lines.iter().skip(4).collect();
    assert!(!second.iter().any(|l| l.contains("error")), "{second:?}");
    // MultiPV 2 is still in force: both lines of the last iteration are reported.
    for k in [1, 2] {
        assert!(
            second
                .iter()
                .any(|l| l.starts_with("info depth 3 ") && l.contains(&format!(" multipv {k} "))),
            "{second:?}"
        );
    }
    assert!(second.last().unwrap().starts_with("bestmove "));
    engine.shutdown();
}

/// The settings a session starts with are the defaults of the option table: applying each
/// option's default changes nothing.
#[test]
fn the_settings_start_at_the_option_tables_defaults() {
    let (mut engine, captured) = session();
    for option in OPTIONS.iter().chain(&DEVELOPMENT_OPTIONS) {
        let line = match option {
            UgiOption::Spin(spin, _) => {
                format!("setoption name {} value {}", spin.name, spin.default)
            }
            UgiOption::Check(check, _) => {
                format!("setoption name {} value {}", check.name, check.default)
            }
            UgiOption::Button(..) => continue,
            UgiOption::Text(text, _) => {
                format!("setoption name {} value {}", text.name, text.default)
            }
        };
        let setting = line.parse().map(|command| match command {
            crate::ugi::Command::SetOption(setting) => setting,
            other => panic!("{other:?}"),
        });
        assert!(
            !matches!(setting, Ok(OptionSetting::ClearHash) | Err(_)),
            "{line}"
        );
        let before = engine.settings.clone();
        send(&mut engine, &line);
        let after = &engine.settings;
        assert_eq!(after.hash_mb, before.hash_mb, "{line}");
        assert_eq!(after.board_size, before.board_size, "{line}");
        assert_eq!(after.ponder, before.ponder, "{line}");
        assert_eq!(after.search.threads, before.search.threads, "{line}");
        assert_eq!(after.search.multipv, before.search.multipv, "{line}");
        assert_eq!(
            after.search.move_overhead_ms, before.search.move_overhead_ms,
            "{line}"
        );
        assert_eq!(after.search.params, before.search.params, "{line}");
        assert!(before.search.same_network(&after.search.network), "{line}");
        assert_eq!(after.strength, before.strength, "{line}");
        assert_eq!(after.search.skill, before.search.skill, "{line}");
    }
    assert!(!engine.settings.search.skill.enabled(), "full strength");
    assert!(engine
        .settings
        .search
        .same_network(&Some(Network::embedded())));
    assert!(captured.lines().is_empty(), "{:?}", captured.lines());
}

/// The `bestmove` of `go <limits>` from a fresh game at the start position, with every
/// `info` line of the search.
fn search(engine: &mut Engine, captured: &Captured, limits: &str) -> (String, Vec<String>) {
    let before = captured.lines().len();
    let searches = captured
        .lines()
        .iter()
        .filter(|l| l.starts_with("bestmove "))
        .count();
    send(engine, "ucinewgame");
    send(engine, "position startpos");
    send(engine, &format!("go {limits}"));
    let mut lines = captured.after_bestmoves(searches + 1).split_off(before);
    let bestmove = lines.pop().expect("bestmove");
    let words: Vec<&str> = bestmove.split_whitespace().collect();
    (words[1].to_owned(), lines)
}

/// The first moves of the lines of the last iteration reported, best first.
fn last_lines(info: &[String]) -> Vec<String> {
    let depth = |line: &String| line.split_whitespace().nth(2).map(str::to_owned);
    let last = info.last().and_then(depth);
    info.iter()
        .filter(|line| line.starts_with("info depth ") && depth(line) == last)
        .filter_map(|line| line.split(" pv ").nth(1))
        .filter_map(|pv| pv.split_whitespace().next())
        .map(str::to_owned)
        .collect()
}

/// Level 0 plays one of the lines it searched (depth 1, nine lines), not always the best; with
/// a seed the same search gives the same move.
#[test]
fn a_low_level_picks_among_its_lines_and_a_seed_repeats_it() {
    let (mut engine, captured) = session();
    send(&mut engine, "setoption name Skill Level value 0");
    let mut not_best = 0;
    for seed in 1..=12 {
        send(
            &mut engine,
            &format!("setoption name Skill Seed value {seed}"),
        );
        let (mv, info) = search(&mut engine, &captured, "movetime 2000");
        let lines = last_lines(&info);
        assert_eq!(lines.len(), 9, "{info:?}");
        assert!(
            info.iter().all(|l| !l.starts_with("info depth 2 ")),
            "{info:?}"
        );
        assert!(lines.contains(&mv), "{mv} {lines:?}");
        not_best += usize::from(mv != lines[0]);
        let (again, _) = search(&mut engine, &captured, "movetime 2000");
        assert_eq!(again, mv, "seed {seed}");
    }
    assert!(not_best > 0, "level 0 always played the best line");
    engine.shutdown();
}

/// `Skill Level 20` is the engine at full strength: the same lines, nodes and move.
#[test]
fn level_20_searches_as_full_strength() {
    let nodes = |info: &[String]| -> Vec<String> {
        info.iter()
            .map(|l| {
                let words: Vec<&str> = l.split_whitespace().collect();
                let at = |key: &str| words.iter().position(|w| *w == key);
                let pv = at("pv").map_or(&[][..], |i| &words[i..]);
                format!("{:?} {:?}", at("nodes").map(|i| words[i + 1]), pv)
            })
            .collect()
    };
    let (mut full, full_out) = session();
    let (mv, info) = search(&mut full, &full_out, "depth 6");
    let (mut twenty, twenty_out) = session();
    send(&mut twenty, "setoption name Skill Level value 3");
    send(&mut twenty, "setoption name Skill Level value 20");
    let (same, same_info) = search(&mut twenty, &twenty_out, "depth 6");
    assert_eq!(same, mv);
    assert_eq!(nodes(&same_info), nodes(&info));
    full.shutdown();
    twenty.shutdown();
}

/// A level's depth cap and the `go` limits both hold; `UCI_LimitStrength` plays at `UCI_Elo`
/// instead of `Skill Level`, and off again gives the level back.
#[test]
fn levels_keep_the_go_limits_and_elo_replaces_the_level() {
    use crate::search::skill::{Skill, MAX_ELO, MIN_ELO};
    let (mut engine, captured) = session();
    send(&mut engine, "setoption name Skill Level value 6");
    let (_, info) = search(&mut engine, &captured, "movetime 5000");
    assert!(
        info.iter().any(|l| l.starts_with("info depth 3 ")),
        "{info:?}"
    );
    assert!(
        info.iter().all(|l| !l.starts_with("info depth 4 ")),
        "{info:?}"
    );
    let (_, info) = search(&mut engine, &captured, "depth 2");
    assert!(
        info.iter().all(|l| !l.starts_with("info depth 3 ")),
        "{info:?}"
    );
    assert_eq!(engine.settings.search.skill, Skill::level(6));

    send(&mut engine, "setoption name UCI_LimitStrength value true");
    assert_eq!(engine.settings.search.skill, Skill::from_elo(MIN_ELO));
    assert_eq!(engine.settings.search.skill.hundredths(), 0);
    send(
        &mut engine,
        &format!("setoption name UCI_Elo value {MAX_ELO}"),
    );
    assert!(!engine.settings.search.skill.enabled());
    let middle = (MIN_ELO + MAX_ELO) / 2;
    send(
        &mut engine,
        &format!("setoption name UCI_Elo value {middle}"),
    );
    let level = engine.settings.search.skill.hundredths();
    assert!(0 < level && level < 2000, "{level}");
    send(&mut engine, "setoption name UCI_LimitStrength value false");
    assert_eq!(engine.settings.search.skill, Skill::level(6));
    assert_searcher_applies(&engine);

    let before = engine.settings.strength;
    send(&mut engine, "setoption name UCI_Elo value 1");
    send(&mut engine, "setoption name Skill Level value 21");
    assert_eq!(engine.settings.strength, before);
    let errors: Vec<String> = captured
        .lines()
        .into_iter()
        .filter(|l| l.starts_with("info string error: "))
        .collect();
    assert_eq!(errors.len(), 2, "{errors:?}");
    engine.shutdown();
}
