//! The GUI's web server: the page, and a small JSON API over HTTP (tiny_http: a small,
//! synchronous server crate; every request runs on a thread of its own, so a slow one never
//! holds up another).
//!
//! Every request must name this server in `Host` (`127.0.0.1:PORT` or `localhost:PORT`) and,
//! when it carries an `Origin`, come from this server's own page: another web site open in the
//! same browser cannot drive the engine. Bodies are JSON of at most [`MAX_BODY`] bytes, checked
//! field by field; positions and moves go through the rules core before any engine sees them,
//! and the engines' command lines come only from the command line.
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

use serde_json::{json, Value};
use tiny_http::{Header, Method, Request, Response, Server};

use super::engine::{EngineHandle, Order};
use super::EngineConfig;
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
    events: VecDeque<(u64, Value)>,
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

/// Why a request is refused: the status and the message the page shows.
struct Refusal(u16, String);

fn bad(message: impl Into<String>) -> Refusal {
    Refusal(400, message.into())
}

/// Serves until the process ends (Ctrl-C ends the engines too).
pub fn serve(engines: Vec<EngineConfig>, port: u16, open: bool) -> Result<(), String> {
    let server = Server::http(("127.0.0.1", port))
        .map_err(|e| format!("cannot listen on 127.0.0.1:{port}: {e}"))?;
    let port = server
        .server_addr()
        .to_ip()
        .map_or(port, |address| address.port());
    let address = format!("http://127.0.0.1:{port}/");
    println!("lielow gui: {address}");
    let _ = ctrlc::set_handler(|| {
        crate::matchplay::ugi_client::kill_all_engines();
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
        let body = json!({"error": "refused: wrong Host or Origin"}).to_string();
        return respond(request, 403, "application/json", body);
    }
    let url = request.url().to_owned();
    let (path, query) = url.split_once('?').unwrap_or((&url, ""));
    let method = request.method().clone();
    match (method, path) {
        (Method::Get, "/") => respond(request, 200, "text/html; charset=utf-8", INDEX_HTML.into()),
        (Method::Get, "/app.js") => respond(request, 200, "text/javascript", APP_JS.into()),
        (Method::Get, "/style.css") => respond(request, 200, "text/css", STYLE_CSS.into()),
        (Method::Get, "/api/engines") => {
            let names: Vec<&str> = state.engines.iter().map(|e| e.name.as_str()).collect();
            respond(
                request,
                200,
                "application/json",
                json!({"engines": names}).to_string(),
            )
        }
        (Method::Get, "/api/events") => {
            let answer = events(state, query);
            reply(request, answer)
        }
        (Method::Post, route) => {
            let body = match read_body(&mut request) {
                Ok(body) => body,
                Err(refusal) => return reply(request, Err(refusal)),
            };
            let answer = match route {
                "/api/position" => position_answer(&body),
                "/api/go" => go(state, &body),
                "/api/stop" => stop(state, &body),
                "/api/review" => review_answer(&body),
                _ => Err(Refusal(404, format!("no route {route}"))),
            };
            reply(request, answer)
        }
        _ => respond(
            request,
            404,
            "application/json",
            json!({"error": "not found"}).to_string(),
        ),
    }
}

fn reply(request: Request, answer: Result<Value, Refusal>) {
    match answer {
        Ok(value) => respond(request, 200, "application/json", value.to_string()),
        Err(Refusal(status, message)) => respond(
            request,
            status,
            "application/json",
            json!({ "error": message }).to_string(),
        ),
    }
}

fn read_body(request: &mut Request) -> Result<Value, Refusal> {
    let mut body = Vec::new();
    request
        .as_reader()
        .take(MAX_BODY as u64 + 1)
        .read_to_end(&mut body)
        .map_err(|e| bad(format!("cannot read the request: {e}")))?;
    if body.len() > MAX_BODY {
        return Err(Refusal(
            413,
            format!("request larger than {MAX_BODY} bytes"),
        ));
    }
    serde_json::from_slice(&body).map_err(|e| bad(format!("not JSON: {e}")))
}

/// The start position and the moves of a request, checked by the rules core.
fn game_of(body: &Value) -> Result<(Position, Vec<Move>, Position), Refusal> {
    let start_text = body["start"]
        .as_str()
        .ok_or_else(|| bad("no 'start' LFEN"))?;
    let start = Position::from_lfen(start_text)
        .map_err(|e| bad(format!("bad LFEN '{}': {e}", ugi::shown(start_text))))?;
    let texts = match &body["moves"] {
        Value::Null => Vec::new(),
        Value::Array(moves) => moves.clone(),
        _ => return Err(bad("'moves' must be a list")),
    };
    if texts.len() > MAX_PLIES {
        return Err(bad(format!("more than {MAX_PLIES} moves")));
    }
    let mut position = start;
    let mut moves = Vec::with_capacity(texts.len());
    for (index, text) in texts.iter().enumerate() {
        let text = text.as_str().ok_or_else(|| bad("a move is not a string"))?;
        let mv = position
            .parse_move(text)
            .map_err(|e| bad(format!("move {} '{}': {e}", index + 1, ugi::shown(text))))?;
        moves.push(mv);
        position = position.play(mv);
    }
    Ok((start, moves, position))
}

fn position_answer(body: &Value) -> Result<Value, Refusal> {
    let (_, moves, position) = game_of(body)?;
    let mut arrows = Vec::new();
    if let Some(list) = body["arrows"].as_array() {
        for text in list.iter().take(16).filter_map(Value::as_str) {
            let parsed = MoveText::parse(text).map_err(|e| bad(format!("arrow: {e}")))?;
            let size = position.size();
            if parsed.from.is_on(size) && parsed.to.is_none_or(|to| to.is_on(size)) {
                arrows.push(match parsed.to {
                    Some(to) => Move::new(parsed.from, to, parsed.capture),
                    None => Move::bear_off(parsed.from),
                });
            }
        }
    }
    let svg = diagram::svg(
        &position,
        &Diagram {
            last_move: moves.last().copied(),
            arrows,
            flipped: body["flip"].as_bool().unwrap_or(false),
        },
    );
    let legal: Vec<String> = position.legal_moves().iter().map(Move::to_string).collect();
    Ok(json!({
        "lfen": position.to_lfen(),
        "svg": svg,
        "legal": if position.is_game_over() { Vec::new() } else { legal },
        "side": position.side_to_move().to_string(),
        "winner": position.winner().map(|w| w.to_string()),
        "size": position.size().n(),
    }))
}

/// The search limits a page may ask for, bounded.
fn limits_of(body: &Value) -> Result<(Limits, Option<Duration>), Refusal> {
    let limits = &body["limits"];
    let number = |name: &str, max: u64| -> Result<Option<u64>, Refusal> {
        match &limits[name] {
            Value::Null => Ok(None),
            value => match value.as_u64() {
                Some(n) if (1..=max).contains(&n) => Ok(Some(n)),
                _ => Err(bad(format!("limits.{name} must be 1 to {max}"))),
            },
        }
    };
    let result = Limits {
        movetime: number("movetime", 3_600_000)?,
        depth: number("depth", 64)?.map(|d| d as u32),
        nodes: number("nodes", 1_000_000_000_000)?,
        infinite: limits["infinite"].as_bool().unwrap_or(false),
        ..Limits::default()
    };
    let bounded = result.movetime.is_some() || result.depth.is_some() || result.nodes.is_some();
    if !bounded && !result.infinite {
        return Err(bad("give limits.movetime, depth, nodes or infinite"));
    }
    let budget = if result.infinite || result.movetime.is_none() {
        None
    } else {
        result.movetime.map(Duration::from_millis)
    };
    Ok((result, budget))
}

/// A valid session name: 8 to 64 letters and digits, chosen by the page.
fn session_name(body: &Value) -> Result<String, Refusal> {
    let name = body["session"].as_str().unwrap_or("");
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
            return Err(Refusal(
                429,
                format!("at most {MAX_SESSIONS} pages at once"),
            ));
        }
        let log = Arc::new((Mutex::new(EventLog::default()), Condvar::new()));
        let engines = state
            .engines
            .iter()
            .map(|config| {
                let (sender, receiver) = mpsc::channel::<Value>();
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

fn engine_index(state: &State, body: &Value) -> Result<usize, Refusal> {
    let index = body["engine"].as_u64().unwrap_or(0) as usize;
    (index < state.engines.len())
        .then_some(index)
        .ok_or_else(|| bad(format!("no engine {index}")))
}

fn go(state: &State, body: &Value) -> Result<Value, Refusal> {
    let name = session_name(body)?;
    let engine = engine_index(state, body)?;
    let (start, moves, position) = game_of(body)?;
    if position.is_game_over() {
        return Err(bad("the game is over"));
    }
    let (limits, budget) = limits_of(body)?;
    let lines = body["multipv"].as_u64().unwrap_or(1).clamp(1, 32) as u32;
    let search = body["search"].as_u64().unwrap_or(0);
    let mut position_line = format!("position fen {}", start.to_lfen());
    if !moves.is_empty() {
        position_line += " moves";
        for mv in &moves {
            position_line += &format!(" {mv}");
        }
    }
    let order = Order::Go {
        position: position_line,
        go: ugi::go_line(&limits),
        lines,
        budget,
        search,
    };
    with_session(state, &name, |session| session.engines[engine].send(order))?;
    Ok(json!({"started": search}))
}

fn stop(state: &State, body: &Value) -> Result<Value, Refusal> {
    let name = session_name(body)?;
    let engine = engine_index(state, body)?;
    with_session(state, &name, |session| {
        session.engines[engine].send(Order::Stop)
    })?;
    Ok(json!({"stopped": true}))
}

fn events(state: &State, query: &str) -> Result<Value, Refusal> {
    let field = |key: &str| {
        query
            .split('&')
            .find_map(|pair| pair.strip_prefix(&format!("{key}=")))
            .unwrap_or("")
            .to_owned()
    };
    let name = session_name(&json!({"session": field("session")}))?;
    let after: u64 = field("after").parse().unwrap_or(0);
    let log = with_session(state, &name, |session| Arc::clone(&session.log))?;
    let (events, arrived) = &*log;
    let guard = events.lock().unwrap_or_else(|p| p.into_inner());
    let (guard, _) = arrived
        .wait_timeout_while(guard, EVENT_WAIT, |log| log.next <= after)
        .unwrap_or_else(|p| p.into_inner());
    let fresh: Vec<Value> = guard
        .events
        .iter()
        .filter(|(number, _)| *number > after)
        .map(|(number, event)| json!({"n": number, "event": event}))
        .collect();
    drop(guard);
    // Waiting counts as being there.
    let _ = with_session(state, &name, |_| ());
    Ok(json!({ "events": fresh }))
}

fn review_answer(body: &Value) -> Result<Value, Refusal> {
    let (start, moves, _) = game_of(body)?;
    let movetime = body["movetime"].as_u64().unwrap_or(100).clamp(10, 2000);
    let mut searcher = Searcher::new();
    let settings = ReviewSettings {
        limits: Limits {
            movetime: Some(movetime),
            ..Limits::default()
        },
        lines: 1,
    };
    let reviewed = review::review(&start, &moves, &mut searcher, &settings, &mut |_, _| {});
    Ok(review_report::game_json(&reviewed, json!({})))
}
