//! Several sources scanned together, includes followed as LaTeX follows them.

use super::scan::{scan_owned, visit, Cited, Definition, Include, Scan, Visit};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// One source file of a project and what was found in it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "TexSourceFile"))]
pub struct SourceFile {
    /// The file's name as given or as resolved from an include.
    pub name: String,
    /// What the scanner found in it.
    // `Scan` serializes itself; its shape is declared by hand (js/crate/src/types.rs).
    #[cfg_attr(feature = "ts", ts(type = "TexScan"))]
    pub scan: Scan,
}

/// An `\input`/`\include` whose file was not supplied.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
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
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "TexProject"))]
pub struct Project {
    /// Each file once, roots first in the order given, then included files
    /// in the order they were first reached.
    pub files: Vec<SourceFile>,
    /// Includes whose file could not be loaded.
    pub missing: Vec<MissingInclude>,
}

impl Project {
    /// The keys cited in the text, each once, in the order files and cites
    /// were reached (`\nocite` keys are not among them).
    pub fn cited_keys(&self) -> Vec<&str> {
        unique(self.cites().filter(|(_, c)| !c.nocite).map(|(_, c)| c.key))
    }

    /// The keys given only to `\nocite` or a command like it, each once: they
    /// are listed in the bibliography without being cited in the text. A key
    /// that is also cited is not here.
    pub fn nocite_only_keys(&self) -> Vec<&str> {
        let cited: BTreeSet<&str> = self.cited_keys().into_iter().collect();
        unique(
            self.cites()
                .filter(|(_, c)| c.nocite && !cited.contains(c.key))
                .map(|(_, c)| c.key),
        )
    }

    /// True if some file has `\nocite{*}`.
    pub fn nocites_all(&self) -> bool {
        self.files.iter().any(|f| !f.scan.nocite_all.is_empty())
    }

    /// Every cite of every file, with the file's name.
    pub fn cites(&self) -> impl Iterator<Item = (&str, Cited<'_>)> + '_ {
        self.files
            .iter()
            .flat_map(|f| f.scan.cites().map(move |c| (f.name.as_str(), c)))
    }
}

fn unique<'a>(keys: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    let mut seen = BTreeSet::new();
    keys.filter(|k| seen.insert(*k)).collect()
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
    candidates_in(&include_candidate_bases(root, from), name)
}

fn include_candidate_bases(root: &str, from: &str) -> Vec<String> {
    let mut bases = vec![dir_of(root).to_string()];
    if dir_of(from) != dir_of(root) {
        bases.push(dir_of(from).to_string());
    }
    bases
}

/// The paths to try for a name relative to each base directory in turn,
/// with `.tex` added first when the name has no `.tex` ending.
fn candidates_in(bases: &[String], name: &str) -> Vec<String> {
    let name = name.trim();
    let absolute = name.starts_with('/');
    let mut out: Vec<String> = Vec::new();
    for base in bases {
        let joined = if base.is_empty() || absolute {
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

fn join(base: &str, rel: &str) -> String {
    if base.is_empty() || rel.starts_with('/') {
        normalize_path(rel)
    } else {
        normalize_path(&format!("{base}/{rel}"))
    }
}

/// Where an include is looked for, most likely first, and the import
/// directory the included file gets (the `import` package's commands set
/// one; files included from there are looked for there first).
fn resolve(
    root: &str,
    from: &str,
    base: Option<&str>,
    inc: &Include,
) -> (Vec<String>, Option<String>) {
    let root_dir = dir_of(root);
    match (inc.command.as_str(), inc.dir.as_deref()) {
        ("import" | "inputfrom" | "includefrom", Some(dir)) => {
            let dir = join(root_dir, dir);
            (
                candidates_in(std::slice::from_ref(&dir), &inc.name),
                Some(dir),
            )
        }
        ("subimport" | "subinputfrom" | "subincludefrom", Some(sub)) => {
            // Relative to the import directory the `import` package keeps:
            // the enclosing `\import`'s, or the main file's when the file
            // was reached by `\input` (as LaTeX does); the including file's
            // own directory is tried after that.
            let here = base.map_or_else(|| root_dir.to_string(), str::to_string);
            let dir = join(&here, sub);
            let mut candidates = candidates_in(std::slice::from_ref(&dir), &inc.name);
            for c in candidates_in(&[join(dir_of(from), sub)], &inc.name) {
                if !candidates.contains(&c) {
                    candidates.push(c);
                }
            }
            (candidates, Some(dir))
        }
        // The `subfiles` package reads a subfile as `\subimport` does, so
        // the subfile's own includes are read from its directory first.
        ("subfile", _) => {
            let here = base.map_or_else(|| root_dir.to_string(), str::to_string);
            let path = join(&here, &inc.name);
            let dir = dir_of(&path).to_string();
            let mut candidates = candidates_in(&[String::new()], &path);
            for c in candidates_in(&include_candidate_bases(root, from), &inc.name) {
                if !candidates.contains(&c) {
                    candidates.push(c);
                }
            }
            (candidates, Some(dir))
        }
        _ => {
            let mut bases: Vec<String> = base.map(str::to_string).into_iter().collect();
            bases.extend(include_candidate_bases(root, from));
            (candidates_in(&bases, &inc.name), base.map(str::to_string))
        }
    }
}

/// Scans the root files and every file they include, loading each through
/// `load` (which returns `None` for a file it does not have). Each file is
/// scanned once, however often it is included, so include cycles end.
///
/// Cite commands a file defines (`\newcommand{\mycite}[1]{\citep{#1}}`, often
/// in a macro file the main file inputs) hold for the whole project: when
/// any file defines one, every file is read again knowing them all.
pub fn scan_project_with(roots: &[String], load: impl FnMut(&str) -> Option<String>) -> Project {
    project_with(roots, load, &mut Records)
}

/// What [`visit_project_with`] hands the cites of a project to: a [`Visit`]
/// told which file the cites that follow are in, and told when the scan
/// starts over.
pub trait VisitProject: Visit {
    /// The cites that follow, up to the next call, are in file `index` of
    /// [`Project::files`], named `name`.
    fn file(&mut self, index: usize, name: &str);
    /// Forget every cite handed over so far: a file defined a cite command,
    /// and every file is read again knowing it (see [`scan_project_with`]).
    fn restart(&mut self);
}

/// [`scan_project_with`] handing each file's cites to `visit` as they are
/// found ([`super::visit()`]) instead of keeping records of them, on texts
/// of any type that reads as a `str` (the files are read again from them
/// if the scan starts over). The project returned is the one
/// [`scan_project_with`] returns but for its files' cites and sources,
/// which are empty. What `visit` has been handed when this returns, since
/// its last [`VisitProject::restart`], is [`Project::cites`] of that
/// project, file by file, in order.
pub fn visit_project_with<T: AsRef<str>>(
    roots: &[String],
    load: impl FnMut(&str) -> Option<T>,
    visit: &mut dyn VisitProject,
) -> Project {
    let mut scanner = Visiting {
        visit,
        texts: Vec::new(),
    };
    project_with(roots, load, &mut scanner)
}

/// How [`project_with`] scans one file of texts of type `T`.
trait ScanFile<T> {
    /// Scans file `index` of the project, `name`, knowing the commands `known`.
    fn scan(&mut self, index: usize, name: &str, text: T, known: &[Definition]) -> Scan;
    /// Every file is about to be scanned again ([`Self::rescan`]).
    fn restart(&mut self);
    /// Scans file `index` again, `old` being its scan so far.
    fn rescan(&mut self, index: usize, name: &str, old: Scan, known: &[Definition]) -> Scan;
}

/// Scans that keep their cites and sources ([`scan_project_with`]).
struct Records;

impl ScanFile<String> for Records {
    fn scan(&mut self, _: usize, _: &str, text: String, known: &[Definition]) -> Scan {
        scan_owned(text, known)
    }

    fn restart(&mut self) {}

    fn rescan(&mut self, _: usize, _: &str, old: Scan, known: &[Definition]) -> Scan {
        scan_owned(old.into_source(), known)
    }
}

/// Scans that hand their cites over ([`visit_project_with`]), keeping the
/// texts for a second reading.
struct Visiting<'v, T> {
    visit: &'v mut dyn VisitProject,
    texts: Vec<T>,
}

impl<T: AsRef<str>> ScanFile<T> for Visiting<'_, T> {
    fn scan(&mut self, index: usize, name: &str, text: T, known: &[Definition]) -> Scan {
        self.visit.file(index, name);
        let scan = visit(text.as_ref(), known, self.visit);
        // Files are scanned in the order of their indices.
        self.texts.push(text);
        scan
    }

    fn restart(&mut self) {
        self.visit.restart();
    }

    fn rescan(&mut self, index: usize, name: &str, _: Scan, known: &[Definition]) -> Scan {
        self.visit.file(index, name);
        let text = self.texts.get(index).map_or("", |t| t.as_ref());
        visit(text, known, self.visit)
    }
}

/// The work of [`scan_project_with`], each file scanned by `scanner`.
fn project_with<T>(
    roots: &[String],
    mut load: impl FnMut(&str) -> Option<T>,
    scanner: &mut dyn ScanFile<T>,
) -> Project {
    let mut project = Project::default();
    let mut seen: BTreeSet<String> = BTreeSet::new();
    // (file name, its root, its import directory, its text)
    let mut queue: VecDeque<(String, String, Option<String>, T)> = VecDeque::new();
    for root in roots {
        if seen.insert(root.clone()) {
            if let Some(text) = load(root) {
                queue.push_back((root.clone(), root.clone(), None, text));
            }
        }
    }
    let mut known: Vec<Definition> = Vec::new();
    let mut known_at: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    while let Some((name, root, base, text)) = queue.pop_front() {
        let found = scanner.scan(project.files.len(), &name, text, &known);
        for d in &found.definitions {
            match known_at.get(&d.name) {
                Some(&at) => {
                    if let Some(k) = known.get_mut(at) {
                        *k = d.clone();
                    }
                }
                None => {
                    known_at.insert(d.name.clone(), known.len());
                    known.push(d.clone());
                }
            }
        }
        for inc in &found.includes {
            let mut loaded = false;
            let (candidates, next_base) = resolve(&root, &name, base.as_deref(), inc);
            for cand in candidates {
                if seen.contains(&cand) {
                    loaded = true;
                    break;
                }
                if let Some(t) = load(&cand) {
                    seen.insert(cand.clone());
                    queue.push_back((cand, root.clone(), next_base.clone(), t));
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
    if !known.is_empty() {
        scanner.restart();
        for (index, file) in project.files.iter_mut().enumerate() {
            let includes = std::mem::take(&mut file.scan.includes);
            let old = std::mem::take(&mut file.scan);
            file.scan = scanner.rescan(index, &file.name, old, &known);
            file.scan.includes = includes;
        }
    }
    project
}

/// [`scan_project_with`] over a map of file name → content.
pub fn scan_project(roots: &[String], files: &BTreeMap<String, String>) -> Project {
    scan_project_with(roots, |name| files.get(name).cloned())
}
