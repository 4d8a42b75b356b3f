//! The puzzle mode's routes and the puzzles they serve: the shipped sets, or the puzzle files
//! of `--puzzles` in their place (the format of `lielow puzzles`, docs/formats.md).
//!
//! The server keeps no state of a player's try: each request gives the puzzle's id and the
//! moves played since its start, and [`puzzle_judge`](super::puzzle_judge) judges the latest
//! one by proof. Judging takes a core for up to [`CHECK_SECONDS`], so at most [`MAX_CHECKS`]
//! run at once (more are refused with 429) and one whose client leaves is stopped.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::State;
use serde::{Deserialize, Serialize};
use tokio::sync::Semaphore;

use super::api::{bad, Answer, Body, Refusal};
use super::puzzle_judge::{self, JudgeError, Judgement};
use super::routes::{Shared, StopOnDrop};
use crate::analysis::solve::Budget;
use crate::puzzles::file::Puzzle;
use lielow_engine::ugi;

/// Moves judged at once: each takes a core while its proof search runs.
pub const MAX_CHECKS: usize = 2;
/// The longest one judgement may search.
pub const CHECK_SECONDS: u64 = 10;
/// The most nodes one judgement may search (about the same time on a fast core).
pub const CHECK_NODES: u64 = 5_000_000;

/// The puzzles the server offers, of both sizes, by rating.
pub struct PuzzleSets {
    puzzles: Vec<Puzzle>,
    /// One permit per judgement that may run.
    checks: Arc<Semaphore>,
}

impl PuzzleSets {
    /// The sets of these puzzles; an id given twice is refused.
    pub fn new(mut puzzles: Vec<Puzzle>) -> Result<PuzzleSets, String> {
        puzzles.sort_by(|a, b| (a.rating, &a.id).cmp(&(b.rating, &b.id)));
        let mut ids: Vec<&str> = puzzles.iter().map(|p| p.id.as_str()).collect();
        ids.sort_unstable();
        if let Some(twice) = ids.windows(2).find(|pair| pair[0] == pair[1]) {
            return Err(format!("the puzzle id '{}' is given twice", twice[0]));
        }
        Ok(PuzzleSets {
            puzzles,
            checks: Arc::new(Semaphore::new(MAX_CHECKS)),
        })
    }

    /// The puzzle named `id`.
    fn get(&self, id: &str) -> Result<&Puzzle, Refusal> {
        self.puzzles
            .iter()
            .find(|puzzle| puzzle.id == id)
            .ok_or_else(|| Refusal {
                status: 404,
                message: format!("no puzzle '{}'", ugi::shown(id)),
            })
    }
}

/// `POST /api/puzzles`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ListRequest {
    /// The board size: 8 or 9.
    pub size: u64,
}

/// One puzzle as the page shows it (never its answer).
#[derive(Debug, Serialize)]
pub struct Listed {
    /// Its id.
    pub id: String,
    /// The position.
    pub lfen: String,
    /// The solver: the side to move.
    pub side: String,
    /// N: win in N moves.
    pub moves: u32,
    /// Its rating.
    pub rating: u32,
    /// Where it came from.
    pub source: String,
}

/// The answer to `POST /api/puzzles`: the size's puzzles, by rating.
#[derive(Debug, Serialize)]
pub struct ListAnswer {
    /// Easiest first.
    pub puzzles: Vec<Listed>,
}

/// `POST /api/puzzles`: the puzzles of a board size, by rating.
pub async fn list(
    State(shared): State<Arc<Shared>>,
    Body(request): Body<ListRequest>,
) -> Result<Answer<ListAnswer>, Refusal> {
    if !matches!(request.size, 8 | 9) {
        return Err(bad("size must be 8 or 9"));
    }
    let puzzles = shared
        .puzzles
        .puzzles
        .iter()
        .filter(|puzzle| puzzle.position.size().n() as u64 == request.size)
        .map(|puzzle| Listed {
            id: puzzle.id.clone(),
            lfen: puzzle.position.to_lfen(),
            side: puzzle.position.side_to_move().to_string(),
            moves: puzzle.moves,
            rating: puzzle.rating,
            source: puzzle.source.clone(),
        })
        .collect();
    Ok(Answer(ListAnswer { puzzles }))
}

/// `POST /api/puzzle/move` and `POST /api/puzzle/solution`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// The puzzle's id.
    pub id: String,
    /// The moves since its start, the player's and the engine's, the last the player's
    /// (`/api/puzzle/solution` takes none).
    #[serde(default)]
    pub moves: Vec<String>,
}

/// The answer to `POST /api/puzzle/move`.
#[derive(Debug, Serialize, PartialEq, Eq)]
pub struct MoveAnswer {
    /// `right`, `wrong` or `solved`.
    pub verdict: &'static str,
    /// Right: the engine's defence; wrong: its refutation (none if none was found in time);
    /// solved: the defender's forced last move, if the game did not end on the player's.
    pub reply: Option<String>,
    /// Wrong: the rest of the defender's quick win after the refutation.
    pub continuation: Vec<String>,
    /// Right: the moves the solver has left after the reply.
    pub left: u32,
    /// One line for the player.
    pub text: String,
}

/// `POST /api/puzzle/move`: judges the player's latest move, by proof.
pub async fn judge_move(
    State(shared): State<Arc<Shared>>,
    Body(request): Body<MoveRequest>,
) -> Result<Answer<MoveAnswer>, Refusal> {
    let puzzle = shared.puzzles.get(&request.id)?.clone();
    if request.moves.len() > 2 * puzzle.moves as usize {
        return Err(bad(format!(
            "the puzzle is a win in {}: at most {} moves",
            puzzle.moves,
            2 * puzzle.moves - 1
        )));
    }
    let (_, moves) = puzzle
        .position
        .replay(&request.moves)
        .map_err(|e| bad(e.to_string()))?;
    let permit = Arc::clone(&shared.puzzles.checks)
        .try_acquire_owned()
        .map_err(|_| Refusal {
            status: 429,
            message: format!("{MAX_CHECKS} moves are being judged: try again in a moment"),
        })?;
    let stop = Arc::new(AtomicBool::new(false));
    let guard = StopOnDrop(Arc::clone(&stop));
    let stopper = Arc::clone(&stop);
    let work = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let budget = Budget {
            max_nodes: CHECK_NODES,
            deadline: Some(Instant::now() + Duration::from_secs(CHECK_SECONDS)),
            stop: Some(&stopper),
        };
        puzzle_judge::judge(&puzzle, &moves, &budget)
    });
    let judged = work.await.map_err(|e| Refusal {
        status: 500,
        message: format!("the judgement failed: {e}"),
    })?;
    drop(guard);
    match judged {
        Ok(judgement) => Ok(Answer(answer_of(judgement))),
        Err(JudgeError::Bad(message)) => Err(bad(message)),
        Err(JudgeError::OutOfBudget) => Err(Refusal {
            status: 503,
            message: format!("the proof search found no answer within {CHECK_SECONDS} s"),
        }),
    }
}

/// The judgement as the page reads it.
fn answer_of(judgement: Judgement) -> MoveAnswer {
    match judgement {
        Judgement::Solved { forced } => MoveAnswer {
            verdict: "solved",
            reply: forced.map(|mv| mv.to_string()),
            continuation: Vec::new(),
            left: 0,
            text: match forced {
                Some(mv) => format!("Solved! The defender's only move {mv} loses."),
                None => "Solved!".into(),
            },
        },
        Judgement::Right { reply, left } => MoveAnswer {
            verdict: "right",
            reply: Some(reply.to_string()),
            continuation: Vec::new(),
            left,
            text: format!("Right. The engine defends with {reply}: win in {left} now."),
        },
        Judgement::Wrong {
            refutation,
            continuation,
            why,
        } => MoveAnswer {
            verdict: "wrong",
            reply: refutation.map(|mv| mv.to_string()),
            continuation: continuation.iter().map(ToString::to_string).collect(),
            left: 0,
            text: format!("Wrong: {why}."),
        },
    }
}

/// The answer to `POST /api/puzzle/solution`.
#[derive(Debug, Serialize)]
pub struct SolutionAnswer {
    /// The one first move that wins.
    pub answer: String,
    /// The proven main line from it to the win.
    pub line: Vec<String>,
}

/// `POST /api/puzzle/solution`: the answer and its line, for a player who gives up.
pub async fn solution(
    State(shared): State<Arc<Shared>>,
    Body(request): Body<MoveRequest>,
) -> Result<Answer<SolutionAnswer>, Refusal> {
    if !request.moves.is_empty() {
        return Err(bad("a solution is asked by the puzzle's id alone"));
    }
    let puzzle = shared.puzzles.get(&request.id)?;
    Ok(Answer(SolutionAnswer {
        answer: puzzle.answer.to_string(),
        line: puzzle.line.iter().map(ToString::to_string).collect(),
    }))
}
