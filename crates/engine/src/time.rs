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
use crate::score::Score;
use lielow_rules::board::Side;
use lielow_rules::moves::Move;

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
/// Of the remaining time, the soft deadline plans about 1 / this (plus most of the increment):
/// the number of moves the clock is planned to last, without `movestogo`. The default of the
/// development option `TimeMovesToGo` (`search::params`), where the search reads it from.
pub const DEFAULT_MOVES_TO_GO: i32 = 25;

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
    /// The budget for `side` to move under `limits`, with the default move overhead and
    /// horizon.
    pub fn new(limits: &Limits, side: Side) -> TimeBudget {
        TimeBudget::with_overhead(
            limits,
            side,
            DEFAULT_MOVE_OVERHEAD_MS,
            DEFAULT_MOVES_TO_GO as u64,
        )
    }

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

    /// Whether to start another iteration, given the time the search has used so far, the
    /// time the last iteration took, and `scale`: how much of the soft budget this move
    /// deserves ([`Pacing::scale`]; 1: the planned share). The hard deadline bounds it.
    pub fn next_iteration_fits(
        &self,
        elapsed: Duration,
        last_iteration: Duration,
        scale: f64,
    ) -> bool {
        if self.fixed {
            // Nothing is saved by stopping early; an unfinished iteration can still improve on
            // the last move (its first root move is the last best one).
            return self.hard.is_none_or(|hard| elapsed < hard);
        }
        if let Some(soft) = self.soft {
            let scaled = soft.mul_f64(scale.max(0.0));
            let soft = self.hard.map_or(scaled, |hard| scaled.min(hard));
            if elapsed >= soft {
                return false;
            }
        }
        // Each iteration has cost roughly twice the previous one (the effective branching
        // factor with good move ordering); do not start one that would cross the hard deadline.
        self.hard
            .is_none_or(|hard| elapsed + last_iteration * 2 <= hard)
    }
}

/// The time manager's weights: how much a clear or a hard move moves the soft budget. All in
/// hundredths (of the budget, or per centi-stack of score), development options of the search
/// (`Pace*`, see `search::params`) so that SPSA can tune them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PacingWeights {
    /// The budget's share when the best move has just changed, in hundredths.
    pub stable_base: i32,
    /// Taken off `stable_base` for each further iteration that kept the best move.
    pub stable_step: i32,
    /// The least share stability can bring the budget down to.
    pub stable_min: i32,
    /// Hundredths added per 10 centi-stacks the score fell below the earlier iterations'
    /// average (taken off when it rose), within [`FALLING_RANGE`].
    pub falling: i32,
    /// The budget's share, in hundredths, when the best move took none of the nodes ...
    pub effort_base: i32,
    /// ... less this when it took all of them.
    pub effort_factor: i32,
}

/// The range of the falling-score factor: a collapse never more than doubles the time, a rise
/// never takes more than half of it away.
pub const FALLING_RANGE: (f64, f64) = (0.5, 2.0);

/// What the finished iterations of one search say about how hard its move is: whether the best
/// move keeps changing, whether the score is falling, and how much of the search the best move
/// took (a move that takes nearly every node is one the others cannot touch). Strong engines
/// of other games pace their clocks with the same three signs.
#[derive(Clone, Debug, Default)]
pub struct Pacing {
    best: Option<Move>,
    /// Iterations since the best move last changed.
    stable: u32,
    /// The earlier iterations' scores, averaged (each new one weighs half).
    average: Option<f64>,
    /// The score of the last iteration.
    score: i32,
    /// The best move's share of the nodes, from 0 to 1.
    effort: f64,
}

impl Pacing {
    /// Takes in a finished iteration: its best move, its score and the share of the nodes
    /// the best move took.
    pub fn record(&mut self, best: Move, score: i32, effort: f64) {
        if self.best.is_some() {
            // An earlier iteration's score joins the average.
            let previous = f64::from(self.score);
            self.average = Some(
                self.average
                    .map_or(previous, |average| (average + previous) / 2.0),
            );
        }
        if self.best == Some(best) {
            self.stable += 1;
        } else {
            self.best = Some(best);
            self.stable = 0;
        }
        self.score = score;
        self.effort = effort.clamp(0.0, 1.0);
    }

    /// How much of the soft budget the move deserves (1: the planned share). Decided scores
    /// (proofs) do not move it.
    pub fn scale(&self, weights: &PacingWeights) -> f64 {
        let Some(_) = self.best else { return 1.0 };
        let stability = f64::from(
            (weights.stable_base - weights.stable_step * self.stable as i32)
                .max(weights.stable_min),
        ) / 100.0;
        let falling = match self.average {
            Some(average)
                if self.score.abs() < Score::MATE_BOUND
                    && average.abs() < f64::from(Score::MATE_BOUND) =>
            {
                let drop = average - f64::from(self.score);
                (1.0 + drop / 10.0 * f64::from(weights.falling) / 100.0)
                    .clamp(FALLING_RANGE.0, FALLING_RANGE.1)
            }
            _ => 1.0,
        };
        let effort = (f64::from(weights.effort_base)
            - f64::from(weights.effort_factor) * self.effort)
            .max(1.0)
            / 100.0;
        stability * falling * effort
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::Clock;

    #[test]
    fn moves_to_go_shares_the_clock_among_the_moves_left() {
        let with = |moves_to_go| {
            let mut limits = clock(10_040, 0);
            if let Some(clock) = limits.clock.as_mut() {
                clock.moves_to_go = moves_to_go;
            }
            TimeBudget::new(&limits, Side::Blue)
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
                let budget = TimeBudget::new(&clock(time, increment), Side::Blue);
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
        let budget = TimeBudget::new(&clock(10_000, 0), Side::Blue);
        assert_eq!(budget.soft, Some(Duration::from_millis((10_000 - 40) / 25)));
        let red = TimeBudget::new(&clock(10_000, 0), Side::Red);
        assert!(red.soft > budget.soft);
        let with_increment = TimeBudget::new(&clock(10_000, 1000), Side::Blue);
        assert!(with_increment.soft.unwrap() > budget.soft.unwrap() + Duration::from_millis(500));
    }

    #[test]
    fn movetime_and_infinite() {
        let limits = Limits {
            movetime: Some(200),
            ..Limits::default()
        };
        let budget = TimeBudget::new(&limits, Side::Red);
        assert_eq!(budget.hard, Some(Duration::from_millis(190)));
        let overhead = TimeBudget::with_overhead(&limits, Side::Red, 50, 25);
        assert_eq!(overhead.hard, Some(Duration::from_millis(200 - 200 / 16)));
        // A short movetime keeps back a sixteenth, not the whole overhead: 47 ms of 50.
        let short = Limits {
            movetime: Some(50),
            ..Limits::default()
        };
        let short_budget = TimeBudget::new(&short, Side::Blue);
        assert_eq!(short_budget.hard, Some(Duration::from_millis(47)));
        let on_clock = TimeBudget::with_overhead(&clock(1_080, 0), Side::Blue, 50, 25);
        assert_eq!(on_clock.hard, Some(Duration::from_millis(250)));
        let infinite = Limits {
            infinite: true,
            movetime: Some(5),
            ..Limits::default()
        };
        assert_eq!(TimeBudget::new(&infinite, Side::Blue).hard, None);
        assert_eq!(TimeBudget::new(&Limits::default(), Side::Blue).hard, None);
        let budget = TimeBudget::new(&limits, Side::Blue);
        assert!(budget.fixed);
        assert!(budget.next_iteration_fits(
            Duration::from_millis(100),
            Duration::from_millis(60),
            1.0
        ));
        assert!(!budget.next_iteration_fits(
            Duration::from_millis(190),
            Duration::from_millis(5),
            1.0
        ));
        let with_clock = Limits {
            clock: clock(10_000, 0).clock,
            ..limits
        };
        let budget = TimeBudget::new(&with_clock, Side::Blue);
        assert!(!budget.fixed);
        assert!(!budget.next_iteration_fits(
            Duration::from_millis(100),
            Duration::from_millis(60),
            1.0
        ));
        assert!(budget.next_iteration_fits(
            Duration::from_millis(10),
            Duration::from_millis(5),
            1.0
        ));
    }

    const WEIGHTS: PacingWeights = PacingWeights {
        stable_base: 130,
        stable_step: 10,
        stable_min: 60,
        falling: 10,
        effort_base: 150,
        effort_factor: 80,
    };

    fn moves() -> (Move, Move) {
        let position =
            lielow_rules::position::Position::start(lielow_rules::board::BoardSize::Eight);
        let list = position.legal_moves();
        (list[0], list[1])
    }

    #[test]
    fn a_stable_best_move_that_takes_the_nodes_gets_less_time() {
        let (one, _) = moves();
        let mut pacing = Pacing::default();
        assert_eq!(
            pacing.scale(&WEIGHTS),
            1.0,
            "nothing known: the planned share"
        );
        pacing.record(one, 20, 0.5);
        let fresh = pacing.scale(&WEIGHTS);
        for _ in 0..10 {
            pacing.record(one, 20, 0.95);
        }
        let settled = pacing.scale(&WEIGHTS);
        assert!(settled < fresh, "{settled} {fresh}");
        // The floor: stability's minimum times the effort's share at 95%.
        assert!(
            (settled - 0.60 * (1.50 - 0.80 * 0.95)).abs() < 1e-9,
            "{settled}"
        );
    }

    #[test]
    fn a_changing_best_move_or_a_falling_score_gets_more_time() {
        let (one, two) = moves();
        let mut steady = Pacing::default();
        let mut changing = Pacing::default();
        let mut falling = Pacing::default();
        for i in 0..6 {
            steady.record(one, 10, 0.6);
            changing.record(if i % 2 == 0 { one } else { two }, 10, 0.6);
            falling.record(one, 10 - 30 * i, 0.6);
        }
        let steady = steady.scale(&WEIGHTS);
        assert!(changing.scale(&WEIGHTS) > steady);
        assert!(falling.scale(&WEIGHTS) > steady);
        // A collapse is bounded: at most FALLING_RANGE.1 times the steady figure.
        let mut collapse = Pacing::default();
        for i in 0..6 {
            collapse.record(one, -3000 * i, 0.6);
        }
        assert!(collapse.scale(&WEIGHTS) <= steady * FALLING_RANGE.1 + 1e-9);
    }

    #[test]
    fn the_scaled_soft_budget_never_passes_the_hard_deadline() {
        let budget = TimeBudget::new(&clock(10_000, 0), Side::Blue);
        let soft = budget.soft.unwrap();
        let hard = budget.hard.unwrap();
        let just_past_soft = soft + Duration::from_millis(1);
        assert!(!budget.next_iteration_fits(just_past_soft, Duration::ZERO, 1.0));
        assert!(budget.next_iteration_fits(just_past_soft, Duration::ZERO, 1.5));
        assert!(!budget.next_iteration_fits(soft.mul_f64(0.7), Duration::ZERO, 0.6));
        assert!(!budget.next_iteration_fits(hard, Duration::ZERO, 100.0));
    }
}
