//! The GUI in a real browser: starts `lielow gui` and chromedriver (headless Chromium), then
//! through WebDriver loads the page, plays the first moves by clicking stacks and squares, waits
//! for the engine's replies and its evaluation, switches to 9x9, loads an LFEN, checks the page's
//! rough edges (`edges`: narrow windows, Load, the score after the game, clock, hint, threats),
//! and saves a screenshot after each step. It also measures the time from the click to the engine's move
//! (at 100 ms per move), that time again after the player has thought THINK seconds (default
//! 10: longer than any idle limit a server might wrongly have), and once more while 1,000 idle
//! connections are held open to the server, and the server's memory with one and with four
//! open pages.
//!
//!     cargo run --release --example gui_browser -- [OUT_DIR] [THINK]
//!
//! Run by `.ci/run` (which installs `chromium` and `chromium-driver` when missing). Exits
//! non-zero, with the reason, when a step fails.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

#[path = "gui_browser_support/edges.rs"]
mod edges;

/// A minimal HTTP/1.1 client for WebDriver's JSON.
fn http(port: u16, method: &str, path: &str, body: Option<&Value>) -> Result<Value, String> {
    let mut stream =
        TcpStream::connect(("127.0.0.1", port)).map_err(|e| format!("connect {port}: {e}"))?;
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .map_err(|e| e.to_string())?;
    let body = body.map(Value::to_string).unwrap_or_default();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream
        .write_all(request.as_bytes())
        .map_err(|e| e.to_string())?;
    // Read the head, then exactly Content-Length bytes: the driver may keep the connection.
    let mut reader = BufReader::new(stream);
    let mut length = 0usize;
    loop {
        let mut line = String::new();
        reader
            .read_line(&mut line)
            .map_err(|e| format!("{method} {path}: {e}"))?;
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            if name.eq_ignore_ascii_case("content-length") {
                length = value.trim().parse().unwrap_or(0);
            }
        }
    }
    let mut body = vec![0; length];
    reader
        .read_exact(&mut body)
        .map_err(|e| format!("{method} {path}: {e}"))?;
    let json_text = String::from_utf8_lossy(&body);
    serde_json::from_str(&json_text).map_err(|e| format!("{method} {path}: {e}: {json_text}"))
}

struct Browser {
    port: u16,
    session: String,
}

impl Browser {
    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Result<Value, String> {
        let answer = http(
            self.port,
            method,
            &format!("/session/{}{path}", self.session),
            body.as_ref(),
        )?;
        if let Some(error) = answer["value"]["error"].as_str() {
            return Err(format!("{path}: {error}: {}", answer["value"]["message"]));
        }
        Ok(answer["value"].clone())
    }

    fn find(&self, css: &str) -> Result<String, String> {
        let found = self.call(
            "POST",
            "/element",
            Some(json!({"using": "css selector", "value": css})),
        )?;
        found
            .as_object()
            .and_then(|o| o.values().next())
            .and_then(Value::as_str)
            .map(str::to_owned)
            .ok_or_else(|| format!("no element {css}"))
    }

    fn click(&self, css: &str) -> Result<(), String> {
        let element = self.find(css)?;
        self.call(
            "POST",
            &format!("/element/{element}/click"),
            Some(json!({})),
        )
        .map(|_| ())
    }

    fn script(&self, code: &str) -> Result<Value, String> {
        self.call(
            "POST",
            "/execute/sync",
            Some(json!({"script": code, "args": []})),
        )
    }

    /// Waits up to `limit` for `code` (a script returning a value) to return true.
    fn wait_for(&self, what: &str, code: &str, limit: Duration) -> Result<Duration, String> {
        let started = Instant::now();
        loop {
            if self.script(code)? == json!(true) {
                return Ok(started.elapsed());
            }
            if started.elapsed() > limit {
                return Err(format!("timed out waiting for {what}"));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn screenshot(&self, path: &Path) -> Result<(), String> {
        let data = self.call("GET", "/screenshot", None)?;
        let bytes = decode_base64(data.as_str().ok_or("no screenshot")?)?;
        std::fs::write(path, bytes).map_err(|e| e.to_string())?;
        println!("screenshot {}", path.display());
        Ok(())
    }
}

fn decode_base64(text: &str) -> Result<Vec<u8>, String> {
    let value = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let digits: Vec<u32> = text.bytes().filter_map(value).collect();
    for chunk in digits.chunks(4) {
        let n = chunk.iter().fold(0u32, |n, d| (n << 6) | d) << (6 * (4 - chunk.len()));
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(&bytes[..chunk.len().saturating_sub(1)]);
    }
    Ok(out)
}

/// The resident memory of the processes whose parent is `pid` (the engines), in KiB.
fn children_rss_kib(pid: u32) -> u64 {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return 0;
    };
    entries
        .filter_map(Result::ok)
        .filter_map(|entry| entry.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&child| {
            std::fs::read_to_string(format!("/proc/{child}/stat"))
                .ok()
                .and_then(|stat| {
                    stat.rsplit(')')
                        .next()?
                        .split_whitespace()
                        .nth(1)?
                        .parse::<u32>()
                        .ok()
                })
                == Some(pid)
        })
        .map(rss_kib)
        .sum()
}

/// The resident memory of process `pid`, in KiB.
fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

struct Children(Vec<Child>);

impl Drop for Children {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

fn main() {
    if let Err(error) = run() {
        eprintln!("gui_browser: {error}");
        std::process::exit(1);
    }
}

fn run() -> Result<(), String> {
    let out = PathBuf::from(
        std::env::args()
            .nth(1)
            .unwrap_or_else(|| "target/gui-screenshots".into()),
    );
    std::fs::create_dir_all(&out).map_err(|e| e.to_string())?;
    let lielow = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/release/lielow");
    let mut children = Children(Vec::new());
    let mut gui = Command::new(&lielow)
        .args(["gui", "--port", "0"])
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", lielow.display()))?;
    let mut first_line = String::new();
    BufReader::new(gui.stdout.take().ok_or("no stdout")?)
        .read_line(&mut first_line)
        .map_err(|e| e.to_string())?;
    let gui_pid = gui.id();
    children.0.push(gui);
    let address = first_line
        .trim()
        .strip_prefix("lielow gui: ")
        .ok_or_else(|| format!("unexpected first line {first_line:?}"))?
        .to_owned();
    println!("server at {address}");
    let driver_port = 9515 + (std::process::id() % 400) as u16;
    children.0.push(
        Command::new("chromedriver")
            .arg(format!("--port={driver_port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start chromedriver: {e}"))?,
    );
    let started = Instant::now();
    while let Err(error) = http(driver_port, "GET", "/status", None) {
        if started.elapsed() > Duration::from_secs(20) {
            return Err(format!("chromedriver did not come up: {error}"));
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let capabilities = json!({"capabilities": {"alwaysMatch": {"browserName": "chrome",
        "goog:chromeOptions": {"args": ["--headless=new", "--no-sandbox", "--disable-gpu",
            "--window-size=1250,980"]}}}});
    let created = http(driver_port, "POST", "/session", Some(&capabilities))?;
    let session = created["value"]["sessionId"]
        .as_str()
        .ok_or_else(|| format!("no session: {created}"))?
        .to_owned();
    let browser = Browser {
        port: driver_port,
        session,
    };
    let think = std::env::args()
        .nth(2)
        .map_or(Ok(10), |text| text.parse::<u64>())
        .map_err(|e| format!("THINK must be whole seconds: {e}"))?;
    let result = steps(
        &browser,
        &address,
        &out,
        gui_pid,
        Duration::from_secs(think),
    );
    let _ = browser.call("DELETE", "", None);
    result
}

/// Plays the page's first legal move that is not a bear-off (by clicking the stack, then the
/// square) and returns how long the engine's reply took to show.
fn play_a_move(browser: &Browser, long: Duration) -> Result<Duration, String> {
    let legal =
        browser.script("return view.legal.filter((m) => !m.endsWith('-off'))[0] || null")?;
    let legal = legal.as_str().ok_or("no move to play")?.to_owned();
    let (from, to) = (&legal[..2], &legal[3..]);
    let rows = browser.script("return document.querySelectorAll('#moves td[data-ply]').length")?;
    let rows = rows.as_u64().ok_or("no move list")? + 2;
    browser.click(&format!("#board g.stack[data-square='{from}']"))?;
    browser.wait_for(
        "the legal targets",
        "return document.querySelectorAll('#board .target').length > 0",
        long,
    )?;
    browser.click(&format!("#board rect.square[data-square='{to}']"))?;
    browser.wait_for(
        "the engine's reply",
        &format!("return document.querySelectorAll('#moves td[data-ply]').length === {rows}"),
        long,
    )
}

fn steps(
    browser: &Browser,
    address: &str,
    out: &Path,
    gui_pid: u32,
    think: Duration,
) -> Result<(), String> {
    browser.call("POST", "/url", Some(json!({"url": address})))?;
    let first_window = browser.call("GET", "/window", None)?;
    let long = Duration::from_secs(20);
    browser.wait_for(
        "the board",
        "return document.querySelectorAll('#board rect.square').length === 64",
        long,
    )?;
    // A clean game: Blue is the player, Red the engine at 100 ms a move.
    browser.script("localStorage.clear(); return true")?;
    browser.script(
        "const s = (id, v) => { const e = document.getElementById(id); e.value = v; e.dispatchEvent(new Event('change')); };
         s('blue', 'human'); s('red', '0'); s('limit-kind', 'movetime'); s('limit-value', '100');
         document.getElementById('new-game').click(); return true",
    )?;
    browser.wait_for(
        "a new game",
        "return document.querySelectorAll('#moves td[data-ply]').length === 0 && document.querySelectorAll('#board g.stack').length === 16",
        long,
    )?;
    browser.screenshot(&out.join("1-start.png"))?;
    let mut replies = Vec::new();
    for (ply, (from, to)) in [("g2", "f3"), ("c2", "d3"), ("b2", "b3")]
        .iter()
        .enumerate()
    {
        browser.click(&format!("#board g.stack[data-square='{from}']"))?;
        browser.wait_for(
            "the legal targets",
            "return document.querySelectorAll('#board .target').length > 0",
            long,
        )?;
        if ply == 0 {
            browser.screenshot(&out.join("2-selected.png"))?;
        }
        browser.click(&format!("#board rect.square[data-square='{to}']"))?;
        let rows = 2 * (ply + 1);
        let took = browser.wait_for(
            "the engine's reply",
            &format!("return document.querySelectorAll('#moves td[data-ply]').length === {rows}"),
            long,
        )?;
        replies.push(took);
    }
    browser.wait_for(
        "the evaluation",
        "return document.getElementById('score').textContent.includes('for Blue')",
        long,
    )?;
    browser.screenshot(&out.join("3-after-moves.png"))?;
    // Live analysis (three lines), then the review of the game so far.
    browser.click("#analyse")?;
    browser.wait_for(
        "three analysis lines",
        "return document.querySelectorAll('#lines li').length === 3",
        long,
    )?;
    browser.screenshot(&out.join("3b-analysis.png"))?;
    browser.click("#analyse")?;
    browser.click("#review")?;
    browser.wait_for(
        "the review",
        "return document.getElementById('review-summary').textContent.startsWith('Accuracy')",
        long,
    )?;
    let mut millis: Vec<u128> = replies.iter().map(Duration::as_millis).collect();
    millis.sort_unstable();
    println!(
        "click to engine move at 100 ms/move: {millis:?} ms (median {} ms)",
        millis[1]
    );
    let one_tab = (rss_kib(gui_pid), children_rss_kib(gui_pid));

    // 9x9.
    browser.script(
        "const e = document.getElementById('size'); e.value = '9'; document.getElementById('new-game').click(); return true",
    )?;
    browser.wait_for(
        "the 9x9 board",
        "return document.querySelectorAll('#board rect.square').length === 81",
        long,
    )?;
    browser.screenshot(&out.join("4-nine.png"))?;
    // An LFEN with kings.
    let load = browser.find("#load-text")?;
    browser.call(
        "POST",
        &format!("/element/{load}/value"),
        Some(json!({"text": "8/r1r1r1R24/8/8/8/3B24/b1b1b15/8 b"})),
    )?;
    browser.click("#load")?;
    browser.wait_for(
        "the loaded position, and the Load box emptied for the next",
        "return document.querySelectorAll('#board [data-king]').length === 2 && document.getElementById('load-text').value === ''",
        long,
    )?;
    browser.screenshot(&out.join("5-loaded.png"))?;
    edges::check(browser, address, out)?;
    // Three more pages at once, then the server's memory.
    for _ in 0..3 {
        let window = browser.call("POST", "/window/new", Some(json!({"type": "tab"})))?;
        let handle = window["handle"].as_str().ok_or("no window handle")?;
        browser.call("POST", "/window", Some(json!({"handle": handle})))?;
        browser.call("POST", "/url", Some(json!({"url": address})))?;
        browser.wait_for(
            "the board in another tab",
            "return document.querySelectorAll('#board rect.square').length > 0",
            long,
        )?;
    }
    std::thread::sleep(Duration::from_millis(500));
    let four_tabs = (rss_kib(gui_pid), children_rss_kib(gui_pid));
    println!(
        "server memory: {} KiB with one page, {} KiB with four; its engines: {} KiB and {} KiB",
        one_tab.0, four_tabs.0, one_tab.1, four_tabs.1
    );
    // Back to the first page, a new 8x8 game.
    browser.call("POST", "/window", Some(json!({"handle": first_window})))?;
    browser.script(
        "const e = document.getElementById('size'); e.value = '8'; document.getElementById('new-game').click(); return true",
    )?;
    browser.wait_for(
        "a new 8x8 game",
        "return document.querySelectorAll('#moves td[data-ply]').length === 0 && document.querySelectorAll('#board rect.square').length === 64",
        long,
    )?;
    // A player who thinks: the page must still get the engine's reply at once.
    std::thread::sleep(think);
    let after_thinking = play_a_move(browser, long)?;
    println!(
        "click to engine move after {} s of thought: {} ms",
        think.as_secs(),
        after_thinking.as_millis()
    );
    // 1,000 idle connections to the server (loopback only) while the page plays on.
    let port = address
        .trim_end_matches('/')
        .rsplit(':')
        .next()
        .and_then(|p| p.parse::<u16>().ok())
        .ok_or("no port in the address")?;
    let flood: Vec<TcpStream> = (0..1000)
        .map(|_| TcpStream::connect(("127.0.0.1", port)))
        .collect::<Result<_, _>>()
        .map_err(|e| format!("flood: {e}"))?;
    let during_flood = play_a_move(browser, long)?;
    println!(
        "click to engine move with {} idle connections open: {} ms (server {} KiB)",
        flood.len(),
        during_flood.as_millis(),
        rss_kib(gui_pid)
    );
    drop(flood);
    browser.screenshot(&out.join("3c-after-flood.png"))?;
    Ok(())
}
