//! The JSON API's routes: each takes its typed body ([`Body`]), checks every field (positions
//! and moves through the rules core, numbers against their bounds: out of bounds is refused,
//! never clamped) and answers JSON or a refusal.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use axum::extract::State;
use axum::response::{IntoResponse, Response};
use tokio::sync::Semaphore;

use super::api::{
    bad, Answer, Body, EnginesAnswer, GoRequest, LimitsRequest, PositionAnswer, PositionRequest,
    Refusal, ReviewRequest, Started, StopRequest, Stopped,
};
use super::engine::{Order, SearchOrder};
use super::puzzles::PuzzleSets;
use super::sessions::Sessions;
use super::threats;
use crate::analysis::review::{self, ReviewSettings};
use crate::analysis::review_report;
use crate::diagram::{self, Diagram};
use lielow_engine::limits::{Clock, Limits};
use lielow_engine::search::Searcher;
use lielow_engine::ugi;
use lielow_rules::moves::{Move, MoveText};
use lielow_rules::position::Position;

/// The longest game the API takes, in plies.
const MAX_PLIES: usize = 2000;
/// Reviews at once: each takes a core while it runs.
pub const MAX_REVIEWS: usize = 2;
/// The longest a review may be asked to take, in milliseconds (positions x movetime).
pub const MAX_REVIEW_MS: u64 = 2 * 60 * 1000;
/// The most nodes a review may be asked to search (positions x nodes per position): about two
/// minutes of one core.
pub const MAX_REVIEW_NODES: u64 = 200_000_000;
/// The bounds of a review's milliseconds per position.
const REVIEW_MOVETIME: std::ops::RangeInclusive<u64> = 10..=2000;
/// The bounds of `multipv`.
const MULTIPV: std::ops::RangeInclusive<u64> = 1..=32;
/// The bounds of `skill` (the engine's `Skill Level` option; the last is full strength).
const SKILL: std::ops::RangeInclusive<u64> = 0..=20;

/// What the routes share.
pub struct Shared {
    /// The open pages.
    pub sessions: Arc<Sessions>,
    /// One permit per review that may run.
    pub reviews: Arc<Semaphore>,
    /// The puzzle mode's puzzles.
    pub puzzles: Arc<PuzzleSets>,
}

/// `GET /api/engines`.
pub async fn engines(State(shared): State<Arc<Shared>>) -> Response {
    Answer(EnginesAnswer {
        engines: shared.sessions.engine_names(),
    })
    .into_response()
}

/// `GET /api/events`: opens the page's session; see `sessions`.
pub async fn events(State(shared): State<Arc<Shared>>) -> Response {
    match shared.sessions.open() {
        Ok(stream) => stream.into_response(),
        Err(refusal) => refusal.into_response(),
    }
}

/// A game checked by the rules core.
pub(super) struct Game {
    pub start: Position,
    pub moves: Vec<Move>,
    /// The position after the moves.
    pub now: Position,
}

/// The start position and the moves of a request, checked by the rules core.
pub(super) fn game_of(start: Option<&str>, texts: &[String]) -> Result<Game, Refusal> {
    let start_text = start.ok_or_else(|| bad("no 'start' LFEN"))?;
    let start = Position::from_lfen(start_text)
        .map_err(|e| bad(format!("bad LFEN '{}': {e}", ugi::shown(start_text))))?;
    if texts.len() > MAX_PLIES {
        return Err(bad(format!("more than {MAX_PLIES} moves")));
    }
    let (now, moves) = start.replay(texts).map_err(|e| bad(e.to_string()))?;
    Ok(Game { start, moves, now })
}

/// `POST /api/position`.
pub async fn position(
    Body(request): Body<PositionRequest>,
) -> Result<Answer<PositionAnswer>, Refusal> {
    let Game { moves, now, .. } = game_of(request.start.as_deref(), &request.moves)?;
    let mut arrows = Vec::new();
    for text in request.arrows.iter().take(16) {
        let parsed = MoveText::parse(text).map_err(|e| bad(format!("arrow: {e}")))?;
        let size = now.size();
        if parsed.from.is_on(size) && parsed.to.is_none_or(|to| to.is_on(size)) {
            arrows.push(match parsed.to {
                Some(to) => Move::new(parsed.from, to, parsed.capture),
                None => Move::bear_off(parsed.from),
            });
        }
    }
    let svg = diagram::svg(
        &now,
        &Diagram {
            last_move: moves.last().copied(),
            arrows,
            flipped: request.flip,
        },
    );
    let legal = if now.is_game_over() {
        Vec::new()
    } else {
        now.legal_moves().iter().map(Move::to_string).collect()
    };
    Ok(Answer(PositionAnswer {
        lfen: now.to_lfen(),
        svg,
        legal,
        side: now.side_to_move().to_string(),
        winner: now.winner().map(|w| w.to_string()),
        size: now.size().n(),
        threats: threats::threats(&now),
    }))
}

/// `value` when it is within `range`; `name` and the range in the refusal otherwise.
fn within(
    name: &str,
    value: Option<u64>,
    range: std::ops::RangeInclusive<u64>,
) -> Result<Option<u64>, Refusal> {
    match value {
        Some(n) if !range.contains(&n) => Err(bad(format!(
            "{name} must be {} to {}",
            range.start(),
            range.end()
        ))),
        _ => Ok(value),
    }
}

/// The bounds of a clock's time and of an increment, in milliseconds (a day, an hour).
const CLOCK_TIME: std::ops::RangeInclusive<u64> = 0..=86_400_000;
const INCREMENT: std::ops::RangeInclusive<u64> = 0..=3_600_000;

/// The clocks of a request: all four fields or none.
fn clock_of(limits: &LimitsRequest) -> Result<Option<Clock>, Refusal> {
    let fields = [limits.p1time, limits.p2time, limits.p1inc, limits.p2inc];
    if fields.iter().all(Option::is_none) {
        return Ok(None);
    }
    let [Some(_), Some(_), Some(_), Some(_)] = fields else {
        return Err(bad(
            "a clock gives all of limits.p1time, p2time, p1inc and p2inc",
        ));
    };
    let time = |name, value| within(name, value, CLOCK_TIME).map(Option::unwrap_or_default);
    let increment = |name, value| within(name, value, INCREMENT).map(Option::unwrap_or_default);
    Ok(Some(Clock {
        time: [
            time("limits.p1time", limits.p1time)?,
            time("limits.p2time", limits.p2time)?,
        ],
        increment: [
            increment("limits.p1inc", limits.p1inc)?,
            increment("limits.p2inc", limits.p2inc)?,
        ],
        moves_to_go: None,
    }))
}

/// The search limits a page may ask for, bounded.
fn limits_of(limits: LimitsRequest) -> Result<Limits, Refusal> {
    let result = Limits {
        movetime: within("limits.movetime", limits.movetime, 1..=3_600_000)?,
        depth: within("limits.depth", limits.depth, 1..=64)?.map(|d| d as u32),
        nodes: within("limits.nodes", limits.nodes, 1..=1_000_000_000_000)?,
        clock: clock_of(&limits)?,
        infinite: limits.infinite,
        ..Limits::default()
    };
    let bounded = result.movetime.is_some()
        || result.depth.is_some()
        || result.nodes.is_some()
        || result.clock.is_some();
    if !bounded && !result.infinite {
        return Err(bad(
            "give limits.movetime, depth, nodes, a clock or infinite",
        ));
    }
    Ok(result)
}

/// `POST /api/go`.
pub async fn go(
    State(shared): State<Arc<Shared>>,
    Body(request): Body<GoRequest>,
) -> Result<Answer<Started>, Refusal> {
    let Game { start, moves, now } = game_of(request.start.as_deref(), &request.moves)?;
    if now.is_game_over() {
        return Err(bad("the game is over"));
    }
    let limits = limits_of(request.limits)?;
    let lines = within("multipv", request.multipv, MULTIPV)?.unwrap_or(1) as u32;
    let skill = within("skill", request.skill, SKILL)?.unwrap_or(*SKILL.end()) as u32;
    let order = Order::Search(Box::new(SearchOrder {
        start,
        moves,
        limits,
        lines,
        skill,
        search: request.search,
    }));
    shared
        .sessions
        .order(&request.session, request.engine, order)?;
    Ok(Answer(Started {
        started: request.search,
    }))
}

/// `POST /api/stop`.
pub async fn stop(
    State(shared): State<Arc<Shared>>,
    Body(request): Body<StopRequest>,
) -> Result<Answer<Stopped>, Refusal> {
    shared
        .sessions
        .order(&request.session, request.engine, Order::Stop)?;
    Ok(Answer(Stopped { stopped: true }))
}

/// Raises its flag when dropped: a review's request that goes away (its client left, so the
/// server dropped the handler) stops the review's search.
pub struct StopOnDrop(pub Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// `POST /api/review`: `lielow analyse` of the game, on a thread of the blocking pool, at most
/// [`MAX_REVIEWS`] at once, at most [`MAX_REVIEW_MS`] long, stopped when its client leaves.
pub async fn review(
    State(shared): State<Arc<Shared>>,
    Body(request): Body<ReviewRequest>,
) -> Result<Response, Refusal> {
    let Game { start, moves, .. } = game_of(request.start.as_deref(), &request.moves)?;
    let positions = moves.len() as u64 + 1;
    if request.opening.is_some_and(|plies| plies > moves.len()) {
        return Err(bad(format!(
            "opening must be at most the {} moves of the game",
            moves.len()
        )));
    }
    let budget = request.budget.unwrap_or(review::ReviewBudget::Normal);
    let mut settings = ReviewSettings::of(budget, 1);
    match within("movetime", request.movetime, REVIEW_MOVETIME)? {
        _ if request.movetime.is_some() && request.budget.is_some() => {
            return Err(bad("give a budget or a movetime, not both"));
        }
        Some(movetime) => {
            if positions * movetime > MAX_REVIEW_MS {
                return Err(bad(format!(
                    "a review of {positions} positions at {movetime} ms would take more than {} s",
                    MAX_REVIEW_MS / 1000
                )));
            }
            settings.limits = Limits {
                movetime: Some(movetime),
                ..Limits::default()
            };
        }
        None if positions * budget.nodes() > MAX_REVIEW_NODES => {
            return Err(bad(format!(
                "a review of {positions} positions at {} nodes would search more than {MAX_REVIEW_NODES} nodes",
                budget.nodes()
            )));
        }
        None => {}
    }
    // The permit goes with the work, so it is freed when the search has really ended.
    let permit = Arc::clone(&shared.reviews)
        .try_acquire_owned()
        .map_err(|_| Refusal {
            status: 429,
            message: format!("{MAX_REVIEWS} reviews are running: try again when one ends"),
        })?;
    let stop = Arc::new(AtomicBool::new(false));
    let guard = StopOnDrop(Arc::clone(&stop));
    let work = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let mut searcher = Searcher::new();
        // The command line's table size, so that a node budget finds what it finds there.
        if let Err(error) = searcher.set_hash_mb(review::HASH_MB) {
            return Err(error.to_string());
        }
        let game = review::Game::from_moves(start, moves, Some(request.opening.unwrap_or(0)));
        let reviewed = review::review_until(&game, &mut searcher, &settings, &stop, &mut |_, _| {});
        Ok(review_report::game_json(
            &reviewed,
            serde_json::Value::Object(Default::default()),
        ))
    });
    let failed = |message: String| Refusal {
        status: 500,
        message: format!("the review failed: {message}"),
    };
    let reviewed = work
        .await
        .map_err(|e| failed(e.to_string()))?
        .map_err(failed)?;
    drop(guard);
    Ok(Answer(reviewed).into_response())
}
