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

/// The shards K/`count` of the 12-game run at 300 nodes a move of `extra` flags, in `dir`.
fn shards(dir: &Path, name: &str, count: u64, extra: &[&str]) -> Vec<String> {
    (1..=count)
        .map(|k| {
            let path = dir.join(format!("{name}-{k}.bin"));
            let shard = format!("{k}/{count}");
            let mut flags = vec!["--shard", &shard];
            flags.extend(extra);
            let out = datagen_300(&path, "12", &flags);
            assert!(out.status.success(), "{}", support::stderr(&out));
            path.display().to_string()
        })
        .collect()
}

/// `lielow datagen --join FILES -o OUTPUT --games GAMES`.
fn join(files: &[&str], output: &Path, games: &str) -> std::process::Output {
    let output = output.display().to_string();
    let mut args = vec!["datagen", "--join"];
    args.extend(files);
    args.extend(["-o", &output, "--games", games]);
    lielow_command().args(&args).output().expect("run lielow")
}

#[test]
fn joined_shards_are_the_whole_run_byte_for_byte() {
    let dir = scratch("join");
    let whole = dir.join("whole.bin");
    assert!(datagen_300(&whole, "12", &["--concurrency", "1"])
        .status
        .success());
    let parts = shards(&dir, "shard", 3, &["--concurrency", "2"]);
    let joined = dir.join("joined.bin");
    // Given in any order.
    let out = join(&[&parts[2], &parts[0], &parts[1]], &joined, "12");
    assert!(out.status.success(), "{}", support::stderr(&out));
    let bytes = std::fs::read(&whole).unwrap();
    assert_eq!(std::fs::read(&joined).unwrap(), bytes);
    assert!(read_games(&bytes).unwrap().settings.contains("shard=1/1"));
    // One shard of one is the run itself.
    let single = shards(&dir, "single", 1, &[]);
    let again = dir.join("again.bin");
    assert!(join(&[&single[0]], &again, "12").status.success());
    assert_eq!(std::fs::read(&again).unwrap(), bytes);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_join_of_wrong_shards_is_refused_and_writes_nothing() {
    let dir = scratch("join-refused");
    let parts = shards(&dir, "shard", 3, &[]);
    let other = shards(&dir, "other", 3, &["--seed", "2"]);
    let four = shards(&dir, "four", 4, &[]);
    let cut = dir.join("cut.bin");
    let bytes = std::fs::read(&parts[1]).unwrap();
    std::fs::write(&cut, &bytes[..bytes.len() - 5]).unwrap();
    let short = dir.join("short.bin");
    assert!(datagen_300(&short, "9", &["--shard", "2/3"])
        .status
        .success());
    let damaged = dir.join("damaged.bin");
    let mut flipped = bytes.clone();
    let at = flipped.len() - 30;
    flipped[at] ^= 0x40;
    std::fs::write(&damaged, &flipped).unwrap();
    let (cut, short, damaged) = (
        cut.display().to_string(),
        short.display().to_string(),
        damaged.display().to_string(),
    );
    let cases: [(&[&str], &str); 7] = [
        (&[&parts[0], &parts[2]], "missing: 2"),
        (&[&parts[0], &other[1], &parts[2]], "another run"),
        (&[&parts[0], &four[1], &parts[2]], "another run"),
        (&[&parts[0], &parts[1], &parts[1], &parts[2]], "given twice"),
        (&[&parts[0], &cut, &parts[2]], "cut short"),
        (&[&parts[0], &short, &parts[2]], "holds 3 games"),
        (&[&parts[0], &damaged, &parts[2]], "checksum"),
    ];
    let kept = dir.join("kept.bin");
    std::fs::write(&kept, b"an older file").unwrap();
    for (files, message) in cases {
        for output in [dir.join("new.bin"), kept.clone()] {
            let out = join(files, &output, "12");
            let stderr = support::stderr(&out);
            assert_eq!(out.status.code(), Some(2), "{files:?}: {stderr}");
            assert!(stderr.contains(message), "{files:?}: {stderr}");
            assert_eq!(stderr.lines().count(), 1, "{stderr}");
        }
        assert!(!dir.join("new.bin").exists(), "{files:?}: nothing written");
        assert_eq!(std::fs::read(&kept).unwrap(), b"an older file");
    }
    // The whole run's games, not another count of them.
    let out = join(&[&parts[0], &parts[1], &parts[2]], &kept, "15");
    assert_eq!(out.status.code(), Some(2));
    assert!(support::stderr(&out).contains("its share of --games 15 is 5"));
    // The flags that describe play belong to the shards' runs, not to the join.
    let kept_name = kept.display().to_string();
    let out = lielow_command()
        .args(["datagen", "--join", &parts[0], &parts[1], &parts[2]])
        .args(["-o", &kept_name, "--games", "12", "--nodes", "300"])
        .output()
        .expect("run lielow");
    assert_eq!(out.status.code(), Some(2));
    assert!(support::stderr(&out).contains("cannot be used with"));
    assert_eq!(std::fs::read(&kept).unwrap(), b"an older file");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The run of `games` games at 300 nodes a move with `extra` flags, into `output`.
fn datagen_300(output: &Path, games: &str, extra: &[&str]) -> std::process::Output {
    let output = output.display().to_string();
    lielow_command()
        .args(["datagen", "-o", &output, "--games", games, "--nodes", "300"])
        .args(extra)
        .output()
        .expect("run lielow")
}
