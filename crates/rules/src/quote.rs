//! How a message quotes input text it could not read.
//!
//! The input may be anything a program was sent (a protocol line, a JSON request, a file):
//! a message that quotes it must stay one short line whatever it holds. The other errors of this
//! crate never repeat their input, so the caller quotes it with [`shown`]; [`ReplayError`],
//! which has to say which move of a list was bad, quotes it itself the same way.
//!
//! [`ReplayError`]: crate::play::ReplayError

/// Input text as quoted in an error: at most 40 characters, control characters as `?`, so an
/// error line stays one short line whatever was sent.
///
/// ```
/// use lielow_rules::quote::shown;
///
/// assert_eq!(shown("e2\n-e3"), "e2?-e3");
/// assert_eq!(shown(&"x".repeat(50)), format!("{}...", "x".repeat(40)));
/// ```
pub fn shown(text: &str) -> String {
    const LIMIT: usize = 40;
    let mut out: String = text
        .chars()
        .take(LIMIT)
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    if text.chars().nth(LIMIT).is_some() {
        out.push_str("...");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_clean_text_is_kept_and_long_text_cut_at_forty_characters() {
        assert_eq!(shown("b2-e5"), "b2-e5");
        assert_eq!(shown(""), "");
        let forty = "é".repeat(40);
        assert_eq!(
            shown(&forty),
            forty,
            "40 characters, not bytes, are kept whole"
        );
        assert_eq!(shown(&format!("{forty}z")), format!("{forty}..."));
        assert_eq!(shown("a\tb\u{7f}c"), "a?b?c");
    }
}
