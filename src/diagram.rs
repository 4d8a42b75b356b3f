//! Board pictures: a position drawn as a standalone SVG, the one renderer behind `lielow
//! board`, the game review's pages and the browser GUI.
//!
//! A stack is a disc in its owner's colour with its height written large on it, and as many
//! thin rims below it as it has extra pieces (up to four), so that tall stacks stand out before
//! the number is read. A king (the stack carrying its side's crown) wears a gold crown and a gold
//! ring. The last move tints its squares; arrows point from a stack to where a move lands, and a
//! bear-off (which has no landing square) points off the board from the stack, into the frame.
//! Coordinates are written inside the edge squares, and a caption says whose move it is.
//!
//! Every element a test or a script may look for carries a class and `data-` attributes:
//! `g.stack[data-square][data-side][data-height]` (`data-king` on kings), `.last-move`,
//! `.arrow[data-move]`, `.coordinate`.

use std::fmt::Write as _;

use lielow_rules::board::{Side, Square};
use lielow_rules::moves::Move;
use lielow_rules::position::Position;

/// Side of one square, in SVG units.
const CELL: f64 = 64.0;
/// The frame around the board: room for crowns on the top row and for bear-off arrows, which
/// leave the board.
const MARGIN: f64 = 30.0;
/// Room for the caption under the board.
const CAPTION: f64 = 24.0;

const LIGHT_SQUARE: &str = "#ece3d0";
const DARK_SQUARE: &str = "#cdb892";
const FRAME: &str = "#5b4a36";
const GOLD: &str = "#f2c230";
const LAST_MOVE: &str = "#f7e463";
const ARROW: &str = "#1b7f3b";
const CROWN_EDGE: &str = "#8a6a00";

/// What is drawn besides the position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Diagram {
    /// The move that led to the position: its squares are tinted.
    pub last_move: Option<Move>,
    /// Moves drawn as arrows (a best move, a threat).
    pub arrows: Vec<Move>,
    /// Red at the bottom (Blue is at the bottom by default, as it moves up the board).
    pub flipped: bool,
}

/// The colours of one side: the disc, its rim and the text on it.
fn colours(side: Side) -> (&'static str, &'static str) {
    match side {
        Side::Blue => ("#2b62d9", "#17397f"),
        Side::Red => ("#d8413a", "#7e1c17"),
    }
}

/// A coordinate is written light on the dark squares and dark on the light ones.
fn coordinate_colour(square: Square) -> &'static str {
    if (square.file() + square.rank()).is_multiple_of(2) {
        "#fbf7ee"
    } else {
        "#8a6f4b"
    }
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::Blue => "blue",
        Side::Red => "red",
    }
}

/// Where the square's top-left corner is drawn.
fn corner(square: Square, n: usize, flipped: bool) -> (f64, f64) {
    let (column, row) = if flipped {
        (n - 1 - square.file(), square.rank())
    } else {
        (square.file(), n - 1 - square.rank())
    };
    (MARGIN + column as f64 * CELL, MARGIN + row as f64 * CELL)
}

fn centre(square: Square, n: usize, flipped: bool) -> (f64, f64) {
    let (x, y) = corner(square, n, flipped);
    (x + CELL / 2.0, y + CELL / 2.0)
}

/// The square's name in the SVG's own terms (`e2`).
fn name(square: Square) -> String {
    square.to_string()
}

/// Text escaped for SVG content and attribute values.
fn escaped(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The picture of `position` with what `diagram` adds, as a complete SVG document: the
/// board, the last move's squares, the coordinates, the stacks, the arrows over everything, and
/// the caption.
pub fn svg(position: &Position, diagram: &Diagram) -> String {
    let n = position.size().n();
    let flipped = diagram.flipped;
    let board = n as f64 * CELL;
    let width = MARGIN + board + MARGIN;
    let height = MARGIN + board + MARGIN + CAPTION;
    let mut out = String::new();
    let _ = write!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" height="{height}" font-family="DejaVu Sans, Verdana, Arial, sans-serif" role="img">"#
    );
    let _ = write!(
        out,
        "<title>{}</title>",
        escaped(&format!("Lielow {n}x{n}: {}", position.to_lfen()))
    );
    out.push_str(&format!(
        r#"<defs><marker id="arrowhead" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="3.2" markerHeight="3.2" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{ARROW}"/></marker></defs>"#
    ));
    squares(&mut out, n, flipped);
    if let Some(mv) = diagram.last_move {
        last_move(&mut out, mv, n, flipped);
    }
    coordinates(&mut out, n, flipped);
    stacks(&mut out, position, n, flipped);
    for &mv in &diagram.arrows {
        arrow(&mut out, mv, n, flipped);
    }
    caption(&mut out, position, width, MARGIN + board + MARGIN + 12.0);
    out.push_str("</svg>\n");
    out
}

/// The frame and the squares of a board of `n` squares a side.
fn squares(out: &mut String, n: usize, flipped: bool) {
    let board = n as f64 * CELL;
    let _ = write!(
        out,
        r#"<rect x="{}" y="{}" width="{}" height="{}" fill="{FRAME}" rx="4"/>"#,
        MARGIN - 4.0,
        MARGIN - 4.0,
        board + 8.0,
        board + 8.0
    );
    for rank in 0..n {
        for file in 0..n {
            let square = Square::new(file, rank).expect("on the board");
            let (x, y) = corner(square, n, flipped);
            let fill = if (file + rank).is_multiple_of(2) {
                DARK_SQUARE
            } else {
                LIGHT_SQUARE
            };
            let _ = write!(
                out,
                r#"<rect class="square" data-square="{}" x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}"/>"#,
                name(square)
            );
        }
    }
}

/// The squares of the last move, tinted.
fn last_move(out: &mut String, mv: Move, n: usize, flipped: bool) {
    for square in [Some(mv.from()), mv.to()].into_iter().flatten() {
        let (x, y) = corner(square, n, flipped);
        let _ = write!(
            out,
            r#"<rect class="last-move" data-square="{}" x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{LAST_MOVE}" fill-opacity="0.55"/>"#,
            name(square)
        );
    }
}

/// Coordinates inside the board, as on most game sites: the rank in the top-left corner of the
/// left column's squares, the file in the bottom-right corner of the bottom row's, in a colour
/// that stands out from the square's.
fn coordinates(out: &mut String, n: usize, flipped: bool) {
    for i in 0..n {
        let file_square = if flipped {
            Square::new(n - 1 - i, n - 1)
        } else {
            Square::new(i, 0)
        }
        .expect("on the board");
        let (x, y) = corner(file_square, n, flipped);
        let letter = (b'a' + file_square.file() as u8) as char;
        let _ = write!(
            out,
            r#"<text class="coordinate" x="{}" y="{}" font-size="12" font-weight="bold" fill="{}" text-anchor="end">{letter}</text>"#,
            x + CELL - 4.0,
            y + CELL - 4.0,
            coordinate_colour(file_square)
        );
        let rank_square = if flipped {
            Square::new(n - 1, i)
        } else {
            Square::new(0, n - 1 - i)
        }
        .expect("on the board");
        let (x, y) = corner(rank_square, n, flipped);
        let _ = write!(
            out,
            r#"<text class="coordinate" x="{}" y="{}" font-size="12" font-weight="bold" fill="{}">{}</text>"#,
            x + 3.0,
            y + 13.0,
            coordinate_colour(rank_square),
            rank_square.rank() + 1
        );
    }
}

/// Every stack of `position`.
fn stacks(out: &mut String, position: &Position, n: usize, flipped: bool) {
    for rank in 0..n {
        for file in 0..n {
            let square = Square::new(file, rank).expect("on the board");
            if let Some((side, height)) = position.stack(square) {
                let king = position.king(side) == Some(square);
                stack(out, centre(square, n, flipped), square, side, height, king);
            }
        }
    }
}

/// One stack: rims for its extra pieces, the disc, the height, and the crown of a king.
fn stack(
    out: &mut String,
    (x, y): (f64, f64),
    square: Square,
    side: Side,
    height: usize,
    king: bool,
) {
    let (fill, rim) = colours(side);
    let radius = CELL * 0.36;
    let _ = write!(
        out,
        r#"<g class="stack" data-square="{}" data-side="{}" data-height="{height}"{}>"#,
        name(square),
        side_name(side),
        if king { r#" data-king="true""# } else { "" }
    );
    // The pieces under the top one, as rims peeking out below it.
    let rims = (height - 1).min(4);
    for k in (1..=rims).rev() {
        let _ = write!(
            out,
            r#"<circle cx="{x}" cy="{}" r="{radius}" fill="{rim}" stroke="{rim}" stroke-width="1"/>"#,
            y + 2.5 * k as f64 - 2.5 * rims as f64 / 2.0
        );
    }
    let top = y - 2.5 * rims as f64 / 2.0;
    let ring = if king { GOLD } else { rim };
    let ring_width = if king { 3.5 } else { 1.5 };
    let _ = write!(
        out,
        r#"<circle cx="{x}" cy="{top}" r="{radius}" fill="{fill}" stroke="{ring}" stroke-width="{ring_width}"/>"#
    );
    let _ = write!(
        out,
        r#"<text x="{x}" y="{}" font-size="{}" font-weight="bold" fill="white" text-anchor="middle">{height}</text>"#,
        top + CELL * 0.15,
        CELL * 0.42
    );
    if king {
        crown(out, x, top - radius + 1.0);
    }
    out.push_str("</g>");
}

/// A small gold crown whose base sits at (`x`, `base`).
fn crown(out: &mut String, x: f64, base: f64) {
    let w = CELL * 0.36;
    let h = CELL * 0.2;
    let (l, r, t) = (x - w / 2.0, x + w / 2.0, base - h);
    let _ = write!(
        out,
        r#"<path class="crown" d="M{l},{base} L{l},{t} L{},{} L{x},{t} L{},{} L{r},{t} L{r},{base} Z" fill="{GOLD}" stroke="{CROWN_EDGE}" stroke-width="1.2" stroke-linejoin="round"/>"#,
        l + w / 4.0,
        t + h * 0.55,
        r - w / 4.0,
        t + h * 0.55
    );
}

/// An arrow for `mv`: from the edge of its stack's disc to the edge of the landing square's
/// (so that neither height is hidden), or for a bear-off to the nearest edge of the board, the
/// head's tip on the frame (short of the coordinates).
fn arrow(out: &mut String, mv: Move, n: usize, flipped: bool) {
    let (x1, y1) = centre(mv.from(), n, flipped);
    // The head reaches this far past the end of the line (half the marker's length).
    let head = CELL * 0.12 * 3.2 / 2.0;
    let disc = CELL * 0.36;
    let (target, end_gap) = match mv.to() {
        Some(to) => (centre(to, n, flipped), disc + head),
        None => {
            let (left, top) = (MARGIN, MARGIN);
            let (right, bottom) = (left + n as f64 * CELL, top + n as f64 * CELL);
            let edges = [
                (x1 - left, (left, y1)),
                (right - x1, (right, y1)),
                (y1 - top, (x1, top)),
                (bottom - y1, (x1, bottom)),
            ];
            let nearest = edges
                .iter()
                .min_by(|a, b| a.0.total_cmp(&b.0))
                .map(|edge| edge.1)
                .expect("four edges");
            // Out through the edge into the frame: the tip lands near the frame's rim.
            let outward = (nearest.0 - x1, nearest.1 - y1);
            let out_length = (outward.0 * outward.0 + outward.1 * outward.1)
                .sqrt()
                .max(1.0);
            let reach = MARGIN - 4.0;
            (
                (
                    nearest.0 + outward.0 / out_length * reach,
                    nearest.1 + outward.1 / out_length * reach,
                ),
                head,
            )
        }
    };
    let (dx, dy) = (target.0 - x1, target.1 - y1);
    let length = (dx * dx + dy * dy).sqrt().max(1.0);
    let (ux, uy) = (dx / length, dy / length);
    let start_gap = disc * 0.75;
    let (sx, sy) = (x1 + ux * start_gap, y1 + uy * start_gap);
    let (ex, ey) = (target.0 - ux * end_gap, target.1 - uy * end_gap);
    let _ = write!(
        out,
        r#"<line class="arrow" data-move="{mv}" x1="{sx:.1}" y1="{sy:.1}" x2="{ex:.1}" y2="{ey:.1}" stroke="{ARROW}" stroke-width="{}" stroke-opacity="0.8" stroke-linecap="round" marker-end="url(#arrowhead)"/>"#,
        CELL * 0.12
    );
}

/// "Blue to move" (or who has won) under the board, with a disc in the side's colour.
fn caption(out: &mut String, position: &Position, width: f64, y: f64) {
    let (text, side) = match position.winner() {
        Some(winner) => (format!("{winner} has won"), winner),
        None => (
            format!("{} to move", position.side_to_move()),
            position.side_to_move(),
        ),
    };
    let (fill, rim) = colours(side);
    let _ = write!(
        out,
        r#"<g class="caption"><circle cx="{}" cy="{}" r="8" fill="{fill}" stroke="{rim}" stroke-width="1.5"/><text x="{}" y="{y}" font-size="17" fill="{FRAME}">{}</text></g>"#,
        width / 2.0 - 52.0,
        y - 6.0,
        width / 2.0 - 38.0,
        escaped(&text)
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use lielow_rules::board::BoardSize;

    fn count(svg: &str, needle: &str) -> usize {
        svg.matches(needle).count()
    }

    #[test]
    fn every_stack_square_and_coordinate_is_drawn_once() {
        for size in [BoardSize::Eight, BoardSize::Nine] {
            let start = Position::start(size);
            let picture = svg(&start, &Diagram::default());
            let n = size.n();
            assert!(picture.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
            assert!(picture.trim_end().ends_with("</svg>"));
            assert_eq!(count(&picture, "class=\"square\""), n * n);
            assert_eq!(count(&picture, "class=\"coordinate\""), 2 * n);
            let stacks = start.all_stacks().count() as usize;
            assert_eq!(count(&picture, "<g class=\"stack\""), stacks);
            assert_eq!(count(&picture, "data-side=\"blue\""), stacks / 2);
            assert_eq!(count(&picture, "data-king"), 0);
            assert!(picture.contains("Blue to move"));
            assert!(picture.contains(&format!(
                "<title>Lielow {n}x{n}: {}</title>",
                start.to_lfen()
            )));
        }
    }
}
