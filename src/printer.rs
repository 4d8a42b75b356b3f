//! What a command prints on standard output, when the reader may go away early.
//!
//! `println!` panics when standard output is a pipe whose reader has gone (`lielow train ... |
//! head`): Rust ignores `SIGPIPE`, so the write fails and the macro turns the failure into a
//! panic with a backtrace hint. A command's printed table is a report on its work, not the
//! work: a training run's product is its network file, a match's its records. So every command
//! prints through a [`Printer`], which stops printing at the first failed write and lets the
//! command finish: the network is written, the records are kept, and the exit status says how
//! the work went, not whether someone read about it.

use std::fmt::Display;
use std::io::Write;

/// Standard output, written line by line until the first write fails.
#[derive(Debug, Default)]
pub struct Printer {
    closed: bool,
}

impl Printer {
    /// A report on standard output.
    pub fn new() -> Printer {
        Printer::default()
    }

    /// Prints `line` and a newline, flushed at once (a long run's table is read as it grows).
    pub fn line(&mut self, line: impl Display) {
        self.write(format_args!("{line}\n"));
    }

    /// Prints `text` as it is (a table that ends its own lines).
    pub fn text(&mut self, text: &str) {
        self.write(format_args!("{text}"));
    }

    fn write(&mut self, text: std::fmt::Arguments<'_>) {
        if self.closed {
            return;
        }
        let mut stdout = std::io::stdout().lock();
        if stdout
            .write_fmt(text)
            .and_then(|()| stdout.flush())
            .is_err()
        {
            self.closed = true;
        }
    }
}
