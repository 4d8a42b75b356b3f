//! The client against engines in memory: a script answers each line the client writes, over
//! a pipe made of a channel, so every behaviour (silence, a closed output, stray lines, long
//! and broken lines) is exact and needs no process.

use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};

use super::*;
use crate::ugi::Start;
use lielow_rules::board::BoardSize;
use lielow_rules::position::Position;

/// What a scripted engine does with one line of input.
enum Act {
    /// Prints these lines.
    Print(Vec<&'static str>),
    /// Closes its output (exits).
    Exit,
}

fn print(lines: &[&'static str]) -> Act {
    Act::Print(lines.to_vec())
}

/// The engine's input: each complete line is recorded and answered by the script.
struct ScriptedInput {
    partial: Vec<u8>,
    script: Box<dyn FnMut(&str) -> Act + Send>,
    output: Option<Sender<Vec<u8>>>,
    written: Arc<Mutex<Vec<String>>>,
}

impl Write for ScriptedInput {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.partial.extend_from_slice(bytes);
        while let Some(end) = self.partial.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.partial.drain(..=end).collect();
            let line = String::from_utf8(line).unwrap().trim_end().to_owned();
            self.written.lock().unwrap().push(line.clone());
            match (self.script)(&line) {
                Act::Print(lines) => {
                    if let Some(output) = &self.output {
                        for printed in lines {
                            let _ = output.send(format!("{printed}\n").into_bytes());
                        }
                    }
                }
                Act::Exit => self.output = None,
            }
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The engine's output: the bytes the script printed, in order; its end when the script exits.
struct Pipe {
    chunks: Receiver<Vec<u8>>,
    chunk: Vec<u8>,
    at: usize,
}

impl Read for Pipe {
    fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
        if self.at == self.chunk.len() {
            match self.chunks.recv() {
                Ok(chunk) => (self.chunk, self.at) = (chunk, 0),
                Err(_) => return Ok(0),
            }
        }
        let n = buffer.len().min(self.chunk.len() - self.at);
        buffer[..n].copy_from_slice(&self.chunk[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// A client speaking to `script`, and the lines it wrote.
fn scripted(
    script: impl FnMut(&str) -> Act + Send + 'static,
) -> (Client<ScriptedInput>, Arc<Mutex<Vec<String>>>) {
    let (sender, chunks) = mpsc::channel();
    let written = Arc::new(Mutex::new(Vec::new()));
    let input = ScriptedInput {
        partial: Vec::new(),
        script: Box::new(script),
        output: Some(sender),
        written: Arc::clone(&written),
    };
    let output = Pipe {
        chunks,
        chunk: Vec::new(),
        at: 0,
    };
    (Client::reading(input, output), written)
}

/// An engine that introduces itself, and answers `isready`; `on_go` answers `go`.
fn polite(on_go: Vec<&'static str>) -> impl FnMut(&str) -> Act + Send + 'static {
    move |line| match line.split_whitespace().next() {
        Some("ugi") => print(&["id name scripted", "option name Hash type spin", "ugiok"]),
        Some("isready") => print(&["readyok"]),
        Some("go") => Act::Print(on_go.clone()),
        _ => print(&[]),
    }
}

const SHORT: Duration = Duration::from_millis(100);
const LONG: Duration = Duration::from_secs(10);

#[test]
fn the_handshake_sends_the_options_and_keeps_what_the_engine_said_about_them() {
    let (mut client, written) = scripted(|line| match line {
        "ugi" => print(&["id name scripted", "ugiok"]),
        "isready" => print(&[
            "info string error: unknown option 'Colour'",
            "info depth 1",
            "readyok",
        ]),
        _ => print(&[]),
    });
    let options = [
        ("Hash".to_owned(), "16".to_owned()),
        ("Colour".to_owned(), "blue".to_owned()),
    ];
    let notes = client.handshake(&options, LONG).unwrap();
    assert_eq!(notes, ["info string error: unknown option 'Colour'"]);
    assert_eq!(
        *written.lock().unwrap(),
        [
            "ugi",
            "setoption name Hash value 16",
            "setoption name Colour value blue",
            "isready"
        ]
    );
}

#[test]
fn a_silent_engine_is_a_timeout_not_a_hang() {
    let (mut client, _) = scripted(|_| print(&["id name mute"]));
    let asked = Instant::now();
    let error = client.handshake(&[], SHORT).unwrap_err();
    assert!(
        matches!(
            error,
            ClientError::Silent {
                awaited: Awaited::UgiOk,
                timeout: SHORT
            }
        ),
        "{error}"
    );
    assert_eq!(error.to_string(), "no ugiok within 100 ms");
    let waited = asked.elapsed();
    assert!(SHORT <= waited && waited < LONG, "{waited:?}");
}

#[test]
fn an_engine_that_exits_ends_the_wait_at_once() {
    let (mut client, _) = scripted(|line| match line {
        "ugi" => print(&["ugiok"]),
        _ => Act::Exit,
    });
    let asked = Instant::now();
    let error = client.handshake(&[], LONG).unwrap_err();
    assert!(
        matches!(error, ClientError::Closed(Awaited::ReadyOk)),
        "{error}"
    );
    assert!(asked.elapsed() < LONG / 2);
    // Every later wait ends at once too.
    assert!(matches!(
        client.ready(LONG),
        Err(ClientError::Closed(Awaited::ReadyOk))
    ));
}

#[test]
fn go_prints_the_position_through_the_barrier_and_reads_the_finished_depths() {
    let (mut client, written) = scripted(polite(vec![
        "info depth 1 score cp 3 nodes 20 pv a2-a3",
        "info depth 2 currmove a2-a3 currmovenumber 1",
        "info string thinking hard",
        "info depth 2 score cp -5 nodes 90 pv a2-a3 a7-a6",
        "bestmove a2-a3 ponder a7-a6",
    ]));
    client.handshake(&[], LONG).unwrap();
    let start = Position::start(BoardSize::Eight);
    let opening = start.legal_moves()[0];
    let position = PositionCommand::game(&start, &[opening]);
    let limits = Limits {
        depth: Some(2),
        ..Limits::default()
    };
    client.go(&position, &limits, LONG).unwrap();
    let mut depths = Vec::new();
    let best = client
        .wait_for_bestmove(LONG, |info| depths.push(info.depth))
        .unwrap();
    assert_eq!(
        best,
        BestMove {
            text: "a2-a3".into(),
            ponder: Some("a7-a6".into())
        }
    );
    assert_eq!(depths, [Some(1), Some(2)]);
    let written = written.lock().unwrap();
    assert_eq!(
        written[2..],
        [
            format!("position fen {} moves {opening}", start.to_lfen()),
            "isready".to_owned(),
            "go depth 2".to_owned()
        ]
    );
}

#[test]
fn stray_lines_before_readyok_answer_nothing() {
    // After its `bestmove`, the engine prints a second one and more `info`: the barrier of the
    // next move reads them, so the next `bestmove` is the next search's.
    let mut gos = 0;
    let (mut client, _) = scripted(move |line| match line.split_whitespace().next() {
        Some("ugi") => print(&["ugiok"]),
        Some("isready") => print(&["readyok"]),
        Some("go") => {
            gos += 1;
            if gos == 1 {
                print(&["bestmove a2-a3", "bestmove b2-b3", "info depth 9"])
            } else {
                print(&["bestmove c2-c3"])
            }
        }
        _ => print(&[]),
    });
    client.handshake(&[], LONG).unwrap();
    let position = PositionCommand {
        start: Start::StartPos,
        moves: Vec::new(),
    };
    let limits = Limits {
        movetime: Some(10),
        ..Limits::default()
    };
    for expected in ["a2-a3", "c2-c3"] {
        client.go(&position, &limits, LONG).unwrap();
        let best = client.wait_for_bestmove(LONG, |_| {}).unwrap();
        assert_eq!(best.text, expected);
    }
}

#[test]
fn a_stopped_search_drops_its_bestmove() {
    let (mut client, written) = scripted(|line| match line {
        "ugi" => print(&["ugiok"]),
        "isready" => print(&["readyok"]),
        "stop" => print(&["info depth 4", "bestmove a2-a3"]),
        _ => print(&[]),
    });
    client.handshake(&[], LONG).unwrap();
    let position = PositionCommand {
        start: Start::StartPos,
        moves: Vec::new(),
    };
    let limits = Limits {
        infinite: true,
        ponder: true,
        ..Limits::default()
    };
    client.go(&position, &limits, LONG).unwrap();
    client.stop_search(LONG).unwrap();
    // Nothing is left over for the next wait.
    let error = client.wait_for_bestmove(SHORT, |_| {}).unwrap_err();
    assert!(matches!(
        error,
        ClientError::Silent {
            awaited: Awaited::BestMove,
            ..
        }
    ));
    assert_eq!(
        written.lock().unwrap()[2..],
        ["position startpos", "isready", "go infinite ponder", "stop"]
    );
}

#[test]
fn long_lines_are_cut_and_broken_bytes_replaced() {
    let mut bytes = vec![b'x'; MAX_LINE + 10];
    bytes.extend_from_slice(b"\n\xff\xfe ok\r\nlast");
    let mut lines = LineChannel::reading(io::Cursor::new(bytes));
    let mut next = || lines.next_line(LONG);
    assert_eq!(next(), Next::Line("x".repeat(MAX_LINE)));
    assert_eq!(next(), Next::Line("x".repeat(10)));
    assert_eq!(next(), Next::Line("\u{fffd}\u{fffd} ok".to_owned()));
    assert_eq!(next(), Next::Line("last".to_owned()));
    assert_eq!(next(), Next::Closed);
    assert_eq!(next(), Next::Closed);
}

#[test]
fn an_engine_that_cannot_be_written_to_is_an_error() {
    struct Gone;
    impl Write for Gone {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::ErrorKind::BrokenPipe.into())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }
    let mut client = Client::reading(Gone, io::empty());
    let error = client.handshake(&[], LONG).unwrap_err();
    assert!(matches!(error, ClientError::Write(_)), "{error}");
    assert!(error.to_string().starts_with("cannot write to the engine"));
}

#[test]
fn each_line_is_read_as_what_it_is() {
    assert_eq!(
        read_line("bestmove a2-a3 ponder a7-a6"),
        Said::BestMove(BestMove {
            text: "a2-a3".into(),
            ponder: Some("a7-a6".into())
        })
    );
    assert_eq!(
        read_line("bestmove"),
        Said::BestMove(BestMove {
            text: String::new(),
            ponder: None
        })
    );
    assert_eq!(
        read_line("bestmove a2-a3 ponder"),
        Said::BestMove(BestMove {
            text: "a2-a3".into(),
            ponder: None
        })
    );
    assert!(matches!(
        read_line("info depth 3 multipv 2 score cp 12 pv a2-a3"),
        Said::Info(InfoFields {
            depth: Some(3),
            multipv: Some(2),
            ..
        })
    ));
    assert!(matches!(
        read_line("info depth 3 currmove a2-a3 currmovenumber 1"),
        Said::Searching(_)
    ));
    assert_eq!(
        read_line("info string hello there"),
        Said::Message("hello there")
    );
    assert_eq!(read_line("readyok"), Said::Other);
    assert_eq!(read_line("bestmovex a2-a3"), Said::Other);
}
