//! What a player reads: board pictures (`lielow board`), game review (`lielow analyse`) and
//! proofs of won and lost positions (`lielow solve`). Built on the rules core, the search and
//! the [`diagram`](crate::diagram) renderer; nothing below imports it.
//!
//! - [`command`]: the subcommands' flags and what they print; [`command_error`]: why they stop;
//! - [`review`]: a game's moves judged (labels, accuracy, turning point);
//!   [`review_claims`]: what a label may claim, and the proofs behind claims of forced results;
//!   [`review_report`]: as a table and as JSON; [`html`]: as a page with the board at every ply;
//! - [`solve`]: proofs by depth-first proof-number search, and their replay.

pub mod command;
pub mod command_error;
pub mod html;
pub mod review;
pub mod review_claims;
pub mod review_report;
pub mod solve;
