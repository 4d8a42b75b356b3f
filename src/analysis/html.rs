//! The review as one self-contained HTML page: the board at every ply, stepped with the arrow
//! keys or the buttons, the score sheet (move number, Blue, Red) with its labels, the engine's
//! lines (MultiPV, each with its principal variation) in the shown position, and a graph of
//! Blue's winning chances with its axes and legend. Nothing is fetched.
//!
//! The boards are drawn by the page's own script from each ply's LFEN, in the style of
//! [`diagram`](crate::diagram) (the same colours, rims, crowns and arrows), rather than embedded
//! as one SVG per ply: a 73-ply game took 1.1 MB as pictures, and about 40 KB as positions. The
//! page (`review_page.html`) holds the script; this module only writes the data it reads.

use serde_json::{json, Value};

use super::review::{winning_chances, GameReview, Line, MoveReview};
use super::review_report::{
    for_blue, label_text, moves_text, opening_sentence, result_sentence, shown_score, side_summary,
    turning_sentence, PERSPECTIVE,
};
use lielow_rules::board::Side;

/// One game of the page: its review and its heading (players and result).
pub struct PageGame<'a> {
    /// The review.
    pub review: &'a GameReview,
    /// E.g. "Game 3: lielow (Blue) vs greedy (Red), Blue won by king-captured".
    pub title: String,
}

/// A position's lines for the page, scores from Blue's side (`side`: the side to move).
fn lines_data(lines: &[Line], side: Side) -> Vec<Value> {
    lines
        .iter()
        .map(|line| {
            json!([
                shown_score(for_blue(side, line.score)),
                moves_text(&line.pv)
            ])
        })
        .collect()
}

/// One move for the page, scores from Blue's side, under one-letter keys (the page's script
/// names them): `p` played, `s` side letter, `e` its eval, `b` best, `be` best eval, `l` loss,
/// `t` label text, `k` label kind (`opening` for the opening), `v` the engine's lines before
/// the move (`[score, pv]`). Short keys keep a ply at a few hundred bytes.
fn move_data(m: &MoveReview) -> Value {
    json!({
        "p": m.played.to_string(),
        "s": m.side.letter().to_string(),
        "e": shown_score(for_blue(m.side, m.eval_played)),
        "b": m.best.to_string(),
        "be": shown_score(for_blue(m.side, m.eval_before)),
        "l": (m.loss * 10.0).round() / 10.0,
        "t": label_text(m),
        "k": if m.opening { "opening" } else { m.label.map_or("", |l| l.kind()) },
        "v": lines_data(&m.lines, m.side),
    })
}

/// The data the page's script reads for one game.
fn game_data(game: &PageGame) -> Value {
    let review = game.review;
    let mut position = review.start;
    let mut lfens = vec![position.to_lfen()];
    let blue_chances = |side: Side, chances: f64| {
        let blue = if side == Side::Blue {
            chances
        } else {
            100.0 - chances
        };
        (blue * 10.0).round() / 10.0
    };
    let mut chances = Vec::new();
    if let Some(first) = review.moves.first() {
        chances.push(blue_chances(first.side, winning_chances(first.eval_before)));
    }
    for m in &review.moves {
        position = position.play(m.played);
        lfens.push(position.to_lfen());
        chances.push(blue_chances(m.side, winning_chances(m.eval_played)));
    }
    let mut summary: Vec<String> = Side::BOTH
        .iter()
        .map(|&side| side_summary(review, side))
        .collect();
    summary.extend(turning_sentence(review).map(|t| format!("The {t}.")));
    json!({
        "title": game.title,
        "result": result_sentence(review.result),
        // The final board says who won only when the rules ended the game there.
        "over": position.winner().map(|w| w.to_string()),
        "opening": opening_sentence(review.opening),
        "summary": summary,
        "turning": review.turning_point.map(|index| review.moves[index].ply),
        "lfens": lfens,
        "moves": review.moves.iter().map(move_data).collect::<Vec<_>>(),
        "chances": chances,
    })
}

/// The page for `games` (a selector switches between them when there are several).
pub fn page(games: &[PageGame]) -> String {
    let data: Vec<Value> = games.iter().map(game_data).collect();
    // `</` cannot end the script early, whatever an engine's name holds.
    let data = serde_json::to_string(&data)
        .expect("JSON of plain values")
        .replace("</", "<\\/");
    let perspective = serde_json::to_string(PERSPECTIVE).expect("a string");
    TEMPLATE
        .replace("/*DATA*/[]", &data)
        .replace("/*PERSPECTIVE*/\"\"", &perspective)
}

/// The page: its style, its layout and the script that draws the boards and the graph.
const TEMPLATE: &str = include_str!("review_page.html");

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::review::{Line, MoveReview};
    use lielow_engine::score::Score;
    use lielow_rules::board::BoardSize;
    use lielow_rules::position::Position;

    /// A review of `plies` plies of a legal game (the first legal move each time), each
    /// move with three lines of twelve moves: what `--multipv 3` gives a long game.
    fn fake_review(plies: usize) -> GameReview {
        let start = Position::start(BoardSize::Eight);
        let mut position = start;
        let mut moves = Vec::new();
        for ply in 0..plies {
            let legal = position.legal_moves();
            let Some(&played) = legal.first() else {
                break;
            };
            let line = Line {
                score: Score(-123 + ply as i32),
                pv: vec![played; 12],
            };
            moves.push(MoveReview {
                ply: ply + 1,
                side: position.side_to_move(),
                played,
                opening: ply < 4,
                eval_before: Score(35),
                best: played,
                eval_played: Score(-20),
                loss: 12.3,
                label: Some(crate::analysis::review::Label::Inaccuracy),
                lines: vec![line.clone(), line.clone(), line],
                accuracy: 55.5,
                allows_mate: None,
            });
            position = position.play(played);
            if position.is_game_over() {
                break;
            }
        }
        GameReview {
            start,
            moves,
            opening: Some(4),
            accuracy: [Some(80.0), Some(70.0)],
            turning_point: Some(5),
            result: None,
        }
    }

    #[test]
    fn the_page_grows_by_well_under_two_kilobytes_a_ply() {
        let page_of = |review: &GameReview| {
            page(&[PageGame {
                review,
                title: "Game 1: a (Blue) vs b (Red)".to_owned(),
            }])
            .len()
        };
        let (short, long) = (fake_review(10), fake_review(60));
        let plies = long.moves.len() - short.moves.len();
        assert!(plies >= 30, "the long game has {} plies", long.moves.len());
        let per_ply = (page_of(&long) - page_of(&short)) / plies;
        assert!(per_ply < 1000, "{per_ply} bytes a ply");
        // A hundred such games stay a few megabytes.
        let hundred: Vec<PageGame> = (0..100)
            .map(|_| PageGame {
                review: &long,
                title: String::new(),
            })
            .collect();
        assert!(page(&hundred).len() < 4 << 20);
    }

    #[test]
    fn the_page_holds_each_plys_position_lines_and_pv_once_and_no_pictures() {
        let review = fake_review(12);
        let text = page(&[PageGame {
            review: &review,
            title: "x</script>".to_owned(),
        }]);
        assert_eq!(
            text.matches("</script>").count(),
            1,
            "the title cannot end it"
        );
        // One drawing function, no embedded pictures.
        assert_eq!(text.matches("<svg xmlns").count(), 1);
        let mut position = review.start;
        assert!(text.contains(&position.to_lfen()));
        for m in &review.moves {
            position = position.play(m.played);
            assert!(text.contains(&format!("\"{}\"", position.to_lfen())));
        }
        let pv = vec![review.moves[7].played.to_string(); 12].join(" ");
        assert!(text.contains(&pv), "the principal variation");
        assert!(text.contains(PERSPECTIVE.split(':').next().unwrap()));
    }
}
