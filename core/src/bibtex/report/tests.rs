use super::*;
use crate::bibtex::check::{self, OnlineReport};
use crate::bibtex::parse;
use crate::cutoff::Date;
use crate::resolve::{self, Answer, Evidence, Outcome, Resolution, Route};
use crate::works::{Author, PubDate, Service, Work};

const BIB: &str = "% my refs\n\
@article{real,\n  title = {Attention Is All You Need},\n  author = {Vaswani, Ashish and Shazeer, Noam},\n  journal = {NeurIPS},\n  year = {2017},\n}\n\
\n\
@article{wrongyear, title={Deep Residual Learning for Image Recognition}, author={He, Kaiming and Zhang, Xiangyu},\n  journal={CVPR}, year={2009}}\n\
@article{ghost, title={Quantum Widgets for Everyone}, author={Li, Wei}, journal={J}, year={2023}}\n\
@article{offline, title={Something Unreachable}, author={Roe, R.}, journal={J}, year={2020}}\n";

fn work(source: Service, title: &str, authors: &[&str], year: i32, venue: &str) -> Work {
    let mut w = Work::empty(source);
    w.title = title.into();
    w.authors = authors
        .iter()
        .map(|a| Author {
            name: a.to_string(),
            given: None,
            family: None,
        })
        .collect();
    w.published = Some(PubDate {
        year,
        month: None,
        day: None,
    });
    w.venue = Some(venue.into());
    w
}

fn hits(service: Service, asked: &str, works: Vec<Work>) -> Evidence {
    Evidence {
        service,
        route: Route::Title,
        asked: asked.into(),
        answer: Answer::Hits { works },
        dump: None,
    }
}

/// The four entries of `BIB` judged against answers a run could give.
fn judged() -> (parse::Bibliography, OnlineReport) {
    let bib = parse::parse(BIB);
    let mut attention = work(
        Service::SemanticScholar,
        "Attention Is All You Need",
        &["Ashish Vaswani", "Noam Shazeer"],
        2017,
        "NeurIPS",
    );
    attention.s2_id = Some("204e3073870fae3d05bcbc2f6a8e263d9b72e776".into());
    attention.doi = Some("10.5555/3295222.3295349".into());
    attention.arxiv_id = Some("1706.03762".into());
    let mut resnet = work(
        Service::Dblp,
        "Deep Residual Learning for Image Recognition",
        &["Kaiming He", "Xiangyu Zhang"],
        2016,
        "CVPR",
    );
    resnet.id = Some("conf/cvpr/HeZRS16".into());
    let mut other = work(Service::OpenAlex, "Widgets", &["A. Person"], 2001, "X");
    other.openalex_id = Some("https://openalex.org/W123".into());
    let resolutions = vec![
        Resolution {
            key: "real".into(),
            evidence: vec![hits(
                Service::SemanticScholar,
                "Attention Is All You Need",
                vec![attention.clone()],
            )],
            outcome: Outcome::Found {
                work: attention,
                via: Service::SemanticScholar,
            },
        },
        Resolution {
            key: "wrongyear".into(),
            evidence: vec![hits(
                Service::Dblp,
                "Deep Residual Learning for Image Recognition",
                vec![resnet.clone()],
            )],
            outcome: Outcome::Found {
                work: resnet,
                via: Service::Dblp,
            },
        },
        Resolution {
            key: "ghost".into(),
            evidence: vec![
                hits(Service::SemanticScholar, "Quantum Widgets", vec![other]),
                hits(Service::Crossref, "Quantum Widgets", vec![]),
            ],
            outcome: Outcome::NotFound,
        },
        Resolution {
            key: "offline".into(),
            evidence: vec![Evidence {
                service: Service::SemanticScholar,
                route: Route::Title,
                asked: "Something Unreachable".into(),
                answer: Answer::Failed {
                    error: crate::works::ApiError::new(
                        Service::SemanticScholar,
                        0,
                        "could not be reached",
                    ),
                },
                dump: None,
            }],
            outcome: Outcome::Unverified {
                reasons: vec!["semantic scholar could not be reached".into()],
            },
        },
    ];
    let run = resolve::Report {
        resolutions,
        requests: 4,
    };
    let today = Date::new(2026, 12, 3).unwrap();
    let online = check::online_report(&bib, &run, today, 4, 0);
    (bib, online)
}

fn check_status(key: &str, expected: Status) {
    let (_, online) = judged();
    let e = online.entries.iter().find(|e| e.key == key).unwrap();
    assert_eq!(status(e), expected, "{key}: {:?}", e.reasons);
}

#[test]
fn statuses_in_words() {
    check_status("real", Status::Matches);
    check_status("wrongyear", Status::Differs);
    check_status("ghost", Status::NotFound);
    check_status("offline", Status::Unchecked);
}

#[test]
fn labels_are_distinct_and_names_round_trip() {
    let labels: std::collections::BTreeSet<_> = Status::ALL.iter().map(|s| s.label()).collect();
    assert_eq!(labels.len(), Status::ALL.len());
    for s in Status::ALL {
        assert_eq!(Status::from_name(s.name()), Some(s));
    }
    assert_eq!(Status::from_name("nope"), None);
}

#[test]
fn tally_counts_every_status() {
    let (_, online) = judged();
    let t = tally(&online);
    assert_eq!(
        t,
        [
            (Status::NotFound, 1),
            (Status::Retracted, 0),
            (Status::Differs, 1),
            (Status::Doubtful, 0),
            (Status::Unchecked, 1),
            (Status::Matches, 1)
        ]
    );
}

fn check_links(key: &str, expected: &[&str]) {
    let (bib, online) = judged();
    let i = online.entries.iter().position(|e| e.key == key).unwrap();
    let got: Vec<String> = links(&online.entries[i], bib.entries[i].get("title"))
        .into_iter()
        .map(|l| format!("{}: {}", l.source, l.url))
        .collect();
    assert_eq!(got, expected, "{key}");
}

#[test]
fn links_to_the_records_that_are_the_cited_work() {
    check_links(
        "real",
        &[
            "DOI: https://doi.org/10.5555/3295222.3295349",
            "Semantic Scholar: https://www.semanticscholar.org/paper/204e3073870fae3d05bcbc2f6a8e263d9b72e776",
            "arXiv: https://arxiv.org/abs/1706.03762",
        ],
    );
    check_links(
        "wrongyear",
        &["DBLP: https://dblp.org/rec/conf/cvpr/HeZRS16"],
    );
    // A search hit with another title is not the cited work: no link.
    check_links("ghost", &[]);
    check_links("offline", &[]);
}

fn check_record_link(source: Service, id: &str, expected: &[&str]) {
    let mut w = Work::empty(source);
    w.id = Some(id.into());
    let got: Vec<String> = record_links(&w).into_iter().map(|l| l.url).collect();
    assert_eq!(got, expected, "{id}");
}

#[test]
fn ids_stay_inside_the_service_address() {
    check_record_link(
        Service::OpenAlex,
        "W2963403868",
        &["https://openalex.org/W2963403868"],
    );
    check_record_link(
        Service::OpenAlex,
        "https://openalex.org/W1",
        &["https://openalex.org/W1"],
    );
    check_record_link(
        Service::Dblp,
        "journals/x/a b?c#d",
        &["https://dblp.org/rec/journals/x/a%20b%3Fc%23d"],
    );
    check_record_link(Service::Dblp, "../../evil", &[]);
    check_record_link(Service::Dblp, "  ", &[]);
    check_record_link(
        Service::SemanticScholar,
        "abc\"<x>",
        &["https://www.semanticscholar.org/paper/abc%22%3Cx%3E"],
    );
    // Crossref's id is the DOI: its link comes from the DOI field alone.
    check_record_link(Service::Crossref, "10.1/x", &[]);
}

#[test]
fn fixed_bib_changes_only_the_corrected_field_of_corrected_entries() {
    let (bib, online) = judged();
    let fixed = fixed_bib(BIB, &bib, &online);
    assert_eq!(fixed.replaced, ["wrongyear"]);
    assert!(fixed.not_located.is_empty());
    // The year set in place: every other byte of the entry as written.
    let expected = BIB.replacen(
        "journal={CVPR}, year={2009}",
        "journal={CVPR}, year={2016}",
        1,
    );
    assert_eq!(fixed.text, expected);
    assert!(!fixed.text.contains("{2009}"));
    assert!(fixed.text.ends_with("@article{offline, title={Something Unreachable}, author={Roe, R.}, journal={J}, year={2020}}\n"));
    // The fixed file reads back with the same keys.
    let keys: Vec<String> = parse::parse(&fixed.text)
        .entries
        .into_iter()
        .map(|e| e.key)
        .collect();
    assert_eq!(keys, ["real", "wrongyear", "ghost", "offline"]);
}

fn check_locate(src: &str, line: usize, key: &str, expected: Option<&str>) {
    assert_eq!(
        locate(src, line, key).map(|r| &src[r]),
        expected,
        "{src:?} {line} {key}"
    );
}

#[test]
fn locating_entries() {
    check_locate("@misc{a, title={x}}", 1, "a", Some("@misc{a, title={x}}"));
    check_locate(
        "x\n  @misc{a, title={{n}est}} tail",
        2,
        "a",
        Some("@misc{a, title={{n}est}}"),
    );
    check_locate(
        "@misc(a, title={)}) tail",
        1,
        "a",
        Some("@misc(a, title={)})"),
    );
    check_locate("@misc{ a , t={x}}", 1, "a", Some("@misc{ a , t={x}}"));
    check_locate(
        "mail me@x.org @misc{a, t={x}}",
        1,
        "a",
        Some("@misc{a, t={x}}"),
    );
    check_locate("@misc{a, t={x}}", 1, "b", None);
    check_locate("@misc{a, t={x}}", 2, "a", None);
    check_locate("@misc{a, t={x}", 1, "a", None);
    check_locate("", 0, "a", None);
    check_locate("@misc{é, t={ü}}", 1, "é", Some("@misc{é, t={ü}}"));
}

fn check_csv(input: &str, expected: &str) {
    assert_eq!(csv_field(input), expected, "{input:?}");
}

#[test]
fn csv_quoting() {
    check_csv("plain", "plain");
    check_csv("", "");
    check_csv("a,b", "\"a,b\"");
    check_csv("say \"hi\"", "\"say \"\"hi\"\"\"");
    check_csv("two\nlines", "\"two\nlines\"");
    check_csv("cr\r", "\"cr\r\"");
    check_csv("{Title}, 2020", "\"{Title}, 2020\"");
}

/// A minimal RFC 4180 reader, to check that the export reads back.
fn read_csv(text: &str) -> Vec<Vec<String>> {
    let mut rows = vec![];
    let mut row = vec![];
    let mut cell = String::new();
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                cell.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => cell.push(c),
            (false, '"') => quoted = true,
            (false, ',') => row.push(std::mem::take(&mut cell)),
            (false, '\r') => {}
            (false, '\n') => {
                row.push(std::mem::take(&mut cell));
                rows.push(std::mem::take(&mut row));
            }
            (false, c) => cell.push(c),
        }
    }
    rows
}

fn full_report() -> (parse::Bibliography, FileReport) {
    let (bib, online) = judged();
    let mut report = check::check_file("refs.bib", &bib, None, 2026);
    report.online = Some(online);
    (bib, report)
}

#[test]
fn csv_export_reads_back_one_row_per_entry() {
    let (bib, report) = full_report();
    let csv = to_csv(&report, &bib);
    assert!(csv.ends_with("\r\n"));
    let rows = read_csv(&csv);
    assert_eq!(rows.len(), 5);
    assert_eq!(rows[0][0..4], ["key", "line", "type", "status"]);
    assert!(rows.iter().all(|r| r.len() == 9), "{rows:?}");
    let by_key = |k: &str| rows.iter().find(|r| r[0] == k).unwrap().clone();
    assert_eq!(by_key("real")[3], "matches its record");
    assert_eq!(by_key("ghost")[3], "not found anywhere");
    assert_eq!(by_key("offline")[3], "could not check");
    let wrong = by_key("wrongyear");
    assert_eq!(wrong[1], "9");
    assert_eq!(wrong[3], "found but differs");
    assert_eq!(wrong[6], "https://dblp.org/rec/conf/cvpr/HeZRS16");
    // The corrected entry has commas and line breaks: quoted, read back whole.
    assert_eq!(
        wrong[8],
        report.online.as_ref().unwrap().entries[1]
            .corrected
            .as_deref()
            .unwrap()
            .trim_end()
    );
    // Without the online layers the status columns are empty.
    let offline = check::check_file("refs.bib", &bib, None, 2026);
    let rows = read_csv(&to_csv(&offline, &bib));
    assert_eq!(rows.len(), 5);
    assert!(rows[1..].iter().all(|r| r[3].is_empty()));
}

fn check_md(input: &str, expected: &str) {
    assert_eq!(md_cell(input), expected, "{input:?}");
}

#[test]
fn markdown_cells_are_text() {
    check_md("plain words", "plain words");
    check_md("a|b", "a\\|b");
    check_md("<script>", "\\<script\\>");
    check_md("[x](javascript:y)", "\\[x\\](javascript:y)");
    check_md("two\nlines", "two lines");
    check_md("*bold* _it_ `code`", "\\*bold\\* \\_it\\_ \\`code\\`");
}

#[test]
fn markdown_export_has_counts_entries_and_links() {
    let (bib, report) = full_report();
    let md = to_markdown(&report, &bib);
    assert!(
        md.starts_with("# BibTeX check: refs.bib\n\n4 entries, "),
        "{md}"
    );
    assert!(md.contains("| not found anywhere | 1 |\n"));
    assert!(md.contains("| matches its record | 1 |\n"));
    assert!(md.contains("| wrongyear | 9 | found but differs | "));
    assert!(md.contains("[DBLP](<https://dblp.org/rec/conf/cvpr/HeZRS16>)"));
    // Every table row has the header's five cells.
    let entry_rows: Vec<&str> = md
        .lines()
        .skip_while(|l| !l.starts_with("| key |"))
        .take_while(|l| l.starts_with('|'))
        .collect();
    assert_eq!(entry_rows.len(), 6);
}

#[test]
fn json_export_is_the_file_report() {
    let (_, report) = full_report();
    let v: serde_json::Value = serde_json::from_str(&to_json(&report)).unwrap();
    assert_eq!(v["bib"], "refs.bib");
    assert_eq!(v["online"]["entries"].as_array().unwrap().len(), 4);
    assert_eq!(v["online"]["hallucinated"], 2);
}

#[test]
fn corrections_are_the_corrected_entries() {
    let (_, online) = judged();
    let all = corrections(&online);
    assert_eq!(
        all,
        format!(
            "{}\n",
            online.entries[1].corrected.as_deref().unwrap().trim_end()
        )
    );
    let none = OnlineReport {
        entries: vec![],
        ..online
    };
    assert_eq!(corrections(&none), "");
}

fn failed(service: Service, status: u16) -> Evidence {
    Evidence {
        service,
        route: Route::Title,
        asked: "t".into(),
        answer: Answer::Failed {
            error: crate::works::ApiError::new(service, status, ""),
        },
        dump: None,
    }
}

fn check_unreachable(evidence: Vec<Vec<Evidence>>, expected: bool) {
    let resolutions = evidence
        .into_iter()
        .map(|evidence| Resolution {
            key: "k".into(),
            evidence,
            outcome: Outcome::Unverified { reasons: vec![] },
        })
        .collect();
    let run = resolve::Report {
        resolutions,
        requests: 1,
    };
    assert_eq!(unreachable(&run), expected);
}

#[test]
fn unreachable_only_when_nothing_answered() {
    use Service::{Crossref, SemanticScholar};
    check_unreachable(vec![], false);
    check_unreachable(vec![vec![]], false);
    check_unreachable(vec![vec![failed(SemanticScholar, 0)]], true);
    check_unreachable(
        vec![vec![failed(SemanticScholar, 0)], vec![failed(Crossref, 0)]],
        true,
    );
    // A service that answered, even with an error status, is reachable.
    check_unreachable(
        vec![vec![failed(SemanticScholar, 0), failed(Crossref, 503)]],
        false,
    );
    check_unreachable(
        vec![
            vec![failed(SemanticScholar, 0)],
            vec![hits(Crossref, "t", vec![])],
        ],
        false,
    );
}

/// Guards the page's legend: every status a card can show is explained,
/// and the one that accuses an entry says every source was asked (a miss
/// that a source could not be asked for is "could not check", which says
/// nothing against the work).
#[test]
fn the_legend_explains_every_status() {
    let meanings: Vec<&str> = Status::ALL.iter().map(|s| s.meaning()).collect();
    assert!(meanings.iter().all(|m| !m.is_empty()));
    let mut distinct = meanings.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(distinct.len(), Status::ALL.len());
    assert!(Status::NotFound
        .meaning()
        .starts_with("every source was asked and answered"));
    assert!(Status::Unchecked
        .meaning()
        .ends_with("this says nothing against the work"));
}

fn check_spent(evidence: Vec<Vec<Evidence>>, expected: &[Service]) {
    let resolutions = evidence
        .into_iter()
        .map(|evidence| Resolution {
            key: "k".into(),
            evidence,
            outcome: Outcome::Unverified { reasons: vec![] },
        })
        .collect();
    let run = resolve::Report {
        resolutions,
        requests: 1,
    };
    let spent: Vec<Service> = spent_allowances(&run).iter().map(|s| s.service).collect();
    assert_eq!(spent, expected);
}

/// Guards the budget banner: OpenAlex's 429 is its spent day, named once
/// however many entries it failed; another service's 429, or OpenAlex
/// failing otherwise, is no spent allowance.
#[test]
fn spent_allowances_name_openalex_once_on_its_429() {
    use Service::{Crossref, OpenAlex, SemanticScholar};
    check_spent(vec![], &[]);
    check_spent(
        vec![vec![failed(OpenAlex, 429)], vec![failed(OpenAlex, 429)]],
        &[OpenAlex],
    );
    check_spent(
        vec![vec![hits(Crossref, "t", vec![]), failed(OpenAlex, 429)]],
        &[OpenAlex],
    );
    check_spent(vec![vec![failed(SemanticScholar, 429)]], &[]);
    check_spent(vec![vec![failed(OpenAlex, 503), failed(OpenAlex, 0)]], &[]);
    let words = Spent {
        service: OpenAlex,
        until: "midnight UTC",
    }
    .words();
    assert!(
        words.starts_with("OpenAlex's free daily allowance is spent until midnight UTC: "),
        "{words}"
    );
    assert!(
        words.contains("nothing was counted against any of them"),
        "{words}"
    );
}

/// Regression (issue 31): a correction refused stays out of the fixed
/// `.bib`, an accepted one is in it, and the fields not corrected keep the
/// braces and characters the person typed (`tosatto2015single` lost its
/// `{FRET}` and had `'` turned into `’`).
#[test]
fn fixed_bib_writes_the_accepted_changes_only_and_keeps_what_was_typed() {
    let src = "% lab refs\n@string{jmb = \"Journal of Molecular Biology\"}\n@article{tosatto,\n  title = \"Single-molecule {FRET} of the cell's ribosome\",\n  author = {Tosatto, L. and Roe, R.},\n  journal = jmb, % a macro\n  year = {2012},\n}\n";
    let bib = parse::parse(src);
    let mut real = work(
        Service::Crossref,
        "Single-molecule FRET of the cell’s ribosome",
        &["L. Tosatto", "R. Roe"],
        2015,
        "Journal of Molecular Biology",
    );
    real.doi = Some("10.1016/j.jmb.2015.01.001".into());
    let res = Resolution {
        key: "tosatto".into(),
        evidence: vec![hits(Service::Crossref, "t", vec![real.clone()])],
        outcome: Outcome::Found {
            work: real,
            via: Service::Crossref,
        },
    };
    let online = check::online_report(
        &bib,
        &resolve::Report {
            resolutions: vec![res],
            requests: 1,
        },
        Date::new(2026, 12, 3).unwrap(),
        1,
        0,
    );
    let fields: Vec<&str> = online.entries[0]
        .changes
        .iter()
        .map(|c| c.field.as_str())
        .collect();
    assert_eq!(fields, ["year"], "{:?}", online.entries[0]);
    let all = fixed_bib(src, &bib, &online);
    assert_eq!(all.text, src.replace("{2012}", "{2015}"));
    let none = fixed_bib_accepting(src, &bib, &online, |_, c| c.field != "year");
    assert_eq!(none.text, src);
    assert!(none.replaced.is_empty());
}

fn check_set(src: &str, changes: &[(&str, &str)], expected: &str) {
    let owned: Vec<crate::bibtex::verdict::Change> = changes
        .iter()
        .map(|(f, v)| crate::bibtex::verdict::Change {
            field: f.to_string(),
            cited: None,
            record: v.to_string(),
            source: "test".into(),
            why: "test".into(),
        })
        .collect();
    let refs: Vec<&_> = owned.iter().collect();
    let (r, text) = crate::bibtex::edit::set_fields(src, 1, "a", &refs).expect("located");
    let got = format!("{}{}{}", &src[..r.start], text, &src[r.end..]);
    assert_eq!(got, expected, "{src:?} {changes:?}");
    assert_eq!(parse::parse(&got).entries.len(), 1, "{got}");
}

#[test]
fn fields_are_set_in_place_or_added_after_the_last() {
    check_set(
        "@misc{a, year={2001}}",
        &[("year", "2002")],
        "@misc{a, year={2002}}",
    );
    check_set(
        "@misc{a, year=2001, t=\"x, y\"}",
        &[("year", "2002")],
        "@misc{a, year={2002}, t=\"x, y\"}",
    );
    check_set(
        "@misc{a, t=\"x, y\", year = 2001 }",
        &[("year", "2002")],
        "@misc{a, t=\"x, y\", year = {2002} }",
    );
    check_set(
        "@misc{a, t = \"A \" # b, Year={1}}",
        &[("year", "2")],
        "@misc{a, t = \"A \" # b, Year={2}}",
    );
    check_set(
        "@misc{a, t={x},\n}",
        &[("doi", "10.1/x")],
        "@misc{a, t={x},\n  doi = {10.1/x},\n}",
    );
    check_set(
        "@misc{a, t={x}}",
        &[("doi", "10.1/x")],
        "@misc{a, t={x},\n  doi = {10.1/x}}",
    );
    check_set("@misc(a, t={x})", &[("t", "y")], "@misc(a, t={y})");
    check_set(
        "@misc{a, t={x}, % why\n y={1}}",
        &[("y", "2")],
        "@misc{a, t={x}, % why\n y={2}}",
    );
    // A repeated field: the first, the one BibTeX reads.
    check_set(
        "@misc{a, t={x}, t={z}}",
        &[("t", "y")],
        "@misc{a, t={y}, t={z}}",
    );
}

#[test]
fn a_review_applies_the_accepted_changes_only() {
    use crate::bibtex::review::{Review, ReviewTally};
    let (bib, online) = judged();
    let e = online
        .entries
        .iter()
        .find(|e| e.key == "wrongyear")
        .unwrap();
    let year = e
        .changes
        .iter()
        .find(|c| c.field == "year")
        .unwrap()
        .clone();
    let mut review = Review::default();
    let tally = |r: &Review| r.tally(&online);
    // Nothing looked at: nothing applied.
    assert_eq!(
        tally(&review),
        ReviewTally {
            accepted: 0,
            refused: 0,
            pending: 1
        }
    );
    assert_eq!(review.fixed_bib(BIB, &bib, &online).text, BIB);
    review.decide("wrongyear", &year, false);
    assert_eq!(review.fixed_bib(BIB, &bib, &online).text, BIB);
    // A refusal stands through "accept the rest".
    review.accept_rest(&online);
    assert_eq!(
        tally(&review),
        ReviewTally {
            accepted: 0,
            refused: 1,
            pending: 0
        }
    );
    assert_eq!(review.fixed_bib(BIB, &bib, &online).text, BIB);
    review.decide("wrongyear", &year, true);
    let fixed = review.fixed_bib(BIB, &bib, &online);
    assert_eq!(fixed.replaced, ["wrongyear"]);
    assert!(fixed.text.contains("year={2016}"), "{}", fixed.text);
    assert_eq!(
        tally(&review).words(),
        "1 correction: 1 accepted, 0 refused, 0 to review"
    );
    // Another proposal for the same field is undecided again.
    let other = crate::bibtex::verdict::Change {
        record: "2017".into(),
        ..year
    };
    assert_eq!(review.decision("wrongyear", &other), None);
}

fn failed_with(service: Service, message: &str) -> Evidence {
    Evidence {
        service,
        route: Route::Title,
        asked: "t".into(),
        answer: Answer::Failed {
            error: crate::works::ApiError::new(service, 0, message),
        },
        dump: None,
    }
}

fn check_left_to_dblp(evidence: Vec<Vec<Evidence>>, expected: usize, words: Option<&str>) {
    let run = resolve::Report {
        resolutions: evidence
            .into_iter()
            .enumerate()
            .map(|(i, evidence)| Resolution {
                key: format!("k{i}"),
                evidence,
                outcome: Outcome::Unverified { reasons: vec![] },
            })
            .collect(),
        requests: 0,
    };
    let n = left_to_dblp(&run);
    assert_eq!(n, expected);
    let said = left_to_dblp_words(n);
    assert_eq!(said.as_deref().map(|w| &w[..w.find(':').unwrap()]), words);
    if let Some(w) = said {
        assert!(
            w.contains("citegate relay (?relay=)") && w.contains("none is called fabricated"),
            "{w}"
        );
    }
}

#[test]
fn the_page_counts_what_it_left_for_dblp() {
    let note = || failed_with(Service::Dblp, resolve::NOT_FROM_A_PAGE);
    let other = || failed_with(Service::OpenAlex, "rate limited");
    check_left_to_dblp(vec![vec![other()], vec![]], 0, None);
    check_left_to_dblp(
        vec![vec![other(), note()], vec![]],
        1,
        Some("1 entry could not be settled here"),
    );
    check_left_to_dblp(
        vec![vec![note()], vec![note()], vec![other()]],
        2,
        Some("2 entries could not be settled here"),
    );
}
