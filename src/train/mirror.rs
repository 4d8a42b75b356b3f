//! The left-right mirror of a position (file `a` <-> the last file, ranks kept), which
//! `lielow train --mirror` adds beside every training position.
//!
//! Lielow is symmetric under this mirror (RULES.md): the 8 directions of a move map onto each
//! other, a move's length is its height whatever the direction, a bear-off is one move whatever
//! the edge, the crown goes by heights alone ("exactly one stack strictly taller than all its
//! other stacks"; no tie is ever broken by a square), the game ends only by a king's capture or
//! bear-off or a side without moves, and there are no draws and no repetition rule. Both start
//! positions are full ranks, their own mirror images. So a position and its mirror image have
//! the same value for the side to move, the same result under best play, and the same ply: the
//! image is a second, equally true example. (The other symmetry, turning the board over with
//! the colours swapped, the network's inputs already use: each side sees the board from its
//! own edge.)

use lielow_rules::board::Square;
use lielow_rules::position::{Position, StackPart};

/// `position` mirrored left to right: every stack, with its owner, height and crown, moved from
/// file `f` to file `n - 1 - f` of the same rank; the same side to move. `position` is one
/// [`Position::from_parts`] accepts, as every position of a data file is (it is read through
/// it), and not a final one (whose crown may be off its tallest stack): the checks of
/// `from_parts` are as symmetric as the rules, so the image passes them too.
pub fn mirrored(position: &Position) -> Position {
    let n = position.size().n();
    let stacks: Vec<StackPart> = position
        .all_stacks()
        .into_iter()
        .filter_map(|square| {
            let (owner, height) = position.stack(square)?;
            let image = Square::new(n - 1 - square.file(), square.rank())?;
            Some((image, owner, height, position.king(owner) == Some(square)))
        })
        .collect();
    Position::from_parts(position.size(), position.side_to_move(), &stacks)
        .expect("the mirror image of a position keeps every rule (heights and crowns alike)")
}

#[cfg(test)]
mod tests {
    use super::*;
    use lielow_engine::nnue::features;
    use lielow_rules::board::{BoardSize, Side};

    /// An LFEN's board mirrored as text: each rank's squares in the reverse order.
    fn mirrored_lfen(lfen: &str) -> String {
        let (board, side) = lfen.split_once(' ').expect("board and side");
        let ranks: Vec<String> = board
            .split('/')
            .map(|rank| {
                // Squares: "r1" / "B3" (a stack) or a run of empty squares.
                let mut squares: Vec<Option<String>> = Vec::new();
                let mut chars = rank.chars().peekable();
                while let Some(c) = chars.next() {
                    match c.to_digit(10) {
                        Some(empty) => squares.extend((0..empty).map(|_| None)),
                        None => squares.push(Some(format!("{c}{}", chars.next().unwrap()))),
                    }
                }
                squares.reverse();
                let mut text = String::new();
                let mut empty = 0;
                for square in squares {
                    match square {
                        None => empty += 1,
                        Some(stack) => {
                            if empty > 0 {
                                text += &empty.to_string();
                                empty = 0;
                            }
                            text += &stack;
                        }
                    }
                }
                if empty > 0 {
                    text += &empty.to_string();
                }
                text
            })
            .collect();
        format!("{} {side}", ranks.join("/"))
    }

    fn inputs(position: &Position) -> Vec<Vec<usize>> {
        Side::BOTH
            .iter()
            .map(|&viewer| {
                let mut seen = Vec::new();
                features::for_each_active(position, viewer, |input| seen.push(input));
                seen.sort_unstable();
                seen
            })
            .collect()
    }

    #[test]
    fn the_mirror_is_the_lfen_mirrored_and_twice_is_the_original() {
        let mut positions = vec![
            Position::from_lfen("8/r1r1r15/8/3R24/8/3B24/b1b1b15/8 r").unwrap(),
            Position::from_lfen("8/5B11r2/2b13R41/8/8/r42r42b21/3b14/4b23 r").unwrap(),
        ];
        // Positions of both sizes along a game, crowns included.
        for (size, stride) in [BoardSize::Eight, BoardSize::Nine]
            .into_iter()
            .flat_map(|size| [(size, 7), (size, 11), (size, 13)])
        {
            let mut position = Position::start(size);
            for ply in 0..40 {
                let moves = position.legal_moves();
                if position.is_game_over() || moves.is_empty() {
                    break;
                }
                positions.push(position);
                position = position.play(moves[(ply * stride + 3) % moves.len()]);
            }
        }
        let mut asymmetric = 0;
        for position in &positions {
            let image = mirrored(position);
            let by_text = Position::from_lfen(&mirrored_lfen(&position.to_lfen())).unwrap();
            assert_eq!(image.to_lfen(), by_text.to_lfen(), "{}", position.to_lfen());
            assert_eq!(image.key(), by_text.key());
            assert_eq!(inputs(&image), inputs(&by_text), "{}", position.to_lfen());
            assert_eq!(mirrored(&image), *position, "{}", position.to_lfen());
            assert_eq!(image.size(), position.size());
            asymmetric += usize::from(image.to_lfen() != position.to_lfen());
        }
        assert!(
            asymmetric > 80,
            "the positions test something: {asymmetric}"
        );
        // The start positions are their own mirror images.
        for size in [BoardSize::Eight, BoardSize::Nine] {
            assert_eq!(mirrored(&Position::start(size)), Position::start(size));
        }
        assert_eq!(
            mirrored_lfen("8/8/8/8/8/8/8/b12R34 b"),
            "8/8/8/8/8/8/8/4R32b1 b"
        );
    }
}
