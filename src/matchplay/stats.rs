//! Match statistics from game pairs: score, Elo with a 95% interval, likelihood of superiority
//! (LOS) and the sequential probability ratio test (SPRT).
//!
//! Every figure is computed from *pentanomial* counts — how many game pairs (the same opening
//! played twice with colours swapped) ended with 0, 1/2, 1, 3/2 or 2 points for the first engine —
//! rather than from the single games. The two games of a pair share an opening, so their results
//! are correlated; treating the pair as the unit of observation gives honest (usually narrower)
//! error bars, as fishtest and fastchess do. Lielow has no draws, so only the 0, 1 and 2 point
//! bins fill up, but the formulas are the general ones.
//!
//! The Elo model is the logistic one: a score `s` (0..1) is worth `-400 log10(1/s - 1)` Elo.
//! Its 95% interval is the normal one of the pair scores, unless that leaves (0, 1) or the pairs
//! do not vary: after few games it then read `+inf ± inf` or `± 0`, so the Wilson score
//! interval of the games takes its place ([`EloEstimate`]).
//! The SPRT uses the normal (GSPRT) approximation of the log-likelihood ratio that fishtest and
//! fastchess apply to pentanomial data:
//!
//! ```text
//! LLR = N (s1 - s0) (2 s - s0 - s1) / (2 var)
//! ```
//!
//! with `N` pairs, `s` the mean pair score (as a fraction), `var` the variance of the pair score,
//! and `s0`, `s1` the scores of `elo0` and `elo1`. Empty bins are given a weight of 1e-3 first
//! (fishtest's regularisation), so the ratio exists even when every pair ended the same way, and
//! no verdict is taken before [`MIN_PAIRS_FOR_VERDICT`] pairs.

use std::fmt;

/// The 97.5% quantile of the standard normal distribution: a two-sided 95% interval.
const Z_95: f64 = 1.959_963_984_540_054;

/// Game pairs before the SPRT may decide. The normal approximation divides by the estimated
/// variance, which a handful of identical pairs makes tiny (two won pairs already give an LLR near
/// 30 at elo1 = 20): no verdict is taken on fewer pairs than this.
pub const MIN_PAIRS_FOR_VERDICT: u64 = 10;

/// Weight given to an empty bin before the LLR is computed (fishtest's `regularize`).
const EMPTY_BIN_WEIGHT: f64 = 1e-3;

/// Game-pair counts: `counts[k]` pairs scored `k / 2` points (of 2) for the first engine. In
/// JSON, the list of the five counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(transparent)]
pub struct Pentanomial {
    /// Pairs by the first engine's points in half-points: 0, 1/2, 1, 3/2, 2 points.
    pub counts: [u64; 5],
}

impl Pentanomial {
    /// Adds a pair in which the first engine scored `half_points` half-points (0..=4).
    pub fn add(&mut self, half_points: usize) {
        self.counts[half_points.min(4)] += 1;
    }

    /// Number of pairs.
    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Mean and variance of the pair score (as a fraction of the pair's 2 points), over the bins
    /// weighted by `weights`; `None` without data.
    fn moments(weights: [f64; 5]) -> Option<(f64, f64)> {
        let total: f64 = weights.iter().sum();
        if total <= 0.0 {
            return None;
        }
        let value = |k: usize| k as f64 / 4.0;
        let mean = (0..5).map(|k| weights[k] * value(k)).sum::<f64>() / total;
        let variance = (0..5)
            .map(|k| weights[k] * (value(k) - mean).powi(2))
            .sum::<f64>()
            / total;
        Some((mean, variance))
    }

    fn weights(&self) -> [f64; 5] {
        self.counts.map(|c| c as f64)
    }

    /// The first engine's mean score per game, 0..1 (`None` before the first pair).
    pub fn score(&self) -> Option<f64> {
        Self::moments(self.weights()).map(|(mean, _)| mean)
    }

    /// The Elo difference (first engine minus second) with its 95% interval and the LOS.
    pub fn elo(&self) -> Option<EloEstimate> {
        let (mean, variance) = Self::moments(self.weights())?;
        let pairs = self.pairs() as f64;
        let standard_error = (variance / pairs).sqrt();
        let (low, high) = (mean - Z_95 * standard_error, mean + Z_95 * standard_error);
        let (low, high) = if standard_error > 0.0 && low > 0.0 && high < 1.0 {
            (low, high)
        } else {
            wilson_interval(mean, 2.0 * pairs)
        };
        let (lower, upper) = (elo_from_score(low), elo_from_score(high));
        let los = if standard_error > 0.0 {
            normal_cdf((mean - 0.5) / standard_error)
        } else if mean > 0.5 {
            1.0
        } else if mean < 0.5 {
            0.0
        } else {
            0.5
        };
        Some(EloEstimate {
            score: mean,
            elo: elo_from_score(mean),
            lower,
            upper,
            los,
        })
    }
}

/// The Wilson score interval (95%) of a score `score` over `games` games: the scores `p` whose
/// normal test `|score - p| <= z sqrt(p (1 - p) / games)` accepts. Unlike `score ± z se` it
/// stays inside [0, 1] and is not empty when every game ended the same way; it reaches 0 or 1
/// only at a score of 0 or 1 (then the other end is `games / (games + z²)` from it).
pub fn wilson_interval(score: f64, games: f64) -> (f64, f64) {
    let z2 = Z_95 * Z_95;
    let denominator = 1.0 + z2 / games;
    let centre = (score + z2 / (2.0 * games)) / denominator;
    let half =
        Z_95 * (score * (1.0 - score) / games + z2 / (4.0 * games * games)).sqrt() / denominator;
    let lower = if score <= 0.0 { 0.0 } else { centre - half };
    let upper = if score >= 1.0 { 1.0 } else { centre + half };
    (lower.max(0.0), upper.min(1.0))
}

/// An Elo difference and its 95% interval. The interval is the normal one of the pair scores
/// (`score ± 1.96 se`) while that lies strictly inside (0, 1) and the pairs vary; otherwise (few
/// pairs, a lopsided score, or every pair alike) the [`wilson_interval`] of the games, which
/// stays finite: only a score of 0 or 1 (no game won, or none lost) leaves the Elo and one end
/// infinite, and the other end is then the bound the data supports.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// Mean score per game, 0..1.
    pub score: f64,
    /// The Elo difference of the mean score.
    pub elo: f64,
    /// Lower end of the 95% interval.
    pub lower: f64,
    /// Upper end of the 95% interval.
    pub upper: f64,
    /// Likelihood of superiority: the probability that the first engine is the stronger one.
    pub los: f64,
}

impl EloEstimate {
    /// Half the width of the interval, the `±` figure.
    pub fn error(&self) -> f64 {
        (self.upper - self.lower) / 2.0
    }
}

/// The logistic Elo difference worth a score of `score` (0..1); ±infinity at the ends.
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// The expected score of an engine `elo` Elo stronger than its opponent.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The standard normal cumulative distribution function.
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

/// The complementary error function, by the Chebyshev fit of Numerical Recipes (`erfcc`):
/// relative error below 1.2e-7 everywhere, plenty for LOS.
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let value = t * poly.exp();
    if x >= 0.0 {
        value
    } else {
        2.0 - value
    }
}

/// The parameters of a sequential probability ratio test: H0 "the first engine is `elo0` Elo
/// stronger" against H1 "it is `elo1` stronger", with error rates `alpha` (accepting H1 when H0
/// holds) and `beta` (accepting H0 when H1 holds).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Sprt {
    /// Elo difference under H0.
    pub elo0: f64,
    /// Elo difference under H1.
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
}

/// Why an `--sprt` value is not a test.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SprtError {
    /// A field without `=`.
    NotKeyValue(String),
    /// A field whose value is no number.
    NotNumber {
        /// The field.
        field: String,
        /// Its value.
        value: String,
    },
    /// A field whose value is infinite or NaN.
    NotFinite(String),
    /// A key other than elo0, elo1, alpha, beta.
    UnknownField(String),
    /// elo0 or elo1 is missing.
    NoElo,
    /// elo0 is not below elo1.
    EloOrder,
    /// alpha or beta (named) is outside (0, 0.5).
    Rate(&'static str),
}

impl fmt::Display for SprtError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SprtError::NotKeyValue(field) => write!(f, "SPRT field '{field}' is not KEY=VALUE"),
            SprtError::NotNumber { field, value } => {
                write!(f, "SPRT field '{field}': '{value}' is not a number")
            }
            SprtError::NotFinite(field) => write!(f, "SPRT field '{field}' is not finite"),
            SprtError::UnknownField(key) => {
                write!(
                    f,
                    "unknown SPRT field '{key}' (use elo0, elo1, alpha, beta)"
                )
            }
            SprtError::NoElo => f.write_str("SPRT needs elo0 and elo1, e.g. elo0=0,elo1=5"),
            SprtError::EloOrder => f.write_str("SPRT needs elo0 < elo1"),
            SprtError::Rate(name) => write!(f, "SPRT {name} must lie strictly between 0 and 0.5"),
        }
    }
}

impl std::error::Error for SprtError {}

/// The outcome of an SPRT that has crossed a bound (in JSON `"H0"` or `"H1"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Verdict {
    /// The lower bound was crossed: H0 (`elo0`) accepted.
    H0,
    /// The upper bound was crossed: H1 (`elo1`) accepted.
    H1,
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Verdict::H0 => "H0 accepted",
            Verdict::H1 => "H1 accepted",
        })
    }
}

impl Sprt {
    /// Parses `elo0=0,elo1=5,alpha=0.05,beta=0.05` (any order; alpha and beta default to 0.05).
    pub fn parse(text: &str) -> Result<Sprt, SprtError> {
        let mut sprt = Sprt {
            elo0: f64::NAN,
            elo1: f64::NAN,
            alpha: 0.05,
            beta: 0.05,
        };
        for field in text.split(',').map(str::trim).filter(|f| !f.is_empty()) {
            let (key, value) = field
                .split_once('=')
                .ok_or_else(|| SprtError::NotKeyValue(field.to_owned()))?;
            let number: f64 = value.trim().parse().map_err(|_| SprtError::NotNumber {
                field: field.to_owned(),
                value: value.to_owned(),
            })?;
            if !number.is_finite() {
                return Err(SprtError::NotFinite(field.to_owned()));
            }
            match key.trim() {
                "elo0" => sprt.elo0 = number,
                "elo1" => sprt.elo1 = number,
                "alpha" => sprt.alpha = number,
                "beta" => sprt.beta = number,
                other => return Err(SprtError::UnknownField(other.to_owned())),
            }
        }
        if sprt.elo0.is_nan() || sprt.elo1.is_nan() {
            return Err(SprtError::NoElo);
        }
        sprt.check()?;
        Ok(sprt)
    }

    /// Refuses parameters that make no test (a summary read back is checked as `--sprt` is):
    /// elo0 and elo1 finite with elo0 < elo1, alpha and beta in (0, 0.5).
    pub fn check(&self) -> Result<(), SprtError> {
        for (name, value) in [("elo0", self.elo0), ("elo1", self.elo1)] {
            if !value.is_finite() {
                return Err(SprtError::NotFinite(name.to_owned()));
            }
        }
        if self.elo0 >= self.elo1 {
            return Err(SprtError::EloOrder);
        }
        for (name, rate) in [("alpha", self.alpha), ("beta", self.beta)] {
            if !(rate > 0.0 && rate < 0.5) {
                return Err(SprtError::Rate(name));
            }
        }
        Ok(())
    }

    /// The (lower, upper) LLR bounds: `ln(beta / (1 - alpha))` and `ln((1 - beta) / alpha)`.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 for these pairs (0 without data).
    pub fn llr(&self, pairs: &Pentanomial) -> f64 {
        let weights = pairs
            .weights()
            .map(|w| if w == 0.0 { EMPTY_BIN_WEIGHT } else { w });
        if pairs.pairs() == 0 {
            return 0.0;
        }
        let Some((mean, variance)) = Pentanomial::moments(weights) else {
            return 0.0;
        };
        let total: f64 = weights.iter().sum();
        let (s0, s1) = (score_from_elo(self.elo0), score_from_elo(self.elo1));
        total * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)
    }

    /// The verdict on these pairs: `None` before [`MIN_PAIRS_FOR_VERDICT`] pairs or while the
    /// LLR lies between the bounds.
    pub fn decide(&self, pairs: &Pentanomial) -> Option<Verdict> {
        if pairs.pairs() < MIN_PAIRS_FOR_VERDICT {
            return None;
        }
        self.verdict(self.llr(pairs))
    }

    /// The verdict once `llr` has crossed a bound.
    pub fn verdict(&self, llr: f64) -> Option<Verdict> {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Some(Verdict::H1)
        } else if llr <= lower {
            Some(Verdict::H0)
        } else {
            None
        }
    }
}
