//! Decoding LaTeX text (as found in titles and BibTeX values) into Unicode.
//!
//! This is not a TeX engine. It knows the accent commands, the named letters
//! (`\ss`, `\o`, `\ae`, …), escaped specials (`\&`, `\%`), dashes and ties,
//! and drops the braces and formatting commands (`\emph{x}` → `x`) that only
//! change how text looks. That is what matching titles and names needs; the
//! original text is always kept by callers for display.

/// Combining mark for a one-character accent command (`\"` → U+0308).
fn accent_mark(cmd: char) -> Option<char> {
    Some(match cmd {
        '"' => '\u{0308}',
        '\'' => '\u{0301}',
        '`' => '\u{0300}',
        '^' => '\u{0302}',
        '~' => '\u{0303}',
        '=' => '\u{0304}',
        '.' => '\u{0307}',
        _ => return None,
    })
}

/// Combining mark for a letter accent command (`\v` → caron).
fn letter_accent_mark(cmd: &str) -> Option<char> {
    Some(match cmd {
        "u" => '\u{0306}',
        "v" => '\u{030C}',
        "H" => '\u{030B}',
        "c" => '\u{0327}',
        "d" => '\u{0323}',
        "b" => '\u{0331}',
        "r" => '\u{030A}',
        "k" => '\u{0328}',
        "t" => '\u{0361}',
        _ => return None,
    })
}

/// A named letter or symbol (`\ss` → ß).
fn named_symbol(cmd: &str) -> Option<&'static str> {
    Some(match cmd {
        "ss" => "ß",
        "SS" => "SS",
        "o" => "ø",
        "O" => "Ø",
        "ae" => "æ",
        "AE" => "Æ",
        "oe" => "œ",
        "OE" => "Œ",
        "aa" => "å",
        "AA" => "Å",
        "l" => "ł",
        "L" => "Ł",
        "i" => "ı",
        "j" => "ȷ",
        "dh" => "ð",
        "DH" => "Ð",
        "th" => "þ",
        "TH" => "Þ",
        "ng" => "ŋ",
        "NG" => "Ŋ",
        "dj" => "đ",
        "DJ" => "Đ",
        "textendash" => "–",
        "textemdash" => "—",
        "textquoteright" => "’",
        "textquoteleft" => "‘",
        "textasciitilde" => "~",
        "textbackslash" => "\\",
        "LaTeX" => "LaTeX",
        "LaTeXe" => "LaTeX2e",
        "TeX" => "TeX",
        "BibTeX" => "BibTeX",
        "XeTeX" => "XeTeX",
        "XeLaTeX" => "XeLaTeX",
        "LuaTeX" => "LuaTeX",
        "LuaLaTeX" => "LuaLaTeX",
        "pdfTeX" => "pdfTeX",
        "pdfLaTeX" => "pdfLaTeX",
        "eTeX" => "e-TeX",
        "ConTeXt" => "ConTeXt",
        "AmS" | "AMS" => "AMS",
        "MF" => "Metafont",
        "MP" => "MetaPost",
        "ldots" | "dots" | "textellipsis" => "…",
        "S" => "§",
        "P" => "¶",
        "copyright" => "©",
        _ => return None,
    })
}

/// A math symbol or operator name (`\alpha` → α, `\log` → log, `\leq` → ≤).
/// Unlike a text command it keeps the spaces after it: in `$O(n \log n)$`
/// they separate words once the math is flattened into text.
fn math_symbol(cmd: &str) -> Option<&'static str> {
    Some(match cmd {
        "alpha" => "α",
        "beta" => "β",
        "gamma" => "γ",
        "delta" => "δ",
        "epsilon" | "varepsilon" => "ε",
        "zeta" => "ζ",
        "eta" => "η",
        "theta" | "vartheta" => "θ",
        "iota" => "ι",
        "kappa" => "κ",
        "lambda" => "λ",
        "mu" => "μ",
        "nu" => "ν",
        "xi" => "ξ",
        "pi" => "π",
        "rho" | "varrho" => "ρ",
        "sigma" => "σ",
        "varsigma" => "ς",
        "tau" => "τ",
        "upsilon" => "υ",
        "phi" | "varphi" => "φ",
        "chi" => "χ",
        "psi" => "ψ",
        "omega" => "ω",
        "Gamma" => "Γ",
        "Delta" => "Δ",
        "Theta" => "Θ",
        "Lambda" => "Λ",
        "Xi" => "Ξ",
        "Pi" => "Π",
        "Sigma" => "Σ",
        "Upsilon" => "Υ",
        "Phi" => "Φ",
        "Psi" => "Ψ",
        "Omega" => "Ω",
        "log" => "log",
        "ln" => "ln",
        "lg" => "lg",
        "exp" => "exp",
        "sin" => "sin",
        "cos" => "cos",
        "tan" => "tan",
        "max" => "max",
        "min" => "min",
        "sup" => "sup",
        "inf" => "inf",
        "lim" => "lim",
        "arg" => "arg",
        "det" => "det",
        "dim" => "dim",
        "ker" => "ker",
        "gcd" => "gcd",
        "Pr" => "Pr",
        "times" => "×",
        "cdot" => "·",
        "pm" => "±",
        "mp" => "∓",
        "le" | "leq" => "≤",
        "ge" | "geq" => "≥",
        "ne" | "neq" => "≠",
        "ll" => "≪",
        "gg" => "≫",
        "approx" => "≈",
        "sim" => "∼",
        "simeq" => "≃",
        "equiv" => "≡",
        "propto" => "∝",
        "infty" => "∞",
        "in" => "∈",
        "notin" => "∉",
        "subset" => "⊂",
        "subseteq" => "⊆",
        "cup" => "∪",
        "cap" => "∩",
        "to" | "rightarrow" => "→",
        "leftarrow" | "gets" => "←",
        "Rightarrow" => "⇒",
        "leftrightarrow" => "↔",
        "mapsto" => "↦",
        "partial" => "∂",
        "nabla" => "∇",
        "ell" => "ℓ",
        "forall" => "∀",
        "exists" => "∃",
        "sum" => "∑",
        "prod" => "∏",
        "int" => "∫",
        "sqrt" => "√",
        "circ" => "∘",
        "star" => "⋆",
        "ast" => "∗",
        "langle" => "⟨",
        "rangle" => "⟩",
        "lfloor" => "⌊",
        "rfloor" => "⌋",
        "lceil" => "⌈",
        "rceil" => "⌉",
        "vert" | "mid" => "|",
        _ => return None,
    })
}

/// Decodes LaTeX markup in `input` into plain Unicode text (NFC).
///
/// ```
/// use citegate_core::latex::decode;
/// assert_eq!(decode(r#"Schr{\"o}dinger"#), "Schrödinger");
/// assert_eq!(decode(r"{\ss}e \& \'{e}t\'e -- \emph{now}"), "ße & été – now");
/// ```
pub fn decode(input: &str) -> String {
    let chars: Vec<char> = input.chars().collect();
    let mut out = String::with_capacity(input.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '{' | '}' => i += 1,
            '$' => i += 1,
            '~' => {
                out.push(' ');
                i += 1;
            }
            '-' => {
                let run = chars[i..].iter().take_while(|&&d| d == '-').count();
                match run {
                    1 => out.push('-'),
                    2 => out.push('–'),
                    _ => out.push('—'),
                }
                i += run.min(3);
            }
            '\\' => i = decode_command(&chars, i, &mut out),
            _ => {
                out.push(c);
                i += 1;
            }
        }
    }
    crate::unicode::nfc(&out)
}

/// Skips spaces at `i`.
fn skip_spaces(chars: &[char], mut i: usize) -> usize {
    while i < chars.len() && chars[i] == ' ' {
        i += 1;
    }
    i
}

/// Reads the argument of an accent: `{x}`, `{\i}`, `x`. Returns the base text and the next index.
fn accent_argument(chars: &[char], i: usize) -> (String, usize) {
    let i = skip_spaces(chars, i);
    if i >= chars.len() {
        return (String::new(), i);
    }
    if chars[i] == '{' {
        // Up to the matching brace, decoded (handles `{\i}`).
        let mut depth = 0usize;
        let mut j = i;
        while j < chars.len() {
            match chars[j] {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                _ => {}
            }
            j += 1;
        }
        let inner: String = chars[i + 1..j.min(chars.len())].iter().collect();
        (decode(&inner), (j + 1).min(chars.len()))
    } else if chars[i] == '\\' {
        let mut s = String::new();
        let next = decode_command(chars, i, &mut s);
        (s, next)
    } else {
        (chars[i].to_string(), i + 1)
    }
}

/// Puts `mark` after the first character of `base` (dotless i and j get their dot back).
fn push_accented(out: &mut String, base: &str, mark: char) {
    let mut it = base.chars();
    if let Some(first) = it.next() {
        let first = match first {
            'ı' => 'i',
            'ȷ' => 'j',
            other => other,
        };
        out.push(first);
        out.push(mark);
        out.extend(it);
    }
}

/// Decodes the command starting at the backslash at `i`; returns the index after it.
fn decode_command(chars: &[char], i: usize, out: &mut String) -> usize {
    let Some(&next) = chars.get(i + 1) else {
        return i + 1;
    };
    if let Some(mark) = accent_mark(next) {
        let (base, j) = accent_argument(chars, i + 2);
        push_accented(out, &base, mark);
        return j;
    }
    if !next.is_ascii_alphabetic() {
        // Escaped special (`\&`, `\%`, `\_`, `\{`), a control space, or `\\`.
        match next {
            '\\' => out.push(' '),
            ' ' => out.push(' '),
            ',' | ';' | '!' | '/' => {}
            other => out.push(other),
        }
        return i + 2;
    }
    let mut j = i + 1;
    while j < chars.len() && chars[j].is_ascii_alphabetic() {
        j += 1;
    }
    let name: String = chars[i + 1..j].iter().collect();
    if let Some(mark) = letter_accent_mark(&name) {
        let (base, k) = accent_argument(chars, j);
        push_accented(out, &base, mark);
        return k;
    }
    if let Some(sym) = named_symbol(&name) {
        out.push_str(sym);
        // A control word eats the spaces after it; `\ss{}` has an empty group.
        let mut k = skip_spaces(chars, j);
        if chars.get(k) == Some(&'{') && chars.get(k + 1) == Some(&'}') {
            k += 2;
        }
        return k;
    }
    if let Some(sym) = math_symbol(&name) {
        out.push_str(sym);
        return j;
    }
    // Any other command (`\emph`, `\textbf`, `\url`…) only formats its argument: drop the name.
    skip_spaces(chars, j)
}

#[cfg(test)]
mod tests {
    use super::decode;

    fn check(input: &str, expected: &str) {
        assert_eq!(decode(input), expected, "decoding {input:?}");
    }

    #[test]
    fn decodes_latex() {
        check(r#"{\"o}"#, "ö");
        check(r#"\"o"#, "ö");
        check(r#"\"{o}"#, "ö");
        check(r"\'e", "é");
        check(r"\'{e}", "é");
        check(r"{\'E}cole", "École");
        check(r"{\ss}", "ß");
        check(r"Stra\ss e", "Straße");
        check(r"\c{c}a", "ça");
        check(r"\v{s}", "š");
        check(r"\'{\i}", "í");
        check(r#"\AA ngstr\"om"#, "Ångström");
        check(r"{\o}ystein", "øystein");
        check("a -- b --- c - d", "a – b — c - d");
        check(r"R\&D 50\% \$", "R&D 50% $");
        check(r"\emph{Deep} \textbf{Learning}", "Deep Learning");
        check("{BERT}: Pre-training", "BERT: Pre-training");
        check("Hello~World", "Hello World");
        check(r"$\alpha$-divergence", "α-divergence");
        check("plain ascii", "plain ascii");
    }

    /// TeX logos and simple math in titles read as text.
    #[test]
    fn decodes_logos_and_simple_math() {
        check(r"{\LaTeX}", "LaTeX");
        check(r"A {\LaTeX} package", "A LaTeX package");
        check(r"The \TeX book", "The TeXbook");
        check(r"The \TeX{} book", "The TeX book");
        check(r"Using \LaTeX\ and \BibTeX", "Using LaTeX and BibTeX");
        check(r"\LaTeXe{} for authors", "LaTeX2e for authors");
        check(r"{\XeTeX} and {\LuaTeX}", "XeTeX and LuaTeX");
        check(r"An $O(n \log n)$ algorithm", "An O(n log n) algorithm");
        check(r"$O(\log^2 n)$ time", "O(log^2 n) time");
        check(r"$\mathcal{O}(n)$ bounds", "O(n) bounds");
        check(r"$k \leq n$ and $\epsilon > 0$", "k ≤ n and ε > 0");
        check(r"$\alpha \beta$", "α β");
        check(r"$\ell_1$ regularization", "ℓ_1 regularization");
        check(r"Fast $\sqrt{n}$-approximation", "Fast √n-approximation");
        check(r"$\Omega(n^2)$ lower bound", "Ω(n^2) lower bound");
    }

    #[test]
    fn unbalanced_and_trailing_input_does_not_panic() {
        check(r"\", "");
        check(r#"\""#, "");
        check(r"\'{", "");
        check("}{", "");
        check(r"\v", "");
    }
}
