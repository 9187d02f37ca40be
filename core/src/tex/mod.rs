//! Cite commands in LaTeX sources: finding every cited key, and rewriting keys.
//!
//! A regular expression sees a cite command as a flat string, but LaTeX does
//! not: optional arguments may hold braces (`\cite[see {a]b}][]{k}`), keys may
//! be split over lines with a `%` at each line end, a multicite carries any
//! number of `[…]{…}` groups, and a `%` starts a comment unless it is `\%`.
//! So this module is a small hand-written scanner that walks the source once,
//! byte by byte, and knows just enough TeX to get those cases right: comments,
//! control words and symbols, `verbatim`-like environments, `\verb`, and the
//! argument shapes of the natbib and biblatex cite commands. Nesting is
//! tracked with counters and explicit stacks, never with recursion, so ten thousand nested
//! braces cost a counter, not a stack frame, and every access is bounds-checked,
//! so a file that ends in the middle of a command yields what was complete.
//! The scanner records the byte span of each key, which is what lets
//! [`sync_keys`] replace a key and leave every other byte of the file as it was.
//!
//! Commented-out text is not LaTeX input, so a cite inside a comment is neither
//! reported nor rewritten. (The reference script rewrites keys anywhere its
//! pattern matches, comments included; see `DEVIATIONS.md`.) Nor is other text
//! LaTeX never reads: a false `\iffalse` branch (nested conditionals counted),
//! anything after `\end{document}` or after the line of `\endinput`, and the
//! argument of `\deleted{…}` (the `changes` package in final mode, AASTeX).
//!
//! The cite commands are data, `cite-commands.tsv`: the natbib, biblatex and
//! apacite commands read from the packages' own files, with each command's
//! argument shape and whether it only lists the key (`\nocite`). A cite
//! wrapped in a macro is learned from its definition (`\newcommand`, `\def`,
//! `\let`, `\NewDocumentCommand`, `\DeclareCiteCommand`): the wrapper's uses
//! then cite the arguments its body cites, and `#1` is never a key.
//!
//! The whole is held to LaTeX itself: `tools/latex-oracle/run.sh` compiles the
//! documents of `tests/fixtures/latex-oracle/` with TeX Live and stores the keys
//! the `.aux` or `.bcf` records; `tests/latex_oracle.rs` compares.
//!
//! The module has three parts: `scan/` reads one source ([`scan()`]; its records, command table and scanner in a file each),
//! `project.rs` follows includes (`\input`, `\include`, `\import`,
//! `\subimport`, `\subfile`) as LaTeX resolves them ([`scan_project`]), and
//! `sync.rs` rewrites keys ([`sync_keys`]).

mod project;
mod scan;
mod sync;

pub use project::{
    include_candidates, normalize_path, scan_project, scan_project_with, visit_project_with,
    MissingInclude, Project, SourceFile, VisitProject,
};
pub use scan::{
    extract_cites, scan, scan_owned, scan_with, visit, Cite, Cited, Definition, Form, Found,
    Include, Lines, OwnedCite, Place, Scan, Visit,
};
pub use sync::{pool_key_map, sync_keys, Replacement};
