//! Every option's value in a session, each held in one place.

use lielow_rules::board::BoardSize;

use crate::nnue::Network;
use crate::search::{Params, SearchSettings, Skill};
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
    /// `Skill Level`, `UCI_LimitStrength`, `UCI_Elo` and `Skill Seed` as set; the searcher
    /// gets the one [`Skill`] they make (`search.skill`).
    pub strength: Strength,
    /// `Threads`, `MultiPV`, `Move Overhead`, the search parameters, `EvalFile` and the skill:
    /// what the searcher is configured with.
    pub search: SearchSettings,
}

/// The strength options as set. Two ways to ask for a level, as in Stockfish: `Skill Level`,
/// or `UCI_Elo` when `UCI_LimitStrength` is on (which then wins).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strength {
    /// `Skill Level`: 0 to 20 (20: full strength).
    pub level: u32,
    /// `UCI_LimitStrength`: play at `UCI_Elo` instead.
    pub limit: bool,
    /// `UCI_Elo`: the strength asked for, on the calibrated ladder.
    pub elo: u32,
    /// `Skill Seed` (development option): seeds the pick; 0, from the clock.
    pub seed: u64,
}

impl Default for Strength {
    /// Every strength option at its default in the option table: full strength.
    fn default() -> Strength {
        Strength {
            level: ugi::SKILL_LEVEL.default as u32,
            limit: ugi::LIMIT_STRENGTH.default,
            elo: ugi::ELO.default as u32,
            seed: ugi::SKILL_SEED.default,
        }
    }
}

impl Strength {
    /// The handicap these options ask for.
    pub fn skill(&self) -> Skill {
        let skill = if self.limit {
            Skill::from_elo(self.elo)
        } else {
            Skill::level(self.level)
        };
        skill.seed(self.seed)
    }
}

impl Default for Settings {
    /// Every option at its default in the option table (`ugi::OPTIONS`).
    fn default() -> Settings {
        Settings {
            hash_mb: ugi::HASH.default as usize,
            board_size: BoardSize::from_n(ugi::BOARD_SIZE.default as usize)
                .unwrap_or(BoardSize::Eight),
            ponder: ugi::PONDER.default,
            strength: Strength::default(),
            search: SearchSettings {
                threads: ugi::THREADS.default as usize,
                multipv: ugi::MULTI_PV.default as usize,
                move_overhead_ms: ugi::MOVE_OVERHEAD.default,
                params: Params::default(),
                // `EvalFile`'s default, `embedded` (a test checks that the table says so).
                network: Some(Network::embedded()),
                skill: Strength::default().skill(),
            },
        }
    }
}
