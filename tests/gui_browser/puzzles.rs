//! The puzzle mode in the browser, on the puzzles of tests/data/gui-puzzles.txt (each proven by
//! `lielow solve`): the first puzzle offered is the one rated nearest the new player's 1500; a
//! wrong first move is refuted on the board (a red arrow, a line of text) and costs rating and
//! streak; tried again and solved by clicking, the engine defending after each move; the next
//! puzzle solved raises the rating; a reload keeps the mode, the rating and the streak; on 9x9
//! the solution plays out and the puzzle given up counts as missed.

use std::path::Path;
use std::time::Duration;

use serde_json::{json, Value};

use super::{Browser, Result, LONG};
use crate::gui_support::Gui;
use crate::support::lielow_command;

const PUZZLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/gui-puzzles.txt");

/// The number shown in the element `id`.
async fn number(browser: &Browser, id: &str) -> Result<i64> {
    let text = browser
        .script(&format!(
            "return document.getElementById('{id}').textContent"
        ))
        .await?;
    let text = text.as_str().ok_or("no text")?;
    Ok(text
        .parse()
        .map_err(|_| format!("#{id} shows '{text}', not a number"))?)
}

/// The player's rating and streak, as the page shows them.
async fn stats(browser: &Browser) -> Result<(i64, i64)> {
    Ok((
        number(browser, "puzzle-rating").await?,
        number(browser, "puzzle-streak").await?,
    ))
}

/// Plays `mv` (`f4-d6`, `f4xd6` or `f4-off`) on the puzzle board by clicking, as a player does,
/// then waits until the moves shown number `shown`.
async fn click(browser: &Browser, mv: &str, shown: u64) -> Result<()> {
    let from = &mv[..2];
    browser
        .click(&format!("#puzzle-board g.stack[data-square='{from}']"))
        .await?;
    browser
        .wait_for(
            "the stack picked",
            "return document.querySelectorAll('#puzzle-board .selected').length === 1",
            LONG,
        )
        .await?;
    if mv.ends_with("-off") {
        browser.click("#puzzle-bear-off").await?;
    } else {
        let to = &mv[3..];
        // A capture lands on a stack, which lies over its square.
        let target = if mv.contains('x') {
            format!("#puzzle-board g.stack[data-square='{to}']")
        } else {
            format!("#puzzle-board rect.square[data-square='{to}']")
        };
        browser.click(&target).await?;
    }
    browser
        .wait_for(
            &format!("{shown} moves after {mv}"),
            &format!("return puzzles.drawn === {shown} && !puzzles.busy"),
            LONG,
        )
        .await?;
    Ok(())
}

/// The feedback box: its class (`right`, `wrong` or none) and its text.
async fn feedback(browser: &Browser) -> Result<(String, String)> {
    let answer = browser
        .script("const f = document.getElementById('puzzle-feedback'); return [f.className, f.textContent]")
        .await?;
    let part = |i: usize| answer[i].as_str().unwrap_or_default().to_owned();
    Ok((part(0), part(1)))
}

/// The puzzle shown: its id.
async fn shown_puzzle(browser: &Browser) -> Result<String> {
    let id = browser
        .script("return puzzles.current && puzzles.current.id")
        .await?;
    Ok(id.as_str().unwrap_or_default().to_owned())
}

/// The checks, on a server of their own with the test puzzles.
pub async fn check(browser: &Browser, out: &Path) -> Result<()> {
    let mut command = lielow_command();
    command.args(["gui", "--port", "0", "--puzzles", PUZZLES]);
    let gui = Gui::spawn(command);
    let address = format!("http://127.0.0.1:{}/", gui.port);
    browser.client.goto(&address).await?;
    browser
        .wait_for(
            "the page",
            "return document.querySelectorAll('#board rect.square').length === 64",
            LONG,
        )
        .await?;
    browser.script("localStorage.clear(); return true").await?;
    browser.client.refresh().await?;
    browser
        .wait_for(
            "the page again",
            "return document.querySelectorAll('#board rect.square').length === 64",
            LONG,
        )
        .await?;
    browser.click("#mode-puzzles").await?;
    let on_board = "return document.querySelectorAll('#puzzle-board rect.square').length === 64
        && document.getElementById('board').offsetParent === null";
    browser
        .wait_for("the puzzle board, the game's hidden", on_board, LONG)
        .await?;
    // The new player (1500) gets the puzzle rated 1500: Red wins in 4, Red at the bottom.
    assert_eq(
        shown_puzzle(browser).await?.as_str(),
        "8-0004",
        "the first puzzle",
    )?;
    let title = browser
        .script("return document.getElementById('puzzle-title').textContent")
        .await?;
    assert_eq(title, json!("Red to move: win in 4"), "the title")?;
    browser.screenshot(&out.join("p1-puzzle.png")).await?;

    // A wrong first move: refuted at once, with an arrow; the rating and streak fall.
    click(browser, "a3-a7", 1).await?;
    let (kind, text) = feedback(browser).await?;
    assert_eq(kind.as_str(), "wrong", &text)?;
    if !text.contains("Blue answers") {
        return Err(format!("no refutation in '{text}'").into());
    }
    browser
        .wait_for(
            "the refutation's arrow",
            "return document.querySelectorAll('#puzzle-board.refuted line.arrow').length === 1",
            LONG,
        )
        .await?;
    // Elo against an equal rating: 32 x (0 - 0.5).
    assert_eq(stats(browser).await?, (1484, 0), "rating and streak")?;
    browser.screenshot(&out.join("p2-wrong.png")).await?;

    // Tried again and solved along the proven line; the engine defends after each move.
    browser.click("#puzzle-retry").await?;
    browser
        .wait_for(
            "the puzzle's start again",
            "return puzzles.drawn === 0 && !document.getElementById('puzzle-board').classList.contains('refuted')",
            LONG,
        )
        .await?;
    click(browser, "f4xd6", 2).await?;
    let (kind, text) = feedback(browser).await?;
    assert_eq(kind.as_str(), "right", &text)?;
    click(browser, "d6-c6", 4).await?;
    browser.screenshot(&out.join("p3-right.png")).await?;
    click(browser, "c6-c4", 6).await?;
    click(browser, "c4xf7", 7).await?;
    let (kind, text) = feedback(browser).await?;
    assert_eq(kind.as_str(), "right", &text)?;
    if !text.starts_with("Solved!") {
        return Err(format!("not solved: '{text}'").into());
    }
    // A puzzle missed once does not pay when solved later.
    assert_eq(
        stats(browser).await?,
        (1484, 0),
        "after solving a missed puzzle",
    )?;
    browser.screenshot(&out.join("p4-solved.png")).await?;

    // The next puzzle, by rating: 8-0003 (1200) is nearer 1484 than 8-0002 (900).
    browser.click("#puzzle-next").await?;
    browser
        .wait_for(
            "the next puzzle",
            "return puzzles.current.id === '8-0003' && puzzles.drawn === 0",
            LONG,
        )
        .await?;
    for (mv, shown) in [("b3-h3", 2), ("b4-b8", 4), ("b8xg3", 5)] {
        click(browser, mv, shown).await?;
    }
    // 32 x (1 - 1 / (1 + 10^((1200 - 1484) / 400))) = 5.2.
    assert_eq(stats(browser).await?, (1489, 1), "after a first-try solve")?;

    // A reload keeps the mode, the puzzle, the rating and the streak.
    browser.client.refresh().await?;
    browser
        .wait_for("the puzzle board after a reload", on_board, LONG)
        .await?;
    assert_eq(stats(browser).await?, (1489, 1), "after a reload")?;
    assert_eq(
        shown_puzzle(browser).await?.as_str(),
        "8-0003",
        "the puzzle after a reload",
    )?;
    browser.screenshot(&out.join("p5-reloaded.png")).await?;

    // 9x9: the puzzle nearest 1489 is Red's win in 3; the solution plays out to the win.
    browser
        .script("const e = document.getElementById('puzzle-size'); e.value = '9'; e.dispatchEvent(new Event('change')); return true")
        .await?;
    browser
        .wait_for(
            "the 9x9 puzzle",
            "return document.querySelectorAll('#puzzle-board rect.square').length === 81 && puzzles.current.id === '9-0003'",
            LONG,
        )
        .await?;
    click(browser, "h1-c1", 2).await?;
    browser.screenshot(&out.join("p6-nine.png")).await?;
    browser.click("#puzzle-solution").await?;
    browser
        .wait_for(
            "the solution played out",
            "return puzzles.drawn === 5 && !puzzles.busy",
            LONG,
        )
        .await?;
    let winner: Value = browser.script("return puzzles.view.winner").await?;
    assert_eq(winner, json!("Red"), "the solution's end")?;
    // Given up: a miss, 32 x (0 - 1 / (1 + 10^((1400 - 1489) / 400))) = -20.01.
    assert_eq(stats(browser).await?, (1469, 0), "after giving up")?;
    browser.screenshot(&out.join("p7-solution.png")).await?;

    // Narrow window: no sideways scroll.
    browser.resize(420, 900).await?;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let wide = browser
        .script("return document.documentElement.scrollWidth <= window.innerWidth")
        .await?;
    browser.screenshot(&out.join("p8-narrow.png")).await?;
    browser.resize(1250, 980).await?;
    assert_eq(wide, json!(true), "no sideways scroll at 420 px")?;
    // Back to the game: its board again.
    browser.click("#mode-play").await?;
    browser
        .wait_for(
            "the game's board",
            "return document.querySelectorAll('#board rect.square').length === 64 && document.getElementById('puzzle-board').offsetParent === null",
            LONG,
        )
        .await?;
    shipped(browser, out).await
}

/// A server without `--puzzles` serves the shipped sets: the new player's first puzzle.
async fn shipped(browser: &Browser, out: &Path) -> Result<()> {
    let gui = Gui::start(&[]);
    browser
        .client
        .goto(&format!("http://127.0.0.1:{}/", gui.port))
        .await?;
    browser
        .wait_for(
            "the page",
            "return document.querySelectorAll('#board rect.square').length === 64",
            LONG,
        )
        .await?;
    browser.click("#mode-puzzles").await?;
    browser
        .wait_for(
            "a shipped puzzle",
            "return document.querySelectorAll('#puzzle-board rect.square').length === 64
                && /^(Blue|Red) to move: win in [1-9]$/.test(document.getElementById('puzzle-title').textContent)
                && document.getElementById('puzzle-solved').textContent.endsWith('of 300')",
            LONG,
        )
        .await?;
    browser.screenshot(&out.join("p9-shipped.png")).await
}

fn assert_eq<T: PartialEq + std::fmt::Debug>(found: T, expected: T, what: &str) -> Result<()> {
    if found == expected {
        Ok(())
    } else {
        Err(format!("{what}: found {found:?}, expected {expected:?}").into())
    }
}
