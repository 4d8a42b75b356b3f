//! Every option's value in a session, each held in one place.

use lielow_rules::board::BoardSize;

use crate::nnue::Network;
use crate::search::{Params, SearchSettings};
use crate::ugi;

/// The session's options. The session reads them here and nowhere else; its searcher is
/// configured from `search` whenever that changes or a searcher is replaced (after a search
/// panicked), so a searcher never holds a setting the session does not.
#[derive(Clone)]
pub struct Settings {
    /// `Hash`: the table size wanted, in MiB. It is allocated at the next `isready` or `go`, not
    /// when set (UCI asks engines to take no large memory before `isready`); a size the machine
    /// cannot give is replaced here by the size kept.
    pub hash_mb: usize,
    /// `BoardSize`: what `startpos` means.
    pub board_size: BoardSize,
    /// `Ponder`: `bestmove` names the expected reply.
    pub ponder: bool,
    /// `Threads`, `MultiPV`, `Move Overhead`, the search parameters and `EvalFile`: what the
    /// searcher is configured with.
    pub search: SearchSettings,
}

impl Default for Settings {
    /// Every option at its default in the option table (`ugi::OPTIONS`).
    fn default() -> Settings {
        Settings {
            hash_mb: ugi::HASH.default as usize,
            board_size: BoardSize::from_n(ugi::BOARD_SIZE.default as usize)
                .unwrap_or(BoardSize::Eight),
            ponder: ugi::PONDER.default,
            search: SearchSettings {
                threads: ugi::THREADS.default as usize,
                multipv: ugi::MULTI_PV.default as usize,
                move_overhead_ms: ugi::MOVE_OVERHEAD.default,
                params: Params::default(),
                // `EvalFile`'s default, `embedded` (a test checks that the table says so).
                network: Some(Network::embedded()),
            },
        }
    }
}
