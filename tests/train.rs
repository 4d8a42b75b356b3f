//! `lielow train` and `lielow tune` through the binary, on a small datagen file: training is
//! reproducible whatever the threads, lowers the loss, and writes a network the engine loads;
//! tuning prints a full weight line; bad flags and files are one-line errors.

mod support;

use std::path::Path;
use std::process::Output;

use lielow::datagen::format::read_games;
use lielow_engine::nnue::Network;
use support::{lielow, lielow_command, scratch};

/// A small data file of hand-set games on both sizes.
fn data(dir: &Path) -> String {
    let path = dir.join("data.bin").display().to_string();
    let out = lielow(&[
        "datagen", "-o", &path, "--games", "40", "--nodes", "800", "--eval", "hand-set",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    path
}

fn train(data: &str, output: &str, threads: &str) -> Output {
    lielow(&[
        "train",
        "--data",
        data,
        "-o",
        output,
        "--epochs",
        "4",
        "--batch",
        "256",
        "--rate",
        "0.01",
        "--validation-every",
        "5",
        "--threads",
        threads,
    ])
}

/// The training losses of the loss table's rows, epoch by epoch.
fn training_losses(stdout: &str) -> Vec<f64> {
    stdout
        .lines()
        .filter(|line| line.starts_with("| ") && !line.starts_with("| epoch"))
        .map(|line| {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            cells[3].parse().expect("a loss")
        })
        .collect()
}

#[test]
fn training_is_reproducible_lowers_the_loss_and_writes_a_loadable_network() {
    let dir = scratch("net");
    let data = data(&dir);
    let (one, two) = (dir.join("one.nnue"), dir.join("two.nnue"));
    let out = train(&data, one.to_str().unwrap(), "1");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(train(&data, two.to_str().unwrap(), "2").status.success());
    let bytes = std::fs::read(&one).unwrap();
    assert_eq!(
        bytes,
        std::fs::read(&two).unwrap(),
        "threads change nothing"
    );

    let stdout = String::from_utf8(out.stdout).unwrap();
    let losses = training_losses(&stdout);
    assert_eq!(losses.len(), 4, "one row per epoch:\n{stdout}");
    assert!(
        losses[3] < losses[0],
        "training lowers the loss: {losses:?}"
    );

    let network = Network::from_bytes(&bytes).expect("the engine reads what the trainer writes");
    // The trainer writes the newest version, whose checksum proves the file whole.
    assert_eq!(u16::from_le_bytes([bytes[8], bytes[9]]), 4, "version 4");
    assert!(network.checked());
    assert!(network.description().contains("4 epochs"));
    assert!(network.description().contains("data.bin: 40 games"));

    // Games played with it name it in their header, and a run of other games is not resumed
    // with it.
    let with_net = dir.join("with-net.bin");
    let out = lielow(&[
        "datagen",
        "-o",
        with_net.to_str().unwrap(),
        "--games",
        "4",
        "--nodes",
        "800",
        "--eval",
        one.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let written = read_games(&std::fs::read(&with_net).unwrap()).unwrap();
    assert_eq!(written.games.len(), 4);
    assert!(
        written.settings.contains(" eval=network-"),
        "{}",
        written.settings
    );
    let resumed = lielow(&[
        "datagen",
        "-o",
        &data,
        "--games",
        "40",
        "--nodes",
        "800",
        "--eval",
        one.to_str().unwrap(),
    ]);
    assert_eq!(resumed.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&resumed.stderr).contains("other settings"));

    // The engine plays with it.
    let session = lielow_command()
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = session.stdin.as_ref().unwrap();
    use std::io::Write;
    writeln!(
        stdin,
        "setoption name EvalFile value {}\nposition startpos\neval\ngo depth 3\nquit",
        one.display()
    )
    .unwrap();
    let output = session.wait_with_output().unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(!text.contains("error"), "{text}");
    assert!(text.contains("from the network"), "{text}");
    assert!(text.contains("bestmove "), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn tuning_prints_every_weight_and_keeps_the_unit() {
    let dir = scratch("tune");
    let data = data(&dir);
    let out = lielow(&[
        "tune",
        "--data",
        &data,
        "--steps",
        "30",
        "--validation-every",
        "5",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    for name in ["stacks", "height 1", "height 9", "king attackers", "tempo"] {
        assert!(stdout.contains(&format!("| {name} | ")), "{name}: {stdout}");
    }
    let line = stdout
        .lines()
        .find_map(|line| line.strip_prefix("WEIGHTS = ["))
        .expect("a weight line");
    let weights: Vec<i64> = line
        .trim_end_matches(']')
        .split(", ")
        .map(|w| w.parse().unwrap())
        .collect();
    assert_eq!(weights.len(), lielow_engine::eval::FEATURES);
    assert_eq!(
        weights[lielow_engine::eval::STACKS],
        100,
        "the unit is not tuned"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A reader of the loss table that goes away at once (`lielow train ... | head -1`) costs the
/// table, not the network: the run ends well and writes it.
#[test]
fn a_closed_standard_output_still_gets_the_network_written() {
    let dir = scratch("closed");
    let data = data(&dir);
    let path = dir.join("closed.nnue");
    let mut child = lielow_command()
        .args([
            "train",
            "--data",
            &data,
            "-o",
            path.to_str().unwrap(),
            "--epochs",
            "2",
            "--batch",
            "256",
            "--validation-every",
            "5",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the lielow binary runs");
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    let network = Network::from_bytes(&std::fs::read(&path).unwrap()).expect("a network");
    assert!(network.description().contains("2 epochs"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_flags_and_files_are_one_line_errors() {
    let dir = scratch("errors");
    let not_data = dir.join("not-data.bin");
    std::fs::write(&not_data, b"hello").unwrap();
    let not_data = not_data.display().to_string();
    let missing = dir.join("missing.bin").display().to_string();
    let output = dir.join("out.nnue").display().to_string();
    for args in [
        vec!["train", "--data", &not_data, "-o", &output],
        vec!["train", "--data", &missing, "-o", &output],
        vec![
            "train", "--data", &not_data, "-o", &output, "--lambda", "1.5",
        ],
        vec![
            "train", "--data", &not_data, "-o", &output, "--init", "hand-set",
        ],
        vec![
            "train", "--data", &not_data, "-o", &output, "--init", &missing,
        ],
        vec!["tune", "--data", &not_data],
        vec!["tune", "--data", &missing, "--lambda=-1"],
    ] {
        let out = lielow(&args);
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The flags of a short training on `data` into `path` over `epochs` epochs.
fn small_training<'a>(data: &'a str, path: &'a str, epochs: &'a str) -> [&'a str; 11] {
    [
        "train",
        "--data",
        data,
        "-o",
        path,
        "--epochs",
        epochs,
        "--batch",
        "256",
        "--validation-every",
        "5",
    ]
}

/// The numbers of the loss table's first line: training and validation positions.
fn position_counts(stdout: &str) -> (usize, usize) {
    let numbers: Vec<usize> = stdout
        .lines()
        .next()
        .unwrap_or_default()
        .split(' ')
        .filter_map(|word| word.parse().ok())
        .collect();
    (numbers[0], numbers[1])
}

#[test]
fn mirror_doubles_the_training_positions_and_keeps_the_validation_set() {
    let dir = scratch("mirror");
    let data = data(&dir);
    let run = |output: &Path, extra: &[&str]| {
        let output = output.display().to_string();
        let mut args = vec![
            "train", "--data", &data, "-o", &output, "--epochs", "2", "--batch", "256",
        ];
        args.extend(extra);
        let out = lielow(&args);
        assert!(out.status.success(), "{}", support::stderr(&out));
        (support::stdout(&out), std::fs::read(output).unwrap())
    };
    let (plain_table, plain) = run(&dir.join("plain.nnue"), &[]);
    let (mirror_table, mirror) = run(&dir.join("mirror.nnue"), &["--mirror"]);
    let (_, again) = run(&dir.join("again.nnue"), &["--mirror", "--threads", "1"]);
    let (training, validation) = position_counts(&plain_table);
    assert_eq!(
        position_counts(&mirror_table),
        (2 * training, validation),
        "{mirror_table}"
    );
    // The same validation positions: the hand-set evaluation's loss on them is the same.
    let hand_set = |table: &str| table.lines().nth(1).unwrap().to_owned();
    assert_eq!(hand_set(&mirror_table), hand_set(&plain_table));
    assert_ne!(mirror, plain, "the mirror images are trained on");
    assert_eq!(mirror, again, "mirrored training is reproducible");
    let network = Network::from_bytes(&mirror).unwrap();
    assert!(network
        .description()
        .contains("mirrored training positions"));
    assert!(!Network::from_bytes(&plain)
        .unwrap()
        .description()
        .contains("mirror"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--init` goes on from a network: the new one says where it started, and the errors of a
/// network that cannot be a start name the flag.
#[test]
fn training_goes_on_from_a_network_with_init() {
    let dir = scratch("init");
    let data = data(&dir);
    let path = dir.join("init.nnue").display().to_string();
    let args = [&small_training(&data, &path, "1")[..], &["--init"]].concat();
    let out = lielow(&[&args[..], &["embedded"]].concat());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let network = Network::load(Path::new(&path)).expect("a network");
    assert!(
        network.description().contains("from embedded ("),
        "{}",
        network.description()
    );
    let missing = dir.join("missing.nnue").display().to_string();
    for (bad, names) in [
        (vec!["hand-set"], "--init hand-set"),
        (vec![missing.as_str()], "--init"),
    ] {
        let out = lielow(&[&args[..], &bad[..]].concat());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{bad:?}: {stderr}");
        assert!(stderr.contains(names), "{bad:?}: {stderr}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
