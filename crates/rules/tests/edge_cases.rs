//! Named hand-made positions and their perft counts, hand-derived at depth 1, plus a naive
//! mailbox implementation of RULES.md written here from the rules alone, against which the
//! library's moves, perft and crown placement are compared on the table and on random games.

use std::collections::BTreeSet;

use lielow_rules::perft::perft;
use lielow_rules::{BoardSize, Position, Side, Square};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// A deliberately simple model of the rules: a 9x9 array of cells indexed by (file, rank),
/// moves found by stepping `h` squares, the crown rule written out as RULES.md states it.
mod naive {
    /// `Some((side, height))`, side 0 = Blue, 1 = Red.
    pub type Cell = Option<(usize, usize)>;

    #[derive(Clone, Copy, PartialEq, Eq, Debug)]
    pub struct Board {
        pub n: i32,
        pub cells: [[Cell; 9]; 9], // [file][rank]
        pub crowns: [Option<(i32, i32)>; 2],
        pub to_move: usize,
        /// Set by a king capture or a king bear-off.
        pub won_by: Option<usize>,
    }

    #[derive(Clone, Copy, PartialEq, Eq, Debug)]
    pub struct NaiveMove {
        pub from: (i32, i32),
        /// `None`: bear-off.
        pub to: Option<(i32, i32)>,
        pub capture: bool,
    }

    fn square_name((file, rank): (i32, i32)) -> String {
        format!("{}{}", (b'a' + file as u8) as char, rank + 1)
    }

    impl std::fmt::Display for NaiveMove {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            match self.to {
                None => write!(f, "{}-off", square_name(self.from)),
                Some(to) => write!(
                    f,
                    "{}{}{}",
                    square_name(self.from),
                    if self.capture { 'x' } else { '-' },
                    square_name(to)
                ),
            }
        }
    }

    const DIRECTIONS: [(i32, i32); 8] = [
        (1, 0),
        (1, 1),
        (0, 1),
        (-1, 1),
        (-1, 0),
        (-1, -1),
        (0, -1),
        (1, -1),
    ];

    impl Board {
        /// Reads a well-formed LFEN (this model trusts its input).
        pub fn from_lfen(text: &str) -> Board {
            let (board, side) = text.split_once(' ').expect("board and side");
            let ranks: Vec<&str> = board.split('/').collect();
            let n = ranks.len() as i32;
            let mut result = Board {
                n,
                cells: [[None; 9]; 9],
                crowns: [None; 2],
                to_move: if side == "b" { 0 } else { 1 },
                won_by: None,
            };
            for (row, rank_text) in ranks.iter().enumerate() {
                let rank = n - 1 - row as i32;
                let mut file = 0;
                let chars: Vec<char> = rank_text.chars().collect();
                let mut i = 0;
                while i < chars.len() {
                    let c = chars[i];
                    if let Some(empty) = c.to_digit(10) {
                        file += empty as i32;
                        i += 1;
                        continue;
                    }
                    let side = if c.eq_ignore_ascii_case(&'b') { 0 } else { 1 };
                    let height = chars[i + 1].to_digit(10).expect("height") as usize;
                    result.cells[file as usize][rank as usize] = Some((side, height));
                    if c.is_ascii_uppercase() {
                        result.crowns[side] = Some((file, rank));
                    }
                    file += 1;
                    i += 2;
                }
            }
            result
        }

        pub fn to_lfen(self) -> String {
            let mut text = String::new();
            for rank in (0..self.n).rev() {
                let mut empty = 0;
                for file in 0..self.n {
                    match self.cells[file as usize][rank as usize] {
                        None => empty += 1,
                        Some((side, height)) => {
                            if empty > 0 {
                                text += &empty.to_string();
                                empty = 0;
                            }
                            let letter = if side == 0 { 'b' } else { 'r' };
                            let letter = if self.crowns[side] == Some((file, rank)) {
                                letter.to_ascii_uppercase()
                            } else {
                                letter
                            };
                            text.push(letter);
                            text += &height.to_string();
                        }
                    }
                }
                if empty > 0 {
                    text += &empty.to_string();
                }
                if rank > 0 {
                    text.push('/');
                }
            }
            text.push(' ');
            text.push(if self.to_move == 0 { 'b' } else { 'r' });
            text
        }

        fn on_board(&self, (file, rank): (i32, i32)) -> bool {
            (0..self.n).contains(&file) && (0..self.n).contains(&rank)
        }

        fn cell(&self, (file, rank): (i32, i32)) -> Cell {
            self.cells[file as usize][rank as usize]
        }

        fn set(&mut self, (file, rank): (i32, i32), cell: Cell) {
            self.cells[file as usize][rank as usize] = cell;
        }

        fn stacks_of(&self, side: usize) -> Vec<((i32, i32), usize)> {
            let mut found = Vec::new();
            for file in 0..self.n {
                for rank in 0..self.n {
                    if let Some((owner, height)) = self.cell((file, rank)) {
                        if owner == side {
                            found.push(((file, rank), height));
                        }
                    }
                }
            }
            found
        }

        /// The winner once the game is over: a king fell, or the side to move has no move.
        pub fn winner(&self) -> Option<usize> {
            if self.won_by.is_some() {
                return self.won_by;
            }
            if self.moves().is_empty() {
                Some(1 - self.to_move)
            } else {
                None
            }
        }

        /// Every legal move, ignoring whether the game is over.
        fn moves(&self) -> Vec<NaiveMove> {
            let us = self.to_move;
            let mut moves = Vec::new();
            for (from, height) in self.stacks_of(us) {
                let mut bears_off = false;
                for (df, dr) in DIRECTIONS {
                    let to = (from.0 + df * height as i32, from.1 + dr * height as i32);
                    if !self.on_board(to) {
                        bears_off = true;
                        continue;
                    }
                    match self.cell(to) {
                        None => moves.push(NaiveMove {
                            from,
                            to: Some(to),
                            capture: false,
                        }),
                        Some((owner, _)) if owner != us => moves.push(NaiveMove {
                            from,
                            to: Some(to),
                            capture: true,
                        }),
                        Some(_) => {}
                    }
                }
                if bears_off {
                    moves.push(NaiveMove {
                        from,
                        to: None,
                        capture: false,
                    });
                }
            }
            moves
        }

        /// The legal moves: none once a king has fallen.
        pub fn legal_moves(&self) -> Vec<NaiveMove> {
            if self.won_by.is_some() {
                Vec::new()
            } else {
                self.moves()
            }
        }

        /// RULES.md: "if the side has exactly one stack strictly taller than all its other
        /// stacks, its crown is put on that stack; otherwise the crown stays where it is".
        fn apply_crown_rule(&mut self, side: usize) {
            let stacks = self.stacks_of(side);
            let Some(tallest) = stacks.iter().map(|&(_, h)| h).max() else {
                return;
            };
            let at_max: Vec<_> = stacks.iter().filter(|&&(_, h)| h == tallest).collect();
            if at_max.len() == 1 {
                self.crowns[side] = Some(at_max[0].0);
            }
        }

        pub fn play(&self, mv: NaiveMove) -> Board {
            let mut next = *self;
            let us = self.to_move;
            let them = 1 - us;
            next.to_move = them;
            let (_, height) = self.cell(mv.from).expect("a stack to move");
            next.set(mv.from, None);
            let carries_crown = self.crowns[us] == Some(mv.from);
            match mv.to {
                None => {
                    if carries_crown {
                        next.crowns[us] = None;
                        next.won_by = Some(them);
                        return next;
                    }
                    next.apply_crown_rule(us);
                }
                Some(to) => {
                    let captured = self.cell(to);
                    let new_height = if captured.is_some() { 1 } else { height + 1 };
                    next.set(to, Some((us, new_height)));
                    if carries_crown {
                        next.crowns[us] = Some(to);
                    }
                    if captured.is_some() && self.crowns[them] == Some(to) {
                        next.crowns[them] = None;
                        next.won_by = Some(us);
                        return next;
                    }
                    next.apply_crown_rule(us);
                    if captured.is_some() {
                        next.apply_crown_rule(them);
                    }
                }
            }
            next
        }

        pub fn perft(&self, depth: u32) -> u64 {
            if depth == 0 {
                return 1;
            }
            let moves = self.legal_moves();
            if depth == 1 {
                return moves.len() as u64;
            }
            moves
                .into_iter()
                .map(|mv| self.play(mv).perft(depth - 1))
                .sum()
        }
    }
}

use naive::Board;

fn side_index(side: Side) -> usize {
    side.index()
}

fn library_moves(position: &Position) -> BTreeSet<String> {
    position
        .legal_moves()
        .iter()
        .map(|mv| mv.to_string())
        .collect()
}

fn naive_moves(board: &Board) -> BTreeSet<String> {
    board
        .legal_moves()
        .iter()
        .map(|mv| mv.to_string())
        .collect()
}

/// A named position with hand-checked counts. `perft[k]` is perft(k + 1).
struct Case {
    name: &'static str,
    lfen: &'static str,
    perft: &'static [u64],
}

/// Depth 1 of every case is derived by hand in its comment; deeper counts were checked against
/// the naive model above (and the test re-checks them against it).
const CASES: &[Case] = &[
    // Blue's only stack, its king B2 on a1: moves to c1, a3, c3 and one bear-off (W, S, SW, NW,
    // SE all leave the board) = 4. Red's king R1 on h8 then has g8, h7, g7 and a bear-off (4)
    // after each of Blue's three board moves; bearing off the king lost: d2 = 3 * 4 = 12.
    Case {
        name: "lone kings in opposite corners",
        lfen: "7R1/8/8/8/8/8/8/B27 b",
        perft: &[4, 12, 36, 108],
    },
    // Height 3 on e4 (8x8) reaches exactly h4, b4, e7, e1, h7, b7, h1, b1: all eight on the
    // board, so no bear-off: 8 moves.
    Case {
        name: "height 3 in the centre lands on the edges, no bear-off",
        lfen: "r16r1/8/8/8/4B33/8/8/8 b",
        perft: &[8, 64, 248, 1264],
    },
    // Height 4 on e4 (8x8): W a4, N e8, NW a8 (capture of a Red stack); E, S, NE, SE, SW leave
    // the board: one bear-off. 4 moves.
    Case {
        name: "height 4 from e4: exact edge landings, a capture in the corner, one bear-off",
        lfen: "r16r1/8/8/8/4B43/8/8/8 b",
        perft: &[4, 20, 44, 148],
    },
    // Blue b1 on a1: b1, a2, xb2 (Red's king), off = 4. b1 on c1: d1, b1, c2, d2, xb2, off = 6.
    // Total 10; both captures of b2 end the game.
    Case {
        name: "two ways to capture the king",
        lfen: "7r1/8/8/8/8/8/1R26/b11b15 b",
        perft: &[10, 64, 452, 3086],
    },
    // Blue king B3 on a1: d1, a4, xd4, off (the king: loses) = 4. b2 on h1: f1, h3, f3, off = 4.
    // b2 on h2: f2, h4, f4, off = 4. Total 12.
    Case {
        name: "capturing king keeps its crown at height 1; Red's crown moves",
        lfen: "r26R1/8/8/8/3r24/8/7b2/B36b2 b",
        perft: &[12, 168, 1812, 22052],
    },
    // As above with b1 on h2: h2 (height 1) has g2, h3, g3, g1, off = 5, so 4 + 4 + 5 = 13.
    Case {
        name: "capturing king loses its crown to a uniquely tallest stack",
        lfen: "r26R1/8/8/8/3r24/8/7b1/B36b2 b",
        perft: &[13, 184, 2129, 26282],
    },
    // Blue's only stack B1 on a2: b2, a3, b3, a1, b1 and one bear-off = 6. After a board move
    // Red, to move, has no stack and so no move; the bear-off loses the king: d2 = 0.
    Case {
        name: "the opponent has no stacks",
        lfen: "8/8/8/8/8/8/B17/8 b",
        perft: &[6, 0, 0, 0],
    },
    // Red to move without a stack: no moves at all.
    Case {
        name: "side to move has no stacks (8x8)",
        lfen: "8/8/8/8/8/8/b1b1b1b1b1b1b1b1/8 r",
        perft: &[0, 0, 0, 0],
    },
    Case {
        name: "side to move has no stacks (9x9)",
        lfen: "9/9/9/9/9/9/9/9/R18 b",
        perft: &[0, 0, 0, 0],
    },
    // Red's single stack R2 on d5 (8x8): b5, f5, d7, d3, b7, f7, b3, f3 all on the board, but
    // f3, d3 and b3 hold Blue stacks: 5 moves + 3 captures = 8, no bear-off.
    Case {
        name: "a side with one stack",
        lfen: "8/8/8/3R24/8/1b11b11b12/8/8 r",
        perft: &[8, 168, 1008, 16118],
    },
    // Blue B8 on d4 (8x8) can only bear off (1). b1 on h1: g1, h2, g2, off = 4. Total 5.
    Case {
        name: "height-8 stack only bears off",
        lfen: "8/8/8/8/3B84/8/8/r1r15b1 b",
        perft: &[5, 32, 128, 732],
    },
    // 9x9: height 4 on e5 lands on a1, e1, i1, a5, i5, a9, e9, i9, all on the board; a1 is
    // Red's king (a capture that wins): 8 moves, no bear-off. After a board move Red's king
    // on a1 has b1, a2, b2 and off: d2 = 7 * 4 = 28.
    Case {
        name: "9x9 height 4 from the centre reaches every edge exactly",
        lfen: "9/9/9/9/4B44/9/9/9/R18 b",
        perft: &[8, 28, 60, 156],
    },
    // 9x9: Blue B9 on e5 can only bear off (1); b2 on a9: c9, a7, c7, off = 4. Total 5.
    Case {
        name: "9x9 height-9 stack only bears off",
        lfen: "b28/9/9/9/4B94/9/9/9/8R1 b",
        perft: &[5, 16, 48, 144],
    },
    // 9x9 Red to move: R1 on e1: d1, f1, d2, e2, f2 and one bear-off = 6; r1 on a9 and i9 tie
    // at height 1 with the king, so the crown on e1 is legal. a9: b9, a8, b8, off = 4; i9: h9,
    // i8, h8, off = 4. Total 14.
    Case {
        name: "9x9 crown on a stack tied for tallest",
        lfen: "r17r1/9/9/9/9/9/9/b1b1b16/4R14 r",
        perft: &[14, 234, 3104, 49677],
    },
];

fn square(text: &str) -> Square {
    Square::parse(text).expect("a square")
}

#[test]
fn named_positions_perft_matches_table_and_naive_model() {
    for case in CASES {
        let position =
            Position::from_lfen(case.lfen).unwrap_or_else(|error| panic!("{}: {error}", case.name));
        let board = Board::from_lfen(case.lfen);
        assert_eq!(board.to_lfen(), case.lfen, "{}: naive LFEN", case.name);
        assert_eq!(
            library_moves(&position),
            naive_moves(&board),
            "{}: legal moves",
            case.name
        );
        for (k, &expected) in case.perft.iter().enumerate() {
            let depth = k as u32 + 1;
            assert_eq!(
                board.perft(depth),
                expected,
                "{}: naive perft({depth})",
                case.name
            );
            assert_eq!(
                perft(&position, depth),
                expected,
                "{}: perft({depth}) of {}",
                case.name,
                case.lfen
            );
        }
        // One ply deeper than the table, the two implementations still agree.
        let deeper = case.perft.len() as u32 + 1;
        assert_eq!(
            perft(&position, deeper),
            board.perft(deeper),
            "{}: perft({deeper})",
            case.name
        );
    }
}

/// A move from a hand-made position and what it must produce.
struct Played {
    name: &'static str,
    before: &'static str,
    mv: &'static str,
    after: &'static str,
    winner: Option<Side>,
}

const PLAYED: &[Played] = &[
    Played {
        name: "king captures, drops to height 1, keeps its crown (other stacks tied); \
               Red's crown moves to its now uniquely tallest stack",
        before: "r26R1/8/8/8/3r24/8/7b2/B36b2 b",
        mv: "a1xd4",
        after: "R26r1/8/8/8/3B14/8/7b2/7b2 r",
        winner: None,
    },
    Played {
        name: "king captures, drops to height 1, crown moves to the uniquely tallest stack",
        before: "r26R1/8/8/8/3r24/8/7b1/B36b2 b",
        mv: "a1xd4",
        after: "R26r1/8/8/8/3b14/8/7b1/7B2 r",
        winner: None,
    },
    Played {
        name: "crown kept on a height-1 stack moves when another stack grows uniquely tallest",
        before: "8/8/8/8/8/8/b2b2B15/r1r16 b",
        mv: "a2-c4",
        after: "8/8/8/8/2B35/8/1b2b15/r1r16 r",
        winner: None,
    },
    Played {
        name: "a non-king stack captured: the opponent's crown appears on its uniquely tallest",
        before: "8/8/8/8/8/1r2r25/b1b1b1b1b1b1b1b1/8 b",
        mv: "a2xb3",
        after: "8/8/8/8/8/1b1R25/1b1b1b1b1b1b1b1/8 r",
        winner: None,
    },
    Played {
        name: "capturing the king wins; the crown rule is not applied afterwards",
        before: "7r1/8/8/8/8/8/1R26/b11b15 b",
        mv: "a1xb2",
        after: "7r1/8/8/8/8/8/1b16/2b15 r",
        winner: Some(Side::Blue),
    },
    Played {
        name: "bearing off one's own king loses",
        before: "r26R1/8/8/8/3r24/8/7b2/B36b2 b",
        mv: "a1-off",
        after: "r26R1/8/8/8/3r24/8/7b2/7b2 r",
        winner: Some(Side::Red),
    },
    Played {
        name: "bearing off a non-king stack: the crown goes to the new uniquely tallest",
        before: "7R1/8/8/8/8/8/8/b2b2b15 b",
        mv: "a1-off",
        after: "7R1/8/8/8/8/8/8/1B2b15 r",
        winner: None,
    },
    Played {
        name: "bearing off one of two tied stacks leaves a single stack, which is crowned",
        before: "7R1/8/8/8/8/8/8/b2b26 b",
        mv: "a1-off",
        after: "7R1/8/8/8/8/8/8/1B26 r",
        winner: None,
    },
    Played {
        name: "a move that leaves the opponent (to move) without stacks wins",
        before: "8/8/8/8/8/8/B17/8 b",
        mv: "a2-b3",
        after: "8/8/8/8/8/1B26/8/8 r",
        winner: Some(Side::Blue),
    },
    Played {
        name: "9x9: king of height 8 steps to the edge and grows to 9",
        before: "9/9/9/9/9/9/9/B88/8R1 b",
        mv: "a2-i2",
        after: "9/9/9/9/9/9/9/8B9/8R1 r",
        winner: None,
    },
];

#[test]
fn hand_played_moves_give_the_expected_position_and_result() {
    for case in PLAYED {
        let position = Position::from_lfen(case.before)
            .unwrap_or_else(|error| panic!("{}: {error}", case.name));
        let mv = position
            .parse_move(case.mv)
            .unwrap_or_else(|error| panic!("{}: {error}", case.name));
        let after = position.play(mv);
        assert_eq!(after.to_lfen(), case.after, "{}", case.name);
        assert_eq!(after.winner(), case.winner, "{}: winner", case.name);
        assert_eq!(after.key(), after.compute_key(), "{}: key", case.name);

        // The naive model agrees on both.
        let board = Board::from_lfen(case.before);
        let naive = board
            .legal_moves()
            .into_iter()
            .find(|m| m.to_string() == case.mv)
            .unwrap_or_else(|| panic!("{}: the naive model does not allow {}", case.name, case.mv));
        let naive_after = board.play(naive);
        assert_eq!(naive_after.to_lfen(), case.after, "{}: naive", case.name);
        assert_eq!(
            naive_after.winner(),
            case.winner.map(side_index),
            "{}: naive winner",
            case.name
        );
    }
}

#[test]
fn crown_details_of_the_kept_crown_case() {
    let position = Position::from_lfen("r26R1/8/8/8/3r24/8/7b2/B36b2 b").expect("valid");
    let after = position.play(position.parse_move("a1xd4").expect("legal"));
    assert_eq!(after.king(Side::Blue), Some(square("d4")));
    assert_eq!(after.height(square("d4")), 1);
    assert_eq!(after.uniquely_tallest(Side::Blue), None);
    assert_eq!(after.king(Side::Red), Some(square("a8")));
    assert_eq!(after.uniquely_tallest(Side::Red), Some(square("a8")));
    assert!(!after.is_game_over());
}

/// Plays random games from both start positions with the library and the naive model side by
/// side: after every move the LFEN (so every crown) and the winner must agree, at every position
/// the legal moves, and on a sample of positions perft(2) and perft(3).
#[test]
fn random_games_agree_with_the_naive_model() {
    let mut rng = StdRng::seed_from_u64(0x0011_e10e);
    let mut positions = 0;
    let mut perft_checks = 0;
    for game in 0..300 {
        let size = if game % 2 == 0 {
            BoardSize::Eight
        } else {
            BoardSize::Nine
        };
        let mut position = Position::start(size);
        let mut board = Board::from_lfen(&position.to_lfen());
        for ply in 0.. {
            positions += 1;
            let moves = library_moves(&position);
            assert_eq!(
                moves,
                naive_moves(&board),
                "game {game} ply {ply}: legal moves of {position}"
            );
            if moves.is_empty() {
                break;
            }
            // perft(2) on every third position, perft(3) on every ninth (the naive model is
            // slow; the sample keeps the test to a few seconds).
            if ply % 3 == 1 {
                perft_checks += 1;
                let deepest = if ply % 9 == 4 { 3 } else { 2 };
                for depth in 2..=deepest {
                    assert_eq!(
                        perft(&position, depth),
                        board.perft(depth),
                        "game {game} ply {ply}: perft({depth}) of {position}"
                    );
                }
            }
            let moves: Vec<String> = moves.into_iter().collect();
            let text = &moves[rng.gen_range(0..moves.len())];
            let mv = position.parse_move(text).expect("a generated move");
            let naive_mv = board
                .legal_moves()
                .into_iter()
                .find(|m| m.to_string() == *text)
                .expect("the same move in the naive model");
            position = position.play(mv);
            board = board.play(naive_mv);
            assert_eq!(
                position.to_lfen(),
                board.to_lfen(),
                "game {game} ply {ply}: position after {text}"
            );
            assert_eq!(
                position.winner().map(side_index),
                board.winner(),
                "game {game} ply {ply}: winner after {text} in {position}"
            );
        }
        assert!(
            position.is_game_over(),
            "game {game} ended without a result"
        );
    }
    assert!(positions > 10_000, "only {positions} positions checked");
    println!("{positions} positions, {perft_checks} perft checks");
    assert!(perft_checks > 3000, "only {perft_checks} perft checks");
}

/// Random games from every position of the reference `perft_positions.txt` (mid- and late-game
/// positions, kings kept on short stacks, the hand-made edge cases), library and naive model
/// side by side as above. The file must be there: a missing file fails the test.
#[test]
fn random_games_from_reference_positions_agree_with_the_naive_model() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/reference/perft_positions.txt"
    );
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|error| panic!("reference file {path} cannot be read: {error}"));
    let mut rng = StdRng::seed_from_u64(7);
    let mut games = 0;
    for line in text.lines().filter(|line| !line.trim().is_empty()) {
        let lfen = line.split(" ; ").next().expect("an LFEN field");
        for _ in 0..5 {
            games += 1;
            let mut position = Position::from_lfen(lfen).expect("a valid reference position");
            let mut board = Board::from_lfen(lfen);
            assert_eq!(board.to_lfen(), lfen);
            loop {
                let moves = library_moves(&position);
                assert_eq!(moves, naive_moves(&board), "legal moves of {position}");
                if moves.is_empty() {
                    break;
                }
                assert_eq!(
                    perft(&position, 2),
                    board.perft(2),
                    "perft(2) of {position}"
                );
                let moves: Vec<String> = moves.into_iter().collect();
                let text = &moves[rng.gen_range(0..moves.len())];
                let before = position.to_lfen();
                position = position.play(position.parse_move(text).expect("legal"));
                let naive_mv = board
                    .legal_moves()
                    .into_iter()
                    .find(|m| m.to_string() == *text)
                    .expect("the same move in the naive model");
                board = board.play(naive_mv);
                assert_eq!(position.to_lfen(), board.to_lfen(), "{text} from {before}");
                assert_eq!(
                    position.winner().map(side_index),
                    board.winner(),
                    "winner after {text} from {before}"
                );
            }
        }
    }
    assert_eq!(games, 200);
}
