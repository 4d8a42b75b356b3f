//! A corpus of malformed position strings, each rejected with a message naming the problem,
//! and the valid edge cases that must still be accepted. The library's messages never repeat
//! the input (the protocol quotes it, cut and cleaned: see tests/protocol.rs).

use lielow_rules::{BoardSize, Position, Side, Square};

const START_8: &str = "8/r1r1r1r1r1r1r1r1/8/8/8/8/b1b1b1b1b1b1b1b1/8 b";

/// (what is wrong, the string, a fragment the error message must contain)
const MALFORMED: &[(&str, &str, &str)] = &[
    ("empty string", "", "empty"),
    ("only whitespace", "   \t ", "empty"),
    (
        "missing side",
        "8/r1r1r1r1r1r1r1r1/8/8/8/8/b1b1b1b1b1b1b1b1/8",
        "missing side",
    ),
    (
        "bad side letter",
        "8/r1r1r1r1r1r1r1r1/8/8/8/8/b1b1b1b1b1b1b1b1/8 w",
        "bad side to move: expected 'b' or 'r'",
    ),
    (
        "uppercase side",
        "8/r1r1r1r1r1r1r1r1/8/8/8/8/b1b1b1b1b1b1b1b1/8 B",
        "bad side to move",
    ),
    (
        "side spelled out",
        "8/r1r1r1r1r1r1r1r1/8/8/8/8/b1b1b1b1b1b1b1b1/8 blue",
        "bad side to move",
    ),
    (
        "non-ASCII side",
        "8/r1r1r1r1r1r1r1r1/8/8/8/8/b1b1b1b1b1b1b1b1/8 б",
        "bad side to move",
    ),
    (
        "trailing text",
        "8/r1r1r1r1r1r1r1r1/8/8/8/8/b1b1b1b1b1b1b1b1/8 b 0 1",
        "trailing text after the side to move",
    ),
    (
        "trailing move",
        "8/r1r1r1r1r1r1r1r1/8/8/8/8/b1b1b1b1b1b1b1b1/8 b a2-a3",
        "trailing text",
    ),
    (
        "seven ranks",
        "8/r1r1r1r1r1r1r1r1/8/8/8/b1b1b1b1b1b1b1b1/8 b",
        "7 ranks",
    ),
    ("ten ranks", "9/9/9/9/9/9/9/9/9/9 b", "10 ranks"),
    ("one rank", "8 b", "1 ranks"),
    (
        "trailing slash",
        "8/r1r1r1r1r1r1r1r1/8/8/8/8/b1b1b1b1b1b1b1b1/8/ b",
        "covers 8 squares, not 9",
    ),
    (
        "empty rank",
        "8/r1r1r1r1r1r1r1r1/8//8/8/b1b1b1b1b1b1b1b1/8 b",
        "rank 5 covers 0 squares, not 8",
    ),
    (
        "rank too narrow",
        "8/r1r1r1r1r1r1r1/8/8/8/8/b1b1b1b1b1b1b1b1/8 b",
        "rank 7 covers 7 squares, not 8",
    ),
    (
        "rank too wide (stacks)",
        "8/r1r1r1r1r1r1r1r1r1/8/8/8/8/b1b1b1b1b1b1b1b1/8 b",
        "rank 7 is wider than 8",
    ),
    (
        "rank too wide (digit)",
        "9/r1r1r1r1r1r1r1r1/8/8/8/8/b1b1b1b1b1b1b1b1/8 b",
        "rank 8 is wider than 8",
    ),
    (
        "digits summing past N",
        "44r1/r1r1r1r1r1r1r1r1/8/8/8/8/b1b1b1b1b1b1b1b1/8 b",
        "rank 8 is wider than 8",
    ),
    (
        "digits summing past N, no stack",
        "54/r1r1r1r1r1r1r1r1/8/8/8/8/b1b1b1b1b1b1b1b1/8 b",
        "rank 8 is wider than 8",
    ),
    (
        "8-wide rank on a 9x9 board",
        "r1r1r1r1r1r1r1r1r1/9/r1r1r1r1r1r1r1r1r1/9/9/9/b1b1b1b1b1b1b1b1b1/8/b1b1b1b1b1b1b1b1b1 b",
        "rank 2 covers 8 squares, not 9",
    ),
    (
        "unknown letter",
        "8/r1r1r1r1r1r1r1r1/8/8/8/8/b1b1b1k1b1b1b1b1/8 b",
        "unknown character 'k'",
    ),
    (
        "chess piece",
        "knbqkbnr/8/8/8/8/8/8/8 b",
        "unknown character 'k'",
    ),
    (
        "zero as empty squares",
        "08/r1r1r1r1r1r1r1r1/8/8/8/8/b1b1b1b1b1b1b1b1/8 b",
        "unknown character '0'",
    ),
    (
        "comma separator",
        "8/r1r1r1r1,r1r1r1r1/8/8/8/8/b1b1b1b1b1b1b1b1/8 b",
        "unknown character ','",
    ),
    (
        "non-ASCII letter",
        "8/r1r1r1r1r1r1r1r1/8/8/8/8/b1b1b1é1b1b1b1b1/8 b",
        "unknown character U+00E9",
    ),
    (
        "height 0",
        "8/r1r1r1r1r1r1r1r1/8/8/8/8/b1b1b1b0b1b1b1b1/8 b",
        "height 0",
    ),
    (
        "height 9 on 8x8",
        "8/r1r1r1r1r1r1r1r1/8/8/8/8/b1b1b1b1b1b1b1b1/b97 b",
        "height 9: heights are 1 to 8",
    ),
    (
        "crowned height 9 on 8x8",
        "8/r1r1r1r1r1r1r1r1/8/8/8/8/b1b1b1b1b1b1b1b1/B97 b",
        "heights are 1 to 8",
    ),
    (
        "height 0 on 9x9",
        "r1r1r1r1r1r1r1r1r1/9/r1r1r1r1r1r1r1r1r1/9/9/9/b1b1b1b1b1b1b1b1b1/9/r08 b",
        "height 0",
    ),
    (
        "two-digit height",
        "8/r1r1r1r1r1r1r1r1/8/8/8/8/b1b1b1b1b1b1b1b1/b105 b",
        "unknown character '0'",
    ),
    (
        "letter without height at the end",
        "8/r1r1r1r1r1r1r1r/8/8/8/8/b1b1b1b1b1b1b1b1/8 b",
        "must be followed by its height digit",
    ),
    (
        "letter followed by a letter",
        "8/r1r1r1r1r1r1r1rr1/8/8/8/8/b1b1b1b1b1b1b1b1/8 b",
        "must be followed by its height digit",
    ),
    (
        "letter followed by a slash",
        "8/r1r1r1r1r1r1r1r1/8/8/8/8/b1b1b1b1b1b1b1b/8 b",
        "must be followed by its height digit",
    ),
    (
        "two Blue crowns",
        "8/r1r1r1r1r1r1r1r1/8/8/8/8/B1b1b1b1b1b1b1B1/8 b",
        "Blue has two crowns",
    ),
    (
        "two Red crowns",
        "8/R1r1r1r1r1r1r1R1/8/8/8/8/b1b1b1b1b1b1b1b1/8 r",
        "Red has two crowns",
    ),
    (
        "uniquely tallest Blue stack without crown",
        "8/r1r1r1r1r1r1r1r1/8/8/8/8/b2b1b1b1b1b1b1b1/8 b",
        "uniquely tallest stack on a2 must carry its crown",
    ),
    (
        "uniquely tallest Red stack without crown",
        "8/r1r1r1r1r1r1r1r3/8/8/8/8/b1b1b1b1b1b1b1b1/8 r",
        "Red's uniquely tallest stack on h7",
    ),
    (
        "crown beside a uniquely tallest stack",
        "8/r1r1r1r1r1r1r1r1/8/8/8/8/b2B1b1b1b1b1b1b1/8 b",
        "Blue's uniquely tallest stack on a2 must carry its crown",
    ),
    (
        "lone stack without crown",
        "8/8/8/8/4r33/8/b1b1b1b1b1b1b1b1/8 b",
        "Red's uniquely tallest stack on e4",
    ),
    (
        "9x9 tallest without crown",
        "r1r1r1r1r1r1r1r1r1/9/r1r1r1r1r1r1r1r1r1/9/9/9/b1b1b1b1b1b1b1b1b1/9/b1b1b1b1b9b1b1b1b1 b",
        "uniquely tallest stack on e1",
    ),
    (
        "board and side glued",
        "8/r1r1r1r1r1r1r1r1/8/8/8/8/b1b1b1b1b1b1b1b1/8b",
        "missing side",
    ),
];

#[test]
fn malformed_lfen_is_rejected_with_a_message_naming_the_problem() {
    assert!(MALFORMED.len() >= 30);
    for &(what, text, fragment) in MALFORMED {
        match Position::from_lfen(text) {
            Ok(position) => panic!("{what}: '{text}' was accepted as {position}"),
            Err(error) => {
                let message = error.to_string();
                assert!(
                    message.contains(fragment),
                    "{what}: the message for '{text}' is '{message}', expected it to contain '{fragment}'"
                );
                assert!(!message.contains('\n'), "{what}: a one-line message");
            }
        }
        // `FromStr` says the same.
        assert!(text.parse::<Position>().is_err(), "{what}");
    }
}

/// Every one-character change of the start string is either a valid position or an error:
/// never a panic. (The corpus above pins the messages; this sweeps the space around it.)
#[test]
fn single_character_mutations_never_panic() {
    let replacements = [
        '0', '1', '2', '8', '9', 'b', 'r', 'B', 'R', 'x', '/', ' ', 'é',
    ];
    let chars: Vec<char> = START_8.chars().collect();
    for i in 0..chars.len() {
        for &c in &replacements {
            let mut mutated = chars.clone();
            mutated[i] = c;
            let text: String = mutated.iter().collect();
            if let Ok(position) = Position::from_lfen(&text) {
                // Accepted strings print back as they were read.
                assert_eq!(
                    Position::from_lfen(&position.to_lfen()),
                    Ok(position),
                    "{text}"
                );
            }
            let mut shorter = chars.clone();
            shorter.remove(i);
            let text: String = shorter.iter().collect();
            let _ = Position::from_lfen(&text);
        }
    }
}

fn square(text: &str) -> Square {
    Square::parse(text).expect("a square")
}

#[test]
fn valid_edge_strings_are_accepted() {
    // A crown on a height-1 stack while two taller stacks are tied (after a king's capture).
    let kept = Position::from_lfen("r17/3B12R21/8/8/8/8/4b13/b36b3 r").expect("valid");
    assert_eq!(kept.king(Side::Blue), Some(square("d7")));
    assert_eq!(kept.height(square("d7")), 1);
    assert_eq!(kept.uniquely_tallest(Side::Blue), None);
    assert_eq!(kept.king(Side::Red), Some(square("g7")));

    // A crown on one of two tied tallest stacks.
    let tied = Position::from_lfen("8/8/8/8/8/8/b3B32b23/r1r16 b").expect("valid");
    assert_eq!(tied.king(Side::Blue), Some(square("b2")));
    assert_eq!(tied.king(Side::Red), None);

    // The maximal heights of both sizes.
    let eight = Position::from_lfen("7R1/8/8/8/3B84/8/8/8 b").expect("valid");
    assert_eq!(eight.height(square("d4")), 8);
    let nine = Position::from_lfen("9/9/9/9/4B94/9/9/9/r1r1r1r1R2r1r1r1r1 b").expect("valid");
    assert_eq!(nine.size(), BoardSize::Nine);
    assert_eq!(nine.height(square("e5")), 9);
    assert_eq!(nine.king(Side::Red), Some(square("e1")));

    // A side without stacks (to move, or not).
    let none = Position::from_lfen("8/8/8/8/8/8/b1b1b1b1b1b1b1b1/8 r").expect("valid");
    assert!(none.is_game_over());
    assert_eq!(none.winner(), Some(Side::Blue));
    let other = Position::from_lfen("8/8/8/8/8/8/B17/8 b").expect("valid");
    assert!(!other.is_game_over());

    // An empty board is a well-formed string (Blue to move has no move and has lost).
    let empty = Position::from_lfen("8/8/8/8/8/8/8/8 b").expect("valid");
    assert_eq!(empty.winner(), Some(Side::Red));

    // A digit right after a height digit, and surrounding or repeated whitespace.
    let packed = Position::from_lfen("B13R13/8/8/8/8/8/8/8 b").expect("valid");
    assert_eq!(packed.stack(square("e8")), Some((Side::Red, 1)));
    let spaced =
        Position::from_lfen(&format!("  {}  ", START_8.replace(' ', " \t "))).expect("valid");
    assert_eq!(spaced, Position::start(BoardSize::Eight));
    assert_eq!(spaced.to_lfen(), START_8);
}
