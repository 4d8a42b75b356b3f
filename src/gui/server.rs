//! The GUI's web server: the page, and a small JSON API over HTTP (tiny_http: a small,
//! synchronous server crate; every request runs on a thread of its own, so a slow one never
//! holds up another).
//!
//! Every request must name this server in `Host` (`127.0.0.1:PORT` or `localhost:PORT`) and,
//! when it carries an `Origin`, come from this server's own page: another web site open in the
//! same browser cannot drive the engine. Bodies are JSON of at most [`MAX_BODY`] bytes, decoded
//! into one type per route (`api`, refusing unknown fields), then checked field by field;
//! positions and moves go through the rules core before any engine sees them, and the engines'
//! command lines come only from the command line.
//!
//! The API (all POST bodies and answers are JSON):
//!
//! | route | what it does |
//! | --- | --- |
//! | `GET /api/engines` | the engines' names |
//! | `POST /api/position` `{start, moves, flip, arrows}` | the position after the moves: LFEN, SVG, legal moves, side to move, winner |
//! | `POST /api/go` `{session, engine, start, moves, limits, multipv, search}` | starts a search; its lines and `bestmove` arrive as events |
//! | `POST /api/stop` `{session, engine}` | stops that engine's search |
//! | `GET /api/events?session=S&after=N` | the session's events after number N, waiting up to 20 s for one |
//! | `POST /api/review` `{start, moves, movetime}` | `lielow analyse` of the game, as its JSON |
//!
//! A page that stops asking for events for [`SESSION_IDLE`] is gone (the tab was closed): its
//! engines are stopped and ended.

use std::collections::{HashMap, VecDeque};
use std::io::Read;
use std::sync::{mpsc, Arc, Condvar, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use serde::Serialize;
use tiny_http::{Header, Method, Request, Response, Server};

use super::api::{
    bad, decode, EnginesAnswer, ErrorAnswer, EventsAnswer, GoRequest, LimitsRequest, Numbered,
    PositionAnswer, PositionRequest, Refusal, ReviewRequest, Started, StopRequest, Stopped,
};
use super::engine::{EngineHandle, Event, Order, SearchOrder};
use super::{EngineConfig, GuiError};
use crate::analysis::review::{self, ReviewSettings};
use crate::analysis::review_report;
use crate::diagram::{self, Diagram};
use lielow_engine::limits::Limits;
use lielow_engine::search::Searcher;
use lielow_engine::ugi;
use lielow_rules::moves::{Move, MoveText};
use lielow_rules::position::Position;

/// The largest request body accepted.
pub const MAX_BODY: usize = 64 * 1024;
/// A page silent this long is gone.
pub const SESSION_IDLE: Duration = Duration::from_secs(8);
/// At most this many pages at once (each has its own engine processes).
const MAX_SESSIONS: usize = 16;
/// Events kept per page for it to fetch.
const EVENTS_KEPT: usize = 4096;
/// How long a request for events waits for one.
const EVENT_WAIT: Duration = Duration::from_secs(20);
/// The longest game the API takes, in plies.
const MAX_PLIES: usize = 2000;

const INDEX_HTML: &str = include_str!("static/index.html");
const APP_JS: &str = include_str!("static/app.js");
const STYLE_CSS: &str = include_str!("static/style.css");

/// The events of one page, numbered from 1.
#[derive(Default)]
struct EventLog {
    next: u64,
    events: VecDeque<(u64, Event)>,
}

/// One open page: its engines (started at their first search) and its events.
struct Session {
    engines: Vec<EngineHandle>,
    log: Arc<(Mutex<EventLog>, Condvar)>,
    last_seen: Instant,
}

/// What every handler shares.
struct State {
    engines: Vec<EngineConfig>,
    sessions: Mutex<HashMap<String, Session>>,
    port: u16,
}

/// Serves until the process ends (Ctrl-C ends the engines too).
pub fn serve(engines: Vec<EngineConfig>, port: u16, open: bool) -> Result<(), GuiError> {
    let server =
        Server::http(("127.0.0.1", port)).map_err(|reason| GuiError::Listen { port, reason })?;
    let port = server
        .server_addr()
        .to_ip()
        .map_or(port, |address| address.port());
    let address = format!("http://127.0.0.1:{port}/");
    println!("lielow gui: {address}");
    let _ = ctrlc::set_handler(|| {
        crate::matchplay::process::kill_all_engines();
        std::process::exit(130);
    });
    if open {
        let _ = std::process::Command::new("xdg-open").arg(&address).spawn();
    }
    let state = Arc::new(State {
        engines,
        sessions: Mutex::new(HashMap::new()),
        port,
    });
    let reaper = Arc::clone(&state);
    thread::spawn(move || loop {
        thread::sleep(Duration::from_secs(1));
        let mut sessions = reaper.sessions.lock().unwrap_or_else(|p| p.into_inner());
        sessions.retain(|_, session| session.last_seen.elapsed() < SESSION_IDLE);
    });
    for request in server.incoming_requests() {
        let state = Arc::clone(&state);
        thread::spawn(move || handle(&state, request));
    }
    Ok(())
}

fn header(name: &str, value: &str) -> Header {
    Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("a valid header")
}

fn respond(request: Request, status: u16, content_type: &str, body: String) {
    let response = Response::from_string(body)
        .with_status_code(status)
        .with_header(header("Content-Type", content_type))
        .with_header(header("Cache-Control", "no-store"))
        .with_header(header("X-Content-Type-Options", "nosniff"));
    let _ = request.respond(response);
}

/// Whether the request comes to this server from its own page (or from no page at all).
fn trusted(request: &Request, port: u16) -> bool {
    let hosts = [format!("127.0.0.1:{port}"), format!("localhost:{port}")];
    let origins = hosts.clone().map(|host| format!("http://{host}"));
    let value = |name: &'static str| {
        request
            .headers()
            .iter()
            .find(|h| h.field.equiv(name))
            .map(|h| h.value.as_str().to_owned())
    };
    let host_ok = value("Host").is_some_and(|host| hosts.contains(&host));
    let origin_ok = value("Origin").is_none_or(|origin| origins.contains(&origin));
    host_ok && origin_ok
}

fn handle(state: &State, mut request: Request) {
    if !trusted(&request, state.port) {
        let refusal = Refusal {
            status: 403,
            message: "refused: wrong Host or Origin".into(),
        };
        return reply::<()>(request, Err(refusal));
    }
    let url = request.url().to_owned();
    let (path, query) = url.split_once('?').unwrap_or((&url, ""));
    let method = request.method().clone();
    match (method, path) {
        (Method::Get, "/") => respond(request, 200, "text/html; charset=utf-8", INDEX_HTML.into()),
        (Method::Get, "/app.js") => respond(request, 200, "text/javascript", APP_JS.into()),
        (Method::Get, "/style.css") => respond(request, 200, "text/css", STYLE_CSS.into()),
        (Method::Get, "/api/engines") => {
            let engines = state.engines.iter().map(|e| e.name.as_str()).collect();
            reply(request, Ok(EnginesAnswer { engines }))
        }
        (Method::Get, "/api/events") => {
            let answer = events(state, query);
            reply(request, answer)
        }
        (Method::Post, route) => {
            let body = match read_body(&mut request) {
                Ok(body) => body,
                Err(refusal) => return reply::<()>(request, Err(refusal)),
            };
            match route {
                "/api/position" => reply(request, decode(&body).and_then(position_answer)),
                "/api/go" => reply(request, decode(&body).and_then(|b| go(state, b))),
                "/api/stop" => reply(request, decode(&body).and_then(|b| stop(state, b))),
                "/api/review" => reply(request, decode(&body).and_then(review_answer)),
                _ => reply::<()>(
                    request,
                    Err(Refusal {
                        status: 404,
                        message: format!("no route {route}"),
                    }),
                ),
            }
        }
        _ => reply::<()>(
            request,
            Err(Refusal {
                status: 404,
                message: "not found".into(),
            }),
        ),
    }
}

/// Answers `answer` as JSON: the value, or `{"error": ...}` with the refusal's status.
fn reply<T: Serialize>(request: Request, answer: Result<T, Refusal>) {
    let (status, body) = match answer.and_then(|value| {
        serde_json::to_string(&value).map_err(|e| Refusal {
            status: 500,
            message: format!("cannot write the answer: {e}"),
        })
    }) {
        Ok(body) => (200, body),
        Err(Refusal { status, message }) => {
            let error = ErrorAnswer { error: &message };
            let body = serde_json::to_string(&error).unwrap_or_else(|_| "{}".to_owned());
            (status, body)
        }
    };
    respond(request, status, "application/json", body);
}

fn read_body(request: &mut Request) -> Result<Vec<u8>, Refusal> {
    let mut body = Vec::new();
    request
        .as_reader()
        .take(MAX_BODY as u64 + 1)
        .read_to_end(&mut body)
        .map_err(|e| bad(format!("cannot read the request: {e}")))?;
    if body.len() > MAX_BODY {
        return Err(Refusal {
            status: 413,
            message: format!("request larger than {MAX_BODY} bytes"),
        });
    }
    Ok(body)
}

/// A game checked by the rules core.
struct Game {
    start: Position,
    moves: Vec<Move>,
    /// The position after the moves.
    now: Position,
}

/// The start position and the moves of a request, checked by the rules core.
fn game_of(start: Option<&str>, texts: &[String]) -> Result<Game, Refusal> {
    let start_text = start.ok_or_else(|| bad("no 'start' LFEN"))?;
    let start = Position::from_lfen(start_text)
        .map_err(|e| bad(format!("bad LFEN '{}': {e}", ugi::shown(start_text))))?;
    if texts.len() > MAX_PLIES {
        return Err(bad(format!("more than {MAX_PLIES} moves")));
    }
    let (now, moves) = start.replay(texts).map_err(|e| bad(e.to_string()))?;
    Ok(Game { start, moves, now })
}

fn position_answer(request: PositionRequest) -> Result<PositionAnswer, Refusal> {
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
    Ok(PositionAnswer {
        lfen: now.to_lfen(),
        svg,
        legal,
        side: now.side_to_move().to_string(),
        winner: now.winner().map(|w| w.to_string()),
        size: now.size().n(),
    })
}

/// The search limits a page may ask for, bounded.
fn limits_of(limits: LimitsRequest) -> Result<Limits, Refusal> {
    let bounded = |name: &str, value: Option<u64>, max: u64| match value {
        Some(n) if !(1..=max).contains(&n) => Err(bad(format!("limits.{name} must be 1 to {max}"))),
        _ => Ok(value),
    };
    let result = Limits {
        movetime: bounded("movetime", limits.movetime, 3_600_000)?,
        depth: bounded("depth", limits.depth, 64)?.map(|d| d as u32),
        nodes: bounded("nodes", limits.nodes, 1_000_000_000_000)?,
        infinite: limits.infinite,
        ..Limits::default()
    };
    let bounded = result.movetime.is_some() || result.depth.is_some() || result.nodes.is_some();
    if !bounded && !result.infinite {
        return Err(bad("give limits.movetime, depth, nodes or infinite"));
    }
    Ok(result)
}

/// A valid session name: 8 to 64 letters and digits, chosen by the page.
fn session_name(name: &str) -> Result<String, Refusal> {
    let valid = (8..=64).contains(&name.len()) && name.bytes().all(|b| b.is_ascii_alphanumeric());
    valid
        .then(|| name.to_owned())
        .ok_or_else(|| bad("'session' must be 8 to 64 letters and digits"))
}

/// Runs `work` on the page's session, opening it first if new.
fn with_session<T>(
    state: &State,
    name: &str,
    work: impl FnOnce(&mut Session) -> T,
) -> Result<T, Refusal> {
    let mut sessions = state.sessions.lock().unwrap_or_else(|p| p.into_inner());
    if !sessions.contains_key(name) {
        if sessions.len() >= MAX_SESSIONS {
            return Err(Refusal {
                status: 429,
                message: format!("at most {MAX_SESSIONS} pages at once"),
            });
        }
        let log = Arc::new((Mutex::new(EventLog::default()), Condvar::new()));
        let engines = state
            .engines
            .iter()
            .map(|config| {
                let (sender, receiver) = mpsc::channel::<Event>();
                let log = Arc::clone(&log);
                thread::spawn(move || {
                    for event in receiver {
                        let (events, arrived) = &*log;
                        let mut events = events.lock().unwrap_or_else(|p| p.into_inner());
                        events.next += 1;
                        let number = events.next;
                        events.events.push_back((number, event));
                        if events.events.len() > EVENTS_KEPT {
                            events.events.pop_front();
                        }
                        arrived.notify_all();
                    }
                });
                EngineHandle::start(config.name.clone(), config.argv.clone(), sender)
            })
            .collect();
        sessions.insert(
            name.to_owned(),
            Session {
                engines,
                log,
                last_seen: Instant::now(),
            },
        );
    }
    let session = sessions.get_mut(name).expect("inserted above");
    session.last_seen = Instant::now();
    Ok(work(session))
}

fn engine_index(state: &State, index: usize) -> Result<usize, Refusal> {
    (index < state.engines.len())
        .then_some(index)
        .ok_or_else(|| bad(format!("no engine {index}")))
}

fn go(state: &State, request: GoRequest) -> Result<Started, Refusal> {
    let name = session_name(&request.session)?;
    let engine = engine_index(state, request.engine)?;
    let Game { start, moves, now } = game_of(request.start.as_deref(), &request.moves)?;
    if now.is_game_over() {
        return Err(bad("the game is over"));
    }
    let limits = limits_of(request.limits)?;
    let order = Order::Search(Box::new(SearchOrder {
        start,
        moves,
        limits,
        lines: request.multipv.unwrap_or(1).clamp(1, 32) as u32,
        search: request.search,
    }));
    with_session(state, &name, |session| session.engines[engine].send(order))?;
    Ok(Started {
        started: request.search,
    })
}

fn stop(state: &State, request: StopRequest) -> Result<Stopped, Refusal> {
    let name = session_name(&request.session)?;
    let engine = engine_index(state, request.engine)?;
    with_session(state, &name, |session| {
        session.engines[engine].send(Order::Stop)
    })?;
    Ok(Stopped { stopped: true })
}

fn events(state: &State, query: &str) -> Result<EventsAnswer, Refusal> {
    let field = |key: &str| {
        query
            .split('&')
            .find_map(|pair| pair.strip_prefix(&format!("{key}=")))
            .unwrap_or("")
            .to_owned()
    };
    let name = session_name(&field("session"))?;
    let after: u64 = field("after").parse().unwrap_or(0);
    let log = with_session(state, &name, |session| Arc::clone(&session.log))?;
    let (events, arrived) = &*log;
    let guard = events.lock().unwrap_or_else(|p| p.into_inner());
    let (guard, _) = arrived
        .wait_timeout_while(guard, EVENT_WAIT, |log| log.next <= after)
        .unwrap_or_else(|p| p.into_inner());
    let fresh: Vec<Numbered> = guard
        .events
        .iter()
        .filter(|(number, _)| *number > after)
        .map(|(number, event)| Numbered {
            n: *number,
            event: event.clone(),
        })
        .collect();
    drop(guard);
    // Waiting counts as being there.
    let _ = with_session(state, &name, |_| ());
    Ok(EventsAnswer { events: fresh })
}

fn review_answer(request: ReviewRequest) -> Result<serde_json::Value, Refusal> {
    let Game { start, moves, .. } = game_of(request.start.as_deref(), &request.moves)?;
    let movetime = request.movetime.unwrap_or(100).clamp(10, 2000);
    let mut searcher = Searcher::new();
    let settings = ReviewSettings {
        limits: Limits {
            movetime: Some(movetime),
            ..Limits::default()
        },
        lines: 1,
    };
    let reviewed = review::review(&start, &moves, &mut searcher, &settings, &mut |_, _| {});
    Ok(review_report::game_json(
        &reviewed,
        serde_json::Value::Object(Default::default()),
    ))
}
