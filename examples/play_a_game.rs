//! Plays a random game of Lielow with the rules crate alone and prints how it ended: the
//! position as LFEN, each move in the game's notation, then the winner and how it won.
//!
//! ```text
//! cargo run --example play_a_game -- [8|9] [SEED]
//! ```
//!
//! It shows [`Position::start`], [`Position::legal_moves`], copy-make play with
//! [`Position::play`] (the parent stays as it was), and [`Position::outcome`]: who won and how,
//! once a king is captured or borne off, or the side to move has no stack left.

use lielow_rules::{BoardSize, Position};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

/// A game this long is stopped (random games almost always end well before).
const MAX_PLIES: usize = 1000;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let size: BoardSize = args.next().as_deref().unwrap_or("8").parse()?;
    let seed: u64 = args.next().as_deref().unwrap_or("1").parse()?;
    let mut rng = StdRng::seed_from_u64(seed);

    let mut position = Position::start(size);
    println!("start: {position}");
    let mut moves = Vec::new();
    while position.outcome().is_none() && moves.len() < MAX_PLIES {
        // The legal moves live on the stack (no allocation); pick one at random.
        let legal = position.legal_moves();
        let mv = *legal.choose(&mut rng).expect("a game not over has a move");
        moves.push(mv.to_string());
        position = position.play(mv);
    }
    println!("moves: {}", moves.join(" "));
    println!("end:   {position}");
    match position.outcome() {
        Some(outcome) => println!(
            "{} wins after {} plies: {}",
            outcome.winner,
            moves.len(),
            outcome.end
        ),
        None => println!("no result after {MAX_PLIES} plies"),
    }
    Ok(())
}
