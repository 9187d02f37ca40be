//! Several sources scanned together, includes followed as LaTeX follows them.

use super::scan::{scan, Cite, Scan};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// One source file of a project and what was found in it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SourceFile {
    /// The file's name as given or as resolved from an include.
    pub name: String,
    /// What the scanner found in it.
    pub scan: Scan,
}

/// An `\input`/`\include` whose file was not supplied.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MissingInclude {
    /// The file holding the command.
    pub file: String,
    /// 1-based line of the command.
    pub line: usize,
    /// The name as written.
    pub name: String,
}

/// Several sources scanned together, includes followed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Project {
    /// Each file once, roots first in the order given, then included files
    /// in the order they were first reached.
    pub files: Vec<SourceFile>,
    /// Includes whose file could not be loaded.
    pub missing: Vec<MissingInclude>,
}

impl Project {
    /// Every cite of every file, with the file's name.
    pub fn cites(&self) -> impl Iterator<Item = (&str, &Cite)> + '_ {
        self.files
            .iter()
            .flat_map(|f| f.scan.cites.iter().map(move |c| (f.name.as_str(), c)))
    }
}

/// Normalizes a `/`-separated path: drops `.` parts and folds `dir/..`.
pub fn normalize_path(path: &str) -> String {
    let absolute = path.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                if parts.last().is_some_and(|p| *p != "..") {
                    parts.pop();
                } else if !absolute {
                    parts.push("..");
                }
            }
            p => parts.push(p),
        }
    }
    let joined = parts.join("/");
    if absolute {
        format!("/{joined}")
    } else {
        joined
    }
}

fn dir_of(path: &str) -> &str {
    match path.rfind('/') {
        Some(i) => path.get(..i).unwrap_or(""),
        None => "",
    }
}

/// The paths an include may name, most likely first: relative to the root
/// file's directory (where LaTeX runs), then to the including file's; each
/// with `.tex` added first when the name has no `.tex` ending, as `\input` does.
///
/// ```
/// let c = citegate_core::tex::include_candidates("paper/main.tex", "paper/sec/a.tex", "sec/b");
/// assert_eq!(c, ["paper/sec/b.tex", "paper/sec/b", "paper/sec/sec/b.tex", "paper/sec/sec/b"]);
/// ```
pub fn include_candidates(root: &str, from: &str, name: &str) -> Vec<String> {
    let name = name.trim();
    let mut bases = vec![dir_of(root)];
    if dir_of(from) != dir_of(root) {
        bases.push(dir_of(from));
    }
    if name.starts_with('/') {
        bases = vec![""];
    }
    let mut out: Vec<String> = Vec::new();
    for base in bases {
        let joined = if base.is_empty() {
            normalize_path(name)
        } else {
            normalize_path(&format!("{base}/{name}"))
        };
        let mut forms = Vec::new();
        if !joined.ends_with(".tex") {
            forms.push(format!("{joined}.tex"));
        }
        forms.push(joined);
        for f in forms {
            if !out.contains(&f) {
                out.push(f);
            }
        }
    }
    out
}

/// Scans the root files and every file they include, loading each through
/// `load` (which returns `None` for a file it does not have). Each file is
/// scanned once, however often it is included, so include cycles end.
pub fn scan_project_with(
    roots: &[String],
    mut load: impl FnMut(&str) -> Option<String>,
) -> Project {
    let mut project = Project::default();
    let mut seen: BTreeSet<String> = BTreeSet::new();
    // (file name, its root, its text)
    let mut queue: VecDeque<(String, String, String)> = VecDeque::new();
    for root in roots {
        if seen.insert(root.clone()) {
            if let Some(text) = load(root) {
                queue.push_back((root.clone(), root.clone(), text));
            }
        }
    }
    while let Some((name, root, text)) = queue.pop_front() {
        let found = scan(&text);
        for inc in &found.includes {
            let mut loaded = false;
            for cand in include_candidates(&root, &name, &inc.name) {
                if seen.contains(&cand) {
                    loaded = true;
                    break;
                }
                if let Some(t) = load(&cand) {
                    seen.insert(cand.clone());
                    queue.push_back((cand, root.clone(), t));
                    loaded = true;
                    break;
                }
            }
            if !loaded {
                project.missing.push(MissingInclude {
                    file: name.clone(),
                    line: inc.line,
                    name: inc.name.clone(),
                });
            }
        }
        project.files.push(SourceFile { name, scan: found });
    }
    project
}

/// [`scan_project_with`] over a map of file name → content.
pub fn scan_project(roots: &[String], files: &BTreeMap<String, String>) -> Project {
    scan_project_with(roots, |name| files.get(name).cloned())
}
