//! The open pages. A page opens its session by opening its event stream (`GET /api/events`,
//! server-sent events), and the session lives exactly as long as that connection: the stream's
//! first event names the session, the engines' lines follow, and when the connection closes
//! (the tab was closed, the browser left) the stream is dropped, which ends the session and
//! its engines. Nothing else opens a session: an order for an unknown one is refused.

use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::response::sse::{self, KeepAlive, Sse};
use futures_util::stream::{self, Stream, StreamExt};
use tokio::sync::mpsc;

use super::api::{bad, Refusal, SessionOpened};
use super::engine::{EngineHandle, Event, Order};
use super::EngineConfig;

/// At most this many pages at once (each has its own engine processes).
pub const MAX_SESSIONS: usize = 16;
/// Events a page's stream holds while the page reads slower than its engines talk.
const EVENTS_KEPT: usize = 4096;
/// How often an idle stream sends a comment: the write that tells the server a page whose
/// connection died without a word (a machine asleep, a cable out) is gone.
const KEEP_ALIVE: Duration = Duration::from_secs(5);

/// The open pages, each with its engines (started at their first search).
pub struct Sessions {
    engines: Vec<EngineConfig>,
    open: Mutex<HashMap<String, Vec<EngineHandle>>>,
}

/// Ends its session when dropped: owned by the session's event stream.
struct Closer {
    sessions: Arc<Sessions>,
    name: String,
}

impl Drop for Closer {
    fn drop(&mut self) {
        // Dropping the handles sends each engine thread `quit`.
        self.sessions.lock().remove(&self.name);
    }
}

impl Sessions {
    /// No pages yet; each will get one engine of each of `engines`.
    pub fn new(engines: Vec<EngineConfig>) -> Sessions {
        Sessions {
            engines,
            open: Mutex::new(HashMap::new()),
        }
    }

    /// The engines' names, in `--engine` order.
    pub fn engine_names(&self) -> Vec<&str> {
        self.engines.iter().map(|e| e.name.as_str()).collect()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Vec<EngineHandle>>> {
        self.open.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Opens a session: its event stream, which ends the session when dropped.
    pub fn open(
        self: &Arc<Self>,
    ) -> Result<Sse<impl Stream<Item = Result<sse::Event, Infallible>>>, Refusal> {
        let (sender, receiver) = mpsc::channel::<Event>(EVENTS_KEPT);
        let name = format!("{:032x}", rand::random::<u128>());
        {
            let mut open = self.lock();
            if open.len() >= MAX_SESSIONS {
                return Err(Refusal {
                    status: 429,
                    message: format!("at most {MAX_SESSIONS} pages at once"),
                });
            }
            let engines = self
                .engines
                .iter()
                .map(|config| EngineHandle::start(config, sender.clone()))
                .collect();
            open.insert(name.clone(), engines);
        }
        let opened = sse::Event::default()
            .event("session")
            .json_data(SessionOpened { session: &name })
            .expect("a name serialises");
        let closer = Closer {
            sessions: Arc::clone(self),
            name,
        };
        let events = stream::unfold((receiver, closer), |(mut receiver, closer)| async move {
            let event = receiver.recv().await?;
            let data = sse::Event::default()
                .json_data(&event)
                .unwrap_or_else(|_| sse::Event::default().comment("unwritable event"));
            Some((data, (receiver, closer)))
        });
        let stream = stream::once(async { opened })
            .chain(events)
            .map(Ok::<_, Infallible>);
        Ok(Sse::new(stream).keep_alive(KeepAlive::new().interval(KEEP_ALIVE)))
    }

    /// Hands `order` to engine `engine` of session `name`.
    pub fn order(&self, name: &str, engine: usize, order: Order) -> Result<(), Refusal> {
        if engine >= self.engines.len() {
            return Err(bad(format!("no engine {engine}")));
        }
        let open = self.lock();
        let engines = open.get(name).ok_or_else(|| Refusal {
            status: 404,
            message: format!(
                "no session '{}': a page opens its session with its event stream",
                lielow_engine::ugi::shown(name)
            ),
        })?;
        engines[engine].send(order);
        Ok(())
    }
}
