//! The learned evaluation: the incremental accumulator against a full refresh, the integer
//! network against the trainer's float one, the `EvalFile` choices, and damaged or unchecked
//! network files through the binary.

mod support;

use std::io::Write;
use std::process::Stdio;

use lielow::train::model::Model;
use lielow_engine::nnue::{Accumulator, EvalChoice, Network};
use lielow_rules::{BoardSize, Position};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use support::{lielow, lielow_command, scratch, stderr};

/// Positions of random games (every position of each, finished games included).
fn random_games(size: BoardSize, games: usize, seed: u64) -> Vec<Vec<Position>> {
    let mut rng = StdRng::seed_from_u64(seed);
    (0..games)
        .map(|_| {
            let mut position = Position::start(size);
            let mut line = vec![position];
            while !position.is_game_over() && line.len() < 300 {
                let moves = position.legal_moves();
                let mv = *moves
                    .as_slice()
                    .choose(&mut rng)
                    .expect("a live game has moves");
                position = position.play(mv);
                line.push(position);
            }
            line
        })
        .collect()
}

/// A network with the trainer's random initial weights (every weight non-zero, unlike a
/// freshly made file), and the shipped one.
fn networks() -> Vec<Network> {
    vec![
        Model::new(7).quantize(120.0, "random".into()),
        (*Network::embedded()).clone(),
    ]
}

#[test]
fn the_accumulator_updated_move_by_move_equals_a_refresh() {
    for net in networks() {
        for size in [BoardSize::Eight, BoardSize::Nine] {
            for line in random_games(size, 30, 11) {
                let mut accumulator = Accumulator::refresh(&net, &line[0]);
                for pair in line.windows(2) {
                    let mut next = Accumulator::default();
                    next.update_from(&accumulator, &net, &pair[0], &pair[1]);
                    assert_eq!(
                        next,
                        Accumulator::refresh(&net, &pair[1]),
                        "after {}",
                        pair[1]
                    );
                    // The null move (the search's pass) changes nothing the network sees but
                    // the side to move.
                    let passed = pair[1].pass();
                    let mut after_pass = Accumulator::default();
                    after_pass.update_from(&next, &net, &pair[1], &passed);
                    assert_eq!(after_pass, Accumulator::refresh(&net, &passed));
                    accumulator = next;
                }
            }
        }
    }
}

/// The integer network's centipawns differ from the float network's by rounding only: at most
/// 6 cp on every position, and a mean error under 2 cp, at the width of 128. The
/// output sums one rounded term per hidden unit, so the error grows as the square root of the
/// width: a wider build is allowed that much more.
#[test]
fn the_quantized_network_matches_the_float_one() {
    let width = (lielow_engine::nnue::HIDDEN as f32 / 128.0).sqrt();
    let tolerance_cp = 6.0 * width;
    const SCALE: f32 = 120.0;
    let mut rng = StdRng::seed_from_u64(5);
    let model = {
        // Weights of a trained size: the random start, with every weight stretched.
        let mut model = Model::new(3);
        for w in &mut model.params {
            *w *= rng.gen_range(1.0..4.0);
        }
        model.clip();
        model
    };
    let net = model.quantize(SCALE, "test".into());
    let mut total = 0.0;
    let mut count = 0;
    let mut worst = 0.0f32;
    for size in [BoardSize::Eight, BoardSize::Nine] {
        for line in random_games(size, 20, 9) {
            for position in line.iter().filter(|p| !p.is_game_over()) {
                let float = model.evaluate_position(position, SCALE);
                let integer = net.evaluate_position(position) as f32;
                let error = (float - integer).abs();
                worst = worst.max(error);
                assert!(
                    error <= tolerance_cp,
                    "{position}: float {float}, integer {integer}"
                );
                total += error;
                count += 1;
            }
        }
    }
    eprintln!("worst error {worst} cp");
    eprintln!("{count} positions, mean error {} cp", total / count as f32);
    assert!(
        total / count as f32 <= 2.0 * width,
        "mean error {}",
        total / count as f32
    );
}

#[test]
fn a_network_file_round_trips_and_eval_choices_load() {
    let net = Model::new(1).quantize(100.0, "made by a test".into());
    let dir = std::env::temp_dir().join(format!("lielow-nnue-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("test.nnue");
    std::fs::write(&path, net.to_bytes()).unwrap();
    let choice: EvalChoice = path.to_str().unwrap().parse().unwrap();
    let loaded = choice.load().unwrap().expect("a file is a network");
    assert_eq!(loaded.to_bytes(), net.to_bytes());
    assert_eq!(loaded.description(), "made by a test");
    let position = Position::start(BoardSize::Nine);
    assert_eq!(
        loaded.evaluate_position(&position),
        net.evaluate_position(&position)
    );
    assert!("hand-set"
        .parse::<EvalChoice>()
        .unwrap()
        .load()
        .unwrap()
        .is_none());
    assert!("embedded"
        .parse::<EvalChoice>()
        .unwrap()
        .load()
        .unwrap()
        .is_some());
    let missing: EvalChoice = dir.join("missing.nnue").to_str().unwrap().parse().unwrap();
    assert!(missing.load().is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Runs `lielow` with the protocol lines `input` (then `quit`) and returns its output lines.
fn protocol(input: &str) -> Vec<String> {
    let mut child = lielow_command()
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(format!("{input}quit\n").as_bytes())
        .unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

/// A network file the trainer's way (version 4), the same with one byte flipped, and the same
/// network as a version 1 file (no checksum).
fn network_files(dir: &std::path::Path) -> [String; 3] {
    let bytes = Model::new(2)
        .quantize(100.0, "made by a test".into())
        .to_bytes();
    assert_eq!(u16::from_le_bytes([bytes[8], bytes[9]]), 4, "version 4");
    let mut damaged = bytes.clone();
    damaged[bytes.len() / 2] ^= 1;
    let mut old = bytes[..bytes.len() - 4].to_vec();
    old[8] = 1;
    let files = [
        ("good.nnue", bytes),
        ("damaged.nnue", damaged),
        ("old.nnue", old),
    ];
    files.map(|(name, bytes)| {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        path.display().to_string()
    })
}

#[test]
fn a_damaged_network_is_refused_in_one_line_and_the_previous_one_kept() {
    let dir = scratch("damaged");
    let [good, damaged, old] = network_files(&dir);
    let loaded = Network::load(std::path::Path::new(&good)).unwrap();
    assert!(loaded.checked());
    let lines = protocol(&format!(
        "setoption name EvalFile value {good}\nsetoption name EvalFile value {damaged}\neval\n"
    ));
    // One error line (the path quoted, shortened when long), the reason in it.
    let errors: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info string"))
        .collect();
    assert_eq!(errors.len(), 1, "{lines:?}");
    assert!(
        errors[0].starts_with("info string error: EvalFile '/")
            && errors[0]
                .ends_with("': checksum mismatch: the network file is damaged or cut short"),
        "{lines:?}"
    );
    // The network set before is still the one evaluating, and it is a checked one.
    assert!(
        lines.contains(&"Network: made by a test".to_owned()),
        "{lines:?}"
    );
    assert!(!lines.iter().any(|l| l.contains("unchecked")), "{lines:?}");
    // A file of before checksums loads, and `eval` says it is unchecked.
    let lines = protocol(&format!("setoption name EvalFile value {old}\neval\n"));
    assert!(
        lines.contains(&"Network: made by a test".to_owned()),
        "{lines:?}"
    );
    assert!(
        lines.contains(
            &"Network file: format version 1, unchecked (it carries no checksum; version 4 does)"
                .to_owned()
        ),
        "{lines:?}"
    );
    // The command line refuses it with one line and status 2.
    let out = lielow(&["bench", "1", "--eval", &damaged]);
    assert_eq!(out.status.code(), Some(2));
    let message = stderr(&out);
    assert_eq!(message.trim_end().lines().count(), 1, "{message}");
    assert!(message.contains("checksum mismatch"), "{message}");
    std::fs::remove_dir_all(&dir).unwrap();
}
