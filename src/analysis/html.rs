//! The review as one self-contained HTML page: the board at every ply (the SVG renderer, with
//! the move just played tinted and the engine's best move drawn as an arrow), stepping with the
//! arrow keys or the buttons, the move list with its labels, and a graph of Blue's winning
//! chances. Nothing is fetched: the pictures and the data are in the page.

use serde_json::{json, Value};

use super::review::{winning_chances, GameReview};
use super::review_report::shown_score;
use crate::diagram::{self, Diagram};
use lielow_engine::score::Score;
use lielow_rules::board::Side;

/// One game of the page: its review and its heading (players and result).
pub struct PageGame<'a> {
    /// The review.
    pub review: &'a GameReview,
    /// E.g. "Game 3: lielow (Blue) vs greedy (Red), Blue won by king-captured".
    pub title: String,
}

/// The data the page's script reads for one game.
fn game_data(game: &PageGame) -> Value {
    let review = game.review;
    let mut position = review.start;
    let mut boards = Vec::new();
    let mut chances = Vec::new();
    let first_best = review.moves.first().map(|m| m.best);
    boards.push(diagram::svg(
        &position,
        &Diagram {
            arrows: first_best.into_iter().collect(),
            ..Diagram::default()
        },
    ));
    let blue_chances = |side: Side, chances: f64| {
        if side == Side::Blue {
            chances
        } else {
            100.0 - chances
        }
    };
    if let Some(first) = review.moves.first() {
        chances.push(blue_chances(first.side, winning_chances(first.eval_before)));
    }
    let mut moves = Vec::new();
    for (index, m) in review.moves.iter().enumerate() {
        position = position.play(m.played);
        let next_best = review.moves.get(index + 1).map(|next| next.best);
        boards.push(diagram::svg(
            &position,
            &Diagram {
                last_move: Some(m.played),
                arrows: next_best.into_iter().collect(),
                flipped: false,
            },
        ));
        chances.push(blue_chances(m.side, winning_chances(m.eval_played)));
        // Scores from Blue's point of view, as the graph (chess GUIs show White's).
        let for_blue = |score: Score| {
            if m.side == Side::Blue {
                score
            } else {
                Score(-score.0)
            }
        };
        moves.push(json!({
            "ply": m.ply,
            "side": m.side.to_string(),
            "played": m.played.to_string(),
            "eval": shown_score(for_blue(m.eval_played)),
            "best": m.best.to_string(),
            "bestEval": shown_score(for_blue(m.eval_before)),
            "loss": (m.loss * 10.0).round() / 10.0,
            "label": m.label.map(|l| l.to_string()),
        }));
    }
    let accuracy =
        |side: Side| review.accuracy[side.index()].map_or("-".to_owned(), |a| format!("{a:.1}"));
    let turning = review.turning_point.map(|index| {
        let m = &review.moves[index];
        format!(
            "Turning point: ply {} ({} played {}, best was {}).",
            m.ply, m.side, m.played, m.best
        )
    });
    json!({
        "title": game.title,
        "boards": boards,
        "moves": moves,
        "chances": chances,
        "summary": format!(
            "Accuracy: Blue {}, Red {}. {}",
            accuracy(Side::Blue),
            accuracy(Side::Red),
            turning.unwrap_or_default()
        ),
    })
}

/// The page for `games` (a selector switches between them when there are several).
pub fn page(games: &[PageGame]) -> String {
    let data: Vec<Value> = games.iter().map(game_data).collect();
    // `</` cannot end the script early: JSON strings may hold `</svg>`.
    let data = serde_json::to_string(&data)
        .expect("JSON of plain values")
        .replace("</", "<\\/");
    TEMPLATE.replace("/*DATA*/[]", &data)
}

const TEMPLATE: &str = r##"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Lielow game review</title>
<style>
  body { font-family: "DejaVu Sans", Verdana, Arial, sans-serif; margin: 0; background: #f6f3ec; color: #2b2622; }
  header { padding: 14px 22px; background: #5b4a36; color: #fbf7ee; display: flex; gap: 18px; align-items: center; flex-wrap: wrap; }
  header h1 { font-size: 20px; margin: 0; font-weight: 600; }
  header select { font-size: 15px; padding: 3px 6px; }
  main { display: flex; gap: 24px; padding: 18px 22px; flex-wrap: wrap; align-items: flex-start; }
  #left { flex: 0 0 auto; }
  #board svg { width: min(560px, 92vw); height: auto; display: block; }
  #controls { display: flex; gap: 8px; align-items: center; margin: 10px 0; }
  #controls button { font-size: 18px; padding: 4px 14px; border: 1px solid #8a6f4b; background: #fbf7ee; border-radius: 5px; cursor: pointer; }
  #controls span { margin-left: 8px; font-size: 15px; }
  #right { flex: 1 1 360px; min-width: 320px; }
  #title { font-weight: 600; margin-bottom: 6px; }
  #summary { margin: 6px 0 12px; font-size: 14px; }
  #list { max-height: 520px; overflow-y: auto; border: 1px solid #d9cfbd; background: #fffdf8; border-radius: 6px; }
  table { border-collapse: collapse; width: 100%; font-size: 14px; }
  th { position: sticky; top: 0; background: #efe6d3; text-align: left; padding: 5px 8px; }
  td { padding: 4px 8px; border-top: 1px solid #efe8da; }
  tr.move { cursor: pointer; }
  tr.move:hover { background: #f4eddc; }
  tr.current { background: #f7e463 !important; }
  .dot { display: inline-block; width: 10px; height: 10px; border-radius: 50%; margin-right: 5px; }
  .Blue { background: #2b62d9; } .Red { background: #d8413a; }
  .label { border-radius: 4px; padding: 1px 6px; color: white; font-size: 12px; white-space: nowrap; }
  .inaccuracy { background: #c9a227; } .mistake { background: #e07b24; } .blunder, .lost { background: #c62828; }
  #graph { margin-top: 14px; }
  #graph svg { width: 100%; height: 150px; background: #fffdf8; border: 1px solid #d9cfbd; border-radius: 6px; cursor: pointer; }
  .hint { font-size: 12px; color: #7a6d5d; margin-top: 4px; }
</style>
</head>
<body>
<header><h1>Lielow game review</h1><select id="game" aria-label="Game"></select></header>
<main>
  <div id="left">
    <div id="board"></div>
    <div id="controls">
      <button id="first" title="Start (Home)">&#xAB;</button>
      <button id="prev" title="Back (&#x2190;)">&#x25C0;</button>
      <button id="next" title="Forward (&#x2192;)">&#x25B6;</button>
      <button id="last" title="End (End)">&#xBB;</button>
      <span id="where"></span>
    </div>
    <div class="hint">Arrow keys step through the game; the green arrow is the engine's best move.</div>
  </div>
  <div id="right">
    <div id="title"></div>
    <div id="summary"></div>
    <div id="list"><table><thead><tr><th>ply</th><th>move</th><th title="for Blue: + is good for Blue">eval (Blue)</th><th>best</th><th></th></tr></thead><tbody id="moves"></tbody></table></div>
    <div id="graph"></div>
    <div class="hint">Blue's winning chances after each move; click to jump.</div>
  </div>
</main>
<script>
const GAMES = /*DATA*/[];
let game = 0, ply = 0;
const $ = (id) => document.getElementById(id);
function labelClass(label) { return label.startsWith("lost") ? "lost" : label; }
function drawGraph(g) {
  const w = 600, h = 150, n = Math.max(g.chances.length - 1, 1);
  const x = (i) => 8 + (w - 16) * i / n, y = (c) => 8 + (h - 16) * (1 - c / 100);
  let points = g.chances.map((c, i) => `${x(i).toFixed(1)},${y(c).toFixed(1)}`).join(" ");
  let area = `8,${y(50)} ${points} ${x(g.chances.length - 1).toFixed(1)},${y(50)}`;
  let marks = g.moves.map((m, i) => m.label ? `<circle cx="${x(i + 1)}" cy="${y(g.chances[i + 1])}" r="4" class="mark" fill="${m.label.startsWith("inacc") ? "#c9a227" : m.label.startsWith("mist") ? "#e07b24" : "#c62828"}"><title>${m.ply}. ${m.played}: ${m.label}</title></circle>` : "").join("");
  $("graph").innerHTML = `<svg viewBox="0 0 ${w} ${h}" preserveAspectRatio="none">
    <rect x="8" y="8" width="${w - 16}" height="${(h - 16) / 2}" fill="#e8eefb"/>
    <rect x="8" y="${y(50)}" width="${w - 16}" height="${(h - 16) / 2}" fill="#fbe9e8"/>
    <polygon points="${area}" fill="#2b62d9" fill-opacity="0.18"/>
    <polyline points="${points}" fill="none" stroke="#2b62d9" stroke-width="2"/>
    <line x1="8" x2="${w - 8}" y1="${y(50)}" y2="${y(50)}" stroke="#8a6f4b" stroke-dasharray="4 4"/>
    <line id="cursor" x1="${x(ply)}" x2="${x(ply)}" y1="8" y2="${h - 8}" stroke="#5b4a36" stroke-width="1.5"/>
    ${marks}</svg>`;
  $("graph").firstChild.onclick = (e) => {
    const r = e.currentTarget.getBoundingClientRect();
    show(Math.round((e.clientX - r.left) / r.width * n));
  };
}
function loadGame(index) {
  game = index;
  const g = GAMES[game];
  $("title").textContent = g.title;
  $("summary").textContent = g.summary;
  $("moves").innerHTML = g.moves.map((m, i) => `<tr class="move" data-ply="${i + 1}"><td>${m.ply}</td>` +
    `<td><span class="dot ${m.side}"></span>${m.played}</td><td>${m.eval}</td><td>${m.best === m.played ? "" : m.best + " (" + m.bestEval + ")"}</td>` +
    `<td>${m.label ? `<span class="label ${labelClass(m.label)}">${m.label}</span>` : ""}</td></tr>`).join("");
  for (const row of document.querySelectorAll("tr.move")) row.onclick = () => show(+row.dataset.ply);
  drawGraph(g);
  show(0);
}
function show(p) {
  const g = GAMES[game];
  ply = Math.max(0, Math.min(p, g.boards.length - 1));
  $("board").innerHTML = g.boards[ply];
  const m = g.moves[ply - 1];
  $("where").textContent = ply === 0 ? `start (${g.moves.length} plies)` : `ply ${ply} of ${g.moves.length}: ${m.side} ${m.played}`;
  for (const row of document.querySelectorAll("tr.move")) {
    const on = +row.dataset.ply === ply;
    row.classList.toggle("current", on);
    if (on) row.scrollIntoView({ block: "nearest" });
  }
  const n = Math.max(g.chances.length - 1, 1), c = $("cursor");
  if (c) { const x = 8 + (600 - 16) * ply / n; c.setAttribute("x1", x); c.setAttribute("x2", x); }
}
document.addEventListener("keydown", (e) => {
  if (e.key === "ArrowRight") show(ply + 1);
  else if (e.key === "ArrowLeft") show(ply - 1);
  else if (e.key === "Home") show(0);
  else if (e.key === "End") show(1e9);
  else return;
  e.preventDefault();
});
$("first").onclick = () => show(0);
$("prev").onclick = () => show(ply - 1);
$("next").onclick = () => show(ply + 1);
$("last").onclick = () => show(1e9);
$("game").innerHTML = GAMES.map((g, i) => `<option value="${i}">${g.title.replace(/</g, "&lt;")}</option>`).join("");
$("game").style.display = GAMES.length > 1 ? "" : "none";
$("game").onchange = (e) => loadGame(+e.target.value);
// A link can open a game at a ply: review.html#game=2&ply=17.
const wanted = new URLSearchParams(location.hash.slice(1));
if (GAMES.length) {
  loadGame(Math.max(0, Math.min(GAMES.length - 1, (+wanted.get("game") || 1) - 1)));
  $("game").value = game;
  show(+wanted.get("ply") || 0);
}
</script>
</body>
</html>
"##;
