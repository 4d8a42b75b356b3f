//! Legal move generation and bulk move counting on the 128-bit boards.
//!
//! A stack of height `h` moves exactly `h` squares, so all stacks of one height and side move as
//! one set: shift the set by `h` steps in a direction (after masking the squares whose landing
//! would leave the board), drop landings on friendly stacks, and what remains are the moves.
//! Counting needs no more than a popcount of that set, which is how perft bulk-counts its leaves.

use arrayvec::ArrayVec;

use crate::board::{Geometry, Square, STEPS};
use crate::moves::Move;
use crate::position::Position;

/// Upper bound on the legal moves of any position: at most 81 stacks, each with at most eight
/// landings on the board and one bear-off.
pub const MAX_MOVES: usize = 81 * 9;

/// The legal moves of a position, on the stack (no heap allocation).
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

/// Which moves to generate.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    /// Every legal move.
    All,
    /// Captures only (landing on an enemy stack).
    Captures,
    /// Moves to empty squares and bear-offs.
    Quiets,
}

/// Appends every legal move of `position` to `list` (nothing once the game is over); the
/// list is the caller's, so a search can reuse one per ply.
///
/// ```
/// use lielow_rules::movegen::{generate, generate_kind, Kind, MoveList};
/// use lielow_rules::{BoardSize, Position};
///
/// let position = Position::from_lfen("8/8/8/8/8/R17/b16b1/8 b")?;
/// let mut list = MoveList::new();
/// generate(&position, &mut list);
/// assert_eq!(list.len(), 12);
/// list.clear();
/// generate_kind(&position, Kind::Captures, &mut list);
/// assert_eq!(list.iter().map(|mv| mv.to_string()).collect::<Vec<_>>(), ["a2xa3"]);
/// # Ok::<(), lielow_rules::LfenError>(())
/// ```
#[inline]
pub fn generate(position: &Position, list: &mut MoveList) {
    generate_kind(position, Kind::All, list);
}

/// Appends the legal moves of one [`Kind`] to `list`.
pub fn generate_kind(position: &Position, kind: Kind, list: &mut MoveList) {
    if position.is_game_over() {
        return;
    }
    let us = position.side_to_move();
    let geometry = position.size().geometry();
    let enemies = position.stacks(us.opponent());
    let empty = !position.all_stacks();
    let targets = match kind {
        Kind::All => enemies | empty,
        Kind::Captures => enemies,
        Kind::Quiets => empty,
    };
    for height in 1..=position.size().n() {
        let stacks = position.stacks_of_height(us, height);
        if stacks.is_empty() {
            continue;
        }
        for (step, sources) in STEPS.iter().zip(&geometry.sources[height]) {
            let amount = step * height as i32;
            let landings = (stacks & *sources).shifted(amount) & targets;
            for to in landings {
                let from = Square::from_index_unchecked((to.index() as i32 - amount) as u32);
                list.push(Move::new(from, to, enemies.contains(to)));
            }
        }
        if kind != Kind::Captures {
            for from in stacks & geometry.bear_off[height] {
                list.push(Move::bear_off(from));
            }
        }
    }
}

/// The number of legal moves, counted without generating them.
///
/// ```
/// use lielow_rules::{movegen, BoardSize, Position};
///
/// let start = Position::start(BoardSize::Nine);
/// assert_eq!(movegen::count(&start), start.legal_moves().len() as u64);
/// ```
#[inline]
pub fn count(position: &Position) -> u64 {
    if position.is_game_over() {
        return 0;
    }
    count_unchecked(position)
}

/// [`count`] for a position known not to be over (perft's inner loop).
#[inline]
pub(crate) fn count_unchecked(position: &Position) -> u64 {
    let us = position.side_to_move();
    let geometry = position.size().geometry();
    let own = position.stacks(us).0;
    let heights = position.height_set(us);
    let mut total = 0;
    // One call per height present, each with its shifts known at compile time.
    macro_rules! count_heights {
        ($($h:literal)*) => {$(
            if heights & (1 << $h) != 0 {
                total += count_height::<$h>(position.stacks_of_height(us, $h).0, own, geometry);
            }
        )*};
    }
    count_heights!(1 2 3 4 5 6 7 8 9);
    u64::from(total)
}

/// The moves of the stacks `stacks`, all of height `H`, whose side's stacks are `own`.
#[inline(always)]
fn count_height<const H: usize>(stacks: u128, own: u128, geometry: &Geometry) -> u32 {
    let sources = &geometry.sources[H];
    let mut total = (stacks & geometry.bear_off[H].0).count_ones();
    // Directions 0..4 step towards higher indices, 4..8 towards lower ones (see `DIRECTIONS`).
    for d in 0..4 {
        let shift = STEPS[d] as u32 * H as u32;
        total += (((stacks & sources[d].0) << shift) & !own).count_ones();
    }
    for d in 4..8 {
        let shift = (-STEPS[d]) as u32 * H as u32;
        total += (((stacks & sources[d].0) >> shift) & !own).count_ones();
    }
    total
}

/// What move generation adds to a position.
impl Position {
    /// The legal moves (none once the game is over), in generation order: by height, then
    /// direction, then landing square; bear-offs last within a height.
    ///
    /// ```
    /// use lielow_rules::{BoardSize, Position};
    ///
    /// let start = Position::start(BoardSize::Eight);
    /// let moves = start.legal_moves();
    /// assert_eq!(moves.len(), 46);
    /// assert!(moves.iter().any(|mv| mv.to_string() == "d2-d3"));
    /// ```
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        generate(self, &mut list);
        list
    }
}
