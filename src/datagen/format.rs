//! The training-data file of `lielow datagen`: games of positions, each position with the
//! search's score, the ply and the game's result, in a compact binary form.
//!
//! All numbers are little-endian. The file starts with the 8 bytes `LIELOWDG`, a `u16` version
//! (1), and the run's settings as a `u16` length and that many bytes of text (`seed=1 nodes=5000
//! ...`: a resumed run must have the same). Then come games, each a block:
//!
//! | field | type | meaning |
//! | --- | --- | --- |
//! | `game` | `u64` | the game's number in the run (its seed derives from it) |
//! | `count` | `u16` | positions that follow |
//!
//! and `count` positions:
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
//! A start position has 16 or 36 stacks, so a position takes 9 + 2 * stacks bytes (at most 41 on
//! 8x8 at the start, fewer as stacks are captured). A block cut short (a run stopped while
//! writing) is dropped by [`read_games`] and overwritten when the run resumes.

use std::io::{self, Read, Write};

use lielow_rules::board::{BoardSize, Side, Square};
use lielow_rules::position::Position;

/// The file's first bytes.
pub const MAGIC: &[u8; 8] = b"LIELOWDG";
/// The version written.
pub const VERSION: u16 = 1;

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
    out.write_all(MAGIC)?;
    out.write_all(&VERSION.to_le_bytes())?;
    let settings = &settings.as_bytes()[..settings.len().min(u16::MAX as usize)];
    out.write_all(&(settings.len() as u16).to_le_bytes())?;
    out.write_all(settings)
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
    out.write_all(&bytes)
}

/// Why a data file cannot be read.
#[derive(Debug)]
pub enum FormatError {
    /// Not a datagen file, or another version.
    Header,
    /// A position that breaks the rules (a damaged file).
    Position(String),
    /// Reading failed.
    Io(io::Error),
}

impl std::fmt::Display for FormatError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            FormatError::Header => write!(f, "not a lielow datagen file (version {VERSION})"),
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
}

/// Reads a data file's bytes.
pub fn read_games(bytes: &[u8]) -> Result<DataFile, FormatError> {
    if bytes.len() < 12 || &bytes[..8] != MAGIC || bytes[8..10] != VERSION.to_le_bytes() {
        return Err(FormatError::Header);
    }
    let length = u16::from_le_bytes([bytes[10], bytes[11]]) as usize;
    let settings = bytes
        .get(12..12 + length)
        .map(|text| String::from_utf8_lossy(text).into_owned())
        .ok_or(FormatError::Header)?;
    let mut games = Vec::new();
    let mut at = 12 + length;
    let mut complete = at;
    while let Some(game) = read_game(bytes, &mut at)? {
        games.push(game);
        complete = at;
    }
    Ok(DataFile {
        settings,
        games,
        complete,
    })
}

/// The next block at `at`, or `None` at the end or when the block is cut short.
fn read_game(bytes: &[u8], at: &mut usize) -> Result<Option<GameSamples>, FormatError> {
    let take = |at: &mut usize, n: usize| -> Option<&[u8]> {
        let slice = bytes.get(*at..*at + n)?;
        *at += n;
        Some(slice)
    };
    let mut cursor = *at;
    let Some(head) = take(&mut cursor, 10) else {
        return Ok(None);
    };
    let game = u64::from_le_bytes(head[..8].try_into().expect("8 bytes"));
    let count = u16::from_le_bytes([head[8], head[9]]);
    let mut samples = Vec::with_capacity(count as usize);
    for _ in 0..count {
        let Some(fixed) = take(&mut cursor, 8) else {
            return Ok(None);
        };
        let (n, side, ply) = (fixed[0], fixed[1], u16::from_le_bytes([fixed[2], fixed[3]]));
        let score = i16::from_le_bytes([fixed[4], fixed[5]]);
        let result = fixed[6] as i8;
        let stacks = fixed[7] as usize;
        let Some(pieces) = take(&mut cursor, 2 * stacks) else {
            return Ok(None);
        };
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
        samples.push(Sample {
            position,
            ply,
            score,
            result,
        });
    }
    *at = cursor;
    Ok(Some(GameSamples { game, samples }))
}

/// Reads a whole data file.
pub fn read_file(path: &std::path::Path) -> Result<Vec<GameSamples>, FormatError> {
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|mut file| file.read_to_end(&mut bytes))
        .map_err(FormatError::Io)?;
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
        // 18 header + 10 + (8 + 2*16) + (8 + 2*8) + 10 + (8 + 2*36).
        assert_eq!(bytes.len(), 18 + 10 + 40 + 24 + 10 + 80);
        let cut = &bytes[..bytes.len() - 3];
        let file = read_games(cut).unwrap();
        assert_eq!(file.games, games[..1]);
        assert_eq!(file.complete, 18 + 10 + 40 + 24);
        assert!(matches!(
            read_games(b"LIELOWDX\x01\x00\x00\x00"),
            Err(FormatError::Header)
        ));
        // A damaged stack (height 0, or a square twice) is an error, not a broken position.
        let mut damaged = bytes.clone();
        damaged[18 + 10 + 8 + 1] &= 0xf0;
        assert!(matches!(
            read_games(&damaged),
            Err(FormatError::Position(_))
        ));
        let mut twice = bytes.clone();
        twice[18 + 10 + 8 + 2] = twice[18 + 10 + 8];
        assert!(matches!(read_games(&twice), Err(FormatError::Position(_))));
    }
}
