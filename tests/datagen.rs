//! `lielow datagen` through the binary: the same seed writes the same bytes whatever the
//! threads, a stopped run resumes to the same bytes, shards make up the whole run, and every
//! position kept is one the evaluation should learn from.

mod support;

use std::collections::BTreeMap;
use std::path::Path;

use lielow::datagen::format::{read_file, read_games, GameSamples};
use lielow_engine::score::Score;
use lielow_rules::attacks;
use support::{lielow_command, scratch};

fn datagen(output: &Path, extra: &[&str]) -> std::process::Output {
    let output = output.display().to_string();
    let mut args = vec!["datagen", "-o", &output, "--games", "12", "--nodes", "1500"];
    args.extend(extra);
    lielow_command().args(&args).output().expect("run lielow")
}

fn by_game(games: Vec<GameSamples>) -> BTreeMap<u64, GameSamples> {
    games.into_iter().map(|g| (g.game, g)).collect()
}

#[test]
fn runs_are_reproducible_resumable_and_shardable() {
    let dir = scratch("runs");
    let (one, two) = (dir.join("one.bin"), dir.join("two.bin"));
    assert!(datagen(&one, &["--concurrency", "1"]).status.success());
    assert!(datagen(&two, &["--concurrency", "2"]).status.success());
    let bytes = std::fs::read(&one).unwrap();
    assert_eq!(
        bytes,
        std::fs::read(&two).unwrap(),
        "threads change nothing"
    );
    // Stopped mid-block, then resumed: the same file.
    let cut = dir.join("cut.bin");
    std::fs::write(&cut, &bytes[..bytes.len() * 2 / 3]).unwrap();
    assert!(datagen(&cut, &["--concurrency", "2"]).status.success());
    assert_eq!(std::fs::read(&cut).unwrap(), bytes);
    // Two shards hold exactly the whole run's games.
    let whole = by_game(read_file(&one).unwrap());
    assert_eq!(
        whole.keys().copied().collect::<Vec<_>>(),
        (0..12).collect::<Vec<_>>()
    );
    let mut shards = BTreeMap::new();
    for k in 1..=2 {
        let path = dir.join(format!("shard{k}.bin"));
        assert!(datagen(&path, &["--shard", &format!("{k}/2")])
            .status
            .success());
        shards.extend(by_game(read_file(&path).unwrap()));
    }
    assert_eq!(shards, whole);
    // Other settings into the same file: refused, file untouched.
    let output = datagen(&one, &["--seed", "5", "--concurrency", "1"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("other settings"));
    assert_eq!(std::fs::read(&one).unwrap(), bytes);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn games_at_once_is_concurrency_and_threads_is_refused_naming_it() {
    let dir = scratch("threads-flag");
    let path = dir.join("data.bin");
    let output = datagen(&path, &["--threads", "2"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("--concurrency"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(!path.exists(), "nothing is written");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_kept_position_is_quiet_and_scored_and_both_sizes_occur() {
    let dir = scratch("quiet");
    let path = dir.join("data.bin");
    assert!(datagen(&path, &["--random-plies", "6"]).status.success());
    let file = read_games(&std::fs::read(&path).unwrap()).unwrap();
    assert!(file.settings.contains("nodes=1500"));
    let samples: Vec<_> = file.games.iter().flat_map(|g| &g.samples).collect();
    assert!(samples.len() > 100, "{} samples", samples.len());
    let mut sizes = std::collections::BTreeSet::new();
    for sample in samples {
        let position = &sample.position;
        sizes.insert(position.size().n());
        assert!(!position.is_game_over());
        let us = position.side_to_move();
        let attacked = position
            .king(us)
            .is_some_and(|king| attacks::attacked(position, us.opponent(), king));
        assert!(!attacked, "{}", position.to_lfen());
        assert!(!Score(i32::from(sample.score)).is_proven());
        assert!(sample.result == 1 || sample.result == -1);
        assert!(sample.ply >= 6);
    }
    assert_eq!(sizes.len(), 2, "both board sizes");
    let _ = std::fs::remove_dir_all(&dir);
}
