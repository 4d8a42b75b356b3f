//! PGN text cut into tokens, each with its line: tag pairs, comments (`{...}` and `;` to the
//! end of the line), NAGs (`$3`), variation brackets, move numbers, game results and move
//! words. Lines starting with `%` (PGN's escape) are skipped.

/// One piece of PGN text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Token<'a> {
    /// `[Name "value"]`, the value's escapes (`\"`, `\\`) undone.
    Tag(&'a str, String),
    /// A comment's text, without its brackets.
    Comment(&'a str),
    /// A numeric annotation glyph (`$1`).
    Nag,
    /// A move number (`12.`, `12...`).
    Number,
    /// `(`: a variation begins.
    Open,
    /// `)`: a variation ends.
    Close,
    /// A game's termination marker: `1-0`, `0-1`, `1/2-1/2` or `*`.
    Result(&'a str),
    /// A move, its annotation marks (`!`, `?`) cut off.
    Move(&'a str),
}

/// Why the text cannot be cut into tokens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LexError {
    /// A tag that is not `[Name "value"]`.
    Tag,
    /// A `{` comment that never closes.
    Comment,
}

/// The results PGN knows.
pub const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// Characters that end a move word.
const DELIMITERS: &[char] = &['[', ']', '{', '}', '(', ')', ';', '$'];

/// The tokens of `text`, each with its line (from 1), up to the first error.
pub fn tokens(text: &str) -> Lexer<'_> {
    Lexer {
        text,
        at: 0,
        line: 1,
        failed: false,
    }
}

/// The tokens of a text, in order ([`tokens`]).
pub struct Lexer<'a> {
    text: &'a str,
    at: usize,
    line: usize,
    failed: bool,
}

impl<'a> Iterator for Lexer<'a> {
    type Item = Result<(usize, Token<'a>), (usize, LexError)>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        let next = self.token().transpose();
        self.failed = matches!(next, Some(Err(_)));
        next
    }
}

impl<'a> Lexer<'a> {
    fn rest(&self) -> &'a str {
        &self.text[self.at..]
    }

    /// Moves on by `n` bytes, counting line breaks.
    fn advance(&mut self, n: usize) {
        self.line += self.text[self.at..self.at + n].matches('\n').count();
        self.at += n;
    }

    /// Skips white space and `%` escape lines.
    fn skip_space(&mut self) {
        loop {
            let rest = self.rest();
            let trimmed = rest.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
            self.advance(rest.len() - trimmed.len());
            let at_line_start = self.at == 0 || self.text[..self.at].ends_with('\n');
            if at_line_start && self.rest().starts_with('%') {
                let end = self.rest().find('\n').unwrap_or(self.rest().len());
                self.advance(end);
            } else {
                return;
            }
        }
    }

    fn token(&mut self) -> Result<Option<(usize, Token<'a>)>, (usize, LexError)> {
        self.skip_space();
        let line = self.line;
        let rest = self.rest();
        let Some(first) = rest.chars().next() else {
            return Ok(None);
        };
        let token = match first {
            '[' => self.tag().ok_or((line, LexError::Tag))?,
            '{' => {
                let end = rest.find('}').ok_or((line, LexError::Comment))?;
                self.advance(end + 1);
                Token::Comment(&rest[1..end])
            }
            ';' => {
                let end = rest.find('\n').unwrap_or(rest.len());
                self.advance(end);
                Token::Comment(&rest[1..end])
            }
            '(' | ')' => {
                self.advance(1);
                if first == '(' {
                    Token::Open
                } else {
                    Token::Close
                }
            }
            '$' => {
                let digits = rest[1..].len()
                    - rest[1..]
                        .trim_start_matches(|c: char| c.is_ascii_digit())
                        .len();
                self.advance(1 + digits);
                Token::Nag
            }
            ']' => return Err((line, LexError::Tag)),
            _ => return Ok(Some((line, self.word()))),
        };
        Ok(Some((line, token)))
    }

    /// A tag pair, from its `[` to its `]`.
    fn tag(&mut self) -> Option<Token<'a>> {
        let rest = self.rest();
        let inner = rest[1..].trim_start_matches([' ', '\t']);
        let name_len = inner
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(inner.len());
        let (name, after) = inner.split_at(name_len);
        let after = after.trim_start_matches([' ', '\t']);
        if name.is_empty() || !after.starts_with('"') {
            return None;
        }
        let mut value = String::new();
        let mut chars = after[1..].char_indices();
        let close = loop {
            match chars.next()? {
                (_, '\\') => value.push(chars.next()?.1),
                (_, '\n') => return None,
                (i, '"') => break i,
                (_, c) => value.push(c),
            }
        };
        let tail = &after[1 + close + 1..];
        let tail_trimmed = tail.trim_start_matches([' ', '\t']);
        if !tail_trimmed.starts_with(']') {
            return None;
        }
        let used = rest.len() - tail_trimmed.len() + 1;
        self.advance(used);
        Some(Token::Tag(name, value))
    }

    /// A word: a result, a move number (a move written against it, `12.a2-a3`, is the next
    /// token) or a move.
    fn word(&mut self) -> Token<'a> {
        let rest = self.rest();
        let end = rest
            .find(|c: char| c.is_whitespace() || DELIMITERS.contains(&c))
            .unwrap_or(rest.len());
        let word = &rest[..end];
        if RESULTS.contains(&word) {
            self.advance(end);
            return Token::Result(word);
        }
        let digits = word.len() - word.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let dots = word[digits..].len() - word[digits..].trim_start_matches('.').len();
        if digits > 0 && dots > 0 {
            // A move number: what follows its dots is read as the next word.
            self.advance(digits + dots);
            return Token::Number;
        }
        self.advance(end.max(1));
        let mv = word.trim_end_matches(['!', '?']);
        Token::Move(if mv.is_empty() {
            &rest[..end.max(1)]
        } else {
            mv
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<Token<'_>> {
        tokens(text).map(|t| t.unwrap().1).collect()
    }

    #[test]
    fn the_pieces_of_pgn_are_told_apart() {
        let text = "[Event \"a \\\"b\\\"\"]\n%escaped\n1. a2-a3 {c} 1... a7-a6! $2 (2. x) ; rest\n2.b2-b3 *";
        assert_eq!(
            kinds(text),
            vec![
                Token::Tag("Event", "a \"b\"".to_owned()),
                Token::Number,
                Token::Move("a2-a3"),
                Token::Comment("c"),
                Token::Number,
                Token::Move("a7-a6"),
                Token::Nag,
                Token::Open,
                Token::Number,
                Token::Move("x"),
                Token::Close,
                Token::Comment(" rest"),
                Token::Number,
                Token::Move("b2-b3"),
                Token::Result("*"),
            ]
        );
        let lines: Vec<usize> = tokens(text).map(|t| t.unwrap().0).collect();
        assert_eq!(lines[0], 1);
        assert_eq!(*lines.last().unwrap(), 4);
    }

    fn first_error(text: &str) -> Option<(usize, LexError)> {
        tokens(text).find_map(Result::err)
    }

    #[test]
    fn a_bad_tag_or_an_open_comment_is_refused_with_its_line() {
        assert_eq!(first_error("\n[Event x]"), Some((2, LexError::Tag)));
        assert_eq!(first_error("[Event \"x\""), Some((1, LexError::Tag)));
        assert_eq!(first_error("[\"x\"]"), Some((1, LexError::Tag)));
        assert_eq!(
            first_error("1. a2-a3 {never\n closed"),
            Some((1, LexError::Comment))
        );
        assert_eq!(
            tokens("[Event x] 1. a2-a3 *").count(),
            1,
            "nothing after an error"
        );
    }
}
