//! The running tally of a match, its progress line and its final table (the same summary as JSON
//! is [`super::summary`]).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use lielow_rules::board::Side;

use super::runner::{GameResult, PairResult, Shard};
use super::stats::{EloEstimate, Pentanomial, Sprt, Verdict};
use super::summary::Summary;
use super::Reason;

/// Results of one pairing, from the first engine's point of view.
#[derive(Clone, Debug, Default)]
pub struct PairingTally {
    /// Index of the first engine (whose wins these are).
    pub first: usize,
    /// Index of the second engine.
    pub second: usize,
    /// Games the first engine won.
    pub wins: u64,
    /// Games the first engine lost.
    pub losses: u64,
    /// The game pairs, for Elo, LOS and SPRT.
    pub pairs: Pentanomial,
}

/// What one engine did over the whole match.
#[derive(Clone, Debug, Default)]
pub struct EngineTally {
    /// Games played.
    pub games: u64,
    /// Games won.
    pub wins: u64,
    /// Games lost, by reason (a reason not in the map: none).
    pub losses_by_reason: BTreeMap<Reason, u64>,
    /// Moves made (answers received).
    pub moves: u64,
    /// Total thinking time in milliseconds.
    pub time_ms: f64,
    /// Sum of the depths reported on the last `info` line of each move.
    pub depth_sum: u64,
    /// Moves that reported a depth.
    pub depth_count: u64,
    /// Moves that came from a ponder hit.
    pub ponder_hits: u64,
}

impl EngineTally {
    /// Games lost, whatever the reason.
    pub fn losses(&self) -> u64 {
        self.losses_by_reason.values().sum()
    }

    /// Games lost by `reason`.
    pub fn lost_by(&self, reason: Reason) -> u64 {
        self.losses_by_reason.get(&reason).copied().unwrap_or(0)
    }

    /// Mean wall time per move in milliseconds.
    pub fn average_ms_per_move(&self) -> Option<f64> {
        (self.moves > 0).then(|| self.time_ms / self.moves as f64)
    }

    /// Mean depth reported per move, for engines that report one.
    pub fn average_depth(&self) -> Option<f64> {
        (self.depth_count > 0).then(|| self.depth_sum as f64 / self.depth_count as f64)
    }
}

/// The whole match so far.
#[derive(Clone, Debug)]
pub struct Tally {
    /// Engine names, by engine index.
    pub names: Vec<String>,
    /// One tally per pairing.
    pub pairings: Vec<PairingTally>,
    /// One tally per engine.
    pub engines: Vec<EngineTally>,
    /// Games finished.
    pub games: u64,
    /// Games scheduled (the SPRT may stop the match before).
    pub planned_games: u64,
    /// Plies played by the engines (opening plies excluded).
    pub plies: u64,
    /// The SPRT, when one runs.
    pub sprt: Option<Sprt>,
    /// The first bound the LLR crossed, if any.
    pub verdict: Option<Verdict>,
    /// The share of the match these games are (`--shard`).
    pub shard: Shard,
    /// Identifies the match (its engines, limits, openings and seed), so that only shards of
    /// one match are merged.
    pub fingerprint: String,
}

impl Tally {
    /// An empty tally for these engines and pairings.
    pub fn new(
        names: Vec<String>,
        pairings: &[(usize, usize)],
        planned_games: u64,
        sprt: Option<Sprt>,
    ) -> Tally {
        Tally {
            engines: vec![EngineTally::default(); names.len()],
            names,
            pairings: pairings
                .iter()
                .map(|&(first, second)| PairingTally {
                    first,
                    second,
                    ..PairingTally::default()
                })
                .collect(),
            games: 0,
            planned_games,
            plies: 0,
            sprt,
            verdict: None,
            shard: Shard::WHOLE,
            fingerprint: String::new(),
        }
    }

    /// Adds a finished pair; returns `false` once the SPRT has decided (the match should stop).
    pub fn add(&mut self, pair: &PairResult) -> bool {
        let pairing = &mut self.pairings[pair.pairing];
        let mut half_points = 0;
        for game in &pair.games {
            let (winner, loser) = (game.winner_engine(), game.loser_engine());
            if winner == pairing.first {
                pairing.wins += 1;
                half_points += 2;
            } else {
                pairing.losses += 1;
            }
            self.engines[winner].wins += 1;
            *self.engines[loser]
                .losses_by_reason
                .entry(game.record.reason)
                .or_default() += 1;
            for side in 0..2 {
                let engine = &mut self.engines[game.players[side]];
                engine.games += 1;
                engine.moves += game.moves_made[side];
                engine.time_ms += game.time_used[side].as_secs_f64() * 1000.0;
                engine.depth_sum += game.depth_sum[side];
                engine.depth_count += game.depth_count[side];
                engine.ponder_hits += game.ponder_hits[side];
            }
            self.games += 1;
            self.plies += (game.record.moves.len() - game.opening_plies) as u64;
        }
        pairing.pairs.add(half_points);
        if let (Some(sprt), None) = (self.sprt, self.verdict) {
            self.verdict = sprt.decide(&self.pairings[0].pairs);
        }
        self.verdict.is_none()
    }

    /// Mean number of plies the engines played per game.
    pub fn average_plies(&self) -> Option<f64> {
        (self.games > 0).then(|| self.plies as f64 / self.games as f64)
    }

    /// The SPRT, when one runs, with the LLR of the first pairing's pairs.
    pub fn llr(&self) -> Option<(Sprt, f64)> {
        self.sprt
            .map(|sprt| (sprt, sprt.llr(&self.pairings[0].pairs)))
    }

    /// The one-line progress report.
    pub fn progress_line(&self) -> String {
        let mut line = format!("games {}/{}", self.games, self.planned_games);
        if self.pairings.len() == 1 {
            let p = &self.pairings[0];
            let _ = write!(line, "  {}-{}", p.wins, p.losses);
            if let Some(elo) = p.pairs.elo() {
                let _ = write!(line, " ({:.1}%)  elo {}", elo.score * 100.0, elo_text(&elo));
                if elo.elo == f64::INFINITY {
                    line.push_str(" (no losses yet)");
                } else if elo.elo == f64::NEG_INFINITY {
                    line.push_str(" (no wins yet)");
                }
            }
        } else {
            for (name, engine) in self.names.iter().zip(&self.engines) {
                let _ = write!(line, "  {name} {}/{}", engine.wins, engine.games);
            }
        }
        if let Some((sprt, llr)) = self.llr() {
            let (lower, upper) = sprt.bounds();
            let _ = write!(line, "  llr {llr:.2} [{lower:.2}, {upper:.2}]");
        }
        line
    }

    /// The final table.
    pub fn table(&self) -> String {
        let mut out = String::new();
        let width = self.names.iter().map(|n| n.len()).max().unwrap_or(4).max(6);
        let _ = writeln!(
            out,
            "{:<w$}  {:>9}  {:>6}  {:>17}  {:>18}  {:>6}",
            "pairing",
            "W-L",
            "score",
            "elo",
            "95% interval",
            "LOS",
            w = 2 * width + 4
        );
        for p in &self.pairings {
            let label = format!("{} vs {}", self.names[p.first], self.names[p.second]);
            let wl = format!("{}-{}", p.wins, p.losses);
            match p.pairs.elo() {
                Some(e) => {
                    let _ = writeln!(
                        out,
                        "{label:<w$}  {wl:>9}  {:>5.1}%  {:>17}  {:>18}  {:>5.1}%",
                        e.score * 100.0,
                        elo_text(&e),
                        interval_text(&e),
                        e.los * 100.0,
                        w = 2 * width + 4
                    );
                }
                None => {
                    let _ = writeln!(out, "{label:<w$}  {wl:>9}", w = 2 * width + 4);
                }
            }
        }
        for p in &self.pairings {
            let _ = writeln!(
                out,
                "{}  {} vs {}",
                pentanomial_text(&p.pairs),
                self.names[p.first],
                self.names[p.second]
            );
        }
        if let Some((sprt, llr)) = self.llr() {
            let (lower, upper) = sprt.bounds();
            let verdict = self
                .verdict
                .map_or("no verdict yet".to_string(), |v| v.to_string());
            let _ = writeln!(
                out,
                "SPRT elo0={} elo1={} alpha={} beta={}: LLR {llr:.2} [{lower:.2}, {upper:.2}], {verdict}",
                sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta
            );
        }
        let _ = writeln!(
            out,
            "{:<width$}  {:>6}  {:>6}  {:>9}  {:>9}  losses by reason",
            "engine", "games", "wins", "ms/move", "depth"
        );
        for (name, e) in self.names.iter().zip(&self.engines) {
            let reasons: Vec<String> = Reason::ALL
                .iter()
                .filter(|&&r| e.lost_by(r) > 0)
                .map(|&r| format!("{r} {}", e.lost_by(r)))
                .collect();
            let _ = writeln!(
                out,
                "{name:<width$}  {:>6}  {:>6}  {:>9}  {:>9}  {}",
                e.games,
                e.wins,
                e.average_ms_per_move()
                    .map_or("-".into(), |ms| format!("{ms:.1}")),
                e.average_depth().map_or("-".into(), |d| format!("{d:.1}")),
                if reasons.is_empty() {
                    "-".to_string()
                } else {
                    reasons.join(", ")
                }
            );
        }
        for (name, e) in self.names.iter().zip(&self.engines) {
            if e.ponder_hits > 0 {
                let _ = writeln!(
                    out,
                    "{name}: {} of {} moves were ponder hits ({:.1}%)",
                    e.ponder_hits,
                    e.moves,
                    100.0 * e.ponder_hits as f64 / e.moves as f64
                );
            }
        }
        if let Some(plies) = self.average_plies() {
            let _ = writeln!(
                out,
                "games {}, average length {plies:.1} plies (opening plies excluded)",
                self.games
            );
        }
        out
    }

    /// The summary as JSON (docs/formats.md, "Match summaries").
    pub fn json(&self) -> String {
        Summary::of(self).to_json()
    }
}

/// The line printed as game `number` of the match ends, in cutechess's words:
/// `Finished game 3 (new vs base): 1-0 {Blue wins: king-captured}`. Blue (player 1, named
/// first) winning is `1-0`, Red winning `0-1` (Lielow has no draws); the reason is the game
/// record's, followed for a forfeit by what went wrong.
pub fn finished_line(number: u64, game: &GameResult) -> String {
    let record = &game.record;
    let result = match record.winner {
        Side::Blue => "1-0",
        Side::Red => "0-1",
    };
    let mut line = format!(
        "Finished game {number} ({} vs {}): {result} {{{} wins: {}",
        record.blue, record.red, record.winner, record.reason
    );
    if let Some(detail) = &game.detail {
        let _ = write!(line, ", {detail}");
    }
    line.push('}');
    line
}

/// fastchess's pentanomial line, `Ptnml(0-2): [a, b, c, d, e]`: game pairs in which the first
/// engine scored 0, 1/2, 1, 3/2 and 2 points (the counts the Elo, LOS and SPRT are computed from).
pub fn pentanomial_text(pairs: &Pentanomial) -> String {
    let [a, b, c, d, e] = pairs.counts;
    format!("Ptnml(0-2): [{a}, {b}, {c}, {d}, {e}]")
}

/// `+70.4 ± 119.7`; at a score of 1 (or 0), where the Elo is infinite, the bound its interval
/// gives instead: `> +7.0` (or `< -7.0`).
fn elo_text(e: &EloEstimate) -> String {
    if e.elo == f64::INFINITY {
        format!("> {}", signed(e.lower))
    } else if e.elo == f64::NEG_INFINITY {
        format!("< {}", signed(e.upper))
    } else {
        format!("{} ± {}", signed(e.elo), unsigned(e.error()))
    }
}

/// `[-33.9, +189.6]`; an end the data cannot bound (at a score of 0 or 1) is open: `[+7.0, +inf)`.
fn interval_text(e: &EloEstimate) -> String {
    let open = |end: f64| !end.is_finite();
    format!(
        "{}{}, {}{}",
        if open(e.lower) { "(" } else { "[" },
        signed(e.lower),
        signed(e.upper),
        if open(e.upper) { ")" } else { "]" }
    )
}

fn signed(value: f64) -> String {
    // Adding 0.0 turns -0.0 (the Elo of exactly 50%) into +0.0.
    let value = value + 0.0;
    if value.is_finite() {
        format!("{value:+.1}")
    } else if value > 0.0 {
        "+inf".into()
    } else {
        "-inf".into()
    }
}

fn unsigned(value: f64) -> String {
    let value = value + 0.0;
    if value.is_finite() {
        format!("{value:.1}")
    } else {
        "inf".into()
    }
}
