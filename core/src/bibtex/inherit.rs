//! `crossref` and `xdata` inheritance: the fields a child entry gets from the
//! entries it names, resolved before layer 1 so that a DBLP- or JabRef-style
//! child (`@inproceedings{x, crossref = {conf/nips/2017}, …}`) is not told it
//! needs the `booktitle` and `year` its parent holds.
//!
//! The rules are BibTeX's and biber's, combined the way a file is meant:
//!
//! - a field the child sets is never replaced (both tools);
//! - BibTeX copies every field of the `crossref` parent the child lacks,
//!   under the same name, finding the parent's key without regard to case;
//! - biber first maps some fields by entry types (biblatex manual,
//!   appendix B, "Default inheritance setup"): a `@proceedings` parent's
//!   `title` becomes an `@inproceedings` child's `booktitle`, a `@book`'s
//!   becomes an `@inbook`'s `booktitle`, a `@collection`'s an
//!   `@incollection`'s, a `@periodical`'s an `@article`'s `journaltitle`, and
//!   a multi-volume parent's (`@mvbook`, …) a `maintitle`; where such a map
//!   applies the field is not also copied under its own name;
//! - fields that identify the parent itself are never inherited (`ids`,
//!   `crossref`, `xref`, `entryset`, `label`, `shorthand`, `sortkey`, …);
//! - `xdata = {a, b}` copies every field of the named `@xdata` entries,
//!   unmapped, before `crossref` (biber's order), and the parent's own
//!   `crossref`/`xdata` is followed in turn, at most [`MAX_DEPTH`] deep, so
//!   a cycle (an entry naming itself) ends.
//!
//! Only layer 1 reads the resolved entries (required fields and years); the
//! entry as written is what duplicates, DOIs and the lookups see, so siblings
//! sharing a parent's DOI are not duplicates of each other.

use super::parse::{Bibliography, Entry, Field};
use std::borrow::Cow;
use std::collections::BTreeMap;

/// How many links of `crossref`/`xdata` are followed from one entry.
pub const MAX_DEPTH: usize = 8;

/// Fields a child never inherits (biblatex manual, appendix B).
const NEVER: &[&str] = &[
    "ids",
    "crossref",
    "xref",
    "xdata",
    "entryset",
    "entrysubtype",
    "execute",
    "label",
    "options",
    "presort",
    "related",
    "relatedoptions",
    "relatedstring",
    "relatedtype",
    "shorthand",
    "shorthandintro",
    "sortkey",
];

/// The title fields of a parent mapped to the child's `prefix`-title fields
/// (`booktitle`, `booksubtitle`, `booktitleaddon`), the parent's short and
/// sort titles dropped.
fn title_map(field: &str, prefix: &str) -> Option<Option<String>> {
    match field {
        "title" => Some(Some(format!("{prefix}title"))),
        "subtitle" => Some(Some(format!("{prefix}subtitle"))),
        "titleaddon" => Some(Some(format!("{prefix}titleaddon"))),
        "shorttitle" | "sorttitle" | "indextitle" | "indexsorttitle" => Some(None),
        _ => None,
    }
}

/// biber's default map for one field from a `parent` type to a `child` type:
/// `None` when no map applies (copy under the same name), `Some(None)` when
/// the field is dropped, `Some(Some(name))` when it goes to `name`.
fn mapped(parent: &str, child: &str, field: &str) -> Option<Option<String>> {
    let into = |kinds: &[&str]| kinds.contains(&child);
    match parent {
        "mvbook" if into(&["book", "inbook", "bookinbook", "suppbook"]) => title_map(field, "main"),
        "mvcollection" | "mvreference"
            if into(&[
                "collection",
                "reference",
                "incollection",
                "inreference",
                "suppcollection",
            ]) =>
        {
            title_map(field, "main")
        }
        "mvproceedings" if into(&["proceedings", "inproceedings"]) => title_map(field, "main"),
        "book" if into(&["inbook", "bookinbook", "suppbook"]) => title_map(field, "book"),
        "collection" | "reference" if into(&["incollection", "inreference", "suppcollection"]) => {
            title_map(field, "book")
        }
        "proceedings" if into(&["inproceedings", "conference"]) => title_map(field, "book"),
        "periodical" if into(&["article", "suppperiodical"]) => match field {
            "title" => Some(Some("journaltitle".into())),
            "subtitle" => Some(Some("journalsubtitle".into())),
            "titleaddon" => Some(Some("journaltitleaddon".into())),
            "shorttitle" | "sorttitle" | "indextitle" | "indexsorttitle" => Some(None),
            _ => None,
        },
        _ => None,
    }
}

/// The parents `e` names, as (field, key): each key of `xdata` (a list),
/// then the one of `crossref`, trimmed, blank ones left out.
pub fn parent_keys(e: &Entry) -> impl Iterator<Item = (&'static str, &str)> {
    let xdata = e.get("xdata").into_iter().flat_map(|v| v.split(','));
    let crossref = e.get("crossref");
    xdata
        .map(|k| ("xdata", k))
        .chain(crossref.map(|k| ("crossref", k)))
        .map(|(f, k)| (f, k.trim()))
        .filter(|(_, k)| !k.is_empty())
}

/// The entries of a bibliography by lowercased key (the first of a repeated
/// key wins, as in BibTeX).
pub struct Index<'b> {
    by_key: BTreeMap<String, &'b Entry>,
}

impl<'b> Index<'b> {
    /// Indexes the entries of `bib`.
    pub fn new(bib: &'b Bibliography) -> Self {
        Index::of_all(&[bib])
    }

    /// Indexes the entries of several files read as one database, in
    /// order (a parent may be in another file; the first of a key wins).
    pub fn of_all(bibs: &[&'b Bibliography]) -> Self {
        let mut by_key = BTreeMap::new();
        for e in bibs.iter().flat_map(|b| &b.entries) {
            by_key.entry(e.key.to_lowercase()).or_insert(e);
        }
        Index { by_key }
    }

    /// The entry a `crossref` or `xdata` value names, its key in any case.
    pub fn get(&self, key: &str) -> Option<&'b Entry> {
        self.by_key.get(&key.trim().to_lowercase()).copied()
    }

    /// The entry with the fields it inherits added after its own; borrowed
    /// unchanged when it names no parent.
    pub fn resolve<'e>(&self, entry: &'e Entry) -> Cow<'e, Entry> {
        if !entry.has("crossref") && !entry.has("xdata") {
            return Cow::Borrowed(entry);
        }
        let mut out = entry.clone();
        self.inherit_into(&mut out, entry, 0);
        Cow::Owned(out)
    }

    /// Adds to `out` what `from` (the child itself or an ancestor) pulls in
    /// through its `xdata` and `crossref`.
    fn inherit_into(&self, out: &mut Entry, from: &Entry, depth: usize) {
        if depth >= MAX_DEPTH {
            return;
        }
        if let Some(list) = from.get("xdata") {
            for key in list.split(',') {
                if let Some(x) = self.get(key).filter(|x| !std::ptr::eq(*x, from)) {
                    copy_fields(out, x, |f| Some(f.to_string()));
                    self.inherit_into(out, x, depth + 1);
                }
            }
        }
        if let Some(key) = from.get("crossref") {
            if let Some(parent) = self.get(key).filter(|p| !std::ptr::eq(*p, from)) {
                let child_kind = out.kind.clone();
                copy_fields(out, parent, |f| {
                    match mapped(&parent.kind, &child_kind, f) {
                        Some(target) => target,
                        None => Some(f.to_string()),
                    }
                });
                self.inherit_into(out, parent, depth + 1);
            }
        }
    }
}

/// Copies each field of `parent` that is inheritable, under the name `map`
/// gives, when `out` has no such field yet.
fn copy_fields(out: &mut Entry, parent: &Entry, map: impl Fn(&str) -> Option<String>) {
    for f in &parent.fields {
        if NEVER.contains(&f.name.as_str()) {
            continue;
        }
        let Some(name) = map(&f.name) else { continue };
        if out.has(&name) {
            continue;
        }
        // A blank field of the child is replaced, as if absent.
        out.fields.retain(|g| !g.name.eq_ignore_ascii_case(&name));
        out.fields.push(Field { name, ..f.clone() });
    }
}

/// The bibliography with every entry's inheritance resolved (see the module
/// documentation); problems, strings and comments kept.
pub fn resolve(bib: &Bibliography) -> Bibliography {
    let index = Index::new(bib);
    Bibliography {
        entries: bib
            .entries
            .iter()
            .map(|e| index.resolve(e).into_owned())
            .collect(),
        ..bib.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bibtex::parse::parse;

    /// Resolves `bib` and compares `key`'s fields (name = value, sorted) with `expected`.
    fn check(bib: &str, key: &str, expected: &[&str]) {
        let resolved = resolve(&parse(bib));
        let e = resolved.entries.iter().find(|e| e.key == key).unwrap();
        let mut got: Vec<String> = e
            .fields
            .iter()
            .map(|f| format!("{} = {}", f.name, f.value))
            .collect();
        got.sort();
        assert_eq!(got, expected, "{bib}");
    }

    #[test]
    fn crossref_and_xdata() {
        // BibTeX: missing fields copied under the same name; the child's own win.
        check("@inproceedings{c, title={T}, year={2001}, crossref={P}}\n@proceedings{p, booktitle={B}, year={1999}, publisher={X}}",
              "c", &["booktitle = B", "crossref = P", "publisher = X", "title = T", "year = 2001"]);
        // biber: a proceedings' title is the inproceedings' booktitle, not its title.
        check("@inproceedings{c, author={A}, crossref={p}}\n@proceedings{p, title={Proc}, subtitle={S}, shorttitle={PR}, year={2017}}",
              "c", &["author = A", "booksubtitle = S", "booktitle = Proc", "crossref = p", "year = 2017"]);
        check(
            "@inbook{c, crossref={b}, chapter={2}}\n@book{b, title={Bk}, author={Au}}",
            "c",
            &[
                "author = Au",
                "booktitle = Bk",
                "chapter = 2",
                "crossref = b",
            ],
        );
        check(
            "@article{c, crossref={j}}\n@periodical{j, title={Jn}, date={2020}}",
            "c",
            &["crossref = j", "date = 2020", "journaltitle = Jn"],
        );
        check(
            "@book{c, title={Vol 1}, crossref={mv}}\n@mvbook{mv, title={Works}, ids={w}}",
            "c",
            &["crossref = mv", "maintitle = Works", "title = Vol 1"],
        );
        // An unmapped pair of types copies the title under its own name only if missing.
        check(
            "@book{c, crossref={p}}\n@book{p, title={P}}",
            "c",
            &["crossref = p", "title = P"],
        );
        // xdata: every field, unmapped, nested xdata followed.
        check("@xdata{pub, publisher={Pub}, xdata={loc}}\n@xdata{loc, address={City}}\n@book{c, title={T}, xdata={pub}}",
              "c", &["address = City", "publisher = Pub", "title = T", "xdata = pub"]);
        // Chains: grandparent's fields reach the child.
        check("@inproceedings{c, crossref={p}}\n@proceedings{p, title={P}, crossref={mv}}\n@mvproceedings{mv, title={M}, year={2000}}",
              "c", &["booktitle = P", "crossref = p", "maintitle = M", "year = 2000"]);
        // Cycles and missing parents end quietly.
        check(
            "@book{a, title={Foo}, crossref={b}}\n@book{b, author={X}, crossref={b}}",
            "a",
            &["author = X", "crossref = b", "title = Foo"],
        );
        check("@book{a, crossref={a}}", "a", &["crossref = a"]);
        check(
            "@book{a, crossref={nowhere}, xdata={}}",
            "a",
            &["crossref = nowhere", "xdata = "],
        );
        // A blank child field is filled.
        check(
            "@inproceedings{c, booktitle={}, crossref={p}}\n@proceedings{p, title={P}}",
            "c",
            &["booktitle = P", "crossref = p"],
        );
    }
}
