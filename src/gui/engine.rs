//! One engine as the GUI drives it: a child process spoken to in UGI, exactly as another GUI
//! would, on a thread of its own so that a slow, hung or crashed engine never blocks a request.
//!
//! The thread owns the process. Commands come from the web handlers (`go`, `stop`); every line
//! the engine prints is turned into an event for the page (`info`, `bestmove`, errors). An
//! engine that exits is reported once and started again at the next `go`; one silent past a
//! timeout is killed (with its process group) and reported the same way.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::matchplay::ugi_client::{forget_group, kill_group, spawn_engine};
use lielow_engine::ugi;

/// How long an engine may take to answer `ugi` and `isready`.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// How long past its budget a searching engine may stay silent before it is declared hung.
const SILENCE_ALLOWANCE: Duration = Duration::from_secs(4);

/// What the page asks of the engine.
#[derive(Debug)]
pub enum Order {
    /// Search `position` (a `position ...` line) with `go` (a `go ...` line), `lines` PVs.
    Go {
        /// `position fen ... moves ...`.
        position: String,
        /// `go ...`.
        go: String,
        /// MultiPV.
        lines: u32,
        /// The longest the search may take (for the hang check); `None`: until `stop`.
        budget: Option<Duration>,
        /// Returned with every event of this search, so the page can drop stale ones.
        search: u64,
    },
    /// Stop the running search (its `bestmove` still comes).
    Stop,
    /// End the engine (the page went away, or the server stops).
    Quit,
}

/// Messages to the engine's thread: orders, and what its reader thread heard.
enum Message {
    Order(Order),
    Line(String),
    Closed,
}

/// A handle on one engine's thread.
pub struct EngineHandle {
    orders: Sender<Message>,
}

impl EngineHandle {
    /// Starts the thread for `argv`; events go to `events` as JSON values. The process itself
    /// starts at the first `go`.
    pub fn start(name: String, argv: Vec<String>, events: Sender<Value>) -> EngineHandle {
        let (orders, inbox) = mpsc::channel();
        let feed = orders.clone();
        thread::spawn(move || EngineThread::new(name, argv, events, feed).run(inbox));
        EngineHandle { orders }
    }

    /// Hands `order` to the engine's thread.
    pub fn send(&self, order: Order) {
        let _ = self.orders.send(Message::Order(order));
    }
}

impl Drop for EngineHandle {
    fn drop(&mut self) {
        let _ = self.orders.send(Message::Order(Order::Quit));
    }
}

/// A running process.
struct Running {
    child: Child,
    stdin: ChildStdin,
}

impl Running {
    fn send(&mut self, line: &str) -> bool {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .is_ok()
    }

    fn kill(mut self) {
        kill_group(self.child.id());
        let _ = self.child.kill();
        let _ = self.child.wait();
        forget_group(self.child.id());
    }
}

struct EngineThread {
    name: String,
    argv: Vec<String>,
    events: Sender<Value>,
    /// Where the reader thread of each process sends the engine's lines.
    feed: Sender<Message>,
    running: Option<Running>,
    /// The search under way: its number and when it must have ended.
    search: Option<(u64, Option<Instant>)>,
    /// The MultiPV the engine was last given.
    lines: u32,
    /// Orders that came while the thread waited for the engine.
    pending: VecDeque<Order>,
}

impl EngineThread {
    fn new(name: String, argv: Vec<String>, events: Sender<Value>, feed: Sender<Message>) -> Self {
        EngineThread {
            name,
            argv,
            events,
            feed,
            running: None,
            search: None,
            lines: 1,
            pending: VecDeque::new(),
        }
    }

    fn event(&self, value: Value) {
        let _ = self.events.send(value);
    }

    fn error(&self, message: impl Into<String>) {
        let search = self.search.map(|(id, _)| id);
        self.event(json!({"type": "error", "engine": self.name, "message": message.into(), "search": search}));
    }

    /// Starts the process and completes the handshake, reading its lines from `inbox`.
    fn start_process(&mut self, inbox: &Receiver<Message>) -> Result<(), String> {
        let mut child = spawn_engine(&self.argv)?;
        let stdin = child.stdin.take().ok_or("no stdin pipe")?;
        let stdout = child.stdout.take().ok_or("no stdout pipe")?;
        let feed = self.feed.clone();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if feed.send(Message::Line(line)).is_err() {
                    return;
                }
            }
            let _ = feed.send(Message::Closed);
        });
        let mut running = Running { child, stdin };
        running.send("ugi");
        self.running = Some(running);
        self.expect(inbox, "ugiok")?;
        self.lines = 1;
        let running = self.running.as_mut().expect("started");
        running.send("isready");
        self.expect(inbox, "readyok")
    }

    /// Waits for a line whose first word is `wanted` (other lines are dropped; orders that
    /// come meanwhile wait in `pending`, to be carried out next).
    fn expect(&mut self, inbox: &Receiver<Message>, wanted: &str) -> Result<(), String> {
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match inbox.recv_timeout(left) {
                Ok(Message::Line(line)) if line.split_whitespace().next() == Some(wanted) => {
                    return Ok(())
                }
                Ok(Message::Line(_)) => {}
                Ok(Message::Order(order)) => self.pending.push_back(order),
                Ok(Message::Closed) => return Err(format!("the engine exited before '{wanted}'")),
                Err(_) => {
                    return Err(format!(
                        "no '{wanted}' within {} s",
                        HANDSHAKE_TIMEOUT.as_secs()
                    ))
                }
            }
        }
    }

    fn end_process(&mut self) {
        if let Some(running) = self.running.take() {
            running.kill();
        }
        self.search = None;
    }

    fn run(mut self, inbox: Receiver<Message>) {
        loop {
            let timeout = self
                .search
                .and_then(|(_, end)| end)
                .map(|end| end.saturating_duration_since(Instant::now()));
            // Orders that came while the engine was being waited for go first.
            let message = if let Some(order) = self.pending.pop_front() {
                Message::Order(order)
            } else if let Some(left) = timeout {
                match inbox.recv_timeout(left) {
                    Ok(message) => message,
                    Err(RecvTimeoutError::Timeout) => {
                        self.error("the engine stopped answering; it was stopped and will be started again");
                        self.end_process();
                        continue;
                    }
                    Err(RecvTimeoutError::Disconnected) => break,
                }
            } else {
                match inbox.recv() {
                    Ok(message) => message,
                    Err(_) => break,
                }
            };
            match message {
                Message::Order(Order::Quit) => break,
                Message::Order(Order::Stop) => {
                    if let (Some(running), Some(_)) = (self.running.as_mut(), self.search) {
                        running.send("stop");
                    }
                }
                Message::Order(Order::Go {
                    position,
                    go,
                    lines,
                    budget,
                    search,
                }) => self.go(&inbox, position, go, lines, budget, search),
                Message::Line(line) => self.heard(&line),
                Message::Closed => {
                    if self.running.is_some() {
                        self.error("the engine exited; it will be started again at the next move");
                        self.end_process();
                    }
                }
            }
        }
        self.end_process();
    }

    fn go(
        &mut self,
        inbox: &Receiver<Message>,
        position: String,
        go: String,
        lines: u32,
        budget: Option<Duration>,
        search: u64,
    ) {
        if let (Some(running), Some(_)) = (self.running.as_mut(), self.search) {
            // A new search replaces the old one: stop it and let its bestmove pass unseen.
            running.send("stop");
            let _ = self.expect(inbox, "bestmove");
        }
        if self.running.is_none() {
            if let Err(message) = self.start_process(inbox) {
                self.search = Some((search, None));
                self.error(format!("cannot use the engine: {message}"));
                self.end_process();
                return;
            }
        }
        let running = self.running.as_mut().expect("started");
        let mut ok = true;
        if lines != self.lines {
            ok &= running.send(&format!("setoption name MultiPV value {lines}"));
            self.lines = lines;
        }
        ok &= running.send(&position) && running.send("isready");
        if !ok || self.expect(inbox, "readyok").is_err() {
            self.search = Some((search, None));
            self.error("the engine did not take the position");
            self.end_process();
            return;
        }
        let running = self.running.as_mut().expect("started");
        running.send(&go);
        let end = budget.map(|budget| Instant::now() + budget + SILENCE_ALLOWANCE);
        self.search = Some((search, end));
    }

    fn heard(&mut self, line: &str) {
        let Some((search, _)) = self.search else {
            return;
        };
        let mut words = line.split_whitespace();
        match words.next() {
            Some("bestmove") => {
                self.search = None;
                let mv = words.next().unwrap_or("");
                self.event(
                    json!({"type": "bestmove", "engine": self.name, "move": mv, "search": search}),
                );
            }
            Some("info") => {
                if let Some(info) = ugi::read_info(line) {
                    if info.currmove.is_some() {
                        return;
                    }
                    self.event(json!({
                        "type": "info",
                        "search": search,
                        "depth": info.depth,
                        "multipv": info.multipv.unwrap_or(1),
                        "score": info.score.map(|s| s.to_string()),
                        "nodes": info.nodes,
                        "nps": info.nps,
                        "time": info.time_ms,
                        "pv": info.pv.join(" "),
                    }));
                } else if let Some(text) = line.strip_prefix("info string ") {
                    self.event(json!({"type": "message", "engine": self.name, "text": text, "search": search}));
                }
            }
            _ => {}
        }
    }
}
