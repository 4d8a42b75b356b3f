//! Reads a position in LFEN, the game's position string, and lists its legal moves; then
//! plays one given as text, checked against the position, and prints the position after it.
//!
//! ```text
//! cargo run --example legal_moves -- ["LFEN"] [MOVE]
//! cargo run --example legal_moves -- "8/8/8/4R13/8/2B35/b1b1b1b1b1b1b1b1/8 r" e5-e4
//! ```
//!
//! It shows LFEN both ways ([`Position`] implements `FromStr` and `Display`), the stacks and
//! kings of a position, [`Position::legal_moves`], and [`Position::parse_move`], which says why
//! a move's text is not legal here (`e5-e3` above: a stack of height 1 moves 1 square).

use lielow_rules::{Position, Side};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let text = args
        .next()
        .unwrap_or_else(|| "8/r1r1r1r1r1r1r1r1/8/8/8/8/b1b1b1b1b1b1b1b1/8 b".into());
    let position: Position = text.parse().map_err(|e| format!("'{text}': {e}"))?;
    println!("{position}");
    println!("{} to move", position.side_to_move());
    for side in [Side::Blue, Side::Red] {
        match position.king(side) {
            Some(square) => println!("{side}'s king: {square}"),
            None => println!("{side} has no king (no uniquely tallest stack)"),
        }
    }

    let moves = position.legal_moves();
    let names: Vec<String> = moves.iter().map(|mv| mv.to_string()).collect();
    println!("{} legal moves: {}", moves.len(), names.join(" "));
    let captures = moves.iter().filter(|mv| mv.is_capture()).count();
    let bear_offs = moves.iter().filter(|mv| mv.is_bear_off()).count();
    println!("of which {captures} captures and {bear_offs} bear-offs");

    if let Some(text) = args.next() {
        // Checked: an illegal move is an error that says why, never a wrong position.
        let mv = position
            .parse_move(&text)
            .map_err(|e| format!("'{text}': {e}"))?;
        println!("after {mv}: {}", position.play(mv));
    }
    Ok(())
}
