//! The page's rough edges, each checked in the browser: no horizontal scroll at 420 px, the
//! header still in view after a Load of a long game, a failed Load's message in view, no stale
//! score once the game is over, the clock running for both sides, the hint's arrow, the threat
//! display's rings.

use std::path::Path;
use std::time::Duration;

use serde_json::{json, Value};

use super::{Browser, Result, LONG};
use crate::gui_support::{Gui, START};

/// The position where both kings of height 2 stand two squares apart on the d file: the side
/// to move captures the other's king.
const KINGS_FACE: &str = "8/3R24/8/3B24/8/8/8/8";

/// Sets a form field as the player would and fires its `change`.
async fn set(browser: &Browser, id: &str, value: &str) -> Result<()> {
    browser
        .script(&format!(
        "const e = document.getElementById('{id}'); e.value = '{value}'; e.dispatchEvent(new Event('change')); return true"
    ))
        .await?;
    Ok(())
}

/// Loads `text` through the Load field and button.
async fn load(browser: &Browser, text: &str) -> Result<()> {
    browser
        .script(&format!(
        "document.getElementById('load-text').value = {}; document.getElementById('load').click(); return true",
        Value::from(text)
    ))
        .await?;
    Ok(())
}

/// Whether the element `css` is shown and wholly inside the window.
fn in_view(css: &str) -> String {
    format!(
        "const e = document.querySelector('{css}'); if (!e || e.hidden) return false;
         const r = e.getBoundingClientRect();
         return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight"
    )
}

/// A game of `plies` moves (the first legal move that neither captures nor bears off, else the
/// first), asked of the server as the page asks it.
fn long_game(gui: &Gui, plies: usize) -> Result<String> {
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..plies {
        let (_, answer) = gui.post("/api/position", json!({"start": START, "moves": moves}));
        let legal: Vec<&str> = answer["legal"]
            .as_array()
            .ok_or_else(|| format!("no legal moves: {answer}"))?
            .iter()
            .filter_map(Value::as_str)
            .collect();
        let quiet = legal
            .iter()
            .find(|m| !m.contains('x') && !m.ends_with("-off"));
        let Some(mv) = quiet.or(legal.first()) else {
            break;
        };
        moves.push(mv.to_string());
    }
    Ok(format!("{START} moves {}", moves.join(" ")))
}

/// Every edge, in the first window; leaves a screenshot of each.
pub async fn check(browser: &Browser, gui: &Gui, out: &Path) -> Result<()> {
    // Human against human while the page is looked at, so no engine moves meanwhile.
    set(browser, "blue", "human").await?;
    set(browser, "red", "human").await?;
    set(browser, "limit-kind", "movetime").await?;
    // A long game loaded: the page stays where it was (the score sheet scrolls, not the page).
    browser.script("window.scrollTo(0, 0); return true").await?;
    load(browser, &long_game(gui, 60)?).await?;
    browser
        .wait_for(
            "the long game",
            "return document.querySelectorAll('#moves td[data-ply]').length >= 40",
            LONG,
        )
        .await?;
    std::thread::sleep(Duration::from_millis(300));
    browser
        .wait_for(
            "the page unscrolled after Load",
            &format!(
                "return window.scrollY === 0 && (() => {{ {} }})()",
                in_view("header")
            ),
            LONG,
        )
        .await?;
    browser
        .wait_for(
            "the current move in the scrolled score sheet",
            "const box = document.getElementById('moves-box'), c = box.querySelector('.current');
         if (!c) return false;
         const b = box.getBoundingClientRect(), r = c.getBoundingClientRect();
         return box.scrollTop > 0 && r.top >= b.top && r.bottom <= b.bottom",
            LONG,
        )
        .await?;
    browser.screenshot(&out.join("6-long-game.png")).await?;
    // A Load that fails says so where the player looks, even from the bottom of the page.
    browser
        .script("window.scrollTo(0, document.body.scrollHeight); return true")
        .await?;
    browser.script(
        "document.getElementById('load-text').value = 'not a position'; document.getElementById('load').scrollIntoView(); document.getElementById('load').click(); return true",
    ).await?;
    browser.wait_for(
        "the Load error in view",
        &format!(
            "return document.getElementById('load-error').textContent.startsWith('Cannot load') && (() => {{ {} }})() && (() => {{ {} }})()",
            in_view("#load-error"),
            in_view("header")
        ),
        LONG,
    )
    .await?;
    browser.screenshot(&out.join("7-load-error.png")).await?;
    browser.script("window.scrollTo(0, 0); return true").await?;
    // The threat display: Blue's king can be taken by Red's.
    load(browser, &format!("{KINGS_FACE} b")).await?;
    browser.wait_for(
        "the kings position",
        "return document.querySelectorAll('#board [data-king]').length === 2 && document.getElementById('load-error').hidden",
        LONG,
    )
    .await?;
    browser.click("#threats").await?;
    browser.wait_for(
        "the king in danger marked",
        "return document.querySelector('#board .king-danger') !== null && document.getElementById('threat-note').textContent.includes('king on d5')",
        LONG,
    )
    .await?;
    // The hint: an arrow of a legal move, drawn for the side to move.
    browser.click("#hint").await?;
    browser
        .wait_for(
            "the hint's arrow",
            "const a = document.querySelector('#board .arrow[data-move]');
         return a !== null && view.legal.includes(a.getAttribute('data-move'))",
            LONG,
        )
        .await?;
    browser
        .screenshot(&out.join("8-threats-and-hint.png"))
        .await?;
    browser.click("#threats").await?;
    // The engine wins with mate in 1: the score line then says the result, not "mate 1".
    set(browser, "red", "0").await?;
    set(browser, "limit-value", "200").await?;
    load(browser, &format!("{KINGS_FACE} r")).await?;
    browser
        .wait_for(
            "the game's end, the score line saying its result",
            "const s = document.getElementById('score').textContent;
         return view && view.winner === 'Red' && s.includes('Red has won') && !s.includes('mate')",
            LONG,
        )
        .await?;
    browser.screenshot(&out.join("9-game-over.png")).await?;
    // A clock game: 1 minute and 1 second a move each; both clocks run down.
    browser.script(
        "const s = (id, v) => { const e = document.getElementById(id); e.value = v; e.dispatchEvent(new Event('change')); };
         s('limit-kind', 'clock'); s('clock-base', '1'); s('clock-inc', '1'); document.getElementById('new-game').click(); return true",
    ).await?;
    browser
        .wait_for(
            "Blue's clock running",
            "const b = document.getElementById('clock-Blue');
         return b.classList.contains('running') && b.textContent !== 'Blue 1:00'",
            LONG,
        )
        .await?;
    browser.click("#board g.stack[data-square='d2']").await?;
    browser
        .click("#board rect.square[data-square='d3']")
        .await?;
    browser.wait_for(
        "Red's clock run down by its engine's move",
        "const r = document.getElementById('clock-Red').textContent;
         return document.querySelectorAll('#moves td[data-ply]').length === 2 && r !== 'Red 1:00' && r !== 'Red 1:01'",
        LONG,
    )
    .await?;
    browser.screenshot(&out.join("10-clock.png")).await?;
    // 420 px wide: no horizontal scroll.
    browser.resize(420, 900).await?;
    browser.wait_for(
        "no horizontal scroll at 420 px",
        "return window.innerWidth <= 440 && document.documentElement.scrollWidth <= document.documentElement.clientWidth",
        LONG,
    )
    .await?;
    browser.screenshot(&out.join("11-narrow.png")).await?;
    browser.resize(1250, 980).await?;
    // Back to a plain game for the steps after.
    set(browser, "limit-kind", "movetime").await?;
    set(browser, "limit-value", "100").await?;
    set(browser, "blue", "human").await?;
    Ok(())
}
