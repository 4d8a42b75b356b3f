//! The game survives its server: a page plays against the engine, the server is killed with
//! SIGKILL mid-game (once on the player's turn, once while the engine thinks), the page says it
//! is disconnected, the server is started again on the same port (a new process that knows
//! nothing of the page), and the page reconnects, shows the same position and the game goes on.
//! A reload of the page restores the game the same way, and a clock game's clocks stand still
//! while the server is gone.

use std::net::TcpListener;
use std::path::Path;
use std::time::Duration;

use serde_json::Value;

use super::{play_a_move, Browser, Result, LONG};
use crate::gui_support::Gui;
use crate::support::lielow_command;

/// Whether the page shows its disconnection banner, the board greyed out.
const SHOWS_LOST: &str = "return !document.getElementById('offline').hidden
    && document.getElementById('offline-text').textContent.startsWith('Disconnected')
    && document.body.classList.contains('offline')";

/// `lielow gui` on `port`.
fn serve(port: u16) -> Gui {
    let mut command = lielow_command();
    command.args(["gui", "--port", &port.to_string()]);
    Gui::spawn(command)
}

/// A port that was free a moment ago.
fn free_port() -> Result<u16> {
    Ok(TcpListener::bind(("127.0.0.1", 0))?.local_addr()?.port())
}

/// Kills the server as a crash would (SIGKILL: it has no chance to say goodbye).
fn crash(gui: &mut Gui) -> Result<()> {
    gui.child.kill()?;
    gui.child.wait()?;
    Ok(())
}

/// The page's game as it shows it: the position's LFEN and the moves.
async fn shown_game(browser: &Browser) -> Result<(String, Value)> {
    let lfen = browser.script("return view.lfen").await?;
    let moves = browser.script("return game.moves").await?;
    Ok((lfen.as_str().ok_or("no position")?.to_owned(), moves))
}

/// Waits until the page is connected to a new session and shows `lfen` with `moves`.
async fn wait_restored(
    browser: &Browser,
    old_session: &Value,
    lfen: &str,
    moves: &Value,
) -> Result<()> {
    let code = format!(
        "return document.getElementById('offline').hidden && !document.body.classList.contains('offline')
           && session !== {old_session} && view.lfen === {lfen}
           && JSON.stringify(game.moves) === {moves}
           && document.querySelectorAll('#moves td[data-ply]').length === {count}",
        lfen = Value::from(lfen),
        moves = Value::from(moves.to_string()),
        count = moves.as_array().map_or(0, Vec::len),
    );
    browser.wait_for("the restored game", &code, LONG).await?;
    Ok(())
}

/// The scenario, in a window of its own on a server of its own.
pub async fn check(browser: &Browser, out: &Path) -> Result<()> {
    let port = free_port()?;
    let mut gui = serve(port);
    let window = browser.client.new_window(true).await?;
    browser.client.switch_to_window(window.handle).await?;
    browser
        .client
        .goto(&format!("http://127.0.0.1:{port}/"))
        .await?;
    browser
        .wait_for(
            "the board",
            "return document.querySelectorAll('#board rect.square').length === 64 && session !== null",
            LONG,
        )
        .await?;
    browser.script(
        "const s = (id, v) => { const e = document.getElementById(id); e.value = v; e.dispatchEvent(new Event('change')); };
         s('blue', 'human'); s('red', '0'); s('limit-kind', 'movetime'); s('limit-value', '100');
         document.getElementById('new-game').click(); return true",
    ).await?;
    browser
        .wait_for(
            "a new game",
            "return document.querySelectorAll('#moves td[data-ply]').length === 0",
            LONG,
        )
        .await?;
    for _ in 0..2 {
        play_a_move(browser).await?;
    }

    // Killed on the player's turn.
    let (lfen, moves) = shown_game(browser).await?;
    let session = browser.script("return session").await?;
    crash(&mut gui)?;
    browser
        .wait_for("the disconnection banner", SHOWS_LOST, LONG)
        .await?;
    let kept = browser
        .script("return JSON.parse(localStorage.getItem('lielow-game')).moves")
        .await?;
    assert_eq!(kept, moves, "the game kept in the browser");
    // A click while the server is gone plays nothing.
    browser
        .script("document.querySelector('#board g.stack').dispatchEvent(new MouseEvent('click', {bubbles: true})); return true")
        .await?;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    browser.screenshot(&out.join("12-disconnected.png")).await?;
    // The banner fits a phone's width.
    browser.resize(420, 800).await?;
    let fits = browser
        .script("return document.documentElement.scrollWidth <= window.innerWidth")
        .await?;
    browser
        .screenshot(&out.join("12b-disconnected-narrow.png"))
        .await?;
    browser.resize(1250, 980).await?;
    assert_eq!(fits, Value::Bool(true), "no horizontal scroll at 420 px");
    let mut gui = serve(port);
    wait_restored(browser, &session, &lfen, &moves).await?;
    browser.screenshot(&out.join("13-reconnected.png")).await?;
    let reply = play_a_move(browser).await?;
    println!(
        "after a server restart, click to engine move: {} ms",
        reply.as_millis()
    );

    // Killed while the engine thinks (2 s a move): the new server's engine thinks again.
    browser.script(
        "const e = document.getElementById('limit-value'); e.value = '2000'; e.dispatchEvent(new Event('change')); return true",
    ).await?;
    let plies = browser.script("return game.moves.length").await?;
    let plies = plies.as_u64().ok_or("no moves")?;
    let legal = browser
        .script("return view.legal.filter((m) => !m.endsWith('-off'))[0]")
        .await?;
    let legal = legal.as_str().ok_or("no move to play")?.to_owned();
    browser
        .click(&format!("#board g.stack[data-square='{}']", &legal[..2]))
        .await?;
    browser
        .click(&format!(
            "#board rect.square[data-square='{}']",
            &legal[3..]
        ))
        .await?;
    browser
        .wait_for(
            "the engine thinking",
            "return document.getElementById('status').textContent.includes('is thinking')",
            LONG,
        )
        .await?;
    let (lfen, moves) = shown_game(browser).await?;
    let session = browser.script("return session").await?;
    crash(&mut gui)?;
    browser
        .wait_for("the disconnection banner", SHOWS_LOST, LONG)
        .await?;
    let gui = serve(port);
    wait_restored(browser, &session, &lfen, &moves).await?;
    browser
        .wait_for(
            "the engine's move after the restart",
            &format!("return game.moves.length === {} && document.querySelectorAll('#moves td[data-ply]').length === {0}", plies + 2),
            LONG,
        )
        .await?;

    // A reload restores the game too, from the browser's storage.
    let (lfen, moves) = shown_game(browser).await?;
    browser.client.refresh().await?;
    wait_restored(browser, &Value::Null, &lfen, &moves).await?;
    browser.screenshot(&out.join("14-reloaded.png")).await?;
    clock_pauses(browser, gui, port).await
}

/// A clock game: while the server is gone no clock runs (the player cannot move), and the
/// player's clock runs again once the page has reconnected.
async fn clock_pauses(browser: &Browser, mut gui: Gui, port: u16) -> Result<()> {
    browser.script(
        "const s = (id, v) => { const e = document.getElementById(id); e.value = v; e.dispatchEvent(new Event('change')); };
         s('limit-kind', 'clock'); s('clock-base', '0.5'); s('clock-inc', '1');
         document.getElementById('new-game').click(); return true",
    ).await?;
    browser
        .wait_for(
            "a new clock game",
            "return document.querySelectorAll('#moves td[data-ply]').length === 0 && Clock.running === 'Blue'",
            LONG,
        )
        .await?;
    play_a_move(browser).await?;
    let (lfen, moves) = shown_game(browser).await?;
    let session = browser.script("return session").await?;
    crash(&mut gui)?;
    browser
        .wait_for("the disconnection banner", SHOWS_LOST, LONG)
        .await?;
    let left =
        "return [Clock.running, Clock.left(game.clock, 'Blue'), Clock.left(game.clock, 'Red')]";
    let paused = browser.script(left).await?;
    tokio::time::sleep(Duration::from_millis(1000)).await;
    assert_eq!(
        browser.script(left).await?,
        paused,
        "no clock runs while the server is gone"
    );
    assert_eq!(
        paused[0],
        Value::Null,
        "no clock runs while the server is gone"
    );
    let _gui = serve(port);
    wait_restored(browser, &session, &lfen, &moves).await?;
    browser
        .wait_for(
            "Blue's clock running again",
            "return Clock.running === 'Blue'",
            LONG,
        )
        .await?;
    Ok(())
}
