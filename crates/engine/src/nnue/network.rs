//! The quantized network the search evaluates with (its file is module `file`).
//!
//! The float network the trainer fits is `y = b2 + w2 · clamp(b1 + Σ W1[input], 0, 1)` over both
//! points of view, with one output layer (`w2`, `b2`) per board size; these are its weights rounded to integers at the scales `QA` and `QB`, so
//! the search adds and multiplies 16-bit integers (which the x86-64-v3 build does 16 at a
//! time) and the result differs from the float output only by rounding.

use std::sync::{Arc, OnceLock};

use crate::score::Score;
use lielow_rules::board::BoardSize;

pub use super::features::INPUTS;

/// Width of the hidden layer, per point of view: the one constant that sets it, for the
/// engine's kernels and the trainer alike (a multiple of 16, the kernels' chunk). A file of a
/// narrower network reads as this width with the extra units silent (module `file`), so the
/// shipped network still plays, unchanged, in a program built wider.
pub const HIDDEN: usize = 128;
/// Scale of the input weights and hidden biases: 1.0 is `QA`, and the clipped activation runs
/// from 0 to `QA`.
pub const QA: i32 = 255;
/// Scale of the output weights.
pub const QB: i32 = 256;
/// The largest score the network gives, below every proven result.
const MAX_EVAL: i32 = Score::MATE_BOUND - 1;

/// The shipped network, built into the binary.
pub(super) static EMBEDDED_BYTES: &[u8] = include_bytes!("../../nets/lielow.nnue");

/// One output layer's weights: the side to move's half, then the other side's.
pub type OutputWeights = [i16; 2 * HIDDEN];

/// A network ready for the search.
#[derive(Clone)]
pub struct Network {
    /// `INPUTS` rows of `HIDDEN`.
    pub(super) input_weights: Vec<[i16; HIDDEN]>,
    pub(super) hidden_bias: [i16; HIDDEN],
    /// One layer per board size, 8x8 first.
    pub(super) output_weights: [OutputWeights; 2],
    /// One per board size, as `output_weights`.
    pub(super) output_bias: [i32; 2],
    /// Hidden units the file had (at most `HIDDEN`; the rest are zero): what
    /// [`Network::to_bytes`] writes back.
    pub(super) width: usize,
    pub(super) scale: i32,
    pub(super) description: String,
    /// The format version of the file it was read from ([`super::VERSION`] for one built
    /// from parts, which has no file and writes that version).
    pub(super) version: u16,
}

impl Network {
    /// The network built into the program.
    pub fn embedded() -> Arc<Network> {
        static EMBEDDED: OnceLock<Arc<Network>> = OnceLock::new();
        EMBEDDED
            .get_or_init(|| {
                Arc::new(
                    Network::from_bytes(EMBEDDED_BYTES).expect("the embedded network is valid"),
                )
            })
            .clone()
    }

    /// A network from quantized parts (the trainer's output): `output_weights` and
    /// `output_bias` hold one layer per board size, 8x8's first.
    pub fn from_parts(
        input_weights: Vec<[i16; HIDDEN]>,
        hidden_bias: [i16; HIDDEN],
        output_weights: [OutputWeights; 2],
        output_bias: [i32; 2],
        scale: i32,
        description: String,
    ) -> Network {
        assert_eq!(input_weights.len(), INPUTS, "one row per input");
        Network {
            input_weights,
            hidden_bias,
            output_weights,
            output_bias,
            width: HIDDEN,
            scale: scale.max(1),
            description,
            version: super::VERSION,
        }
    }

    /// How the network was made (the trainer's record).
    pub fn description(&self) -> &str {
        &self.description
    }

    /// The format version of the file it was read from (the newest, [`super::VERSION`], for
    /// a network built from parts).
    pub fn file_version(&self) -> u16 {
        self.version
    }

    /// Whether its file proved itself whole: a version 3 or 4 file's CRC-32 matched its bytes.
    /// Versions 1 and 2 carry no checksum, so a network read from one is unchecked (`eval`
    /// says so); one built from parts has no file to damage.
    pub fn checked(&self) -> bool {
        super::file::has_checksum(self.version)
    }

    /// Centipawns per unit of the float output.
    pub fn scale(&self) -> i32 {
        self.scale
    }

    /// The input weights at the scale `QA`: one row of `HIDDEN` per input (what a trainer
    /// starts from when it goes on from this network).
    pub fn input_weights(&self) -> &[[i16; HIDDEN]] {
        &self.input_weights
    }

    /// The hidden biases at the scale `QA`.
    pub fn hidden_bias(&self) -> &[i16; HIDDEN] {
        &self.hidden_bias
    }

    /// The output layers' weights at the scale `QB`, one per board size (8x8 first).
    pub fn output_weights(&self) -> &[OutputWeights; 2] {
        &self.output_weights
    }

    /// The output layers' biases at the scale `QA × QB`, indexed as [`Network::output_weights`].
    pub fn output_bias(&self) -> &[i32; 2] {
        &self.output_bias
    }

    /// The output, in centipawns for the side to move, from the hidden sums seen by the side
    /// to move (`ours`) and by the other side (`theirs`) on a board of `size`, which chooses
    /// the output layer.
    #[inline(always)]
    pub fn output(&self, ours: &[i16; HIDDEN], theirs: &[i16; HIDDEN], size: BoardSize) -> i32 {
        let layer = usize::from(size == BoardSize::Nine);
        let weights = &self.output_weights[layer];
        let sum = activated_dot(ours, &weights[..HIDDEN])
            + activated_dot(theirs, &weights[HIDDEN..])
            + self.output_bias[layer];
        let centipawns = i64::from(sum) * i64::from(self.scale) / i64::from(QA * QB);
        centipawns.clamp(-i64::from(MAX_EVAL), i64::from(MAX_EVAL)) as i32
    }
}

/// `Σ clamp(values[i], 0, QA) × weights[i]`: a loop the compiler turns into 16-lane integer
/// multiply-adds.
#[inline]
fn activated_dot(values: &[i16; HIDDEN], weights: &[i16]) -> i32 {
    values
        .iter()
        .zip(weights)
        .map(|(&v, &w)| i32::from(v.clamp(0, QA as i16)) * i32::from(w))
        .sum()
}
