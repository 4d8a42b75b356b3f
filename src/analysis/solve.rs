//! Proofs: the exact value of a position (`win in N` or `loss in N` for the side to move, with
//! N the shortest forced distance) by depth-first proof-number search (df-pn, Nagai 2002).
//!
//! Lielow has no draws and every game is finite, so every position is a win or a loss; the
//! question is only how far. One df-pn search answers "can `attacker` force a win within `r`
//! plies?" exactly: proven (a strategy exists) or disproven (every line was refuted). The solver
//! asks it for r = 1, 2, 3, ... both for the side to move and for its opponent; the first `r` that
//! is proven is the shortest forced distance, because every smaller one was disproven before.
//! (A game can end on the loser's own move, by a forced bear-off of its king, so `r` runs over
//! every ply count, not only odd ones.) Distances count as `score mate N` does: N = ceil(r / 2).
//!
//! Proof and disproof numbers live in a proof table keyed by the position's Zobrist key, not in
//! the search's transposition table (whose entries hold scores and bounds). An entry remembers
//! the smallest bound at which the position was proven (a win within r plies is a win within any
//! larger bound), the largest at which it was disproven, and the numbers of the bound under work.
//! Entries are never evicted, so the proof can be replayed from the table afterwards:
//! [`Solver::verify`] walks the proof tree with the rules core alone — at the attacker's nodes one
//! move proven within the bound, at the defender's nodes every legal move — checks each end is a
//! won game, and counts the distinct positions of the proof.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use arrayvec::ArrayVec;

use crate::board::Side;
use crate::movegen::MAX_MOVES;
use crate::moves::Move;
use crate::position::Position;
use crate::score::Score;

/// Proof and disproof numbers at or above this are infinite.
const INFINITY: u32 = 1 << 30;
/// The longest bound asked, in plies: far beyond any proof a budget allows.
pub const MAX_PLIES: u32 = 200;
/// Stack of a solver thread: the search recurses once per ply of the bound, with the moves and
/// child keys of each node (about 8 KiB) on the stack.
pub const SOLVER_STACK_BYTES: usize = 64 << 20;

/// What the proof table knows of a position (for one attacker).
#[derive(Clone, Copy, Debug)]
struct Entry {
    /// The smallest bound (plies) within which the attacker's win is proven.
    proven: Option<u8>,
    /// The largest bound within which it is disproven.
    disproven: Option<u8>,
    /// The bound `pn` and `dn` belong to.
    bound: u8,
    pn: u32,
    dn: u32,
}

/// The value of a position, as far as a budget allowed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The side to move forces a win in `moves` moves (ceil(plies / 2)) and no fewer.
    Win {
        /// ceil(plies / 2).
        moves: u32,
        /// Plies to the end of the game along the principal line.
        plies: u32,
        /// A line of best play: the shortest win against the longest defence.
        line: Vec<Move>,
    },
    /// The opponent forces a win in `moves` moves against any defence, and no fewer.
    Loss {
        /// ceil(plies / 2).
        moves: u32,
        /// Plies to the end of the game along the principal line.
        plies: u32,
        /// A line of best play: the longest defence against the shortest win.
        line: Vec<Move>,
    },
    /// Neither was proven within the budget; no win for either side within `plies` plies.
    Unknown {
        /// Every bound up to this one was disproven for both sides.
        plies: u32,
    },
}

impl Verdict {
    /// The verdict as a search score (`mate N` / `mate -N`), or `None` when unknown.
    pub fn score(&self) -> Option<Score> {
        match self {
            Verdict::Win { plies, .. } => Some(Score::win_in(*plies as i32)),
            Verdict::Loss { plies, .. } => Some(Score::loss_in(*plies as i32)),
            Verdict::Unknown { .. } => None,
        }
    }
}

/// What stops a proof search.
#[derive(Clone, Copy, Debug)]
pub struct Budget<'a> {
    /// Nodes expanded, over every bound and both sides.
    pub max_nodes: u64,
    /// Wall-clock end.
    pub deadline: Option<Instant>,
    /// Set from outside to stop.
    pub stop: Option<&'a AtomicBool>,
}

/// One side's df-pn: proves or disproves "`attacker` wins within r plies".
pub struct Solver {
    attacker: Side,
    table: HashMap<u64, Entry>,
    /// Nodes expanded so far.
    pub nodes: u64,
    out_of_budget: bool,
}

/// The result of one bounded question.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// The attacker wins within the bound.
    Proven,
    /// It does not.
    Disproven,
    /// The budget ran out first.
    Unknown,
}

impl Solver {
    /// A solver for `attacker`'s wins, with an empty table.
    pub fn new(attacker: Side) -> Solver {
        Solver {
            attacker,
            table: HashMap::new(),
            nodes: 0,
            out_of_budget: false,
        }
    }

    /// Positions in the proof table.
    pub fn table_size(&self) -> usize {
        self.table.len()
    }

    /// Whether the attacker wins from `position` within `plies` plies.
    pub fn prove(&mut self, position: &Position, plies: u32, budget: &Budget) -> Answer {
        self.out_of_budget = false;
        let bound = plies.min(MAX_PLIES) as u8;
        let (pn, dn) = self.mid(position, bound, INFINITY, INFINITY, budget);
        if pn == 0 {
            Answer::Proven
        } else if dn == 0 {
            Answer::Disproven
        } else {
            Answer::Unknown
        }
    }

    /// The numbers of `position` (with `key`) within `bound`, as far as known.
    fn lookup(&self, key: u64, bound: u8) -> (u32, u32) {
        match self.table.get(&key) {
            Some(entry) if entry.proven.is_some_and(|p| p <= bound) => (0, INFINITY),
            Some(entry) if entry.disproven.is_some_and(|d| d >= bound) => (INFINITY, 0),
            Some(entry) if entry.bound == bound => (entry.pn, entry.dn),
            _ => (1, 1),
        }
    }

    fn store(&mut self, key: u64, bound: u8, pn: u32, dn: u32) {
        let entry = self.table.entry(key).or_insert(Entry {
            proven: None,
            disproven: None,
            bound,
            pn: 1,
            dn: 1,
        });
        if pn == 0 {
            entry.proven = Some(entry.proven.map_or(bound, |p| p.min(bound)));
        } else if dn == 0 {
            entry.disproven = Some(entry.disproven.map_or(bound, |d| d.max(bound)));
        } else {
            (entry.bound, entry.pn, entry.dn) = (bound, pn, dn);
        }
    }

    /// The numbers of a position that is over, or has no plies left: `None` otherwise.
    fn settled(&self, position: &Position, bound: u8) -> Option<(u32, u32)> {
        match position.winner() {
            Some(winner) if winner == self.attacker => Some((0, INFINITY)),
            Some(_) => Some((INFINITY, 0)),
            None if bound == 0 => Some((INFINITY, 0)),
            None => None,
        }
    }

    fn budget_spent(&mut self, budget: &Budget) -> bool {
        if self.nodes >= budget.max_nodes {
            self.out_of_budget = true;
        }
        if self.nodes.is_multiple_of(4096) {
            let late = budget.deadline.is_some_and(|end| Instant::now() >= end);
            let stopped = budget.stop.is_some_and(|stop| stop.load(Ordering::Relaxed));
            if late || stopped {
                self.out_of_budget = true;
            }
        }
        self.out_of_budget
    }

    /// Multiple iterative deepening: searches `position` within `bound` plies until its proof
    /// number reaches `threshold_pn` or its disproof number `threshold_dn`; returns them.
    fn mid(
        &mut self,
        position: &Position,
        bound: u8,
        threshold_pn: u32,
        threshold_dn: u32,
        budget: &Budget,
    ) -> (u32, u32) {
        let key = position.key();
        if let Some((pn, dn)) = self.settled(position, bound) {
            self.store(key, bound, pn, dn);
            return (pn, dn);
        }
        let (pn, dn) = self.lookup(key, bound);
        if pn >= threshold_pn || dn >= threshold_dn || pn == 0 || dn == 0 {
            return (pn, dn);
        }
        self.nodes += 1;
        if self.budget_spent(budget) {
            return (pn, dn);
        }
        let attacking = position.side_to_move() == self.attacker;
        let moves = position.legal_moves();
        let mut keys: ArrayVec<u64, MAX_MOVES> = ArrayVec::new();
        for &mv in &moves {
            let child = position.play(mv);
            let child_key = child.key();
            if let Some((cpn, cdn)) = self.settled(&child, bound - 1) {
                self.store(child_key, bound - 1, cpn, cdn);
                // A move that ends the game the mover's way settles this node at once.
                let decisive = if attacking { cpn == 0 } else { cdn == 0 };
                if decisive {
                    let (pn, dn) = if attacking {
                        (0, INFINITY)
                    } else {
                        (INFINITY, 0)
                    };
                    self.store(key, bound, pn, dn);
                    return (pn, dn);
                }
            }
            keys.push(child_key);
        }
        loop {
            // The node's numbers from its children's, and the child to search next.
            let (mut best, mut best_value, mut second) = (0, INFINITY, INFINITY);
            let (mut min_value, mut sum) = (INFINITY, 0u32);
            let mut best_other = 0;
            for (index, &child_key) in keys.iter().enumerate() {
                let (cpn, cdn) = self.lookup(child_key, bound - 1);
                // At the attacker's nodes the cheapest proof matters, at the defender's the
                // cheapest disproof.
                let (value, other) = if attacking { (cpn, cdn) } else { (cdn, cpn) };
                sum = sum.saturating_add(other).min(INFINITY);
                if value < best_value {
                    second = best_value;
                    (best, best_value, best_other) = (index, value, other);
                } else if value < second {
                    second = value;
                }
                min_value = min_value.min(value);
            }
            let (pn, dn) = if attacking {
                (min_value, sum)
            } else {
                (sum, min_value)
            };
            if pn >= threshold_pn || dn >= threshold_dn || pn == 0 || dn == 0 || self.out_of_budget
            {
                self.store(key, bound, pn, dn);
                return (pn, dn);
            }
            let child = position.play(moves[best]);
            if attacking {
                let child_pn = threshold_pn.min(second.saturating_add(1));
                let child_dn = (threshold_dn - dn).saturating_add(best_other).min(INFINITY);
                self.mid(&child, bound - 1, child_pn, child_dn, budget);
            } else {
                let child_dn = threshold_dn.min(second.saturating_add(1));
                let child_pn = (threshold_pn - pn).saturating_add(best_other).min(INFINITY);
                self.mid(&child, bound - 1, child_pn, child_dn, budget);
            }
        }
    }

    /// The smallest bound within which `position` is proven, if it is (0: already won).
    fn proven_within(&self, position: &Position) -> Option<u8> {
        match position.winner() {
            Some(winner) if winner == self.attacker => Some(0),
            Some(_) => None,
            None => self
                .table
                .get(&position.key())
                .and_then(|entry| entry.proven),
        }
    }

    /// The shortest bound within which the attacker wins from `position`, trying 0, 1, ...
    /// `bound` (cheap: the table already holds most of what it needs); `None` past `bound` or
    /// when the budget runs out.
    fn distance(&mut self, position: &Position, bound: u32, budget: &Budget) -> Option<u32> {
        if let Some(winner) = position.winner() {
            return (winner == self.attacker).then_some(0);
        }
        (1..=bound).find_map(|plies| match self.prove(position, plies, budget) {
            Answer::Proven => Some(Some(plies)),
            Answer::Disproven => None,
            Answer::Unknown => Some(None),
        })?
    }

    /// A principal line of a position won within `bound` plies: the attacker's fastest win,
    /// the defender's slowest loss, each child's exact distance found by [`Solver::distance`].
    /// Shorter than the distance only if the budget runs out on the way.
    pub fn line(&mut self, position: &Position, bound: u32, budget: &Budget) -> Vec<Move> {
        let mut line = Vec::new();
        let mut position = *position;
        let mut bound = bound;
        while position.winner().is_none() && bound > 0 {
            let attacking = position.side_to_move() == self.attacker;
            let mut chosen: Option<(Move, u32)> = None;
            for mv in position.legal_moves() {
                let Some(plies) = self.distance(&position.play(mv), bound - 1, budget) else {
                    continue;
                };
                let better = chosen.is_none_or(|(_, best)| {
                    if attacking {
                        plies < best
                    } else {
                        plies > best
                    }
                });
                if better {
                    chosen = Some((mv, plies));
                }
            }
            let Some((mv, plies)) = chosen else { break };
            line.push(mv);
            position = position.play(mv);
            bound = plies;
        }
        line
    }

    /// Replays the proof that the attacker wins from `position` within `bound` plies with the
    /// rules core: at the attacker's nodes one move whose position the table proves within one
    /// ply less, at the defender's every legal move, down to games won by the attacker. Returns
    /// the number of distinct (position, bound) nodes of the proof, or what is missing.
    pub fn verify(&self, position: &Position, bound: u32) -> Result<u64, String> {
        let mut seen = HashSet::new();
        self.verify_node(position, bound, &mut seen)?;
        Ok(seen.len() as u64)
    }

    fn verify_node(
        &self,
        position: &Position,
        bound: u32,
        seen: &mut HashSet<(u64, u32)>,
    ) -> Result<(), String> {
        if !seen.insert((position.key(), bound)) {
            return Ok(());
        }
        match position.winner() {
            Some(winner) if winner == self.attacker => return Ok(()),
            Some(_) => return Err(format!("{} is lost for the prover", position.to_lfen())),
            None if bound == 0 => {
                return Err(format!(
                    "{} is not over within the bound",
                    position.to_lfen()
                ))
            }
            None => {}
        }
        let moves = position.legal_moves();
        if position.side_to_move() == self.attacker {
            let proven = moves.iter().map(|&mv| position.play(mv)).find(|child| {
                self.proven_within(child)
                    .is_some_and(|plies| u32::from(plies) < bound)
            });
            match proven {
                Some(child) => self.verify_node(&child, bound - 1, seen),
                None => Err(format!(
                    "{}: no move proven within {} plies",
                    position.to_lfen(),
                    bound - 1
                )),
            }
        } else {
            for mv in moves {
                self.verify_node(&position.play(mv), bound - 1, seen)?;
            }
            Ok(())
        }
    }
}

/// How a position was solved: the verdict, and what it cost.
#[derive(Clone, Debug)]
pub struct Solution {
    /// The value found.
    pub verdict: Verdict,
    /// Nodes expanded by both solvers.
    pub nodes: u64,
    /// Positions in both proof tables.
    pub table_size: usize,
    /// With `verify`: the distinct nodes of the replayed proof.
    pub proof_size: Option<u64>,
}

/// [`solve`] on a thread with a stack deep enough for [`MAX_PLIES`].
pub fn solve_on_big_stack(
    position: &Position,
    budget: &Budget,
    threads: usize,
    verify: bool,
) -> Result<Solution, String> {
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .stack_size(SOLVER_STACK_BYTES)
            .spawn_scoped(scope, || solve(position, budget, threads, verify))
            .map_err(|e| format!("cannot start the solver thread: {e}"))?
            .join()
            .map_err(|_| "the solver failed".to_owned())?
    })
}

/// Solves `position`: asks, for r = 1, 2, ..., whether the side to move wins within r plies and
/// whether its opponent does, until one is proven or `budget` runs out. With `threads` of 2 or
/// more the two questions run on two threads (more give nothing more). With `verify`, the proof
/// found is replayed (an error says what did not check out).
pub fn solve(
    position: &Position,
    budget: &Budget,
    threads: usize,
    verify: bool,
) -> Result<Solution, String> {
    if position.is_game_over() {
        return Err("the game is over in this position".into());
    }
    let us = position.side_to_move();
    let mut solvers = [Solver::new(us), Solver::new(us.opponent())];
    let mut found = None;
    let mut settled_plies = 0;
    for plies in 1..=MAX_PLIES {
        let answers: Vec<Answer> = if threads >= 2 {
            let (ours, theirs) = solvers.split_at_mut(1);
            std::thread::scope(|scope| {
                let other = std::thread::Builder::new()
                    .stack_size(SOLVER_STACK_BYTES)
                    .spawn_scoped(scope, || theirs[0].prove(position, plies, budget))
                    .map_err(|e| format!("cannot start a solver thread: {e}"))?;
                let mine = ours[0].prove(position, plies, budget);
                Ok::<_, String>(vec![mine, other.join().expect("the solver thread")])
            })?
        } else {
            let mine = solvers[0].prove(position, plies, budget);
            let theirs = if mine == Answer::Proven {
                Answer::Disproven
            } else {
                solvers[1].prove(position, plies, budget)
            };
            vec![mine, theirs]
        };
        match (answers[0], answers[1]) {
            (Answer::Proven, _) => {
                found = Some((0, plies));
                break;
            }
            (_, Answer::Proven) => {
                found = Some((1, plies));
                break;
            }
            (Answer::Disproven, Answer::Disproven) => settled_plies = plies,
            _ => break,
        }
    }
    let nodes = solvers.iter().map(|s| s.nodes).sum();
    let table_size = solvers.iter().map(Solver::table_size).sum();
    let Some((which, plies)) = found else {
        return Ok(Solution {
            verdict: Verdict::Unknown {
                plies: settled_plies,
            },
            nodes,
            table_size,
            proof_size: None,
        });
    };
    let solver = &mut solvers[which];
    let line = solver.line(position, plies, budget);
    let proof_size = if verify {
        Some(solver.verify(position, plies)?)
    } else {
        None
    };
    let moves = plies.div_ceil(2);
    let verdict = if which == 0 {
        Verdict::Win { moves, plies, line }
    } else {
        Verdict::Loss { moves, plies, line }
    };
    Ok(Solution {
        verdict,
        nodes,
        table_size,
        proof_size,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unlimited() -> Budget<'static> {
        Budget {
            max_nodes: 5_000_000,
            deadline: None,
            stop: None,
        }
    }

    #[test]
    fn a_king_capture_on_the_board_is_a_win_in_one() {
        let position = Position::from_lfen("8/r1r1r15/8/3R24/8/3B24/b1b1b15/8 b").unwrap();
        let solution = solve(&position, &unlimited(), 1, true).unwrap();
        match solution.verdict {
            Verdict::Win { moves, plies, line } => {
                assert_eq!((moves, plies), (1, 1));
                assert_eq!(line[0].to_string(), "d3xd5");
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(solution.proof_size, Some(2));
    }

    #[test]
    fn the_other_side_to_move_wins_the_same_way() {
        // The same board with Red to move: Red's king takes Blue's.
        let position = Position::from_lfen("8/r1r1r15/8/3R24/8/3B24/b1b1b15/8 r").unwrap();
        let solution = solve(&position, &unlimited(), 2, true).unwrap();
        match solution.verdict {
            Verdict::Win { moves: 1, line, .. } => assert_eq!(line[0].to_string(), "d5xd3"),
            other => panic!("{other:?}"),
        }
    }
}
