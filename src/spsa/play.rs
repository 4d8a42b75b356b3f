//! One iteration's games: θ+c_kΔ against θ−c_kΔ over the iteration's game pairs (or one
//! shard's share of them), played by the match runner.
//!
//! Everything but the games' own timing comes from (seed, iteration, pair): the signs Δ, the
//! openings (random openings of the iteration's seed, pair j playing the j-th) and the built-in
//! seeds the runner derives from the pair's number. With a fixed `--nodes` and one thread the
//! games themselves are deterministic too (each game starts with `uginewgame`, which clears the
//! engine's tables), so a resumed or sharded run plays exactly the games of a whole one.

use std::time::Duration;

use super::error::SpsaError;
use super::gains;
use super::state::{Partial, Setup, State, PARTIAL_FORMAT};
use crate::matchplay::limits::MoveLimits;
use crate::matchplay::runner::{self, MatchConfig};
use crate::openings;
use crate::players::engine_spec::{self, EngineKind, EngineSpec, EngineStartError};
use crate::players::player::Timeouts;
use crate::players::ugi_client::UgiEngine;
use crate::shard::Shard;

/// The tuned engine with its fixed options, as the setup's words give it.
pub fn base_engine(setup: &Setup) -> Result<EngineSpec, SpsaError> {
    let groups = engine_spec::group_words(&setup.engine)?;
    let [words] = groups.as_slice() else {
        return Err(SpsaError::Flag(
            "--engine: give exactly one engine, the one tuned",
        ));
    };
    let spec = EngineSpec::from_words(words)?;
    if matches!(spec.kind, EngineKind::Builtin(_)) {
        return Err(SpsaError::BuiltinEngine);
    }
    Ok(spec)
}

/// The move limits of the setup, read as `lielow match` reads its flags.
pub fn limits(setup: &Setup) -> Result<MoveLimits, SpsaError> {
    Ok(MoveLimits::from_flags(
        setup.tc.as_deref(),
        setup.movetime,
        setup.depth,
        setup.nodes,
    )?)
}

fn timeout(setup: &Setup, limits: &MoveLimits) -> Duration {
    Duration::from_millis(limits.no_reply_timeout_ms(setup.timeout_ms))
}

/// The engine with θ moved by `sign * c_k * Δ`, every value rounded into its range.
fn perturbed(base: &EngineSpec, state: &State, signs: &[f64], sign: f64, name: &str) -> EngineSpec {
    let setup = &state.setup;
    let mut spec = base.clone();
    spec.name = name.to_owned();
    for ((param, &theta), &delta) in setup.params.iter().zip(&state.theta).zip(signs) {
        let offset = sign * delta * setup.schedule.c_k(param, state.iteration);
        let value = gains::sent_value(param, theta, offset);
        spec.options.push((param.name.clone(), value.to_string()));
    }
    spec
}

/// Starts the engine once with every tuned option at the ends of its range, so that a wrong
/// command or an option the engine refuses stops the run before it plays (a refused option
/// would make every game the same and θ drift on noise).
pub fn check_engine(setup: &Setup) -> Result<(), SpsaError> {
    let base = base_engine(setup)?;
    let EngineKind::Command(argv) = &base.kind else {
        return Err(SpsaError::BuiltinEngine);
    };
    let limits = limits(setup)?;
    for end in [0, 1] {
        let mut options = base.options.clone();
        for param in &setup.params {
            let value = if end == 0 { param.min } else { param.max };
            options.push((param.name.clone(), (value.round() as i64).to_string()));
        }
        let timeouts = Timeouts {
            handshake: timeout(setup, &limits),
        };
        let notes =
            UgiEngine::try_start(argv, &options, timeouts).map_err(|failure| EngineStartError {
                name: base.name.clone(),
                detail: failure.detail,
            })?;
        if let Some(note) = notes.into_iter().find(|note| note.contains("error")) {
            return Err(SpsaError::EngineRefused(note));
        }
    }
    Ok(())
}

/// Plays `shard`'s share of the state's next iteration with `concurrency` games at once.
pub fn play_iteration(
    state: &State,
    shard: Shard,
    concurrency: usize,
) -> Result<Partial, SpsaError> {
    let setup = &state.setup;
    let k = state.iteration;
    let base = base_engine(setup)?;
    let signs = gains::signs(setup.seed, k, setup.params.len());
    let limits = limits(setup)?;
    let pairs = setup.pairs as usize;
    let opening_seed = gains::iteration_seed(setup.seed, k, 2);
    let openings = openings::random_openings(setup.size, setup.random_plies, pairs, opening_seed)
        .map_err(|error| SpsaError::RandomPlies {
        plies: setup.random_plies,
        error,
    })?;
    let config = MatchConfig {
        engines: vec![
            perturbed(&base, state, &signs, 1.0, "plus"),
            perturbed(&base, state, &signs, -1.0, "minus"),
        ],
        games: 2 * pairs,
        concurrency,
        limits,
        latency: Duration::from_millis(setup.latency_ms),
        timeout: timeout(setup, &limits),
        openings,
        gauntlet: false,
        sprt: None,
        seed: gains::iteration_seed(setup.seed, k, 3),
        shard,
    };
    let (mut plus_wins, mut minus_wins) = (0, 0);
    runner::run(&config, |pair| {
        for game in &pair.games {
            if let Some(detail) = &game.detail {
                let loser = &config.engines[game.loser_engine()].name;
                eprintln!(
                    "lielow spsa: {loser} lost by {}: {detail}",
                    game.record.reason
                );
            }
            if game.winner_engine() == 0 {
                plus_wins += 1;
            } else {
                minus_wins += 1;
            }
        }
        true
    });
    Ok(Partial {
        format: PARTIAL_FORMAT.to_owned(),
        fingerprint: setup.fingerprint(),
        iteration: k,
        theta: state.theta.clone(),
        shard,
        plus_wins,
        minus_wins,
    })
}
