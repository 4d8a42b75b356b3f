//! Abstract Play's game records: the `APGameRecord` JSON of its public records-and-rankings
//! schema (`src/schemas/gamerecord.json` of github.com/AbstractPlay/recranks, kept beside the
//! tests in `tests/fixtures/apgame/`), which Abstract Play writes for every finished game and
//! which its Lielow implementation fills with our notation (`b2-e5`, `d4xd6`, `a2-off`; the
//! variant `size-9` is the 9x9 board).
//!
//! Read: one record, or a JSON array of them. The header's `game` must be Lielow, its
//! `players` the two seats in order (the first is Blue); `moves` is a list of rounds, each a
//! list of one entry per seat (`null`, the move's text, or `{"move": ..., "sequence": ...}`),
//! flattened in seat order (or in `sequence` order where a round gives it) and replayed by the
//! rules: a move in the wrong seat, an illegal move, or a result that the rules contradict
//! refuses the file with the game, the ply and the reason. A last entry `resign`, `timeout`,
//! `draw` or `abandoned` is how Abstract Play ends a game the rules did not end; the header's
//! results (higher wins) say who won. The moves' own `result` notes restate the moves and are
//! not kept.
//!
//! What the rules cannot say is kept in [`LoadedGame::tags`], so that a game written back loses
//! nothing: every header field but `game`, `players` and `startingPosition` (a string as it is,
//! anything else as compact JSON), each player's fields but the name as `blue.FIELD` or
//! `red.FIELD`, and for a game that ended by such a last entry the word as `ending` (with the
//! players' results, as `blue.result` and `red.result`, unless `timeout` made it a
//! [`Reason::TimeForfeit`] by the side to move).
//!
//! Written ([`write()`], in `write.rs`): one record per game, a JSON array, with every field the
//! schema requires: `site` (`{"name": "lielow"}` unless a tag gives it), the three dates (the time
//! of writing unless tags give them), the players (`Blue` and `Red` when unnamed) and their results
//! (1 for the winner, 0 for the loser, 0 and 0 for a game without a winner). Fields of our own,
//! which the schema allows: `lielow-opening` (the opening's plies), and `lielow-termination` for a
//! forfeit (`time-forfeit`, `crash`, ...: the rules did not end the game); a start other than the
//! board's usual one is the LFEN in `startingPosition`, the schema's field for a game's own start.

mod write;

use std::fmt;

use serde_json::{Map, Value};

pub use write::{iso_date, record, write};

use lielow_rules::board::{BoardSize, Side};
use lielow_rules::position::Position;
use lielow_rules::quote::shown;

use super::{LoadedGame, ReadGames};
use crate::reason::Reason;

/// The game's name in the header.
const GAME: &str = "Lielow";
/// The variant of the 9x9 board.
const NINE: &str = "size-9";
/// The site of records written here without one.
const SITE: &str = "lielow";
/// Our header field for the opening's plies.
const OPENING: &str = "lielow-opening";
/// Our header field for a forfeit's reason.
const TERMINATION: &str = "lielow-termination";
/// The tag of a game's last entry that the rules do not know.
const ENDING: &str = "ending";
/// Abstract Play's last entries for a game the rules did not end.
const ENDINGS: [&str; 4] = ["resign", "timeout", "draw", "abandoned"];
/// Header fields whose type the schema gives as a string.
const STRING_FIELDS: [&str; 5] = ["event", "round", "date-start", "date-end", "date-generated"];
/// The most games and moves a file may hold (far above any real one).
const MAX_GAMES: usize = 1_000_000;

/// Why a text is not Abstract Play records of Lielow games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ApError {
    /// The text is not JSON (the JSON reader's message, with its line and column).
    Json(String),
    /// The JSON is neither a record nor an array of them (what it is).
    NotRecords(&'static str),
    /// A record's field is missing, of the wrong type, or says what we cannot read.
    Record {
        /// The game's number in the file, from 1.
        game: usize,
        /// What is wrong, naming the field.
        why: String,
    },
    /// A move cannot be played where it stands.
    Move {
        /// The game's number in the file, from 1.
        game: usize,
        /// The ply, from 1.
        ply: usize,
        /// The move's text.
        text: String,
        /// Why.
        why: String,
    },
}

impl fmt::Display for ApError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ApError::Json(error) => write!(f, "not JSON ({error})"),
            ApError::NotRecords(what) => {
                write!(f, "{what}, not an Abstract Play record or an array of them")
            }
            ApError::Record { game, why } => write!(f, "game {game}: {why}"),
            ApError::Move {
                game,
                ply,
                text,
                why,
            } => write!(f, "game {game}, ply {ply} '{}': {why}", shown(text)),
        }
    }
}

impl std::error::Error for ApError {}

/// The games of a text holding one record or an array of them.
pub fn read(text: &str) -> Result<ReadGames, ApError> {
    let text = text.trim_start_matches('\u{feff}');
    let value: Value =
        serde_json::from_str(text).map_err(|error| ApError::Json(error.to_string()))?;
    let records = match value {
        Value::Array(records) => records,
        record @ Value::Object(_) => vec![record],
        other => return Err(ApError::NotRecords(kind(&other))),
    };
    if records.len() > MAX_GAMES {
        return Err(ApError::NotRecords("an array of more than a million games"));
    }
    let mut read = ReadGames::default();
    for (index, record) in records.iter().enumerate() {
        read.games.push(read_record(index + 1, record)?);
    }
    Ok(read)
}

/// What a JSON value is, in messages.
fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A record's field `key` of `object` (named `path` in messages).
fn field<'a>(object: &'a Map<String, Value>, path: &str, key: &str) -> Result<&'a Value, String> {
    object
        .get(key)
        .ok_or_else(|| format!("the required field '{path}{key}' is missing"))
}

/// `value` as an object, or why not.
fn object<'a>(value: &'a Value, path: &str) -> Result<&'a Map<String, Value>, String> {
    value
        .as_object()
        .ok_or_else(|| format!("'{path}' is {}, not an object", kind(value)))
}

/// `value` as a string, or why not.
fn string<'a>(value: &'a Value, path: &str) -> Result<&'a str, String> {
    value
        .as_str()
        .ok_or_else(|| format!("'{path}' is {}, not a string", kind(value)))
}

/// A tag's value: a string as it is, anything else as compact JSON.
fn tag_value(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

/// The header's fields, read: the board, the start, the players and their results, the tags.
struct Header {
    start: Position,
    names: [String; 2],
    results: [i64; 2],
    opening: Option<usize>,
    termination: Option<Reason>,
    tags: Vec<(String, String)>,
}

/// One record as a game (`game` its number in the file).
fn read_record(game: usize, record: &Value) -> Result<LoadedGame, ApError> {
    let bad = |why: String| ApError::Record { game, why };
    let record = object(record, "record").map_err(bad)?;
    let header = read_header(record).map_err(bad)?;
    let rounds = field(record, "", "moves").map_err(bad)?;
    let entries = flatten(rounds).map_err(bad)?;
    let mut position = header.start;
    let mut moves = Vec::with_capacity(entries.len());
    let mut ending = None;
    for (index, (seat, text)) in entries.iter().enumerate() {
        let ply = index + 1;
        let bad_move = |why: String| ApError::Move {
            game,
            ply,
            text: text.clone(),
            why,
        };
        if ENDINGS.contains(&text.as_str()) {
            if ply != entries.len() {
                return Err(bad_move("a game's end, but moves follow it".into()));
            }
            ending = Some(text.clone());
            break;
        }
        if *seat != position.side_to_move().index() {
            let why = format!(
                "in {}'s column, but {} is to move",
                SIDES[*seat],
                position.side_to_move()
            );
            return Err(bad_move(why));
        }
        let mv = position
            .parse_move(text)
            .map_err(|error| bad_move(error.to_string()))?;
        position.play_in_place(mv);
        moves.push(mv);
    }
    let Header {
        start,
        names: [blue, red],
        results,
        opening,
        termination,
        mut tags,
    } = header;
    if opening.is_some_and(|plies| plies > moves.len()) {
        return Err(bad(format!(
            "'{OPENING}' is more than the game's {} moves",
            moves.len()
        )));
    }
    let result = result_of(&position, results, ending.as_deref(), termination).map_err(bad)?;
    if let Some(word) = ending.filter(|_| result.is_none()) {
        tags.push((ENDING.to_owned(), word));
        tags.push(("blue.result".to_owned(), results[0].to_string()));
        tags.push(("red.result".to_owned(), results[1].to_string()));
    }
    Ok(LoadedGame {
        start,
        moves,
        opening,
        result,
        blue: Some(blue),
        red: Some(red),
        tags,
    })
}

/// The seats' sides, in messages.
const SIDES: [&str; 2] = ["Blue", "Red"];

/// The header of `record`, read.
fn read_header(record: &Map<String, Value>) -> Result<Header, String> {
    let header = object(field(record, "", "header")?, "header")?;
    for key in ["site", "date-start", "date-end", "date-generated"] {
        field(header, "header.", key)?;
    }
    let size = board_of(object(field(header, "header.", "game")?, "header.game")?)?;
    let start = match header.get("startingPosition") {
        None => Position::start(size),
        Some(value) => {
            let lfen = string(value, "header.startingPosition")?;
            let start = Position::from_lfen(lfen)
                .map_err(|error| format!("'header.startingPosition' is no LFEN: {error}"))?;
            if start.size() != size {
                return Err(format!("'header.startingPosition' is not a {size} board"));
            }
            start
        }
    };
    let mut tags = Vec::new();
    let (names, results) = players(field(header, "header.", "players")?, &mut tags)?;
    let opening = match header.get(OPENING) {
        None => None,
        Some(value) => Some(
            value
                .as_u64()
                .and_then(|n| usize::try_from(n).ok())
                .ok_or_else(|| format!("'header.{OPENING}' is not a number of plies"))?,
        ),
    };
    let termination = match header.get(TERMINATION) {
        None => None,
        Some(value) => Some(
            string(value, &format!("header.{TERMINATION}"))?
                .parse::<Reason>()
                .map_err(|error| format!("'header.{TERMINATION}': {error}"))?,
        ),
    };
    let ours = ["game", "players", "startingPosition", OPENING, TERMINATION];
    for (key, value) in header
        .iter()
        .filter(|(key, _)| !ours.contains(&key.as_str()))
    {
        tags.push((key.clone(), tag_value(value)));
    }
    Ok(Header {
        start,
        names,
        results,
        opening,
        termination,
        tags,
    })
}

/// The board of the header's `game`: Lielow, on 8x8 or (variant `size-9`) 9x9.
fn board_of(game: &Map<String, Value>) -> Result<BoardSize, String> {
    let name = string(field(game, "header.game.", "name")?, "header.game.name")?;
    if !name.eq_ignore_ascii_case(GAME) {
        return Err(format!("a record of '{}', not of Lielow", shown(name)));
    }
    let mut size = BoardSize::Eight;
    if let Some(variants) = game.get("variants") {
        let Some(variants) = variants.as_array() else {
            return Err(format!(
                "'header.game.variants' is {}, not an array",
                kind(variants)
            ));
        };
        for variant in variants {
            match variant.as_str() {
                Some(NINE) => size = BoardSize::Nine,
                _ => {
                    return Err(format!(
                        "the variant {} is none that lielow plays (only \"{NINE}\")",
                        shown(&variant.to_string())
                    ))
                }
            }
        }
    }
    Ok(size)
}

/// The two players' names and results; their other fields become tags.
fn players(
    players: &Value,
    tags: &mut Vec<(String, String)>,
) -> Result<([String; 2], [i64; 2]), String> {
    let list = players
        .as_array()
        .ok_or_else(|| format!("'header.players' is {}, not an array", kind(players)))?;
    if list.len() != 2 {
        return Err(format!(
            "'header.players' lists {} players; Lielow has two",
            list.len()
        ));
    }
    let mut names = [String::new(), String::new()];
    let mut results = [0; 2];
    for (seat, player) in list.iter().enumerate() {
        let path = format!("header.players[{seat}]");
        let player = object(player, &path)?;
        let dotted = format!("{path}.");
        names[seat] = string(field(player, &dotted, "name")?, &format!("{path}.name"))?.to_owned();
        results[seat] = field(player, &dotted, "result")?
            .as_i64()
            .ok_or_else(|| format!("'{path}.result' is not an integer"))?;
        let prefix = SIDES[seat].to_ascii_lowercase();
        for (key, value) in player
            .iter()
            .filter(|(key, _)| !["name", "result"].contains(&key.as_str()))
        {
            tags.push((format!("{prefix}.{key}"), tag_value(value)));
        }
    }
    Ok((names, results))
}

/// The moves' entries in the order played: (seat, text).
fn flatten(rounds: &Value) -> Result<Vec<(usize, String)>, String> {
    let rounds = rounds
        .as_array()
        .ok_or_else(|| format!("'moves' is {}, not an array", kind(rounds)))?;
    let mut entries = Vec::new();
    for (r, round) in rounds.iter().enumerate() {
        let seats = round.as_array().ok_or_else(|| {
            format!(
                "'moves[{r}]' is {}, not an array of the round's moves",
                kind(round)
            )
        })?;
        if seats.len() > 2 {
            return Err(format!(
                "'moves[{r}]' has {} entries; Lielow has two seats",
                seats.len()
            ));
        }
        let mut played = Vec::new();
        for (seat, entry) in seats.iter().enumerate() {
            let path = format!("moves[{r}][{seat}]");
            let (text, sequence) = match entry {
                Value::Null => continue,
                Value::String(text) => (text.clone(), None),
                Value::Object(object) => {
                    let text = string(
                        field(object, &format!("{path}."), "move")?,
                        &format!("{path}.move"),
                    )?;
                    (
                        text.to_owned(),
                        object.get("sequence").and_then(Value::as_i64),
                    )
                }
                other => return Err(format!("'{path}' is {}, not a move", kind(other))),
            };
            played.push((sequence, seat, text.trim().to_owned()));
        }
        // A round's `sequence` numbers order it when each of its entries has one.
        if played.iter().all(|(sequence, _, _)| sequence.is_some()) {
            played.sort_by_key(|&(sequence, seat, _)| (sequence, seat));
        }
        entries.extend(played.into_iter().map(|(_, seat, text)| (seat, text)));
    }
    Ok(entries)
}

/// The game's result: what the rules say after the moves, checked against the header's results
/// (higher wins), or the forfeit that `lielow-termination` or a `timeout` gives; `None` for a
/// game without a winner or one a `resign` (or `draw`, `abandoned`) ended.
fn result_of(
    position: &Position,
    results: [i64; 2],
    ending: Option<&str>,
    termination: Option<Reason>,
) -> Result<Option<(Side, Reason)>, String> {
    let header = match results[0].cmp(&results[1]) {
        std::cmp::Ordering::Greater => Some(Side::Blue),
        std::cmp::Ordering::Less => Some(Side::Red),
        std::cmp::Ordering::Equal => None,
    };
    let says =
        |winner: Option<Side>| winner.map_or("nobody won".to_owned(), |w| format!("{w} won"));
    if let Some(outcome) = position.outcome() {
        let reason = Reason::from(outcome.end);
        if header != Some(outcome.winner) || termination.is_some_and(|t| t != reason) {
            return Err(format!(
                "the header says {}, but the rules end the game: {} won ({reason})",
                says(header),
                outcome.winner
            ));
        }
        return Ok(Some((outcome.winner, reason)));
    }
    let loser = position.side_to_move();
    let forfeit = match (termination, ending) {
        (Some(reason), _) => Some(reason),
        (None, Some("timeout")) if header == Some(loser.opponent()) => Some(Reason::TimeForfeit),
        _ => None,
    };
    match (header, forfeit, ending) {
        (_, Some(reason), _) if !reason.is_forfeit() => Err(format!(
            "'{TERMINATION}' says {reason}, but the game is not over after its moves"
        )),
        (Some(winner), Some(reason), _) if winner == loser.opponent() => Ok(Some((winner, reason))),
        (_, Some(reason), _) => Err(format!(
            "a forfeit ({reason}) is {loser}'s, the side to move, but the header says {}",
            says(header)
        )),
        (_, None, Some(_)) | (None, None, None) => Ok(None),
        (Some(winner), None, None) => Err(format!(
            "the header says {winner} won, but the game is not over after its moves and no \
             resignation or timeout ends it"
        )),
    }
}

/// How a game read from Abstract Play ended when the rules did not end it and it has no
/// result (the tags `ending`, `blue.result` and `red.result`): `Blue won by resignation`, `ended
/// by a draw agreed`; `None` for any other game.
pub fn ending(tags: &[(String, String)]) -> Option<String> {
    let tag = |name: &str| {
        tags.iter()
            .find(|(key, _)| key == name)
            .map(|(_, v)| v.as_str())
    };
    let word = match tag(ENDING)? {
        "resign" => "resignation",
        "timeout" => "timeout",
        "draw" => "a draw agreed",
        "abandoned" => "the game abandoned",
        other => other,
    };
    let score = |side: &str| tag(&format!("{side}.result")).and_then(|v| v.parse::<i64>().ok());
    Some(match (score("blue"), score("red")) {
        (Some(blue), Some(red)) if blue > red => format!("Blue won by {word}"),
        (Some(blue), Some(red)) if red > blue => format!("Red won by {word}"),
        _ => format!("ended by {word}"),
    })
}
