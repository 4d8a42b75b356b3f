//! The GUI's JSON API as types: what each route takes (decoded with serde, unknown fields and
//! wrong types refused with a 400 and serde's one-line message) and what it answers. The checks
//! that need the rules core (positions, moves, the bounds of the limits) are the routes'; these
//! types only fix the shape of the text.

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::de::{self, DeserializeOwned, Deserializer};
use serde::{Deserialize, Serialize};
use std::time::Duration;

use super::threats::Threats;

/// The largest request body accepted.
pub const MAX_BODY: usize = 64 * 1024;
/// The longest a client may take to send a request's body.
pub const BODY_READ_TIMEOUT: Duration = Duration::from_secs(10);

/// Why a request is refused: the HTTP status and the message the page shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// 400, 404, 413, 429 ...
    pub status: u16,
    /// One line for the page.
    pub message: String,
}

/// A refusal with status 400 (bad request).
pub fn bad(message: impl Into<String>) -> Refusal {
    Refusal {
        status: 400,
        message: message.into(),
    }
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        let status = StatusCode::from_u16(self.status).unwrap_or(StatusCode::BAD_REQUEST);
        json_response(
            status,
            &ErrorAnswer {
                error: &self.message,
            },
        )
    }
}

/// `value` as a JSON answer with `status`.
pub fn json_response<T: Serialize>(status: StatusCode, value: &T) -> Response {
    match serde_json::to_string(value) {
        Ok(body) => {
            let mut response = (status, body).into_response();
            response.headers_mut().insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            );
            response
        }
        Err(error) => Refusal {
            status: 500,
            message: format!("cannot write the answer: {error}"),
        }
        .into_response(),
    }
}

/// A JSON answer with status 200.
pub struct Answer<T>(pub T);

impl<T: Serialize> IntoResponse for Answer<T> {
    fn into_response(self) -> Response {
        json_response(StatusCode::OK, &self.0)
    }
}

/// A request body decoded into `T` by [`decode`]. A body declared or found larger than
/// [`MAX_BODY`] is refused (413) before or as soon as it is, one slower than
/// [`BODY_READ_TIMEOUT`] too (408); axum's other body rejections (a connection cut while the
/// body came) become one line of JSON like every refusal.
pub struct Body<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for Body<T> {
    type Rejection = Refusal;

    async fn from_request(request: Request, state: &S) -> Result<Self, Refusal> {
        let too_large = || Refusal {
            status: 413,
            message: format!("request larger than {MAX_BODY} bytes"),
        };
        let declared = request
            .headers()
            .get(header::CONTENT_LENGTH)
            .and_then(|value| value.to_str().ok()?.parse::<u64>().ok());
        if declared.is_some_and(|length| length > MAX_BODY as u64) {
            return Err(too_large());
        }
        let read = tokio::time::timeout(BODY_READ_TIMEOUT, Bytes::from_request(request, state));
        let read = read.await.map_err(|_| Refusal {
            status: 408,
            message: format!("the request's body took longer than {BODY_READ_TIMEOUT:?}"),
        })?;
        let bytes = read.map_err(|rejection| {
            if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
                too_large()
            } else {
                bad(format!(
                    "cannot read the request: {}",
                    rejection.body_text()
                ))
            }
        })?;
        decode(&bytes).map(Body)
    }
}

/// Decodes a request body: text that is not JSON, and JSON of the wrong shape, are refused
/// with serde's message (which says where).
pub fn decode<T: DeserializeOwned>(body: &[u8]) -> Result<T, Refusal> {
    serde_json::from_slice(body).map_err(|error| {
        if error.is_data() {
            bad(format!("bad request: {error}"))
        } else {
            bad(format!("not JSON: {error}"))
        }
    })
}

/// `moves`: a list of move texts; missing or `null` is no moves.
fn move_list<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<String>, D::Error> {
    Option::<Vec<String>>::deserialize(deserializer)
        .map(Option::unwrap_or_default)
        .map_err(|_| de::Error::custom("'moves' must be a list of move texts"))
}

/// `POST /api/position`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PositionRequest {
    /// The start position's LFEN.
    pub start: Option<String>,
    /// The moves since.
    #[serde(default, deserialize_with = "move_list")]
    pub moves: Vec<String>,
    /// Blue at the top.
    #[serde(default)]
    pub flip: bool,
    /// Moves drawn as arrows (at most 16 are drawn).
    #[serde(default)]
    pub arrows: Vec<String>,
}

/// The search limits a page may ask for.
#[derive(Clone, Copy, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LimitsRequest {
    /// Milliseconds.
    pub movetime: Option<u64>,
    /// Plies.
    pub depth: Option<u64>,
    /// Nodes.
    pub nodes: Option<u64>,
    /// Blue's clock in milliseconds (a clock game gives all four clock fields; the engine
    /// gets them as `go p1time p2time p1inc p2inc`).
    pub p1time: Option<u64>,
    /// Red's clock in milliseconds.
    pub p2time: Option<u64>,
    /// Blue's increment per move in milliseconds.
    pub p1inc: Option<u64>,
    /// Red's increment per move in milliseconds.
    pub p2inc: Option<u64>,
    /// Until `stop`.
    #[serde(default)]
    pub infinite: bool,
}

/// `POST /api/go`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GoRequest {
    /// The page's session, as its event stream announced it.
    pub session: String,
    /// Which engine (index into `/api/engines`): a whole number, never a text or a fraction.
    pub engine: usize,
    /// The start position's LFEN.
    pub start: Option<String>,
    /// The moves since.
    #[serde(default, deserialize_with = "move_list")]
    pub moves: Vec<String>,
    /// What bounds the search.
    #[serde(default)]
    pub limits: LimitsRequest,
    /// Principal variations (1 to 32, refused outside; default 1).
    pub multipv: Option<u64>,
    /// The engine's `Skill Level` for this search (0 to 20, refused outside; default 20, full
    /// strength): the page's level selector, for the engine's moves in a game.
    pub skill: Option<u64>,
    /// The page's number for the search, returned with its events.
    #[serde(default)]
    pub search: u64,
}

/// `POST /api/stop`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StopRequest {
    /// The page's session, as its event stream announced it.
    pub session: String,
    /// Which engine.
    pub engine: usize,
}

/// `POST /api/review`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReviewRequest {
    /// The start position's LFEN.
    pub start: Option<String>,
    /// The moves since.
    #[serde(default, deserialize_with = "move_list")]
    pub moves: Vec<String>,
    /// The node budget per position (`quick`, `normal`, `deep`; default `normal`): the same
    /// review as `lielow analyse --budget` of the game gives.
    pub budget: Option<crate::analysis::review::ReviewBudget>,
    /// Milliseconds per position instead (10 to 2000, refused outside): a review that varies
    /// from run to run.
    pub movetime: Option<u64>,
    /// Plies of the opening (a game loaded from a record): shown, never judged.
    pub opening: Option<usize>,
}

/// `GET /api/engines`.
#[derive(Debug, Serialize)]
pub struct EnginesAnswer<'a> {
    /// The engines' names, in `--engine` order.
    pub engines: Vec<&'a str>,
}

/// The answer to `POST /api/position`.
#[derive(Debug, Serialize)]
pub struct PositionAnswer {
    /// The position after the moves.
    pub lfen: String,
    /// Its picture.
    pub svg: String,
    /// The legal moves (none once the game is over).
    pub legal: Vec<String>,
    /// The side to move.
    pub side: String,
    /// The winner, once there is one.
    pub winner: Option<String>,
    /// The board size (8 or 9).
    pub size: usize,
    /// Each side's stacks that the other could capture next move (the threat display).
    pub threats: Threats,
}

/// The answer to `POST /api/go`.
#[derive(Debug, Serialize)]
pub struct Started {
    /// The search's number.
    pub started: u64,
}

/// The answer to `POST /api/stop`.
#[derive(Debug, Serialize)]
pub struct Stopped {
    /// Always true: the order was passed on.
    pub stopped: bool,
}

/// The first event of a page's stream (`event: session`): the session it opened.
#[derive(Debug, Serialize)]
pub struct SessionOpened<'a> {
    /// The name that the page's `go` and `stop` give.
    pub session: &'a str,
}

/// The body of every refusal.
#[derive(Debug, Serialize)]
pub struct ErrorAnswer<'a> {
    /// What was wrong.
    pub error: &'a str,
}
