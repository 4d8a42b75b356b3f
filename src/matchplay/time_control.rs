//! The clock of a match: `--tc [MOVES/]BASE+INC`, in cutechess's notation. Every side starts
//! with BASE seconds and gains INC after each of its moves; with MOVES, it also gains BASE again
//! after every MOVES moves of its own (the classical "40 moves in 90 minutes, repeating" form),
//! and each `go` says how many moves are left until then (`movestogo`).

use std::fmt;
use std::str::FromStr;

/// A clock time control, in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Moves per period (`None`: the whole game is one period).
    pub moves: Option<u32>,
    /// Time at the start, and added at the end of each period.
    pub base_ms: u64,
    /// Time added after every move.
    pub increment_ms: u64,
}

impl TimeControl {
    /// The moves left in the current period for a side that has made `made` moves: what `go`
    /// sends as `movestogo` (`None` without periods).
    pub fn moves_to_go(&self, made: u64) -> Option<u32> {
        self.moves
            .map(|moves| moves - (made % u64::from(moves)) as u32)
    }

    /// The time a side gains after its `made`-th move: the increment, and the base again when
    /// that move ends a period.
    pub fn gained_after(&self, made: u64) -> u64 {
        let period_over = self
            .moves
            .is_some_and(|moves| made > 0 && made.is_multiple_of(u64::from(moves)));
        self.increment_ms + if period_over { self.base_ms } else { 0 }
    }
}

/// What is wrong with a `--tc` value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TimeControlError {
    /// MOVES is not a positive whole number.
    Moves,
    /// BASE or INC is not a number of seconds.
    Seconds,
    /// BASE is zero.
    NoBase,
}

impl fmt::Display for TimeControlError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(match self {
            TimeControlError::Moves => "MOVES must be a positive whole number",
            TimeControlError::Seconds => {
                "expected [MOVES/]BASE+INC in seconds, e.g. 10+0.1 or 40/60+0"
            }
            TimeControlError::NoBase => "the base time must be positive",
        })
    }
}

impl std::error::Error for TimeControlError {}

impl FromStr for TimeControl {
    type Err = TimeControlError;

    fn from_str(text: &str) -> Result<TimeControl, TimeControlError> {
        let (moves, clock) = match text.split_once('/') {
            Some((moves, clock)) => match moves.trim().parse::<u32>() {
                Ok(moves) if moves > 0 => (Some(moves), clock),
                _ => return Err(TimeControlError::Moves),
            },
            None => (None, text),
        };
        let (base, increment) = clock.split_once('+').unwrap_or((clock, "0"));
        let millis = |part: &str| match part.trim().parse::<f64>() {
            Ok(seconds) if (0.0..1e9).contains(&seconds) => Ok((seconds * 1000.0).round() as u64),
            _ => Err(TimeControlError::Seconds),
        };
        let (base_ms, increment_ms) = (millis(base)?, millis(increment)?);
        if base_ms == 0 {
            return Err(TimeControlError::NoBase);
        }
        Ok(TimeControl {
            moves,
            base_ms,
            increment_ms,
        })
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        if let Some(moves) = self.moves {
            write!(f, "{moves}/")?;
        }
        let seconds = |ms: u64| ms as f64 / 1000.0;
        write!(
            f,
            "{}+{}",
            seconds(self.base_ms),
            seconds(self.increment_ms)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_cutechess_forms_and_prints_them_back() {
        let tc: TimeControl = "40/60+0.6".parse().unwrap();
        assert_eq!(
            tc,
            TimeControl {
                moves: Some(40),
                base_ms: 60_000,
                increment_ms: 600
            }
        );
        assert_eq!(tc.to_string(), "40/60+0.6");
        let tc: TimeControl = "10".parse().unwrap();
        assert_eq!((tc.moves, tc.base_ms, tc.increment_ms), (None, 10_000, 0));
        assert_eq!(tc.to_string(), "10+0");
        for (bad, error) in [
            ("0/10+0", TimeControlError::Moves),
            ("x/10+0", TimeControlError::Moves),
            ("-3/10", TimeControlError::Moves),
            ("10+x", TimeControlError::Seconds),
            ("", TimeControlError::Seconds),
            ("40/", TimeControlError::Seconds),
            ("1e12+0", TimeControlError::Seconds),
            ("0+1", TimeControlError::NoBase),
        ] {
            assert_eq!(bad.parse::<TimeControl>(), Err(error), "{bad}");
        }
    }

    #[test]
    fn periods_count_down_and_refill_the_clock() {
        let tc: TimeControl = "3/6+0.5".parse().unwrap();
        let to_go: Vec<Option<u32>> = (0..7).map(|made| tc.moves_to_go(made)).collect();
        assert_eq!(to_go, [3, 2, 1, 3, 2, 1, 3].map(Some));
        let gained: Vec<u64> = (1..=6).map(|made| tc.gained_after(made)).collect();
        assert_eq!(gained, [500, 500, 6500, 500, 500, 6500]);
        let sudden: TimeControl = "6+0.5".parse().unwrap();
        assert_eq!(sudden.moves_to_go(5), None);
        assert_eq!(sudden.gained_after(40), 500);
    }
}
