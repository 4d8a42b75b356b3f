//! Writing Abstract Play game records: every field the schema requires, the tags back in their
//! places (see the parent module).

use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::{Map, Value};

use lielow_rules::board::{BoardSize, Side};
use lielow_rules::moves::Move;
use lielow_rules::position::Position;

use super::{ENDING, GAME, NINE, OPENING, SIDES, SITE, STRING_FIELDS, TERMINATION};
use crate::games::date::civil_date;
use crate::games::LoadedGame;

/// The records of `games`, as a JSON array (one record a line group, indented), `now` the time
/// given to the dates that no tag gives.
pub fn write(games: &[LoadedGame], now: SystemTime) -> String {
    let records: Vec<Value> = games.iter().map(|game| record(game, now)).collect();
    let mut text = serde_json::to_string_pretty(&Value::Array(records))
        .expect("a JSON value always serialises");
    text.push('\n');
    text
}

/// One game's record.
pub fn record(game: &LoadedGame, now: SystemTime) -> Value {
    let size = game.start.size();
    let mut header = Map::new();
    let variants: Vec<Value> = match size {
        BoardSize::Nine => vec![Value::from(NINE)],
        BoardSize::Eight => Vec::new(),
    };
    header.insert(
        "game".into(),
        serde_json::json!({"name": GAME, "variants": variants}),
    );
    header.insert("site".into(), serde_json::json!({ "name": SITE }));
    let date = Value::from(iso_date(now));
    for key in ["date-start", "date-end", "date-generated"] {
        header.insert(key.into(), date.clone());
    }
    let mut players = [Map::new(), Map::new()];
    let names = [game.blue.as_deref(), game.red.as_deref()];
    let results = match game.result {
        Some((Side::Blue, _)) => [1, 0],
        Some((Side::Red, _)) => [0, 1],
        None => [0, 0],
    };
    for seat in 0..2 {
        players[seat].insert(
            "name".into(),
            Value::from(names[seat].unwrap_or(SIDES[seat])),
        );
        players[seat].insert("result".into(), Value::from(results[seat]));
    }
    let mut ending = None;
    for (key, value) in &game.tags {
        let seat = ["blue.", "red."]
            .iter()
            .position(|prefix| key.starts_with(prefix));
        match seat {
            Some(seat) => {
                let name = &key[key.find('.').map_or(0, |dot| dot + 1)..];
                if name == "result" && game.result.is_some() || name == "name" {
                    continue;
                }
                players[seat].insert(name.to_owned(), tag_json(name, value));
            }
            None if key == ENDING => ending = Some(value.clone()),
            None if ["game", "players", "startingPosition", OPENING, TERMINATION]
                .contains(&key.as_str()) => {}
            None => {
                header.insert(key.clone(), tag_json(key, value));
            }
        }
    }
    if players[0] == players[1] {
        // The schema wants the players unique: two "human"s without a winner are told apart.
        for (seat, player) in players.iter_mut().enumerate() {
            let name = format!("{} ({})", names[seat].unwrap_or(SIDES[seat]), SIDES[seat]);
            player.insert("name".into(), Value::from(name));
        }
    }
    if !header
        .get("site")
        .is_some_and(|site| site.get("name").is_some_and(Value::is_string))
    {
        header.insert("site".into(), serde_json::json!({ "name": SITE }));
    }
    header.insert(
        "players".into(),
        Value::Array(players.into_iter().map(Value::Object).collect()),
    );
    if game.start != Position::start(size) {
        header.insert("startingPosition".into(), Value::from(game.start.to_lfen()));
    }
    if let Some(plies) = game.opening {
        header.insert(OPENING.into(), Value::from(plies));
    }
    if let Some((_, reason)) = game.result.filter(|(_, reason)| reason.is_forfeit()) {
        header.insert(TERMINATION.into(), Value::from(reason.as_str()));
    }
    let moves = rounds(game, ending.filter(|_| game.result.is_none()));
    serde_json::json!({ "header": Value::Object(header), "moves": moves })
}

/// A tag's value in a record: a string where the schema wants one, otherwise the JSON it
/// holds when it is JSON other than a string, else the string.
fn tag_json(key: &str, value: &str) -> Value {
    if STRING_FIELDS.contains(&key) || key == "name" || key == "userid" {
        return Value::from(value);
    }
    match serde_json::from_str::<Value>(value) {
        Ok(Value::String(_)) | Err(_) => Value::from(value),
        Ok(json) => json,
    }
}

/// The moves as rounds of two seats, Blue's then Red's (a game whose start has Red to move
/// begins with an empty Blue seat), `ending` after the last move in the next seat.
fn rounds(game: &LoadedGame, ending: Option<String>) -> Value {
    let mut seats: Vec<Value> = Vec::new();
    if game.start.side_to_move() == Side::Red {
        seats.push(Value::Null);
    }
    seats.extend(
        game.moves
            .iter()
            .map(|mv: &Move| Value::from(mv.to_string())),
    );
    seats.extend(ending.map(Value::from));
    let rounds: Vec<Value> = seats
        .chunks(2)
        .map(|round| Value::Array(round.to_vec()))
        .collect();
    Value::Array(rounds)
}

/// `time` as the schema's date-time (RFC 3339, UTC, milliseconds: `2026-12-07T14:30:00.000Z`).
pub fn iso_date(time: SystemTime) -> String {
    let since = time.duration_since(UNIX_EPOCH).unwrap_or_default();
    let seconds = since.as_secs();
    let (days, rest) = (seconds / 86_400, seconds % 86_400);
    let (year, month, day) = civil_date(days);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        rest / 3600,
        rest / 60 % 60,
        rest % 60,
        since.subsec_millis()
    )
}
