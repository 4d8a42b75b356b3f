//! Load and Save of game files in the browser: an Abstract Play file of three games loads
//! (the player picks one; the players, result and header are shown), a resigned game reads as
//! over, the game saves as an Abstract Play record and as a record line and the saved text loads
//! back to the same game, a malformed record is refused under Load with the board kept, and
//! cutegames' PGN loads and saves as PGN.

use std::path::Path;

use serde_json::Value;

use super::{Browser, Result, LONG};

/// A fixture of the tests.
fn fixture(name: &str) -> Result<String> {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    Ok(std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?)
}

/// Puts `text` in the Load box and clicks Load.
async fn load(browser: &Browser, text: &str) -> Result<()> {
    browser
        .script(&format!(
            "document.getElementById('load-text').value = {}; document.getElementById('load').click(); return true",
            Value::from(text)
        ))
        .await?;
    Ok(())
}

/// Saves in `format` with Save and returns the text the page offered for download (caught as
/// the page makes its file).
async fn save(browser: &Browser, format: &str) -> Result<String> {
    browser
        .script(&format!(
            "window.savedText = null;
             window.makeUrl = window.makeUrl || URL.createObjectURL;
             URL.createObjectURL = (blob) => {{ blob.text().then((t) => {{ window.savedText = t; }}); return window.makeUrl(blob); }};
             const f = document.getElementById('save-format'); f.value = '{format}'; f.dispatchEvent(new Event('change'));
             document.getElementById('save').click(); return true"
        ))
        .await?;
    browser
        .wait_for(
            "the saved text, or a refusal",
            "return typeof window.savedText === 'string' || !document.getElementById('banner').hidden",
            LONG,
        )
        .await?;
    let text = browser
        .script("return window.savedText ?? document.getElementById('banner-text').textContent")
        .await?;
    Ok(text.as_str().unwrap_or_default().to_owned())
}

/// Every step, leaving a screenshot of each.
pub async fn check(browser: &Browser, out: &Path) -> Result<()> {
    // Human against human: no engine moves in a loaded game.
    browser
        .script(
            "for (const id of ['blue', 'red']) { const e = document.getElementById(id); e.value = 'human'; e.dispatchEvent(new Event('change')); }
             window.scrollTo(0, 0); return true",
        )
        .await?;
    load(browser, &fixture("apgame/lielow-9x9.json")?).await?;
    browser
        .wait_for(
            "the file's three games to pick from, the first shown with its players and result",
            "const info = document.getElementById('game-info').textContent;
             return document.querySelectorAll('#load-games option').length === 3
               && !document.getElementById('load-pick').hidden
               && document.querySelectorAll('#board rect.square').length === 81
               && document.querySelectorAll('#moves td[data-ply]').length === 13
               && info.includes('carol') && info.includes('dave') && info.includes('Blue won (king captured)')",
            LONG,
        )
        .await?;
    browser
        .screenshot(&out.join("15-apgame-loaded.png"))
        .await?;
    // The second game: Red resigned.
    browser
        .script("const e = document.getElementById('load-games'); e.value = '1'; e.dispatchEvent(new Event('change')); return true")
        .await?;
    browser
        .wait_for(
            "the resigned game, over",
            "return document.querySelectorAll('#moves td[data-ply]').length === 8
               && document.getElementById('status').textContent.includes('Blue won by resignation')
               && document.getElementById('game-info').textContent.includes('dave')",
            LONG,
        )
        .await?;
    browser.click("#game-info summary").await?;
    browser
        .screenshot(&out.join("16-apgame-resigned.png"))
        .await?;
    let saved = save(browser, "apgame").await?;
    let records: Value =
        serde_json::from_str(&saved).map_err(|e| format!("saved JSON: {e}: {saved}"))?;
    let record = &records[0];
    let header = &record["header"];
    if header["players"][0]["name"] != "dave" || record["moves"][4][0] != "resign" {
        return Err(format!("the saved record is not the game: {saved}").into());
    }
    browser
        .wait_for(
            "the save told",
            "return document.getElementById('status').textContent.startsWith('Saved as an Abstract Play game record')",
            LONG,
        )
        .await?;
    browser.screenshot(&out.join("17-apgame-saved.png")).await?;
    // The saved record loads back to the same game.
    load(browser, &saved).await?;
    browser
        .wait_for(
            "the saved game loaded back",
            "return document.querySelectorAll('#moves td[data-ply]').length === 8
               && document.getElementById('load-pick').hidden
               && document.getElementById('status').textContent.includes('Blue won by resignation')",
            LONG,
        )
        .await?;
    // The first game as a record line.
    load(browser, &fixture("apgame/lielow-9x9.json")?).await?;
    browser
        .wait_for(
            "the file again",
            "return document.querySelectorAll('#moves td[data-ply]').length === 13",
            LONG,
        )
        .await?;
    let line = save(browser, "record").await?;
    if !line.contains(" ; b ; king-captured ; carol ; dave ; opening 0") {
        return Err(format!("the saved record line: {line}").into());
    }
    // A record without its players: refused under Load, the board keeps its game.
    let mut broken: Value = serde_json::from_str(&fixture("apgame/lielow-8x8.json")?)?;
    broken["header"]
        .as_object_mut()
        .ok_or("a header")?
        .remove("players");
    load(browser, &broken.to_string()).await?;
    browser
        .wait_for(
            "the refusal under Load, the game kept",
            "const e = document.getElementById('load-error');
             return !e.hidden && e.textContent === \"Cannot load it: game 1: the required field 'header.players' is missing\"
               && document.querySelectorAll('#moves td[data-ply]').length === 13",
            LONG,
        )
        .await?;
    browser
        .screenshot(&out.join("18-apgame-refused.png"))
        .await?;
    // cutegames' PGN (four 8x8 games, its tags as it writes them), saved as PGN.
    load(browser, &fixture("cutegames/8x8.pgn")?).await?;
    browser
        .wait_for(
            "the PGN's games, the first with its players",
            "return document.querySelectorAll('#load-games option').length === 4
               && document.querySelectorAll('#board rect.square').length === 64
               && document.getElementById('game-info').textContent.includes('lielow-a')
               && document.getElementById('load-error').hidden",
            LONG,
        )
        .await?;
    let pgn = save(browser, "pgn").await?;
    if !pgn.contains("[White \"lielow-a\"]") || !pgn.contains("0-1") {
        return Err(format!("the saved PGN: {pgn}").into());
    }
    browser.screenshot(&out.join("19-pgn-loaded.png")).await?;
    // Red the engine again, for the steps after.
    browser
        .script("const e = document.getElementById('red'); e.value = '0'; e.dispatchEvent(new Event('change')); return true")
        .await?;
    Ok(())
}
