//! The training-data file of `lielow datagen`: games of positions, each position with the
//! search's score, the ply and the game's result, in a compact binary form.
//!
//! All numbers are little-endian. The file starts with the 8 bytes `LIELOWDG`, a `u16` version
//! (2), the run's settings as a `u16` length and that many bytes of text (`seed=1 nodes=5000
//! ...`: a resumed run must have the same), and the `u32` CRC-32 of the header's bytes before
//! it. Then come games, each a block:
//!
//! | field | type | meaning |
//! | --- | --- | --- |
//! | `game` | `u64` | the game's number in the run (its seed derives from it) |
//! | `count` | `u16` | positions that follow |
//!
//! then `count` positions, then the `u32` CRC-32 (IEEE, as zlib's) of the block's bytes before
//! it, so that a damaged block is named, not read (or resumed from) as other data. Version 1
//! files (no checksums) are refused: `scripts/train.sh` makes its data again. A position:
//!
//! | field | type | meaning |
//! | --- | --- | --- |
//! | `size` | `u8` | 8 or 9 |
//! | `side` | `u8` | 0 Blue, 1 Red: the side to move |
//! | `ply` | `u16` | plies since the start position (opening plies included) |
//! | `score` | `i16` | the search's score for the side to move (evaluation units, never a proven result) |
//! | `result` | `i8` | the game's result for the side to move: 1 won, -1 lost |
//! | `stacks` | `u8` | the stacks that follow |
//! | per stack: `square` | `u8` | `rank * 9 + file` |
//! | per stack: `piece` | `u8` | bits 0-3 the height, bit 4 the owner (1 Red), bit 5 the king |
//!
//! A start position has 16 or 36 stacks, so a position takes 8 + 2 * stacks bytes (at most 40 on
//! 8x8 at the start, fewer as stacks are captured). A block cut short at the end of the file (a
//! run stopped while writing) is dropped by [`read_games`] and overwritten when the run resumes.

use std::io::{self, Write};

use lielow_rules::board::{BoardSize, Side, Square};
use lielow_rules::position::Position;

/// The file's first bytes.
pub const MAGIC: &[u8; 8] = b"LIELOWDG";
/// The version written (and the only one read).
pub const VERSION: u16 = 2;

/// The CRC-32 (IEEE 802.3, reflected, as zlib's `crc32`) of `bytes`, by the `crc32fast`
/// crate (the network files' too): it detects every error in up to 32 consecutive bits, which
/// a 32-bit sum such as FNV-1a does not promise for bursts. The same function as the table this
/// program computed it with before, so files written then still read (a test holds it to the
/// standard check value and to that table).
pub fn crc32(bytes: &[u8]) -> u32 {
    crc32fast::hash(bytes)
}

/// One training position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    /// The position (its side to move included).
    pub position: Position,
    /// Plies since the start.
    pub ply: u16,
    /// The search's score for the side to move.
    pub score: i16,
    /// The game's result for the side to move: 1 or -1.
    pub result: i8,
}

/// One game's samples.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSamples {
    /// The game's number in the run.
    pub game: u64,
    /// Its positions, in order.
    pub samples: Vec<Sample>,
}

/// Writes the file header with the run's `settings`.
pub fn write_header(out: &mut impl Write, settings: &str) -> io::Result<()> {
    let settings = &settings.as_bytes()[..settings.len().min(u16::MAX as usize)];
    let mut bytes = Vec::with_capacity(16 + settings.len());
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&VERSION.to_le_bytes());
    bytes.extend_from_slice(&(settings.len() as u16).to_le_bytes());
    bytes.extend_from_slice(settings);
    bytes.extend_from_slice(&crc32(&bytes).to_le_bytes());
    out.write_all(&bytes)
}

/// Appends one game's block to `out` (a game of more than 65535 samples is cut there).
pub fn write_game(out: &mut impl Write, game: &GameSamples) -> io::Result<()> {
    let count = game.samples.len().min(u16::MAX as usize);
    let mut bytes = Vec::with_capacity(10 + count * 41);
    bytes.extend_from_slice(&game.game.to_le_bytes());
    bytes.extend_from_slice(&(count as u16).to_le_bytes());
    for sample in &game.samples[..count] {
        let position = &sample.position;
        let n = position.size().n();
        bytes.push(n as u8);
        bytes.push(position.side_to_move().index() as u8);
        bytes.extend_from_slice(&sample.ply.to_le_bytes());
        bytes.extend_from_slice(&sample.score.to_le_bytes());
        bytes.push(sample.result as u8);
        let stacks: Vec<(Square, Side, usize)> = (0..n * n)
            .filter_map(|i| Square::new(i % n, i / n))
            .filter_map(|square| position.stack(square).map(|(side, h)| (square, side, h)))
            .collect();
        bytes.push(stacks.len() as u8);
        for (square, side, height) in stacks {
            let king = position.king(side) == Some(square);
            let piece = height as u8 | (side.index() as u8) << 4 | u8::from(king) << 5;
            bytes.push(square.index() as u8);
            bytes.push(piece);
        }
    }
    bytes.extend_from_slice(&crc32(&bytes).to_le_bytes());
    out.write_all(&bytes)
}

/// Why a data file cannot be read.
#[derive(Debug)]
pub enum FormatError {
    /// Not a datagen file, or its header is damaged.
    Header,
    /// A datagen file of another version (the one found).
    Version(u16),
    /// A block whose checksum does not match its bytes.
    Checksum {
        /// The block's number, from 1 (0: the header).
        block: usize,
        /// Where it starts in the file.
        offset: usize,
    },
    /// A position that breaks the rules (a damaged file).
    Position(String),
    /// Reading failed.
    Io(io::Error),
}

impl std::fmt::Display for FormatError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            FormatError::Header => write!(
                f,
                "not a lielow datagen file (version {VERSION}), or its header is damaged"
            ),
            FormatError::Version(found) => write!(
                f,
                "datagen format version {found}; this program reads version {VERSION} (with \
                 checksums): make the data again (scripts/train.sh does)"
            ),
            FormatError::Checksum { block: 0, .. } => {
                f.write_str("the header is damaged (its checksum does not match)")
            }
            FormatError::Checksum { block, offset } => write!(
                f,
                "game block {block} (at byte {offset}) is damaged (its checksum does not match)"
            ),
            FormatError::Position(why) => write!(f, "a damaged position: {why}"),
            FormatError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for FormatError {}

/// A data file read back: the run's settings, its complete games, and the length in bytes of
/// the complete part (a block cut short at the end is left out).
#[derive(Debug)]
pub struct DataFile {
    /// The settings text of the header.
    pub settings: String,
    /// Every complete game, in file order.
    pub games: Vec<GameSamples>,
    /// Bytes up to the end of the last complete game.
    pub complete: usize,
    /// Where each game's block lies in the file, its checksum included (the header ends where
    /// the first begins): a join copies blocks without writing them again.
    pub blocks: Vec<std::ops::Range<usize>>,
}

/// Reads a data file's bytes.
pub fn read_games(bytes: &[u8]) -> Result<DataFile, FormatError> {
    if bytes.len() < 12 || &bytes[..8] != MAGIC {
        return Err(FormatError::Header);
    }
    let version = u16::from_le_bytes([bytes[8], bytes[9]]);
    if version != VERSION {
        return Err(FormatError::Version(version));
    }
    let length = u16::from_le_bytes([bytes[10], bytes[11]]) as usize;
    let (settings, sum) = match (
        bytes.get(12..12 + length),
        bytes.get(12 + length..16 + length),
    ) {
        (Some(text), Some(sum)) => (text, sum),
        _ => return Err(FormatError::Header),
    };
    if crc32(&bytes[..12 + length]).to_le_bytes() != sum {
        return Err(FormatError::Checksum {
            block: 0,
            offset: 0,
        });
    }
    let settings = String::from_utf8_lossy(settings).into_owned();
    let mut games = Vec::new();
    let mut blocks = Vec::new();
    let mut at = 16 + length;
    let mut complete = at;
    while let Some(game) = read_game(bytes, &mut at, games.len() + 1)? {
        games.push(game);
        blocks.push(complete..at);
        complete = at;
    }
    Ok(DataFile {
        settings,
        games,
        complete,
        blocks,
    })
}

/// The next block at `at` (the file's `block`-th), or `None` at the end or when the block is
/// cut short there. The block's extent is found first, its checksum checked, and only then are
/// its positions read, so that a damaged block is reported as one, whatever byte was hit.
fn read_game(
    bytes: &[u8],
    at: &mut usize,
    block: usize,
) -> Result<Option<GameSamples>, FormatError> {
    let start = *at;
    let Some(end) = block_end(bytes, start) else {
        return Ok(None);
    };
    let Some(sum) = bytes.get(end..end + 4) else {
        return Ok(None);
    };
    if crc32(&bytes[start..end]).to_le_bytes() != sum {
        return Err(FormatError::Checksum {
            block,
            offset: start,
        });
    }
    let block = &bytes[start..end];
    let game = u64::from_le_bytes(block[..8].try_into().expect("8 bytes"));
    let count = u16::from_le_bytes([block[8], block[9]]);
    let mut samples = Vec::with_capacity(count as usize);
    let mut cursor = 10;
    for _ in 0..count {
        let fixed = &block[cursor..cursor + 8];
        let pieces = &block[cursor + 8..cursor + 8 + 2 * fixed[7] as usize];
        cursor += 8 + pieces.len();
        samples.push(read_sample(fixed, pieces)?);
    }
    *at = end + 4;
    Ok(Some(GameSamples { game, samples }))
}

/// Where the block starting at `start` ends (before its checksum), by its counts; `None` when
/// the file ends first.
fn block_end(bytes: &[u8], start: usize) -> Option<usize> {
    let head = bytes.get(start..start + 10)?;
    let count = u16::from_le_bytes([head[8], head[9]]);
    let mut end = start + 10;
    for _ in 0..count {
        let stacks = *bytes.get(end..end + 8)?.last()? as usize;
        end += 8 + 2 * stacks;
    }
    (end <= bytes.len()).then_some(end)
}

/// One position from its 8 fixed bytes and its stacks' pairs of bytes.
fn read_sample(fixed: &[u8], pieces: &[u8]) -> Result<Sample, FormatError> {
    let (n, side, ply) = (fixed[0], fixed[1], u16::from_le_bytes([fixed[2], fixed[3]]));
    let score = i16::from_le_bytes([fixed[4], fixed[5]]);
    let result = fixed[6] as i8;
    let size = BoardSize::from_n(n as usize)
        .ok_or_else(|| FormatError::Position(format!("board size {n}")))?;
    let mut stacks = Vec::with_capacity(pieces.len() / 2);
    for pair in pieces.chunks(2) {
        // The rules check the rest (on the board, heights, one stack a square, crowns).
        let square = Square::from_index(pair[0] as usize)
            .ok_or_else(|| FormatError::Position(format!("square {}", pair[0])))?;
        let height = (pair[1] & 0x0f) as usize;
        let owner = if pair[1] & 0x10 != 0 {
            Side::Red
        } else {
            Side::Blue
        };
        stacks.push((square, owner, height, pair[1] & 0x20 != 0));
    }
    let side = if side == 0 { Side::Blue } else { Side::Red };
    let position = Position::from_parts(size, side, &stacks)
        .map_err(|e| FormatError::Position(e.to_string()))?;
    Ok(Sample {
        position,
        ply,
        score,
        result,
    })
}

/// Reads a whole data file (a regular file of at most [`crate::files::limits::DATA`] bytes).
pub fn read_file(path: &std::path::Path) -> Result<Vec<GameSamples>, FormatError> {
    let bytes = crate::files::read_bytes(path, crate::files::limits::DATA)
        .map_err(|error| FormatError::Io(io::Error::other(error.to_string())))?;
    read_games(&bytes).map(|file| file.games)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_round_trip_and_a_cut_block_is_left_out() {
        let start8 = Position::start(BoardSize::Eight);
        let crowned = Position::from_lfen("8/r1r1r15/8/3R24/8/3B24/b1b1b15/8 r").unwrap();
        let nine = Position::start(BoardSize::Nine)
            .play(Position::start(BoardSize::Nine).legal_moves()[3]);
        let games = vec![
            GameSamples {
                game: 7,
                samples: vec![
                    Sample {
                        position: start8,
                        ply: 0,
                        score: 12,
                        result: 1,
                    },
                    Sample {
                        position: crowned,
                        ply: 31,
                        score: -250,
                        result: -1,
                    },
                ],
            },
            GameSamples {
                game: 8,
                samples: vec![Sample {
                    position: nine,
                    ply: 1,
                    score: 3,
                    result: -1,
                }],
            },
        ];
        let mut bytes = Vec::new();
        write_header(&mut bytes, "seed=3").unwrap();
        for game in &games {
            write_game(&mut bytes, game).unwrap();
        }
        let file = read_games(&bytes).unwrap();
        assert_eq!(file.settings, "seed=3");
        assert_eq!(file.games, games);
        assert_eq!(file.complete, bytes.len());
        assert_eq!(file.blocks, [22..22 + 78, 22 + 78..bytes.len()]);
        // 22 header (18 + checksum) + 10 + (8 + 2*16) + (8 + 2*8) + 4 + 10 + (8 + 2*36) + 4.
        let first_block = 10 + 40 + 24 + 4;
        assert_eq!(bytes.len(), 22 + first_block + 10 + 80 + 4);
        let cut = &bytes[..bytes.len() - 3];
        let file = read_games(cut).unwrap();
        assert_eq!(file.games, games[..1]);
        assert_eq!(file.complete, 22 + first_block);
        assert!(matches!(
            read_games(b"LIELOWDX\x02\x00\x00\x00"),
            Err(FormatError::Header)
        ));
        assert!(matches!(
            read_games(b"LIELOWDG\x01\x00\x00\x00"),
            Err(FormatError::Version(1))
        ));
        // A damaged stack (height 0, or a square twice) under a matching checksum is an
        // error, not a broken position.
        let reseal = |mut damaged: Vec<u8>| {
            let end = 22 + first_block - 4;
            let sum = crc32(&damaged[22..end]);
            damaged[end..end + 4].copy_from_slice(&sum.to_le_bytes());
            damaged
        };
        let mut damaged = bytes.clone();
        damaged[22 + 10 + 8 + 1] &= 0xf0;
        assert!(matches!(
            read_games(&reseal(damaged)),
            Err(FormatError::Position(_))
        ));
        let mut twice = bytes.clone();
        twice[22 + 10 + 8 + 2] = twice[22 + 10 + 8];
        assert!(matches!(
            read_games(&reseal(twice)),
            Err(FormatError::Position(_))
        ));
    }

    #[test]
    fn every_single_byte_flip_is_caught_or_only_cuts_the_last_block() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926, "the standard check value");
        // The table-driven CRC-32 this file format was first written with, bit by bit: the
        // crate's values are the same, so older files still read.
        let by_hand = |bytes: &[u8]| {
            !bytes.iter().fold(!0u32, |crc, &byte| {
                (0..8).fold(crc ^ u32::from(byte), |c, _| {
                    if c & 1 != 0 {
                        0xEDB8_8320 ^ (c >> 1)
                    } else {
                        c >> 1
                    }
                })
            })
        };
        let sample: Vec<u8> = (0..4099u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect();
        for len in [0, 1, 3, 15, 16, 17, 63, 64, 65, 1000, 4099] {
            assert_eq!(
                crc32(&sample[..len]),
                by_hand(&sample[..len]),
                "{len} bytes"
            );
        }
        let game = |game: u64| GameSamples {
            game,
            samples: vec![Sample {
                position: Position::start(BoardSize::Eight),
                ply: 0,
                score: 5,
                result: 1,
            }],
        };
        let mut bytes = Vec::new();
        write_header(&mut bytes, "seed=1").unwrap();
        for k in 0..3 {
            write_game(&mut bytes, &game(k)).unwrap();
        }
        let clean = read_games(&bytes).unwrap().games;
        for at in 0..bytes.len() {
            for flip in [0x01u8, 0x80, 0xff] {
                let mut damaged = bytes.clone();
                damaged[at] ^= flip;
                match read_games(&damaged) {
                    Err(_) => {}
                    // Only a flip that makes the last block look cut short reads at all.
                    Ok(file) => assert!(
                        file.games.len() < clean.len() && file.games == clean[..file.games.len()],
                        "byte {at} ^ {flip:#x} read as other data"
                    ),
                }
            }
        }
        let mut damaged = bytes.clone();
        damaged[22 + 2 * 54 + 20] ^= 4;
        assert_eq!(
            read_games(&damaged).unwrap_err().to_string(),
            format!(
                "game block 3 (at byte {}) is damaged (its checksum does not match)",
                22 + 2 * 54
            )
        );
    }
}
