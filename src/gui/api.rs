//! The GUI's JSON API as types: what each route takes (decoded with serde, unknown fields
//! refused) and what it answers. The checks that need the rules core (positions, moves, the
//! bounds of the limits) are the server's; these types only fix the shape of the text.

use serde::de::{self, DeserializeOwned, Deserializer};
use serde::{Deserialize, Serialize};

use super::engine::Event;

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
    /// Until `stop`.
    #[serde(default)]
    pub infinite: bool,
}

/// `POST /api/go`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GoRequest {
    /// The page's session name.
    #[serde(default)]
    pub session: String,
    /// Which engine (index into `/api/engines`).
    #[serde(default)]
    pub engine: usize,
    /// The start position's LFEN.
    pub start: Option<String>,
    /// The moves since.
    #[serde(default, deserialize_with = "move_list")]
    pub moves: Vec<String>,
    /// What bounds the search.
    #[serde(default)]
    pub limits: LimitsRequest,
    /// Principal variations (1 to 32; default 1).
    pub multipv: Option<u64>,
    /// The page's number for the search, returned with its events.
    #[serde(default)]
    pub search: u64,
}

/// `POST /api/stop`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StopRequest {
    /// The page's session name.
    #[serde(default)]
    pub session: String,
    /// Which engine.
    #[serde(default)]
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
    /// Milliseconds per position (10 to 2000; default 100).
    pub movetime: Option<u64>,
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

/// One event with its number in the page's log.
#[derive(Debug, Serialize)]
pub struct Numbered {
    /// Numbers start at 1 and grow by one per event.
    pub n: u64,
    /// The event.
    pub event: Event,
}

/// The answer to `GET /api/events`.
#[derive(Debug, Serialize)]
pub struct EventsAnswer {
    /// The events after the number asked for, oldest first.
    pub events: Vec<Numbered>,
}

/// The body of every refusal.
#[derive(Debug, Serialize)]
pub struct ErrorAnswer<'a> {
    /// What was wrong.
    pub error: &'a str,
}
