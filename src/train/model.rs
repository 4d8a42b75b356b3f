//! The network in floating point, as the trainer fits it: its forward pass, its gradient, Adam,
//! and its rounding to the search's integers.
//!
//! All parameters live in one flat vector (input weights, hidden biases, output weights,
//! output biases), so the optimizer and the gradient sums are plain loops over slices.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::data::{sigmoid, Example, Set};
use lielow_engine::nnue::{Network, HIDDEN, INPUTS, QA, QB};

const H: usize = HIDDEN;
/// Offsets in the flat parameter vector.
const W1: usize = 0;
const B1: usize = W1 + INPUTS * H;
const W2: usize = B1 + H;
const B2: usize = W2 + 2 * 2 * H;
/// Number of parameters.
pub const PARAMETERS: usize = B2 + 2;

/// The largest input weight and hidden bias: with at most 81 stacks, a hidden sum stays within
/// ±123, which at the scale `QA` fits the search's 16-bit sums.
const INPUT_CLIP: f32 = 1.5;
/// The largest output weight (far inside what 16 bits hold at the scale `QB`).
const OUTPUT_CLIP: f32 = 8.0;

/// The float network.
#[derive(Clone)]
pub struct Model {
    /// Input weights, hidden biases, output weights, output biases.
    pub params: Vec<f32>,
}

/// The hidden layer of one example, kept for the backward pass.
pub struct Hidden {
    ours: [f32; H],
    theirs: [f32; H],
}

impl Model {
    /// A network with small random weights drawn from `seed`.
    pub fn new(seed: u64) -> Model {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut params = vec![0.0; PARAMETERS];
        // About 30 stacks feed each unit: weights of this size give sums of order one.
        for w in &mut params[W1..B1] {
            *w = rng.gen_range(-0.1..0.1);
        }
        for b in &mut params[B1..W2] {
            *b = rng.gen_range(0.0..0.5);
        }
        let bound = 1.0 / (2.0 * H as f32).sqrt();
        for w in &mut params[W2..B2] {
            *w = rng.gen_range(-bound..bound);
        }
        Model { params }
    }

    /// The hidden sums of one point of view.
    #[inline]
    fn hidden_sums(&self, inputs: &[u16], out: &mut [f32; H]) {
        out.copy_from_slice(&self.params[B1..W2]);
        for &input in inputs {
            let row = &self.params[W1 + usize::from(input) * H..][..H];
            for (o, w) in out.iter_mut().zip(row) {
                *o += w;
            }
        }
    }

    /// The output (in units of the target's logistic) of an example, and its hidden layer.
    #[inline]
    pub fn forward(&self, set: &Set, example: &Example, hidden: &mut Hidden) -> f32 {
        let (ours, theirs) = set.inputs_of(example);
        self.hidden_sums(ours, &mut hidden.ours);
        self.hidden_sums(theirs, &mut hidden.theirs);
        let block = usize::from(example.size_block);
        let weights = &self.params[W2 + block * 2 * H..][..2 * H];
        let mut y = self.params[B2 + block];
        for (h, w) in hidden.ours.iter().chain(&hidden.theirs).zip(weights) {
            y += h.clamp(0.0, 1.0) * w;
        }
        y
    }

    /// Adds the gradient of `d_output × output` for an example to `gradient`.
    #[inline]
    pub fn backward(
        &self,
        set: &Set,
        example: &Example,
        hidden: &Hidden,
        d_output: f32,
        gradient: &mut [f32],
    ) {
        let block = usize::from(example.size_block);
        let w2 = W2 + block * 2 * H;
        gradient[B2 + block] += d_output;
        let (ours, theirs) = set.inputs_of(example);
        for (half, (sums, inputs)) in [(&hidden.ours, ours), (&hidden.theirs, theirs)]
            .into_iter()
            .enumerate()
        {
            let mut d_sums = [0.0f32; H];
            let weights = &self.params[w2 + half * H..][..H];
            let d_weights = &mut gradient[w2 + half * H..][..H];
            for i in 0..H {
                let s = sums[i];
                d_weights[i] += d_output * s.clamp(0.0, 1.0);
                d_sums[i] = if s > 0.0 && s < 1.0 {
                    d_output * weights[i]
                } else {
                    0.0
                };
            }
            for (g, d) in gradient[B1..W2].iter_mut().zip(&d_sums) {
                *g += d;
            }
            for &input in inputs {
                let row = &mut gradient[W1 + usize::from(input) * H..][..H];
                for (g, d) in row.iter_mut().zip(&d_sums) {
                    *g += d;
                }
            }
        }
    }

    /// The float output of `position`, in centipawns at `scale` (what the quantized network
    /// approximates).
    pub fn evaluate_position(
        &self,
        position: &lielow_rules::position::Position,
        scale: f32,
    ) -> f32 {
        let mut set = Set::default();
        set.push(position, 0, 1, false);
        self.forward(&set, &set.examples[0], &mut Hidden::default()) * scale
    }

    /// Keeps the weights where the integer network can hold them.
    pub fn clip(&mut self) {
        for w in &mut self.params[W1..W2] {
            *w = w.clamp(-INPUT_CLIP, INPUT_CLIP);
        }
        for w in &mut self.params[W2..B2] {
            *w = w.clamp(-OUTPUT_CLIP, OUTPUT_CLIP);
        }
    }

    /// The search's network: the weights rounded at the scales `QA` and `QB`; `scale` converts
    /// the output to centipawns.
    pub fn quantize(&self, scale: f32, description: String) -> Network {
        let round16 = |w: f32, q: i32| (w * q as f32).round() as i16;
        let mut input_weights = vec![[0i16; H]; INPUTS];
        for (input, row) in input_weights.iter_mut().enumerate() {
            for (q, w) in row.iter_mut().zip(&self.params[W1 + input * H..][..H]) {
                *q = round16(*w, QA);
            }
        }
        let mut hidden_bias = [0i16; H];
        for (q, b) in hidden_bias.iter_mut().zip(&self.params[B1..W2]) {
            *q = round16(*b, QA);
        }
        let mut output_weights = [[0i16; 2 * H]; 2];
        for (block, weights) in output_weights.iter_mut().enumerate() {
            for (q, w) in weights
                .iter_mut()
                .zip(&self.params[W2 + block * 2 * H..][..2 * H])
            {
                *q = round16(*w, QB);
            }
        }
        let output_bias =
            [0, 1].map(|block| (self.params[B2 + block] * (QA * QB) as f32).round() as i32);
        Network::from_parts(
            input_weights,
            hidden_bias,
            output_weights,
            output_bias,
            scale.round() as i32,
            description,
        )
    }
}

impl Default for Hidden {
    fn default() -> Self {
        Hidden {
            ours: [0.0; H],
            theirs: [0.0; H],
        }
    }
}

/// The mean squared error of the predictions `sigmoid(output)` of `model` on `set` against
/// `target`, computed in parallel.
pub fn loss(model: &Model, set: &Set, target: &super::data::Target) -> f64 {
    use rayon::prelude::*;
    let total: f64 = set
        .examples
        .par_chunks(4096)
        .map(|chunk| {
            let mut hidden = Hidden::default();
            chunk
                .iter()
                .map(|example| {
                    let p = sigmoid(model.forward(set, example, &mut hidden));
                    let error = p - target.of(example.score, example.result);
                    f64::from(error * error)
                })
                .sum::<f64>()
        })
        .collect::<Vec<f64>>()
        .iter()
        .sum();
    total / set.examples.len() as f64
}

/// Adam (Kingma and Ba), with its two moment estimates per parameter.
pub struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    steps: i32,
}

impl Adam {
    const BETA1: f32 = 0.9;
    const BETA2: f32 = 0.999;
    const EPSILON: f32 = 1e-8;

    /// An optimizer for `parameters` parameters.
    pub fn new(parameters: usize) -> Adam {
        Adam {
            m: vec![0.0; parameters],
            v: vec![0.0; parameters],
            steps: 0,
        }
    }

    /// One step of size `rate` against `gradient`.
    pub fn step(&mut self, params: &mut [f32], gradient: &[f32], rate: f32) {
        self.steps += 1;
        let correction1 = 1.0 - Self::BETA1.powi(self.steps);
        let correction2 = 1.0 - Self::BETA2.powi(self.steps);
        let step = rate * correction2.sqrt() / correction1;
        for (((p, g), m), v) in params
            .iter_mut()
            .zip(gradient)
            .zip(&mut self.m)
            .zip(&mut self.v)
        {
            *m = Self::BETA1 * *m + (1.0 - Self::BETA1) * g;
            *v = Self::BETA2 * *v + (1.0 - Self::BETA2) * g * g;
            *p -= step * *m / (v.sqrt() + Self::EPSILON);
        }
    }
}
