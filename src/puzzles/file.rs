//! The puzzle file: one puzzle a line, as `lielow puzzles` writes it and the GUI's puzzle mode
//! reads it (docs/formats.md, "Puzzles", is its reference).
//!
//! ```text
//! # lielow puzzles {"command":"...","seed":"1",...}
//! 8-0001 ; <LFEN> ; <answer> ; <line> ; <N> ; <rating> ; <source>
//! ```
//!
//! Every line read is checked against the rules, not only for its shape: the position reads
//! and is not over, the answer is legal there, the line starts with the answer, replays legally
//! and ends with the side to move's win after 2N-1 plies (2N when the defender's last move ends
//! the game itself, by bearing off its own king). A file that fails is refused with the line's
//! number and the reason; nothing is half-read.

use std::fmt;

use lielow_engine::ugi::shown;
use lielow_rules::board::BoardSize;
use lielow_rules::moves::Move;
use lielow_rules::play::{IllegalMove, ReplayError};
use lielow_rules::position::Position;

use crate::openings::BadLfen;

/// How the settings line of a puzzle file starts (a JSON object of strings follows).
pub const SETTINGS_PREFIX: &str = "# lielow puzzles ";

/// The largest N a puzzle file may hold (far beyond what a proof within a budget reaches).
pub const MAX_MOVES: u32 = 99;

/// One puzzle: a position whose side to move wins by force in `moves` moves with one first
/// move only.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// `<size>-<number>`, e.g. `8-0001`: unique in its file.
    pub id: String,
    /// The position; its side to move is the solver.
    pub position: Position,
    /// The one first move that wins in `moves` moves.
    pub answer: Move,
    /// The main line from the answer (its first move) to the winning move: the shortest win
    /// against the defence that lasts longest.
    pub line: Vec<Move>,
    /// N: the solver's moves to the win, from 1.
    pub moves: u32,
    /// The difficulty, an integer from about 600 to 2800 (from N and from what it takes the engine to find the answer).
    pub rating: u32,
    /// Where the position came from (`self-play seed 3 game 17 ply 42`), never holding ` ; `.
    pub source: String,
}

/// Why a puzzle line does not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PuzzleError {
    /// Not seven fields separated by ` ; `: the number found.
    Fields(usize),
    /// The id is not `8-NNNN` or `9-NNNN` for the position's board: the text found.
    Id(String),
    /// The position is no LFEN.
    Lfen(BadLfen),
    /// The game is already over in the position.
    GameOver,
    /// The answer is not a legal move in the position: its text and why.
    Answer(String, IllegalMove),
    /// A move of the line is not legal in turn.
    Line(ReplayError),
    /// The line does not start with the answer.
    LineStart,
    /// The line does not end with the side to move's win.
    LineEnd,
    /// N is not a whole number from 1 to [`MAX_MOVES`]: the text found.
    Moves(String),
    /// The line's length is not 2N-1 or 2N plies: the plies found, and N.
    LineLength(usize, u32),
    /// The rating is not a whole number: the text found.
    Rating(String),
    /// The source is empty.
    Source,
}

impl fmt::Display for PuzzleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PuzzleError::Fields(found) => write!(
                f,
                "a puzzle has 7 fields separated by ' ; ' (id ; LFEN ; answer ; line ; N ; \
                 rating ; source), this line has {found}"
            ),
            PuzzleError::Id(found) => write!(
                f,
                "id '{}' is not <size>-<number> with the position's size (8-0001)",
                shown(found)
            ),
            PuzzleError::Lfen(error) => write!(f, "position: {error}"),
            PuzzleError::GameOver => f.write_str("the game is already over in the position"),
            PuzzleError::Answer(text, error) => {
                write!(f, "answer '{}': {error}", shown(text))
            }
            PuzzleError::Line(error) => write!(f, "line: {error}"),
            PuzzleError::LineStart => f.write_str("the line does not start with the answer"),
            PuzzleError::LineEnd => {
                f.write_str("the line does not end with the win of the side to move")
            }
            PuzzleError::Moves(found) => write!(
                f,
                "N '{}' is not a whole number from 1 to {MAX_MOVES}",
                shown(found)
            ),
            PuzzleError::LineLength(plies, moves) => write!(
                f,
                "the line has {plies} plies, a win in {moves} has {} or {}",
                2 * moves - 1,
                2 * moves
            ),
            PuzzleError::Rating(found) => {
                write!(f, "rating '{}' is not a whole number", shown(found))
            }
            PuzzleError::Source => f.write_str("the source is empty"),
        }
    }
}

impl std::error::Error for PuzzleError {}

impl Puzzle {
    /// Reads one puzzle line (without its line break), checked as the module doc says.
    pub fn parse(text: &str) -> Result<Puzzle, PuzzleError> {
        let fields: Vec<&str> = text.split(" ; ").map(str::trim).collect();
        let [id, lfen, answer, line, moves, rating, source] = fields[..] else {
            return Err(PuzzleError::Fields(fields.len()));
        };
        let position = BadLfen::read(lfen).map_err(PuzzleError::Lfen)?;
        if !id_fits(id, position.size()) {
            return Err(PuzzleError::Id(id.to_owned()));
        }
        if position.is_game_over() {
            return Err(PuzzleError::GameOver);
        }
        let answer = position
            .parse_move(answer)
            .map_err(|error| PuzzleError::Answer(answer.to_owned(), error))?;
        let moves = moves
            .parse::<u32>()
            .ok()
            .filter(|n| (1..=MAX_MOVES).contains(n))
            .ok_or_else(|| PuzzleError::Moves(moves.to_owned()))?;
        let rating = rating
            .parse::<u32>()
            .map_err(|_| PuzzleError::Rating(rating.to_owned()))?;
        if source.is_empty() {
            return Err(PuzzleError::Source);
        }
        let (end, line) = position
            .replay(line.split_whitespace())
            .map_err(PuzzleError::Line)?;
        check_line(&position, answer, &line, &end, moves)?;
        Ok(Puzzle {
            id: id.to_owned(),
            position,
            answer,
            line,
            moves,
            rating,
            source: source.to_owned(),
        })
    }

    /// The id of puzzle `number` (from 1) on `size`: `8-0001`.
    pub fn id_for(size: BoardSize, number: usize) -> String {
        format!("{}-{number:04}", size.n())
    }
}

/// Whether `id` is `<size>-<digits>` for `size`.
fn id_fits(id: &str, size: BoardSize) -> bool {
    id.split_once('-').is_some_and(|(board, number)| {
        board == size.n().to_string()
            && !number.is_empty()
            && number.bytes().all(|b| b.is_ascii_digit())
    })
}

/// The line's checks: it starts with the answer, has 2N-1 or 2N plies and ends (in `end`) with
/// the win of the side to move of `position`.
fn check_line(
    position: &Position,
    answer: Move,
    line: &[Move],
    end: &Position,
    moves: u32,
) -> Result<(), PuzzleError> {
    if line.first() != Some(&answer) {
        return Err(PuzzleError::LineStart);
    }
    let plies = line.len();
    if plies + 1 < 2 * moves as usize || plies > 2 * moves as usize {
        return Err(PuzzleError::LineLength(plies, moves));
    }
    if end.winner() != Some(position.side_to_move()) {
        return Err(PuzzleError::LineEnd);
    }
    Ok(())
}

impl fmt::Display for Puzzle {
    /// The puzzle's line in the file (without its line break); the source's ` ; ` (which would
    /// split it) written as `, `.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let line: Vec<String> = self.line.iter().map(Move::to_string).collect();
        write!(
            f,
            "{} ; {} ; {} ; {} ; {} ; {} ; {}",
            self.id,
            self.position.to_lfen(),
            self.answer,
            line.join(" "),
            self.moves,
            self.rating,
            self.source.replace(" ; ", ", ").replace('\n', " ")
        )
    }
}

/// A puzzle file read: its settings line's JSON (when it has one) and its puzzles.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PuzzleFile {
    /// The JSON object after `# lielow puzzles ` on the first line, as written.
    pub settings: Option<String>,
    /// The puzzles, in the file's order.
    pub puzzles: Vec<Puzzle>,
}

/// Why a puzzle file does not read: the line (from 1) and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuzzleFileError {
    /// The line's number in the file, from 1.
    pub line: usize,
    /// What is wrong.
    pub error: PuzzleFileFault,
}

/// What is wrong with a line of a puzzle file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PuzzleFileFault {
    /// The puzzle does not read.
    Puzzle(PuzzleError),
    /// An id already used on an earlier line (its number).
    DuplicateId(String, usize),
}

impl fmt::Display for PuzzleFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.error {
            PuzzleFileFault::Puzzle(error) => write!(f, "line {}: {error}", self.line),
            PuzzleFileFault::DuplicateId(id, first) => write!(
                f,
                "line {}: id '{}' is already the id of line {first}",
                self.line,
                shown(id)
            ),
        }
    }
}

impl std::error::Error for PuzzleFileError {}

/// Reads a whole puzzle file: blank lines and `#` lines skipped (the first, when it starts with
/// [`SETTINGS_PREFIX`], kept as the settings), every other line a puzzle; the first line that
/// does not read refuses the file.
pub fn parse_file(text: &str) -> Result<PuzzleFile, PuzzleFileError> {
    let text = text.trim_start_matches('\u{feff}');
    let mut file = PuzzleFile::default();
    let mut ids = std::collections::HashMap::new();
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        let line = line.trim_end_matches('\r');
        if index == 0 {
            if let Some(settings) = line.strip_prefix(SETTINGS_PREFIX) {
                file.settings = Some(settings.trim().to_owned());
            }
        }
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let puzzle = Puzzle::parse(line).map_err(|error| PuzzleFileError {
            line: number,
            error: PuzzleFileFault::Puzzle(error),
        })?;
        if let Some(&first) = ids.get(&puzzle.id) {
            return Err(PuzzleFileError {
                line: number,
                error: PuzzleFileFault::DuplicateId(puzzle.id, first),
            });
        }
        ids.insert(puzzle.id.clone(), number);
        file.puzzles.push(puzzle);
    }
    Ok(file)
}

/// The text of a puzzle file: the settings line (`settings`, a JSON object), then one line a
/// puzzle.
pub fn write_file(settings: &str, puzzles: &[Puzzle]) -> String {
    let mut text = format!("{SETTINGS_PREFIX}{settings}\n");
    for puzzle in puzzles {
        text.push_str(&puzzle.to_string());
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A win in one: Blue's king takes Red's (the position of src/analysis/solve.rs's test).
    const IN_ONE: &str =
        "8-0001 ; 8/r1r1r15/8/3R24/8/3B24/b1b1b15/8 b ; d3xd5 ; d3xd5 ; 1 ; 600 ; crafted";

    #[test]
    fn a_puzzle_reads_and_writes_back_the_same() {
        let puzzle = Puzzle::parse(IN_ONE).unwrap();
        assert_eq!(puzzle.id, "8-0001");
        assert_eq!(puzzle.answer.to_string(), "d3xd5");
        assert_eq!((puzzle.moves, puzzle.rating), (1, 600));
        assert_eq!(puzzle.line.len(), 1);
        assert_eq!(puzzle.to_string(), IN_ONE);
        let text = write_file("{\"seed\":\"1\"}", std::slice::from_ref(&puzzle));
        let file = parse_file(&text).unwrap();
        assert_eq!(file.settings.as_deref(), Some("{\"seed\":\"1\"}"));
        assert_eq!(file.puzzles, vec![puzzle]);
    }

    #[test]
    fn a_source_with_the_separator_is_written_so_it_reads_back() {
        let mut puzzle = Puzzle::parse(IN_ONE).unwrap();
        puzzle.source = "a ; b".to_owned();
        assert_eq!(Puzzle::parse(&puzzle.to_string()).unwrap().source, "a, b");
    }

    #[test]
    fn malformed_lines_are_refused_with_the_reason() {
        let lfen = "8/r1r1r15/8/3R24/8/3B24/b1b1b15/8 b";
        let cases: Vec<(String, &str)> = vec![
            ("8-0001 ; x".to_owned(), "this line has 2"),
            (IN_ONE.replace("8-0001", "9-0001"), "id '9-0001'"),
            (IN_ONE.replace("8-0001", "8-"), "id '8-'"),
            (IN_ONE.replace(lfen, "8/zz b"), "position:"),
            (
                IN_ONE.replace(" ; d3xd5 ; d3xd5", " ; d3-d4 ; d3-d4"),
                "answer 'd3-d4'",
            ),
            (
                IN_ONE.replace(" ; d3xd5 ; d3xd5", " ; d3xd5 ; "),
                "line does not start",
            ),
            (
                IN_ONE.replace(" ; d3xd5 ; d3xd5", " ; d3xd5 ; d3xd5 d5-d6"),
                "line: move 2",
            ),
            (
                IN_ONE.replace(" ; d3xd5 ; d3xd5", " ; e2-e3 ; e2-e3"),
                "answer 'e2-e3'",
            ),
            (IN_ONE.replace(" ; 1 ; 600", " ; 0 ; 600"), "N '0'"),
            (IN_ONE.replace(" ; 1 ; 600", " ; x ; 600"), "N 'x'"),
            (
                IN_ONE.replace(" ; 1 ; 600", " ; 3 ; 600"),
                "the line has 1 plies",
            ),
            (IN_ONE.replace(" ; 600", " ; -5"), "rating '-5'"),
            (IN_ONE.replace(" ; crafted", " ; "), "the source is empty"),
        ];
        for (line, expected) in cases {
            let error = Puzzle::parse(&line).unwrap_err().to_string();
            assert!(error.contains(expected), "{line}: {error}");
        }
    }

    #[test]
    fn a_line_that_does_not_win_is_refused() {
        // Blue's king moves away instead of taking: the line is legal but wins nothing.
        let line = "8-0001 ; 8/r1r1r15/8/3R24/8/3B24/b1b1b15/8 b ; d3-d1 ; d3-d1 ; 1 ; 600 ; x";
        let error = Puzzle::parse(line).unwrap_err();
        assert_eq!(error, PuzzleError::LineEnd, "{error}");
    }

    #[test]
    fn a_bad_file_is_refused_with_its_line_number() {
        let text = format!("# lielow puzzles {{}}\n\n{IN_ONE}\n# note\n8-0002 ; 8/zz b\n");
        let error = parse_file(&text).unwrap_err();
        assert_eq!(error.line, 5, "{error}");
        assert!(error
            .to_string()
            .starts_with("line 5: a puzzle has 7 fields"));
        let twice = format!("{IN_ONE}\n{IN_ONE}\n");
        let error = parse_file(&twice).unwrap_err().to_string();
        assert_eq!(error, "line 2: id '8-0001' is already the id of line 1");
        assert_eq!(parse_file("").unwrap(), PuzzleFile::default());
    }
}
