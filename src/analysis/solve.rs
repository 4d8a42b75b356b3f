//! Proofs: the exact value of a position (`win in N` or `loss in N` for the side to move, with
//! N the shortest forced distance) by depth-first proof-number search (df-pn, Nagai 2002).
//!
//! Lielow has no draws and every game is finite, so every position is a win or a loss; the
//! question is only how far. One df-pn search answers "can `attacker` force a win within `r`
//! plies?" exactly: proven (a strategy exists) or disproven (every line was refuted). The solver
//! first asks it for r = 1 to 4, for both sides in turn (short results come out at once). Then
//! it asks who wins at all (within the longest bound: disproving the side to move's win proves
//! its opponent's), takes the depth of the proof found as an upper bound on the distance, and
//! closes the gap to the refuted bounds by binary search: a proof within the middle bound gives
//! a shorter proof to measure, a refutation a higher lower bound. The distance is then exact,
//! because the bound below it was refuted; if the
//! budget runs out first, the answer says the distance is an upper bound. (A game can end on the
//! loser's own move, by a forced bear-off of its king, so bounds run over every ply count, not
//! only odd ones.) Distances count as `score mate N` does: N = ceil(r / 2).
//!
//! Proof and disproof numbers live in a proof table keyed by the position's Zobrist key, not in
//! the search's transposition table (whose entries hold scores and bounds). An entry remembers
//! the smallest bound at which the position was proven (a win within r plies is a win within any
//! larger bound), the largest at which it was disproven, and the numbers of the bound under work.
//! Entries are never evicted, so the proof can be replayed from the table afterwards:
//! [`Solver::verify`] walks the positions the table marks proven with the rules core alone — at
//! the attacker's nodes some legal move must check out within one ply less, at the defender's
//! nodes every legal move — down to won games, and counts the nodes of the proof tree.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use arrayvec::ArrayVec;

use lielow_engine::score::Score;
use lielow_rules::board::Side;
use lielow_rules::movegen::MAX_MOVES;
use lielow_rules::moves::Move;
use lielow_rules::position::Position;

/// Proof and disproof numbers at or above this are infinite.
const INFINITY: u32 = 1 << 30;
/// The longest bound asked, in plies: far beyond any proof a budget allows.
pub const MAX_PLIES: u32 = 200;
/// Stack of a solver thread: the search recurses once per ply of the bound, with the moves and
/// child keys of each node (about 8 KiB) on the stack.
pub const SOLVER_STACK_BYTES: usize = 64 << 20;

/// The proof table's hasher: its keys are Zobrist keys, already uniformly random, so the
/// standard library's SipHash (which guards against chosen keys) only costs time. To see it, run
/// `lielow solve "R82r34/8/5r22/5b62/8/8/B7r74r2b6/2b5r54 b"` (the loss in 7 of
/// tests/data/puzzles.txt; the second line gives the time) built as is and built with
/// `std::collections::hash_map::RandomState` in place of `BuildHasherDefault<KeyHasher>` in the
/// solver's table: 5.0 s against 10.9 s, about 2.2 times faster without SipHash (release builds,
/// medians of 3 runs alternated, on a busy two-core machine; 1.75 times when first measured).
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // Only u64 keys are hashed; this path folds anything else in, for completeness.
        for &byte in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(byte);
        }
    }

    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}

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
    /// The side to move forces a win in `moves` moves (ceil(plies / 2)), and no fewer when
    /// `exact`.
    Win {
        /// ceil(plies / 2).
        moves: u32,
        /// Plies to the end of the game along the principal line.
        plies: u32,
        /// A line of best play: the shortest win against the longest defence.
        line: Vec<Move>,
        /// The distance is the shortest (otherwise the budget ran out while shortening it, and
        /// it is an upper bound).
        exact: bool,
    },
    /// The opponent forces a win in `moves` moves against any defence, and no fewer when
    /// `exact`.
    Loss {
        /// ceil(plies / 2).
        moves: u32,
        /// Plies to the end of the game along the principal line.
        plies: u32,
        /// A line of best play: the longest defence against the shortest win.
        line: Vec<Move>,
        /// As for [`Verdict::Win`].
        exact: bool,
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
    table: HashMap<u64, Entry, BuildHasherDefault<KeyHasher>>,
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
            table: HashMap::default(),
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

    /// The depth of the proof the table holds for `position`: the attacker's quickest proven
    /// move, the defender's slowest; an upper bound on the distance. `None` if the table lacks
    /// a proof.
    fn proof_depth(
        &self,
        position: &Position,
        memo: &mut HashMap<u64, Option<u32>>,
    ) -> Option<u32> {
        match position.winner() {
            Some(winner) if winner == self.attacker => return Some(0),
            Some(_) => return None,
            None => {}
        }
        self.proven_within(position)?;
        if let Some(&known) = memo.get(&position.key()) {
            return known;
        }
        // Marked first: a node is never its own descendant (games are finite), but a lost
        // entry must not send the walk around forever.
        memo.insert(position.key(), None);
        let attacking = position.side_to_move() == self.attacker;
        let mut depth: Option<u32> = None;
        for mv in position.legal_moves() {
            let child = self.proof_depth(&position.play(mv), memo);
            depth = if attacking {
                match (depth, child) {
                    (Some(d), Some(c)) => Some(d.min(c + 1)),
                    (None, Some(c)) => Some(c + 1),
                    (d, None) => d,
                }
            } else {
                match child {
                    Some(c) => Some(depth.map_or(c + 1, |d| d.max(c + 1))),
                    None => {
                        depth = None;
                        break;
                    }
                }
            };
        }
        memo.insert(position.key(), depth);
        depth
    }

    /// The shortest bound within which the attacker wins from `position`, already proven within
    /// the longest one and refuted within `refuted` plies: the proof's depth is an upper bound,
    /// and a binary search between the two closes the gap (a proof within the middle bound
    /// lowers the upper one to that proof's depth, a refutation raises the lower one). Returns
    /// the bound and whether it is exact (the budget may run out first: it is then only an
    /// upper bound).
    pub fn shortest(&mut self, position: &Position, refuted: u32, budget: &Budget) -> (u32, bool) {
        let mut upper = self
            .proof_depth(position, &mut HashMap::new())
            .unwrap_or(MAX_PLIES);
        let mut lower = refuted;
        while upper > lower + 1 {
            let middle = lower + (upper - lower) / 2;
            match self.prove(position, middle, budget) {
                Answer::Proven => {
                    let depth = self
                        .proof_depth(position, &mut HashMap::new())
                        .unwrap_or(middle);
                    upper = depth.min(middle);
                }
                Answer::Disproven => lower = middle,
                Answer::Unknown => return (upper, false),
            }
        }
        (upper, true)
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
            // The budget ran out: the rest of the line follows the table's proof.
            let chosen = chosen.or_else(|| {
                let mut checked = HashMap::new();
                position.legal_moves().into_iter().find_map(|mv| {
                    let child = position.play(mv);
                    self.check(&child, bound - 1, &mut checked)
                        .then_some((mv, bound - 1))
                })
            });
            let Some((mv, plies)) = chosen else { break };
            line.push(mv);
            position = position.play(mv);
            bound = plies;
        }
        line
    }

    /// Replays the proof that the attacker wins from `position` within `bound` plies with the
    /// rules core, using only positions the table marks proven: at the attacker's nodes some
    /// legal move must lead to a position that checks out within one ply less, at the
    /// defender's every legal move must, down to games the attacker has won. Returns the number
    /// of distinct (position, bound) nodes of the proof tree, or an error if it does not check
    /// out.
    pub fn verify(&self, position: &Position, bound: u32) -> Result<u64, SolveError> {
        let mut checked = HashMap::new();
        if !self.check(position, bound, &mut checked) {
            return Err(SolveError::ProofFails {
                lfen: position.to_lfen(),
                bound,
            });
        }
        let mut proof = HashSet::new();
        self.count_proof(position, bound, &checked, &mut proof);
        Ok(proof.len() as u64)
    }

    fn check(
        &self,
        position: &Position,
        bound: u32,
        checked: &mut HashMap<(u64, u32), bool>,
    ) -> bool {
        match position.winner() {
            Some(winner) => return winner == self.attacker,
            None if bound == 0 => return false,
            None => {}
        }
        if self.proven_within(position).is_none() {
            return false;
        }
        let key = (position.key(), bound);
        if let Some(&known) = checked.get(&key) {
            return known;
        }
        let attacking = position.side_to_move() == self.attacker;
        let mut children = position
            .legal_moves()
            .into_iter()
            .map(|mv| position.play(mv));
        let holds = if attacking {
            children.any(|child| self.check(&child, bound - 1, checked))
        } else {
            children.all(|child| self.check(&child, bound - 1, checked))
        };
        checked.insert(key, holds);
        holds
    }

    /// The nodes of the checked proof: at the attacker's nodes the first move that checked out.
    fn count_proof(
        &self,
        position: &Position,
        bound: u32,
        checked: &HashMap<(u64, u32), bool>,
        proof: &mut HashSet<(u64, u32)>,
    ) {
        if !proof.insert((position.key(), bound)) || position.winner().is_some() {
            return;
        }
        let holds = |child: &Position| {
            child.winner() == Some(self.attacker)
                || checked.get(&(child.key(), bound - 1)) == Some(&true)
        };
        let children = position
            .legal_moves()
            .into_iter()
            .map(|mv| position.play(mv));
        if position.side_to_move() == self.attacker {
            if let Some(child) = children.into_iter().find(|child| holds(child)) {
                self.count_proof(&child, bound - 1, checked, proof);
            }
        } else {
            for child in children {
                self.count_proof(&child, bound - 1, checked, proof);
            }
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

/// Why a position was not solved.
#[derive(Debug)]
pub enum SolveError {
    /// The game is already over: there is nothing to prove.
    GameOver,
    /// `verify` found the proof of the attacker's win from `lfen` within `bound` plies
    /// wrong (a bug of the solver, never of the input).
    ProofFails {
        /// Where the proof starts, as LFEN.
        lfen: String,
        /// Its bound in plies.
        bound: u32,
    },
    /// The solver's own thread (with its deep stack) did not start.
    Thread(std::io::Error),
    /// The second thread of `--threads 2` did not start.
    HelperThread(std::io::Error),
    /// The solver's thread panicked.
    Panicked,
}

impl std::fmt::Display for SolveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SolveError::GameOver => f.write_str("the game is over in this position"),
            SolveError::ProofFails { lfen, bound } => write!(
                f,
                "the proof of {lfen} within {bound} plies does not check out"
            ),
            SolveError::Thread(error) => write!(f, "cannot start the solver thread: {error}"),
            SolveError::HelperThread(error) => write!(f, "cannot start a solver thread: {error}"),
            SolveError::Panicked => f.write_str("the solver failed"),
        }
    }
}

impl std::error::Error for SolveError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SolveError::Thread(error) | SolveError::HelperThread(error) => Some(error),
            _ => None,
        }
    }
}

/// [`solve`] on a thread with a stack deep enough for [`MAX_PLIES`].
pub fn solve_on_big_stack(
    position: &Position,
    budget: &Budget,
    threads: usize,
    verify: bool,
) -> Result<Solution, SolveError> {
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .stack_size(SOLVER_STACK_BYTES)
            .spawn_scoped(scope, || solve(position, budget, threads, verify))
            .map_err(SolveError::Thread)?
            .join()
            .map_err(|_| SolveError::Panicked)?
    })
}

/// Solves `position` as the module doc says: short bounds for both sides, then who wins at all,
/// then the proof shortened until a bound is refuted, within `budget`. With `threads` of 2 or
/// more the short bounds' two questions run on two threads (more give nothing more). With
/// `verify`, the proof found is replayed (an error says what did not check out).
pub fn solve(
    position: &Position,
    budget: &Budget,
    threads: usize,
    verify: bool,
) -> Result<Solution, SolveError> {
    if position.is_game_over() {
        return Err(SolveError::GameOver);
    }
    let us = position.side_to_move();
    let mut solvers = [Solver::new(us), Solver::new(us.opponent())];
    // Phase 1: short bounds for both sides, cheap, and exact by construction.
    let mut found = None;
    let mut settled_plies = 0;
    for plies in 1..=SHORT_PLIES {
        let answers = ask_both(&mut solvers, position, plies, budget, threads)?;
        match answers {
            [Answer::Proven, _] => found = Some((0, plies)),
            [_, Answer::Proven] => found = Some((1, plies)),
            [Answer::Disproven, Answer::Disproven] => settled_plies = plies,
            _ => break,
        }
        if found.is_some() || settled_plies < plies {
            break;
        }
    }
    let mut exact = true;
    if found.is_none() && settled_plies == SHORT_PLIES {
        // Phase 2: who wins at all (no draws: disproving the side to move's win within the
        // longest bound proves its opponent's), then shorten that proof.
        let winner = match solvers[0].prove(position, MAX_PLIES, budget) {
            Answer::Proven => Some(0),
            Answer::Disproven => match solvers[1].prove(position, MAX_PLIES, budget) {
                Answer::Proven => Some(1),
                _ => None,
            },
            Answer::Unknown => None,
        };
        if let Some(which) = winner {
            let (plies, is_exact) = solvers[which].shortest(position, settled_plies, budget);
            found = Some((which, plies));
            exact = is_exact;
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
        Verdict::Win {
            moves,
            plies,
            line,
            exact,
        }
    } else {
        Verdict::Loss {
            moves,
            plies,
            line,
            exact,
        }
    };
    Ok(Solution {
        verdict,
        nodes,
        table_size,
        proof_size,
    })
}

/// Bounds up to this many plies are asked of both sides in turn before the solver looks for
/// any win at all: short results come out exact at once.
const SHORT_PLIES: u32 = 4;

/// Asks both solvers whether their side wins within `plies` (on two threads with `threads` of
/// 2 or more); the opponent is not asked once the side to move's win is proven.
fn ask_both(
    solvers: &mut [Solver; 2],
    position: &Position,
    plies: u32,
    budget: &Budget,
    threads: usize,
) -> Result<[Answer; 2], SolveError> {
    if threads < 2 {
        let mine = solvers[0].prove(position, plies, budget);
        if mine == Answer::Proven {
            return Ok([mine, Answer::Disproven]);
        }
        return Ok([mine, solvers[1].prove(position, plies, budget)]);
    }
    let (ours, theirs) = solvers.split_at_mut(1);
    std::thread::scope(|scope| {
        let other = std::thread::Builder::new()
            .stack_size(SOLVER_STACK_BYTES)
            .spawn_scoped(scope, || theirs[0].prove(position, plies, budget))
            .map_err(SolveError::HelperThread)?;
        let mine = ours[0].prove(position, plies, budget);
        Ok([mine, other.join().expect("the solver thread")])
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
            Verdict::Win {
                moves, plies, line, ..
            } => {
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
