//! Where the Introduction and Related Work sections are, and whether the rest
//! of the file is the template, byte for byte.
//!
//! A section is found by its heading: a line that starts with `\section` (or
//! `\section*`, with an optional short title) whose title names it —
//! "Introduction", or "Related Work" / "Prior Work" / "Literature Review",
//! in any letter case. Its body runs from the line after the heading to the
//! next line that starts a section, a chapter or a part, `\appendix`, the
//! bibliography or `\end{document}`. Headings in comments do not count,
//! because only a line whose first non-blank text is the command counts.
//!
//! Everything outside the two bodies (the headings included) must equal the
//! template. The one allowance is the end of the file: a fenced block cannot
//! say whether the file ended in a newline, so trailing blank space at the
//! very end is not compared.

use crate::error::{Error, ErrorKind, Result};
use serde::{Deserialize, Serialize};
use std::ops::Range;

/// Which of the two sections.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Which {
    /// The Introduction.
    Introduction,
    /// Related Work.
    RelatedWork,
}

impl Which {
    /// The section's name for people.
    pub fn name(self) -> &'static str {
        match self {
            Which::Introduction => "Introduction",
            Which::RelatedWork => "Related Work",
        }
    }
}

/// One of the two sections in a file: its heading and its body, as byte ranges.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    /// Which section.
    pub which: Which,
    /// The heading line (with its newline).
    pub heading: Range<usize>,
    /// The body: from after the heading line to the next boundary.
    pub body: Range<usize>,
}

/// The two sections of a file, in file order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    /// The sections found, in file order (at most one of each).
    pub sections: Vec<Section>,
}

impl Layout {
    /// The section `which`, if the file has it.
    pub fn get(&self, which: Which) -> Option<&Section> {
        self.sections.iter().find(|s| s.which == which)
    }
}

/// The `{title}` of a `\section…` command at the start of `line`, if it is one.
fn section_title(line: &str) -> Option<&str> {
    let rest = line.trim_start().strip_prefix("\\section")?;
    let rest = rest.strip_prefix('*').unwrap_or(rest).trim_start();
    let rest = match rest.strip_prefix('[') {
        Some(r) => r.get(r.find(']')? + 1..)?.trim_start(),
        None => rest,
    };
    let rest = rest.strip_prefix('{')?;
    let mut depth = 1usize;
    for (i, c) in rest.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return rest.get(..i);
                }
            }
            _ => {}
        }
    }
    Some(rest)
}

fn classify(title: &str) -> Option<Which> {
    let t: String = title
        .chars()
        .map(|c| {
            if c.is_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                ' '
            }
        })
        .collect();
    let t = t.split_whitespace().collect::<Vec<_>>().join(" ");
    if t.contains("introduction") {
        Some(Which::Introduction)
    } else if t.contains("related work")
        || t.contains("prior work")
        || t.contains("literature review")
    {
        Some(Which::RelatedWork)
    } else {
        None
    }
}

fn is_boundary(line: &str) -> bool {
    let t = line.trim_start();
    [
        "\\section",
        "\\chapter",
        "\\part",
        "\\appendix",
        "\\bibliography",
        "\\printbibliography",
        "\\begin{thebibliography}",
        "\\end{document}",
    ]
    .iter()
    .any(|b| t.starts_with(b))
}

/// Finds the two sections of a LaTeX file.
///
/// ```
/// use citegate_core::write::sections::{layout, Which};
/// let tex = "\\section{Introduction}\nA.\n\\section{Related Work}\nB.\n\\section{Method}\nC.\n";
/// let l = layout(tex);
/// assert_eq!(&tex[l.get(Which::RelatedWork).unwrap().body.clone()], "B.\n");
/// ```
pub fn layout(tex: &str) -> Layout {
    let mut lines: Vec<(usize, &str)> = Vec::new();
    let mut pos = 0;
    for line in tex.split_inclusive('\n') {
        lines.push((pos, line));
        pos += line.len();
    }
    let mut sections: Vec<Section> = Vec::new();
    for (i, (start, line)) in lines.iter().enumerate() {
        let Some(which) = section_title(line).and_then(classify) else {
            continue;
        };
        if sections.iter().any(|s| s.which == which) {
            continue;
        }
        let body_start = start + line.len();
        let body_end = lines
            .iter()
            .skip(i + 1)
            .find(|(_, l)| is_boundary(l))
            .map(|(s, _)| *s)
            .unwrap_or(tex.len());
        sections.push(Section {
            which,
            heading: *start..body_start,
            body: body_start..body_end,
        });
    }
    Layout { sections }
}

/// The template's layout, or an input error when it lacks either section.
pub fn template_layout(template: &str) -> Result<Layout> {
    let l = layout(template);
    for which in [Which::Introduction, Which::RelatedWork] {
        if l.get(which).is_none() {
            return Err(Error::new(
                ErrorKind::Tex,
                format!(
                    "the template has no \\section{{{}}}: the writing step fills the Introduction and Related Work sections of the template",
                    which.name()
                ),
            )
            .at(crate::error::Location::file("template.tex")));
        }
    }
    Ok(l)
}

/// The file with each section body replaced by a one-line marker, for comparing.
fn outside(tex: &str, l: &Layout) -> String {
    let mut out = String::with_capacity(tex.len());
    let mut at = 0;
    for s in &l.sections {
        out.push_str(tex.get(at..s.body.start).unwrap_or(""));
        out.push_str(&format!("[{} body]\n", s.which.name()));
        at = s.body.end;
    }
    out.push_str(tex.get(at..).unwrap_or(""));
    let kept = out.trim_end().len();
    out.truncate(kept);
    out.push('\n');
    out
}

/// The outcome of check (1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TemplateCheck {
    /// True iff everything outside the two bodies equals the template and both bodies have text.
    pub pass: bool,
    /// Sections the draft lacks.
    pub missing: Vec<Which>,
    /// Sections present but empty (blank or comments only).
    pub empty: Vec<Which>,
    /// A line-based unified diff of the template against the draft, outside
    /// the two bodies; empty when they agree.
    pub diff: String,
}

fn has_text(body: &str) -> bool {
    body.lines().any(|l| {
        let t = l.trim();
        !t.is_empty() && !t.starts_with('%')
    })
}

/// Check (1): the draft keeps everything outside the two sections and fills both.
///
/// ```
/// use citegate_core::write::sections::check_template;
/// let t = "\\section{Introduction}\n\\section{Related Work}\n\\section{Method}\nM.\n";
/// let d = "\\section{Introduction}\nI.\n\\section{Related Work}\nR.\n\\section{Method}\nM!\n";
/// let c = check_template(t, d);
/// assert!(!c.pass);
/// assert!(c.diff.contains("-M.\n+M!"));
/// ```
pub fn check_template(template: &str, draft: &str) -> TemplateCheck {
    let tl = layout(template);
    let dl = layout(draft);
    let missing: Vec<Which> = [Which::Introduction, Which::RelatedWork]
        .into_iter()
        .filter(|w| dl.get(*w).is_none())
        .collect();
    let empty: Vec<Which> = dl
        .sections
        .iter()
        .filter(|s| !has_text(draft.get(s.body.clone()).unwrap_or("")))
        .map(|s| s.which)
        .collect();
    let a = outside(template, &tl);
    let b = outside(draft, &dl);
    let diff = if a == b {
        String::new()
    } else {
        unified_line_diff(&a, &b, "template.tex", "draft")
    };
    TemplateCheck {
        pass: missing.is_empty() && empty.is_empty() && diff.is_empty(),
        missing,
        empty,
        diff,
    }
}

/// A unified diff of `old` against `new` by lines, two lines of context: the
/// text `similar::TextDiff::from_lines(old, new).unified_diff().context_radius(2)
/// .header(old_name, new_name)` gives (a test holds them equal), built on
/// similar's Myers alone. `TextDiff` chooses among five algorithms and two
/// line-key types at run time, so all of them were compiled in: about 167 KB
/// of the app's wasm for one diff (BENCHMARKS.md, App weight).
fn unified_line_diff(old: &str, new: &str, old_name: &str, new_name: &str) -> String {
    use similar::algorithms::{myers, Capture, Compact, Replace};
    let a = lines(old);
    let b = lines(new);
    let mut hook = Compact::new(Replace::new(Capture::new()), &a, &b);
    // The hooks' error type is `Infallible`: nothing to handle.
    let _ = myers::diff(&mut hook, &a, 0..a.len(), &b, 0..b.len());
    let ops = hook.into_inner().into_inner().into_ops();
    let mut out = String::new();
    for group in similar::group_diff_ops(ops, 2) {
        if group.is_empty() {
            continue;
        }
        if out.is_empty() {
            out.push_str(&format!("--- {old_name}\n+++ {new_name}\n"));
        }
        out.push_str(&format!(
            "{}\n",
            similar::udiff::UnifiedHunkHeader::new(&group)
        ));
        for op in &group {
            for change in op.iter_changes(&a[..], &b[..]) {
                let line = change.value();
                out.push_str(&format!("{}{line}", change.tag()));
                if !line.ends_with(['\r', '\n']) {
                    out.push_str("\n\\ No newline at end of file\n");
                }
            }
        }
    }
    out
}

/// `text` cut after each line terminator (`\n`, `\r\n` or a lone `\r`), the
/// terminators kept: the lines `similar::TextDiff::from_lines` compares.
fn lines(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        let end = match bytes[i] {
            b'\r' if bytes.get(i + 1) == Some(&b'\n') => i + 2,
            b'\r' | b'\n' => i + 1,
            _ => {
                i += 1;
                continue;
            }
        };
        out.push(text.get(start..end).unwrap_or(""));
        start = end;
        i = end;
    }
    if start < bytes.len() {
        out.push(text.get(start..).unwrap_or(""));
    }
    out
}

/// The two sections of the draft (headings and bodies, in file order): the
/// content of `intro_relwork.tex`.
pub fn sections_text(draft: &str) -> String {
    let l = layout(draft);
    let mut out = String::new();
    for s in &l.sections {
        out.push_str(draft.get(s.heading.start..s.body.end).unwrap_or(""));
        if !out.ends_with('\n') {
            out.push('\n');
        }
    }
    out
}

/// The template with the draft's two section bodies put in: the full file
/// with every other byte the template's, whatever else the draft changed.
/// A section the draft lacks keeps the template's body.
pub fn splice(template: &str, draft: &str) -> String {
    let tl = layout(template);
    let dl = layout(draft);
    let mut out = String::with_capacity(template.len() + draft.len());
    let mut at = 0;
    for s in &tl.sections {
        out.push_str(template.get(at..s.body.start).unwrap_or(""));
        let body = match dl.get(s.which) {
            Some(d) => draft.get(d.body.clone()).unwrap_or(""),
            None => template.get(s.body.clone()).unwrap_or(""),
        };
        out.push_str(body);
        if !body.is_empty() && !body.ends_with('\n') {
            out.push('\n');
        }
        at = s.body.end;
    }
    out.push_str(template.get(at..).unwrap_or(""));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: &str = "\\documentclass{article}\n\\begin{document}\n\\section{Introduction}\n% write here\n\\section{Related Work}\n\\section{Method}\nOur method.\n\\end{document}\n";

    fn d(intro: &str, rw: &str, method: &str) -> String {
        format!("\\documentclass{{article}}\n\\begin{{document}}\n\\section{{Introduction}}\n{intro}\\section{{Related Work}}\n{rw}\\section{{Method}}\n{method}\\end{{document}}\n")
    }

    /// (draft, pass, missing, empty, a line the diff must hold)
    fn check(draft: &str, pass: bool, missing: &[Which], empty: &[Which], diff_has: &str) {
        let c = check_template(T, draft);
        assert_eq!(c.pass, pass, "{draft:?}\n{}", c.diff);
        assert_eq!(c.missing, missing, "{draft:?}");
        assert_eq!(c.empty, empty, "{draft:?}");
        assert!(c.diff.contains(diff_has), "{draft:?}: diff {:?}", c.diff);
    }

    #[test]
    fn template_check() {
        use Which::*;
        check(
            &d("I \\cite{a}.\n", "R.\n", "Our method.\n"),
            true,
            &[],
            &[],
            "",
        );
        // Trailing newline at the very end is not compared.
        check(
            d("I.\n", "R.\n", "Our method.\n").trim_end(),
            true,
            &[],
            &[],
            "",
        );
        check(
            &d("I.\n", "R.\n", "Our new method.\n"),
            false,
            &[],
            &[],
            "-Our method.\n+Our new method.",
        );
        check(
            &d("I.\n", "", "Our method.\n"),
            false,
            &[],
            &[RelatedWork],
            "",
        );
        check(
            &d("% todo\n", "R.\n", "Our method.\n"),
            false,
            &[],
            &[Introduction],
            "",
        );
        check(
            &T.replace("\\documentclass{article}", "\\documentclass{revtex}"),
            false,
            &[],
            &[Introduction, RelatedWork],
            "+\\documentclass{revtex}",
        );
        let no_rw = "\\documentclass{article}\n\\begin{document}\n\\section{Introduction}\nI.\n\\section{Method}\nOur method.\n\\end{document}\n";
        check(
            no_rw,
            false,
            &[RelatedWork],
            &[],
            "-\\section{Related Work}",
        );
        // A changed heading is outside the bodies.
        check(
            &d("I.\n", "R.\n", "Our method.\n")
                .replace("\\section{Related Work}", "\\section{Related Works}"),
            false,
            &[],
            &[],
            "+\\section{Related Works}",
        );
    }

    #[test]
    fn headings() {
        let cases: &[(&str, Option<Which>)] = &[
            ("\\section{Introduction}", Some(Which::Introduction)),
            (
                "  \\section*{INTRODUCTION}\\label{sec:intro}",
                Some(Which::Introduction),
            ),
            (
                "\\section[Intro]{Introduction and Motivation}",
                Some(Which::Introduction),
            ),
            ("\\section{Related Work}", Some(Which::RelatedWork)),
            (
                "\\section{Background and Related~Work}",
                Some(Which::RelatedWork),
            ),
            ("\\section{Literature Review}", Some(Which::RelatedWork)),
            ("\\subsection{Introduction}", None),
            ("% \\section{Introduction}", None),
            ("\\section{Method}", None),
            ("\\section{Intro", None),
        ];
        for (line, want) in cases {
            assert_eq!(section_title(line).and_then(classify), *want, "{line:?}");
        }
    }

    #[test]
    fn template_without_sections_is_an_input_error() {
        assert!(template_layout(T).is_ok());
        let e = template_layout("\\section{Method}\n").unwrap_err();
        assert!(
            e.message.contains("no \\section{Introduction}"),
            "{}",
            e.message
        );
    }

    #[test]
    fn splice_and_sections_text() {
        let draft = d("I.\n", "R.\n", "Changed.\n");
        let full = splice(T, &draft);
        assert_eq!(
            full,
            T.replace("% write here\n", "I.\n")
                .replace("\\section{Related Work}\n", "\\section{Related Work}\nR.\n")
        );
        assert_eq!(
            sections_text(&draft),
            "\\section{Introduction}\nI.\n\\section{Related Work}\nR.\n"
        );
        // Bodies cut at the bibliography and \end{document}.
        let t = "\\section{Related Work}\nR.\n\\bibliography{refs}\n";
        assert_eq!(sections_text(t), "\\section{Related Work}\nR.\n");
    }

    /// `unified_line_diff` equals similar's `TextDiff` unified diff.
    fn check_diff(old: &str, new: &str) {
        let expected = similar::TextDiff::from_lines(old, new)
            .unified_diff()
            .context_radius(2)
            .header("a", "b")
            .to_string();
        assert_eq!(
            unified_line_diff(old, new, "a", "b"),
            expected,
            "{old:?} -> {new:?}"
        );
    }

    #[test]
    fn line_diff_equals_similar_text_diff() {
        check_diff("", "");
        check_diff("a\n", "a\n");
        check_diff("a\n", "b\n");
        check_diff("a", "b");
        check_diff("a\nb", "a\nb\n");
        check_diff("", "x\ny\n");
        check_diff("x\ny\n", "");
        check_diff("a\r\nb\rc\n", "a\nb\r\nc\n");
        check_diff("a\r\r\nb\n", "a\r\nb\n");
        check_diff("1\n2\n3\n4\n5\n6\n7\n8\n9\n", "1\n2\nX\n4\n5\n6\n7\n8\nY\n");
        // Generated pairs: short lines from a small vocabulary (many repeats),
        // up to 160 lines (above 100 similar hashes lines to integers first),
        // with CRLF, lone CR and a missing last newline now and then.
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        for round in 0..300 {
            let len = next(if round % 10 == 0 { 160 } else { 30 }) as usize;
            let mut old = String::new();
            for _ in 0..len {
                old.push(char::from(b'a' + next(6) as u8));
                old.push_str(["\n", "\n", "\n", "\r\n", "\r"][next(5) as usize]);
            }
            let mut new = String::new();
            for line in old.split_inclusive('\n') {
                match next(8) {
                    0 => {}
                    1 => new.push_str("z\n"),
                    2 => {
                        new.push_str(line);
                        new.push_str("q\n");
                    }
                    _ => new.push_str(line),
                }
            }
            if next(4) == 0 {
                new.pop();
            }
            check_diff(&old, &new);
        }
    }
}
