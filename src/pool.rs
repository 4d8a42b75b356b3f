//! Worker threads over numbered jobs, as the match runner plays game pairs and `lielow datagen`
//! plays games: each worker keeps its own state (engine processes, a searcher) across its jobs,
//! takes the next job's number from a shared counter, and hands what it makes to the calling
//! thread, which may stop the run. Jobs are numbered on the fly, never listed, so a run of any
//! size costs no memory for its schedule.
//!
//! Results reach the calling thread in the order they are finished; [`InOrder`] gives them back
//! in the order of their numbers, so that a file written as they come is the same whatever thread
//! finished first, while the workers run ahead on later jobs.

use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, SyncSender};
use std::thread;

/// Where a worker hands what it makes to the calling thread.
pub struct Outbox<M> {
    sender: SyncSender<M>,
}

impl<M> Outbox<M> {
    /// Hands `message` over, waiting until the calling thread takes it; `false` when the calling
    /// thread is no longer listening (the worker should stop).
    pub fn send(&self, message: M) -> bool {
        self.sender.send(message).is_ok()
    }
}

/// Runs the jobs numbered `jobs` on up to `workers` threads (never more threads than jobs, at
/// least one). Each thread first makes its state with `start_worker`, then runs `work` on each
/// job it takes, until the jobs run out, `work` returns `false`, or the run is stopped.
/// `receive` is called in the calling thread with every message the workers send; when it
/// returns `false` no job is started any more, and the run ends when the jobs in flight are done.
///
/// A message is handed over only when the calling thread takes it, so a stop decided on a
/// message leaves at most one job per worker in flight.
pub fn run<S, M: Send>(
    jobs: Range<u64>,
    workers: usize,
    start_worker: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, u64, &Outbox<M>) -> bool + Sync,
    mut receive: impl FnMut(M) -> bool,
) {
    let next = AtomicU64::new(jobs.start);
    let stop = AtomicBool::new(false);
    let (sender, receiver) = mpsc::sync_channel(0);
    let count = jobs.end.saturating_sub(jobs.start);
    let workers = (workers as u64).clamp(1, count.max(1)) as usize;
    thread::scope(|scope| {
        for _ in 0..workers {
            let outbox = Outbox {
                sender: sender.clone(),
            };
            let (next, stop, start_worker, work) = (&next, &stop, &start_worker, &work);
            scope.spawn(move || {
                let mut state = start_worker();
                while !stop.load(Ordering::Relaxed) {
                    let job = next.fetch_add(1, Ordering::Relaxed);
                    if job >= jobs.end || !work(&mut state, job, &outbox) {
                        break;
                    }
                }
            });
        }
        drop(sender);
        for message in receiver {
            if !receive(message) {
                stop.store(true, Ordering::Relaxed);
            }
        }
    });
}

/// Results numbered by their jobs, given back in the order of those numbers: a result waits
/// until every one before it has come.
pub struct InOrder<T> {
    next: u64,
    waiting: BTreeMap<u64, T>,
}

impl<T> InOrder<T> {
    /// Results numbered from `first`.
    pub fn starting_at(first: u64) -> InOrder<T> {
        InOrder {
            next: first,
            waiting: BTreeMap::new(),
        }
    }

    /// Takes result `number`; gives back, in order, the results now due (none while an earlier
    /// one is missing).
    pub fn put(&mut self, number: u64, result: T) -> impl Iterator<Item = T> + '_ {
        self.waiting.insert(number, result);
        std::iter::from_fn(move || {
            let result = self.waiting.remove(&self.next)?;
            self.next += 1;
            Some(result)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_back_in_the_order_of_their_numbers() {
        let mut in_order = InOrder::starting_at(3);
        assert_eq!(in_order.put(5, 'c').collect::<Vec<_>>(), []);
        assert_eq!(in_order.put(3, 'a').collect::<Vec<_>>(), ['a']);
        assert_eq!(in_order.put(4, 'b').collect::<Vec<_>>(), ['b', 'c']);
        assert_eq!(in_order.put(6, 'd').collect::<Vec<_>>(), ['d']);
    }

    #[test]
    fn every_job_runs_once_with_its_workers_state() {
        let mut seen = Vec::new();
        run(
            10..50,
            4,
            || 1000,
            |offset, job, outbox| outbox.send(*offset + job),
            |message| {
                seen.push(message);
                true
            },
        );
        seen.sort_unstable();
        assert_eq!(seen, (1010..1050).collect::<Vec<_>>());
    }

    #[test]
    fn a_stop_leaves_at_most_one_job_per_worker_in_flight() {
        let workers = 3;
        let mut received = 0;
        run(
            0..1000,
            workers,
            || (),
            |(), job, outbox| outbox.send(job),
            |_| {
                received += 1;
                received < 5
            },
        );
        assert!((5..=5 + workers).contains(&received), "{received}");
    }

    #[test]
    fn no_jobs_start_one_worker_that_does_nothing() {
        let mut started = AtomicU64::new(0);
        run(
            7..7,
            8,
            || started.fetch_add(1, Ordering::Relaxed),
            |_, _, outbox: &Outbox<()>| outbox.send(()),
            |()| panic!("no job to run"),
        );
        assert_eq!(*started.get_mut(), 1);
    }
}
