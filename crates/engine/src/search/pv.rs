//! The principal variation: the line the search expects, collected bottom-up in a triangular
//! table as scores beat alpha.

use super::node::MAX_PLY;
use lielow_rules::moves::Move;

/// Triangular table: row `ply` holds the line from `ply` in `moves[ply][ply..len[ply]]`.
pub struct PvTable {
    moves: Vec<[Option<Move>; MAX_PLY + 1]>,
    len: [usize; MAX_PLY + 1],
}

impl Default for PvTable {
    fn default() -> Self {
        PvTable::new()
    }
}

impl PvTable {
    pub fn new() -> PvTable {
        PvTable {
            moves: vec![[None; MAX_PLY + 1]; MAX_PLY + 1],
            len: [0; MAX_PLY + 1],
        }
    }

    /// Empties the line of `ply` (a node starts with none).
    #[inline]
    pub fn clear(&mut self, ply: usize) {
        self.len[ply] = ply;
    }

    /// Sets the line of `ply` to `mv` followed by the line of `ply + 1`.
    #[inline]
    pub fn update(&mut self, ply: usize, mv: Move) {
        self.moves[ply][ply] = Some(mv);
        let child_len = self.len[ply + 1].max(ply + 1);
        let (upper, lower) = self.moves.split_at_mut(ply + 1);
        upper[ply][ply + 1..child_len].copy_from_slice(&lower[0][ply + 1..child_len]);
        self.len[ply] = child_len;
    }

    /// Sets the line of `ply` to `mv` alone (a move that ends the game).
    #[inline]
    pub fn update_leaf(&mut self, ply: usize, mv: Move) {
        self.moves[ply][ply] = Some(mv);
        self.len[ply] = ply + 1;
    }

    /// The line of `ply`: its best move and what follows.
    pub fn line(&self, ply: usize) -> impl Iterator<Item = Move> + '_ {
        self.moves[ply][ply..self.len[ply].max(ply)]
            .iter()
            .map_while(|m| *m)
    }

    /// Sets the line of `ply` to `line` (found by several threads together).
    pub fn set_line(&mut self, ply: usize, line: &[Move]) {
        for (slot, &mv) in self.moves[ply][ply..].iter_mut().zip(line) {
            *slot = Some(mv);
        }
        self.len[ply] = ply + line.len();
    }

    /// The line found from the root.
    pub fn root(&self) -> Vec<Move> {
        self.line(0).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lielow_rules::board::Square;

    #[test]
    fn lines_are_built_bottom_up() {
        let mv = |from: &str, to: &str| {
            Move::new(
                Square::parse(from).unwrap(),
                Square::parse(to).unwrap(),
                false,
            )
        };
        let mut pv = PvTable::new();
        pv.clear(0);
        pv.clear(1);
        pv.update_leaf(2, mv("a1", "a2"));
        pv.update(1, mv("b7", "b6"));
        pv.update(0, mv("c2", "c3"));
        let line: Vec<String> = pv.root().iter().map(|m| m.to_string()).collect();
        assert_eq!(line, ["c2-c3", "b7-b6", "a1-a2"]);
        pv.set_line(1, &[mv("h7", "h6")]);
        assert_eq!(pv.line(1).count(), 1);
        pv.clear(0);
        assert!(pv.root().is_empty());
    }
}
