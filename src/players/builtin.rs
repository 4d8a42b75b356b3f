//! Built-in players that need no external process: opponents for a first match in one command,
//! sparring partners, and engines for tests.
//!
//! - `builtin:random`: a uniformly random legal move.
//! - `builtin:greedy`: captures the enemy king when it can; else the capture of the tallest
//!   enemy stack; else a random move — never bearing off its own king unless that is forced.
//! - `builtin:mcts[:N | :Tms]`: plain UCT Monte-Carlo tree search with uniformly random playouts
//!   (the kind of bot that plays Lielow online). `N` iterations per move, or `T` milliseconds per
//!   move; without a parameter it follows the match's limits (`movetime`; a clock share of
//!   remaining/30 + increment/2; `nodes` as iterations) and otherwise does 2000 iterations.

use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use lielow_engine::limits::Limits;
use lielow_rules::board::Side;
use lielow_rules::moves::Move;
use lielow_rules::position::Position;

use super::player::{Failure, MoveRequest, Player, Reply};

/// Iterations of `builtin:mcts` when neither its parameter nor the match limits say otherwise.
pub const DEFAULT_MCTS_ITERATIONS: u64 = 2000;

/// UCT exploration constant (sqrt 2, the textbook value for win rates in 0..1).
const EXPLORATION: f32 = std::f32::consts::SQRT_2;

/// Which built-in player, with its budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Builtin {
    /// A uniformly random legal move.
    Random,
    /// King capture, else the tallest capture, else random (own king kept on the board).
    Greedy,
    /// UCT Monte-Carlo tree search with random playouts.
    Mcts(MctsBudget),
}

/// Why a `builtin:` name is no built-in player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BuiltinError {
    /// No player has this name (the text, which the message follows with the list).
    Unknown(String),
    /// A player name with an argument that only `builtin:mcts` takes.
    UnknownVariant(String),
    /// `builtin:mcts:` with a budget that is no positive count or time.
    MctsBudget(String),
}

impl std::fmt::Display for BuiltinError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BuiltinError::Unknown(text) => write!(
                f,
                "unknown built-in player '{text}' (builtin:random, builtin:greedy, builtin:mcts[:N|:Tms])"
            ),
            BuiltinError::UnknownVariant(text) => write!(f, "unknown built-in player '{text}'"),
            BuiltinError::MctsBudget(text) => write!(
                f,
                "'{text}': the MCTS budget is a positive iteration count N or a time like 100ms"
            ),
        }
    }
}

impl std::error::Error for BuiltinError {}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
/// How much `builtin:mcts` thinks per move.
pub enum MctsBudget {
    /// Follow the match's `go` limits.
    FromLimits,
    /// This many iterations (select, expand, play out, back up) per move.
    Iterations(u64),
    /// This many milliseconds per move.
    Millis(u64),
}

impl Builtin {
    /// Reads `builtin:random`, `builtin:greedy`, `builtin:mcts`, `builtin:mcts:N`,
    /// `builtin:mcts:Tms`; `None` when `text` is not a built-in at all.
    pub fn parse(text: &str) -> Option<Result<Builtin, BuiltinError>> {
        let rest = text.strip_prefix("builtin:")?;
        let parsed = match rest.split_once(':') {
            None => match rest {
                "random" => Ok(Builtin::Random),
                "greedy" => Ok(Builtin::Greedy),
                "mcts" => Ok(Builtin::Mcts(MctsBudget::FromLimits)),
                _ => Err(BuiltinError::Unknown(text.to_owned())),
            },
            Some(("mcts", budget)) => {
                let (number, millis) = match budget.strip_suffix("ms") {
                    Some(number) => (number, true),
                    None => (budget, false),
                };
                match number.parse::<u64>() {
                    Ok(n) if n > 0 && millis => Ok(Builtin::Mcts(MctsBudget::Millis(n))),
                    Ok(n) if n > 0 => Ok(Builtin::Mcts(MctsBudget::Iterations(n))),
                    _ => Err(BuiltinError::MctsBudget(text.to_owned())),
                }
            }
            Some(_) => Err(BuiltinError::UnknownVariant(text.to_owned())),
        };
        Some(parsed)
    }

    /// The default display name.
    pub fn name(&self) -> String {
        match self {
            Builtin::Random => "random".into(),
            Builtin::Greedy => "greedy".into(),
            Builtin::Mcts(MctsBudget::FromLimits) => "mcts".into(),
            Builtin::Mcts(MctsBudget::Iterations(n)) => format!("mcts{n}"),
            Builtin::Mcts(MctsBudget::Millis(ms)) => format!("mcts{ms}ms"),
        }
    }
}

/// A built-in player with its random source.
pub struct BuiltinPlayer {
    kind: Builtin,
    rng: StdRng,
}

impl BuiltinPlayer {
    /// A player of `kind`; seeded again by each `new_game`.
    pub fn new(kind: Builtin) -> BuiltinPlayer {
        BuiltinPlayer {
            kind,
            rng: StdRng::seed_from_u64(0),
        }
    }

    /// The move this player chooses; `None` only when the game is over.
    pub fn choose(&mut self, position: &Position, limits: &Limits) -> Option<Move> {
        match self.kind {
            Builtin::Random => position.legal_moves().choose(&mut self.rng).copied(),
            Builtin::Greedy => greedy_move(position, &mut self.rng),
            Builtin::Mcts(budget) => {
                let budget = match budget {
                    MctsBudget::FromLimits => budget_from_limits(position.side_to_move(), limits),
                    explicit => explicit,
                };
                Mcts::new(*position).search(budget, &mut self.rng)
            }
        }
    }
}

impl Player for BuiltinPlayer {
    fn new_game(&mut self, seed: u64) -> Result<(), Failure> {
        self.rng = StdRng::seed_from_u64(seed);
        Ok(())
    }

    fn go(&mut self, request: &MoveRequest) -> Result<Reply, Failure> {
        let started = Instant::now();
        let text = self
            .choose(request.position, &request.limits)
            .map_or_else(|| "none".to_string(), |mv| mv.to_string());
        Ok(Reply {
            text,
            elapsed: started.elapsed(),
            depth: None,
            ponder: None,
            ponder_hit: false,
        })
    }
}

fn budget_from_limits(us: Side, limits: &Limits) -> MctsBudget {
    if let Some(movetime) = limits.movetime {
        // Leave a little for the runner's own bookkeeping.
        MctsBudget::Millis(movetime.saturating_sub(5).max(1))
    } else if let Some(clock) = limits.clock {
        let share = clock.time[us.index()] / 30 + clock.increment[us.index()] / 2;
        MctsBudget::Millis(share.max(1))
    } else if let Some(nodes) = limits.nodes {
        MctsBudget::Iterations(nodes.max(1))
    } else {
        MctsBudget::Iterations(DEFAULT_MCTS_ITERATIONS)
    }
}

/// King capture, else the capture of the tallest stack, else a random move that does not bear
/// off the own king (unless nothing else is legal). Ties are broken at random.
pub fn greedy_move(position: &Position, rng: &mut StdRng) -> Option<Move> {
    let moves = position.legal_moves();
    let us = position.side_to_move();
    let enemy_king = position.king(us.opponent());
    if let Some(&mv) = moves
        .iter()
        .find(|mv| mv.is_capture() && mv.to() == enemy_king)
    {
        return Some(mv);
    }
    let captured_height = |mv: &Move| mv.to().map_or(0, |to| position.height(to));
    let best = moves
        .iter()
        .filter(|mv| mv.is_capture())
        .map(captured_height)
        .max();
    if let Some(best) = best {
        let captures: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|mv| mv.is_capture() && captured_height(mv) == best)
            .collect();
        return captures.choose(rng).copied();
    }
    let own_king = position.king(us);
    let safe: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|mv| !(mv.is_bear_off() && Some(mv.from()) == own_king))
        .collect();
    if safe.is_empty() {
        moves.choose(rng).copied()
    } else {
        safe.choose(rng).copied()
    }
}

/// A node of the UCT tree: the move that led here, its statistics and its children (a range of
/// the arena, filled when the node is first expanded).
struct Node {
    mv: Option<Move>,
    parent: u32,
    first_child: u32,
    children: u32,
    expanded: bool,
    visits: u32,
    /// Playouts won by the side that made `mv`.
    wins: f32,
}

/// Plain UCT: select by UCB1, expand one node per iteration, play out uniformly at random,
/// back up the win. The tree lives for one move.
struct Mcts {
    root: Position,
    nodes: Vec<Node>,
}

impl Mcts {
    fn new(root: Position) -> Mcts {
        Mcts {
            root,
            nodes: vec![Node {
                mv: None,
                parent: u32::MAX,
                first_child: 0,
                children: 0,
                expanded: false,
                visits: 0,
                wins: 0.0,
            }],
        }
    }

    fn search(&mut self, budget: MctsBudget, rng: &mut StdRng) -> Option<Move> {
        let moves = self.root.legal_moves();
        match moves.len() {
            0 => return None,
            1 => return Some(moves[0]),
            _ => {}
        }
        let started = Instant::now();
        let (max_iterations, time) = match budget {
            MctsBudget::Iterations(n) => (n, None),
            MctsBudget::Millis(ms) => (u64::MAX, Some(Duration::from_millis(ms))),
            MctsBudget::FromLimits => (DEFAULT_MCTS_ITERATIONS, None),
        };
        let mut iterations = 0u64;
        while iterations < max_iterations {
            if time.is_some_and(|t| started.elapsed() >= t) && iterations > 0 {
                break;
            }
            self.iterate(rng);
            iterations += 1;
        }
        let root = &self.nodes[0];
        (root.first_child..root.first_child + root.children)
            .map(|i| &self.nodes[i as usize])
            .max_by_key(|node| node.visits)
            .and_then(|node| node.mv)
    }

    fn iterate(&mut self, rng: &mut StdRng) {
        let mut position = self.root;
        let mut node = 0usize;
        // Selection: descend through expanded nodes by UCB1.
        while self.nodes[node].expanded && self.nodes[node].children > 0 {
            node = self.select_child(node);
            let mv = self.nodes[node].mv.expect("a child has a move");
            position = position.play(mv);
        }
        // Expansion: add the children of a new non-terminal leaf and step into one at random.
        if !position.is_game_over() && !self.nodes[node].expanded {
            let moves = position.legal_moves();
            let first = self.nodes.len() as u32;
            for &mv in &moves {
                self.nodes.push(Node {
                    mv: Some(mv),
                    parent: node as u32,
                    first_child: 0,
                    children: 0,
                    expanded: false,
                    visits: 0,
                    wins: 0.0,
                });
            }
            let leaf = &mut self.nodes[node];
            leaf.expanded = true;
            leaf.first_child = first;
            leaf.children = moves.len() as u32;
            let pick = rng.gen_range(0..moves.len());
            node = (first as usize) + pick;
            position = position.play(moves[pick]);
        }
        // Playout, then back-propagation.
        let winner = playout(position, rng);
        let mut mover = position.side_to_move().opponent();
        let mut current = node;
        loop {
            let n = &mut self.nodes[current];
            n.visits += 1;
            if mover == winner {
                n.wins += 1.0;
            }
            if n.parent == u32::MAX {
                break;
            }
            current = n.parent as usize;
            mover = mover.opponent();
        }
    }

    fn select_child(&self, node: usize) -> usize {
        let parent = &self.nodes[node];
        let log_visits = (parent.visits.max(1) as f32).ln();
        let mut best = (f32::NEG_INFINITY, parent.first_child as usize);
        for i in parent.first_child..parent.first_child + parent.children {
            let child = &self.nodes[i as usize];
            let value = if child.visits == 0 {
                f32::INFINITY
            } else {
                let visits = child.visits as f32;
                child.wins / visits + EXPLORATION * (log_visits / visits).sqrt()
            };
            if value > best.0 {
                best = (value, i as usize);
            }
        }
        best.1
    }
}

/// Plays uniformly random moves to the end of the game; returns the winner. Games are finite
/// (see RULES.md), so this always ends.
fn playout(mut position: Position, rng: &mut StdRng) -> Side {
    loop {
        if let Some(winner) = position.winner() {
            return winner;
        }
        let moves = position.legal_moves();
        position = position.play(moves[rng.gen_range(0..moves.len())]);
    }
}
