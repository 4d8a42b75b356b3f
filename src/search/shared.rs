//! What every thread of one search shares: the stop flags, the node count of the helpers, the
//! split points, and where idle helpers wait.
//!
//! Helpers never run more than the machine can: at most one fewer than its hardware threads
//! (`std::thread::available_parallelism`) may be awake at once, each holding a *permit*. The
//! others sleep on a condition variable until the search ends. Before this, with `Threads` 64
//! or 256 on 2 cores, every idle helper spun in a yield loop and the main thread, one runnable
//! thread among hundreds, read the clock too late: `go movetime 50` took 380-760 ms. Awake
//! helpers still wait for work by yielding, not sleeping: a split point must find them at once.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::Duration;

use super::split_point::SplitPoint;

/// The longest a sleeping helper goes without looking at the flags (a safety net: the end of
/// the search wakes it at once).
const SLEEP_CHECK: Duration = Duration::from_millis(20);

/// What every thread of one search shares.
pub struct Shared<'a> {
    /// The caller's stop flag (`stop`, `quit`).
    stop: &'a AtomicBool,
    /// Set by the main thread when it is done, to end the helpers.
    over: AtomicBool,
    /// Nodes counted by the helper threads, flushed every `CHECK_INTERVAL` nodes.
    helper_nodes: AtomicU64,
    /// The main thread's split points, one per ply (empty with one thread).
    splits: &'a [SplitPoint],
    /// 1 + the ply of the innermost open split point, 0 when none: where idle helpers look.
    active_split: AtomicUsize,
    /// Awake helpers waiting for a split point to join.
    idle_helpers: AtomicUsize,
    /// Permits to be awake still free.
    permits: AtomicUsize,
    sleep: Mutex<()>,
    wake: Condvar,
}

impl<'a> Shared<'a> {
    pub fn new(stop: &'a AtomicBool, splits: &'a [SplitPoint], helpers: usize) -> Shared<'a> {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Shared {
            stop,
            over: AtomicBool::new(false),
            helper_nodes: AtomicU64::new(0),
            splits,
            active_split: AtomicUsize::new(0),
            idle_helpers: AtomicUsize::new(0),
            permits: AtomicUsize::new(helpers.min(cores.saturating_sub(1).max(1))),
            sleep: Mutex::new(()),
            wake: Condvar::new(),
        }
    }

    /// Whether the caller asked the search to stop.
    #[inline]
    pub fn stop_requested(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Whether the search is over for the helpers (stopped, or the main thread is done).
    #[inline]
    pub fn is_over(&self) -> bool {
        self.stop_requested() || self.over.load(Ordering::Relaxed)
    }

    /// Main thread: the search is done; helpers leave, sleeping ones are woken.
    pub fn finish(&self) {
        self.over.store(true, Ordering::Relaxed);
        // Under the lock, so that a helper between its check and its wait cannot miss it.
        let _guard = self.sleep.lock().unwrap_or_else(|p| p.into_inner());
        self.wake.notify_all();
    }

    /// Helper: waits for a permit to be awake; `false` when the search ended first.
    pub fn wait_for_permit(&self) -> bool {
        loop {
            let taken = self
                .permits
                .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| n.checked_sub(1));
            if taken.is_ok() {
                return true;
            }
            let guard = self.sleep.lock().unwrap_or_else(|p| p.into_inner());
            if self.is_over() {
                return false;
            }
            // Permits are only handed back when the search ends, so sleep until then.
            drop(self.wake.wait_timeout(guard, SLEEP_CHECK));
        }
    }

    /// Adds a helper's nodes to the total.
    #[inline]
    pub fn add_helper_nodes(&self, nodes: u64) {
        self.helper_nodes.fetch_add(nodes, Ordering::Relaxed);
    }

    pub fn helper_nodes(&self) -> u64 {
        self.helper_nodes.load(Ordering::Relaxed)
    }

    pub fn splits(&self) -> &'a [SplitPoint] {
        self.splits
    }

    /// Main thread: marks the split point of `ply` (or none) as where helpers look; returns the
    /// one marked before.
    pub fn set_active_split(&self, ply: Option<usize>) -> Option<usize> {
        let marked = ply.map_or(0, |ply| ply + 1);
        self.active_split
            .swap(marked, Ordering::AcqRel)
            .checked_sub(1)
    }

    /// The ply of the split point helpers should join, if any.
    #[inline]
    pub fn active_split(&self) -> Option<usize> {
        self.active_split.load(Ordering::Acquire).checked_sub(1)
    }

    /// Whether an awake helper is waiting for work.
    #[inline]
    pub fn has_idle_helper(&self) -> bool {
        self.idle_helpers.load(Ordering::Relaxed) > 0
    }

    /// A helper starts (`true`) or stops (`false`) waiting for work.
    pub fn set_idle(&self, idle: bool) {
        if idle {
            self.idle_helpers.fetch_add(1, Ordering::AcqRel);
        } else {
            self.idle_helpers.fetch_sub(1, Ordering::AcqRel);
        }
    }
}
