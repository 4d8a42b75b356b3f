//! The jobs that run on a worker thread while the input loop stays responsive: a search, `go
//! perft`, `bench`.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::{self, JoinHandle};
use std::time::Duration;

use super::Output;
use crate::limits::Limits;
use crate::search::{Report, Searcher};
use crate::ugi;
use lielow_rules::moves::Move;
use lielow_rules::perft;
use lielow_rules::position::Position;

/// What a worker thread is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum JobKind {
    Search,
    Perft,
    Bench,
}

/// A running (or just finished, not yet joined) worker job.
pub(super) struct Job {
    pub kind: JobKind,
    pub stop: Arc<AtomicBool>,
    /// Set just before the job's last line (`bestmove`, `Nodes searched`, bench totals): a client
    /// that has read that line can send `go` again and find the job joinable.
    pub finished: Arc<AtomicBool>,
    /// A search job returns its searcher, or `None` when the search panicked: the searcher,
    /// whose state the panic may have left half-changed, was dropped. Other jobs return `None`.
    pub handle: JoinHandle<Option<Searcher>>,
    /// A `go ponder` search's ponder-hit signal.
    pub ponderhit: Option<Arc<AtomicBool>>,
}

impl Job {
    /// Stops the job (it polls the flag) and wakes it if it waits for `stop`.
    pub fn signal_stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
        self.handle.thread().unpark();
    }

    /// The ponder hit of a `go ponder` search (nothing for other jobs); wakes it if it waits.
    pub fn signal_ponderhit(&self) {
        if let Some(signal) = &self.ponderhit {
            signal.store(true, Ordering::Release);
            self.handle.thread().unpark();
        }
    }
}

/// What a search job searches, and how its `bestmove` is written.
pub(super) struct SearchJob {
    pub position: Position,
    pub limits: Limits,
    /// `searchmoves` (empty: all).
    pub root_moves: Vec<Move>,
    /// `Ponder` is on: `bestmove` names the reply the search expects.
    pub name_reply: bool,
    /// The ponder-hit signal of a `go ponder` search.
    pub ponderhit: Arc<AtomicBool>,
    /// Tests only: the search panics at its first report.
    #[cfg(test)]
    pub panic_at_first_report: bool,
}

/// The search thread: search, report each iteration, wait for `stop` after an infinite search
/// (or for the ponder hit of a ponder search), then exactly one `bestmove` — always a legal
/// move, even if stopped before depth 1 finished or if the search panicked.
pub(super) fn search_job(
    mut searcher: Searcher,
    job: SearchJob,
    stop: Arc<AtomicBool>,
    finished: Arc<AtomicBool>,
    out: Output,
) -> Option<Searcher> {
    let SearchJob {
        position,
        limits,
        root_moves,
        name_reply,
        ponderhit,
        ..
    } = job;
    #[cfg(test)]
    let panic_at_first_report = job.panic_at_first_report;
    let mut report = |report: Report| {
        #[cfg(test)]
        if panic_at_first_report {
            panic!("a search made to panic by a test");
        }
        out.send(&ugi::report_line(report))
    };
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        searcher.search_among(&position, &limits, &root_moves, &stop, &mut report)
    }));
    let (proposed, reply, healthy) = match outcome {
        Ok(result) => (result.best_move, result.ponder, true),
        Err(_) => {
            out.send(&ugi::error_line("the search failed; playing a legal move"));
            (None, None, false)
        }
    };
    // `go infinite` never ends by itself, nor `go ponder` before its ponder hit, even when the
    // search has run out of depth (or failed): wait for stop, ponderhit or quit, which unpark
    // this thread.
    let waiting = || limits.infinite || (limits.ponder && !ponderhit.load(Ordering::Acquire));
    while waiting() && !stop.load(Ordering::SeqCst) {
        thread::park_timeout(Duration::from_millis(5));
    }
    let legal = position.legal_moves();
    let best = match proposed {
        Some(mv) if legal.contains(&mv) => Some(mv),
        Some(mv) => {
            out.send(&ugi::error_line(format!(
                "the search proposed the illegal move {mv}; playing a legal move"
            )));
            legal.first().copied()
        }
        None => legal.first().copied(),
    };
    // The reply is named only when it is legal after the move played.
    let reply = reply.filter(|reply| {
        best.is_some_and(|best| {
            proposed == Some(best) && position.play(best).try_play(*reply).is_ok()
        })
    });
    finished.store(true, Ordering::SeqCst);
    match (best, reply) {
        (Some(best), Some(reply)) if name_reply => {
            out.send(&ugi::bestmove_ponder_line(best, reply))
        }
        _ => out.send(&ugi::bestmove_line(best)),
    }
    healthy.then_some(searcher)
}

/// `go perft D`: the CLI's divide output (`<move>: <count>` per root move in generation order,
/// then `Nodes searched: <N>`), each root move counted with [`perft::perft`] below it, as
/// [`perft::divide`] does; `stop` ends it within a millisecond, with a partial total.
pub(super) fn perft_job(
    position: &Position,
    depth: u32,
    stop: &AtomicBool,
    finished: &AtomicBool,
    out: &Output,
) {
    let mut total = 0u64;
    if depth == 0 {
        total = 1;
    } else {
        let moves = position.legal_moves();
        let stopped = |done: usize| {
            out.send(&format!(
                "info string perft stopped after {done} of {} root moves: the total is partial",
                moves.len()
            ))
        };
        for (done, &mv) in moves.iter().enumerate() {
            if stop.load(Ordering::SeqCst) {
                stopped(done);
                break;
            }
            let Some(count) = perft::perft_until(&position.play(mv), depth - 1, stop) else {
                stopped(done);
                break;
            };
            total += count;
            out.send(&format!("{mv}: {count}"));
        }
    }
    finished.store(true, Ordering::SeqCst);
    out.send(&format!("Nodes searched: {total}"));
}
