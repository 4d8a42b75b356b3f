//! Output buckets: which of the network's output layers evaluates a position, chosen by the
//! number of stacks on the board.
//!
//! A game with most of its stacks still on the board and one with a few tall stacks left
//! call for different weightings of the same hidden units; one output layer per stage lets
//! the trainer fit each. The stage is the stack count (both sides'), which only ever falls
//! during a game and costs one population count at evaluation time.
//!
//! A network file stores the bucket of every stack count of each board size as a table
//! ([`Buckets::of`]), so the engine depends on no formula and a trainer may choose another;
//! `lielow train --buckets B` writes [`Buckets::even`]. A network of one bucket (the
//! format's first version) has a table of zeros.

use std::fmt;

use lielow_rules::board::{BoardSize, SQUARES};
use lielow_rules::position::Position;

/// The most output buckets a network may have: one per stack count of an 8x8 game.
pub const MAX_BUCKETS: usize = 16;
/// Entries of a board size's table: stack counts 0 to 81.
pub const STACK_COUNTS: usize = SQUARES + 1;

/// The bucket of each stack count, per board size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Buckets {
    count: u8,
    /// `table[size][stacks]`, 8x8 first; every entry below `count`.
    table: [[u8; STACK_COUNTS]; 2],
    /// `table` as output layers, `size × count + bucket`: what an evaluation looks up (one
    /// load instead of a load, a multiply and an add).
    layers: [[u8; STACK_COUNTS]; 2],
}

/// Why a bucket count or table cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BucketError {
    /// A bucket count of zero or more than [`MAX_BUCKETS`].
    Count(usize),
    /// A table entry naming a bucket the network does not have.
    Entry {
        /// 0 for 8x8, 1 for 9x9.
        size_block: usize,
        /// The stack count of the entry.
        stacks: usize,
        /// The bucket it names.
        bucket: usize,
        /// The network's bucket count.
        count: usize,
    },
}

impl fmt::Display for BucketError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BucketError::Count(count) => write!(
                f,
                "{count} output buckets; a network has 1 to {MAX_BUCKETS}"
            ),
            BucketError::Entry {
                size_block,
                stacks,
                bucket,
                count,
            } => write!(
                f,
                "the bucket of {stacks} stacks on {} is {bucket}, but the network has {count} buckets",
                if *size_block == 0 { "8x8" } else { "9x9" }
            ),
        }
    }
}

impl std::error::Error for BucketError {}

impl Buckets {
    /// One bucket for every position: the format's first version.
    pub const SINGLE: Buckets = Buckets {
        count: 1,
        table: [[0; STACK_COUNTS]; 2],
        layers: [[0; STACK_COUNTS], [1; STACK_COUNTS]],
    };

    /// `count` buckets splitting each board size's stack counts evenly, from 1 to the start
    /// position's (16 on 8x8, 36 on 9x9): `min(count - 1, (stacks - 1) × count / start)`, so
    /// on 8x8 with 4 buckets 1 to 4 stacks are bucket 0 and 13 to 16 bucket 3. More stacks
    /// than the start (a set-up position) go to the last bucket, none to the first.
    pub fn even(count: usize) -> Result<Buckets, BucketError> {
        if !(1..=MAX_BUCKETS).contains(&count) {
            return Err(BucketError::Count(count));
        }
        let mut table = [[0; STACK_COUNTS]; 2];
        for (size, row) in [BoardSize::Eight, BoardSize::Nine]
            .into_iter()
            .zip(&mut table)
        {
            let start = Position::start(size).all_stacks().count() as usize;
            for (stacks, bucket) in row.iter_mut().enumerate() {
                *bucket = (stacks.saturating_sub(1) * count / start).min(count - 1) as u8;
            }
        }
        Ok(Buckets::with_layers(count, table))
    }

    /// Buckets from a file's count and table, each entry checked.
    pub fn from_table(
        count: usize,
        table: [[u8; STACK_COUNTS]; 2],
    ) -> Result<Buckets, BucketError> {
        if !(1..=MAX_BUCKETS).contains(&count) {
            return Err(BucketError::Count(count));
        }
        for (size_block, row) in table.iter().enumerate() {
            if let Some((stacks, &bucket)) = row
                .iter()
                .enumerate()
                .find(|(_, &bucket)| usize::from(bucket) >= count)
            {
                return Err(BucketError::Entry {
                    size_block,
                    stacks,
                    bucket: usize::from(bucket),
                    count,
                });
            }
        }
        Ok(Buckets::with_layers(count, table))
    }

    /// Buckets of a checked count and table, with their layers worked out.
    fn with_layers(count: usize, table: [[u8; STACK_COUNTS]; 2]) -> Buckets {
        let mut layers = table;
        for (size_block, row) in layers.iter_mut().enumerate() {
            row.iter_mut()
                .for_each(|layer| *layer += (size_block * count) as u8);
        }
        Buckets {
            count: count as u8,
            table,
            layers,
        }
    }

    /// How many buckets.
    #[inline]
    pub fn count(&self) -> usize {
        usize::from(self.count)
    }

    /// The bucket of a position of `size` with `stacks` stacks on the board (at most 81).
    #[inline]
    pub fn of(&self, size: BoardSize, stacks: usize) -> usize {
        usize::from(self.table[usize::from(size == BoardSize::Nine)][stacks])
    }

    /// The output layer of a position of `size` with `stacks` stacks: its board size's block
    /// of buckets (8x8's first), and its bucket in it.
    #[inline(always)]
    pub fn layer(&self, size: BoardSize, stacks: usize) -> usize {
        usize::from(self.layers[usize::from(size == BoardSize::Nine)][stacks])
    }

    /// The bucket of `position`.
    #[inline]
    pub fn of_position(&self, position: &Position) -> usize {
        self.of(position.size(), position.all_stacks().count() as usize)
    }

    /// The table, `[size][stacks]`, 8x8 first (what a file stores).
    pub fn table(&self) -> &[[u8; STACK_COUNTS]; 2] {
        &self.table
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn even_buckets_split_the_stack_counts_of_a_game_evenly() {
        let four = Buckets::even(4).unwrap();
        let eight: Vec<usize> = (0..=17).map(|s| four.of(BoardSize::Eight, s)).collect();
        assert_eq!(
            eight,
            [0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3]
        );
        // 9x9 starts with 36 stacks: nine per bucket.
        assert_eq!(four.of(BoardSize::Nine, 9), 0);
        assert_eq!(four.of(BoardSize::Nine, 10), 1);
        assert_eq!(four.of(BoardSize::Nine, 36), 3);
        assert_eq!(four.of(BoardSize::Nine, 81), 3);
        assert_eq!(Buckets::even(1).unwrap(), Buckets::SINGLE);
        assert_eq!(four.layer(BoardSize::Eight, 16), 3);
        assert_eq!(four.layer(BoardSize::Nine, 1), 4);
        assert_eq!(four.layer(BoardSize::Nine, 36), 7);
        let most = Buckets::even(MAX_BUCKETS).unwrap();
        let on_eight: Vec<usize> = (1..=16).map(|s| most.of(BoardSize::Eight, s)).collect();
        assert_eq!(on_eight, (0..16).collect::<Vec<_>>(), "one per stack count");
    }

    #[test]
    fn bad_counts_and_tables_are_refused() {
        assert_eq!(Buckets::even(0), Err(BucketError::Count(0)));
        assert_eq!(Buckets::even(17), Err(BucketError::Count(17)));
        let mut table = *Buckets::even(3).unwrap().table();
        assert!(Buckets::from_table(3, table).is_ok());
        table[1][20] = 3;
        let error = Buckets::from_table(3, table).unwrap_err();
        assert_eq!(
            error.to_string(),
            "the bucket of 20 stacks on 9x9 is 3, but the network has 3 buckets"
        );
        assert_eq!(
            Buckets::from_table(1000, table).unwrap_err().to_string(),
            "1000 output buckets; a network has 1 to 16"
        );
    }

    #[test]
    fn the_bucket_of_a_position_counts_both_sides_stacks() {
        let four = Buckets::even(4).unwrap();
        assert_eq!(four.of_position(&Position::start(BoardSize::Eight)), 3);
        assert_eq!(four.of_position(&Position::start(BoardSize::Nine)), 3);
    }
}
