//! Writing a game as PGN (the layout the module doc shows).

use std::fmt::Write;

use lielow_rules::board::Side;

use super::check::{comment, termination};
use super::parse::numbered;
use super::VARIANT;
use crate::games::LoadedGame;

/// The Seven Tag Roster's first four tags and what they hold when the game does not say.
const ROSTER: [(&str, &str); 4] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
];

/// Tags the writer makes from the game itself: a kept tag of the same name is not repeated.
const MADE: [&str; 16] = [
    "White",
    "Black",
    "Blue",
    "Red",
    "Result",
    "SetUp",
    "FEN",
    "Variant",
    "BoardSize",
    "OpeningPlies",
    "PlyCount",
    "Termination",
    "Event",
    "Site",
    "Date",
    "Round",
];

/// The longest movetext line written.
const LINE: usize = 79;

/// `game` as PGN, ending with a blank line (games of a file follow each other so).
pub fn write_game(game: &LoadedGame) -> String {
    let mut out = String::new();
    let kept = |name: &str| {
        game.tags
            .iter()
            .find(|(tag, _)| tag.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    };
    for (name, default) in ROSTER {
        tag(&mut out, name, kept(name).unwrap_or(default));
    }
    tag(&mut out, "White", game.blue.as_deref().unwrap_or("?"));
    tag(&mut out, "Black", game.red.as_deref().unwrap_or("?"));
    let result = match game.result {
        Some((Side::Blue, _)) => "1-0",
        Some((Side::Red, _)) => "0-1",
        None => "*",
    };
    tag(&mut out, "Result", result);
    tag(&mut out, "SetUp", "1");
    tag(&mut out, "FEN", &game.start.to_lfen());
    tag(&mut out, "Variant", VARIANT);
    tag(&mut out, "BoardSize", &game.start.size().n().to_string());
    if let Some(plies) = game.opening {
        tag(&mut out, "OpeningPlies", &plies.to_string());
    }
    tag(&mut out, "PlyCount", &game.moves.len().to_string());
    if let Some((_, reason)) = game.result {
        tag(&mut out, "Termination", termination(reason));
    }
    for (name, value) in &game.tags {
        let made = MADE.iter().any(|m| m.eq_ignore_ascii_case(name));
        if !made && is_tag_name(name) {
            tag(&mut out, name, value);
        }
    }
    out.push('\n');
    let mut words: Vec<String> = Vec::with_capacity(game.moves.len() + 2);
    for (index, mv) in game.moves.iter().enumerate() {
        let text = mv.to_string();
        let ply = index + usize::from(game.start.side_to_move() == Side::Red);
        if ply.is_multiple_of(2) || index == 0 {
            words.push(numbered(game.start.side_to_move(), index, &text));
        } else {
            words.push(text);
        }
    }
    if let Some((winner, reason)) = game.result {
        words.push(format!("{{{}}}", comment(winner, reason)));
    }
    words.push(result.to_owned());
    wrap(&mut out, &words);
    out.push_str("\n\n");
    out
}

/// Whether `name` can be written as a tag's name.
fn is_tag_name(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// Writes `[name "value"]`, the value's `\` and `"` escaped and its line breaks made spaces.
fn tag(out: &mut String, name: &str, value: &str) {
    let _ = write!(out, "[{name} \"");
    for c in value.chars() {
        match c {
            '\\' | '"' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out.push_str("\"]\n");
}

/// Writes `words` space separated, in lines of at most [`LINE`] characters.
fn wrap(out: &mut String, words: &[String]) {
    let mut width = 0;
    for word in words {
        if width > 0 && width + 1 + word.len() > LINE {
            out.push('\n');
            width = 0;
        } else if width > 0 {
            out.push(' ');
            width += 1;
        }
        out.push_str(word);
        width += word.len();
    }
}
