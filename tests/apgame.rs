//! Abstract Play game records: the fixtures read (players, results, tags), every record lielow
//! writes checked against the schema Abstract Play publishes (kept in tests/fixtures/apgame/),
//! written games read back the same, and every malformed case refused with a one-line reason
//! naming the game (and the ply); `lielow analyse` reviews an Abstract Play file.

mod support;

use std::time::{Duration, UNIX_EPOCH};

use serde_json::Value;

use lielow::games::apgame;
use lielow::games::{read_games, Format, GamesError, LoadedGame};
use lielow::reason::Reason;
use lielow_rules::board::{BoardSize, Side};
use lielow_rules::position::Position;
use support::{lielow, scratch, stderr};

fn fixture(name: &str) -> String {
    let path = format!(
        "{}/tests/fixtures/apgame/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn tag<'a>(game: &'a LoadedGame, name: &str) -> Option<&'a str> {
    game.tags
        .iter()
        .find(|(key, _)| key == name)
        .map(|(_, value)| value.as_str())
}

fn read(text: &str) -> Vec<LoadedGame> {
    assert_eq!(Format::sniff(text), Format::AbstractPlay);
    read_games(text, BoardSize::Eight)
        .unwrap_or_else(|e| panic!("{e}"))
        .games
}

#[test]
fn a_record_of_abstract_play_reads_with_its_players_result_and_header() {
    let games = read(&fixture("lielow-8x8.json"));
    assert_eq!(games.len(), 1);
    let game = &games[0];
    assert_eq!(game.start, Position::start(BoardSize::Eight));
    assert_eq!(game.moves.len(), 12);
    assert_eq!(game.moves[11].to_string(), "c8xe8");
    assert_eq!(game.result, Some((Side::Red, Reason::KingCaptured)));
    assert_eq!(game.blue.as_deref(), Some("alice"));
    assert_eq!(game.red.as_deref(), Some("bob"));
    assert_eq!(game.opening, None);
    assert_eq!(tag(game, "event"), Some("Autumn ladder"));
    assert_eq!(tag(game, "round"), Some("2"));
    assert_eq!(tag(game, "unrated"), Some("false"));
    assert_eq!(tag(game, "turn-model"), Some("sequential"));
    assert_eq!(tag(game, "date-end"), Some("2026-10-05T09:47:30.000Z"));
    assert_eq!(
        tag(game, "blue.userid"),
        Some("7d1f0c2a-0000-4000-8000-000000000001")
    );
    let site: Value = serde_json::from_str(tag(game, "site").unwrap()).unwrap();
    assert_eq!(site["name"], "Abstract Play");
}

#[test]
fn nine_by_nine_records_read_with_their_resignation_and_timeout() {
    let games = read(&fixture("lielow-9x9.json"));
    assert_eq!(games.len(), 3);
    assert!(games
        .iter()
        .all(|g| g.start == Position::start(BoardSize::Nine)));
    assert_eq!(games[0].result, Some((Side::Blue, Reason::KingCaptured)));
    assert_eq!(games[0].moves.len(), 13);
    // Resigned: the rules did not end it; the header's results say who won.
    let resigned = &games[1];
    assert_eq!(resigned.moves.len(), 8);
    assert_eq!(resigned.result, None);
    assert_eq!(tag(resigned, "ending"), Some("resign"));
    assert_eq!(tag(resigned, "blue.result"), Some("1"));
    assert_eq!(tag(resigned, "red.result"), Some("0"));
    // Red, to move, ran out of time: a time forfeit.
    let timeout = &games[2];
    assert_eq!(timeout.moves.len(), 5);
    assert_eq!(timeout.result, Some((Side::Blue, Reason::TimeForfeit)));
    assert_eq!(tag(timeout, "ending"), None);
    assert_eq!(tag(timeout, "red.is_ai"), Some("true"));
}

/// Checks `value` against the JSON schema `schema` (the keywords the Abstract Play record
/// schema uses: type, properties, required, additionalProperties, items, minItems, uniqueItems,
/// oneOf, anyOf and the date-time format), pushing what fails, with its path.
fn validate(schema: &Value, value: &Value, path: &str, errors: &mut Vec<String>) {
    let Some(schema) = schema.as_object() else {
        return;
    };
    let known = [
        "$schema",
        "$id",
        "id",
        "title",
        "description",
        "type",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "minItems",
        "uniqueItems",
        "oneOf",
        "anyOf",
        "format",
        "default",
    ];
    for key in schema.keys() {
        assert!(
            known.contains(&key.as_str()),
            "the check does not know '{key}'"
        );
    }
    if let Some(types) = schema.get("type") {
        let types: Vec<&str> = match types {
            Value::String(one) => vec![one.as_str()],
            Value::Array(many) => many.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        let fits = |t: &str| match t {
            "object" => value.is_object(),
            "array" => value.is_array(),
            "string" => value.is_string(),
            "number" => value.is_number(),
            "integer" => value.is_i64() || value.is_u64(),
            "boolean" => value.is_boolean(),
            "null" => value.is_null(),
            _ => false,
        };
        if !types.iter().any(|t| fits(t)) {
            errors.push(format!("{path}: not of type {types:?}"));
            return;
        }
    }
    if schema.get("format").and_then(Value::as_str) == Some("date-time") {
        let text = value.as_str().unwrap_or("");
        let shape = text.len() >= 20
            && text.as_bytes()[4] == b'-'
            && text.as_bytes()[10] == b'T'
            && text.ends_with('Z');
        if !shape {
            errors.push(format!("{path}: '{text}' is not a date-time"));
        }
    }
    if let (Some(required), Some(object)) = (schema.get("required"), value.as_object()) {
        for key in required
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
        {
            if !object.contains_key(key) {
                errors.push(format!("{path}: the required '{key}' is missing"));
            }
        }
    }
    if let Some(object) = value.as_object() {
        let properties = schema.get("properties").and_then(Value::as_object);
        for (key, child) in object {
            match properties.and_then(|p| p.get(key)) {
                Some(sub) => validate(sub, child, &format!("{path}.{key}"), errors),
                None if schema.get("additionalProperties") == Some(&Value::Bool(false)) => {
                    errors.push(format!("{path}: '{key}' is not allowed"))
                }
                None => {}
            }
        }
    }
    if let Some(array) = value.as_array() {
        if let Some(min) = schema.get("minItems").and_then(Value::as_u64) {
            if (array.len() as u64) < min {
                errors.push(format!("{path}: fewer than {min} items"));
            }
        }
        if schema.get("uniqueItems") == Some(&Value::Bool(true)) {
            for (i, item) in array.iter().enumerate() {
                if array[..i].contains(item) {
                    errors.push(format!("{path}[{i}]: a repeated item"));
                }
            }
        }
        if let Some(items) = schema.get("items") {
            for (i, item) in array.iter().enumerate() {
                validate(items, item, &format!("{path}[{i}]"), errors);
            }
        }
    }
    let passing = |alternatives: &Value| {
        alternatives
            .as_array()
            .unwrap()
            .iter()
            .filter(|alternative| {
                let mut inner = Vec::new();
                validate(alternative, value, path, &mut inner);
                inner.is_empty()
            })
            .count()
    };
    if let Some(one_of) = schema.get("oneOf") {
        if passing(one_of) != 1 {
            errors.push(format!("{path}: not exactly one of the oneOf alternatives"));
        }
    }
    if let Some(any_of) = schema.get("anyOf") {
        if passing(any_of) == 0 {
            errors.push(format!("{path}: none of the anyOf alternatives"));
        }
    }
}

fn schema_errors(record: &Value) -> Vec<String> {
    let schema: Value = serde_json::from_str(&fixture("gamerecord.schema.json")).unwrap();
    let mut errors = Vec::new();
    validate(&schema, record, "record", &mut errors);
    errors
}

/// Games of every kind a writer meets: the fixtures' (rules endings, a resignation, a
/// timeout), a match game with its opening and a forfeit, an unfinished game without player
/// names, and a game from a set-up position with Red to move.
fn games_to_write() -> Vec<LoadedGame> {
    let mut games = read(&fixture("lielow-8x8.json"));
    games.extend(read(&fixture("lielow-9x9.json")));
    let start = Position::start(BoardSize::Eight);
    let (_, moves) = start.replay(["a2-a3", "h7-h6", "a3-a5"]).unwrap();
    games.push(LoadedGame {
        start,
        moves: moves.clone(),
        opening: Some(2),
        result: Some((Side::Blue, Reason::Crash)),
        blue: Some("lielow".into()),
        red: Some("other \"engine\"".into()),
        tags: vec![("blue.is_ai".into(), "true".into())],
    });
    games.push(LoadedGame {
        start,
        moves: moves[..1].to_vec(),
        opening: None,
        result: None,
        blue: None,
        red: None,
        tags: Vec::new(),
    });
    let set_up: Position = "8/r1r1r1R24/8/8/8/3B24/b1b1b15/8 r".parse().unwrap();
    let (_, moves) = set_up.replay(["d7-d5", "d3xd5"]).unwrap();
    games.push(LoadedGame {
        start: set_up,
        moves,
        opening: Some(0),
        result: Some((Side::Blue, Reason::KingCaptured)),
        blue: Some("x".into()),
        red: Some("y".into()),
        tags: vec![("Event".into(), "a PGN tag".into())],
    });
    games
}

#[test]
fn the_schema_check_finds_what_a_record_lacks() {
    // The check itself must be able to fail: a fixture passes, a damaged copy does not.
    let mut record: Value = serde_json::from_str(&fixture("lielow-8x8.json")).unwrap();
    assert_eq!(schema_errors(&record), Vec::<String>::new());
    record["header"]
        .as_object_mut()
        .unwrap()
        .remove("date-generated");
    record["header"]["players"][1]
        .as_object_mut()
        .unwrap()
        .remove("result");
    record["header"]["game"]["name"] = Value::from(3);
    record["moves"][0][0] = serde_json::json!({"sequence": 1});
    record["extra"] = Value::Bool(true);
    let errors = schema_errors(&record);
    assert_eq!(errors.len(), 5, "{errors:#?}");
    assert!(errors
        .iter()
        .any(|e| e.contains("'date-generated' is missing")));
    assert!(errors.iter().any(|e| e.contains("'result' is missing")));
}

#[test]
fn every_record_written_carries_what_the_schema_requires() {
    let now = UNIX_EPOCH + Duration::from_millis(1_796_654_400_123);
    let text = apgame::write(&games_to_write(), now);
    let records: Value = serde_json::from_str(&text).unwrap();
    let records = records.as_array().unwrap();
    assert_eq!(records.len(), 7);
    for (i, record) in records.iter().enumerate() {
        assert_eq!(
            schema_errors(record),
            Vec::<String>::new(),
            "record {}",
            i + 1
        );
    }
    // The dates no tag gives are the time of writing; the fixtures' own are kept.
    assert_eq!(records[5]["header"]["date-end"], "2026-12-07T14:40:00.123Z");
    let leap_day = UNIX_EPOCH + Duration::from_secs(951_782_400 + 86_399);
    assert_eq!(apgame::iso_date(leap_day), "2000-02-29T23:59:59.000Z");
    assert_eq!(records[0]["header"]["date-end"], "2026-10-05T09:47:30.000Z");
    assert_eq!(records[5]["header"]["players"][0]["name"], "Blue");
    assert_eq!(records[4]["header"]["lielow-termination"], "crash");
    assert_eq!(records[4]["header"]["players"][0]["is_ai"], true);
    assert_eq!(records[2]["moves"][4][0], "resign");
    assert_eq!(records[6]["moves"][0][0], Value::Null);
    assert_eq!(records[6]["header"]["Event"], "a PGN tag");
}

#[test]
fn written_records_read_back_to_the_same_games() {
    let games = games_to_write();
    let text = apgame::write(&games, UNIX_EPOCH + Duration::from_secs(1_800_000_000));
    let mut again = read(&text);
    // What the writer supplies for a game that has none: the players' names, the site, the
    // dates.
    let unnamed = &mut again[5];
    assert_eq!(unnamed.blue.as_deref(), Some("Blue"));
    unnamed.blue = None;
    unnamed.red = None;
    for game in &mut again[4..] {
        game.tags
            .retain(|(key, _)| key != "site" && !key.starts_with("date-"));
    }
    assert_eq!(again, games);
    // And a second round trip changes nothing.
    let twice = apgame::write(
        &read(&text),
        UNIX_EPOCH + Duration::from_secs(1_800_000_000),
    );
    assert_eq!(twice, text);
}

/// The error of reading `text`, as a one-line message.
fn refused(text: &str) -> String {
    let error = read_games(text, BoardSize::Eight).unwrap_err();
    assert!(matches!(error, GamesError::AbstractPlay(_)), "{error:?}");
    let message = error.to_string();
    assert!(!message.contains('\n'), "{message}");
    message
}

/// A change made to a record's JSON.
type Change = Box<dyn FnOnce(&mut Value)>;

/// The 8x8 fixture with `change` made to its JSON.
fn changed(change: impl FnOnce(&mut Value)) -> String {
    let mut record: Value = serde_json::from_str(&fixture("lielow-8x8.json")).unwrap();
    change(&mut record);
    // In an array after a good game, so the message must name the second.
    let good: Value = serde_json::from_str(&fixture("lielow-8x8.json")).unwrap();
    serde_json::to_string_pretty(&Value::Array(vec![good, record])).unwrap()
}

#[test]
fn malformed_records_are_refused_naming_the_game_and_the_ply() {
    assert!(refused("{\"header\": ").starts_with("not JSON (EOF while parsing"));
    assert!(refused("[\"a game\"]").contains("game 1: 'record' is a string, not an object"));
    let cases: Vec<(Change, &str)> = vec![
        (
            Box::new(|r| {
                r["header"].as_object_mut().unwrap().remove("players");
            }),
            "game 2: the required field 'header.players' is missing",
        ),
        (
            Box::new(|r| {
                r.as_object_mut().unwrap().remove("moves");
            }),
            "game 2: the required field 'moves' is missing",
        ),
        (
            Box::new(|r| {
                r["header"].as_object_mut().unwrap().remove("date-end");
            }),
            "game 2: the required field 'header.date-end' is missing",
        ),
        (
            Box::new(|r| r["header"]["game"]["name"] = "Chess".into()),
            "game 2: a record of 'Chess', not of Lielow",
        ),
        (
            Box::new(|r| r["header"]["game"]["variants"] = serde_json::json!(["size-11"])),
            "game 2: the variant \"size-11\" is none that lielow plays",
        ),
        (
            Box::new(|r| {
                let third = r["header"]["players"][0].clone();
                r["header"]["players"].as_array_mut().unwrap().push(third);
            }),
            "game 2: 'header.players' lists 3 players; Lielow has two",
        ),
        (
            Box::new(|r| r["header"]["players"][1]["result"] = "won".into()),
            "game 2: 'header.players[1].result' is not an integer",
        ),
        (
            Box::new(|r| r["moves"][2][0]["move"] = "c2-c5".into()),
            "game 2, ply 5 'c2-c5': a stack of height 1 moves exactly 1 squares",
        ),
        (
            Box::new(|r| r["moves"][1] = serde_json::json!([null, "f7-g8"])),
            "game 2, ply 3 'f7-g8': in Red's column, but Blue is to move",
        ),
        (
            Box::new(|r| {
                r["header"]["players"][0]["result"] = 1.into();
                r["header"]["players"][1]["result"] = 0.into();
            }),
            "game 2: the header says Blue won, but the rules end the game: Red won (king-captured)",
        ),
        (
            Box::new(|r| {
                let rounds = r["moves"].as_array_mut().unwrap();
                rounds.pop();
                rounds.push(serde_json::json!(["b5xe8"]));
            }),
            "game 2: the header says Red won, but the game is not over after its moves",
        ),
        (
            Box::new(|r| r["moves"][1][1] = "resign".into()),
            "game 2, ply 4 'resign': a game's end, but moves follow it",
        ),
        (
            Box::new(|r| r["moves"][0] = serde_json::json!("b2-a3")),
            "game 2: 'moves[0]' is a string, not an array of the round's moves",
        ),
        (
            Box::new(|r| r["header"]["lielow-termination"] = "resigned".into()),
            "game 2: 'header.lielow-termination': unknown game-end reason 'resigned'",
        ),
    ];
    for (change, expected) in cases {
        let message = refused(&changed(change));
        assert!(
            message.starts_with(expected),
            "{message}\nexpected: {expected}"
        );
    }
}

#[test]
fn analyse_reviews_an_abstract_play_file_and_refuses_a_malformed_one() {
    let dir = scratch("analyse-apgame");
    let file = dir.join("games.json");
    std::fs::write(&file, fixture("lielow-9x9.json")).unwrap();
    let path = file.display().to_string();
    let out = lielow(&["analyse", &path, "--game", "3", "--nodes", "500"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(
        table.starts_with("Game 3: carol (Blue) vs AiAi (Red), Blue won by time-forfeit"),
        "{table}"
    );
    let out = lielow(&["analyse", &path, "--game", "2", "--nodes", "500"]);
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(
        table.starts_with("Game 2: dave (Blue) vs carol (Red), Blue won by resignation"),
        "{table}"
    );
    let broken = fixture("lielow-9x9.json").replacen("\"b4xb6\"", "\"b4xb7\"", 1);
    std::fs::write(&file, broken).unwrap();
    let out = lielow(&["analyse", &path, "--nodes", "500"]);
    assert_eq!(out.status.code(), Some(2));
    let message = stderr(&out);
    assert_eq!(message.lines().count(), 1, "{message}");
    assert!(message.contains("game 1, ply 5 'b4xb7'"), "{message}");
    let _ = std::fs::remove_dir_all(&dir);
}
