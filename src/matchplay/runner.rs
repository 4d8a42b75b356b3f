//! The match runner: game pairs scheduled over worker threads, the game loop, and the referee.
//!
//! Each worker owns its own instance of every engine (processes stay alive between its games and
//! are told `uginewgame`), takes the next game pair from a shared counter, plays both games, and
//! sends the pair to the main thread, which keeps the tally, writes records, reports progress and
//! stops the match when the SPRT decides. The referee is the rules core: a move is accepted only
//! if it is legal, the runner keeps the clocks, and the runner alone decides the result.
//!
//! Time rules: with `--tc`, the time from `go` to `bestmove` is taken off the mover's clock, and a
//! move that takes longer than the clock plus the latency allowance is a `time-forfeit`; then the
//! increment is added. With `--movetime`, a move that takes longer than movetime plus the allowance
//! is a `time-forfeit`. An engine silent for longer than its budget (clock or movetime) plus the
//! no-reply timeout — or, with only `--depth`/`--nodes`, the no-reply timeout itself — is a
//! `no-reply`: killed, and started again for its next game.
//!
//! With `--tc MOVES/BASE+INC` each `go` carries `movestogo`, and BASE is added to a side's clock
//! after every MOVES of its moves. A pondering engine is asked to ponder on the reply it names
//! after each of its moves; on a ponder hit its clock runs from `ponderhit` to `bestmove`.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use lielow_engine::limits::{Clock, Limits};
use lielow_rules::board::Side;
use lielow_rules::moves::Move;
use lielow_rules::position::Position;

use super::engine_spec::EngineSpec;
use super::openings::Opening;
use super::player::{MoveRequest, Player, Timeouts};
use super::records::GameRecord;
use super::stats::Sprt;
use super::time_control::TimeControl;
use super::Reason;

/// The move limits of a match, as given on the command line (milliseconds).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveLimits {
    /// Each side's clock.
    pub clock: Option<TimeControl>,
    /// Time per move, sent in `go` and enforced.
    pub movetime: Option<u64>,
    /// Depth per move, sent in `go`.
    pub depth: Option<u32>,
    /// Nodes per move, sent in `go`.
    pub nodes: Option<u64>,
}

impl MoveLimits {
    /// Whether a clock or a movetime bounds every move.
    pub fn is_timed(&self) -> bool {
        self.clock.is_some() || self.movetime.is_some()
    }
}

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The players.
    pub engines: Vec<EngineSpec>,
    /// Games of each pairing (an even number: pairs of games).
    pub games: usize,
    /// Games played at once.
    pub concurrency: usize,
    /// What bounds each move.
    pub limits: MoveLimits,
    /// Latency allowance added to clock and movetime before a move is a time forfeit.
    pub latency: Duration,
    /// How long past its budget an engine may stay silent before it is `no-reply`.
    pub timeout: Duration,
    /// The openings, used in order (pair k plays opening k modulo their number).
    pub openings: Vec<Opening>,
    /// With more than two engines: the first plays every other (instead of all against all).
    pub gauntlet: bool,
    /// The SPRT that may stop the match early (two engines).
    pub sprt: Option<Sprt>,
    /// Seeds the built-in players' choices.
    pub seed: u64,
    /// The share of the game pairs this run plays.
    pub shard: Shard,
}

impl MatchConfig {
    /// The pairings, as (first, second) engine indices.
    pub fn pairings(&self) -> Vec<(usize, usize)> {
        let n = self.engines.len();
        if self.gauntlet {
            (1..n).map(|j| (0, j)).collect()
        } else {
            (0..n)
                .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
                .collect()
        }
    }

    /// Game pairs of each pairing.
    pub fn pairs_per_pairing(&self) -> usize {
        self.games.div_ceil(2)
    }
}

/// One played game, with what the tally needs besides the record.
#[derive(Clone, Debug)]
pub struct GameResult {
    /// The game as recorded.
    pub record: GameRecord,
    /// Engine indices of Blue and Red.
    pub players: [usize; 2],
    /// Plies of the opening (not played by the engines).
    pub opening_plies: usize,
    /// Per side: moves made, total thinking time, sum and count of reported depths.
    pub moves_made: [u64; 2],
    /// Per side: total wall time from `go` to `bestmove`.
    pub time_used: [Duration; 2],
    /// Per side: sum of the depths the engine reported.
    pub depth_sum: [u64; 2],
    /// Per side: moves that reported a depth.
    pub depth_count: [u64; 2],
    /// Per side: moves that came from a ponder hit.
    pub ponder_hits: [u64; 2],
    /// What went wrong, for forfeits.
    pub detail: Option<String>,
}

impl GameResult {
    /// Index of the engine that won.
    pub fn winner_engine(&self) -> usize {
        self.players[self.record.winner.index()]
    }

    /// Index of the engine that lost.
    pub fn loser_engine(&self) -> usize {
        self.players[self.record.winner.opponent().index()]
    }
}

/// Both games of one pair.
#[derive(Clone, Debug)]
pub struct PairResult {
    /// Index into [`MatchConfig::pairings`].
    pub pairing: usize,
    /// Which pair of that pairing (and so which opening).
    pub index: usize,
    /// The game with the pairing's first engine as Blue, then the one with it as Red.
    pub games: [GameResult; 2],
}

/// Which share of a match's game pairs one run plays (`--shard K/N`): the pairs whose number in
/// the match's order is K-1 modulo N, with the openings, seeds and colours the whole match
/// would give them. In JSON `{"index": K, "count": N}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Shard {
    /// K, from 1.
    pub index: u64,
    /// N.
    pub count: u64,
}

impl Shard {
    /// The whole match.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// The most shards a match is split into: far more than machines a match runs on, and few
    /// enough that a merge can list the missing ones.
    pub const MAX_COUNT: u64 = 10_000;

    /// Whether this is K/N with 1 <= K <= N <= [`Shard::MAX_COUNT`].
    pub fn is_valid(&self) -> bool {
        self.count <= Shard::MAX_COUNT && (1..=self.count).contains(&self.index)
    }

    /// How many of `jobs` game pairs (numbered from 0) this shard plays.
    pub fn jobs_of(&self, jobs: u64) -> u64 {
        jobs.saturating_sub(self.index - 1).div_ceil(self.count)
    }

    /// The number in the match of this shard's `k`-th game pair.
    pub fn job(&self, k: u64) -> u64 {
        (self.index - 1) + k * self.count
    }
}

/// A `--shard` value that is not K/N with 1 <= K <= N (the text given).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardError(pub String);

impl std::fmt::Display for ShardError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "--shard '{}': expected K/N with 1 <= K <= N <= {}, e.g. 3/8",
            lielow_engine::ugi::shown(&self.0),
            Shard::MAX_COUNT
        )
    }
}

impl std::error::Error for ShardError {}

impl std::str::FromStr for Shard {
    type Err = ShardError;

    fn from_str(text: &str) -> Result<Shard, ShardError> {
        let parsed = text.split_once('/').and_then(|(k, n)| {
            Some((k.trim().parse::<u64>().ok()?, n.trim().parse::<u64>().ok()?))
        });
        match parsed.map(|(index, count)| Shard { index, count }) {
            Some(shard) if shard.is_valid() => Ok(shard),
            _ => Err(ShardError(text.to_owned())),
        }
    }
}

impl MatchConfig {
    /// Identifies the match: a hash of everything that decides its games (engines, games,
    /// limits, openings, schedule, SPRT and seed; not the concurrency or the shard), written in
    /// each shard's summary so that only shards of one match are merged.
    pub fn fingerprint(&self) -> String {
        let described = format!(
            "{:?}|{}|{:?}|{:?}|{}|{:?}|{}|{:?}|{:?}",
            self.engines,
            self.games,
            self.limits,
            self.openings,
            self.gauntlet,
            self.sprt,
            self.seed,
            self.latency,
            self.timeout
        );
        // FNV-1a: stable across builds and machines, unlike the standard library's hasher.
        let hash = described
            .bytes()
            .fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| {
                (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
            });
        format!("{hash:016x}")
    }

    /// Game pairs in the whole match, every pairing included (the caller bounds `games`, so this
    /// cannot overflow).
    pub fn total_jobs(&self) -> u64 {
        self.pairings().len() as u64 * self.pairs_per_pairing() as u64
    }

    /// The pairing and pair index of the match's `job`-th game pair: the pairings take turns,
    /// so that a round-robin's tables fill evenly.
    pub fn job(&self, job: u64) -> (usize, usize) {
        let pairings = self.pairings().len() as u64;
        ((job % pairings) as usize, (job / pairings) as usize)
    }
}

/// Runs this shard's game pairs (or until `on_pair` returns `false`), calling `on_pair` in the
/// main thread as pairs finish. Pairs are numbered on the fly, never listed: a match of any
/// accepted size costs no memory for its schedule.
pub fn run(config: &MatchConfig, on_pair: impl FnMut(PairResult) -> bool) {
    run_reporting_games(config, |_, _| {}, on_pair);
}

/// The number in the whole match (from 1, as cutechess counts) of game `game` (0 or 1) of the
/// match's `job`-th game pair: the same in every shard.
pub fn game_number(job: u64, game: usize) -> u64 {
    2 * job + game as u64 + 1
}

/// What a worker hands the main thread: a game as soon as it ends, then its pair.
enum Finished {
    Game(u64, Box<GameResult>),
    Pair(Box<PairResult>),
}

/// [`run`], also calling `on_game` in the main thread with each game's number in the match
/// ([`game_number`]) as soon as it ends, before its pair is complete.
pub fn run_reporting_games(
    config: &MatchConfig,
    mut on_game: impl FnMut(u64, &GameResult),
    mut on_pair: impl FnMut(PairResult) -> bool,
) {
    let pairings = config.pairings();
    let pairs = config.pairs_per_pairing();
    let jobs = config.shard.jobs_of(config.total_jobs());
    let next = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    // A rendezvous channel: a worker hands over its pair before it takes the next job, so a
    // stop decided on that pair leaves at most one pair per worker in flight.
    let (sender, receiver) = mpsc::sync_channel(0);
    let workers = (config.concurrency as u64).clamp(1, jobs.max(1)) as usize;
    thread::scope(|scope| {
        for _ in 0..workers {
            let sender = sender.clone();
            let (next, stop, pairings) = (&next, &stop, &pairings);
            scope.spawn(move || {
                let timeouts = Timeouts {
                    handshake: config.timeout,
                };
                let mut players: Vec<Box<dyn Player>> = config
                    .engines
                    .iter()
                    .map(|spec| spec.create(timeouts))
                    .collect();
                while !stop.load(Ordering::Relaxed) {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    if k >= jobs {
                        break;
                    }
                    let job = config.shard.job(k);
                    let (pairing, index) = config.job(job);
                    let (a, b) = pairings[pairing];
                    let opening = &config.openings[index % config.openings.len()];
                    let seed = config
                        .seed
                        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                        .wrapping_add((pairing as u64 * pairs as u64 + index as u64) * 2);
                    let first = play_game(config, &mut players, [a, b], opening, seed);
                    let game = Finished::Game(game_number(job, 0), Box::new(first.clone()));
                    if sender.send(game).is_err() {
                        break;
                    }
                    let second =
                        play_game(config, &mut players, [b, a], opening, seed.wrapping_add(1));
                    let game = Finished::Game(game_number(job, 1), Box::new(second.clone()));
                    let result = PairResult {
                        pairing,
                        index,
                        games: [first, second],
                    };
                    if sender.send(game).is_err()
                        || sender.send(Finished::Pair(Box::new(result))).is_err()
                    {
                        break;
                    }
                }
            });
        }
        drop(sender);
        for finished in receiver {
            match finished {
                Finished::Game(number, game) => on_game(number, &game),
                Finished::Pair(pair) => {
                    if !on_pair(*pair) {
                        stop.store(true, Ordering::Relaxed);
                    }
                }
            }
        }
    });
}

/// Plays one game between `players[engines[0]]` (Blue) and `players[engines[1]]` (Red).
pub fn play_game(
    config: &MatchConfig,
    players: &mut [Box<dyn Player>],
    engines: [usize; 2],
    opening: &Opening,
    seed: u64,
) -> GameResult {
    let start = opening.start;
    let mut moves: Vec<Move> = opening.moves.clone();
    let mut position = opening.position();
    let mut started = [false; 2];
    let mut result = GameResult {
        record: GameRecord {
            start,
            moves: Vec::new(),
            winner: Side::Blue,
            reason: Reason::NoMoves,
            blue: config.engines[engines[0]].name.clone(),
            red: config.engines[engines[1]].name.clone(),
            opening: Some(opening.moves.len()),
        },
        players: engines,
        opening_plies: opening.moves.len(),
        moves_made: [0; 2],
        time_used: [Duration::ZERO; 2],
        depth_sum: [0; 2],
        depth_count: [0; 2],
        ponder_hits: [0; 2],
        detail: None,
    };
    let mut clock = [config.limits.clock.map_or(0, |tc| tc.base_ms); 2];
    let latency = config.latency;
    let (winner, reason) = loop {
        let us = position.side_to_move();
        if let Some(outcome) = position.outcome() {
            break (outcome.winner, Reason::from(outcome.end));
        }
        let player = &mut players[engines[us.index()]];
        if !started[us.index()] {
            started[us.index()] = true;
            let player_seed = seed.wrapping_mul(2).wrapping_add(us.index() as u64);
            if let Err(failure) = player.new_game(player_seed) {
                result.detail = Some(failure.detail);
                break (us.opponent(), failure.reason);
            }
        }
        // An engine's own movetime (time odds) replaces the match's.
        let movetime = config.engines[engines[us.index()]]
            .movetime
            .or(config.limits.movetime);
        let limits = move_limits(config, movetime, clock, result.moves_made[us.index()]);
        let budget = match (config.limits.clock, movetime) {
            (Some(_), _) => Some(Duration::from_millis(clock[us.index()])),
            (None, Some(movetime)) => Some(Duration::from_millis(movetime)),
            (None, None) => None,
        };
        let deadline = budget.map_or(config.timeout, |b| b + latency + config.timeout);
        let request = MoveRequest {
            start: &start,
            moves: &moves,
            position: &position,
            limits,
            deadline,
        };
        let reply = match player.go(&request) {
            Ok(reply) => reply,
            Err(failure) => {
                result.detail = Some(failure.detail);
                break (us.opponent(), failure.reason);
            }
        };
        let side = us.index();
        result.moves_made[side] += 1;
        result.time_used[side] += reply.elapsed;
        result.ponder_hits[side] += u64::from(reply.ponder_hit);
        if let Some(depth) = reply.depth {
            result.depth_sum[side] += u64::from(depth);
            result.depth_count[side] += 1;
        }
        if let Some(budget) = budget {
            if reply.elapsed > budget + latency {
                result.detail = Some(format!(
                    "took {} ms with {} ms left (+{} ms allowance)",
                    reply.elapsed.as_millis(),
                    budget.as_millis(),
                    latency.as_millis()
                ));
                break (us.opponent(), Reason::TimeForfeit);
            }
        }
        if let Some(tc) = config.limits.clock {
            let spent = reply.elapsed.as_millis() as u64;
            clock[side] =
                clock[side].saturating_sub(spent) + tc.gained_after(result.moves_made[side]);
        }
        match position.parse_move(&reply.text) {
            Ok(mv) => {
                position = position.play(mv);
                moves.push(mv);
                if let Some(expected) = reply.ponder.as_deref().filter(|_| player.ponders()) {
                    let limits = move_limits(config, movetime, clock, result.moves_made[side]);
                    ponder_on(player.as_mut(), &start, &moves, &position, expected, limits);
                }
            }
            Err(error) => {
                let detail = if reply.text.is_empty() {
                    "bestmove without a move".to_string()
                } else {
                    format!("'{}': {error}", lielow_engine::ugi::shown(&reply.text))
                };
                result.detail = Some(detail);
                break (us.opponent(), Reason::IllegalMove);
            }
        }
    };
    result.record.moves = moves;
    result.record.winner = winner;
    result.record.reason = reason;
    result
}

/// What `go` sends a side whose own movetime is `movetime`, with the clocks at `clock`, after
/// it has made `moves_made` moves of the game.
fn move_limits(
    config: &MatchConfig,
    movetime: Option<u64>,
    clock: [u64; 2],
    moves_made: u64,
) -> Limits {
    Limits {
        depth: config.limits.depth,
        nodes: config.limits.nodes,
        movetime,
        clock: config.limits.clock.map(|tc| Clock {
            time: clock,
            increment: [tc.increment_ms; 2],
            moves_to_go: tc.moves_to_go(moves_made),
        }),
        infinite: false,
        mate: None,
        ponder: false,
    }
}

/// Starts `player`'s ponder search on the reply `expected` it named after its move, when that
/// reply is legal after `moves` and leaves the game going (there is nothing to think about
/// otherwise). A failure to start it is the player's to report at its next move.
fn ponder_on(
    player: &mut dyn Player,
    start: &Position,
    moves: &[Move],
    position: &Position,
    expected: &str,
    limits: Limits,
) {
    if position.winner().is_some() {
        return;
    }
    let Ok(reply) = position.parse_move(expected) else {
        return;
    };
    let after = position.play(reply);
    if after.winner().is_some() {
        return;
    }
    let mut pondered = moves.to_vec();
    pondered.push(reply);
    player.ponder(&MoveRequest {
        start,
        moves: &pondered,
        position: &after,
        limits,
        deadline: Duration::ZERO,
    })
}
