//! Engine-vs-engine matches and tournaments (`lielow match`) and opening books (`lielow openings`).
//!
//! The runner referees every game itself with the rules core: engines (external UGI programs or
//! built-in players, [`crate::players`]) only propose moves. Its parts:
//!
//! - [`command`]: the two subcommands' flags and what they print; [`command_error`]: why they
//!   stop;
//! - [`runner`]: game pairs scheduled over the worker pool ([`crate::pool`]), the game loop and
//!   the referee; [`limits`]: what bounds each move;
//! - [`time_control`]: the clock of `--tc`, with or without periods of moves;
//! - [`stats`]: Elo, error bars, LOS and SPRT from game-pair statistics; [`report`]: the tally,
//!   progress line and table; [`summary`]: the same as JSON; [`merge`]: the summaries of a
//!   match's shards added up; [`outputs`]: the records, PGN and summary files written as games
//!   end; [`resume`]: the records file kept game by game and read back by `--resume`;
//!   [`pgn_file`]: the `--pgn` file, appended game by game and rebuilt from the records;
//!   [`apgame_file`]: the games as Abstract Play records (`--apgame`);
//! - [`crowded`]: capture-heavy middle games, the quiescence search's stress test.
//!
//! What other tools share with it lives below it: players and engine specs
//! ([`crate::players`]), engine processes ([`crate::process`]), game records
//! ([`crate::records`]), openings ([`crate::openings`]), shards ([`crate::shard`]) and game-end
//! reasons ([`crate::reason`]).

pub mod apgame_file;
pub mod command;
pub mod command_error;
pub mod crowded;
pub mod limits;
pub mod merge;
pub mod outputs;
pub mod pgn_file;
pub mod report;
pub mod resume;
pub mod runner;
pub mod stats;
pub mod summary;
pub mod time_control;
