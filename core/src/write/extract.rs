//! Taking the LaTeX file out of a model's answer.
//!
//! The prompt asks for the whole file in one ```` ```latex ```` block, but
//! models also answer with a `tex` block, an untagged block, several blocks
//! (a short excerpt, then the file) or bare LaTeX with no fence at all. The
//! rule: among the fenced blocks, prefer the ones that hold a whole document
//! (`\documentclass` or `\begin{document}`), then the ones tagged `latex` or
//! `tex`, then the longest; with no fence, take the answer from its first
//! `\documentclass` to its last `\end{document}`. A fence that is opened and
//! never closed means the answer was cut off, which is reported as such
//! rather than checked as a truncated file.

use crate::error::{Error, ErrorKind, Result};

/// Why no LaTeX file could be taken from an answer.
fn no_block(msg: &str) -> Error {
    Error::new(ErrorKind::Tex, msg)
}

struct Block<'a> {
    tag: &'a str,
    body: &'a str,
}

/// Splits `answer` into its fenced blocks (```` ``` ```` or `~~~` fences at
/// the start of a line). `Err(())` when a fence is left open.
fn fenced_blocks(answer: &str) -> std::result::Result<Vec<Block<'_>>, ()> {
    let mut blocks = Vec::new();
    let mut open: Option<(&str, &str, usize)> = None; // (fence, tag, body start)
    let mut pos = 0usize;
    for line in answer.split_inclusive('\n') {
        let start = pos;
        pos += line.len();
        let trimmed = line.trim();
        match open {
            None => {
                for fence in ["```", "~~~"] {
                    if let Some(rest) = trimmed.strip_prefix(fence) {
                        let tag = rest.trim_start_matches(fence.as_bytes()[0] as char).trim();
                        if !tag.contains(fence) {
                            open = Some((fence, tag, pos));
                        }
                        break;
                    }
                }
            }
            Some((fence, tag, body_start)) => {
                if trimmed.starts_with(fence)
                    && trimmed
                        .trim_start_matches(fence.as_bytes()[0] as char)
                        .is_empty()
                {
                    blocks.push(Block {
                        tag,
                        body: answer.get(body_start..start).unwrap_or(""),
                    });
                    open = None;
                }
            }
        }
    }
    if open.is_some() {
        return Err(());
    }
    Ok(blocks)
}

fn is_document(text: &str) -> bool {
    text.contains("\\documentclass") || text.contains("\\begin{document}")
}

fn is_latex_tag(tag: &str) -> bool {
    matches!(
        tag.to_ascii_lowercase().as_str(),
        "latex" | "tex" | "text/latex" | "context" | "plaintex"
    )
}

/// The LaTeX file in a model's answer, without its fence.
///
/// ```
/// use citegate_core::write::extract_latex;
/// let a = "Here it is:\n```latex\n\\documentclass{article}\n\\begin{document}\nx\n\\end{document}\n```\nDone.";
/// assert!(extract_latex(a).unwrap().starts_with("\\documentclass"));
/// assert!(extract_latex("I cannot help with that.").is_err());
/// ```
pub fn extract_latex(answer: &str) -> Result<String> {
    let blocks = fenced_blocks(answer).map_err(|()| {
        no_block("the answer opens a code block and never closes it (it may have been cut off: raise the output limit or shorten the inputs)")
    })?;
    let best = blocks
        .iter()
        .filter(|b| !b.body.trim().is_empty())
        .max_by_key(|b| (is_document(b.body), is_latex_tag(b.tag), b.body.len()));
    if let Some(b) = best {
        if is_document(b.body) || is_latex_tag(b.tag) || b.body.contains("\\section") {
            return Ok(b.body.to_string());
        }
    }
    // No usable fence: bare LaTeX from the first \documentclass to the last \end{document}.
    if let Some(start) = answer.find("\\documentclass") {
        let end_marker = "\\end{document}";
        if let Some(end) = answer.rfind(end_marker).filter(|e| *e > start) {
            return Ok(answer
                .get(start..end + end_marker.len())
                .unwrap_or("")
                .to_string()
                + "\n");
        }
        return Err(no_block(
            "the answer's latex has \\documentclass but no \\end{document} (it may have been cut off)",
        ));
    }
    Err(no_block(
        "the answer holds no latex file: expected the whole template in one ```latex block",
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = "\\documentclass{article}\n\\begin{document}\nx\n\\end{document}\n";

    fn check(answer: &str, expected: std::result::Result<&str, &str>) {
        let got = extract_latex(answer);
        match (got, expected) {
            (Ok(g), Ok(e)) => assert_eq!(g, e, "{answer:?}"),
            (Err(g), Err(e)) => assert!(g.message.contains(e), "{answer:?}: {}", g.message),
            (g, e) => panic!("{answer:?}: got {g:?}, expected {e:?}"),
        }
    }

    #[test]
    fn takes_the_right_block() {
        check(&format!("```latex\n{DOC}```"), Ok(DOC));
        check(
            &format!("Sure.\n\n```tex\n{DOC}```\nHope it helps."),
            Ok(DOC),
        );
        check(&format!("```\n{DOC}```"), Ok(DOC));
        check(&format!("```LaTeX\r\n{DOC}```\r\n"), Ok(DOC));
        check(&format!("~~~latex\n{DOC}~~~\n"), Ok(DOC));
        // An excerpt first, then the file: the file wins.
        check(
            &format!("```latex\n\\cite{{a}}\n```\nfull:\n```latex\n{DOC}```"),
            Ok(DOC),
        );
        // A JSON block beside the file: the file wins.
        check(&format!("```json\n{{}}\n```\n```\n{DOC}```"), Ok(DOC));
        // Bare LaTeX with chatter around it.
        check(&format!("Here:\n{DOC}That's all."), Ok(DOC));
        check(
            "```latex\n\\section{Introduction}\nx\n```",
            Ok("\\section{Introduction}\nx\n"),
        );
    }

    #[test]
    fn reports_missing_or_cut_blocks() {
        check("I cannot do that.", Err("holds no latex file"));
        check("", Err("holds no latex file"));
        check("```json\n{}\n```", Err("holds no latex file"));
        check(
            "```latex\n\\documentclass{article}\n\\begin{doc",
            Err("never closes"),
        );
        check(
            "\\documentclass{article}\n\\begin{document}\nx",
            Err("no \\end{document}"),
        );
    }
}
