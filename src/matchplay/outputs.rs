//! What a match leaves behind: the records and PGN files, the `--json` summary and the table, kept in
//! one value that both the runner's thread and the Ctrl-C/SIGTERM handler reach through a
//! mutex, so that an interrupted match still ends with whole files: each game's record line
//! (and PGN) is appended as the game ends, in one write under the lock (the handler never
//! cuts one; a kill leaves at most a torn last line, which readers leave out), and the handler
//! writes the summary of the pairs finished before it (atomically: a temporary file renamed into
//! place) and then exits.

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use super::apgame_file::ApgameFile;
use super::pgn_file::PgnFile;
use super::report::Tally;
use super::resume::RecordsFile;
use super::runner::GameResult;
use crate::file_error::FileError;
use crate::files;
use crate::process;

/// Set by the interrupt handler before it stops the engines: a pair finished after it (its
/// games lost to the stopped engines, not played out) is not counted.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// The exit status of an interrupted match (128 + SIGINT, as a shell reports it).
pub const INTERRUPTED_STATUS: i32 = 130;

/// A match's outputs while it runs.
pub struct MatchOutputs {
    /// Every finished pair so far.
    pub tally: Tally,
    records: Option<RecordsFile>,
    /// The `--apgame` file, rewritten after each game.
    pub apgame: Option<ApgameFile>,
    pgn: Option<PgnFile>,
    json: Option<PathBuf>,
    /// The first failed records or PGN write (the match goes on; the error ends it).
    error: Option<FileError>,
    finished: bool,
}

/// The outputs, shared by the runner's thread and the interrupt handler.
pub type SharedOutputs = Arc<Mutex<MatchOutputs>>;

/// The outputs locked (a panic elsewhere does not make them unreachable).
pub fn lock(outputs: &SharedOutputs) -> MutexGuard<'_, MatchOutputs> {
    outputs
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl MatchOutputs {
    /// The outputs of a match that has played nothing yet.
    pub fn new(
        tally: Tally,
        records: Option<RecordsFile>,
        pgn: Option<PgnFile>,
        json: Option<PathBuf>,
    ) -> SharedOutputs {
        Arc::new(Mutex::new(MatchOutputs {
            tally,
            records,
            apgame: None,
            pgn,
            json,
            error: None,
            finished: false,
        }))
    }

    /// Whether the match was interrupted: `pair` must then be left out.
    pub fn interrupted(&self) -> bool {
        INTERRUPTED.load(Ordering::SeqCst)
    }

    /// Appends game `number`'s record line and PGN, and writes the `--apgame` file again (after
    /// a failed write, that file is no longer written: it keeps whole games only, and the error
    /// ends the match).
    pub fn record(&mut self, number: u64, game: &GameResult) {
        if let Some(file) = self.records.as_mut() {
            if let Err(error) = file.append(&game.record.to_string()) {
                self.records = None;
                self.error.get_or_insert(error);
            }
        }
        if let Some(file) = self.pgn.as_mut() {
            if let Err(error) = file.append(number, &game.record) {
                self.pgn = None;
                self.error.get_or_insert(error);
            }
        }
        if let Some(file) = self.apgame.as_mut() {
            if let Err(error) = file.add(game) {
                self.apgame = None;
                self.error.get_or_insert(error);
            }
        }
    }

    /// Prints the table and writes the summary (once; a second call does nothing).
    pub fn finish(&mut self) -> Result<(), FileError> {
        if std::mem::replace(&mut self.finished, true) {
            return Ok(());
        }
        if let Some(error) = self.error.take() {
            return Err(error);
        }
        let mut stdout = std::io::stdout().lock();
        let _ = stdout.write_all(self.tally.table().as_bytes());
        let _ = stdout.flush();
        if let Some(json) = self.json.take() {
            files::write_whole(&json, self.tally.json().as_bytes())?;
        }
        self.records = None;
        self.pgn = None;
        Ok(())
    }
}

/// On Ctrl-C or SIGTERM: stops the engines (they run in process groups of their own, out of
/// reach of the terminal's Ctrl-C), then writes what the finished pairs give and exits with
/// [`INTERRUPTED_STATUS`].
pub fn finish_on_interrupt(outputs: &SharedOutputs) {
    let outputs = Arc::clone(outputs);
    let _ = ctrlc::set_handler(move || {
        INTERRUPTED.store(true, Ordering::SeqCst);
        process::kill_all_engines();
        let mut outputs = lock(&outputs);
        eprintln!(
            "\nlielow match: interrupted; every engine it started is stopped; {} games kept",
            outputs.tally.games
        );
        if let Err(error) = outputs.finish() {
            eprintln!("lielow match: {error}");
        }
        std::process::exit(INTERRUPTED_STATUS);
    });
}
