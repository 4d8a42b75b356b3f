//! The progress of the long commands (`datagen`, `match`, `spsa`, `analyse`, `solve`, `train`)
//! on standard error: a bar on a terminal, plain lines everywhere else.
//!
//! When stderr is a terminal, a [`Progress`] draws an `indicatif` bar: the time spent, how far
//! the work is, its rate and the time left, and a message the command keeps up to date; lines
//! worth keeping (a finished game) are printed above it. When stderr is a file or a pipe (a
//! log, a script, a test), nothing is drawn and the command's plain progress lines are written
//! one per line, their text unchanged, since scripts and tests read them.
//!
//! A command says, for every step, both forms: the bar's position and message
//! ([`Progress::set`]) and the plain line a log gets ([`Progress::log`]); only one of them
//! shows.

use std::borrow::Cow;
use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// The bar of work of a known size: elapsed time, the bar, the count done of the total, the
/// rate and the time left, then the command's message.
const BAR: &str = "[{elapsed_precise}] [{bar:30.cyan/blue}] {pos}/{len} {prefix} ({per_sec:1}, ETA {eta}) {wide_msg}";

/// The spinner of work of unknown size: elapsed time and the command's message.
const SPINNER: &str = "{spinner} [{elapsed_precise}] {wide_msg}";

/// How often the bar is drawn again when nothing moves it (its clock keeps running).
const TICK: Duration = Duration::from_millis(500);

/// A command's progress on stderr: a bar when stderr is a terminal, plain lines otherwise.
#[derive(Clone, Debug)]
pub struct Progress {
    /// The bar, drawn on stderr; `None` when stderr is not a terminal.
    bar: Option<ProgressBar>,
}

impl Progress {
    /// A bar counting `len` steps of work, named by `unit` (`games`, `positions`), from 0.
    pub fn bar(len: u64, unit: &'static str) -> Progress {
        Progress::drawn(|| {
            ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr())
                .with_style(style(BAR))
                .with_prefix(unit)
        })
    }

    /// A spinner for work whose size is not known, with `message` beside it.
    pub fn spinner(message: impl Into<Cow<'static, str>>) -> Progress {
        Progress::drawn(|| {
            ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr())
                .with_style(style(SPINNER))
                .with_message(message)
        })
    }

    /// `make()` with a steady clock when stderr is a terminal; no bar otherwise.
    fn drawn(make: impl FnOnce() -> ProgressBar) -> Progress {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = make();
            bar.enable_steady_tick(TICK);
            bar
        });
        Progress { bar }
    }

    /// Whether a bar is drawn (stderr is a terminal).
    pub fn is_drawn(&self) -> bool {
        self.bar.is_some()
    }

    /// Moves the bar to `position` steps done, with `message` beside it (nothing without a
    /// bar).
    pub fn set(&self, position: u64, message: impl Into<Cow<'static, str>>) {
        if let Some(bar) = &self.bar {
            bar.set_position(position);
            bar.set_message(message);
        }
    }

    /// One more step done (nothing without a bar).
    pub fn step(&self) {
        if let Some(bar) = &self.bar {
            bar.inc(1);
        }
    }

    /// A plain progress line for logs: written to stderr when no bar is drawn (the bar shows
    /// the same on a terminal).
    pub fn log(&self, line: &str) {
        if self.bar.is_none() {
            eprintln!("{line}");
        }
    }

    /// A line to keep: printed above the bar on a terminal, on its own line otherwise.
    pub fn println(&self, line: &str) {
        match &self.bar {
            Some(bar) => bar.println(line),
            None => eprintln!("{line}"),
        }
    }

    /// Runs `print` with the bar taken off the screen, for output to stdout that shares the
    /// terminal; then draws it again.
    pub fn suspend<R>(&self, print: impl FnOnce() -> R) -> R {
        match &self.bar {
            Some(bar) => bar.suspend(print),
            None => print(),
        }
    }

    /// Stops the bar and leaves its last state on the screen.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.abandon();
        }
    }

    /// Stops the bar and takes it off the screen.
    pub fn clear(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// The style of `template`, one of this module's constants.
fn style(template: &str) -> ProgressStyle {
    ProgressStyle::with_template(template)
        .expect("the templates are valid")
        .progress_chars("=> ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_templates_are_valid() {
        for template in [BAR, SPINNER] {
            assert!(ProgressStyle::with_template(template).is_ok(), "{template}");
        }
    }

    #[test]
    fn a_bar_follows_the_steps_and_plain_lines_need_none() {
        let hidden = ProgressBar::hidden().with_style(style(BAR));
        let drawn = Progress {
            bar: Some(hidden.clone()),
        };
        assert!(drawn.is_drawn());
        drawn.set(3, "positions 120");
        assert_eq!(
            (hidden.position(), hidden.message()),
            (3, "positions 120".into())
        );
        drawn.step();
        assert_eq!(hidden.position(), 4);
        assert_eq!(drawn.suspend(|| 7), 7);
        drawn.finish();
        assert!(hidden.is_finished());

        let plain = Progress { bar: None };
        assert!(!plain.is_drawn());
        plain.set(3, "not drawn");
        assert_eq!(plain.suspend(|| 7), 7);
    }
}
