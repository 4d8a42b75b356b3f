//! The network in floating point, as the trainer fits it: its forward pass, its gradient, Adam,
//! and its rounding to the search's integers.
//!
//! All parameters live in one flat vector (input weights, hidden biases, output weights,
//! output biases), so the optimizer and the gradient sums are plain loops over slices. The
//! width is the engine's [`HIDDEN`]; the output layers are one per board size, 8x8's first,
//! as in the network file.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::data::{sigmoid, Example, Set};
use lielow_engine::nnue::{Network, OutputWeights, HIDDEN, INPUTS, QA, QB};

const H: usize = HIDDEN;
/// Offsets in the flat parameter vector: input weights, hidden biases, the output weights of
/// each board size, their biases.
const W1: usize = 0;
const B1: usize = W1 + INPUTS * H;
const W2: usize = B1 + H;
const B2: usize = W2 + 2 * 2 * H;
const PARAMETERS: usize = B2 + 2;

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

    /// The float network that `network` rounds, to go on training from it: its weights divided
    /// by their scales, with the output layers rescaled from the network's centipawns per unit
    /// to `scale`'s, so that the model's output in centipawns is the network's.
    pub fn from_network(network: &Network, scale: f32) -> Model {
        let mut params = Vec::with_capacity(PARAMETERS);
        let qa = QA as f32;
        for row in network.input_weights() {
            params.extend(row.iter().map(|&w| f32::from(w) / qa));
        }
        params.extend(network.hidden_bias().iter().map(|&b| f32::from(b) / qa));
        let output_factor = network.scale() as f32 / scale;
        for layer in network.output_weights() {
            params.extend(
                layer
                    .iter()
                    .map(|&w| f32::from(w) / QB as f32 * output_factor),
            );
        }
        params.extend(
            network
                .output_bias()
                .iter()
                .map(|&b| b as f32 / (QA * QB) as f32 * output_factor),
        );
        debug_assert_eq!(params.len(), PARAMETERS);
        Model { params }
    }

    /// Number of parameters.
    pub fn parameters(&self) -> usize {
        self.params.len()
    }

    /// The output layer of `example`: its board size's.
    #[inline]
    fn layer(example: &Example) -> usize {
        usize::from(example.size_block)
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
        let layer = Model::layer(example);
        let weights = &self.params[W2 + layer * 2 * H..][..2 * H];
        let mut y = self.params[B2 + layer];
        for (h, w) in hidden.ours.iter().chain(&hidden.theirs).zip(weights) {
            y += h.clamp(0.0, 1.0) * w;
        }
        y
    }

    /// Adds the gradient of `d_output × output` for an example to `gradient`: of the output
    /// layers, only the example's board size's gets any.
    #[inline]
    pub fn backward(
        &self,
        set: &Set,
        example: &Example,
        hidden: &Hidden,
        d_output: f32,
        gradient: &mut [f32],
    ) {
        let layer = Model::layer(example);
        let w2 = W2 + layer * 2 * H;
        gradient[B2 + layer] += d_output;
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
        let output_weights: [OutputWeights; 2] = std::array::from_fn(|size| {
            let layer = &self.params[W2 + size * 2 * H..][..2 * H];
            std::array::from_fn(|i| round16(layer[i], QB))
        });
        let output_bias =
            std::array::from_fn(|size| (self.params[B2 + size] * (QA * QB) as f32).round() as i32);
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

#[cfg(test)]
mod tests {
    use super::*;
    use lielow_rules::board::BoardSize;
    use lielow_rules::position::Position;
    use rand::seq::SliceRandom;

    /// Positions of one random game of `size`, from the start to its end.
    fn game(size: BoardSize, rng: &mut StdRng) -> Vec<Position> {
        let mut position = Position::start(size);
        let mut line = vec![position];
        while !position.is_game_over() && line.len() < 300 {
            let moves = position.legal_moves();
            position = position.play(*moves.as_slice().choose(rng).expect("a live game"));
            line.push(position);
        }
        line
    }

    /// The positions of four random games of each size drawn from `seed`.
    fn games_of_both_sizes(seed: u64) -> Set {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut set = Set::default();
        for size in [BoardSize::Eight, BoardSize::Nine] {
            for _ in 0..4 {
                for position in game(size, &mut rng) {
                    set.push(&position, 0, 1, false);
                }
            }
        }
        set
    }

    /// Each example's gradient reaches its board size's output layer and not the other's, and
    /// the forward pass reads that layer.
    #[test]
    fn an_example_moves_only_its_board_sizes_output_layer() {
        let model = Model::new(2);
        assert_eq!(model.parameters(), W2 + 2 * 2 * H + 2);
        let set = games_of_both_sizes(3);
        let mut layers_seen = [false; 2];
        let mut changed = model.clone();
        for example in &set.examples {
            let layer = Model::layer(example);
            layers_seen[layer] = true;
            let mut hidden = Hidden::default();
            model.forward(&set, example, &mut hidden);
            let mut gradient = vec![0.0; model.parameters()];
            model.backward(&set, example, &hidden, 1.0, &mut gradient);
            for other in 0..2 {
                let weights = &gradient[W2 + other * 2 * H..][..2 * H];
                let moved = weights.iter().any(|&g| g != 0.0) || gradient[B2 + other] != 0.0;
                assert_eq!(
                    moved,
                    other == layer,
                    "layer {other} of example {example:?}"
                );
            }
            // Changing the other layer's bias leaves the output alone; its own changes it.
            let before = model.forward(&set, example, &mut hidden);
            let other = B2 + 1 - layer;
            changed.params[other] = model.params[other] + 1.0;
            assert_eq!(changed.forward(&set, example, &mut hidden), before);
            changed.params[other] = model.params[other];
            changed.params[B2 + layer] = model.params[B2 + layer] + 1.0;
            let moved = changed.forward(&set, example, &mut hidden);
            assert!((moved - before - 1.0).abs() < 1e-4, "{moved} {before}");
            changed.params[B2 + layer] = model.params[B2 + layer];
        }
        assert_eq!(layers_seen, [true, true]);
    }

    /// A network read back as a float model rounds to itself, at its own scale and at
    /// another one (where the output layers carry the difference).
    #[test]
    fn a_network_read_back_rounds_to_itself() {
        let network = Network::embedded();
        let same = Model::from_network(&network, network.scale() as f32)
            .quantize(network.scale() as f32, "again".into());
        assert_eq!(same.input_weights(), network.input_weights());
        assert_eq!(same.hidden_bias(), network.hidden_bias());
        assert_eq!(same.output_weights(), network.output_weights());
        assert_eq!(same.output_bias(), network.output_bias());
        let mut rng = StdRng::seed_from_u64(7);
        let rescaled = Model::from_network(&network, 2.0 * network.scale() as f32);
        for size in [BoardSize::Eight, BoardSize::Nine] {
            for position in game(size, &mut rng) {
                let float = rescaled.evaluate_position(&position, 2.0 * network.scale() as f32);
                let integer = network.evaluate_position(&position) as f32;
                assert!(
                    (float - integer).abs() <= 6.0 || integer.abs() >= 30_000.0,
                    "{position}: {float} {integer}"
                );
            }
        }
    }

    /// The rounded network picks the same layer as the float one: its evaluations differ by
    /// rounding only.
    #[test]
    fn the_quantized_network_evaluates_as_the_float_one() {
        let mut model = Model::new(5);
        // Layers far apart, so that a wrong one would be far off.
        model.params[B2] = -2.0;
        model.params[B2 + 1] = 1.5;
        let net = model.quantize(120.0, "test".into());
        let mut rng = StdRng::seed_from_u64(6);
        for size in [BoardSize::Eight, BoardSize::Nine] {
            for position in game(size, &mut rng) {
                let float = model.evaluate_position(&position, 120.0);
                let integer = net.evaluate_position(&position) as f32;
                assert!(
                    (float - integer).abs() <= 6.0,
                    "{position}: {float} {integer}"
                );
            }
        }
    }
}
