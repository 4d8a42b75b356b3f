//! The Lielow engine: evaluation (hand-set and network), search, transposition table, time
//! management, the UGI protocol in both directions and the protocol session.

#![warn(missing_docs)]

pub mod bench;
pub mod eval;
pub mod limits;
pub mod nnue;
pub mod score;
pub mod search;
pub mod session;
pub mod time;
pub mod tt;
pub mod ugi;
