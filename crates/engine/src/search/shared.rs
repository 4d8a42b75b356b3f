//! What every thread of one search shares: the stop flags, the node count of the helpers, the
//! split points, and where idle helpers look for work.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

use super::split_point::SplitPoint;

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
    /// Helpers waiting for a split point to join.
    idle_helpers: AtomicUsize,
}

impl<'a> Shared<'a> {
    pub fn new(stop: &'a AtomicBool, splits: &'a [SplitPoint]) -> Shared<'a> {
        Shared {
            stop,
            over: AtomicBool::new(false),
            helper_nodes: AtomicU64::new(0),
            splits,
            active_split: AtomicUsize::new(0),
            idle_helpers: AtomicUsize::new(0),
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

    /// Main thread: the search is done; the helpers leave.
    pub fn finish(&self) {
        self.over.store(true, Ordering::Relaxed);
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

    /// Whether a helper is waiting for work.
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
