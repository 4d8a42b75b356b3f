//! The quantized network and its file format.
//!
//! The file (all numbers little-endian):
//!
//! | bytes | what |
//! |---|---|
//! | 8 | `LIELOWNN` |
//! | 2 | version, 1 |
//! | 2 | hidden width, [`HIDDEN`] |
//! | 4 | inputs, [`INPUTS`] |
//! | 4 | scale: centipawns per unit of the float output |
//! | 4 + n | how the net was made: its length, then UTF-8 text |
//! | 2 × INPUTS × HIDDEN | input weights, input by input (i16, × [`QA`]) |
//! | 2 × HIDDEN | hidden biases (i16, × `QA`) |
//! | 2 × 2 × 2 × HIDDEN | output weights per board size (8x8 first), side to move's half first (i16, × [`QB`]) |
//! | 4 × 2 | output bias per board size (i32, × `QA` × `QB`) |
//!
//! The float network the trainer fits is `y = b2 + w2 · clamp(b1 + Σ W1[input], 0, 1)` over both
//! points of view; these are its weights rounded to integers at the scales `QA` and `QB`, so
//! the search adds and multiplies 16-bit integers (which the x86-64-v3 build does 16 at a
//! time) and the result differs from the float output only by rounding.

use std::fmt;
use std::sync::{Arc, OnceLock};

pub use super::features::INPUTS;
use crate::score::Score;
use lielow_rules::board::BoardSize;

/// Width of the hidden layer, per point of view.
pub const HIDDEN: usize = 128;
/// Scale of the input weights and hidden biases: 1.0 is `QA`, and the clipped activation runs
/// from 0 to `QA`.
pub const QA: i32 = 255;
/// Scale of the output weights.
pub const QB: i32 = 256;
/// The file's first bytes.
pub const MAGIC: &[u8; 8] = b"LIELOWNN";
/// The version written and read.
pub const VERSION: u16 = 1;
/// The largest score the network gives, below every proven result.
const MAX_EVAL: i32 = Score::MATE_BOUND - 1;

/// The shipped network, built into the binary.
static EMBEDDED_BYTES: &[u8] = include_bytes!("../../nets/lielow.nnue");

/// A network ready for the search.
#[derive(Clone)]
pub struct Network {
    /// `INPUTS` rows of `HIDDEN`.
    pub(super) input_weights: Vec<[i16; HIDDEN]>,
    pub(super) hidden_bias: [i16; HIDDEN],
    /// Per board size: the side to move's half, then the other side's.
    output_weights: [[i16; 2 * HIDDEN]; 2],
    output_bias: [i32; 2],
    scale: i32,
    description: String,
}

/// The fixed part of a network file: magic, version, hidden width, inputs, scale, description
/// length.
const HEADER_BYTES: usize = 8 + 2 + 2 + 4 + 4 + 4;
/// The weights and biases of a network of this program's shape.
const WEIGHT_BYTES: usize = 2 * (INPUTS * HIDDEN + HIDDEN + 4 * HIDDEN) + 8;
/// The longest description [`Network::load`] reads (the trainer's names its settings and data
/// files in a few hundred bytes).
const MAX_DESCRIPTION_BYTES: usize = 1 << 20;
/// The largest network file [`Network::load`] reads.
pub const MAX_FILE_BYTES: u64 = (HEADER_BYTES + WEIGHT_BYTES + MAX_DESCRIPTION_BYTES) as u64;

/// Why a network file cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NetError {
    /// Not a network file.
    Magic,
    /// Another version of the format.
    Version(u16),
    /// A network of another shape than this program's.
    Shape {
        /// The file's hidden width.
        hidden: usize,
        /// The file's input count.
        inputs: usize,
    },
    /// The file ends early, or goes on after the network.
    Length {
        /// Bytes the header says the file has.
        expected: usize,
        /// Bytes it has.
        found: usize,
    },
    /// The description is not UTF-8.
    Description,
    /// A scale of zero or less.
    Scale(i32),
    /// The file cannot be read (the system's reason; the caller knows the path).
    Io(String),
    /// Not a regular file (a directory, a FIFO, a device): never opened, since opening a FIFO
    /// blocks and a device such as `/dev/zero` never ends.
    NotRegular,
    /// Larger than any network file of this program's shape (the limit in bytes).
    TooLarge(u64),
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::Magic => f.write_str("not a lielow network file (no LIELOWNN header)"),
            NetError::Version(v) => write!(f, "network format version {v}, this program reads {VERSION}"),
            NetError::Shape { hidden, inputs } => write!(
                f,
                "a network of {inputs} inputs and {hidden} hidden units; this program uses {INPUTS} and {HIDDEN}"
            ),
            NetError::Length { expected, found } => {
                write!(f, "the network file has {found} bytes where its header says {expected}")
            }
            NetError::Description => f.write_str("the network's description is not UTF-8"),
            NetError::Scale(scale) => write!(f, "the network's scale {scale} is not positive"),
            NetError::Io(error) => write!(f, "cannot read the file: {error}"),
            NetError::NotRegular => f.write_str("cannot read the file: not a regular file"),
            NetError::TooLarge(limit) => write!(
                f,
                "the file has more than {limit} bytes, more than a network of this shape"
            ),
        }
    }
}

impl std::error::Error for NetError {}

/// Reads little-endian numbers off the front of a byte slice.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let mut out = [0; N];
        out.copy_from_slice(&self.bytes[self.at..self.at + N]);
        self.at += N;
        out
    }
    fn i16(&mut self) -> i16 {
        i16::from_le_bytes(self.take())
    }
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

    /// Reads a network file: a regular file only (its type checked before it is opened, so a
    /// FIFO never blocks the protocol's input loop), and at most `MAX_FILE_BYTES` of it.
    pub fn load(path: &std::path::Path) -> Result<Network, NetError> {
        use std::io::Read;
        let io = |error: std::io::Error| NetError::Io(error.to_string());
        let metadata = std::fs::metadata(path).map_err(io)?;
        if !metadata.is_file() {
            return Err(NetError::NotRegular);
        }
        if metadata.len() > MAX_FILE_BYTES {
            return Err(NetError::TooLarge(MAX_FILE_BYTES));
        }
        let mut bytes = Vec::new();
        std::fs::File::open(path)
            .map_err(io)?
            .take(MAX_FILE_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(io)?;
        if bytes.len() as u64 > MAX_FILE_BYTES {
            return Err(NetError::TooLarge(MAX_FILE_BYTES));
        }
        Network::from_bytes(&bytes)
    }

    /// A network from the bytes of its file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        const FIXED: usize = HEADER_BYTES;
        if bytes.len() < FIXED || &bytes[..8] != MAGIC {
            return Err(NetError::Magic);
        }
        let mut reader = Reader { bytes, at: 8 };
        let version = u16::from_le_bytes(reader.take());
        if version != VERSION {
            return Err(NetError::Version(version));
        }
        let hidden = u16::from_le_bytes(reader.take()) as usize;
        let inputs = u32::from_le_bytes(reader.take()) as usize;
        if hidden != HIDDEN || inputs != INPUTS {
            return Err(NetError::Shape { hidden, inputs });
        }
        let scale = i32::from_le_bytes(reader.take());
        if scale <= 0 {
            return Err(NetError::Scale(scale));
        }
        let description_len = u32::from_le_bytes(reader.take()) as usize;
        let expected = FIXED
            .saturating_add(description_len)
            .saturating_add(WEIGHT_BYTES);
        if bytes.len() != expected {
            return Err(NetError::Length {
                expected,
                found: bytes.len(),
            });
        }
        let description = std::str::from_utf8(&bytes[FIXED..FIXED + description_len])
            .map_err(|_| NetError::Description)?
            .to_string();
        reader.at = FIXED + description_len;
        let mut input_weights = vec![[0i16; HIDDEN]; INPUTS];
        for row in &mut input_weights {
            row.iter_mut().for_each(|w| *w = reader.i16());
        }
        let mut hidden_bias = [0; HIDDEN];
        hidden_bias.iter_mut().for_each(|b| *b = reader.i16());
        let mut output_weights = [[0; 2 * HIDDEN]; 2];
        for size in &mut output_weights {
            size.iter_mut().for_each(|w| *w = reader.i16());
        }
        let output_bias = [
            i32::from_le_bytes(reader.take()),
            i32::from_le_bytes(reader.take()),
        ];
        Ok(Network {
            input_weights,
            hidden_bias,
            output_weights,
            output_bias,
            scale,
            description,
        })
    }

    /// A network from quantized parts (the trainer's output).
    pub fn from_parts(
        input_weights: Vec<[i16; HIDDEN]>,
        hidden_bias: [i16; HIDDEN],
        output_weights: [[i16; 2 * HIDDEN]; 2],
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
            scale: scale.max(1),
            description,
        }
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(2 * INPUTS * HIDDEN + 4096);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(HIDDEN as u16).to_le_bytes());
        out.extend_from_slice(&(INPUTS as u32).to_le_bytes());
        out.extend_from_slice(&self.scale.to_le_bytes());
        out.extend_from_slice(&(self.description.len() as u32).to_le_bytes());
        out.extend_from_slice(self.description.as_bytes());
        for row in &self.input_weights {
            row.iter()
                .for_each(|w| out.extend_from_slice(&w.to_le_bytes()));
        }
        for w in self
            .hidden_bias
            .iter()
            .chain(self.output_weights.iter().flatten())
        {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for b in self.output_bias {
            out.extend_from_slice(&b.to_le_bytes());
        }
        out
    }

    /// How the network was made (the trainer's record).
    pub fn description(&self) -> &str {
        &self.description
    }

    /// Centipawns per unit of the float output.
    pub fn scale(&self) -> i32 {
        self.scale
    }

    /// The output, in centipawns for the side to move, from the hidden sums seen by the side
    /// to move (`ours`) and by the other side (`theirs`) on a board of `size`.
    #[inline]
    pub fn output(&self, ours: &[i16; HIDDEN], theirs: &[i16; HIDDEN], size: BoardSize) -> i32 {
        let block = usize::from(size == BoardSize::Nine);
        let weights = &self.output_weights[block];
        let sum = activated_dot(ours, &weights[..HIDDEN])
            + activated_dot(theirs, &weights[HIDDEN..])
            + self.output_bias[block];
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_network_reads_back_to_its_own_bytes() {
        let net = Network::embedded();
        assert_eq!(net.to_bytes(), EMBEDDED_BYTES);
        assert!(!net.description().is_empty());
    }

    #[test]
    fn damaged_files_are_refused_with_a_reason() {
        let bytes = Network::embedded().to_bytes();
        assert_eq!(
            Network::from_bytes(b"nonsense").err(),
            Some(NetError::Magic)
        );
        let cut = Network::from_bytes(&bytes[..bytes.len() - 1]).err();
        assert!(matches!(cut, Some(NetError::Length { .. })), "{cut:?}");
        let mut version = bytes.clone();
        version[8] = 9;
        assert_eq!(
            Network::from_bytes(&version).err(),
            Some(NetError::Version(9))
        );
        let mut shape = bytes.clone();
        shape[10] = 7;
        assert!(matches!(
            Network::from_bytes(&shape).err(),
            Some(NetError::Shape { .. })
        ));
    }
}
