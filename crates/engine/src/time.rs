//! Time management: how long one search may think, from the `go` limits.
//!
//! Two deadlines come out of the limits. The *soft* one is the time the search means to spend:
//! between iterations it stops once past it, or once the next iteration, predicted from the last
//! one's growth, would end past the hard one. The *hard* one is never crossed: the main search
//! thread reads the clock every [`CHECK_INTERVAL`] nodes and stops at it. Both keep a margin for
//! the process latency (reading the command, printing `bestmove`, the runner's own overhead), and
//! the hard deadline never plans more than a fraction of the clock, so a game is never lost on
//! time by this engine.
//!
//! The share: without `movestogo` a move plans the remaining time over a horizon of
//! `TimeMovesToGo` moves (25), plus three quarters of the increment. Lielow games are short
//! (about 25 moves a side after the opening on 8x8, twice that on 9x9), so a game usually ends
//! with part of the clock unspent; the share stays even rather than paced by how hard a move
//! looks, and the horizon is an option for a tuner at a clock. Measured: see
//! `docs/results/search.md`, "Time management".

use std::time::{Duration, Instant};

use crate::limits::Limits;
use lielow_rules::board::Side;

/// Nodes between two reads of the clock and of the stop flag by the main thread (at several
/// million nodes per second, well under a millisecond).
pub const CHECK_INTERVAL: u64 = 1024;

/// The default `Move Overhead`: kept back from every time budget for the process and pipe
/// latency (reading the command, printing `bestmove`, the runner's own overhead), in ms.
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 10;
/// Kept back from a clock on top of the move overhead: a clock, unlike a `movetime`, is lost
/// for good when it runs out.
pub const CLOCK_SAFETY_MS: u64 = 30;
/// Kept back from the clock with the default overhead, in milliseconds.
pub const CLOCK_MARGIN_MS: u64 = DEFAULT_MOVE_OVERHEAD_MS + CLOCK_SAFETY_MS;
/// A `movetime` search keeps back the move overhead, but never more than the movetime / this.
/// The latency the overhead stands for is small next to it: from the hard deadline to the
/// runner reading `bestmove` is one clock check (every [`CHECK_INTERVAL`] nodes, under half a
/// millisecond) and a pipe write, under a millisecond in all here, while a fixed 10 ms left a
/// 50 ms move with 40 ms of search (a fifth of it idle). Unlike a clock, a movetime is not lost
/// for good by a late millisecond: runners allow for latency (`lielow match --latency-ms`).
/// Stockfish keeps nothing back from a movetime; this keeps 3 ms of 50, the whole default
/// overhead from 160 ms on.
const MOVETIME_KEPT_FRACTION: u64 = 16;
/// The hard deadline never exceeds remaining time / this.
const HARD_FRACTION: u64 = 4;
/// Deadlines of one search, as durations from its start. `None`: no time limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    /// Past this, start no new iteration.
    pub soft: Option<Duration>,
    /// Past this, stop at once.
    pub hard: Option<Duration>,
    /// A fixed `movetime` bounds the search: its time is spent either way, so iterations go on
    /// until the hard deadline (the best move of an unfinished iteration still counts).
    pub fixed: bool,
}

impl TimeBudget {
    /// The budget for `side` to move under `limits`, keeping `overhead` ms back from every
    /// budget (a sixteenth of a `movetime` at most) and planning a clock without `movestogo`
    /// to last `horizon` more moves (at least 1). `infinite` has no deadline at all; a
    /// `movetime` and a clock both apply when both are given (the tighter wins).
    pub fn with_overhead(limits: &Limits, side: Side, overhead: u64, horizon: u64) -> TimeBudget {
        if limits.infinite {
            return TimeBudget {
                soft: None,
                hard: None,
                fixed: false,
            };
        }
        let mut soft: Option<u64> = None;
        let mut hard: Option<u64> = None;
        if let Some(movetime) = limits.movetime {
            let ms = movetime
                .saturating_sub(overhead.min(movetime / MOVETIME_KEPT_FRACTION))
                .max(1);
            soft = Some(ms);
            hard = Some(ms);
        }
        if let Some(clock) = limits.clock {
            let time = clock.time[side.index()];
            let increment = clock.increment[side.index()];
            let available = time.saturating_sub(overhead + CLOCK_SAFETY_MS);
            // With `movestogo`, the clock has to last only that many moves before it is
            // topped up: plan an even share of it, and let the hard deadline grow towards the
            // whole clock (three quarters of it for the last move before the control).
            let horizon = horizon.max(1);
            let moves = clock
                .moves_to_go
                .map_or(horizon, |n| u64::from(n).clamp(1, horizon));
            let topped_up = clock.moves_to_go.is_some();
            let clock_hard = if topped_up && moves < HARD_FRACTION {
                available * 3 / (4 * moves)
            } else {
                available / HARD_FRACTION
            }
            .max(1);
            let clock_soft = (available / moves + increment * 3 / 4).clamp(1, clock_hard);
            soft = Some(soft.map_or(clock_soft, |s| s.min(clock_soft)));
            hard = Some(hard.map_or(clock_hard, |h| h.min(clock_hard)));
        }
        TimeBudget {
            soft: soft.map(Duration::from_millis),
            hard: hard.map(Duration::from_millis),
            fixed: limits.movetime.is_some() && limits.clock.is_none(),
        }
    }

    /// Whether a search started at `started` must stop now (hard deadline passed).
    #[inline]
    pub fn hard_expired(&self, started: Instant) -> bool {
        self.hard.is_some_and(|hard| started.elapsed() >= hard)
    }

    /// Whether to start another iteration, given the time the search has used so far and the
    /// time the last iteration took.
    pub fn next_iteration_fits(&self, elapsed: Duration, last_iteration: Duration) -> bool {
        if self.fixed {
            // Nothing is saved by stopping early; an unfinished iteration can still improve on
            // the last move (its first root move is the last best one).
            return self.hard.is_none_or(|hard| elapsed < hard);
        }
        if self.soft.is_some_and(|soft| elapsed >= soft) {
            return false;
        }
        // Each iteration has cost roughly twice the previous one (the effective branching
        // factor with good move ordering); do not start one that would cross the hard deadline.
        self.hard
            .is_none_or(|hard| elapsed + last_iteration * 2 <= hard)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::Clock;

    /// The budget the engine plans with its default move overhead and horizon.
    fn default_budget(limits: &Limits, side: Side) -> TimeBudget {
        let horizon = crate::search::Params::default().time_moves_to_go as u64;
        TimeBudget::with_overhead(limits, side, DEFAULT_MOVE_OVERHEAD_MS, horizon)
    }

    #[test]
    fn moves_to_go_shares_the_clock_among_the_moves_left() {
        let with = |moves_to_go| {
            let mut limits = clock(10_040, 0);
            if let Some(clock) = limits.clock.as_mut() {
                clock.moves_to_go = moves_to_go;
            }
            default_budget(&limits, Side::Blue)
        };
        let ms = |d: Option<Duration>| d.unwrap().as_millis() as u64;
        // Without it, a 25th of the clock; with 40 moves to go, no more than that.
        assert_eq!(ms(with(None).soft), 400);
        assert_eq!(ms(with(Some(40)).soft), 400);
        assert_eq!(ms(with(Some(10)).soft), 1000);
        // The last move before the control may use most of the clock, never all of it.
        assert_eq!(ms(with(Some(1)).hard), 7500);
        assert_eq!(ms(with(Some(1)).soft), 7500);
        assert_eq!(ms(with(Some(2)).hard), 3750);
        assert_eq!(ms(with(Some(0)).hard), 7500);
        for n in 1..60 {
            let budget = with(Some(n));
            assert!(
                ms(budget.soft) <= ms(budget.hard) && ms(budget.hard) < 10_000,
                "{n}"
            );
        }
    }

    #[test]
    fn a_shorter_horizon_plans_a_larger_share_within_the_hard_deadline() {
        let limits = clock(10_040, 100);
        let plan = |horizon| TimeBudget::with_overhead(&limits, Side::Blue, 10, horizon);
        let ms = |d: Option<Duration>| d.unwrap().as_millis() as u64;
        assert_eq!(ms(plan(25).soft), 400 + 75);
        assert_eq!(ms(plan(10).soft), 1000 + 75);
        // The hard deadline does not follow the horizon: a quarter of the clock at most.
        assert_eq!(ms(plan(10).hard), ms(plan(25).hard));
        assert_eq!(ms(plan(2).soft), ms(plan(2).hard));
        assert_eq!(ms(plan(2).hard), 2500);
        // With `movestogo`, the nearer of the two.
        let mut with_moves = limits;
        if let Some(clock) = with_moves.clock.as_mut() {
            clock.moves_to_go = Some(40);
        }
        let budget = TimeBudget::with_overhead(&with_moves, Side::Blue, 10, 10);
        assert_eq!(ms(budget.soft), 1000 + 75);
        // A horizon of 0 (refused as an option, but not a division by zero here) is 1.
        assert_eq!(ms(plan(0).soft), ms(plan(0).hard));
    }

    fn clock(time: u64, increment: u64) -> Limits {
        Limits {
            clock: Some(Clock {
                time: [time, 1_000_000],
                increment: [increment, 0],
                moves_to_go: None,
            }),
            ..Limits::default()
        }
    }

    #[test]
    fn never_plans_more_than_the_clock_minus_margin() {
        for time in [0, 1, 10, 39, 40, 41, 100, 1000, 60_000, 3_600_000] {
            for increment in [0, 10, 100, 1000, 10_000] {
                let budget = default_budget(&clock(time, increment), Side::Blue);
                let hard = budget.hard.unwrap().as_millis() as u64;
                let soft = budget.soft.unwrap().as_millis() as u64;
                assert!(soft <= hard, "time {time} inc {increment}");
                assert!(
                    hard <= time.saturating_sub(CLOCK_MARGIN_MS).max(1),
                    "time {time} inc {increment}: hard {hard}"
                );
            }
        }
    }

    #[test]
    fn uses_the_movers_clock_and_the_increment() {
        let budget = default_budget(&clock(10_000, 0), Side::Blue);
        assert_eq!(budget.soft, Some(Duration::from_millis((10_000 - 40) / 25)));
        let red = default_budget(&clock(10_000, 0), Side::Red);
        assert!(red.soft > budget.soft);
        let with_increment = default_budget(&clock(10_000, 1000), Side::Blue);
        assert!(with_increment.soft.unwrap() > budget.soft.unwrap() + Duration::from_millis(500));
    }

    #[test]
    fn movetime_and_infinite() {
        let limits = Limits {
            movetime: Some(200),
            ..Limits::default()
        };
        let budget = default_budget(&limits, Side::Red);
        assert_eq!(budget.hard, Some(Duration::from_millis(190)));
        let overhead = TimeBudget::with_overhead(&limits, Side::Red, 50, 25);
        assert_eq!(overhead.hard, Some(Duration::from_millis(200 - 200 / 16)));
        // A short movetime keeps back a sixteenth, not the whole overhead: 47 ms of 50.
        let short = Limits {
            movetime: Some(50),
            ..Limits::default()
        };
        let short_budget = default_budget(&short, Side::Blue);
        assert_eq!(short_budget.hard, Some(Duration::from_millis(47)));
        let on_clock = TimeBudget::with_overhead(&clock(1_080, 0), Side::Blue, 50, 25);
        assert_eq!(on_clock.hard, Some(Duration::from_millis(250)));
        let infinite = Limits {
            infinite: true,
            movetime: Some(5),
            ..Limits::default()
        };
        assert_eq!(default_budget(&infinite, Side::Blue).hard, None);
        assert_eq!(default_budget(&Limits::default(), Side::Blue).hard, None);
        let budget = default_budget(&limits, Side::Blue);
        assert!(budget.fixed);
        assert!(budget.next_iteration_fits(Duration::from_millis(100), Duration::from_millis(60)));
        assert!(!budget.next_iteration_fits(Duration::from_millis(190), Duration::from_millis(5)));
        let with_clock = Limits {
            clock: clock(10_000, 0).clock,
            ..limits
        };
        let budget = default_budget(&with_clock, Side::Blue);
        assert!(!budget.fixed);
        assert!(!budget.next_iteration_fits(Duration::from_millis(100), Duration::from_millis(60)));
        assert!(budget.next_iteration_fits(Duration::from_millis(10), Duration::from_millis(5)));
    }

    #[test]
    fn no_iteration_starts_past_the_soft_deadline() {
        let budget = default_budget(&clock(10_000, 0), Side::Blue);
        let soft = budget.soft.unwrap();
        let hard = budget.hard.unwrap();
        let just_past_soft = soft + Duration::from_millis(1);
        assert!(budget.next_iteration_fits(soft - Duration::from_millis(1), Duration::ZERO));
        assert!(!budget.next_iteration_fits(just_past_soft, Duration::ZERO));
        assert!(!budget.next_iteration_fits(hard, Duration::ZERO));
    }
}
