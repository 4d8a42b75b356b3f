//! Reading a PGN file: its tokens grouped into games ([`RawGame`]), then each game's tags
//! read, its moves replayed by the rules and its result checked ([`super::check`]).

use lielow_rules::board::{BoardSize, Side};
use lielow_rules::moves::Move;
use lielow_rules::play::IllegalMove;
use lielow_rules::position::Position;

use super::check::{self, Stated};
use super::lexer::{self, LexError, Token, RESULTS};
use super::{PgnError, PgnWhy, VARIANT};
use crate::games::{LoadedGame, ReadGames};

/// One game's tokens, grouped.
#[derive(Default)]
struct RawGame<'a> {
    /// Tags: name, value and line.
    tags: Vec<(&'a str, String, usize)>,
    /// Moves: text and line.
    moves: Vec<(&'a str, usize)>,
    /// The comment after the last move, if any.
    last_comment: Option<&'a str>,
    /// The termination marker and its line.
    result: Option<(&'a str, usize)>,
    /// Whether any movetext (a move number, a move, a comment) was read.
    movetext: bool,
    /// Variations skipped.
    variations: usize,
}

impl RawGame<'_> {
    /// `Blue vs Red` from the tags read so far, when either is named.
    fn players(&self) -> Option<String> {
        let name = |names: &[&str]| {
            self.tags
                .iter()
                .find(|(tag, _, _)| names.contains(&tag.to_ascii_lowercase().as_str()))
                .map(|(_, value, _)| value.clone())
        };
        let blue = name(BLUE_TAGS);
        let red = name(RED_TAGS);
        (blue.is_some() || red.is_some()).then(|| {
            format!(
                "{} vs {}",
                blue.as_deref().unwrap_or("?"),
                red.as_deref().unwrap_or("?")
            )
        })
    }

    fn is_empty(&self) -> bool {
        self.tags.is_empty() && !self.movetext
    }
}

/// The tags naming Blue's player (lowercase; cutegames writes `white` unless told otherwise).
const BLUE_TAGS: &[&str] = &["white", "blue", "player1", "p1"];
/// The tags naming Red's player.
const RED_TAGS: &[&str] = &["black", "red", "player2", "p2"];

/// The games of a PGN `text`; `size` is the board of a start given as `startpos` (or none)
/// when no `BoardSize` tag says it, and the moves are legal on it.
pub fn read(text: &str, size: BoardSize) -> Result<ReadGames, PgnError> {
    let raw = group(text)?;
    let mut read = ReadGames::default();
    for (index, game) in raw.iter().enumerate() {
        let number = index + 1;
        if game.variations > 0 {
            read.warnings.push(format!(
                "game {number}: {} variation(s) skipped (only the main line is read)",
                game.variations
            ));
        }
        let (loaded, warning) = load(game, number, size)?;
        read.warnings.extend(warning);
        read.games.push(loaded);
    }
    Ok(read)
}

/// The tokens of `text` grouped into games.
fn group(text: &str) -> Result<Vec<RawGame<'_>>, PgnError> {
    let mut games = Vec::new();
    let mut game = RawGame::default();
    let error = |game: &RawGame, games: &Vec<RawGame>, line, why| PgnError {
        game: games.len() + 1,
        players: game.players(),
        line,
        at_move: None,
        why,
    };
    let mut depth = 0usize;
    let mut last_line = 1;
    for token in lexer::tokens(text) {
        let (line, token) = token.map_err(|(line, lex)| {
            let why = match lex {
                LexError::Tag => PgnWhy::Tag,
                LexError::Comment => PgnWhy::Comment,
            };
            error(&game, &games, line, why)
        })?;
        last_line = line;
        match token {
            Token::Open => {
                depth += 1;
                game.variations += usize::from(depth == 1);
            }
            Token::Close if depth == 0 => {
                return Err(error(&game, &games, line, PgnWhy::Variation))
            }
            Token::Close => depth -= 1,
            _ if depth > 0 => {}
            Token::Tag(name, value) if !game.movetext => game.tags.push((name, value, line)),
            Token::Tag(..) => return Err(no_result(&game, games.len() + 1, line)),
            Token::Comment(comment) => {
                if !game.moves.is_empty() {
                    game.last_comment = Some(comment);
                }
                game.movetext = true;
            }
            Token::Nag | Token::Number => game.movetext = true,
            Token::Move(mv) => {
                game.moves.push((mv, line));
                game.last_comment = None;
                game.movetext = true;
            }
            Token::Result(result) => {
                game.result = Some((result, line));
                games.push(std::mem::take(&mut game));
            }
        }
    }
    if depth > 0 {
        return Err(error(&game, &games, last_line, PgnWhy::Variation));
    }
    if !game.is_empty() {
        return Err(no_result(&game, games.len() + 1, last_line));
    }
    Ok(games)
}

/// Game `number` ends at `line` without its result: the error names its last move.
fn no_result(game: &RawGame, number: usize, line: usize) -> PgnError {
    let red_first = game.tags.iter().any(|(name, value, _)| {
        name.eq_ignore_ascii_case("fen") && value.trim_end().ends_with(" r")
    });
    let first = if red_first { Side::Red } else { Side::Blue };
    PgnError {
        game: number,
        players: game.players(),
        line,
        at_move: game
            .moves
            .last()
            .map(|(mv, _)| numbered(first, game.moves.len() - 1, mv)),
        why: PgnWhy::NoResult,
    }
}

/// The tags of a game, read.
#[derive(Default)]
struct Tags {
    blue: Option<String>,
    red: Option<String>,
    result: Option<String>,
    fen: Option<(String, usize)>,
    size: Option<BoardSize>,
    opening: Option<(String, usize)>,
    ply_count: Option<(String, usize)>,
    termination: Option<String>,
    adjudicated: Option<String>,
    kept: Vec<(String, String)>,
}

/// Reads the tags of `game`; `fail` makes an error at a line.
fn read_tags(game: &RawGame, fail: &dyn Fn(usize, PgnWhy) -> PgnError) -> Result<Tags, PgnError> {
    let mut tags = Tags::default();
    for (name, value, line) in &game.tags {
        let player = (value != "?").then(|| value.clone());
        match name.to_ascii_lowercase().as_str() {
            lower if BLUE_TAGS.contains(&lower) => tags.blue = player,
            lower if RED_TAGS.contains(&lower) => tags.red = player,
            "result" if RESULTS.contains(&value.as_str()) => tags.result = Some(value.clone()),
            "result" => return Err(fail(*line, PgnWhy::ResultTag(value.clone()))),
            "fen" => tags.fen = Some((value.clone(), *line)),
            "setup" => {}
            "variant" if value.eq_ignore_ascii_case(VARIANT) => {}
            "variant" => return Err(fail(*line, PgnWhy::Variant(value.clone()))),
            "boardsize" => {
                let size = value.trim().parse().ok();
                tags.size =
                    Some(size.ok_or_else(|| fail(*line, PgnWhy::BoardSize(value.clone())))?);
            }
            "openingplies" => tags.opening = Some((value.clone(), *line)),
            "plycount" => tags.ply_count = Some((value.clone(), *line)),
            "termination" => tags.termination = Some(value.clone()),
            _ => {
                if name.eq_ignore_ascii_case("adjudicated") {
                    tags.adjudicated = Some(value.clone());
                }
                tags.kept.push(((*name).to_owned(), value.clone()));
            }
        }
    }
    Ok(tags)
}

/// The start position candidates of a game: its LFEN, or the start position of the size its
/// tags, then `size`, then the other size give.
fn starts(
    tags: &Tags,
    size: BoardSize,
    fail: &dyn Fn(usize, PgnWhy) -> PgnError,
) -> Result<Vec<Position>, PgnError> {
    match &tags.fen {
        Some((fen, line)) if !fen.trim().eq_ignore_ascii_case("startpos") => {
            let start = Position::from_lfen(fen.trim())
                .map_err(|error| fail(*line, PgnWhy::Start(fen.clone(), error)))?;
            if tags.size.is_some_and(|size| size != start.size()) {
                return Err(fail(*line, PgnWhy::StartSize));
            }
            Ok(vec![start])
        }
        _ => Ok(match tags.size {
            Some(size) => vec![Position::start(size)],
            None => [size, other(size)].map(Position::start).to_vec(),
        }),
    }
}

fn other(size: BoardSize) -> BoardSize {
    match size {
        BoardSize::Eight => BoardSize::Nine,
        BoardSize::Nine => BoardSize::Eight,
    }
}

/// Move `index` (from 0) of a game `first` began, as PGN numbers it: `12. a2-a3` for Blue,
/// `12... a7-a6` for Red.
pub fn numbered(first: Side, index: usize, text: &str) -> String {
    let ply = index + usize::from(first == Side::Red);
    let number = ply / 2 + 1;
    if ply.is_multiple_of(2) {
        format!("{number}. {text}")
    } else {
        format!("{number}... {text}")
    }
}

/// Replays the moves from `start`: every move, or the first that cannot be played.
fn replay(start: &Position, moves: &[(&str, usize)]) -> Result<Vec<Move>, (usize, IllegalMove)> {
    let mut position = *start;
    let mut played = Vec::with_capacity(moves.len());
    for (index, (text, _)) in moves.iter().enumerate() {
        let mv = position.parse_move(text).map_err(|error| (index, error))?;
        position.play_in_place(mv);
        played.push(mv);
    }
    Ok(played)
}

/// The moves of `game` replayed from the first of the `candidates` they are legal from; else
/// the error of the one they went furthest from.
fn replay_any(
    candidates: Vec<Position>,
    game: &RawGame,
    fail: &dyn Fn(usize, PgnWhy) -> PgnError,
) -> Result<(Position, Vec<Move>), PgnError> {
    let mut furthest: Option<(Position, (usize, IllegalMove))> = None;
    for start in candidates {
        match replay(&start, &game.moves) {
            Ok(moves) => return Ok((start, moves)),
            Err(error)
                if furthest
                    .as_ref()
                    .is_none_or(|(_, (index, _))| error.0 > *index) =>
            {
                furthest = Some((start, error));
            }
            Err(_) => {}
        }
    }
    let (start, (index, error)) = furthest.expect("at least one start is tried");
    let (text, line) = game.moves[index];
    let mut error = fail(line, PgnWhy::Move(error));
    error.at_move = Some(numbered(start.side_to_move(), index, text));
    Err(error)
}

/// The `OpeningPlies` tag's number, at most the number of moves `played`.
fn opening_plies(
    tags: &Tags,
    played: usize,
    fail: &dyn Fn(usize, PgnWhy) -> PgnError,
) -> Result<Option<usize>, PgnError> {
    let Some((plies, line)) = &tags.opening else {
        return Ok(None);
    };
    let opening = plies.trim().parse::<usize>().ok().filter(|&n| n <= played);
    opening
        .map(Some)
        .ok_or_else(|| fail(*line, PgnWhy::OpeningPlies(plies.clone(), played)))
}

/// A raw game read: tags, start, moves replayed, result checked.
fn load(
    game: &RawGame,
    number: usize,
    size: BoardSize,
) -> Result<(LoadedGame, Option<String>), PgnError> {
    let players = game.players();
    let fail = |line: usize, why: PgnWhy| PgnError {
        game: number,
        players: players.clone(),
        line,
        at_move: None,
        why,
    };
    let tags = read_tags(game, &fail)?;
    let (result, result_line) = game.result.unwrap_or(("*", 0));
    if let Some(tag) = tags.result.as_deref().filter(|tag| *tag != result) {
        return Err(fail(
            result_line,
            PgnWhy::ResultsDiffer {
                tag: tag.to_owned(),
                movetext: result.to_owned(),
            },
        ));
    }
    let (start, moves) = replay_any(starts(&tags, size, &fail)?, game, &fail)?;
    let last = game
        .moves
        .last()
        .map(|&(text, line)| (numbered(start.side_to_move(), moves.len() - 1, text), line));
    let at_end = |why: PgnWhy| {
        let mut error = fail(last.as_ref().map_or(result_line, |(_, line)| *line), why);
        error.at_move = last.as_ref().map(|(text, _)| text.clone());
        error
    };
    if let Some((count, _)) = &tags.ply_count {
        if count.trim().parse::<usize>().ok() != Some(moves.len()) {
            return Err(at_end(PgnWhy::PlyCount {
                tag: count.clone(),
                found: moves.len(),
            }));
        }
    }
    let opening = opening_plies(&tags, moves.len(), &fail)?;
    let stated = Stated {
        result,
        comment: game.last_comment,
        termination: tags.termination.as_deref(),
        adjudicated: tags.adjudicated.as_deref(),
    };
    let end = start.play_moves(&moves);
    let (result, warning) = check::result(&end, &stated).map_err(at_end)?;
    let warning = warning.map(|text| format!("game {number}: {text}"));
    let loaded = LoadedGame {
        start,
        moves,
        opening,
        result,
        blue: tags.blue,
        red: tags.red,
        tags: tags.kept,
    };
    Ok((loaded, warning))
}
