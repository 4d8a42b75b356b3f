//! PGN (Portable Game Notation), both ways: [`write_game`] writes a game as `lielow match
//! --pgn` does, [`read`] reads files of games, ours and cutegames' as it writes them.
//!
//! A game as we write it (docs/formats.md, "PGN", says the same for players of files):
//!
//! ```text
//! [Event "lielow match"]
//! [Site "?"]
//! [Date "2026.12.07"]
//! [Round "25"]
//! [White "skill18"]      Blue's player (Blue moves first, as White does in chess)
//! [Black "skill14"]      Red's player
//! [Result "0-1"]         1-0 Blue won, 0-1 Red won, * unfinished (Lielow has no draws)
//! [SetUp "1"]
//! [FEN "8/r1r1r1r1r1r1r1r1/8/8/8/8/b1b1b1b1b1b1b1b1/8 b"]   the start, in LFEN
//! [Variant "lielow"]
//! [BoardSize "8"]
//! [OpeningPlies "4"]     the first moves were an opening played for the players
//! [PlyCount "14"]
//! [Termination "normal"]
//!
//! 1. h2-g3 c7-c8 2. g3-g5 d7-e8 3. a2-b3 b7-c7 4. f2-e3 e7-d7 5. c2-c1 f7-e7
//! 6. g5-d8 g7-f6 7. b2-c2 f6xd8 {Red wins: king-captured} 0-1
//! ```
//!
//! `Termination` holds the PGN standard's word (`normal` for the rules' endings, `time
//! forfeit`, `rules infraction` for an illegal move, `stalled connection` for an engine that
//! stopped answering, `abandoned` for a crash); the comment after the last move names the
//! exact reason ([`crate::reason::Reason`]), in the words of `lielow match`'s `Finished game`
//! lines. Other tags of the game ([`LoadedGame::tags`]) follow.
//!
//! The reader takes any number of games, tags in any order, comments, NAGs, move numbers and
//! annotation marks; variations are skipped with a warning. The players are read from `White`
//! and `Black`, or `Blue` and `Red`, in any case (cutegames writes `white` and `black`); the
//! start from `FEN` with or without `SetUp`, `startpos` (or no `FEN`) meaning the start
//! position of `BoardSize`, else of the size given to [`read`], else of the other size when
//! the moves are legal only there. Every game is replayed by the rules, and
//! its result checked against them (`check.rs`).

mod check;
mod lexer;
mod parse;
mod write;

use std::fmt;

use lielow_rules::lfen::LfenError;
use lielow_rules::play::IllegalMove;
use lielow_rules::quote::shown;

pub use parse::read;
pub use write::write_game;

#[cfg(doc)]
use super::LoadedGame;

/// The variant's name in the `Variant` tag.
pub const VARIANT: &str = "lielow";

/// Why a game of a PGN file cannot be read: where (the game's number from 1, its players when
/// known, the line, the move) and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnError {
    /// The game's number in the file, from 1.
    pub game: usize,
    /// `Blue vs Red`, when the tags named them before the error.
    pub players: Option<String>,
    /// The line (from 1).
    pub line: usize,
    /// The move, as PGN numbers it (`12. a2-a3`, `12... a7-a6`), when the error is at one.
    pub at_move: Option<String>,
    /// What is wrong.
    pub why: PgnWhy,
}

/// What is wrong with a game of a PGN file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PgnWhy {
    /// A tag that is not `[Name "value"]`.
    Tag,
    /// A `{` comment never closed.
    Comment,
    /// A `)` without its `(`, or a `(` never closed.
    Variation,
    /// The game ends (at the next game's tags, or the file's end) without a result.
    NoResult,
    /// The `Result` tag is none of PGN's results: its text.
    ResultTag(String),
    /// The `Result` tag and the movetext's result differ.
    ResultsDiffer {
        /// The tag's.
        tag: String,
        /// The movetext's.
        movetext: String,
    },
    /// A draw: Lielow has none.
    Draw,
    /// A `Variant` tag of another game.
    Variant(String),
    /// A `BoardSize` tag that is not 8 or 9.
    BoardSize(String),
    /// The `FEN` tag is no LFEN.
    Start(String, LfenError),
    /// The `FEN` tag's board is not the `BoardSize` tag's.
    StartSize,
    /// A move that cannot be played there.
    Move(IllegalMove),
    /// A `PlyCount` tag that is not the number of moves.
    PlyCount {
        /// The tag's.
        tag: String,
        /// The moves found.
        found: usize,
    },
    /// An `OpeningPlies` tag that is not a number up to the number of moves (the tag, the
    /// moves).
    OpeningPlies(String, usize),
    /// The result contradicts the rules (the text says how).
    Contradiction(String),
}

impl fmt::Display for PgnWhy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PgnWhy::Tag => f.write_str("a tag is written [Name \"value\"] on one line"),
            PgnWhy::Comment => f.write_str("a comment opened with '{' is never closed"),
            PgnWhy::Variation => f.write_str("the variations' brackets '(' ')' do not pair up"),
            PgnWhy::NoResult => f.write_str(
                "the game ends without its result (1-0, 0-1 or *) before the next game's tags \
                 or the end of the file: is it cut short?",
            ),
            PgnWhy::ResultTag(text) => write!(
                f,
                "the Result tag '{}' is none of 1-0, 0-1, 1/2-1/2 and *",
                shown(text)
            ),
            PgnWhy::ResultsDiffer { tag, movetext } => write!(
                f,
                "the Result tag says {tag} but the moves end with {movetext}"
            ),
            PgnWhy::Draw => f.write_str("a draw (1/2-1/2), but Lielow has no draws"),
            PgnWhy::Variant(name) => {
                write!(f, "the Variant tag says '{}', not '{VARIANT}'", shown(name))
            }
            PgnWhy::BoardSize(text) => {
                write!(f, "the BoardSize tag '{}' is not 8 or 9", shown(text))
            }
            PgnWhy::Start(text, error) => {
                write!(f, "the FEN tag '{}' is no LFEN: {error}", shown(text))
            }
            PgnWhy::StartSize => f.write_str("the FEN tag's board is not the BoardSize tag's"),
            PgnWhy::Move(error) => error.fmt(f),
            PgnWhy::PlyCount { tag, found } => write!(
                f,
                "the PlyCount tag says {} moves, the game has {found}",
                shown(tag)
            ),
            PgnWhy::OpeningPlies(tag, moves) => write!(
                f,
                "the OpeningPlies tag '{}' is not a number of moves up to {moves}",
                shown(tag)
            ),
            PgnWhy::Contradiction(text) => f.write_str(text),
        }
    }
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game {}", self.game)?;
        if let Some(players) = &self.players {
            write!(f, " ({})", shown(players))?;
        }
        write!(f, ", line {}", self.line)?;
        if let Some(at) = &self.at_move {
            write!(f, ", move {}", shown(at))?;
        }
        write!(f, ": {}", self.why)
    }
}

impl std::error::Error for PgnError {}
