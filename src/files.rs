//! The tools' file input and output, in one place, so that no command can hang on a file,
//! run out of memory reading one, or destroy one it was given:
//!
//! - a file is read only when it is a regular file (checked by its metadata before it is
//!   opened: opening a FIFO blocks, and a device such as `/dev/zero` never ends), and only up to
//!   a size limit fitting its format ([`limits`]), through `Read::take`, so that a file growing
//!   while it is read cannot exceed it either;
//! - an output is written to a temporary file in its own directory and renamed into place when
//!   it is complete ([`Output`]): an interrupted or failing command leaves the old file whole;
//! - [`check_outputs`] refuses, before anything is read or written, an output that is one of the
//!   inputs (by device and inode where the system has them, so a hard link or another spelling
//!   of the path is caught) or another output.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::file_error::FileError;

/// The most bytes read per format: far beyond any real file, far below what would exhaust
/// memory.
pub mod limits {
    /// A `lielow match --json` summary (a few kilobytes per pairing).
    pub const SUMMARY: u64 = 16 << 20;
    /// A game records file (a few hundred bytes a game).
    pub const RECORDS: u64 = 1 << 30;
    /// An openings file (one LFEN a line).
    pub const OPENINGS: u64 = 256 << 20;
    /// A datagen file (about 30 bytes a position).
    pub const DATA: u64 = 8 << 30;
}

/// Temporary files not yet renamed into place, removed by [`remove_unfinished`] when the
/// process is interrupted.
static UNFINISHED: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn unfinished() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    UNFINISHED
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Opens `path` for reading if it is a regular file of at most `limit` bytes.
fn open_regular(path: &Path, limit: u64) -> Result<File, FileError> {
    let metadata = std::fs::metadata(path).map_err(|error| FileError::read(path, error))?;
    if !metadata.is_file() {
        return Err(FileError::NotRegular(path.to_owned()));
    }
    if metadata.len() > limit {
        return Err(FileError::TooLarge {
            path: path.to_owned(),
            limit,
        });
    }
    File::open(path).map_err(|error| FileError::read(path, error))
}

/// The bytes of the regular file `path`, at most `limit` of them.
pub fn read_bytes(path: &Path, limit: u64) -> Result<Vec<u8>, FileError> {
    let file = open_regular(path, limit)?;
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|error| FileError::read(path, error))?;
    if bytes.len() as u64 > limit {
        return Err(FileError::TooLarge {
            path: path.to_owned(),
            limit,
        });
    }
    Ok(bytes)
}

/// The text of the regular file `path` (UTF-8), at most `limit` bytes of it.
pub fn read_text(path: &Path, limit: u64) -> Result<String, FileError> {
    String::from_utf8(read_bytes(path, limit)?)
        .map_err(|error| FileError::read(path, io::Error::new(io::ErrorKind::InvalidData, error)))
}

/// What a path is, to tell whether two paths are one file.
#[derive(PartialEq, Eq)]
struct Identity {
    /// Device and inode, when the file exists (Unix).
    inode: Option<(u64, u64)>,
    /// The canonical directory joined with the file's name (`None`: no such directory).
    location: Option<PathBuf>,
}

impl Identity {
    fn of(path: &Path) -> Identity {
        #[cfg(unix)]
        let inode = {
            use std::os::unix::fs::MetadataExt;
            std::fs::metadata(path)
                .ok()
                .map(|metadata| (metadata.dev(), metadata.ino()))
        };
        #[cfg(not(unix))]
        let inode = None;
        let location = match (std::fs::canonicalize(path), path.file_name()) {
            (Ok(canonical), _) => Some(canonical),
            (Err(_), Some(name)) => std::fs::canonicalize(parent_of(path))
                .ok()
                .map(|dir| dir.join(name)),
            (Err(_), None) => None,
        };
        Identity { inode, location }
    }

    fn same_file(&self, other: &Identity) -> bool {
        (self.inode.is_some() && self.inode == other.inode)
            || (self.location.is_some() && self.location == other.location)
    }
}

/// Refuses an output that is one of `inputs` or another of `outputs` (`-`, standard output,
/// is never a file).
pub fn check_outputs(inputs: &[&Path], outputs: &[&Path]) -> Result<(), FileError> {
    let is_file = |path: &&&Path| path.as_os_str() != "-";
    let inputs: Vec<(&Path, Identity)> = inputs
        .iter()
        .filter(is_file)
        .map(|&path| (path, Identity::of(path)))
        .collect();
    let mut seen: Vec<(&Path, Identity)> = Vec::new();
    for &output in outputs.iter().filter(is_file) {
        let identity = Identity::of(output);
        for (other, known) in inputs.iter().chain(&seen) {
            if identity.same_file(known) {
                return Err(FileError::Clash {
                    output: output.to_owned(),
                    other: other.to_path_buf(),
                });
            }
        }
        seen.push((output, identity));
    }
    Ok(())
}

/// The directory `path` is in (`.` for a bare file name).
fn parent_of(path: &Path) -> &Path {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    }
}

/// An output file being written: its text goes to a temporary file next to it (`.NAME.PID.tmp`,
/// in the same directory, so that the rename cannot cross file systems), renamed over `path`
/// by [`Output::commit`]. Dropped uncommitted, it removes the temporary file and leaves `path`
/// as it was.
#[derive(Debug)]
pub struct Output {
    path: PathBuf,
    temporary: PathBuf,
    file: File,
}

impl Output {
    /// Creates the temporary file of `path` (which fails now, not after the work, when the
    /// directory is not writable).
    pub fn create(path: &Path) -> Result<Output, FileError> {
        let name = path.file_name().ok_or_else(|| {
            FileError::write(
                path,
                io::Error::new(io::ErrorKind::InvalidInput, "not a file name"),
            )
        })?;
        if std::fs::metadata(path).is_ok_and(|metadata| !metadata.is_file()) {
            return Err(FileError::write(
                path,
                io::Error::new(io::ErrorKind::InvalidInput, "not a regular file"),
            ));
        }
        let temporary = parent_of(path).join(format!(
            ".{}.{}.tmp",
            name.to_string_lossy(),
            std::process::id()
        ));
        let file = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .open(&temporary)
            .map_err(|error| FileError::write(path, error))?;
        unfinished().push(temporary.clone());
        Ok(Output {
            path: path.to_owned(),
            temporary,
            file,
        })
    }

    /// The file this output becomes.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends `bytes` in one call (a line written this way is never torn by an interruption
    /// between two writes of it).
    pub fn write(&mut self, bytes: &[u8]) -> Result<(), FileError> {
        self.file
            .write_all(bytes)
            .map_err(|error| FileError::write(&self.path, error))
    }

    /// Flushes the temporary file to disk and renames it over the output's path.
    pub fn commit(self) -> Result<(), FileError> {
        self.file
            .sync_all()
            .map_err(|error| FileError::write(&self.path, error))?;
        std::fs::rename(&self.temporary, &self.path)
            .map_err(|error| FileError::write(&self.path, error))?;
        unfinished().retain(|path| *path != self.temporary);
        Ok(())
    }
}

impl Drop for Output {
    fn drop(&mut self) {
        let mut unfinished = unfinished();
        if let Some(index) = unfinished.iter().position(|path| *path == self.temporary) {
            unfinished.swap_remove(index);
            let _ = std::fs::remove_file(&self.temporary);
        }
    }
}

/// Removes the temporary files of every output not committed: what an interrupted command does
/// before it exits (the outputs' old files stay as they were).
pub fn remove_unfinished() {
    for path in std::mem::take(&mut *unfinished()) {
        let _ = std::fs::remove_file(path);
    }
}

/// On Ctrl-C or SIGTERM: removes the unfinished outputs' temporary files and exits with status
/// 130, for a command with no interrupt handling of its own (the old files stay whole).
pub fn remove_unfinished_on_interrupt() {
    let _ = ctrlc::set_handler(|| {
        remove_unfinished();
        std::process::exit(130);
    });
}

/// Writes `bytes` to `path` through a temporary file renamed into place.
pub fn write_whole(path: &Path, bytes: &[u8]) -> Result<(), FileError> {
    let mut output = Output::create(path)?;
    output.write(bytes)?;
    output.commit()
}

/// A file that grows only by whole pieces (a match's records, its PGN): each piece is one write,
/// then synced; a failed or short write is cut back off, so a reader never finds half a piece
/// that a living writer left.
#[derive(Debug)]
pub struct AppendFile {
    path: PathBuf,
    file: File,
    /// Bytes of whole pieces in the file.
    len: u64,
}

impl AppendFile {
    /// Opens `path` for appending (created if missing), its current bytes counted as whole.
    pub fn open(path: &Path) -> Result<AppendFile, FileError> {
        let file = OpenOptions::new()
            .append(true)
            .create(true)
            .open(path)
            .map_err(|error| FileError::write(path, error))?;
        let len = file
            .metadata()
            .map_err(|error| FileError::write(path, error))?
            .len();
        Ok(AppendFile {
            path: path.to_owned(),
            file,
            len,
        })
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Cuts the file to its first `len` bytes (a torn last piece, or everything).
    pub fn cut_to(&mut self, len: u64) -> Result<(), FileError> {
        self.file
            .set_len(len)
            .map_err(|error| FileError::write(&self.path, error))?;
        self.len = len;
        Ok(())
    }

    /// Appends `bytes` in one write, then syncs the file.
    pub fn append(&mut self, bytes: &[u8]) -> Result<(), FileError> {
        let written = match self.file.write(bytes) {
            Ok(n) if n == bytes.len() => self.file.sync_data(),
            Ok(_) => Err(io::Error::new(io::ErrorKind::WriteZero, "short write")),
            Err(error) => Err(error),
        };
        if let Err(error) = written {
            let _ = self.file.set_len(self.len);
            return Err(FileError::write(&self.path, error));
        }
        self.len += bytes.len() as u64;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("lielow-files-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn an_append_file_grows_by_whole_pieces_and_cuts_back() {
        let path = scratch("append").join("log.txt");
        let _ = std::fs::remove_file(&path);
        let mut file = AppendFile::open(&path).unwrap();
        file.append(b"one\n").unwrap();
        file.append(b"two\n").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "one\ntwo\n");
        file.cut_to(4).unwrap();
        file.append(b"three\n").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "one\nthree\n");
        // Opened again, it goes on after what is there.
        let mut again = AppendFile::open(&path).unwrap();
        again.append(b"four\n").unwrap();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "one\nthree\nfour\n"
        );
    }

    #[test]
    fn only_regular_files_within_the_limit_are_read() {
        let dir = scratch("read");
        let file = dir.join("a.txt");
        std::fs::write(&file, "hello").unwrap();
        assert_eq!(read_text(&file, 5).unwrap(), "hello");
        assert!(matches!(
            read_text(&file, 4),
            Err(FileError::TooLarge { limit: 4, .. })
        ));
        assert!(matches!(
            read_bytes(&dir, 100),
            Err(FileError::NotRegular(_))
        ));
        #[cfg(unix)]
        for device in ["/dev/zero", "/dev/urandom", "/dev/null"] {
            assert!(matches!(
                read_bytes(Path::new(device), 100),
                Err(FileError::NotRegular(_))
            ));
        }
        assert!(matches!(
            read_bytes(&dir.join("missing"), 100),
            Err(FileError::Read { .. })
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_output_replaces_its_file_only_when_committed() {
        let dir = scratch("output");
        let path = dir.join("out.json");
        std::fs::write(&path, "old").unwrap();
        let mut output = Output::create(&path).unwrap();
        output.write(b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "old");
        drop(output);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "old");
        assert_eq!(
            std::fs::read_dir(&dir).unwrap().count(),
            1,
            "no temporary left"
        );
        write_whole(&path, b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_output_that_is_an_input_or_another_output_is_refused() {
        let dir = scratch("clash");
        let input = dir.join("in.txt");
        std::fs::write(&input, "x").unwrap();
        let spelled = dir.join(".").join("in.txt");
        let fresh = dir.join("fresh.txt");
        assert!(check_outputs(&[&input], &[&fresh]).is_ok());
        assert!(matches!(
            check_outputs(&[&input], &[&spelled]),
            Err(FileError::Clash { .. })
        ));
        assert!(matches!(
            check_outputs(&[], &[&fresh, &dir.join("./fresh.txt")]),
            Err(FileError::Clash { .. })
        ));
        #[cfg(unix)]
        {
            let link = dir.join("link.txt");
            std::fs::hard_link(&input, &link).unwrap();
            assert!(matches!(
                check_outputs(&[&input], &[&link]),
                Err(FileError::Clash { .. })
            ));
        }
        assert!(check_outputs(&[Path::new("-")], &[Path::new("-")]).is_ok());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
