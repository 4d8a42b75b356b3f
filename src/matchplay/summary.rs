//! The match summary as JSON (`lielow match --json`, docs/formats.md "Match summaries"): one set of
//! serde types, written by the runner and read back by `--merge`.
//!
//! Only the counts are read back; the figures derived from them (score, Elo, LOS, LLR, means)
//! are written for the reader's convenience and skipped on reading, because the merge computes
//! them again from the summed counts. A figure that does not exist (no game yet) or is infinite
//! (a score of 0 or 1) is `null`.
//!
//! The layout is the one the summaries always had, so that scripts reading them line by line
//! keep working: the top-level fields one per line, each pairing and each engine one line, and
//! numbers as Rust prints them (`50`, not `50.0`; `0.000001`, not `1e-6`). [`SummaryFormatter`]
//! gives serde_json that layout.

use std::collections::BTreeMap;
use std::io::{self, Write};

use serde::{Deserialize, Serialize};
use serde_json::ser::{CharEscape, Formatter};

use super::report::{EngineTally, PairingTally, Tally};
use super::stats::{EloEstimate, Pentanomial, Sprt, SprtError, Verdict};
use crate::reason::Reason;
use crate::shard::Shard;

/// The largest count a summary may hold (2^40, about 10^12: a thousand times the most games
/// `--games` allows, and the plies and moves of those games).
pub const MAX_COUNT: u64 = 1 << 40;

/// A match's (or a shard's) summary.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Summary {
    /// Games finished.
    pub games: u64,
    /// Games scheduled.
    pub planned_games: u64,
    /// Identifies the match, so that only shards of one match are merged.
    pub fingerprint: String,
    /// The share of the match these games are.
    pub shard: Shard,
    /// Plies played by the engines (opening plies excluded).
    pub plies: u64,
    /// Derived: plies per game.
    #[serde(skip_deserializing)]
    pub average_plies: Option<f64>,
    /// One entry per pairing, in the match's order.
    pub pairings: Vec<PairingSummary>,
    /// The SPRT, when one runs.
    pub sprt: Option<SprtSummary>,
    /// One entry per engine, in the order of `--engine`.
    pub engines: Vec<EngineSummary>,
}

/// One pairing's results, from the first engine's point of view.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PairingSummary {
    /// The first engine's name.
    pub first: String,
    /// The second engine's name.
    pub second: String,
    /// Games the first engine won.
    pub wins: u64,
    /// Games the first engine lost.
    pub losses: u64,
    /// The game pairs by the first engine's points.
    pub pentanomial: Pentanomial,
    /// Derived: the first engine's mean score per game.
    #[serde(skip_deserializing)]
    pub score: Option<f64>,
    /// Derived: the Elo difference.
    #[serde(skip_deserializing)]
    pub elo: Option<f64>,
    /// Derived: the lower end of its 95% interval.
    #[serde(skip_deserializing)]
    pub elo_lower: Option<f64>,
    /// Derived: the upper end of its 95% interval.
    #[serde(skip_deserializing)]
    pub elo_upper: Option<f64>,
    /// Derived: half the interval's width.
    #[serde(skip_deserializing)]
    pub elo_error: Option<f64>,
    /// Derived: the likelihood of superiority.
    #[serde(skip_deserializing)]
    pub los: Option<f64>,
}

/// The SPRT's parameters, and where its LLR stands.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SprtSummary {
    /// The test's parameters.
    #[serde(flatten)]
    pub sprt: Sprt,
    /// Derived: the log-likelihood ratio of the first pairing's pairs.
    #[serde(skip_deserializing)]
    pub llr: f64,
    /// Derived: the lower bound (H0 below it).
    #[serde(skip_deserializing)]
    pub lower: f64,
    /// Derived: the upper bound (H1 above it).
    #[serde(skip_deserializing)]
    pub upper: f64,
    /// Derived: the bound crossed, if any.
    #[serde(skip_deserializing)]
    pub verdict: Option<Verdict>,
}

/// What one engine did.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct EngineSummary {
    /// The engine's name.
    pub name: String,
    /// Games played.
    pub games: u64,
    /// Games won.
    pub wins: u64,
    /// Derived: games lost.
    #[serde(skip_deserializing)]
    pub losses: u64,
    /// Games lost, by reason (every reason written; one left out reads as 0).
    pub losses_by_reason: BTreeMap<Reason, u64>,
    /// Moves made.
    pub moves: u64,
    /// Moves that came from a ponder hit.
    pub ponder_hits: u64,
    /// Total thinking time in milliseconds.
    pub time_ms: f64,
    /// Sum of the depths reported.
    pub depth_sum: u64,
    /// Moves that reported a depth.
    pub depth_count: u64,
    /// Derived: mean wall time per move.
    #[serde(skip_deserializing)]
    pub average_ms_per_move: Option<f64>,
    /// Derived: mean depth reported per move.
    #[serde(skip_deserializing)]
    pub average_depth: Option<f64>,
}

/// Why a summary read back is not one a run could have written (beyond what the JSON's shape
/// already says).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SummaryError {
    /// The JSON is not a summary's shape; serde_json's message.
    Json(String),
    /// A summary has no pairing.
    NoPairing,
    /// The shard is not K/N with 1 <= K <= N <= [`Shard::MAX_COUNT`].
    BadShard,
    /// A count beyond [`MAX_COUNT`] (the field named): no match plays that many, and sums of
    /// such counts would overflow.
    Count(&'static str),
    /// The SPRT's parameters are not a test `--sprt` accepts.
    Sprt(SprtError),
    /// A pairing names an engine the summary does not list.
    UnknownEngine(String),
}

impl std::fmt::Display for SummaryError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            SummaryError::Json(message) => f.write_str(message),
            SummaryError::NoPairing => f.write_str("no pairing"),
            SummaryError::BadShard => {
                write!(f, "a shard K/N without 1 <= K <= N <= {}", Shard::MAX_COUNT)
            }
            SummaryError::Count(field) => write!(f, "{field} is above {MAX_COUNT}"),
            SummaryError::Sprt(error) => write!(f, "sprt: {error}"),
            SummaryError::UnknownEngine(name) => write!(f, "pairing of unknown engine '{name}'"),
        }
    }
}

impl std::error::Error for SummaryError {}

impl From<serde_json::Error> for SummaryError {
    fn from(error: serde_json::Error) -> SummaryError {
        SummaryError::Json(error.to_string())
    }
}

impl Tally {
    /// The summary as JSON (docs/formats.md, "Match summaries").
    pub fn json(&self) -> String {
        Summary::of(self).to_json()
    }
}

impl Summary {
    /// The summary of `tally`, with every derived figure.
    pub fn of(tally: &Tally) -> Summary {
        let pairings = tally
            .pairings
            .iter()
            .map(|p| {
                let elo = p.pairs.elo();
                let field = |f: fn(&EloEstimate) -> f64| elo.as_ref().map(f);
                PairingSummary {
                    first: tally.names[p.first].clone(),
                    second: tally.names[p.second].clone(),
                    wins: p.wins,
                    losses: p.losses,
                    pentanomial: p.pairs,
                    score: field(|e| e.score),
                    elo: field(|e| e.elo),
                    elo_lower: field(|e| e.lower),
                    elo_upper: field(|e| e.upper),
                    elo_error: field(EloEstimate::error),
                    los: field(|e| e.los),
                }
            })
            .collect();
        let sprt = tally.llr().map(|(sprt, llr)| {
            let (lower, upper) = sprt.bounds();
            SprtSummary {
                sprt,
                llr,
                lower,
                upper,
                verdict: tally.verdict,
            }
        });
        let engines = tally
            .names
            .iter()
            .zip(&tally.engines)
            .map(|(name, e)| EngineSummary {
                name: name.clone(),
                games: e.games,
                wins: e.wins,
                losses: e.losses(),
                losses_by_reason: Reason::ALL.map(|r| (r, e.lost_by(r))).into(),
                moves: e.moves,
                ponder_hits: e.ponder_hits,
                time_ms: e.time_ms,
                depth_sum: e.depth_sum,
                depth_count: e.depth_count,
                average_ms_per_move: e.average_ms_per_move(),
                average_depth: e.average_depth(),
            })
            .collect();
        Summary {
            games: tally.games,
            planned_games: tally.planned_games,
            fingerprint: tally.fingerprint.clone(),
            shard: tally.shard,
            plies: tally.plies,
            average_plies: tally.average_plies(),
            pairings,
            sprt,
            engines,
        }
    }

    /// Reads a summary's text.
    pub fn parse(text: &str) -> Result<Summary, SummaryError> {
        Ok(serde_json::from_str(text)?)
    }

    /// The summary's text, as `--json` writes it (with a final line break).
    pub fn to_json(&self) -> String {
        let mut out = Vec::new();
        let mut serializer =
            serde_json::Serializer::with_formatter(&mut out, SummaryFormatter::default());
        self.serialize(&mut serializer)
            .expect("a summary of plain values serializes");
        out.push(b'\n');
        String::from_utf8(out).expect("serde_json writes UTF-8")
    }

    /// Refuses a count no match could reach: summing [`Shard::MAX_COUNT`] counts of at most
    /// [`MAX_COUNT`] each stays far inside a `u64`.
    fn check_counts(&self) -> Result<(), SummaryError> {
        let within = |field: &'static str, value: u64| {
            if value <= MAX_COUNT {
                Ok(())
            } else {
                Err(SummaryError::Count(field))
            }
        };
        within("games", self.games)?;
        within("planned_games", self.planned_games)?;
        within("plies", self.plies)?;
        for p in &self.pairings {
            within("wins", p.wins)?;
            within("losses", p.losses)?;
            for &count in &p.pentanomial.counts {
                within("pentanomial", count)?;
            }
        }
        for e in &self.engines {
            within("games", e.games)?;
            within("wins", e.wins)?;
            within("moves", e.moves)?;
            within("ponder_hits", e.ponder_hits)?;
            within("depth_sum", e.depth_sum)?;
            within("depth_count", e.depth_count)?;
            for &count in e.losses_by_reason.values() {
                within("losses_by_reason", count)?;
            }
            if !(e.time_ms.is_finite() && e.time_ms >= 0.0) {
                return Err(SummaryError::Count("time_ms"));
            }
        }
        Ok(())
    }

    /// The tally these counts make, the SPRT verdict decided again on them.
    pub fn into_tally(self) -> Result<Tally, SummaryError> {
        if self.pairings.is_empty() {
            return Err(SummaryError::NoPairing);
        }
        if !self.shard.is_valid() {
            return Err(SummaryError::BadShard);
        }
        self.check_counts()?;
        if let Some(sprt) = &self.sprt {
            sprt.sprt.check().map_err(SummaryError::Sprt)?;
        }
        let names: Vec<String> = self.engines.iter().map(|e| e.name.clone()).collect();
        let index_of = |name: String| {
            names
                .iter()
                .position(|n| *n == name)
                .ok_or(SummaryError::UnknownEngine(name))
        };
        let mut pairings = Vec::with_capacity(self.pairings.len());
        for p in self.pairings {
            pairings.push(PairingTally {
                first: index_of(p.first)?,
                second: index_of(p.second)?,
                wins: p.wins,
                losses: p.losses,
                pairs: p.pentanomial,
            });
        }
        let engines = self
            .engines
            .into_iter()
            .map(|e| EngineTally {
                games: e.games,
                wins: e.wins,
                losses_by_reason: e.losses_by_reason,
                moves: e.moves,
                time_ms: e.time_ms,
                depth_sum: e.depth_sum,
                depth_count: e.depth_count,
                ponder_hits: e.ponder_hits,
            })
            .collect();
        let sprt = self.sprt.map(|s| s.sprt);
        let mut tally = Tally::new(names, &[], self.planned_games, sprt);
        tally.pairings = pairings;
        tally.engines = engines;
        tally.games = self.games;
        tally.plies = self.plies;
        tally.shard = self.shard;
        tally.fingerprint = self.fingerprint;
        tally.verdict = sprt.and_then(|sprt| sprt.decide(&tally.pairings[0].pairs));
        Ok(tally)
    }
}

/// serde_json's output in the summary's layout: the root object one field per line, the lists
/// directly in it one element per line, everything deeper on one line with `, ` and `: `;
/// numbers in Rust's shortest form without exponent; control characters as `\u00XX`.
#[derive(Default)]
struct SummaryFormatter {
    /// Per open object or list: whether it is laid out over lines, and whether it has an
    /// element yet.
    open: Vec<bool>,
}

impl SummaryFormatter {
    fn indent(writer: &mut (impl Write + ?Sized), depth: usize) -> io::Result<()> {
        writer.write_all(b"\n")?;
        for _ in 0..depth {
            writer.write_all(b"  ")?;
        }
        Ok(())
    }

    /// Starts an element of the innermost object or list.
    fn element(&mut self, writer: &mut (impl Write + ?Sized), first: bool) -> io::Result<()> {
        let lines = self.open.last().copied().unwrap_or(false);
        match (lines, first) {
            (true, true) => Self::indent(writer, self.open.len()),
            (true, false) => {
                writer.write_all(b",")?;
                Self::indent(writer, self.open.len())
            }
            (false, true) => Ok(()),
            (false, false) => writer.write_all(b", "),
        }
    }

    fn close(&mut self, writer: &mut (impl Write + ?Sized), bracket: &[u8]) -> io::Result<()> {
        if self.open.pop().unwrap_or(false) {
            Self::indent(writer, self.open.len())?;
        }
        writer.write_all(bracket)
    }
}

impl Formatter for SummaryFormatter {
    fn begin_object<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.open.push(self.open.is_empty());
        writer.write_all(b"{")
    }

    fn end_object<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.close(writer, b"}")
    }

    fn begin_object_key<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.element(writer, first)
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        writer.write_all(b": ")
    }

    fn begin_array<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.open.push(self.open.len() == 1);
        writer.write_all(b"[")
    }

    fn end_array<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.close(writer, b"]")
    }

    fn begin_array_value<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.element(writer, first)
    }

    fn write_f64<W: ?Sized + Write>(&mut self, writer: &mut W, value: f64) -> io::Result<()> {
        write!(writer, "{value}")
    }

    fn write_char_escape<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        char_escape: CharEscape,
    ) -> io::Result<()> {
        let code = match char_escape {
            CharEscape::Quote => return writer.write_all(b"\\\""),
            CharEscape::ReverseSolidus => return writer.write_all(b"\\\\"),
            CharEscape::Solidus => return writer.write_all(b"\\/"),
            CharEscape::Backspace => 0x08,
            CharEscape::FormFeed => 0x0c,
            CharEscape::LineFeed => 0x0a,
            CharEscape::CarriageReturn => 0x0d,
            CharEscape::Tab => 0x09,
            CharEscape::AsciiControl(byte) => byte,
        };
        write!(writer, "\\u{code:04x}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_summary_reads_back_as_the_tally_it_was_written_from() {
        let names = vec!["a\t\"b\"".to_string(), "c".to_string()];
        let mut tally = Tally::new(names, &[(0, 1)], 8, None);
        tally.pairings[0].wins = 3;
        tally.pairings[0].losses = 1;
        tally.pairings[0].pairs.counts = [0, 0, 1, 0, 1];
        tally.engines[1].losses_by_reason.insert(Reason::Crash, 3);
        tally.engines[0].time_ms = 0.5;
        tally.games = 4;
        let text = Summary::of(&tally).to_json();
        assert!(
            text.contains(r#"{"name": "a\u0009\"b\"", "games": 0"#),
            "{text}"
        );
        assert!(
            text.contains(r#""pentanomial": [0, 0, 1, 0, 1], "score": 0.75"#),
            "{text}"
        );
        assert!(text.contains("\"time_ms\": 0.5,"), "{text}");
        assert!(text.starts_with("{\n  \"games\": 4,\n"), "{text}");
        assert!(text.ends_with("}\n  ]\n}\n"), "{text}");
        let back = Summary::parse(&text).unwrap().into_tally().unwrap();
        assert_eq!(back.names, tally.names);
        assert_eq!(back.pairings[0].pairs, tally.pairings[0].pairs);
        assert_eq!(back.engines[1].lost_by(Reason::Crash), 3);
        assert_eq!(back.engines[1].losses(), 3);
        assert_eq!(Summary::of(&back).to_json(), text);
    }
}
