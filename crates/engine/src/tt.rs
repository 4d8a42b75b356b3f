//! The transposition table: a fixed-size, lock-free hash of search results shared by every
//! search thread.
//!
//! # Entry layout
//!
//! Each entry is two `AtomicU64` words, `check` and `data`, written and read with relaxed
//! ordering and no lock. `data` packs the result, bit by bit (bit 0 is the lowest):
//!
//! ```text
//! bits  0..=15  best move, `Move::to_bits()` (0 = no move)
//! bits 16..=31  score, an i16, with proven results stored relative to this node (see below)
//! bits 32..=39  depth in plies (u8; qsearch stores 0)
//! bits 40..=41  bound: 0 = empty, 1 = upper (fail low), 2 = lower (fail high), 3 = exact
//! bits 42..=47  generation (the search counter modulo 64) that wrote the entry
//! bits 48..=63  static evaluation, an i16 (for pruning decisions at the node)
//! ```
//!
//! `check` holds `key ^ data`. A reader accepts an entry only when `check ^ data` equals its own
//! key, so an entry half-written by another thread (the two words from different writes) reads
//! as a miss: races are allowed by design and detected, never prevented. A stored move can still
//! come from another position whose key collides; the search checks every table move against
//! the position's legal moves before playing it.
//!
//! # Memory
//!
//! On Linux the table asks for 2 MiB pages (`madvise`, see `ask_for_huge_pages`): a probe lands
//! on a random bucket, and with 4 KiB pages it usually misses the processor's address
//! translation cache as well as the data cache. The search starts loading a child's bucket
//! before it plays the move: the next sibling's while it searches the current one
//! (`Worker::prefetch_sibling`), its own when it plays it (`Worker::play`).
//!
//! # Buckets and replacement
//!
//! Entries come in buckets of four (64 bytes, one cache line); a key maps to one bucket by a
//! multiply-shift of the key. A store overwrites, in order of preference: the entry with the same
//! key (unless the new result is shallower by more than 2 plies and not exact — then only its move
//! is refreshed if it had none), an empty entry, else the entry with the lowest
//! `depth - 8 * age`, where age is how many searches ago it was written. Old entries of earlier
//! moves so give way first, then shallow ones.
//!
//! # Proven results
//!
//! Scores of proven wins and losses count plies from the root; a table entry may be reached from
//! another root distance, so they are stored as distances from the node itself (`to_tt`) and
//! converted back with the reader's ply (`from_tt`).

use std::sync::atomic::{AtomicU64, Ordering};

use crate::score::Score;
use lielow_rules::moves::Move;

/// How an entry's score bounds the true score of its position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score is at most the stored one (no move reached alpha).
    Upper = 1,
    /// The true score is at least the stored one (a move reached beta).
    Lower = 2,
    /// The stored score is the true score at the stored depth.
    Exact = 3,
}

impl Bound {
    /// The bound a search's `best` score gives, for the window it was searched with (`alpha`
    /// as it was on entry, `beta`) and the `alpha` it ended with.
    #[inline]
    pub fn of(best: i32, alpha_on_entry: i32, alpha: i32, beta: i32) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if alpha > alpha_on_entry {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
}

/// A decoded table entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The best move found, still to be checked against the position.
    pub best_move: Option<Move>,
    /// Already converted to the reader's ply.
    pub score: i32,
    /// Depth of the search that stored it, in plies.
    pub depth: i32,
    /// How the score bounds the true score.
    pub bound: Bound,
    /// The static evaluation of the position.
    pub eval: i32,
}

impl Entry {
    /// Whether the stored score settles a search of the window (`alpha`, `beta`): an exact score
    /// always does, a lower bound at or above beta and an upper bound at or below alpha too.
    #[inline]
    pub fn cuts_off(&self, alpha: i32, beta: i32) -> bool {
        match self.bound {
            Bound::Exact => true,
            Bound::Lower => self.score >= beta,
            Bound::Upper => self.score <= alpha,
        }
    }

    /// `eval`, a static evaluation of the position, or the stored score where the bound puts
    /// the true score beyond it (a lower bound above it, an upper bound below it, an exact
    /// score): a search's verdict is a better guess than the evaluation it searched past.
    /// Proven results stay out: pruning margins are not for them.
    #[inline]
    pub fn sharpen(&self, eval: i32) -> i32 {
        let beyond = match self.bound {
            Bound::Exact => true,
            Bound::Lower => self.score > eval,
            Bound::Upper => self.score < eval,
        };
        if beyond && self.score.abs() < Score::MATE_BOUND {
            self.score
        } else {
            eval
        }
    }
}

const ENTRIES_PER_BUCKET: usize = 4;
const BUCKET_BYTES: usize = 64;

/// One cache line of four entries: `words[2 * i]` is entry i's check word, `words[2 * i + 1]`
/// its data word.
#[repr(align(64))]
#[derive(Default)]
struct Bucket {
    words: [AtomicU64; 2 * ENTRIES_PER_BUCKET],
}

impl Bucket {
    /// Each entry's index, check word and data word, as loaded now: the one scan that probe,
    /// store and hashfull share.
    #[inline]
    fn slots(&self) -> impl Iterator<Item = (usize, u64, u64)> + '_ {
        (0..ENTRIES_PER_BUCKET).map(move |i| {
            let data = self.words[2 * i + 1].load(Ordering::Relaxed);
            let check = self.words[2 * i].load(Ordering::Relaxed);
            (i, check, data)
        })
    }

    /// The data word of the entry stored for `key` (the torn-write check passed), if any.
    #[inline]
    fn find(&self, key: u64) -> Option<(usize, u64)> {
        self.slots()
            .find(|&(_, check, data)| check ^ data == key && bound_bits(data) != 0)
            .map(|(i, _, data)| (i, data))
    }

    #[inline]
    fn write(&self, i: usize, key: u64, data: u64) {
        self.words[2 * i].store(key ^ data, Ordering::Relaxed);
        self.words[2 * i + 1].store(data, Ordering::Relaxed);
    }
}

/// The shared table.
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    /// The current search's generation, 0..64, bumped by [`TranspositionTable::new_search`].
    generation: u8,
}

/// A table size the machine could not give.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AllocationError {
    /// The size asked for, in MiB.
    pub megabytes: usize,
}

impl std::fmt::Display for AllocationError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot allocate {} MiB", self.megabytes)
    }
}

impl std::error::Error for AllocationError {}

/// `count` empty buckets, or `None` if the allocator refuses.
fn allocate(count: usize) -> Option<Vec<Bucket>> {
    let mut buckets = Vec::new();
    buckets.try_reserve_exact(count).ok()?;
    ask_for_huge_pages(&mut buckets);
    buckets.resize_with(count, Bucket::default);
    Some(buckets)
}

/// Asks Linux to back the reserved, still untouched memory of `buckets` with 2 MiB pages
/// (transparent huge pages, where the system leaves them to `madvise`, the usual setting).
/// Every probe lands on a random bucket: with 4 KiB pages a 16 MiB table spans 4096 pages,
/// more than the processor's translation cache holds, so most probes also walk the page
/// tables: about 6% of a warm search's time (measured: see `docs/results/search.md`, "Speed").
/// Where the system refuses, nothing changes.
#[cfg(target_os = "linux")]
fn ask_for_huge_pages(buckets: &mut Vec<Bucket>) {
    const PAGE: usize = 4096;
    let start = buckets.as_mut_ptr() as usize;
    let end = start + buckets.capacity() * std::mem::size_of::<Bucket>();
    // madvise wants a page-aligned start; the allocator's large blocks are page-aligned
    // already, and rounding in keeps the range inside the block either way.
    let first = start.next_multiple_of(PAGE);
    let last = end / PAGE * PAGE;
    if last <= first {
        return;
    }
    // SAFETY: `first..last` lies inside the block `buckets` owns (its reserved capacity), and
    // MADV_HUGEPAGE neither reads, writes, frees nor remaps that memory: it only tells the
    // kernel which page size to fault it in with, so every Rust value and pointer stays valid.
    // The call cannot fail in a way that matters: its result is ignored, and the table works
    // the same with small pages.
    unsafe {
        libc::madvise(
            first as *mut libc::c_void,
            last - first,
            libc::MADV_HUGEPAGE,
        );
    }
}

#[cfg(not(target_os = "linux"))]
fn ask_for_huge_pages(_buckets: &mut Vec<Bucket>) {}

/// The memory the system can still give, where it says (Linux: `MemAvailable`). Allocation
/// itself seldom fails where memory is overcommitted: the process would be killed later, when
/// the table is written, so sizes beyond this are refused up front.
fn available_bytes() -> Option<usize> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib.saturating_mul(1024))
}

/// Converts a score to its stored form: proven results count from this node instead of the root.
#[inline]
pub fn to_tt(score: i32, ply: i32) -> i32 {
    if score > Score::MATE_BOUND {
        score + ply
    } else if score < -Score::MATE_BOUND {
        score - ply
    } else {
        score
    }
}

/// Converts a stored score back to a root-relative one for a node at `ply`.
#[inline]
pub fn from_tt(score: i32, ply: i32) -> i32 {
    if score > Score::MATE_BOUND {
        score - ply
    } else if score < -Score::MATE_BOUND {
        score + ply
    } else {
        score
    }
}

#[inline]
fn pack(
    best_move: Option<Move>,
    score: i32,
    depth: i32,
    bound: Bound,
    generation: u8,
    eval: i32,
) -> u64 {
    let mv = best_move.map_or(0, Move::to_bits) as u64;
    let score = (score.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16) as u64;
    let depth = depth.clamp(0, 255) as u64;
    let eval = (eval.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16) as u64;
    mv | score << 16
        | depth << 32
        | (bound as u64) << 40
        | (generation as u64 & 63) << 42
        | eval << 48
}

#[inline]
fn depth_of(data: u64) -> i32 {
    ((data >> 32) & 0xFF) as i32
}

#[inline]
fn generation_of(data: u64) -> u8 {
    ((data >> 42) & 63) as u8
}

#[inline]
fn bound_bits(data: u64) -> u64 {
    (data >> 40) & 3
}

impl TranspositionTable {
    /// A table of `megabytes` MiB (at least one bucket).
    ///
    /// # Panics
    /// If the memory cannot be had (use [`TranspositionTable::try_resize`] for sizes a user
    /// chose).
    pub fn new(megabytes: usize) -> TranspositionTable {
        let mut table = TranspositionTable::unallocated();
        table
            .try_resize(megabytes)
            .expect("memory for the transposition table");
        table
    }

    /// A table with no entries yet: [`TranspositionTable::try_resize`] must give it some before
    /// it is searched with (the protocol allocates at the first `isready` or `go`).
    pub fn unallocated() -> TranspositionTable {
        TranspositionTable {
            buckets: Vec::new(),
            generation: 0,
        }
    }

    /// Whether the table has entries (see [`TranspositionTable::unallocated`]).
    pub fn is_allocated(&self) -> bool {
        !self.buckets.is_empty()
    }

    /// Makes the table an empty one of `megabytes` MiB. The old entries are freed before the new
    /// ones are allocated, so the process never holds both (the peak memory stays near the Hash
    /// setting). A size the machine cannot give (more than its available memory, or refused by
    /// the allocator) is an error, and the table keeps its old size, emptied.
    pub fn try_resize(&mut self, megabytes: usize) -> Result<(), AllocationError> {
        let count = (megabytes.max(1) * 1024 * 1024 / BUCKET_BYTES).max(1);
        self.generation = 0;
        if count == self.buckets.len() {
            // Same size: clearing keeps the allocator from holding a freed copy resident.
            self.clear();
            return Ok(());
        }
        let refused = AllocationError { megabytes };
        if available_bytes().is_some_and(|free| count * BUCKET_BYTES > free + self.bytes()) {
            return Err(refused);
        }
        let old_count = self.buckets.len();
        self.buckets = Vec::new();
        match allocate(count) {
            Some(buckets) => {
                self.buckets = buckets;
                Ok(())
            }
            None => {
                // The old size was had before: take it again.
                self.buckets = allocate(old_count).unwrap_or_default();
                Err(refused)
            }
        }
    }

    /// The size in bytes of the entries.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * BUCKET_BYTES
    }

    /// Empties every entry (a new game).
    pub fn clear(&mut self) {
        for bucket in &self.buckets {
            for word in &bucket.words {
                word.store(0, Ordering::Relaxed);
            }
        }
        self.generation = 0;
    }

    /// Starts a new search: entries written from now on are younger than every earlier one.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 63;
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        let index = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[index]
    }

    /// Starts loading `key`'s bucket into the processor's cache, so that the probe of that
    /// position, a few hundred instructions later (a child is made, then its node opened),
    /// finds it there instead of waiting on memory: the probe's cache miss was the search's
    /// largest single cost.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        if self.buckets.is_empty() {
            return;
        }
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let bucket: *const Bucket = self.bucket(key);
            // SAFETY: a prefetch is only a hint to the cache: it reads nothing the program can
            // observe, writes nothing and cannot fault, whatever the address (and this one is a
            // bucket of the table, alive for as long as `self`). SSE, which it needs, is part
            // of every x86-64 processor.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(bucket.cast::<i8>()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry for `key`, if the table holds one; scores come back relative to the root for a
    /// node at `ply`.
    pub fn probe(&self, key: u64, ply: i32) -> Option<Entry> {
        let (_, data) = self.bucket(key).find(key)?;
        let bound = match bound_bits(data) {
            1 => Bound::Upper,
            2 => Bound::Lower,
            _ => Bound::Exact,
        };
        Some(Entry {
            best_move: Move::from_bits(data as u16),
            score: from_tt(i32::from((data >> 16) as u16 as i16), ply),
            depth: depth_of(data),
            bound,
            eval: i32::from((data >> 48) as u16 as i16),
        })
    }

    /// Stores `entry` (its score relative to the root) for `key`, found at `ply` from the root
    /// (see the module comment for which entry it replaces).
    pub fn store(&self, key: u64, ply: i32, entry: Entry) {
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        let mut best_move = entry.best_move;
        for (i, check, data) in bucket.slots() {
            if bound_bits(data) == 0 {
                if victim_worth > i32::MIN {
                    victim = i;
                    victim_worth = i32::MIN;
                }
                continue;
            }
            if check ^ data == key {
                if entry.bound != Bound::Exact && entry.depth + 2 < depth_of(data) {
                    // Keep the deeper result.
                    return;
                }
                if best_move.is_none() {
                    best_move = Move::from_bits(data as u16);
                }
                victim = i;
                break;
            }
            let age = i32::from((self.generation + 64 - generation_of(data)) & 63);
            let worth = depth_of(data) - 8 * age;
            if worth < victim_worth {
                victim = i;
                victim_worth = worth;
            }
        }
        let data = pack(
            best_move,
            to_tt(entry.score, ply),
            entry.depth,
            entry.bound,
            self.generation,
            entry.eval,
        );
        bucket.write(victim, key, data);
    }

    /// Per mille of the entries written in the current search, sampled over the first 250
    /// buckets (1000 entries).
    pub fn hashfull(&self) -> u32 {
        let sample = self.buckets.len().min(250);
        let used = self.buckets[..sample]
            .iter()
            .flat_map(Bucket::slots)
            .filter(|&(_, _, data)| bound_bits(data) != 0 && generation_of(data) == self.generation)
            .count();
        (used * 1000 / (sample * ENTRIES_PER_BUCKET).max(1)) as u32
    }

    /// Overwrites the data word of `key`'s entry alone, as a racing writer might (tests only).
    #[cfg(test)]
    fn tear(&self, key: u64) {
        let bucket = self.bucket(key);
        if let Some((i, data)) = bucket.find(key) {
            bucket.words[2 * i + 1].store(data ^ (1 << 20), Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lielow_rules::board::Square;

    fn sample_move() -> Move {
        Move::new(
            Square::parse("b2").unwrap(),
            Square::parse("e5").unwrap(),
            false,
        )
    }

    #[test]
    fn entry_is_sixteen_bytes_and_bucket_a_cache_line() {
        assert_eq!(std::mem::size_of::<Bucket>(), 64);
        assert_eq!(std::mem::align_of::<Bucket>(), 64);
        assert_eq!(TranspositionTable::new(1).bytes(), 1024 * 1024);
        let mut table = TranspositionTable::new(2);
        // More than any machine here has: refused, and the old size kept.
        assert_eq!(
            table.try_resize(1 << 40),
            Err(AllocationError { megabytes: 1 << 40 })
        );
        assert_eq!(table.bytes(), 2 * 1024 * 1024);
        assert!(!TranspositionTable::unallocated().is_allocated());
    }

    #[test]
    fn store_probe_round_trip() {
        let tt = TranspositionTable::new(1);
        let key = 0x1234_5678_9abc_def0;
        tt.store(
            key,
            3,
            Entry {
                best_move: Some(sample_move()),
                score: -123,
                depth: 7,
                bound: Bound::Lower,
                eval: 45,
            },
        );
        let entry = tt.probe(key, 3).expect("stored entry is found");
        assert_eq!(entry.best_move, Some(sample_move()));
        assert_eq!(entry.score, -123);
        assert_eq!(entry.depth, 7);
        assert_eq!(entry.bound, Bound::Lower);
        assert_eq!(entry.eval, 45);
        assert_eq!(tt.probe(key ^ 1, 3), None);
    }

    #[test]
    fn proven_scores_are_stored_relative_to_the_node() {
        let tt = TranspositionTable::new(1);
        let key = 42;
        // Found at ply 4: a win 5 plies from the root, so 1 ply from this node.
        tt.store(
            key,
            4,
            Entry {
                best_move: None,
                score: Score::win_in(5).0,
                depth: 3,
                bound: Bound::Exact,
                eval: 0,
            },
        );
        // Read at ply 2 the same node's win is 3 plies from that root.
        assert_eq!(tt.probe(key, 2).unwrap().score, Score::win_in(3).0);
        tt.store(
            key,
            6,
            Entry {
                best_move: None,
                score: Score::loss_in(8).0,
                depth: 9,
                bound: Bound::Exact,
                eval: 0,
            },
        );
        assert_eq!(tt.probe(key, 1).unwrap().score, Score::loss_in(3).0);
        assert_eq!(from_tt(to_tt(250, 7), 7), 250);
    }

    #[test]
    fn entries_cut_off_only_windows_their_bound_settles() {
        let entry = |bound| Entry {
            best_move: None,
            score: 50,
            depth: 3,
            bound,
            eval: 0,
        };
        assert!(entry(Bound::Exact).cuts_off(0, 100));
        assert!(entry(Bound::Lower).cuts_off(0, 50));
        assert!(!entry(Bound::Lower).cuts_off(0, 51));
        assert!(entry(Bound::Upper).cuts_off(50, 100));
        assert!(!entry(Bound::Upper).cuts_off(49, 100));
    }

    #[test]
    fn torn_entries_read_as_misses() {
        let tt = TranspositionTable::new(1);
        let key = 0xdead_beef;
        tt.store(
            key,
            0,
            Entry {
                best_move: Some(sample_move()),
                score: 10,
                depth: 5,
                bound: Bound::Exact,
                eval: 0,
            },
        );
        assert!(tt.probe(key, 0).is_some());
        tt.tear(key);
        assert_eq!(tt.probe(key, 0), None);
    }

    #[test]
    fn replacement_keeps_deeper_results_of_the_same_key() {
        let mut tt = TranspositionTable::new(1);
        let key = 77;
        tt.store(
            key,
            0,
            Entry {
                best_move: Some(sample_move()),
                score: 10,
                depth: 12,
                bound: Bound::Lower,
                eval: 0,
            },
        );
        tt.store(
            key,
            0,
            Entry {
                best_move: None,
                score: 20,
                depth: 3,
                bound: Bound::Upper,
                eval: 0,
            },
        );
        assert_eq!(tt.probe(key, 0).unwrap().depth, 12);
        tt.store(
            key,
            0,
            Entry {
                best_move: None,
                score: 30,
                depth: 11,
                bound: Bound::Upper,
                eval: 0,
            },
        );
        let entry = tt.probe(key, 0).unwrap();
        assert_eq!((entry.depth, entry.score), (11, 30));
        assert_eq!(entry.best_move, Some(sample_move()), "the old move is kept");
        tt.new_search();
        assert_eq!(tt.hashfull(), 0);
        tt.clear();
        assert_eq!(tt.probe(key, 0), None);
    }
}
