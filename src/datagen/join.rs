//! `lielow datagen --join SHARD... -o FILE --games G`: the shard files of one run put back
//! together into the file the run writes in one piece, byte for byte (the whole run's header,
//! then every game's block in game order), as `lielow match --merge` adds up a match's shard
//! summaries.
//!
//! Nothing is written unless every check passes: each file is a datagen file whose checksums
//! hold, all are shards of one run (the same settings but the shard), every shard 1..N is
//! given exactly once, and each holds all of its games (its share of `--games`, in its order,
//! with no block cut short). The output appears whole or not at all (a temporary file renamed
//! into place). Blocks are copied as read, not written again, so the join cannot change a
//! byte of a game.

use std::fmt;
use std::path::{Path, PathBuf};

use super::format::{self, FormatError};
use super::Settings;
use crate::file_error::FileError;
use crate::files::{self, Output};
use crate::shard::missing_text;
use crate::shard::Shard;

/// Why a join was refused (nothing written).
#[derive(Debug)]
pub enum JoinError {
    /// A file that cannot be read, or the output that cannot be written.
    File(FileError),
    /// A file that is not a datagen file, or one whose checksums do not hold.
    Data {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        error: FormatError,
    },
    /// A file whose header names no shard.
    NoShard {
        /// The file.
        path: PathBuf,
        /// Its settings.
        settings: String,
    },
    /// A file of another run than the first file's (other settings or another shard count).
    OtherRun {
        /// The file.
        path: PathBuf,
        /// Its settings.
        settings: String,
        /// The first file.
        first: PathBuf,
        /// The first file's settings.
        first_settings: String,
    },
    /// The same shard given twice.
    Repeated {
        /// The shard.
        shard: Shard,
        /// The first file that is it.
        first: PathBuf,
        /// The second.
        second: PathBuf,
    },
    /// Shards of the run not given.
    Missing {
        /// The run's shard count.
        count: u64,
        /// The missing ones, as `3, 5-9`.
        missing: String,
    },
    /// A shard whose last game's block is cut short (the run was stopped in it).
    CutShort {
        /// The file.
        path: PathBuf,
        /// The shard.
        shard: Shard,
    },
    /// A shard holding another number of games than its share of `--games`.
    GameCount {
        /// The file.
        path: PathBuf,
        /// The shard.
        shard: Shard,
        /// Games it holds.
        found: u64,
        /// Its share of the run's games.
        expected: u64,
        /// The run's games (`--games`).
        games: u64,
    },
    /// No file was given.
    Nothing,
    /// A shard whose games are not its own ones in its order.
    OutOfOrder {
        /// The file.
        path: PathBuf,
        /// The shard.
        shard: Shard,
    },
}

impl fmt::Display for JoinError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JoinError::File(error) => error.fmt(f),
            JoinError::Data { path, error } => write!(f, "--join {}: {error}", path.display()),
            JoinError::NoShard { path, settings } => write!(
                f,
                "--join {}: its header names no shard ({settings})",
                path.display()
            ),
            JoinError::OtherRun {
                path,
                settings,
                first,
                first_settings,
            } => write!(
                f,
                "--join {}: a shard of another run ({settings}) than {} ({first_settings})",
                path.display(),
                first.display()
            ),
            JoinError::Repeated {
                shard,
                first,
                second,
            } => write!(
                f,
                "--join: shard {}/{} given twice ({} and {})",
                shard.index,
                shard.count,
                first.display(),
                second.display()
            ),
            JoinError::Nothing => f.write_str("--join: no shard file given"),
            JoinError::Missing { count, missing } => {
                write!(f, "--join: the run has {count} shards; missing: {missing}")
            }
            JoinError::CutShort { path, shard } => write!(
                f,
                "--join {}: shard {}/{} ends in a game cut short (unfinished: run its datagen \
                 again to complete it)",
                path.display(),
                shard.index,
                shard.count
            ),
            JoinError::GameCount {
                path,
                shard,
                found,
                expected,
                games,
            } => {
                write!(
                    f,
                    "--join {}: shard {}/{} holds {found} games, but its share of --games \
                     {games} is {expected}",
                    path.display(),
                    shard.index,
                    shard.count
                )?;
                if found < expected {
                    f.write_str(" (unfinished: run its datagen again to complete it)")?;
                }
                Ok(())
            }
            JoinError::OutOfOrder { path, shard } => write!(
                f,
                "--join {}: the games are not those of shard {}/{} in order",
                path.display(),
                shard.index,
                shard.count
            ),
        }
    }
}

impl std::error::Error for JoinError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            JoinError::File(error) => Some(error),
            JoinError::Data { error, .. } => Some(error),
            _ => None,
        }
    }
}

impl From<FileError> for JoinError {
    fn from(error: FileError) -> JoinError {
        JoinError::File(error)
    }
}

/// One shard file, checked: its settings, its bytes and where its games' blocks lie in them.
struct ShardFile {
    path: PathBuf,
    shard: Shard,
    /// The header's settings.
    settings: String,
    /// The settings of the whole run (the same with `shard=1/1`).
    whole: String,
    bytes: Vec<u8>,
    blocks: Vec<std::ops::Range<usize>>,
}

/// Reads and checks one shard file of a run of `games` games. Its games are read whole (every
/// position checked), then only their blocks' extents are kept.
fn read_shard(path: &Path, games: u64) -> Result<ShardFile, JoinError> {
    let bytes = files::read_bytes(path, files::limits::DATA)?;
    let file = format::read_games(&bytes).map_err(|error| JoinError::Data {
        path: path.to_owned(),
        error,
    })?;
    let Some((shard, whole)) = Settings::split_shard(&file.settings) else {
        return Err(JoinError::NoShard {
            path: path.to_owned(),
            settings: file.settings,
        });
    };
    if file.complete < bytes.len() {
        return Err(JoinError::CutShort {
            path: path.to_owned(),
            shard,
        });
    }
    let (found, expected) = (file.games.len() as u64, shard.jobs_of(games));
    if found != expected {
        return Err(JoinError::GameCount {
            path: path.to_owned(),
            shard,
            found,
            expected,
            games,
        });
    }
    if (0..)
        .zip(&file.games)
        .any(|(k, game)| game.game != shard.job(k))
    {
        return Err(JoinError::OutOfOrder {
            path: path.to_owned(),
            shard,
        });
    }
    Ok(ShardFile {
        path: path.to_owned(),
        shard,
        settings: file.settings,
        whole,
        bytes,
        blocks: file.blocks,
    })
}

/// Bytes gathered before each write of the output.
const WRITE_CHUNK: usize = 1 << 20;

/// Joins the shard files `shards` of a run of `games` games into `output`.
pub fn run(shards: &[PathBuf], output: &Path, games: u64) -> Result<(), JoinError> {
    let inputs: Vec<&Path> = shards.iter().map(PathBuf::as_path).collect();
    files::check_outputs(&inputs, &[output])?;
    let Some((first, rest)) = shards.split_first() else {
        return Err(JoinError::Nothing);
    };
    // By shard index; the first file decides the run (its settings and shard count).
    let first = read_shard(first, games)?;
    let mut by_index: Vec<Option<ShardFile>> = Vec::new();
    by_index.resize_with(first.shard.count as usize, || None);
    let whole = first.whole.clone();
    let (first_path, first_settings) = (first.path.clone(), first.settings.clone());
    let index = first.shard.index as usize - 1;
    by_index[index] = Some(first);
    for path in rest {
        let file = read_shard(path, games)?;
        if file.whole != whole || file.shard.count != by_index.len() as u64 {
            return Err(JoinError::OtherRun {
                path: path.clone(),
                settings: file.settings,
                first: first_path,
                first_settings,
            });
        }
        let slot = &mut by_index[file.shard.index as usize - 1];
        if let Some(earlier) = slot {
            return Err(JoinError::Repeated {
                shard: file.shard,
                first: earlier.path.clone(),
                second: path.clone(),
            });
        }
        *slot = Some(file);
    }
    let present: Vec<u64> = (1..)
        .zip(&by_index)
        .filter_map(|(k, file)| file.as_ref().map(|_| k))
        .collect();
    if let Some(missing) = missing_text(&present, by_index.len() as u64) {
        return Err(JoinError::Missing {
            count: by_index.len() as u64,
            missing,
        });
    }
    let files: Vec<ShardFile> = by_index.into_iter().flatten().collect();
    let mut out = Output::create(output)?;
    let mut chunk = Vec::with_capacity(WRITE_CHUNK);
    format::write_header(&mut chunk, &whole).expect("writing to memory");
    // Game g is game g / N of shard g % N + 1.
    let count = files.len() as u64;
    for game in 0..games {
        let file = &files[(game % count) as usize];
        chunk.extend_from_slice(&file.bytes[file.blocks[(game / count) as usize].clone()]);
        if chunk.len() >= WRITE_CHUNK {
            out.write(&chunk)?;
            chunk.clear();
        }
    }
    out.write(&chunk)?;
    out.commit()?;
    Ok(())
}
