//! The page's Load and Save: `POST /api/load` reads games in any format a command takes
//! ([`crate::games::read_games`]: record lines, PGN, Abstract Play records) or a position
//! (`LFEN`, `LFEN moves ...`, `startpos moves ...`) and answers them for the page to pick one;
//! `POST /api/save` writes the page's game in the format asked for. Both check every move with
//! the rules core; what cannot be read is refused (400) with one line that says why and where.

use std::time::SystemTime;

use serde::{Deserialize, Serialize};

use super::api::{bad, Answer, Body, Refusal};
use super::routes::{game_of, Game};
use crate::games::{apgame, pgn, read_games, Format, LoadedGame};
use crate::reason::Reason;
use crate::records::GameRecord;
use lielow_rules::board::{BoardSize, Side};
use lielow_rules::position::Position;

/// The most games a Load answers (a larger file is refused: the page is for one game at a time).
const MAX_GAMES: usize = 500;
/// The most header fields a saved game may carry.
const MAX_TAGS: usize = 64;

/// `POST /api/load`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LoadRequest {
    /// The pasted or chosen file's text.
    pub text: String,
    /// The board of `startpos` (8 unless given).
    #[serde(default)]
    pub size: Option<u8>,
}

/// A game's result as the page sees it.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ResultJson {
    /// `Blue` or `Red`.
    pub winner: String,
    /// The reason, as records name it (`king-captured`, `time-forfeit`, ...).
    pub reason: String,
}

/// One game, as Load answers it and Save takes it.
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct GameJson {
    /// The start position's LFEN.
    pub start: String,
    /// The moves, canonical.
    #[serde(default)]
    pub moves: Vec<String>,
    /// The opening's plies, when known.
    #[serde(default)]
    pub opening: Option<usize>,
    /// Who won and how (`null`: unfinished, or not told).
    #[serde(default)]
    pub result: Option<ResultJson>,
    /// Blue's player.
    #[serde(default)]
    pub blue: Option<String>,
    /// Red's player.
    #[serde(default)]
    pub red: Option<String>,
    /// The file's other header fields, name and value.
    #[serde(default)]
    pub tags: Vec<(String, String)>,
}

/// The answer of `POST /api/load`.
#[derive(Debug, Serialize)]
pub struct LoadAnswer {
    /// The format read.
    pub format: &'static str,
    /// The games, in the file's order.
    pub games: Vec<GameJson>,
    /// What the reader left out, one line each.
    pub warnings: Vec<String>,
}

/// The formats Save writes.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SaveFormat {
    /// A `lielow match` record line (`LFEN moves ...` for an unfinished game).
    Record,
    /// Portable Game Notation.
    Pgn,
    /// An Abstract Play game record (JSON).
    Apgame,
}

/// `POST /api/save`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SaveRequest {
    /// The format to write.
    pub format: SaveFormat,
    /// The game.
    pub game: GameJson,
}

/// The answer of `POST /api/save`.
#[derive(Debug, Serialize)]
pub struct SaveAnswer {
    /// The file's text.
    pub text: String,
    /// A name for the file.
    pub filename: String,
    /// What the file holds, for the page's status line.
    pub note: String,
}

impl GameJson {
    fn of(game: &LoadedGame) -> GameJson {
        GameJson {
            start: game.start.to_lfen(),
            moves: game.moves.iter().map(ToString::to_string).collect(),
            opening: game.opening,
            result: game.result.map(|(winner, reason)| ResultJson {
                winner: winner.to_string(),
                reason: reason.to_string(),
            }),
            blue: game.blue.clone(),
            red: game.red.clone(),
            tags: game.tags.clone(),
        }
    }
}

/// `POST /api/load`.
pub async fn load(Body(request): Body<LoadRequest>) -> Result<Answer<LoadAnswer>, Refusal> {
    let size = match request.size {
        None | Some(8) => BoardSize::Eight,
        Some(9) => BoardSize::Nine,
        Some(other) => return Err(bad(format!("size must be 8 or 9, not {other}"))),
    };
    let text = request.text.trim();
    if text.is_empty() {
        return Err(bad(
            "nothing to load: paste a game or a position, or choose a file",
        ));
    }
    if let Some(game) = position_form(text, size)? {
        let answer = LoadAnswer {
            format: "position",
            games: vec![GameJson::of(&game)],
            warnings: Vec::new(),
        };
        return Ok(Answer(answer));
    }
    let format = Format::sniff(text);
    let read = read_games(text, size).map_err(|error| bad(error.to_string()))?;
    if read.games.len() > MAX_GAMES {
        return Err(bad(format!(
            "{} games: the page loads files of at most {MAX_GAMES}",
            read.games.len()
        )));
    }
    Ok(Answer(LoadAnswer {
        format: format.name(),
        games: read.games.iter().map(GameJson::of).collect(),
        warnings: read.warnings,
    }))
}

/// A position given as `LFEN`, `LFEN moves ...` or `startpos moves ...` (one line, no record
/// fields): the game from it, or `None` when the text is a file of games.
fn position_form(text: &str, size: BoardSize) -> Result<Option<LoadedGame>, Refusal> {
    if text.contains('\n') || text.contains(" ; ") || Format::sniff(text) != Format::Records {
        return Ok(None);
    }
    let (start, moves) = match text.split_once(" moves") {
        Some((start, moves)) => (start.trim(), moves.split_whitespace().collect()),
        None => (text, Vec::new()),
    };
    let start = match start {
        "startpos" => Position::start(size).to_lfen(),
        lfen => lfen.to_owned(),
    };
    let moves: Vec<String> = moves.into_iter().map(str::to_owned).collect();
    let Game { start, moves, .. } = game_of(Some(&start), &moves)?;
    Ok(Some(LoadedGame {
        start,
        moves,
        opening: None,
        result: None,
        blue: None,
        red: None,
        tags: Vec::new(),
    }))
}

/// `POST /api/save`.
pub async fn save(Body(request): Body<SaveRequest>) -> Result<Answer<SaveAnswer>, Refusal> {
    let game = checked(request.game)?;
    // A game that ended outside the rules (a resignation) keeps its ending in its tags.
    let finished = game.result.is_some() || game.tags.iter().any(|(key, _)| key == "ending");
    let answer = match request.format {
        SaveFormat::Record => match record_of(&game) {
            Some(record) => SaveAnswer {
                text: format!("{record}\n"),
                filename: "lielow-game.txt".into(),
                note: "Saved in the record format of lielow match.".into(),
            },
            None => SaveAnswer {
                text: format!("{} moves {}\n", game.start.to_lfen(), moves_text(&game)),
                filename: "lielow-game-unfinished.txt".into(),
                note: "The game is not over: saved as 'LFEN moves ...'.".into(),
            },
        },
        SaveFormat::Apgame => SaveAnswer {
            text: apgame::write(&[game], SystemTime::now()),
            filename: "lielow-game.json".into(),
            note: format!(
                "Saved as an Abstract Play game record{}.",
                if finished {
                    ""
                } else {
                    " (the game is not over: no winner)"
                }
            ),
        },
        SaveFormat::Pgn => SaveAnswer {
            text: pgn::write_game(&game),
            filename: "lielow-game.pgn".into(),
            note: format!(
                "Saved as PGN{}.",
                if finished {
                    ""
                } else {
                    " (the game is not over: result *)"
                }
            ),
        },
    };
    Ok(Answer(answer))
}

fn moves_text(game: &LoadedGame) -> String {
    let moves: Vec<String> = game.moves.iter().map(ToString::to_string).collect();
    moves.join(" ")
}

/// The page's game checked by the rules: the moves replayed; the result the rules give when
/// they end the game, otherwise the page's when it is a forfeit by the side to move.
fn checked(game: GameJson) -> Result<LoadedGame, Refusal> {
    let Game { start, moves, now } = game_of(Some(&game.start), &game.moves)?;
    if game.opening.is_some_and(|plies| plies > moves.len()) {
        return Err(bad("opening must be at most the game's moves"));
    }
    if game.tags.len() > MAX_TAGS {
        return Err(bad(format!("more than {MAX_TAGS} tags")));
    }
    let result = match (now.outcome(), game.result) {
        (Some(outcome), _) => Some((outcome.winner, Reason::from(outcome.end))),
        (None, None) => None,
        (None, Some(result)) => {
            let winner: Side = match result.winner.as_str() {
                "Blue" => Side::Blue,
                "Red" => Side::Red,
                other => return Err(bad(format!("winner '{other}' is not Blue or Red"))),
            };
            let reason: Reason = result.reason.parse().map_err(|e| bad(format!("{e}")))?;
            if !reason.is_forfeit() || winner != now.side_to_move().opponent() {
                return Err(bad(format!(
                    "{winner} did not win by {reason}: the game goes on after its moves"
                )));
            }
            Some((winner, reason))
        }
    };
    Ok(LoadedGame {
        start,
        moves,
        opening: game.opening,
        result,
        blue: game.blue,
        red: game.red,
        tags: game.tags,
    })
}

/// The game's record line, when it has a result.
fn record_of(game: &LoadedGame) -> Option<GameRecord> {
    let (winner, reason) = game.result?;
    // A record's fields are separated by " ; ", one line: names keep neither.
    let clean = |name: &Option<String>, side: &str| {
        let name = name.as_deref().unwrap_or(side);
        name.chars()
            .map(|c| if c == ';' || c.is_control() { ' ' } else { c })
            .collect::<String>()
    };
    Some(GameRecord {
        start: game.start,
        moves: game.moves.clone(),
        winner,
        reason,
        blue: clean(&game.blue, "Blue"),
        red: clean(&game.red, "Red"),
        opening: Some(game.opening.unwrap_or(0)),
        played: None,
    })
}
