//! Training positions read from `lielow datagen` files, with their targets, split into a
//! training and a validation set by game (a game's positions are alike, so a split by position
//! would let the validation loss see its training positions' twins).

use std::path::PathBuf;

use super::mirror::mirrored;
use super::TrainError;
use crate::datagen::format;
use crate::files;
use lielow_engine::eval;
use lielow_engine::nnue::features;
use lielow_rules::position::Position;

/// What a position's prediction is compared with: `lambda` of the search score's win
/// probability and the rest of the game's result.
#[derive(Clone, Copy, Debug)]
pub struct Target {
    /// Weight of the search score (0: the result alone).
    pub lambda: f32,
    /// Centipawns per unit of the logistic: a score of `scale` is a 73% expectation.
    pub scale: f32,
}

impl Target {
    /// The target of a position with search `score` and `result` (1 or -1), both for the side
    /// to move.
    pub fn of(&self, score: i16, result: i8) -> f32 {
        let from_score = sigmoid(f32::from(score) / self.scale);
        let from_result = if result > 0 { 1.0 } else { 0.0 };
        self.lambda * from_score + (1.0 - self.lambda) * from_result
    }
}

/// The logistic function.
#[inline]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// One position as the trainer needs it.
#[derive(Clone, Copy, Debug)]
pub struct Example {
    /// Where its inputs start in [`Set::inputs`]: `stacks` inputs seen by the side to move,
    /// then `stacks` seen by the other side.
    pub start: u32,
    /// Stacks on the board (inputs per point of view).
    pub stacks: u8,
    /// 0 for 8x8, 1 for 9x9.
    pub size_block: u8,
    /// The search's score for the side to move.
    pub score: i16,
    /// The game's result for the side to move: 1 or -1.
    pub result: i8,
    /// The hand-set evaluation (for comparison).
    pub hand_set: i16,
}

/// A set of examples and their network inputs.
#[derive(Default)]
pub struct Set {
    /// The positions.
    pub examples: Vec<Example>,
    /// The network inputs of every position, one after the other.
    pub inputs: Vec<u16>,
    /// The hand-set evaluation's features of each example (filled only when asked for).
    pub eval_features: Vec<[i32; eval::FEATURES]>,
}

impl Set {
    /// Adds `position` with its search `score` and game `result` (1 or -1, for the side to
    /// move); `with_features` also keeps the hand-set evaluation's features.
    pub fn push(&mut self, position: &Position, score: i16, result: i8, with_features: bool) {
        let us = position.side_to_move();
        let start = self.inputs.len() as u32;
        for viewer in [us, us.opponent()] {
            features::for_each_active(position, viewer, |input| self.inputs.push(input as u16));
        }
        let stacks = ((self.inputs.len() as u32 - start) / 2) as u8;
        let hand_set = eval::evaluate(position).clamp(i16::MIN.into(), i16::MAX.into()) as i16;
        self.examples.push(Example {
            start,
            stacks,
            size_block: u8::from(position.size() == lielow_rules::board::BoardSize::Nine),
            score,
            result,
            hand_set,
        });
        if with_features {
            self.eval_features.push(eval::features(position));
        }
    }

    /// The inputs of `example` seen by the side to move and by the other side.
    #[inline]
    pub fn inputs_of(&self, example: &Example) -> (&[u16], &[u16]) {
        let start = example.start as usize;
        let n = usize::from(example.stacks);
        (
            &self.inputs[start..start + n],
            &self.inputs[start + n..start + 2 * n],
        )
    }
}

/// The data of a training run.
pub struct Data {
    /// The positions fitted.
    pub train: Set,
    /// The positions held out to measure the fit.
    pub validation: Set,
    /// One line per file: its name, settings and size, for the network's record.
    pub sources: Vec<String>,
}

/// How [`load`] reads the games.
#[derive(Clone, Copy, Debug)]
pub struct Loading {
    /// Every this many-th game (counted over all files) goes to the validation set.
    pub validation_every: u64,
    /// Also keep the hand-set evaluation's features (Texel tuning).
    pub with_features: bool,
    /// Add each training position's mirror image ([`mirrored`]) right after it, with the
    /// same score and result; the validation set stays as played, so that its losses compare
    /// with those of runs without.
    pub mirror: bool,
}

/// Reads `files` into a training and a validation set as `loading` says.
pub fn load(files: &[PathBuf], loading: Loading) -> Result<Data, TrainError> {
    let Loading {
        validation_every,
        with_features,
        mirror,
    } = loading;
    let mut data = Data {
        train: Set::default(),
        validation: Set::default(),
        sources: Vec::new(),
    };
    let mut game_index = 0u64;
    for path in files {
        let bytes = files::read_bytes(path, files::limits::DATA)?;
        let file = format::read_games(&bytes).map_err(|error| TrainError::Data {
            path: path.clone(),
            error,
        })?;
        if file.complete < bytes.len() {
            eprintln!(
                "lielow: warning: {}: the last {} bytes are a game cut short; left out",
                path.display(),
                bytes.len() - file.complete
            );
        }
        let mut positions = 0usize;
        for game in &file.games {
            let validation = game_index.is_multiple_of(validation_every);
            let set = if validation {
                &mut data.validation
            } else {
                &mut data.train
            };
            game_index += 1;
            for sample in &game.samples {
                set.push(&sample.position, sample.score, sample.result, with_features);
                if mirror && !validation {
                    let image = mirrored(&sample.position);
                    set.push(&image, sample.score, sample.result, with_features);
                }
                positions += 1;
            }
        }
        // Example::start is a u32: refuse more inputs than it can point into, never wrap.
        if data.train.inputs.len() > u32::MAX as usize {
            return Err(TrainError::TooMuchData {
                inputs: data.train.inputs.len(),
            });
        }
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |name| name.to_string_lossy().into_owned(),
        );
        data.sources.push(format!(
            "{name}: {} games, {positions} positions ({})",
            file.games.len(),
            file.settings
        ));
    }
    if data.train.examples.is_empty() || data.validation.examples.is_empty() {
        return Err(TrainError::TooLittleData {
            training: data.train.examples.len(),
            validation: data.validation.examples.len(),
        });
    }
    Ok(data)
}
