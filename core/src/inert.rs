//! Making text from outside sources inert before it goes into a text output.
//!
//! Titles, names and abstracts come from APIs and files we do not control.
//! In JSON they are safe (serde escapes them), but in the text outputs —
//! exported BibTeX, the coverage re-prompt handed to a writing model, lines
//! printed on a terminal — a newline can forge a new list item or entry, an
//! escape byte can drive the terminal, and a bidirectional override can make
//! the text read differently from what it is. The policy is deliberately
//! blunt: every control character becomes a space, and the invisible
//! direction controls are dropped. Markup such as `<script>` needs no
//! treatment here: none of these outputs is interpreted as HTML.

/// Whether `c` is an invisible bidirectional formatting character (the
/// marks, embeddings, overrides and isolates of Unicode's bidi algorithm).
pub fn is_bidi_control(c: char) -> bool {
    matches!(
        c,
        '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
    )
}

/// `text` on one line: control characters (newlines, tabs, escape, NUL, the
/// C1 range) become spaces and bidi controls are removed.
///
/// ```
/// use citegate_core::inert::one_line;
/// assert_eq!(one_line("a\nb\u{1b}[31m\u{202E}c"), "a b [31mc");
/// ```
pub fn one_line(text: &str) -> String {
    text.chars()
        .filter(|c| !is_bidi_control(*c))
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}
