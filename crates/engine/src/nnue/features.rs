//! The network's inputs: one per (board size, owner relative to the viewer, crown, height,
//! square), seen from one side's point of view.
//!
//! Each side looks at the board from its own home edge: Red's view turns the board over
//! (rank `r` becomes rank `n - 1 - r`), which maps the start position onto itself with the
//! colours swapped. So one set of weights serves both sides, and "our stack" and "their stack"
//! mean the same thing to the network whoever moves. The board size selects a block of inputs
//! of its own (the same square is a corner on 8x8 and not on 9x9), while the hidden layer
//! and output are shared.
//!
//! Squares use the 81-square layout of `board` on both sizes (the 8x8 board leaves file `i` and
//! rank 9 unused), so an input index is a plain product and no table is needed.

use lielow_rules::board::{BoardSize, Side, Square, MAX_HEIGHT, SQUARES, STRIDE};
use lielow_rules::position::Position;

/// Inputs of one board size.
const PER_SIZE: usize = 2 * 2 * MAX_HEIGHT * SQUARES;
/// Inputs of the network (both board sizes).
pub const INPUTS: usize = 2 * PER_SIZE;
/// The most inputs active at once from one point of view: one per stack.
pub const MAX_ACTIVE: usize = SQUARES;

/// The input of a stack of `owner`, `height` and crown on `square` seen by `viewer`.
#[inline]
pub fn index(
    size: BoardSize,
    viewer: Side,
    square: Square,
    owner: Side,
    height: usize,
    crowned: bool,
) -> usize {
    let n = size.n();
    let rank = match viewer {
        Side::Blue => square.rank(),
        Side::Red => n - 1 - square.rank(),
    };
    let relative = usize::from(owner != viewer);
    let size_block = usize::from(size == BoardSize::Nine);
    (((size_block * 2 + relative) * 2 + usize::from(crowned)) * MAX_HEIGHT + height - 1) * SQUARES
        + rank * STRIDE
        + square.file()
}

/// Inputs between the blocks of "our" and "their" stacks of one board size.
const OWNER_BLOCK: usize = 2 * MAX_HEIGHT * SQUARES;

/// [`index`] seen by Blue and by Red at once, as the updates need it: Blue's square term is the
/// square's own index (`rank × STRIDE + file`), Red's is the same moved by
/// `STRIDE × (n - 1 - 2 × rank)` (the board turned over), and the two views swap the blocks
/// of "ours" and "theirs". One rank is worked out instead of the four divisions of two
/// [`index`] calls; a test holds the pair to [`index`] for every stack of both sizes.
#[inline]
pub fn both_views(
    size: BoardSize,
    square: Square,
    owner: Side,
    height: usize,
    crowned: bool,
) -> [usize; 2] {
    let size_block = usize::from(size == BoardSize::Nine);
    let base = ((size_block * 4 + usize::from(crowned)) * MAX_HEIGHT + height - 1) * SQUARES;
    let (blue_block, red_block) = match owner {
        Side::Blue => (0, OWNER_BLOCK),
        Side::Red => (OWNER_BLOCK, 0),
    };
    let blue_square = square.index();
    let red_square = blue_square + STRIDE * (size.n() - 1) - 2 * STRIDE * square.rank();
    [
        base + blue_block + blue_square,
        base + red_block + red_square,
    ]
}

/// The input of the stack on `square` of `position` seen by `viewer`, if a stack stands there.
#[inline]
pub fn of_square(position: &Position, viewer: Side, square: Square) -> Option<usize> {
    let (owner, height) = position.stack(square)?;
    let crowned = position.king(owner) == Some(square);
    Some(index(
        position.size(),
        viewer,
        square,
        owner,
        height,
        crowned,
    ))
}

/// Calls `each` with every active input of `position` seen by `viewer`.
#[inline]
pub fn for_each_active(position: &Position, viewer: Side, mut each: impl FnMut(usize)) {
    for square in position.all_stacks() {
        if let Some(input) = of_square(position, viewer, square) {
            each(input);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_are_distinct_and_in_range() {
        let mut seen = vec![false; INPUTS];
        for size in [BoardSize::Eight, BoardSize::Nine] {
            for viewer in Side::BOTH {
                for square in size.geometry().board {
                    for owner in Side::BOTH {
                        for height in 1..=size.n() {
                            for crowned in [false, true] {
                                let i = index(size, viewer, square, owner, height, crowned);
                                assert!(i < INPUTS);
                                if viewer == Side::Blue {
                                    assert!(!seen[i], "input {i} used twice");
                                    seen[i] = true;
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn both_views_are_the_index_seen_by_each_side() {
        for size in [BoardSize::Eight, BoardSize::Nine] {
            for square in size.geometry().board {
                for owner in Side::BOTH {
                    for height in 1..=size.n() {
                        for crowned in [false, true] {
                            let expected = Side::BOTH
                                .map(|viewer| index(size, viewer, square, owner, height, crowned));
                            assert_eq!(
                                both_views(size, square, owner, height, crowned),
                                expected,
                                "{size:?} {square:?} {owner:?} {height} {crowned}"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn each_side_sees_the_start_position_the_same_way() {
        for size in [BoardSize::Eight, BoardSize::Nine] {
            let start = Position::start(size);
            let mut blue = Vec::new();
            let mut red = Vec::new();
            for_each_active(&start, Side::Blue, |i| blue.push(i));
            for_each_active(&start, Side::Red, |i| red.push(i));
            blue.sort_unstable();
            red.sort_unstable();
            assert_eq!(blue, red);
            assert_eq!(blue.len(), start.all_stacks().count() as usize);
        }
    }
}
