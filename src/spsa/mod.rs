//! `lielow spsa`: tunes numeric engine options by simultaneous perturbation stochastic
//! approximation, as engine testing frameworks (fishtest, OpenBench) do: each iteration plays
//! game pairs between the engine at θ+c_kΔ and at θ−c_kΔ through the match runner and moves θ
//! along the score difference.
//!
//! - [`param_file`]: which options, from where, within what range, with what steps;
//! - [`gains`]: the schedules a_k and c_k, the signs Δ and the update (the conventions are in
//!   its doc);
//! - [`play`]: one iteration's games (or one shard's share) through the match runner;
//! - [`state`]: the state file written after every iteration and the shards' partial results;
//! - [`command`]: the flags and modes; [`error`]: why it stops.
//!
//! The cluster driver is `scripts/cluster/spsa.sh`: an array job of shards per iteration, then
//! `--update`.

pub mod command;
pub mod error;
pub mod gains;
pub mod param_file;
pub mod play;
pub mod state;
