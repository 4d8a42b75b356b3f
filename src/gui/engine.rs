//! One engine as the GUI drives it: a child process spoken to in UGI through
//! `lielow_engine::ugi::client`, exactly as another GUI would, on a thread of its own so that a
//! slow, hung or crashed engine never blocks a request.
//!
//! The thread owns the process. Orders come from the web handlers ([`Order`]); every line the
//! engine prints during a search becomes an [`Event`] for the page. Both arrive in one inbox,
//! which is also what the client reads the engine's lines from while it waits (orders that
//! come meanwhile are kept for after). An engine that exits is reported once and started
//! again at the next search; one silent past a timeout is killed (with its process group) and
//! reported the same way.

use std::collections::VecDeque;
use std::fmt;
use std::process::ChildStdin;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::{Duration, Instant};

use serde::Serialize;
use tokio::sync::mpsc::Sender as EventSender;

use super::EngineConfig;
use crate::process::{EngineProcess, SpawnError};
use lielow_engine::limits::Limits;
use lielow_engine::ugi::client::{self, Client, ClientError, Heard, Lines, Next, Said};
use lielow_engine::ugi::PositionCommand;
use lielow_rules::moves::Move;
use lielow_rules::position::Position;

/// How long an engine may take to answer `ugi` and `isready`.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// `Skill Level` at full strength, a fresh engine's.
const FULL_STRENGTH: u32 = 20;
/// How long past its budget a searching engine may stay silent before it is declared hung.
const SILENCE_ALLOWANCE: Duration = Duration::from_secs(4);

/// A search the page asks for: a game already checked by the rules core, and how to search it.
#[derive(Clone, Debug)]
pub struct SearchOrder {
    /// Where the game started.
    pub start: Position,
    /// The moves since, all legal.
    pub moves: Vec<Move>,
    /// What bounds the search.
    pub limits: Limits,
    /// Principal variations wanted (MultiPV).
    pub lines: u32,
    /// The `Skill Level` wanted (20: full strength, which a fresh engine has).
    pub skill: u32,
    /// The page's number for it, returned with every event, so the page can drop stale ones.
    pub search: u64,
}

impl SearchOrder {
    /// The longest the search may take (for the hang check): its movetime, or else the
    /// longer clock with its increment, unless infinite; `None`: until `stop`.
    fn budget(&self) -> Option<Duration> {
        if self.limits.infinite {
            return None;
        }
        let clock = self.limits.clock.map(|clock| {
            clock.time.iter().max().copied().unwrap_or(0)
                + clock.increment.iter().max().copied().unwrap_or(0)
        });
        self.limits.movetime.or(clock).map(Duration::from_millis)
    }
}

/// What the page asks of the engine.
#[derive(Clone, Debug)]
pub enum Order {
    /// Search a position (a new search replaces the one under way, whose `bestmove` is
    /// dropped). Boxed: two positions are large beside the other orders.
    Search(Box<SearchOrder>),
    /// Stop the running search (its `bestmove` still comes).
    Stop,
    /// End the engine (the page went away, or the server stops).
    Quit,
}

/// What the page hears about an engine, as JSON with its kind in `type`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Event {
    /// One finished iteration of one line.
    Info {
        /// The search it belongs to.
        search: u64,
        /// Depth in plies.
        depth: Option<u32>,
        /// Which line (1 = best).
        multipv: u32,
        /// `cp X` or `mate N`, for the side to move.
        score: Option<String>,
        /// Nodes searched.
        nodes: Option<u64>,
        /// Nodes per second.
        nps: Option<u64>,
        /// Milliseconds since `go`.
        time: Option<u64>,
        /// The principal variation, moves separated by spaces.
        pv: String,
    },
    /// The search's move, as the engine wrote it (the page checks it).
    BestMove {
        /// The engine's name.
        engine: String,
        /// The move.
        #[serde(rename = "move")]
        mv: String,
        /// The search it ends.
        search: u64,
    },
    /// Something went wrong with the engine; it is started again at the next search.
    Error {
        /// The engine's name.
        engine: String,
        /// What happened.
        message: String,
        /// The search it ended, if one ran.
        search: Option<u64>,
    },
    /// `info string ...`: a message of the engine for the user.
    Message {
        /// The engine's name.
        engine: String,
        /// The message.
        text: String,
        /// The search it came during.
        search: u64,
    },
}

/// Why the engine could not be used.
#[derive(Debug)]
enum EngineError {
    /// It could not be started.
    Spawn(SpawnError),
    /// It did not answer as UGI asks.
    Protocol(ClientError),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Spawn(error) => error.fmt(f),
            EngineError::Protocol(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for EngineError {}

/// Messages to the engine's thread: orders, and what the reader thread of process number
/// `process` heard.
enum Message {
    Order(Order),
    Heard { process: u64, heard: Heard },
}

/// A handle on one engine's thread.
pub struct EngineHandle {
    orders: Sender<Message>,
}

impl EngineHandle {
    /// Starts the thread for `config`'s engine; events go to `events`. The process itself
    /// starts at the first search, and gets the config's options after each handshake.
    pub fn start(config: &EngineConfig, events: EventSender<Event>) -> EngineHandle {
        let (orders, inbox) = mpsc::channel();
        let feed = orders.clone();
        let config = config.clone();
        thread::spawn(move || EngineThread::new(config, events, feed).run(inbox));
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

/// A running process: its input, and the number its reader thread tags its lines with.
struct Running {
    process: EngineProcess,
    input: ChildStdin,
    id: u64,
}

/// The client's view of the thread's inbox while it waits for the engine: the current
/// process's lines; orders kept in `pending`; an earlier process's lines dropped.
struct Inbox<'a> {
    inbox: &'a Receiver<Message>,
    pending: &'a mut VecDeque<Order>,
    process: u64,
}

impl Lines for Inbox<'_> {
    fn next_line(&mut self, timeout: Duration) -> Next {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.inbox.recv_timeout(left) {
                Ok(Message::Order(order)) => self.pending.push_back(order),
                Ok(Message::Heard { process, heard }) if process == self.process => {
                    return match heard {
                        Heard::Line(line) => Next::Line(line),
                        Heard::Closed => Next::Closed,
                    }
                }
                Ok(Message::Heard { .. }) => {}
                Err(RecvTimeoutError::Timeout) => return Next::TimedOut,
                Err(RecvTimeoutError::Disconnected) => return Next::Closed,
            }
        }
    }
}

struct EngineThread {
    name: String,
    argv: Vec<String>,
    /// The `option.NAME=VALUE` settings of the command line, sent after each handshake.
    options: Vec<(String, String)>,
    events: EventSender<Event>,
    /// Where the reader thread of each process sends the engine's lines.
    feed: Sender<Message>,
    running: Option<Running>,
    /// Processes started so far: the number of the next one's lines.
    started: u64,
    /// The search under way: its number and when it must have ended.
    search: Option<(u64, Option<Instant>)>,
    /// The MultiPV the engine was last given.
    lines: u32,
    /// The `Skill Level` the engine was last given (sent only when it changes, so an engine
    /// without the option hears of it only when a level is chosen).
    skill: u32,
    /// Orders that came while the thread waited for the engine.
    pending: VecDeque<Order>,
}

impl EngineThread {
    fn new(config: EngineConfig, events: EventSender<Event>, feed: Sender<Message>) -> Self {
        EngineThread {
            name: config.name,
            argv: config.argv,
            options: config.options,
            events,
            feed,
            running: None,
            started: 0,
            search: None,
            lines: 1,
            skill: FULL_STRENGTH,
            pending: VecDeque::new(),
        }
    }

    /// Passes `event` on to the page's stream. A page so far behind that its stream is full
    /// loses the event (as the old event log dropped its oldest): the engine's thread never
    /// waits for a page. A page that is gone loses it too.
    fn event(&self, event: Event) {
        let _ = self.events.try_send(event);
    }

    fn error(&self, message: impl Into<String>) {
        self.event(Event::Error {
            engine: self.name.clone(),
            message: message.into(),
            search: self.search.map(|(id, _)| id),
        });
    }

    /// The client of the running process, reading its lines from `inbox`.
    fn client<'a>(
        &'a mut self,
        inbox: &'a Receiver<Message>,
    ) -> Option<Client<&'a mut ChildStdin, Inbox<'a>>> {
        let running = self.running.as_mut()?;
        let lines = Inbox {
            inbox,
            pending: &mut self.pending,
            process: running.id,
        };
        Some(Client::new(&mut running.input, lines))
    }

    /// Starts the process and completes the handshake.
    fn start_process(&mut self, inbox: &Receiver<Message>) -> Result<(), EngineError> {
        let spawned = EngineProcess::spawn(&self.argv).map_err(EngineError::Spawn)?;
        self.started += 1;
        let id = self.started;
        let feed = self.feed.clone();
        client::spawn_reader(spawned.output, move |heard| {
            feed.send(Message::Heard { process: id, heard }).is_ok()
        });
        self.running = Some(Running {
            process: spawned.process,
            input: spawned.input,
            id,
        });
        self.lines = 1;
        self.skill = FULL_STRENGTH;
        let options = self.options.clone();
        let mut client = self.client(inbox).expect("started above");
        client
            .handshake(&options, HANDSHAKE_TIMEOUT)
            .map(drop)
            .map_err(EngineError::Protocol)
    }

    fn end_process(&mut self) {
        if let Some(running) = self.running.take() {
            running.process.kill();
        }
        self.search = None;
    }

    fn run(mut self, inbox: Receiver<Message>) {
        loop {
            let end = self.search.and_then(|(_, end)| end);
            // Orders that came while the engine was being waited for go first.
            let message = if let Some(order) = self.pending.pop_front() {
                Message::Order(order)
            } else if let Some(end) = end {
                match inbox.recv_timeout(end.saturating_duration_since(Instant::now())) {
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
                    if self.search.is_some() {
                        if let Some(mut client) = self.client(&inbox) {
                            let _ = client.stop();
                        }
                    }
                }
                Message::Order(Order::Search(order)) => self.search_for(&inbox, order),
                Message::Heard { process, heard } => {
                    if self.running.as_ref().is_some_and(|r| r.id == process) {
                        match heard {
                            Heard::Line(line) => self.heard(&line),
                            Heard::Closed => {
                                self.error(
                                    "the engine exited; it will be started again at the next move",
                                );
                                self.end_process();
                            }
                        }
                    }
                }
            }
        }
        self.end_process();
    }

    fn search_for(&mut self, inbox: &Receiver<Message>, order: Box<SearchOrder>) {
        if self.search.is_some() {
            // A new search replaces the old one: stop it and let its bestmove pass unseen. An
            // engine that cannot even do that is replaced by a fresh one.
            let stopped = self
                .client(inbox)
                .map(|mut client| client.stop_search(HANDSHAKE_TIMEOUT));
            if let Some(Err(_)) = stopped {
                self.end_process();
            }
        }
        if self.running.is_none() {
            if let Err(error) = self.start_process(inbox) {
                self.search = Some((order.search, None));
                self.error(format!("cannot use the engine: {error}"));
                self.end_process();
                return;
            }
        }
        let position = PositionCommand::game(&order.start, &order.moves);
        let multipv = (order.lines != self.lines).then_some(order.lines);
        self.lines = order.lines;
        let skill = (order.skill != self.skill).then_some(order.skill);
        self.skill = order.skill;
        let mut client = self.client(inbox).expect("started above");
        let taken = multipv
            .map_or(Ok(()), |lines| client.set_option("MultiPV", lines))
            .and_then(|()| skill.map_or(Ok(()), |level| client.set_option("Skill Level", level)))
            .and_then(|()| client.go(&position, &order.limits, HANDSHAKE_TIMEOUT));
        if taken.is_err() {
            self.search = Some((order.search, None));
            self.error("the engine did not take the position");
            self.end_process();
            return;
        }
        let end = order
            .budget()
            .map(|budget| Instant::now() + budget + SILENCE_ALLOWANCE);
        self.search = Some((order.search, end));
    }

    fn heard(&mut self, line: &str) {
        let Some((search, _)) = self.search else {
            return;
        };
        let engine = self.name.clone();
        match client::read_line(line) {
            Said::BestMove(best) => {
                self.search = None;
                self.event(Event::BestMove {
                    engine,
                    mv: best.text,
                    search,
                });
            }
            Said::Info(info) => self.event(Event::Info {
                search,
                depth: info.depth,
                multipv: info.multipv.unwrap_or(1),
                score: info.score.map(|s| s.to_string()),
                nodes: info.nodes,
                nps: info.nps,
                time: info.time_ms,
                pv: info.pv.join(" "),
            }),
            Said::Message(text) => self.event(Event::Message {
                engine,
                text: text.to_owned(),
                search,
            }),
            Said::Searching(_) | Said::Other => {}
        }
    }
}
