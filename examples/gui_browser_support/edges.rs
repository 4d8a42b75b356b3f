//! The page's rough edges, each checked in the browser: no horizontal scroll at 420 px, the
//! header still in view after a Load of a long game, a failed Load's message in view, no stale
//! score once the game is over, the clock running for both sides, the hint's arrow, the threat
//! display's rings.

use std::path::Path;
use std::time::Duration;

use serde_json::{json, Value};

use super::{http, Browser};

/// The position where both kings of height 2 stand two squares apart on the d file: the side
/// to move captures the other's king.
const KINGS_FACE: &str = "8/3R24/8/3B24/8/8/8/8";

/// Sets a form field as the player would and fires its `change`.
fn set(browser: &Browser, id: &str, value: &str) -> Result<(), String> {
    browser.script(&format!(
        "const e = document.getElementById('{id}'); e.value = '{value}'; e.dispatchEvent(new Event('change')); return true"
    ))?;
    Ok(())
}

/// Loads `text` through the Load field and button.
fn load(browser: &Browser, text: &str) -> Result<(), String> {
    browser.script(&format!(
        "document.getElementById('load-text').value = {}; document.getElementById('load').click(); return true",
        Value::from(text)
    ))?;
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
fn long_game(address: &str, plies: usize) -> Result<String, String> {
    let port = address
        .trim_end_matches('/')
        .rsplit(':')
        .next()
        .and_then(|p| p.parse::<u16>().ok())
        .ok_or("no port in the address")?;
    let start = "8/r1r1r1r1r1r1r1r1/8/8/8/8/b1b1b1b1b1b1b1b1/8 b";
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..plies {
        let answer = http(
            port,
            "POST",
            "/api/position",
            Some(&json!({"start": start, "moves": moves})),
        )?;
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
    Ok(format!("{start} moves {}", moves.join(" ")))
}

/// Every edge, in the first window; leaves a screenshot of each.
pub fn check(browser: &Browser, address: &str, out: &Path) -> Result<(), String> {
    let long = Duration::from_secs(20);
    // Human against human while the page is looked at, so no engine moves meanwhile.
    set(browser, "blue", "human")?;
    set(browser, "red", "human")?;
    set(browser, "limit-kind", "movetime")?;
    // A long game loaded: the page stays where it was (the score sheet scrolls, not the page).
    browser.script("window.scrollTo(0, 0); return true")?;
    load(browser, &long_game(address, 60)?)?;
    browser.wait_for(
        "the long game",
        "return document.querySelectorAll('#moves td[data-ply]').length >= 40",
        long,
    )?;
    std::thread::sleep(Duration::from_millis(300));
    browser.wait_for(
        "the page unscrolled after Load",
        &format!(
            "return window.scrollY === 0 && (() => {{ {} }})()",
            in_view("header")
        ),
        long,
    )?;
    browser.wait_for(
        "the current move in the scrolled score sheet",
        "const box = document.getElementById('moves-box'), c = box.querySelector('.current');
         if (!c) return false;
         const b = box.getBoundingClientRect(), r = c.getBoundingClientRect();
         return box.scrollTop > 0 && r.top >= b.top && r.bottom <= b.bottom",
        long,
    )?;
    browser.screenshot(&out.join("6-long-game.png"))?;
    // A Load that fails says so where the player looks, even from the bottom of the page.
    browser.script("window.scrollTo(0, document.body.scrollHeight); return true")?;
    browser.script(
        "document.getElementById('load-text').value = 'not a position'; document.getElementById('load').scrollIntoView(); document.getElementById('load').click(); return true",
    )?;
    browser.wait_for(
        "the Load error in view",
        &format!(
            "return document.getElementById('load-error').textContent.startsWith('Cannot load') && (() => {{ {} }})() && (() => {{ {} }})()",
            in_view("#load-error"),
            in_view("header")
        ),
        long,
    )?;
    browser.screenshot(&out.join("7-load-error.png"))?;
    browser.script("window.scrollTo(0, 0); return true")?;
    // The threat display: Blue's king can be taken by Red's.
    load(browser, &format!("{KINGS_FACE} b"))?;
    browser.wait_for(
        "the kings position",
        "return document.querySelectorAll('#board [data-king]').length === 2 && document.getElementById('load-error').hidden",
        long,
    )?;
    browser.click("#threats")?;
    browser.wait_for(
        "the king in danger marked",
        "return document.querySelector('#board .king-danger') !== null && document.getElementById('threat-note').textContent.includes('king on d5')",
        long,
    )?;
    // The hint: an arrow of a legal move, drawn for the side to move.
    browser.click("#hint")?;
    browser.wait_for(
        "the hint's arrow",
        "const a = document.querySelector('#board .arrow[data-move]');
         return a !== null && view.legal.includes(a.getAttribute('data-move'))",
        long,
    )?;
    browser.screenshot(&out.join("8-threats-and-hint.png"))?;
    browser.click("#threats")?;
    // The engine wins with mate in 1: the score line then says the result, not "mate 1".
    set(browser, "red", "0")?;
    set(browser, "limit-value", "200")?;
    load(browser, &format!("{KINGS_FACE} r"))?;
    browser.wait_for(
        "the game's end, the score line saying its result",
        "const s = document.getElementById('score').textContent;
         return view && view.winner === 'Red' && s.includes('Red has won') && !s.includes('mate')",
        long,
    )?;
    browser.screenshot(&out.join("9-game-over.png"))?;
    // A clock game: 1 minute and 1 second a move each; both clocks run down.
    browser.script(
        "const s = (id, v) => { const e = document.getElementById(id); e.value = v; e.dispatchEvent(new Event('change')); };
         s('limit-kind', 'clock'); s('clock-base', '1'); s('clock-inc', '1'); document.getElementById('new-game').click(); return true",
    )?;
    browser.wait_for(
        "Blue's clock running",
        "const b = document.getElementById('clock-Blue');
         return b.classList.contains('running') && b.textContent !== 'Blue 1:00'",
        long,
    )?;
    browser.click("#board g.stack[data-square='d2']")?;
    browser.click("#board rect.square[data-square='d3']")?;
    browser.wait_for(
        "Red's clock run down by its engine's move",
        "const r = document.getElementById('clock-Red').textContent;
         return document.querySelectorAll('#moves td[data-ply]').length === 2 && r !== 'Red 1:00' && r !== 'Red 1:01'",
        long,
    )?;
    browser.screenshot(&out.join("10-clock.png"))?;
    // 420 px wide: no horizontal scroll.
    browser.call(
        "POST",
        "/window/rect",
        Some(json!({"width": 420, "height": 900})),
    )?;
    browser.wait_for(
        "no horizontal scroll at 420 px",
        "return window.innerWidth <= 440 && document.documentElement.scrollWidth <= document.documentElement.clientWidth",
        long,
    )?;
    browser.screenshot(&out.join("11-narrow.png"))?;
    browser.call(
        "POST",
        "/window/rect",
        Some(json!({"width": 1250, "height": 980})),
    )?;
    // Back to a plain game for the steps after.
    set(browser, "limit-kind", "movetime")?;
    set(browser, "limit-value", "100")?;
    set(browser, "blue", "human")?;
    Ok(())
}
