//! The network file: reading, checking and writing it.
//!
//! All numbers little-endian:
//!
//! | bytes | what |
//! |---|---|
//! | 8 | `LIELOWNN` |
//! | 2 | version: 4 (written), or 1 to 3 (still read) |
//! | 2 | hidden width `w`, 1 to [`HIDDEN`] |
//! | 4 | inputs, [`INPUTS`] |
//! | 4 | scale: centipawns per unit of the float output |
//! | 4 + n | how the net was made: its length, then UTF-8 text |
//! | 2 + 2 × 82 | versions 2 and 3 only: output buckets (1) and a table of zeros (see below) |
//! | 2 × INPUTS × w | input weights, input by input (i16, × [`QA`]) |
//! | 2 × w | hidden biases (i16, × `QA`) |
//! | 2 × 2 × w | output weights per board size (8x8 first), side to move's half first (i16, × [`QB`]) |
//! | 4 × 2 | output bias per board size (i32, × `QA` × `QB`) |
//! | 4 | versions 3 and 4: the CRC-32 of every byte before it (u32) |
//!
//! Version 4 is version 1 with the checksum at the end, and [`Network::to_bytes`] writes it.
//! Versions 2 and 3 (version 2, then with the checksum) gave each board size several output
//! layers, chosen by the number of stacks on the board ("output buckets"), and stored their
//! count and a table of the bucket of each stack count 0 to 81. Buckets gained nothing
//! measurable in games and were removed (docs/results/removed.md); such a file still reads
//! when it has one bucket (every network shipped in those versions), and one of several is
//! refused with [`NetError::Buckets`]. The checksum is checked first, right after the
//! magic and the version, so that any damage past them (a flipped byte, a file cut short, bytes
//! added) is named as what it is, `checksum mismatch`, before a damaged field could be taken
//! for another kind of error or, as a flipped low byte of the scale was, for a valid network.
//! Versions 1 and 2 carry no checksum: they still load, every field checked as before, and the
//! network says so ([`Network::checked`], which `eval`'s description prints).
//!
//! The checksum is CRC-32 (IEEE 802.3, as zlib's and the datagen files', by the `crc32fast`
//! crate): it detects every error within 32 consecutive bits, so every damaged byte, and any
//! other accidental damage but one time in 2^32; it costs well under a millisecond over the
//! shipped 1.5 MB. It is no defence against a file forged on purpose (a cryptographic hash would
//! need a larger crate, and a forged network is only weights: every field is still checked, so
//! it cannot make the program misbehave, only play badly).
//!
//! A file narrower than `HIDDEN` is read with the missing hidden units' weights zero: such a
//! unit's activation is zero and so is its output weight, so the evaluation is exactly the
//! file's (a program built wider still plays the shipped network), and it is written back at
//! its own width.

use std::fmt;

use super::network::{Network, OutputWeights, HIDDEN, INPUTS};
#[cfg(doc)]
use super::network::{QA, QB};

/// The file's first bytes.
pub const MAGIC: &[u8; 8] = b"LIELOWNN";
/// The version written: version 1's layout, then a CRC-32 of the bytes before it.
pub const VERSION: u16 = 4;
/// The oldest version read: no checksum.
const VERSION_FIRST: u16 = 1;
/// Output buckets and their table, no checksum (read when of one bucket).
const VERSION_BUCKETS: u16 = 2;
/// Version 2 with the checksum (read when of one bucket).
const VERSION_BUCKETS_CHECKED: u16 = 3;

/// The fixed part of a network file: magic, version, hidden width, inputs, scale, description
/// length.
const HEADER_BYTES: usize = 8 + 2 + 2 + 4 + 4 + 4;
/// Versions 2 and 3's bucket count and table: the bucket of each stack count 0 to 81, per
/// board size.
const BUCKET_BYTES: usize = 2 + 2 * 82;
/// Versions 3 and 4's CRC-32, the file's last bytes.
const CHECKSUM_BYTES: usize = 4;
/// The longest description [`Network::load`] reads (the trainer's names its settings and data
/// files in a few hundred bytes).
const MAX_DESCRIPTION_BYTES: usize = 1 << 20;
/// The largest network file [`Network::load`] reads (a version 3 file, with its bucket table).
pub const MAX_FILE_BYTES: u64 =
    (HEADER_BYTES + BUCKET_BYTES + weight_bytes(HIDDEN) + MAX_DESCRIPTION_BYTES + CHECKSUM_BYTES)
        as u64;

/// The weights and biases of a network of `width` hidden units.
const fn weight_bytes(width: usize) -> usize {
    2 * (INPUTS * width + width + 2 * 2 * width) + 4 * 2
}

/// Whether files of `version` end with a checksum.
pub(super) fn has_checksum(version: u16) -> bool {
    matches!(version, VERSION_BUCKETS_CHECKED | VERSION)
}

/// Whether files of `version` have the bucket count and table.
fn has_bucket_table(version: u16) -> bool {
    matches!(version, VERSION_BUCKETS | VERSION_BUCKETS_CHECKED)
}

/// The CRC-32 a version 3 or 4 file ends with: of every byte before it.
fn checksum(bytes: &[u8]) -> u32 {
    crc32fast::hash(bytes)
}

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
    /// A version 2 or 3 file of another number of output buckets than one (the count it
    /// gives): this program reads one output layer per board size.
    Buckets(u16),
    /// A version 2 or 3 file of one bucket whose table names another.
    BucketTable,
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
    /// A version 3 or 4 file whose CRC-32 does not match its bytes: damaged or cut short.
    Checksum,
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::Magic => f.write_str("not a lielow network file (no LIELOWNN header)"),
            NetError::Version(v) => write!(
                f,
                "network format version {v}, this program reads {VERSION_FIRST} to {VERSION}"
            ),
            NetError::Shape { hidden, inputs } => write!(
                f,
                "a network of {inputs} inputs and {hidden} hidden units; this program uses {INPUTS} and 1 to {HIDDEN}"
            ),
            NetError::BucketTable => {
                f.write_str("the network's bucket table names output buckets it does not have")
            }
            NetError::Buckets(count) => write!(
                f,
                "a network of {count} output buckets; this program reads one output layer per board size"
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
            NetError::Checksum => {
                f.write_str("checksum mismatch: the network file is damaged or cut short")
            }
        }
    }
}

impl std::error::Error for NetError {}

/// Reads little-endian numbers off the front of a byte slice whose length is checked first.
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
    fn u16(&mut self) -> u16 {
        u16::from_le_bytes(self.take())
    }
    fn i16(&mut self) -> i16 {
        i16::from_le_bytes(self.take())
    }
    fn i32(&mut self) -> i32 {
        i32::from_le_bytes(self.take())
    }
    /// The first `width` lanes of a row (the rest stay zero: see the module docs).
    fn row(&mut self, lanes: &mut [i16], width: usize) {
        lanes[..width].iter_mut().for_each(|w| *w = self.i16());
    }
    /// The weights and biases of a network of `width` hidden units, from the input weights on
    /// (its scale, description and version are left for the caller).
    fn weights(&mut self, width: usize) -> Network {
        let mut input_weights = vec![[0i16; HIDDEN]; INPUTS];
        for row in &mut input_weights {
            self.row(row, width);
        }
        let mut hidden_bias = [0; HIDDEN];
        self.row(&mut hidden_bias, width);
        let mut output_weights: [OutputWeights; 2] = [[0; 2 * HIDDEN]; 2];
        for layer in &mut output_weights {
            let (ours, theirs) = layer.split_at_mut(HIDDEN);
            self.row(ours, width);
            self.row(theirs, width);
        }
        let output_bias = [self.i32(), self.i32()];
        Network {
            input_weights,
            hidden_bias,
            output_weights,
            output_bias,
            width,
            scale: 1,
            description: String::new(),
            version: VERSION,
        }
    }
}

impl Network {
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
        if bytes.len() < HEADER_BYTES || &bytes[..8] != MAGIC {
            return Err(NetError::Magic);
        }
        let version = u16::from_le_bytes([bytes[8], bytes[9]]);
        let body = match version {
            _ if has_checksum(version) => {
                let end = bytes.len() - CHECKSUM_BYTES.min(bytes.len());
                if end < HEADER_BYTES || checksum(&bytes[..end]).to_le_bytes() != bytes[end..] {
                    return Err(NetError::Checksum);
                }
                &bytes[..end]
            }
            VERSION_FIRST | VERSION_BUCKETS => bytes,
            _ => return Err(NetError::Version(version)),
        };
        Network::parse(body, version).map_err(|error| match error {
            // Lengths count the whole file, its checksum included.
            NetError::Length { expected, .. } => NetError::Length {
                expected: expected.saturating_add(bytes.len() - body.len()),
                found: bytes.len(),
            },
            error => error,
        })
    }

    /// The network in a file's bytes of `version` (a version 3 or 4 file's checksum checked
    /// and cut off).
    fn parse(bytes: &[u8], version: u16) -> Result<Network, NetError> {
        let mut reader = Reader { bytes, at: 10 };
        let width = usize::from(reader.u16());
        let inputs = u32::from_le_bytes(reader.take()) as usize;
        if !(1..=HIDDEN).contains(&width) || inputs != INPUTS {
            return Err(NetError::Shape {
                hidden: width,
                inputs,
            });
        }
        let scale = reader.i32();
        if scale <= 0 {
            return Err(NetError::Scale(scale));
        }
        let description_len = u32::from_le_bytes(reader.take()) as usize;
        let after_description = HEADER_BYTES.saturating_add(description_len);
        let length = |expected: usize| NetError::Length {
            expected,
            found: bytes.len(),
        };
        // Versions 2 and 3's bucket count sits after the description: a network of several
        // buckets is named as such before its length (which the count sets) is checked.
        let table_bytes = if has_bucket_table(version) {
            let count_end = after_description.saturating_add(2);
            if bytes.len() < count_end {
                return Err(length(count_end));
            }
            let count =
                u16::from_le_bytes([bytes[after_description], bytes[after_description + 1]]);
            if count != 1 {
                return Err(NetError::Buckets(count));
            }
            BUCKET_BYTES
        } else {
            0
        };
        let weights_at = after_description.saturating_add(table_bytes);
        let expected = weights_at.saturating_add(weight_bytes(width));
        if bytes.len() != expected {
            return Err(length(expected));
        }
        let description = std::str::from_utf8(&bytes[HEADER_BYTES..after_description])
            .map_err(|_| NetError::Description)?
            .to_string();
        // One bucket: the table names bucket 0 for every stack count.
        let entries = bytes[after_description..weights_at]
            .get(2..)
            .unwrap_or_default();
        if entries.iter().any(|&bucket| bucket != 0) {
            return Err(NetError::BucketTable);
        }
        reader.at = weights_at;
        let mut network = reader.weights(width);
        network.scale = scale;
        network.description = description;
        network.version = version;
        Ok(network)
    }

    /// The file's bytes, in version 4: its checksum last.
    pub fn to_bytes(&self) -> Vec<u8> {
        let width = self.width;
        let mut out = Vec::with_capacity(
            HEADER_BYTES + self.description.len() + weight_bytes(width) + CHECKSUM_BYTES,
        );
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(width as u16).to_le_bytes());
        out.extend_from_slice(&(INPUTS as u32).to_le_bytes());
        out.extend_from_slice(&self.scale.to_le_bytes());
        out.extend_from_slice(&(self.description.len() as u32).to_le_bytes());
        out.extend_from_slice(self.description.as_bytes());
        let mut row = |lanes: &[i16]| {
            lanes[..width]
                .iter()
                .for_each(|w| out.extend_from_slice(&w.to_le_bytes()));
        };
        self.input_weights.iter().for_each(|weights| row(weights));
        row(&self.hidden_bias);
        for layer in &self.output_weights {
            row(&layer[..HIDDEN]);
            row(&layer[HIDDEN..]);
        }
        for b in &self.output_bias {
            out.extend_from_slice(&b.to_le_bytes());
        }
        out.extend_from_slice(&checksum(&out).to_le_bytes());
        out
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::network::EMBEDDED_BYTES;
    use super::*;

    /// A version 3 or 4 file's bytes with its checksum made to match again, so that the
    /// checks behind it are reached.
    pub(in super::super) fn resealed(mut bytes: Vec<u8>) -> Vec<u8> {
        let end = bytes.len() - CHECKSUM_BYTES;
        let sum = checksum(&bytes[..end]);
        bytes[end..].copy_from_slice(&sum.to_le_bytes());
        bytes
    }

    /// A version 4 file's bytes as an older version writes the same network: version 1 (no
    /// checksum), 2 (a one-bucket table, no checksum) or 3 (the table and the checksum).
    pub(in super::super) fn older(bytes: &[u8], version: u16) -> Vec<u8> {
        let mut old = bytes[..bytes.len() - CHECKSUM_BYTES].to_vec();
        old[8..10].copy_from_slice(&version.to_le_bytes());
        if has_bucket_table(version) {
            let description = u32::from_le_bytes(old[20..24].try_into().unwrap()) as usize;
            let table = HEADER_BYTES + description;
            let mut one_bucket = vec![0; BUCKET_BYTES];
            one_bucket[0] = 1;
            old.splice(table..table, one_bucket);
        }
        if has_checksum(version) {
            old.extend_from_slice(&[0; CHECKSUM_BYTES]);
            old = resealed(old);
        }
        old
    }

    #[test]
    fn the_embedded_network_reads_back_to_its_own_bytes() {
        let net = Network::embedded();
        assert_eq!(net.to_bytes(), EMBEDDED_BYTES);
        assert!(!net.description().is_empty());
        // The shipped file proves itself whole.
        assert_eq!(net.file_version(), VERSION);
        assert!(net.checked());
    }

    #[test]
    fn damaged_files_are_refused_with_a_reason() {
        let bytes = Network::embedded().to_bytes();
        assert_eq!(
            Network::from_bytes(b"nonsense").err(),
            Some(NetError::Magic)
        );
        let cut = Network::from_bytes(&bytes[..bytes.len() - 1]).err();
        assert_eq!(cut, Some(NetError::Checksum));
        assert_eq!(
            NetError::Checksum.to_string(),
            "checksum mismatch: the network file is damaged or cut short"
        );
        // Unchecked, a cut file is found by its length.
        let old = older(&bytes, VERSION_FIRST);
        let cut = Network::from_bytes(&old[..old.len() - 1]).err();
        assert!(matches!(cut, Some(NetError::Length { .. })), "{cut:?}");
        let mut version = bytes.clone();
        version[8] = 9;
        assert_eq!(
            Network::from_bytes(&version).err(),
            Some(NetError::Version(9))
        );
        // Under a matching checksum, every field is still checked.
        let mut shape = bytes.clone();
        shape[10] = 7;
        shape[11] = 1;
        assert_eq!(Network::from_bytes(&shape).err(), Some(NetError::Checksum));
        assert!(matches!(
            Network::from_bytes(&resealed(shape)).err(),
            Some(NetError::Shape { hidden: 263, .. })
        ));
        let mut no_width = bytes.clone();
        no_width[10] = 0;
        assert!(matches!(
            Network::from_bytes(&resealed(no_width)).err(),
            Some(NetError::Shape { hidden: 0, .. })
        ));
        let mut scale = bytes.clone();
        scale[16..20].copy_from_slice(&0i32.to_le_bytes());
        assert_eq!(
            Network::from_bytes(&resealed(scale)).err(),
            Some(NetError::Scale(0))
        );
        // A length under a matching checksum counts the whole file.
        let mut longer = bytes[..bytes.len() - CHECKSUM_BYTES].to_vec();
        longer.extend_from_slice(&[0; 5]);
        let longer = resealed(longer);
        assert_eq!(
            Network::from_bytes(&longer).err(),
            Some(NetError::Length {
                expected: bytes.len(),
                found: bytes.len() + 1
            })
        );
    }

    /// The audit's case: the low byte of the output scale, flipped, loaded silently from a
    /// file without a checksum (and still does from one: see `checked`); in versions 3 and 4
    /// it is refused.
    #[test]
    fn a_flipped_byte_of_the_scale_is_refused() {
        let bytes = Network::embedded().to_bytes();
        let mut flipped = bytes.clone();
        flipped[16] ^= 1;
        assert_eq!(
            Network::from_bytes(&flipped).err(),
            Some(NetError::Checksum)
        );
        let old = older(&flipped, VERSION_FIRST);
        let read = Network::from_bytes(&old).expect("nothing to check it against");
        assert!(!read.checked());
        assert_eq!(read.file_version(), VERSION_FIRST);
        assert_eq!(read.scale(), Network::embedded().scale() ^ 1);
    }
}
