//! The TypeScript declarations of the package (`citegate.d.ts` beside
//! `Cargo.toml`, which `lib.rs` puts into wasm-bindgen's `.d.ts`): derived by
//! ts-rs from the Rust types of every value that crosses the boundary, read
//! from the same serde attributes that shape their JSON, plus the few
//! declarations no Rust type stands for, written by hand below.
//!
//! `cargo test -p citegate-js` fails when the committed file is not what the
//! types give; `CITEGATE_WRITE_TYPES=1 cargo test -p citegate-js types`
//! writes it anew.

use std::any::TypeId;
use std::collections::{BTreeMap, HashSet};
use ts_rs::{Config, TypeVisitor, TS};

/// Declarations that no Rust type derives, each marked with why.
const HAND_WRITTEN: &str = r#"/** Hand-written: JavaScript's own `Error` with the two properties `throw` in lib.rs sets. Every function of this package throws it. */
export interface CitegateError extends Error { kind: ErrorKind; location: Location }
/** Hand-written: the map the functions read as `BTreeMap<String, String>`. LaTeX sources by file name, e.g. `{ "main.tex": "...", "sections/intro.tex": "..." }`. */
export type TexFiles = Record<string, string>;
/** Hand-written: `tex::Scan` serializes itself (its cites as `Cite` views). What the scanner found in one file. */
export type TexScan = {
  cites: Cite[]; nocite_all: Place[]; includes: Include[]; definitions: Definition[]; in_definitions: Cite[];
};
/** Hand-written: `coverage::GateReport` serializes itself. The gate's report, the same as `citegate coverage --json`: the `Coverage` fields at the top level and under `coverage`. */
export type CoverageResult = Coverage & {
  coverage: Coverage; unkeyed: Unkeyed[]; files: string[]; missing_includes: MissingInclude[];
  /** One line such as the CLI prints. */
  summary: string;
  /** The re-prompt for the writing agent (empty when it passes). */
  reprompt: string;
};
"#;

/// The names the hand-written declarations of earlier versions exported:
/// each must still be declared, so no caller's import breaks.
const NAMES: &[&str] = &[
    "ErrorKind",
    "Location",
    "CitegateError",
    "Service",
    "IsoDate",
    "PdfRef",
    "PdfRefs",
    "TitleMatch",
    "CutoffCheck",
    "Candidate",
    "PreDedup",
    "PoolPaper",
    "Pool",
    "VerifyOptions",
    "Rejection",
    "Decision",
    "Deduped",
    "WrittenBib",
    "BibField",
    "BibEntry",
    "BibProblem",
    "Bibliography",
    "Cite",
    "TexFiles",
    "TexProject",
    "Coverage",
    "CoverageResult",
    "Uncited",
    "KeySync",
    "Work",
    "NoticeKind",
    "Notice",
    "ApiError",
    "Page",
    "IndexAnswer",
    "CrossConfig",
    "CrossVerdict",
    "Finding",
    "PaperReference",
    "PaperRefs",
    "BibCheck",
    "Lookup",
    "Existence",
    "MatchMode",
    "BibVerdict",
    "BibVerification",
    "BackendAnswer",
    "Fused",
    "Probe",
    "ProbeSettings",
    "ProbeRequest",
    "SearchResponse",
    "LibraryRecord",
    "LibraryRead",
    "LibraryAdded",
    "VerdictClass",
    "ReasonKind",
    "OnlineEntry",
    "OnlineReport",
    "Reference",
    "RunSettings",
    "RunRequest",
    "RunNext",
    "RunReply",
    "RunAnswer",
    "RunOutcome",
    "RunReport",
];

/// Every declaration reachable from the roots, by TypeScript name.
struct Collect {
    cfg: Config,
    seen: HashSet<TypeId>,
    decls: BTreeMap<String, String>,
    clashes: Vec<String>,
}

impl TypeVisitor for Collect {
    fn visit<T: TS + 'static + ?Sized>(&mut self) {
        // Primitives and std containers have no declaration of their own.
        if T::output_path().is_none() || !self.seen.insert(TypeId::of::<T>()) {
            return;
        }
        let mut text = T::docs().unwrap_or_default();
        text.push_str("export ");
        text.push_str(&layout(&T::decl(&self.cfg)));
        let name = T::ident(&self.cfg);
        if let Some(before) = self.decls.insert(name.clone(), text.clone()) {
            if before != text {
                self.clashes.push(name);
            }
        }
        T::visit_dependencies(self);
    }
}

/// A declaration as ts-rs writes it (a struct on one line, each field's
/// doc comment breaking it) laid out one field a line, two spaces a level:
/// wasm-bindgen re-indents the section by its lines' leading and trailing
/// braces, which ts-rs's layout leaves unbalanced.
fn layout(decl: &str) -> String {
    let mut out = String::new();
    let mut depth = 0usize;
    let mut chars = decl.chars().peekable();
    let newline = |out: &mut String, depth: usize| {
        let kept = out.trim_end().len();
        out.truncate(kept);
        out.push('\n');
        out.push_str(&"  ".repeat(depth));
    };
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                out.push(c);
                for d in chars.by_ref() {
                    out.push(d);
                    if d == '"' {
                        break;
                    }
                }
            }
            '/' if chars.peek() == Some(&'*') => {
                // A doc comment: its own lines, at this depth.
                let mut comment = String::from("/");
                while let Some(d) = chars.next() {
                    comment.push(d);
                    if d == '*' && chars.peek() == Some(&'/') {
                        comment.push('/');
                        chars.next();
                        break;
                    }
                }
                for (i, line) in comment.lines().enumerate() {
                    if i > 0 {
                        newline(&mut out, depth);
                    }
                    out.push_str(if i > 0 { line.trim_start() } else { line });
                }
                newline(&mut out, depth);
            }
            '{' => {
                out.push('{');
                depth += 1;
                newline(&mut out, depth);
            }
            '}' => {
                depth = depth.saturating_sub(1);
                newline(&mut out, depth);
                out.push('}');
            }
            ',' if depth > 0 => {
                out.push(',');
                newline(&mut out, depth);
            }
            ' ' | '\n' if out.ends_with(' ') || out.ends_with('\n') => {}
            '\n' => out.push(' '),
            _ => out.push(c),
        }
    }
    // A `,` before `}` leaves an empty line: drop it.
    out.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            if l.trim_start().starts_with('*') {
                format!(" {l}")
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The whole file: the hand-written part, then the derived declarations in
/// name order; or the names two different types both claim.
fn generate() -> Result<String, Vec<String>> {
    let mut c = Collect {
        // Every integer that crosses is a JSON number (`JSON.parse`).
        cfg: Config::new().with_large_int("number"),
        seen: HashSet::new(),
        decls: BTreeMap::new(),
        clashes: Vec::new(),
    };
    roots(&mut c);
    if !c.clashes.is_empty() {
        return Err(c.clashes);
    }
    let mut out = String::from(
        "// Generated by `CITEGATE_WRITE_TYPES=1 cargo test -p citegate-js types` \
         (js/crate/src/types.rs) from the Rust types: do not edit.\n\n",
    );
    out.push_str(HAND_WRITTEN);
    for decl in c.decls.values() {
        out.push('\n');
        out.push_str(decl);
        out.push('\n');
    }
    Ok(out)
}

/// The types of every argument and result of the exports.
fn roots(c: &mut Collect) {
    use citegate_core as core;
    use core::{bibtex, candidates, coverage, cutoff, error, pool, resolve, search, tex, works};
    // Errors and the values every export shares.
    c.visit::<error::ErrorKind>();
    c.visit::<error::Location>();
    c.visit::<error::Error>();
    c.visit::<works::Service>();
    c.visit::<cutoff::Date>();
    // Titles, dates, candidates, the pool.
    c.visit::<core::title::TitleMatch>();
    c.visit::<cutoff::CutoffCheck>();
    c.visit::<candidates::Candidate>();
    c.visit::<candidates::PreDedup>();
    c.visit::<crate::VerifyOptionsIn>();
    c.visit::<core::verify::Decision>();
    c.visit::<pool::Pool>();
    c.visit::<pool::Deduped>();
    // BibTeX.
    c.visit::<crate::WrittenBib<'static>>();
    c.visit::<bibtex::parse::Bibliography>();
    c.visit::<bibtex::check::FileReport>();
    c.visit::<crate::PlannedLookup>();
    c.visit::<crate::BibVerification>();
    c.visit::<bibtex::check::OnlineReport>();
    // LaTeX and the gate; `TexScan` and `CoverageResult` are written by hand
    // (their Rust types serialize themselves), from these.
    c.visit::<tex::Project>();
    c.visit::<tex::OwnedCite>();
    c.visit::<tex::Place>();
    c.visit::<tex::Include>();
    c.visit::<tex::Definition>();
    c.visit::<coverage::Coverage>();
    c.visit::<coverage::Unkeyed>();
    c.visit::<tex::MissingInclude>();
    c.visit::<crate::KeySync>();
    // Works, search, the probe, the library.
    c.visit::<works::Work>();
    c.visit::<works::Page>();
    c.visit::<works::ApiError>();
    c.visit::<crate::IndexAnswerIn>();
    c.visit::<crate::CrossConfigIn>();
    c.visit::<core::crossindex::Verdict>();
    c.visit::<crate::BackendAnswer>();
    c.visit::<crate::ServiceWorks>();
    c.visit::<search::Fused>();
    // A paper's references: from a PDF, and read into fields.
    c.visit::<core::pdf::PdfRefs>();
    c.visit::<core::paper::PaperRefs>();
    c.visit::<search::SearchResponse>();
    c.visit::<search::probe::Probe>();
    c.visit::<search::ProbeConfig>();
    c.visit::<search::probe::ProbeRequest>();
    c.visit::<core::library::Record>();
    c.visit::<crate::LibraryRead<'static>>();
    c.visit::<crate::LibraryAdded>();
    // The verification engine.
    c.visit::<resolve::Reference>();
    c.visit::<crate::RunSettings>();
    c.visit::<crate::RunNext>();
    c.visit::<resolve::Reply>();
    c.visit::<resolve::Report>();
}

const PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/citegate.d.ts");

#[test]
fn types_declarations_are_current() {
    let text = generate().unwrap_or_else(|names| panic!("two types claim the names {names:?}"));
    if std::env::var_os("CITEGATE_WRITE_TYPES").is_some() {
        std::fs::write(PATH, &text).expect("write citegate.d.ts");
    }
    let committed = std::fs::read_to_string(PATH).unwrap_or_default();
    assert!(
        committed == text,
        "js/crate/citegate.d.ts is not what the Rust types give: run \
         `CITEGATE_WRITE_TYPES=1 cargo test -p citegate-js types` and commit it"
    );
}

#[test]
fn types_declare_every_name_of_the_package() {
    let text = generate().unwrap_or_default();
    let declared: Vec<&str> = text
        .lines()
        .filter_map(|l| {
            let rest = l
                .strip_prefix("export type ")
                .or_else(|| l.strip_prefix("export interface "))?;
            rest.split(|c: char| !c.is_alphanumeric() && c != '_')
                .next()
        })
        .collect();
    let missing: Vec<&&str> = NAMES.iter().filter(|n| !declared.contains(n)).collect();
    assert!(missing.is_empty(), "not declared: {missing:?}");
}
