//! The GUI in a real browser: starts `lielow gui` and chromedriver (headless Chromium), then
//! through WebDriver ([`fantoccini`]) loads the page, plays the first moves by clicking stacks
//! and squares, waits for the engine's replies and its evaluation, opens the analysis and the
//! review, switches to 9x9, loads an LFEN, checks the page's rough edges (`edges`: narrow
//! windows, Load, the score after the game, clock, hint, threats), loads and saves game files
//! (`files`: Abstract Play records, record lines, a malformed file), checks that a game survives
//! its server killed and started again (`restart`), and saves a screenshot after each step. A
//! second test plays the puzzle mode (`puzzles`): a puzzle solved, a wrong move refuted, the
//! rating and streak kept over a reload. It also measures the time from the click to the
//! engine's move (at 100 ms per move), that time again after the player has thought
//! `LIELOW_GUI_THINK` seconds (default 10: longer than any idle limit a server might wrongly
//! have), and once more while 1,000 idle
//! connections are held open to the server, and the server's memory with one and with four open
//! pages.
//!
//! ```text
//! cargo test --test gui_browser -- --ignored --nocapture
//! ```
//!
//! Ignored by a plain `cargo test`, since it needs `chromium` and `chromedriver` (Debian:
//! `apt-get install chromium chromium-driver`); `.ci/run` installs them and runs it. The
//! screenshots go to `target/gui-screenshots/`, or to `LIELOW_GUI_SCREENSHOTS` when set.

#[path = "../gui_support/mod.rs"]
mod gui_support;
#[path = "../support/mod.rs"]
mod support;

mod edges;
mod files;
mod puzzles;
mod restart;

use std::error::Error;
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use gui_support::{children_of, rss_kib, Gui};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::{json, Value};

type Result<T> = std::result::Result<T, Box<dyn Error>>;

/// How long any one thing may take to show on the page.
const LONG: Duration = Duration::from_secs(20);

/// The browser's page, with the few steps the checks are written in.
pub struct Browser {
    client: Client,
}

impl Browser {
    /// Runs `code` in the page and returns what it returns.
    pub async fn script(&self, code: &str) -> Result<Value> {
        Ok(self.client.execute(code, Vec::new()).await?)
    }

    /// Clicks the element `css`, as the player would.
    pub async fn click(&self, css: &str) -> Result<()> {
        let element = self.client.find(Locator::Css(css)).await?;
        element
            .click()
            .await
            .map_err(|e| format!("click {css}: {e}"))?;
        Ok(())
    }

    /// Types `text` into the element `css`.
    pub async fn type_into(&self, css: &str, text: &str) -> Result<()> {
        let element = self.client.find(Locator::Css(css)).await?;
        element.send_keys(text).await?;
        Ok(())
    }

    /// Waits up to `limit` for `code` (a script returning a value) to return true, and returns
    /// how long that took.
    pub async fn wait_for(&self, what: &str, code: &str, limit: Duration) -> Result<Duration> {
        let started = Instant::now();
        loop {
            if self.script(code).await? == json!(true) {
                return Ok(started.elapsed());
            }
            if started.elapsed() > limit {
                return Err(format!("timed out waiting for {what}").into());
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// Saves the window as a PNG at `path`.
    pub async fn screenshot(&self, path: &Path) -> Result<()> {
        let png = self.client.screenshot().await?;
        std::fs::write(path, png).map_err(|e| format!("{}: {e}", path.display()))?;
        println!("screenshot {}", path.display());
        Ok(())
    }

    /// Resizes the window.
    pub async fn resize(&self, width: u32, height: u32) -> Result<()> {
        Ok(self.client.set_window_size(width, height).await?)
    }
}

/// The resident memory of the server's engines (its child processes), in KiB.
fn engines_rss_kib(pid: u32) -> u64 {
    children_of(pid)
        .into_iter()
        .filter(|&child| gui_support::runs(child))
        .map(rss_kib)
        .sum()
}

/// chromedriver, killed when dropped.
struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The browser tests run one at a time: each drives a Chromium of its own, and the timings one
/// measures must not share the machine with the other.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// Runs a browser test's steps on a runtime of its own, one test at a time.
fn run_alone(name: &str, steps: impl std::future::Future<Output = Result<()>>) {
    let _alone = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    if let Err(error) = runtime.block_on(steps) {
        panic!("{name}: {error}");
    }
}

#[test]
#[ignore = "needs chromium and chromedriver: .ci/run installs them and runs it"]
fn the_gui_plays_in_a_real_browser() {
    run_alone("gui_browser", run());
}

#[test]
#[ignore = "needs chromium and chromedriver: .ci/run installs them and runs it"]
fn puzzles_are_solved_in_a_real_browser() {
    run_alone("gui_browser puzzles", async {
        let out = screenshots()?;
        let (_driver, browser) = open_browser().await?;
        let result = puzzles::check(&browser, &out).await;
        let _ = browser.client.close().await;
        result
    });
}

/// Where the screenshots go (made if need be).
fn screenshots() -> Result<PathBuf> {
    let out = std::env::var_os("LIELOW_GUI_SCREENSHOTS").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/gui-screenshots"),
        PathBuf::from,
    );
    std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    Ok(out)
}

async fn run() -> Result<()> {
    let out = screenshots()?;
    let think = std::env::var("LIELOW_GUI_THINK")
        .map_or(Ok(10), |text| text.parse::<u64>())
        .map_err(|e| format!("LIELOW_GUI_THINK must be whole seconds: {e}"))?;
    let gui = Gui::start(&[]);
    let address = format!("http://127.0.0.1:{}/", gui.port);
    println!("server at {address}");
    let (_driver, browser) = open_browser().await?;
    let result = steps(&browser, &gui, &address, &out, Duration::from_secs(think)).await;
    let _ = browser.client.close().await;
    result
}

/// chromedriver and a headless Chromium driven through it.
async fn open_browser() -> Result<(Driver, Browser)> {
    let driver_port = 9515 + (std::process::id() % 400) as u16;
    let driver = Driver(
        Command::new("chromedriver")
            .arg(format!("--port={driver_port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start chromedriver: {e}"))?,
    );
    let capabilities = json!({"browserName": "chrome",
        "goog:chromeOptions": {"args": ["--headless=new", "--no-sandbox", "--disable-gpu",
            "--window-size=1250,980"]}});
    let Value::Object(capabilities) = capabilities else {
        unreachable!("an object");
    };
    let address = format!("http://127.0.0.1:{driver_port}");
    let started = Instant::now();
    let client = loop {
        match ClientBuilder::new(HttpConnector::new())
            .capabilities(capabilities.clone())
            .connect(&address)
            .await
        {
            Ok(client) => break client,
            Err(error) if started.elapsed() > LONG => {
                return Err(format!("chromedriver did not come up: {error}").into())
            }
            Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    };
    Ok((driver, Browser { client }))
}

/// Plays the page's first legal move that is not a bear-off (by clicking the stack, then the
/// square) and returns how long the engine's reply took to show.
async fn play_a_move(browser: &Browser) -> Result<Duration> {
    let legal = browser
        .script("return view.legal.filter((m) => !m.endsWith('-off'))[0] || null")
        .await?;
    let legal = legal.as_str().ok_or("no move to play")?.to_owned();
    let rows = browser
        .script("return document.querySelectorAll('#moves td[data-ply]').length")
        .await?;
    let rows = rows.as_u64().ok_or("no move list")? + 2;
    click_move(browser, &legal[..2], &legal[3..], rows, None).await
}

/// Plays `from`-`to` by clicking the stack, then the square (with a screenshot to `selected`
/// between the two, if given), and returns how long it took until the move list held `rows`
/// moves (the engine's reply included).
async fn click_move(
    browser: &Browser,
    from: &str,
    to: &str,
    rows: u64,
    selected: Option<&Path>,
) -> Result<Duration> {
    browser
        .click(&format!("#board g.stack[data-square='{from}']"))
        .await?;
    browser
        .wait_for(
            "the legal targets",
            "return document.querySelectorAll('#board .target').length > 0",
            LONG,
        )
        .await?;
    if let Some(path) = selected {
        browser.screenshot(path).await?;
    }
    browser
        .click(&format!("#board rect.square[data-square='{to}']"))
        .await?;
    browser
        .wait_for(
            "the engine's reply",
            &format!("return document.querySelectorAll('#moves td[data-ply]').length === {rows}"),
            LONG,
        )
        .await
}

async fn steps(
    browser: &Browser,
    gui: &Gui,
    address: &str,
    out: &Path,
    think: Duration,
) -> Result<()> {
    let gui_pid = gui.child.id();
    browser.client.goto(address).await?;
    let first_window = browser.client.window().await?;
    browser
        .wait_for(
            "the board",
            "return document.querySelectorAll('#board rect.square').length === 64",
            LONG,
        )
        .await?;
    // A clean game: Blue is the player, Red the engine at 100 ms a move.
    browser.script("localStorage.clear(); return true").await?;
    browser.script(
        "const s = (id, v) => { const e = document.getElementById(id); e.value = v; e.dispatchEvent(new Event('change')); };
         s('blue', 'human'); s('red', '0'); s('limit-kind', 'movetime'); s('limit-value', '100');
         document.getElementById('new-game').click(); return true",
    ).await?;
    browser.wait_for(
        "a new game",
        "return document.querySelectorAll('#moves td[data-ply]').length === 0 && document.querySelectorAll('#board g.stack').length === 16",
        LONG,
    ).await?;
    browser.screenshot(&out.join("1-start.png")).await?;
    let mut replies = Vec::new();
    let selected = out.join("2-selected.png");
    for (ply, (from, to)) in [("g2", "f3"), ("c2", "d3"), ("b2", "b3")]
        .iter()
        .enumerate()
    {
        let shot = (ply == 0).then_some(selected.as_path());
        let rows = 2 * (ply as u64 + 1);
        replies.push(click_move(browser, from, to, rows, shot).await?);
    }
    browser
        .wait_for(
            "the evaluation",
            "return document.getElementById('score').textContent.includes('for Blue')",
            LONG,
        )
        .await?;
    browser.screenshot(&out.join("3-after-moves.png")).await?;
    // Live analysis (three lines), then the review of the game so far.
    browser.click("#analyse").await?;
    browser
        .wait_for(
            "three analysis lines",
            "return document.querySelectorAll('#lines li').length === 3",
            LONG,
        )
        .await?;
    browser.screenshot(&out.join("3b-analysis.png")).await?;
    browser.click("#analyse").await?;
    browser.click("#review").await?;
    browser
        .wait_for(
            "the review",
            "return document.getElementById('review-summary').textContent.startsWith('Accuracy')",
            LONG,
        )
        .await?;
    let mut millis: Vec<u128> = replies.iter().map(Duration::as_millis).collect();
    millis.sort_unstable();
    println!(
        "click to engine move at 100 ms/move: {millis:?} ms (median {} ms)",
        millis[1]
    );
    let one_tab = (rss_kib(gui_pid), engines_rss_kib(gui_pid));

    // 9x9.
    browser.script(
        "const e = document.getElementById('size'); e.value = '9'; document.getElementById('new-game').click(); return true",
    ).await?;
    browser
        .wait_for(
            "the 9x9 board",
            "return document.querySelectorAll('#board rect.square').length === 81",
            LONG,
        )
        .await?;
    browser.screenshot(&out.join("4-nine.png")).await?;
    // An LFEN with kings.
    browser
        .type_into("#load-text", "8/r1r1r1R24/8/8/8/3B24/b1b1b15/8 b")
        .await?;
    browser.click("#load").await?;
    browser.wait_for(
        "the loaded position, and the Load box emptied for the next",
        "return document.querySelectorAll('#board [data-king]').length === 2 && document.getElementById('load-text').value === ''",
        LONG,
    ).await?;
    browser.screenshot(&out.join("5-loaded.png")).await?;
    edges::check(browser, gui, out).await?;
    files::check(browser, out).await?;
    // Three more pages at once, then the server's memory.
    for _ in 0..3 {
        let window = browser.client.new_window(true).await?;
        browser.client.switch_to_window(window.handle).await?;
        browser.client.goto(address).await?;
        browser
            .wait_for(
                "the board in another tab",
                "return document.querySelectorAll('#board rect.square').length > 0",
                LONG,
            )
            .await?;
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let four_tabs = (rss_kib(gui_pid), engines_rss_kib(gui_pid));
    println!(
        "server memory: {} KiB with one page, {} KiB with four; its engines: {} KiB and {} KiB",
        one_tab.0, four_tabs.0, one_tab.1, four_tabs.1
    );
    // Back to the first page, a new 8x8 game.
    browser.client.switch_to_window(first_window).await?;
    browser.script(
        "const e = document.getElementById('size'); e.value = '8'; document.getElementById('new-game').click(); return true",
    ).await?;
    browser.wait_for(
        "a new 8x8 game",
        "return document.querySelectorAll('#moves td[data-ply]').length === 0 && document.querySelectorAll('#board rect.square').length === 64",
        LONG,
    ).await?;
    // A player who thinks: the page must still get the engine's reply at once.
    tokio::time::sleep(think).await;
    let after_thinking = play_a_move(browser).await?;
    println!(
        "click to engine move after {} s of thought: {} ms",
        think.as_secs(),
        after_thinking.as_millis()
    );
    // 1,000 idle connections to the server (loopback only) while the page plays on.
    let flood: Vec<TcpStream> = (0..1000)
        .map(|_| TcpStream::connect(("127.0.0.1", gui.port)))
        .collect::<std::result::Result<_, _>>()
        .map_err(|e| format!("flood: {e}"))?;
    let during_flood = play_a_move(browser).await?;
    println!(
        "click to engine move with {} idle connections open: {} ms (server {} KiB)",
        flood.len(),
        during_flood.as_millis(),
        rss_kib(gui_pid)
    );
    drop(flood);
    browser.screenshot(&out.join("3c-after-flood.png")).await?;
    restart::check(browser, out).await
}
