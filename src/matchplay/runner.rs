//! The match runner: game pairs scheduled over worker threads, the game loop, and the referee.
//!
//! Each worker of the pool ([`crate::pool`]) owns its own instance of every engine (processes
//! stay alive between its games and are told `uginewgame`), takes the next game pair from a
//! shared counter, plays both games, and sends the pair to the main thread, which keeps the
//! tally, writes records, reports progress and stops the match when the SPRT decides. The referee is the rules core: a move is accepted only
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

use std::collections::BTreeMap;
use std::time::Duration;

use lielow_engine::limits::{Clock, Limits};
use lielow_rules::board::Side;
use lielow_rules::moves::Move;
use lielow_rules::play::IllegalMove;
use lielow_rules::position::Position;

use super::limits::MoveLimits;
use super::stats::Sprt;
use crate::openings::Opening;
use crate::players::engine_spec::EngineSpec;
use crate::players::player::{MoveRequest, Player, Reply, Timeouts};
use crate::pool::{self, Outbox};
use crate::reason::Reason;
use crate::records::{GameRecord, MatchGame, SideFigures};
use crate::shard::Shard;

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

/// Games a resumed match finds in its records, by their number in the match
/// ([`game_number`]): they are taken as they are, not played again.
pub type Recorded = BTreeMap<u64, GameResult>;

/// Both games of one pair.
#[derive(Clone, Debug)]
pub struct PairResult {
    /// The pair's number in the whole match (see [`MatchConfig::job`]).
    pub job: u64,
    /// Index into [`MatchConfig::pairings`].
    pub pairing: usize,
    /// Which pair of that pairing (and so which opening).
    pub index: usize,
    /// The game with the pairing's first engine as Blue, then the one with it as Red.
    pub games: [GameResult; 2],
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
        format!("{:016x}", fnv1a(&described))
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

/// The FNV-1a hash of `text`: stable across builds and machines, unlike the standard library's
/// hasher.
pub fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Runs this shard's game pairs (or until `on_pair` returns `false`), calling `on_pair` in the
/// main thread as pairs finish.
pub fn run(config: &MatchConfig, on_pair: impl FnMut(PairResult) -> bool) {
    run_reporting_games(config, &Recorded::new(), |_, _| {}, on_pair);
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
/// ([`game_number`]) as soon as it ends, before its pair is complete. The games in `recorded`
/// are not played: their pairs take them as they are (and `on_game` does not see them).
pub fn run_reporting_games(
    config: &MatchConfig,
    recorded: &Recorded,
    mut on_game: impl FnMut(u64, &GameResult),
    mut on_pair: impl FnMut(PairResult) -> bool,
) {
    let pairings = config.pairings();
    let jobs = config.shard.jobs_of(config.total_jobs());
    let timeouts = Timeouts {
        handshake: config.timeout,
    };
    // Each worker owns its own instance of every engine.
    let start_worker = || -> Vec<Box<dyn Player>> {
        config
            .engines
            .iter()
            .map(|spec| spec.create(timeouts))
            .collect()
    };
    pool::run(
        0..jobs,
        config.concurrency,
        start_worker,
        |players, k, outbox| {
            let job = config.shard.job(k);
            play_pair(config, &pairings, recorded, players, job, outbox)
        },
        |finished| match finished {
            Finished::Game(number, game) => {
                on_game(number, &game);
                true
            }
            Finished::Pair(pair) => on_pair(*pair),
        },
    );
}

/// Plays the match's `job`-th game pair with `players` (but for its games in `recorded`),
/// handing each game played to `outbox` as soon as it ends, then the pair; `false` when the
/// main thread no longer listens.
fn play_pair(
    config: &MatchConfig,
    pairings: &[(usize, usize)],
    recorded: &Recorded,
    players: &mut [Box<dyn Player>],
    job: u64,
    outbox: &Outbox<Finished>,
) -> bool {
    let (pairing, index) = config.job(job);
    let (a, b) = pairings[pairing];
    let opening = &config.openings[index % config.openings.len()];
    let pairs = config.pairs_per_pairing();
    let seed = config
        .seed
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add((pairing as u64 * pairs as u64 + index as u64) * 2);
    let mut games = Vec::with_capacity(2);
    for (game, engines) in [[a, b], [b, a]].into_iter().enumerate() {
        let number = game_number(job, game);
        if let Some(known) = recorded.get(&number) {
            games.push(known.clone());
            continue;
        }
        let mut result = play_game(
            config,
            players,
            engines,
            opening,
            seed.wrapping_add(game as u64),
        );
        // Times as the record keeps them (microseconds): a resumed match counts the same.
        result.time_used = result
            .time_used
            .map(|t| Duration::from_micros(t.as_micros() as u64));
        result.record.played = Some(result.figures(number));
        if !outbox.send(Finished::Game(number, Box::new(result.clone()))) {
            return false;
        }
        games.push(result);
    }
    let [first, second] = <[GameResult; 2]>::try_from(games).expect("two games");
    let result = PairResult {
        job,
        pairing,
        index,
        games: [first, second],
    };
    outbox.send(Finished::Pair(Box::new(result)))
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
    let mut result = GameResult::starting(config, engines, opening);
    let mut clock = [config.limits.clock.map_or(0, |tc| tc.base_ms); 2];
    let (winner, reason) = loop {
        let us = position.side_to_move();
        if let Some(outcome) = position.outcome() {
            break (outcome.winner, Reason::from(outcome.end));
        }
        let side = us.index();
        let player = &mut players[engines[side]];
        if !started[side] {
            started[side] = true;
            let player_seed = seed.wrapping_mul(2).wrapping_add(side as u64);
            if let Err(failure) = player.new_game(player_seed) {
                result.detail = Some(failure.detail);
                break (us.opponent(), failure.reason);
            }
        }
        let turn = Turn::of(config, engines[side], side, clock, result.moves_made[side]);
        let request = MoveRequest {
            start: &start,
            moves: &moves,
            position: &position,
            limits: turn.limits,
            deadline: turn.deadline,
        };
        let reply = match player.go(&request) {
            Ok(reply) => reply,
            Err(failure) => {
                result.detail = Some(failure.detail);
                break (us.opponent(), failure.reason);
            }
        };
        result.count_reply(side, &reply);
        if let Some(detail) = turn.overstepped(&reply, config.latency) {
            result.detail = Some(detail);
            break (us.opponent(), Reason::TimeForfeit);
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
                    let limits = move_limits(config, turn.movetime, clock, result.moves_made[side]);
                    ponder_on(player.as_mut(), &start, &moves, &position, expected, limits);
                }
            }
            Err(error) => {
                result.detail = Some(illegal_move_detail(&reply.text, &error));
                break (us.opponent(), Reason::IllegalMove);
            }
        }
    };
    result.record.moves = moves;
    result.record.winner = winner;
    result.record.reason = reason;
    result
}

impl GameResult {
    /// A game of `engines` from `opening` before its first move.
    fn starting(config: &MatchConfig, engines: [usize; 2], opening: &Opening) -> GameResult {
        GameResult {
            record: GameRecord {
                start: opening.start,
                moves: Vec::new(),
                winner: Side::Blue,
                reason: Reason::NoMoves,
                blue: config.engines[engines[0]].name.clone(),
                red: config.engines[engines[1]].name.clone(),
                opening: Some(opening.moves.len()),
                played: None,
            },
            players: engines,
            opening_plies: opening.moves.len(),
            moves_made: [0; 2],
            time_used: [Duration::ZERO; 2],
            depth_sum: [0; 2],
            depth_count: [0; 2],
            ponder_hits: [0; 2],
            detail: None,
        }
    }

    /// The game's number `number` in the match and its sides' figures, as its record keeps them.
    pub fn figures(&self, number: u64) -> MatchGame {
        let side = |s: usize| SideFigures {
            moves: self.moves_made[s],
            micros: self.time_used[s].as_micros() as u64,
            depth_sum: self.depth_sum[s],
            depth_count: self.depth_count[s],
            ponder_hits: self.ponder_hits[s],
        };
        MatchGame {
            number,
            sides: [side(0), side(1)],
        }
    }

    /// The game a record of this match keeps (`None` when it names engines not in the match or
    /// lacks its opening or match fields).
    pub fn from_record(config: &MatchConfig, record: GameRecord) -> Option<GameResult> {
        let index = |name: &str| config.engines.iter().position(|e| e.name == name);
        let players = [index(&record.blue)?, index(&record.red)?];
        let played = record.played?;
        let opening_plies = record.opening?;
        let figures = |f: fn(&SideFigures) -> u64| played.sides.map(|side| f(&side));
        Some(GameResult {
            players,
            opening_plies,
            moves_made: figures(|s| s.moves),
            time_used: figures(|s| s.micros).map(Duration::from_micros),
            depth_sum: figures(|s| s.depth_sum),
            depth_count: figures(|s| s.depth_count),
            ponder_hits: figures(|s| s.ponder_hits),
            detail: None,
            record,
        })
    }

    /// Counts `reply`, the move of `side` (0 Blue, 1 Red): moves, time, ponder hits, depth.
    fn count_reply(&mut self, side: usize, reply: &Reply) {
        self.moves_made[side] += 1;
        self.time_used[side] += reply.elapsed;
        self.ponder_hits[side] += u64::from(reply.ponder_hit);
        if let Some(depth) = reply.depth {
            self.depth_sum[side] += u64::from(depth);
            self.depth_count[side] += 1;
        }
    }
}

/// What bounds one move of a side: what `go` sends, the budget a reply is held to, and how long
/// the runner waits for it.
struct Turn {
    /// The side's movetime: its own (time odds) or the match's.
    movetime: Option<u64>,
    /// What `go` sends.
    limits: Limits,
    /// The clock or the movetime the reply must come within (plus the latency allowance).
    budget: Option<Duration>,
    /// How long the runner waits for `bestmove` before the engine is `no-reply`.
    deadline: Duration,
}

impl Turn {
    /// The turn of `engine`, playing `side` (0 Blue, 1 Red), with the clocks at `clock`, after
    /// it has made `moves_made` moves of the game.
    fn of(
        config: &MatchConfig,
        engine: usize,
        side: usize,
        clock: [u64; 2],
        moves_made: u64,
    ) -> Turn {
        // An engine's own movetime (time odds) replaces the match's.
        let movetime = config.engines[engine].movetime.or(config.limits.movetime);
        let limits = move_limits(config, movetime, clock, moves_made);
        let budget = match (config.limits.clock, movetime) {
            (Some(_), _) => Some(Duration::from_millis(clock[side])),
            (None, Some(movetime)) => Some(Duration::from_millis(movetime)),
            (None, None) => None,
        };
        let deadline = budget.map_or(config.timeout, |b| b + config.latency + config.timeout);
        Turn {
            movetime,
            limits,
            budget,
            deadline,
        }
    }

    /// What went wrong when `reply` came after the budget plus the `latency` allowance (a time
    /// forfeit), or `None`.
    fn overstepped(&self, reply: &Reply, latency: Duration) -> Option<String> {
        let budget = self.budget?;
        (reply.elapsed > budget + latency).then(|| {
            format!(
                "took {} ms with {} ms left (+{} ms allowance)",
                reply.elapsed.as_millis(),
                budget.as_millis(),
                latency.as_millis()
            )
        })
    }
}

/// Why the move `text` a player sent was refused: `error`, or no move at all.
fn illegal_move_detail(text: &str, error: &IllegalMove) -> String {
    if text.is_empty() {
        "bestmove without a move".to_string()
    } else {
        format!("'{}': {error}", lielow_engine::ugi::shown(text))
    }
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
