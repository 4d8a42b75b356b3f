//! The protocol session: the current game (start position, moves, position), the options, the
//! searcher, and the threads that keep the input loop responsive.
//!
//! The input loop ([`run`]) is the stdin reader and never waits for a search: `go`, `go perft`
//! and `bench` run as a job on a worker thread (`jobs.rs`) that reports through the shared
//! [`Output`]. A search job owns the [`Searcher`] while it runs and hands it back when joined;
//! the loop reclaims it only once the job has finished, so `isready`, `query`, `d` and `stop`
//! are answered at once even mid-search. `stop` and `quit` set the job's atomic stop flag, which
//! the search polls.
//!
//! The options live in one [`Settings`] value (`settings.rs`), which outlives any searcher: the
//! searcher is configured from it, and a searcher lost to a panicked search is replaced by one
//! configured from it again.

mod jobs;
mod settings;
#[cfg(test)]
mod tests;

use std::io::{BufRead, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;

use crate::bench;
use crate::limits::Limits;
use crate::search::{SearchSettings, Searcher};
use crate::ugi::{self, Command, CommandError, OptionSetting, PositionCommand, Start};
use jobs::{perft_job, search_job, Job, JobKind, SearchJob};
use lielow_rules::moves::Move;

/// The most refused `go searchmoves` moves an error line names (the others are counted).
const REFUSED_MOVES_NAMED: usize = 5;
use lielow_rules::position::Position;
pub use settings::{Settings, Strength};

/// The longest input line read whole (far above any real `position` line: a game is a few
/// hundred moves); the rest of a longer line is skipped and the line refused.
pub const MAX_LINE: usize = 4 << 20;

/// Stack of the search thread: the search recurses once per ply on copy-made positions.
const SEARCH_STACK: usize = 32 << 20;

/// The engine's stdout, shared by the loop and the worker: each call writes whole lines under
/// the lock and flushes, so lines never interleave and a runner sees every reply at once.
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    /// Wraps the writer replies go to (stdout in the program, a buffer in tests).
    pub fn new(writer: Box<dyn Write + Send>) -> Output {
        Output(Arc::new(Mutex::new(writer)))
    }

    /// Writes `text` (one or more lines, without the final newline) and flushes. Write errors
    /// (a reader that went away) are ignored: the loop ends at end of input anyway.
    pub fn send(&self, text: &str) {
        let mut writer = self
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let _ = writer.write_all(text.as_bytes());
        let _ = writer.write_all(b"\n");
        let _ = writer.flush();
    }
}

/// The session state behind the protocol.
pub struct Engine {
    out: Output,
    /// Every option's value.
    settings: Settings,
    /// The moves played since the game's start position (shown by `d`).
    moves: Vec<Move>,
    position: Position,
    /// `None` only while a search job holds it.
    searcher: Option<Searcher>,
    job: Option<Job>,
    /// Tests only: how many of the next searches panic (at their first report).
    #[cfg(test)]
    searches_to_panic: usize,
}

/// Whether the loop goes on after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

impl Engine {
    /// A session with the default options and the 8x8 start position.
    pub fn new(out: Output) -> Engine {
        let settings = Settings::default();
        let mut engine = Engine {
            out,
            position: Position::start(settings.board_size),
            settings,
            moves: Vec::new(),
            searcher: None,
            job: None,
            #[cfg(test)]
            searches_to_panic: 0,
        };
        engine.searcher = Some(engine.fresh_searcher());
        engine
    }

    /// A searcher configured from the settings (at start, or after a search panicked). Its
    /// table is allocated at the next `isready` or `go` ([`Engine::allocate_table`]): UCI asks
    /// engines not to take large memory before `isready`.
    fn fresh_searcher(&self) -> Searcher {
        let mut searcher = Searcher::without_table();
        if let Err(why) = searcher.configure(&self.settings.search) {
            self.out.send(&ugi::error_line(why));
        }
        searcher
    }

    /// Handles one input line.
    fn handle(&mut self, line: &str) -> Flow {
        let command = match line.parse::<Command>() {
            Ok(command) => command,
            Err(CommandError::Empty) => return Flow::Continue,
            Err(error) => {
                self.out.send(&ugi::error_line(error));
                return Flow::Continue;
            }
        };
        match command {
            Command::Hello(dialect) => self.out.send(&ugi::handshake(dialect)),
            Command::IsReady => {
                // `readyok` is the sign that the table is allocated.
                self.allocate_table();
                self.out.send("readyok");
            }
            Command::SetOption(setting) => self.set_option(setting),
            Command::NewGame => {
                if let Some(searcher) = self.idle_searcher("uginewgame") {
                    searcher.new_game();
                    self.reset_game();
                }
            }
            Command::Position(command) => self.set_position(command),
            Command::Go(go) => {
                if !go.ignored.is_empty() {
                    self.out.send(&ugi::ignored_words_line(&go.ignored));
                }
                self.go(go.limits, &go.searchmoves)
            }
            Command::Perft(depth) => self.start_perft(depth),
            Command::Bench(depth) => self.start_bench(depth.unwrap_or(bench::DEFAULT_DEPTH)),
            Command::Stop => {
                // Stop with nothing running is ignored silently: a stop that crosses a search's
                // own bestmove is normal and not the client's mistake.
                if let Some(job) = &self.job {
                    job.signal_stop();
                }
            }
            Command::PonderHit => {
                // Like stop, a ponderhit with no ponder search running is ignored silently.
                if let Some(job) = &self.job {
                    job.signal_ponderhit();
                }
            }
            Command::Quit => return Flow::Quit,
            Command::Query(query) => self.out.send(&ugi::response(query, &self.position)),
            Command::Display => self
                .out
                .send(&ugi::board_picture(&self.position, self.moves.len())),
            Command::Help => self.out.send(&ugi::help_text()),
            Command::Eval => self.out.send(&ugi::eval_report(
                &self.position,
                self.settings.search.network.as_deref(),
            )),
        }
        Flow::Continue
    }

    /// Gives the idle searcher's table the `Hash` size if it has another (or none yet). A size
    /// the machine cannot give is reported in one error line, and the previous table is kept
    /// (at start, the default size is taken instead).
    fn allocate_table(&mut self) {
        self.reap(false);
        let wanted = self.settings.hash_mb;
        let Some(searcher) = self.searcher.as_mut() else {
            return; // a job holds it: its table was allocated before the job started
        };
        if searcher.hash_mb() == wanted {
            return;
        }
        if let Err(why) = searcher.set_hash_mb(wanted) {
            if searcher.hash_mb() == 0 {
                // Nothing was allocated yet: the default size was had at every start so far.
                let _ = searcher.set_hash_mb(ugi::HASH.default as usize);
            }
            self.settings.hash_mb = searcher.hash_mb();
            self.out.send(&ugi::error_line(format!(
                "Hash {wanted} MiB: {why}; keeping {} MiB",
                self.settings.hash_mb
            )));
        }
    }

    /// A new game from the start position of `BoardSize`.
    fn reset_game(&mut self) {
        self.position = Position::start(self.settings.board_size);
        self.moves.clear();
    }

    /// Joins a finished job (or, with `wait`, any job), taking back its searcher.
    fn reap(&mut self, wait: bool) {
        let Some(job) = self
            .job
            .take_if(|job| wait || job.finished.load(Ordering::SeqCst))
        else {
            return;
        };
        match (job.kind, job.handle.join()) {
            (_, Ok(Some(searcher))) => self.searcher = Some(searcher),
            // The search panicked (its searcher was dropped), or its thread did.
            (JobKind::Search, Ok(None) | Err(_)) => self.searcher = Some(self.fresh_searcher()),
            (JobKind::Perft | JobKind::Bench, Ok(None) | Err(_)) => {}
        }
    }

    /// The searcher when no job runs; otherwise one error line naming what was refused.
    fn idle_searcher(&mut self, what: &str) -> Option<&mut Searcher> {
        // A search told to stop ends within milliseconds: wait for it, as GUIs send `stop`,
        // `position`, `go` without waiting for the `bestmove` in between.
        let stopping = self
            .job
            .as_ref()
            .is_some_and(|job| job.kind == JobKind::Search && job.stop.load(Ordering::SeqCst));
        self.reap(stopping);
        if let Some(job) = &self.job {
            let running = match job.kind {
                JobKind::Search => "a search",
                JobKind::Perft => "go perft",
                JobKind::Bench => "bench",
            };
            self.out.send(&ugi::error_line(format!(
                "{what} refused: {running} is running (send stop first)"
            )));
            return None;
        }
        self.searcher.as_mut()
    }

    /// `setoption`: each setting goes to its one place in [`Settings`]; what the searcher
    /// uses is applied to it at once (refused while a job runs).
    fn set_option(&mut self, setting: OptionSetting) {
        match setting {
            // The position is the loop's, not the search's: it can change mid-search.
            OptionSetting::BoardSize(size) => {
                self.settings.board_size = size;
                self.reset_game();
            }
            // Read when the next `go` starts.
            OptionSetting::Ponder(on) => self.settings.ponder = on,
            OptionSetting::HashMb(megabytes) => {
                // Allocated at the next `isready` or `go`, which report a size that cannot be
                // had.
                if self.idle_searcher("setoption Hash").is_some() {
                    self.settings.hash_mb = megabytes;
                }
            }
            OptionSetting::ClearHash => {
                if let Some(searcher) = self.idle_searcher("setoption Clear Hash") {
                    searcher.clear_hash();
                }
            }
            OptionSetting::Threads(threads) => {
                self.configure("setoption Threads", |search| search.threads = threads);
            }
            OptionSetting::MultiPv(lines) => {
                self.configure("setoption MultiPV", |search| search.multipv = lines);
            }
            OptionSetting::MoveOverheadMs(milliseconds) => {
                self.configure("setoption Move Overhead", |search| {
                    search.move_overhead_ms = milliseconds
                });
            }
            OptionSetting::SkillLevel(level) => self.set_strength(|s| s.level = level),
            OptionSetting::LimitStrength(on) => self.set_strength(|s| s.limit = on),
            OptionSetting::Elo(elo) => self.set_strength(|s| s.elo = elo),
            OptionSetting::SkillSeed(seed) => self.set_strength(|s| s.seed = seed),
            OptionSetting::SearchParam(param) => {
                self.configure("setoption", |search| param.apply(&mut search.params));
            }
            OptionSetting::EvalFile(choice) => {
                // Checked first: a file is not read for a setting that would be refused.
                if self.idle_searcher("setoption EvalFile").is_none() {
                    return;
                }
                match choice.load() {
                    Ok(network) => {
                        self.configure("setoption EvalFile", |search| search.network = network);
                    }
                    Err(why) => self.out.send(&ugi::error_line(format!(
                        "EvalFile '{}': {why}",
                        ugi::shown(&choice.to_string())
                    ))),
                }
            }
        }
    }

    /// Changes the strength options with `change`, and the searcher's skill to what they now
    /// make; kept only if the searcher takes it.
    fn set_strength(&mut self, change: impl FnOnce(&mut Strength)) {
        let mut wanted = self.settings.strength;
        change(&mut wanted);
        let skill = wanted.skill();
        if self.configure("setoption", |search| search.skill = skill) {
            self.settings.strength = wanted;
        }
    }

    /// Changes the search settings with `change` and configures the idle searcher from them;
    /// kept only if the searcher takes them (`what` names the command refused while a job
    /// runs). Returns whether they were kept.
    fn configure(&mut self, what: &str, change: impl FnOnce(&mut SearchSettings)) -> bool {
        let mut wanted = self.settings.search.clone();
        change(&mut wanted);
        let Some(searcher) = self.idle_searcher(what) else {
            return false;
        };
        match searcher.configure(&wanted) {
            Ok(()) => {
                self.settings.search = wanted;
                true
            }
            // Nothing was applied: searcher and settings keep what they had.
            Err(why) => {
                self.out.send(&ugi::error_line(why));
                false
            }
        }
    }

    /// `position`: all or nothing; the first bad move is named with its number (from 1).
    fn set_position(&mut self, command: PositionCommand) {
        let start = match command.start {
            Start::StartPos => Position::start(self.settings.board_size),
            Start::Fen(position) => *position,
        };
        match start.replay(&command.moves) {
            Ok((position, moves)) => {
                self.moves = moves;
                self.position = position;
            }
            Err(error) => self.out.send(&ugi::error_line(format!(
                "position: {error}; position unchanged"
            ))),
        }
    }

    /// `go`: `searchmoves` (as written) restricts the root moves; illegal ones are named in one
    /// error line and the rest searched.
    fn go(&mut self, limits: Limits, searchmoves: &[String]) {
        // First wait for a stopped search to end: the game-over answer must not depend on
        // whether its thread has finished yet.
        if self.idle_searcher("go").is_none() {
            return;
        }
        self.allocate_table();
        if let Some(winner) = self.position.winner() {
            self.out.send(&ugi::game_over_line(winner));
            self.out.send(&ugi::bestmove_line(None));
            return;
        }
        let mut root_moves = Vec::with_capacity(searchmoves.len());
        let mut refused = Vec::new();
        let mut refused_count = 0;
        for text in searchmoves {
            match self.position.parse_move(text) {
                Ok(mv) if !root_moves.contains(&mv) => root_moves.push(mv),
                Ok(_) => {}
                Err(error) => {
                    refused_count += 1;
                    if refused.len() < REFUSED_MOVES_NAMED {
                        refused.push(format!("'{}' ({error})", ugi::shown(text)));
                    }
                }
            }
        }
        if !refused.is_empty() {
            let kept = if root_moves.is_empty() {
                "no move left to search".to_owned()
            } else {
                format!("searching the other {}", root_moves.len())
            };
            // The first few refused moves are named, the rest counted: the line stays short
            // however many were sent.
            let mut named = refused.join(", ");
            if refused_count > refused.len() {
                named.push_str(&format!(" and {} more", refused_count - refused.len()));
            }
            self.out
                .send(&ugi::error_line(format!("go searchmoves: {named}; {kept}")));
            if root_moves.is_empty() {
                self.out.send(&ugi::bestmove_line(None));
                return;
            }
        }
        let Some(searcher) = self.searcher.take() else {
            return;
        };
        let ponderhit = searcher.ponderhit_signal();
        ponderhit.store(false, Ordering::Release);
        let job = SearchJob {
            position: self.position,
            limits,
            root_moves,
            name_reply: self.settings.ponder,
            ponderhit: Arc::clone(&ponderhit),
            #[cfg(test)]
            panic_at_first_report: self
                .searches_to_panic
                .checked_sub(1)
                .map(|left| self.searches_to_panic = left)
                .is_some(),
        };
        self.spawn(JobKind::Search, move |stop, finished, out| {
            search_job(searcher, job, stop, finished, out)
        });
        if let Some(job) = self.job.as_mut().filter(|_| limits.ponder) {
            job.ponderhit = Some(ponderhit);
        }
    }

    fn start_perft(&mut self, depth: u32) {
        if self.idle_searcher("go perft").is_none() {
            return;
        }
        let position = self.position;
        self.spawn(JobKind::Perft, move |stop, finished, out| {
            perft_job(&position, depth, &stop, &finished, &out);
            None
        });
    }

    fn start_bench(&mut self, depth: u32) {
        if self.idle_searcher("bench").is_none() {
            return;
        }
        let network = self.settings.search.network.clone();
        self.spawn(JobKind::Bench, move |stop, finished, out| {
            let result = bench::run_until(depth, 1, network, &stop);
            if result.positions < bench::POSITIONS.len() {
                out.send(&format!(
                    "info string bench stopped after {} of {} positions: the total is partial",
                    result.positions,
                    bench::POSITIONS.len()
                ));
            }
            finished.store(true, Ordering::SeqCst);
            out.send(&format!("{} nodes {} nps", result.nodes, result.nps));
            None
        });
    }

    /// Starts `work` on a worker thread. If no thread can be created, the error is reported
    /// and, for a search, a fresh searcher replaces the one that went down with `work`.
    fn spawn<F>(&mut self, kind: JobKind, work: F)
    where
        F: FnOnce(Arc<AtomicBool>, Arc<AtomicBool>, Output) -> Option<Searcher> + Send + 'static,
    {
        let stop = Arc::new(AtomicBool::new(false));
        let finished = Arc::new(AtomicBool::new(false));
        let (job_stop, job_finished, out) = (stop.clone(), finished.clone(), self.out.clone());
        let spawned = thread::Builder::new()
            .name(format!("{kind:?}").to_lowercase())
            .stack_size(SEARCH_STACK)
            .spawn(move || work(job_stop, job_finished, out));
        match spawned {
            Ok(handle) => {
                self.job = Some(Job {
                    kind,
                    stop,
                    finished,
                    handle,
                    ponderhit: None,
                })
            }
            Err(error) => {
                self.out
                    .send(&ugi::error_line(format!("cannot start a thread: {error}")));
                if kind == JobKind::Search {
                    self.searcher = Some(self.fresh_searcher());
                }
            }
        }
    }

    /// End of the session (`quit` or end of input): the job is stopped and joined (every job
    /// ends within milliseconds of `stop`), so a search's `bestmove` is printed.
    fn shutdown(&mut self) {
        if let Some(job) = &self.job {
            job.signal_stop();
            self.reap(true);
        }
    }
}

/// Reads one line into `buffer` (without its line ending). Returns `Ok(false)` at end of input;
/// a line longer than [`MAX_LINE`] is consumed whole but only its first bytes kept, and reported
/// by `too_long`.
fn read_line(
    input: &mut impl BufRead,
    buffer: &mut Vec<u8>,
    too_long: &mut bool,
) -> std::io::Result<bool> {
    buffer.clear();
    *too_long = false;
    let read = input
        .by_ref()
        .take(MAX_LINE as u64)
        .read_until(b'\n', buffer)?;
    if read == 0 {
        return Ok(false);
    }
    if buffer.last() != Some(&b'\n') && buffer.len() >= MAX_LINE {
        *too_long = true;
        // Skip the rest of the line without keeping it.
        loop {
            let chunk = input.fill_buf()?;
            if chunk.is_empty() {
                break;
            }
            match chunk.iter().position(|&b| b == b'\n') {
                Some(at) => {
                    input.consume(at + 1);
                    break;
                }
                None => {
                    let length = chunk.len();
                    input.consume(length);
                }
            }
        }
    }
    while matches!(buffer.last(), Some(b'\n' | b'\r')) {
        buffer.pop();
    }
    Ok(true)
}

/// Runs the protocol on `input` / `output` until `quit` or end of input, after the one-line
/// [greeting](ugi::greeting); returns the exit code.
pub fn run(mut input: impl BufRead, output: Box<dyn Write + Send>) -> i32 {
    let mut engine = Engine::new(Output::new(output));
    engine.out.send(&ugi::greeting());
    let mut buffer = Vec::with_capacity(4096);
    let mut too_long = false;
    loop {
        match read_line(&mut input, &mut buffer, &mut too_long) {
            Ok(true) => {}
            Ok(false) => break,
            Err(error) => {
                engine
                    .out
                    .send(&ugi::error_line(format!("reading input: {error}")));
                break;
            }
        }
        if too_long {
            engine.out.send(&ugi::error_line(format!(
                "line longer than {MAX_LINE} bytes ignored"
            )));
            buffer = Vec::with_capacity(4096);
            continue;
        }
        let line = String::from_utf8_lossy(&buffer);
        if engine.handle(&line) == Flow::Quit {
            break;
        }
    }
    engine.shutdown();
    0
}
