//! The citation gate: did the draft cite at least 90 % of the verified pool?
//!
//! The rule is a count, so it is computed as one. The threshold is read as the
//! decimal the user typed (`0.90`, `0.855`, `90%`) and kept as an exact
//! fraction `num / 10^k`; the minimum is `floor(num · N / 10^k)` in integer
//! arithmetic. Floating point would make `0.29 · 100` come out as
//! `28.999999999999996` and let a draft through one citation short. Floats
//! appear only in the displayed percentage, where they are computed the way
//! the reference script computes them so the printed figures agree.
//!
//! A pool paper's key is its `bibtex_key`, as in the reference script: that is
//! the key the `.bib` file defines, so it is the key a compiled paper can cite.
//! Papers without one are not counted and are listed separately; a pool where
//! no paper has one is an input error (run the BibTeX step first).
//!
//! The gate reports what an author or an agent needs to act on: keys cited
//! that the pool does not hold (with every file and line), the uncited papers
//! grouped by the outline tag they were found for, and a re-prompt that asks
//! for exactly those papers.

use crate::error::{Error, ErrorKind, Result};
use crate::inert;
use crate::pool::PoolPaper;
use crate::short_keys::ShortKeys;
use serde::Serialize;
use std::collections::BTreeMap;

/// The default threshold, as text: 90 %.
pub const DEFAULT_THRESHOLD: &str = "0.90";

/// A coverage threshold as an exact fraction `num / den`, `0 ≤ num ≤ den`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Threshold {
    /// Numerator.
    pub num: u64,
    /// Denominator, a power of ten.
    pub den: u64,
    /// The text it was parsed from.
    pub text: String,
}

impl Threshold {
    /// Parses a decimal fraction in `[0, 1]` (`0.9`, `0.90`, `1`, `.85`) or a
    /// percentage (`90%`, `85.5%`). At most 12 decimal places.
    ///
    /// ```
    /// use citegate_core::coverage::Threshold;
    /// let t = Threshold::parse("0.90").unwrap();
    /// assert_eq!(t.min_required(10), 9);
    /// assert_eq!(Threshold::parse("90%").unwrap().min_required(22), 19);
    /// assert!(Threshold::parse("1.5").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<Threshold> {
        let bad =
            |why: &str| Error::new(ErrorKind::InvalidValue, format!("threshold `{text}` {why}"));
        let t = text.trim();
        let (digits, percent) = match t.strip_suffix('%') {
            Some(d) => (d.trim_end(), true),
            None => (t, false),
        };
        let (int, frac) = match digits.split_once('.') {
            Some((i, f)) => (i, f),
            None => (digits, ""),
        };
        if (int.is_empty() && frac.is_empty())
            || !int.bytes().all(|c| c.is_ascii_digit())
            || !frac.bytes().all(|c| c.is_ascii_digit())
        {
            return Err(bad(
                "is not a decimal number like 0.90 or a percentage like 90%",
            ));
        }
        if frac.len() > 12 || int.len() > 6 {
            return Err(bad("has too many digits"));
        }
        let scale = 10u64.pow(frac.len() as u32);
        let int_v: u64 = if int.is_empty() {
            0
        } else {
            int.parse().map_err(|_| bad("is not a number"))?
        };
        let frac_v: u64 = if frac.is_empty() {
            0
        } else {
            frac.parse().map_err(|_| bad("is not a number"))?
        };
        let num = int_v
            .checked_mul(scale)
            .and_then(|v| v.checked_add(frac_v))
            .ok_or_else(|| bad("is too large"))?;
        let den = if percent {
            scale.checked_mul(100).ok_or_else(|| bad("is too large"))?
        } else {
            scale
        };
        if num > den {
            return Err(bad("must be between 0 and 1 (or 0% and 100%)"));
        }
        Ok(Threshold {
            num,
            den,
            text: t.to_string(),
        })
    }

    /// `floor(threshold · n)`, exactly.
    pub fn min_required(&self, n: usize) -> usize {
        crate::pool::share_floor((self.num, self.den), n)
    }

    /// The threshold as a float, for display only.
    pub fn as_f64(&self) -> f64 {
        self.num as f64 / self.den.max(1) as f64
    }
}

impl Default for Threshold {
    /// The default threshold, 90 % ([`DEFAULT_THRESHOLD`]); the pool's
    /// minimum citation count ([`crate::pool::min_cite_count`]) is this
    /// threshold's [`Threshold::min_required`].
    fn default() -> Self {
        Threshold {
            num: crate::pool::MIN_CITE_SHARE.0,
            den: crate::pool::MIN_CITE_SHARE.1,
            text: DEFAULT_THRESHOLD.to_string(),
        }
    }
}

/// What the gate needs to know about one pool paper.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PoolEntry {
    /// The key the paper is cited by (its `bibtex_key`).
    pub key: String,
    /// The title, for the report.
    pub title: String,
    /// The outline tags it was found for (`intro`, `related_work[2.1]`).
    pub discovered_for: Vec<String>,
}

/// A pool paper that has no `bibtex_key` and so cannot be counted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Unkeyed {
    /// 0-based index in `papers`.
    pub index: usize,
    /// The title, if any.
    pub title: String,
}

/// Splits a pool into the entries the gate counts and the papers it cannot.
pub fn entries(papers: &[PoolPaper]) -> (Vec<PoolEntry>, Vec<Unkeyed>) {
    let mut keyed = Vec::new();
    let mut unkeyed = Vec::new();
    for (index, p) in papers.iter().enumerate() {
        let title = p.title.clone().unwrap_or_default();
        match p.bibtex_key.as_deref().map(str::trim) {
            Some(k) if !k.is_empty() => keyed.push(PoolEntry {
                key: k.to_string(),
                title,
                discovered_for: p.discovered_for.clone().unwrap_or_default(),
            }),
            _ => unkeyed.push(Unkeyed { index, title }),
        }
    }
    (keyed, unkeyed)
}

/// One cite as the gate sees it: a key and where it was written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CiteAt {
    /// The cited key.
    pub key: String,
    /// The file it is in.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// True for `\nocite`: it puts a paper in the bibliography without
    /// citing it in the text, so it does not count towards coverage (an agent
    /// could otherwise pass the gate with one `\nocite` of every key), but a
    /// `\nocite` of a key outside the pool is still reported.
    pub nocite: bool,
}

/// The cites of every file of a scanned project, for [`check`].
pub fn cites_of(project: &crate::tex::Project) -> Vec<CiteAt> {
    cite_refs(project)
        .map(|c| CiteAt {
            key: c.key.to_string(),
            file: c.file.to_string(),
            line: c.line,
            nocite: c.nocite,
        })
        .collect()
}

/// A file and line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct FileLine {
    /// The file: its name shared by all its places (a draft's foreign keys
    /// can have thousands, and a `String` each cost an allocation apiece).
    pub file: std::sync::Arc<str>,
    /// 1-based line.
    pub line: usize,
}

/// A key cited in the draft that the pool does not hold.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Foreign {
    /// The key.
    pub key: String,
    /// Every place it is cited, in file order.
    pub places: Vec<FileLine>,
}

/// A pool paper the draft does not cite.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Uncited {
    /// Its key.
    pub key: String,
    /// Its title.
    pub title: String,
    /// Its outline tags.
    pub discovered_for: Vec<String>,
}

/// The uncited papers found for one outline tag.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TagGroup {
    /// The tag, or `(untagged)`.
    pub tag: String,
    /// The uncited papers carrying it, by key.
    pub papers: Vec<Uncited>,
}

/// The gate's verdict and everything needed to act on it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Coverage {
    /// True iff `n_cited ≥ min_required`.
    pub pass: bool,
    /// Distinct pool keys (N).
    pub n_pool: usize,
    /// Distinct pool keys cited.
    pub n_cited: usize,
    /// `floor(threshold · N)`.
    pub min_required: usize,
    /// `100 · n_cited / N`, for display (0 when N is 0).
    pub percent: f64,
    /// The threshold as given.
    pub threshold: String,
    /// The pool keys cited, sorted.
    pub cited: Vec<String>,
    /// Pool keys that appear only in `\nocite`, sorted; not counted.
    pub nocite_only: Vec<String>,
    /// Keys cited that are not in the pool, sorted, with their places.
    pub foreign: Vec<Foreign>,
    /// Pool papers not cited, sorted by key.
    pub uncited: Vec<Uncited>,
    /// The same papers grouped by tag; a paper with two tags is in both
    /// groups. Groups in the order their tag first appears in the pool.
    pub uncited_by_tag: Vec<TagGroup>,
}

/// Runs the gate: `cites` from every file of the draft, against `pool`.
///
/// ```
/// use citegate_core::coverage::{check, CiteAt, PoolEntry, Threshold};
/// let pool: Vec<PoolEntry> = ["a", "b"].iter().map(|k| PoolEntry {
///     key: k.to_string(), title: format!("Paper {k}"), discovered_for: vec!["intro".into()],
/// }).collect();
/// let cites = vec![CiteAt { key: "a".into(), file: "x.tex".into(), line: 1, nocite: false }];
/// let c = check(&pool, &cites, &Threshold::parse("0.5").unwrap());
/// assert!(c.pass);
/// assert_eq!(c.uncited[0].key, "b");
/// ```
pub fn check(pool: &[PoolEntry], cites: &[CiteAt], threshold: &Threshold) -> Coverage {
    check_refs(
        pool,
        cites.iter().map(|c| CiteRef {
            key: &c.key,
            file: &c.file,
            line: c.line,
            nocite: c.nocite,
        }),
        threshold,
    )
}

/// A [`CiteAt`] borrowed from where it was found (the scanned project), so
/// counting a draft's cites copies none of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CiteRef<'a> {
    /// The cited key.
    pub key: &'a str,
    /// The file it is in.
    pub file: &'a str,
    /// 1-based line.
    pub line: usize,
    /// True for `\nocite` (see [`CiteAt::nocite`]).
    pub nocite: bool,
}

/// The cites of a scanned project, borrowed: what [`cites_of`] copies.
pub fn cite_refs(project: &crate::tex::Project) -> impl Iterator<Item = CiteRef<'_>> + '_ {
    project.cites().map(|(file, c)| CiteRef {
        key: c.key,
        file,
        line: c.line,
        nocite: c.nocite,
    })
}

/// [`check`] on cites borrowed from their source: each cite is one hash
/// lookup and a flag, places are copied only for keys outside the pool,
/// and the sorted lists come from the pool's sorted keys.
pub fn check_refs<'a>(
    pool: &[PoolEntry],
    cites: impl IntoIterator<Item = CiteRef<'a>>,
    threshold: &Threshold,
) -> Coverage {
    let mut tally = Tally::new(pool);
    for c in cites {
        tally.add(c.key, c.nocite, || (File::Named(c.file), c.line));
    }
    tally.finish(threshold)
}

/// Where a cite outside the pool is: a file by its name, or by its index
/// in [`Tally::files`].
enum File<'a> {
    Named(&'a str),
    Index(usize),
}

/// The gate's count, taken one cite at a time: each cite is one lookup
/// of its key (a [`ShortKeys`] lookup: no hashing or `memcmp` for a key
/// of up to 16 bytes) and a flag, and a place (file and line) is asked for
/// only for a key the pool does not hold.
struct Tally<'p> {
    pool: &'p [PoolEntry],
    /// The entry of each of the pool's keys, sorted, each once (the first
    /// entry of a key wins for its title and tags).
    sorted: Vec<&'p PoolEntry>,
    /// The keys of `sorted`, in its order, then the keys outside the pool
    /// in the order they are first cited.
    keys: ShortKeys<()>,
    cited: Vec<bool>,
    nocited: Vec<bool>,
    /// Every place of each key outside the pool (`keys` after the pool's):
    /// index in `files`, line.
    foreign: Vec<Vec<(usize, usize)>>,
    files: Vec<String>,
}

impl<'p> Tally<'p> {
    fn new(pool: &'p [PoolEntry]) -> Tally<'p> {
        let mut by_key: BTreeMap<&str, &PoolEntry> = BTreeMap::new();
        for e in pool {
            by_key.entry(e.key.as_str()).or_insert(e);
        }
        let mut keys = ShortKeys::default();
        for k in by_key.keys() {
            keys.add(k, ());
        }
        let sorted: Vec<&PoolEntry> = by_key.into_values().collect();
        Tally {
            pool,
            cited: vec![false; sorted.len()],
            nocited: vec![false; sorted.len()],
            sorted,
            keys,
            foreign: Vec::new(),
            files: Vec::new(),
        }
    }

    /// Counts one cite of `key`; `place` says where it is, asked only when
    /// the pool does not hold the key.
    fn add<'f>(&mut self, key: &str, nocite: bool, place: impl FnOnce() -> (File<'f>, usize)) {
        let n_pool = self.sorted.len();
        let found = self.keys.find(key);
        if let Some(i) = found.filter(|&i| i < n_pool) {
            let flags = if nocite {
                &mut self.nocited
            } else {
                &mut self.cited
            };
            if let Some(f) = flags.get_mut(i) {
                *f = true;
            }
            return;
        }
        let (file, line) = place();
        let file = match file {
            File::Index(i) => i,
            File::Named(name) => match self.files.iter().rposition(|f| f == name) {
                Some(i) => i,
                None => {
                    self.files.push(name.to_string());
                    self.files.len() - 1
                }
            },
        };
        let i = found.unwrap_or_else(|| self.keys.add(key, ()));
        match self.foreign.get_mut(i - n_pool) {
            Some(places) => places.push((file, line)),
            None => self.foreign.push(vec![(file, line)]),
        }
    }

    /// Forgets every cite counted.
    fn clear(&mut self) {
        self.cited.iter_mut().for_each(|f| *f = false);
        self.nocited.iter_mut().for_each(|f| *f = false);
        self.foreign.clear();
        let mut keys = ShortKeys::default();
        for e in &self.sorted {
            keys.add(&e.key, ());
        }
        self.keys = keys;
    }

    fn finish(self, threshold: &Threshold) -> Coverage {
        let Tally {
            pool,
            sorted,
            keys,
            cited,
            nocited,
            foreign,
            files,
        } = self;
        let n_pool = sorted.len();
        let is_cited = |i: usize| cited.get(i).copied().unwrap_or(false);
        let n_cited = (0..n_pool).filter(|&i| is_cited(i)).count();
        let min_required = threshold.min_required(n_pool);
        let percent = if n_pool == 0 {
            0.0
        } else {
            n_cited as f64 / n_pool as f64 * 100.0
        };
        let uncited: Vec<Uncited> = sorted
            .iter()
            .enumerate()
            .filter(|(i, _)| !is_cited(*i))
            .map(|(_, e)| Uncited {
                key: e.key.clone(),
                title: e.title.clone(),
                discovered_for: e.discovered_for.clone(),
            })
            .collect();
        let mut tag_order: Vec<&str> = Vec::new();
        for e in pool {
            for t in &e.discovered_for {
                if !tag_order.contains(&t.as_str()) {
                    tag_order.push(t);
                }
            }
        }
        let mut uncited_by_tag: Vec<TagGroup> = tag_order
            .iter()
            .map(|tag| TagGroup {
                tag: (*tag).to_string(),
                papers: uncited
                    .iter()
                    .filter(|u| u.discovered_for.iter().any(|t| t == tag))
                    .cloned()
                    .collect(),
            })
            .filter(|g| !g.papers.is_empty())
            .collect();
        let untagged: Vec<Uncited> = uncited
            .iter()
            .filter(|u| u.discovered_for.is_empty())
            .cloned()
            .collect();
        if !untagged.is_empty() {
            uncited_by_tag.push(TagGroup {
                tag: "(untagged)".to_string(),
                papers: untagged,
            });
        }
        let names = keys.entries().iter().skip(n_pool).map(|(k, _)| k);
        let mut foreign: Vec<(&String, Vec<(usize, usize)>)> = names.zip(foreign).collect();
        foreign.sort_unstable_by(|a, b| a.0.cmp(b.0));
        let keys_where = |flag: &dyn Fn(usize) -> bool| -> Vec<String> {
            sorted
                .iter()
                .enumerate()
                .filter(|(i, _)| flag(*i))
                .map(|(_, e)| e.key.clone())
                .collect()
        };
        let files: Vec<std::sync::Arc<str>> = files.into_iter().map(Into::into).collect();
        let file_name = |i: usize| files.get(i).cloned().unwrap_or_else(|| "".into());
        Coverage {
            pass: n_cited >= min_required,
            n_pool,
            n_cited,
            min_required,
            percent,
            threshold: threshold.text.clone(),
            cited: keys_where(&is_cited),
            nocite_only: keys_where(&|i| nocited.get(i).copied().unwrap_or(false) && !is_cited(i)),
            foreign: foreign
                .into_iter()
                .map(|(key, places)| Foreign {
                    key: key.clone(),
                    places: places
                        .into_iter()
                        .map(|(file, line)| FileLine {
                            file: file_name(file),
                            line,
                        })
                        .collect(),
                })
                .collect(),
            uncited,
            uncited_by_tag,
        }
    }
}

/// A [`Tally`] fed by a streamed scan ([`crate::tex::visit_project_with`]).
struct Streamed<'p> {
    tally: Tally<'p>,
    /// The file being scanned, its index in `tally.files`.
    file: usize,
    lines: crate::tex::Lines,
}

impl crate::tex::Visit for Streamed<'_> {
    fn cite(&mut self, source: &str, cite: crate::tex::Found<'_>) {
        let (file, lines) = (self.file, &mut self.lines);
        self.tally.add(cite.key, cite.nocite, || {
            (File::Index(file), lines.line(source, cite.start))
        });
    }
}

impl crate::tex::VisitProject for Streamed<'_> {
    fn file(&mut self, index: usize, name: &str) {
        self.file = index;
        self.lines = crate::tex::Lines::default();
        let files = &mut self.tally.files;
        if files.len() <= index {
            files.resize(index + 1, String::new());
        }
        if let Some(f) = files.get_mut(index) {
            name.clone_into(f);
        }
    }

    fn restart(&mut self) {
        self.tally.clear();
    }
}

/// Text to append to the writing prompt when the gate fails: the figures,
/// then each uncited paper with its key, tags and title, then the keys that
/// must go because the pool does not hold them. Empty when there is nothing
/// to ask for.
pub fn reprompt(c: &Coverage) -> String {
    if c.uncited.is_empty() && c.foreign.is_empty() {
        return String::new();
    }
    let mut s = String::new();
    if !c.uncited.is_empty() {
        s.push_str(&format!(
            "Your draft cites {} of the {} verified papers ({:.1}%); it needs at least {}. \
             Work the {} papers below into the text, each in the part of the paper it was \
             found for, and cite each by exactly the key shown:\n",
            c.n_cited,
            c.n_pool,
            c.percent,
            c.min_required,
            c.uncited.len()
        ));
        for u in &c.uncited {
            let tags = if u.discovered_for.is_empty() {
                "untagged".to_string()
            } else {
                u.discovered_for.join(", ")
            };
            // Titles and keys come from outside: one line each, so a title
            // cannot forge list items or instructions (see `crate::inert`).
            s.push_str(&format!(
                "  - {} ({}): {}\n",
                inert::one_line(&u.key),
                inert::one_line(&tags),
                inert::one_line(&u.title)
            ));
        }
    }
    if !c.foreign.is_empty() {
        s.push_str(
            "These keys are not in the verified pool; remove each citation or replace it \
             with a pool paper:\n",
        );
        for f in &c.foreign {
            s.push_str(&format!("  - {}\n", inert::one_line(&f.key)));
        }
    }
    s.push_str(
        "Keep every citation that is already there, cite nothing outside the pool, \
         and return the complete sections.\n",
    );
    s
}

/// The figures line, in the reference script's format:
/// `Coverage: 17/22 = 77.3% (threshold 90% = 19)`.
pub fn summary_line(c: &Coverage, threshold: &Threshold) -> String {
    format!(
        "Coverage: {}/{} = {:.1}% (threshold {:.0}% = {})",
        c.n_cited,
        c.n_pool,
        c.percent,
        threshold.as_f64() * 100.0,
        c.min_required
    )
}

/// [`check`] on pool papers: counts the papers that have a `bibtex_key` and
/// returns the others beside the verdict. A pool in which no paper has a
/// `bibtex_key` cannot be checked: that is an error naming the field.
pub fn check_pool(
    papers: &[PoolPaper],
    cites: &[CiteAt],
    threshold: &Threshold,
) -> Result<(Coverage, Vec<Unkeyed>)> {
    let (keyed, unkeyed) = keyed_entries(papers)?;
    Ok((check(&keyed, cites, threshold), unkeyed))
}

/// [`check_pool`] on cites borrowed from their source ([`cite_refs`]).
pub fn check_pool_refs<'a>(
    papers: &[PoolPaper],
    cites: impl IntoIterator<Item = CiteRef<'a>>,
    threshold: &Threshold,
) -> Result<(Coverage, Vec<Unkeyed>)> {
    let (keyed, unkeyed) = keyed_entries(papers)?;
    Ok((check_refs(&keyed, cites, threshold), unkeyed))
}

/// [`entries`], or the error of a pool where no paper has a `bibtex_key`.
fn keyed_entries(papers: &[PoolPaper]) -> Result<(Vec<PoolEntry>, Vec<Unkeyed>)> {
    let (keyed, unkeyed) = entries(papers);
    if keyed.is_empty() {
        return Err(Error::new(
            ErrorKind::MissingField,
            "no paper in the pool has a bibtex_key; write the BibTeX file first (citegate bibtex)",
        )
        .at(crate::error::Location::default().field("papers[].bibtex_key")));
    }
    Ok((keyed, unkeyed))
}

/// What the gate counts against: a pool, or a bibliography whose entries
/// stand for the pool (each entry's key, no outline tags).
#[derive(Debug, Clone, PartialEq)]
pub enum Against {
    /// The papers of `citation_pool.json`.
    Pool(Vec<PoolPaper>),
    /// A `.bib` (or CSL-JSON, RIS) read as the pool.
    Bib(crate::bibtex::parse::Bibliography),
}

impl Against {
    /// Reads a pool file by its name: a `.bib` (`.bibtex`, `.biblatex`),
    /// `.ris` or `.csl` file is a bibliography read as the pool; any other
    /// file is `citation_pool.json`.
    pub fn read(name: &str, text: &str) -> Result<Against> {
        let ext = name
            .rsplit_once('.')
            .map(|(_, e)| e.to_ascii_lowercase())
            .unwrap_or_default();
        if matches!(
            ext.as_str(),
            "bib" | "bibtex" | "biblatex" | "ris" | "csl" | "csljson"
        ) {
            Ok(Against::Bib(crate::bibtex::read_bibliography(name, text)))
        } else {
            Ok(Against::Pool(crate::pool::parse_pool(text)?.papers))
        }
    }

    /// The keyed entries to count and the papers without a key. Errors when
    /// nothing can be counted.
    pub fn entries(&self) -> Result<(Vec<PoolEntry>, Vec<Unkeyed>)> {
        match self {
            Against::Pool(papers) => keyed_entries(papers),
            Against::Bib(bib) => {
                let keyed: Vec<PoolEntry> = bib
                    .entries
                    .iter()
                    .filter(|e| !e.key.is_empty())
                    .map(|e| PoolEntry {
                        key: e.key.clone(),
                        title: e.decoded("title").unwrap_or_default(),
                        discovered_for: Vec::new(),
                    })
                    .collect();
                if keyed.is_empty() {
                    return Err(Error::new(
                        ErrorKind::Bibtex,
                        "no bibliography entry with a key was found",
                    ));
                }
                Ok((keyed, Vec::new()))
            }
        }
    }
}

/// The gate's report, the same on every surface (`citegate coverage
/// --json`, the JavaScript `coverage`, the app's Coverage page).
///
/// Serialized with the [`Coverage`] fields at the top level (as the CLI
/// has always written them) and again under `coverage` (as the JavaScript
/// package has), then the fields below.
#[derive(Debug, Clone, PartialEq)]
pub struct GateReport {
    /// The verdict and what to act on.
    pub coverage: Coverage,
    /// Pool papers without a `bibtex_key`, not counted.
    pub unkeyed: Vec<Unkeyed>,
    /// The LaTeX files read, roots first then included files.
    pub files: Vec<String>,
    /// Includes whose file was not supplied: their cites are not counted.
    pub missing_includes: Vec<crate::tex::MissingInclude>,
    /// The figures line ([`summary_line`]).
    pub summary: String,
    /// The re-prompt for the writing step ([`reprompt`]) when the gate
    /// fails; empty when it passes.
    pub reprompt: String,
}

impl Serialize for GateReport {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Wire<'a> {
            #[serde(flatten)]
            flat: &'a Coverage,
            coverage: &'a Coverage,
            unkeyed: &'a [Unkeyed],
            files: &'a [String],
            missing_includes: &'a [crate::tex::MissingInclude],
            summary: &'a str,
            reprompt: &'a str,
        }
        Wire {
            flat: &self.coverage,
            coverage: &self.coverage,
            unkeyed: &self.unkeyed,
            files: &self.files,
            missing_includes: &self.missing_includes,
            summary: &self.summary,
            reprompt: &self.reprompt,
        }
        .serialize(s)
    }
}

/// The citation gate, one entry point: the draft's scanned `project`
/// against a pool or a bibliography, at `threshold`.
///
/// ```
/// use citegate_core::coverage::{gate, Against, Threshold};
/// use std::collections::BTreeMap;
/// let bib = citegate_core::bibtex::parse::parse("@misc{a, title={A}}\n@misc{b, title={B}}");
/// let files = BTreeMap::from([("main.tex".to_string(), r"\cite{a}".to_string())]);
/// let project = citegate_core::tex::scan_project(&["main.tex".to_string()], &files);
/// let r = gate(&project, &Against::Bib(bib), &Threshold::parse("100%").unwrap()).unwrap();
/// assert!(!r.coverage.pass);
/// assert!(r.reprompt.contains("  - b (untagged): B"));
/// ```
pub fn gate(
    project: &crate::tex::Project,
    against: &Against,
    threshold: &Threshold,
) -> Result<GateReport> {
    let (keyed, unkeyed) = against.entries()?;
    // Cites borrowed from the scan: the fast path, held equal to `check`.
    let c = check_refs(&keyed, cite_refs(project), threshold);
    Ok(gate_report(c, threshold, unkeyed, project))
}

/// The gate's report on coverage `c` of `project`.
fn gate_report(
    c: Coverage,
    threshold: &Threshold,
    unkeyed: Vec<Unkeyed>,
    project: &crate::tex::Project,
) -> GateReport {
    let reprompt = if c.pass { String::new() } else { reprompt(&c) };
    GateReport {
        summary: summary_line(&c, threshold),
        reprompt,
        coverage: c,
        unkeyed,
        files: project.files.iter().map(|f| f.name.clone()).collect(),
        missing_includes: project.missing.clone(),
    }
}

/// [`gate`] on a draft as it is scanned: the root files `roots` and the
/// files they include, read through `load` as [`crate::tex::scan_project_with`]
/// reads them (as any text type that reads as a `str`), each cite counted as the scanner finds it
/// ([`crate::tex::visit_project_with`]) and none kept. The report is the one
/// [`gate`] gives on the scanned project; the project comes back beside it
/// without its cites and sources (its includes and `\nocite{*}` places
/// are there). The pool's entries are read first: a pool that cannot be
/// counted is an error before any file is loaded.
///
/// ```
/// use citegate_core::coverage::{gate, gate_streamed, Against, Threshold};
/// use std::collections::BTreeMap;
/// let bib = citegate_core::bibtex::parse::parse("@misc{a, title={A}}\n@misc{b, title={B}}");
/// let files = BTreeMap::from([("main.tex".to_string(), r"\cite{a} \cite{c}".to_string())]);
/// let roots = ["main.tex".to_string()];
/// let (against, t) = (Against::Bib(bib), Threshold::parse("100%").unwrap());
/// let (r, _) = gate_streamed(&roots, |n| files.get(n).cloned(), &against, &t).unwrap();
/// let project = citegate_core::tex::scan_project(&roots, &files);
/// assert_eq!(r, gate(&project, &against, &t).unwrap());
/// assert_eq!(r.coverage.foreign[0].key, "c");
/// ```
pub fn gate_streamed<T: AsRef<str>>(
    roots: &[String],
    load: impl FnMut(&str) -> Option<T>,
    against: &Against,
    threshold: &Threshold,
) -> Result<(GateReport, crate::tex::Project)> {
    let (keyed, unkeyed) = against.entries()?;
    let mut streamed = Streamed {
        tally: Tally::new(&keyed),
        file: 0,
        lines: crate::tex::Lines::default(),
    };
    let project = crate::tex::visit_project_with(roots, load, &mut streamed);
    let c = streamed.tally.finish(threshold);
    let report = gate_report(c, threshold, unkeyed, &project);
    Ok((report, project))
}
