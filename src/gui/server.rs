//! The GUI's web server: the page, its event stream and a small JSON API, served by axum on
//! hyper and a small tokio runtime (one thread, plus its pool for reviews); the engines stay on
//! threads of their own (`engine`).
//!
//! What keeps the server up whoever connects: hyper reads a request's head into a buffer of at
//! most [`MAX_HEAD`] bytes and within [`HEADER_READ_TIMEOUT`] (a connection that sends nothing,
//! or half a head, or idles between requests, is closed then); bodies are read only by the
//! routes that take one, and only up to [`MAX_BODY`], whatever their `Content-Length` says;
//! when the process runs out of descriptors, accepting waits a second and tries again (axum's
//! listener) rather than ending the server.
//!
//! Every request must name this server in `Host` (`127.0.0.1:PORT` or `localhost:PORT`) and,
//! when it carries an `Origin`, come from this server's own page: another web site open in the
//! same browser cannot drive the engine. Bodies are JSON decoded into one type per route
//! (`api`, refusing unknown fields and wrong types), then checked field by field (`routes`);
//! positions and moves go through the rules core before any engine sees them, and the engines'
//! command lines come only from the command line.
//!
//! The API (all POST bodies and answers are JSON; a refusal is `{"error": "..."}`):
//!
//! | route | what it does |
//! | --- | --- |
//! | `GET /api/engines` | the engines' names |
//! | `GET /api/events` | opens the page's session: server-sent events, first `session`, then the engines' events; the session ends when this connection closes |
//! | `POST /api/position` `{start, moves, flip, arrows}` | the position after the moves: LFEN, SVG, legal moves, side to move, winner, threats |
//! | `POST /api/go` `{session, engine, start, moves, limits, multipv, search}` | starts a search; its lines and `bestmove` arrive as events |
//! | `POST /api/stop` `{session, engine}` | stops that engine's search |
//! | `POST /api/review` `{start, moves, movetime}` | `lielow analyse` of the game, as its JSON |
//! | `POST /api/puzzles` `{size}` | the puzzles of a board size, by rating (never their answers) |
//! | `POST /api/puzzle/move` `{id, moves}` | judges the player's latest move by proof: right (and the engine's defence), wrong (and its refutation) or solved |
//! | `POST /api/puzzle/solution` `{id}` | the answer and its line, for a player who gives up |
//! | `POST /api/load` `{text, size}` | the games of a file in any format (`games`), or of a position |
//! | `POST /api/save` `{format, game}` | the game as a file: a record line, PGN or an Abstract Play record |

use std::sync::Arc;
use std::time::Duration;

use axum::extract::{DefaultBodyLimit, Request};
use axum::http::{header, HeaderValue};
use axum::middleware::{self, Next};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::sync::Semaphore;

use super::api::Refusal;
pub use super::api::MAX_BODY;
use super::games;
use super::puzzles::{self, PuzzleSets};
use super::routes::{self, Shared, MAX_REVIEWS};
use super::sessions::Sessions;
use super::{EngineConfig, GuiError};

/// The longest a client may take to send a request's head (or idle between two requests).
pub const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(5);
/// The most bytes of a request's head read (hyper's read buffer; a longer head is refused).
pub const MAX_HEAD: usize = 64 * 1024;

const INDEX_HTML: &str = include_str!("static/index.html");
const APP_JS: &str = include_str!("static/app.js");
const CLOCK_JS: &str = include_str!("static/clock.js");
const STYLE_CSS: &str = include_str!("static/style.css");
const PUZZLES_JS: &str = include_str!("static/puzzles.js");

/// Serves until the process ends (Ctrl-C ends the engines too).
pub fn serve(
    engines: Vec<EngineConfig>,
    puzzles: PuzzleSets,
    port: u16,
    open: bool,
) -> Result<(), GuiError> {
    let listen_error = |reason: std::io::Error| GuiError::Listen {
        port,
        reason: Box::new(reason),
    };
    let listener = std::net::TcpListener::bind(("127.0.0.1", port)).map_err(listen_error)?;
    listener.set_nonblocking(true).map_err(listen_error)?;
    let port = listener.local_addr().map_or(port, |address| address.port());
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(listen_error)?;
    let address = format!("http://127.0.0.1:{port}/");
    println!("lielow gui: {address}");
    let _ = ctrlc::set_handler(|| {
        crate::process::kill_all_engines();
        std::process::exit(130);
    });
    if open {
        let _ = std::process::Command::new("xdg-open").arg(&address).spawn();
    }
    let shared = Arc::new(Shared {
        sessions: Arc::new(Sessions::new(engines)),
        reviews: Arc::new(Semaphore::new(MAX_REVIEWS)),
        puzzles: Arc::new(puzzles),
    });
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::from_std(listener).map_err(listen_error)?;
        accept_forever(listener, router(shared, port)).await
    })
}

/// Serves each connection on a task of its own, with hyper's limits on the head.
async fn accept_forever(mut listener: tokio::net::TcpListener, router: Router) -> ! {
    loop {
        // axum's listener: on an error such as running out of descriptors, it waits a second
        // and accepts again (what it writes about it goes to `tracing`, which has no reader).
        let (stream, _) = axum::serve::Listener::accept(&mut listener).await;
        let service = TowerToHyperService::new(router.clone());
        tokio::spawn(async move {
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder
                .timer(TokioTimer::new())
                .header_read_timeout(HEADER_READ_TIMEOUT)
                .max_buf_size(MAX_HEAD);
            // A connection that breaks or breaks the rules is only closed.
            let _ = builder
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}

/// The routes, behind the checks every request passes.
fn router(shared: Arc<Shared>, port: u16) -> Router {
    Router::new()
        .route("/", get(|| async { Html(INDEX_HTML) }))
        .route(
            "/app.js",
            get(|| async { static_file("text/javascript", APP_JS) }),
        )
        .route(
            "/clock.js",
            get(|| async { static_file("text/javascript", CLOCK_JS) }),
        )
        .route(
            "/puzzles.js",
            get(|| async { static_file("text/javascript", PUZZLES_JS) }),
        )
        .route(
            "/style.css",
            get(|| async { static_file("text/css", STYLE_CSS) }),
        )
        .route("/api/engines", get(routes::engines))
        .route("/api/events", get(routes::events))
        .route("/api/position", post(routes::position))
        .route("/api/go", post(routes::go))
        .route("/api/stop", post(routes::stop))
        .route("/api/review", post(routes::review))
        .route("/api/puzzles", post(puzzles::list))
        .route("/api/puzzle/move", post(puzzles::judge_move))
        .route("/api/puzzle/solution", post(puzzles::solution))
        .route("/api/load", post(games::load))
        .route("/api/save", post(games::save))
        .fallback(|| async {
            Refusal {
                status: 404,
                message: "not found".into(),
            }
        })
        .with_state(shared)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(middleware::from_fn(move |request: Request, next: Next| {
            checked(port, request, next)
        }))
}

fn static_file(content_type: &'static str, text: &'static str) -> Response {
    ([(header::CONTENT_TYPE, content_type)], text).into_response()
}

/// Whether the request comes to this server from its own page (or from no page at all).
fn trusted(request: &Request, port: u16) -> bool {
    let hosts = [format!("127.0.0.1:{port}"), format!("localhost:{port}")];
    let origins = hosts.clone().map(|host| format!("http://{host}"));
    let value = |name: header::HeaderName| {
        request
            .headers()
            .get(name)
            .map(|value| value.to_str().unwrap_or("").to_owned())
    };
    let host_ok = value(header::HOST).is_some_and(|host| hosts.contains(&host));
    let origin_ok = value(header::ORIGIN).is_none_or(|origin| origins.contains(&origin));
    host_ok && origin_ok
}

/// Refuses requests from elsewhere; marks every answer as not to be stored or sniffed.
async fn checked(port: u16, request: Request, next: Next) -> Response {
    let mut response = if trusted(&request, port) {
        next.run(request).await
    } else {
        Refusal {
            status: 403,
            message: "refused: wrong Host or Origin".into(),
        }
        .into_response()
    };
    let headers = response.headers_mut();
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    response
}
