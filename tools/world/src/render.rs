//! A record as each service renders it.
//!
//! The forms follow the services' public responses (the recorded fixtures in
//! `core/tests/fixtures/api/` and the services' API documentation):
//! Semantic Scholar's `paperId`/`externalIds`/`venue`/`journal`/
//! `publicationTypes` and its full venue names; Crossref's `message` with
//! `title` and `container-title` as arrays, `author` as `given`/`family`,
//! `DOI` lowercased and `published.date-parts`; OpenAlex's
//! `https://openalex.org/W…` ids, `https://doi.org/` lowercased DOIs,
//! `authorships[].author.display_name` and `primary_location.source.display_name`;
//! DataCite's JSON:API `data.attributes` with `Family, Given` creators;
//! DBLP's `result.hits.hit[].info` with a period after the title, the
//! homonym number kept in author names, and a lone author as an object
//! rather than a one-element list.

use crate::Record;
use serde_json::{json, Value};

/// How each service names a venue DBLP abbreviates: (DBLP name, Semantic
/// Scholar, OpenAlex, Crossref container title with `{Y}` for the year).
/// Source: the services' records of papers at these venues (e.g. S2's
/// "Neural Information Processing Systems", OpenAlex's "Proceedings of the
/// AAAI Conference on Artificial Intelligence", Crossref's IEEE
/// "{year} IEEE/CVF Conference on Computer Vision and Pattern Recognition (CVPR)").
const VENUES: &[(&str, &str, &str, &str)] = &[
    ("NeurIPS", "Neural Information Processing Systems", "Neural Information Processing Systems", "Advances in Neural Information Processing Systems"),
    ("ICML", "International Conference on Machine Learning", "International Conference on Machine Learning", "Proceedings of the {Y} International Conference on Machine Learning"),
    ("ICLR", "International Conference on Learning Representations", "International Conference on Learning Representations", "International Conference on Learning Representations"),
    ("CVPR", "Computer Vision and Pattern Recognition", "{Y} IEEE/CVF Conference on Computer Vision and Pattern Recognition (CVPR)", "{Y} IEEE/CVF Conference on Computer Vision and Pattern Recognition (CVPR)"),
    ("AAAI", "AAAI Conference on Artificial Intelligence", "Proceedings of the AAAI Conference on Artificial Intelligence", "Proceedings of the AAAI Conference on Artificial Intelligence"),
    ("KDD", "Knowledge Discovery and Data Mining", "Knowledge Discovery and Data Mining", "Proceedings of the 29th ACM SIGKDD Conference on Knowledge Discovery and Data Mining"),
    ("SIGIR", "Annual International ACM SIGIR Conference on Research and Development in Information Retrieval", "International ACM SIGIR Conference on Research and Development in Information Retrieval", "Proceedings of the 46th International ACM SIGIR Conference on Research and Development in Information Retrieval"),
    ("WWW", "The Web Conference", "The Web Conference", "Proceedings of the ACM Web Conference {Y}"),
    ("CCS", "Conference on Computer and Communications Security", "Computer and Communications Security", "Proceedings of the {Y} ACM SIGSAC Conference on Computer and Communications Security"),
    ("OSDI", "USENIX Symposium on Operating Systems Design and Implementation", "Operating Systems Design and Implementation", "USENIX Symposium on Operating Systems Design and Implementation"),
    ("SOSP", "Symposium on Operating Systems Principles", "Symposium on Operating Systems Principles", "Proceedings of the 29th Symposium on Operating Systems Principles"),
    ("ICDM", "IEEE International Conference on Data Mining", "IEEE International Conference on Data Mining", "{Y} IEEE International Conference on Data Mining (ICDM)"),
    ("CHI", "International Conference on Human Factors in Computing Systems", "Human Factors in Computing Systems", "Proceedings of the CHI Conference on Human Factors in Computing Systems"),
    ("CHI Extended Abstracts", "CHI Extended Abstracts", "CHI Conference on Human Factors in Computing Systems Extended Abstracts", "Extended Abstracts of the CHI Conference on Human Factors in Computing Systems"),
    ("SOUPS", "Symposium On Usable Privacy and Security", "Symposium On Usable Privacy and Security", "Symposium on Usable Privacy and Security"),
    ("SOUPS @ USENIX Security Symposium", "Symposium On Usable Privacy and Security", "Symposium On Usable Privacy and Security", "Symposium on Usable Privacy and Security"),
    ("Mach. Learn.", "Machine Learning", "Machine Learning", "Machine Learning"),
    ("J. Mach. Learn. Res.", "Journal of machine learning research", "Journal of Machine Learning Research", "Journal of Machine Learning Research"),
    ("Trans. Mach. Learn. Res.", "Trans. Mach. Learn. Res.", "Transactions on Machine Learning Research", "Transactions on Machine Learning Research"),
    ("Proc. ACM Manag. Data", "Proc. ACM Manag. Data", "Proceedings of the ACM on Management of Data", "Proceedings of the ACM on Management of Data"),
    ("Proc. VLDB Endow.", "Proceedings of the VLDB Endowment", "Proceedings of the VLDB Endowment", "Proceedings of the VLDB Endowment"),
    ("ACM Trans. Graph.", "ACM Transactions on Graphics", "ACM Transactions on Graphics", "ACM Transactions on Graphics"),
    ("ECCV", "European Conference on Computer Vision", "European Conference on Computer Vision", "Lecture Notes in Computer Science"),
    ("ICCV", "IEEE International Conference on Computer Vision", "IEEE International Conference on Computer Vision", "{Y} IEEE/CVF International Conference on Computer Vision (ICCV)"),
    ("ACL", "Annual Meeting of the Association for Computational Linguistics", "Annual Meeting of the Association for Computational Linguistics", "Proceedings of the 61st Annual Meeting of the Association for Computational Linguistics"),
    ("EMNLP", "Conference on Empirical Methods in Natural Language Processing", "Conference on Empirical Methods in Natural Language Processing", "Proceedings of the {Y} Conference on Empirical Methods in Natural Language Processing"),
    ("NAACL-HLT", "North American Chapter of the Association for Computational Linguistics", "North American Chapter of the Association for Computational Linguistics", "Proceedings of the {Y} Conference of the North American Chapter of the Association for Computational Linguistics"),
    ("IJCAI", "International Joint Conference on Artificial Intelligence", "International Joint Conference on Artificial Intelligence", "Proceedings of the Thirty-Second International Joint Conference on Artificial Intelligence"),
    ("UAI", "Conference on Uncertainty in Artificial Intelligence", "Conference on Uncertainty in Artificial Intelligence", "Uncertainty in Artificial Intelligence"),
    ("AISTATS", "International Conference on Artificial Intelligence and Statistics", "International Conference on Artificial Intelligence and Statistics", "International Conference on Artificial Intelligence and Statistics"),
    ("ICRA", "IEEE International Conference on Robotics and Automation", "IEEE International Conference on Robotics and Automation", "{Y} IEEE International Conference on Robotics and Automation (ICRA)"),
    ("CoRL", "Conference on Robot Learning", "Conference on Robot Learning", ""),
    ("COLT", "Annual Conference Computational Learning Theory", "Conference on Learning Theory", ""),
    ("MICCAI", "International Conference on Medical Image Computing and Computer-Assisted Intervention", "Lecture notes in computer science", "Lecture Notes in Computer Science"),
    ("EMNLP (Findings)", "Findings", "Findings of the Association for Computational Linguistics: EMNLP {Y}", "Findings of the Association for Computational Linguistics: EMNLP {Y}"),
    ("Proc. Natl. Acad. Sci. USA", "Proceedings of the National Academy of Sciences of the United States of America", "Proceedings of the National Academy of Sciences", "Proceedings of the National Academy of Sciences"),
    ("Neural Comput.", "Neural Computation", "Neural Computation", "Neural Computation"),
    ("Nat.", "Nature", "Nature", "Nature"),
    ("CoRR", "arXiv.org", "arXiv (Cornell University)", ""),
    ("biorxiv", "bioRxiv", "bioRxiv (Cold Spring Harbor Laboratory)", ""),
    ("bioRxiv : the preprint server for biology", "bioRxiv", "bioRxiv (Cold Spring Harbor Laboratory)", ""),
    ("medRxiv : the preprint server for health sciences", "medRxiv", "medRxiv (Cold Spring Harbor Laboratory)", ""),
];

/// Which of the names a service uses.
#[derive(Clone, Copy)]
enum Svc {
    S2,
    OpenAlex,
    Crossref,
}

/// The venue name a service gives the record, if any.
fn venue(r: &Record, svc: Svc) -> Option<String> {
    let v = match r.venue.as_deref() {
        Some(v) => v,
        None if r.arxiv.is_some() => {
            return Some(
                match svc {
                    Svc::S2 => "arXiv.org",
                    Svc::OpenAlex => "arXiv (Cornell University)",
                    Svc::Crossref => "",
                }
                .to_string(),
            )
            .filter(|s| !s.is_empty());
        }
        None => return None,
    };
    let year = r.year.map(|y| y.to_string()).unwrap_or_default();
    match VENUES.iter().find(|row| row.0.eq_ignore_ascii_case(v)) {
        Some(row) => {
            let name = match svc {
                Svc::S2 => row.1,
                Svc::OpenAlex => row.2,
                Svc::Crossref => row.3,
            };
            let name = name.replace("{Y}", &year);
            (!name.is_empty()).then_some(name)
        }
        // Journals: Semantic Scholar and OpenAlex capitalize the words of
        // the journal's name (DBLP and PubMed write "Frontiers in nutrition").
        None => Some(match svc {
            Svc::Crossref => v.to_string(),
            _ => title_case(v),
        }),
    }
}

fn title_case(v: &str) -> String {
    const SMALL: &[&str] = &["of", "in", "and", "the", "for", "on", "a", "an", "to"];
    v.split(' ')
        .enumerate()
        .map(|(i, w)| {
            if i > 0 && SMALL.contains(&w) {
                w.to_string()
            } else {
                let mut c = w.chars();
                c.next()
                    .map(|f| f.to_uppercase().chain(c).collect())
                    .unwrap_or_default()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// An author's name without DBLP's homonym number.
pub fn plain_name(name: &str) -> String {
    let mut ws: Vec<&str> = name.split_whitespace().collect();
    if ws.len() > 1
        && ws
            .last()
            .is_some_and(|w| w.len() == 4 && w.bytes().all(|b| b.is_ascii_digit()))
    {
        ws.pop();
    }
    ws.join(" ")
}

/// (given, family) as Crossref and DataCite split a name: lowercase
/// particles go with the family name (`Jan-Willem`, `van de Meent`).
pub fn split_name(name: &str) -> (String, String) {
    let plain = plain_name(name);
    let ws: Vec<&str> = plain.split_whitespace().collect();
    if ws.len() < 2 {
        return (String::new(), plain);
    }
    let mut start = ws.len() - 1;
    while start > 1 && ws[start - 1].chars().next().is_some_and(char::is_lowercase) {
        start -= 1;
    }
    (ws[..start].join(" "), ws[start..].join(" "))
}

fn date(r: &Record) -> Option<String> {
    r.year.map(|y| format!("{y}-01-01"))
}

/// Semantic Scholar's paper object, with only the asked `fields` when given.
pub fn s2(r: &Record, fields: Option<&str>) -> Value {
    let mut ext = serde_json::Map::new();
    if let Some(d) = &r.doi {
        ext.insert("DOI".into(), json!(d));
    }
    if let Some(a) = &r.arxiv {
        ext.insert("ArXiv".into(), json!(a));
    }
    if let Some(k) = &r.dblp_key {
        ext.insert("DBLP".into(), json!(k));
    }
    if let Some(p) = &r.pmid {
        ext.insert("PubMed".into(), json!(p));
    }
    ext.insert(
        "CorpusId".into(),
        json!(u64::from_str_radix(&r.s2_id[..8], 16).unwrap_or(0)),
    );
    let venue = venue(r, Svc::S2).unwrap_or_default();
    let types = match (r.kind.as_str(), r.preprint) {
        (_, true) => Value::Null,
        ("inproceedings", _) => json!(["Conference"]),
        ("article", _) => json!(["JournalArticle"]),
        _ => Value::Null,
    };
    let journal = if r.kind == "article" || r.preprint {
        json!({"name": venue})
    } else {
        Value::Null
    };
    let full = json!({
        "paperId": r.s2_id,
        "externalIds": ext,
        "title": r.title,
        "abstract": Value::Null,
        "authors": r.authors.iter().map(|a| json!({
            "authorId": format!("{}", 1000 + crate::hash(a, 7) % 9_000_000),
            "name": plain_name(a)
        })).collect::<Vec<_>>(),
        "year": r.year,
        "publicationDate": date(r),
        "venue": venue,
        "journal": journal,
        "citationCount": crate::hash(&r.title, 9) % 500,
        "publicationTypes": types,
    });
    match fields {
        None => json!({"paperId": r.s2_id, "title": r.title}),
        Some(f) => {
            let mut out = serde_json::Map::new();
            out.insert("paperId".into(), full["paperId"].clone());
            for k in f.split(',').map(str::trim) {
                if let Some(v) = full.get(k) {
                    out.insert(k.into(), v.clone());
                }
            }
            Value::Object(out)
        }
    }
}

/// Crossref's `message` for a work.
pub fn crossref(r: &Record) -> Value {
    let kind = match (r.kind.as_str(), r.preprint) {
        (_, true) => "posted-content",
        ("inproceedings", _) => "proceedings-article",
        ("article", _) => "journal-article",
        _ => "other",
    };
    let authors: Vec<Value> = r
        .authors
        .iter()
        .enumerate()
        .map(|(i, a)| {
            let (given, family) = split_name(a);
            json!({"given": given, "family": family,
                   "sequence": if i == 0 { "first" } else { "additional" }, "affiliation": []})
        })
        .collect();
    let container: Vec<String> = venue(r, Svc::Crossref).into_iter().collect();
    json!({
        "DOI": r.doi.as_deref().unwrap_or("").to_lowercase(),
        "type": kind,
        "title": [r.title],
        "author": authors,
        "container-title": container,
        "published": {"date-parts": [[r.year]]},
        "issued": {"date-parts": [[r.year]]},
        "is-referenced-by-count": crate::hash(&r.title, 9) % 500,
        "URL": format!("https://doi.org/{}", r.doi.as_deref().unwrap_or("").to_lowercase()),
        "source": "Crossref",
    })
}

/// OpenAlex's work object.
pub fn openalex(r: &Record) -> Value {
    let kind = if r.preprint { "preprint" } else { "article" };
    let source = venue(r, Svc::OpenAlex).map(|v| json!({"id": "https://openalex.org/S1", "display_name": v, "type": if r.preprint {"repository"} else if r.kind == "inproceedings" {"conference"} else {"journal"}}));
    json!({
        "id": format!("https://openalex.org/{}", r.openalex_id),
        "doi": r.doi.as_ref().map(|d| format!("https://doi.org/{}", d.to_lowercase())),
        "title": r.title,
        "display_name": r.title,
        "publication_year": r.year,
        "publication_date": date(r),
        "ids": {"openalex": format!("https://openalex.org/{}", r.openalex_id),
                "pmid": r.pmid.as_ref().map(|p| format!("https://pubmed.ncbi.nlm.nih.gov/{p}"))},
        "type": kind,
        "authorships": r.authors.iter().enumerate().map(|(i, a)| json!({
            "author_position": if i == 0 { "first" } else if i + 1 == r.authors.len() { "last" } else { "middle" },
            "author": {"id": format!("https://openalex.org/A{}", 5_000_000_000u64 + crate::hash(a, 5) % 1_000_000_000), "display_name": plain_name(a)},
            "raw_author_name": plain_name(a),
        })).collect::<Vec<_>>(),
        "primary_location": {"source": source},
        "cited_by_count": crate::hash(&r.title, 9) % 500,
    })
}

/// DataCite's `data` object for a DOI.
pub fn datacite(r: &Record) -> Value {
    let doi = r.doi.as_deref().unwrap_or("").to_lowercase();
    let creators: Vec<Value> = r
        .authors
        .iter()
        .map(|a| {
            let (given, family) = split_name(a);
            json!({"name": format!("{family}, {given}"), "nameType": "Personal",
                   "givenName": given, "familyName": family, "affiliation": [], "nameIdentifiers": []})
        })
        .collect();
    json!({
        "id": doi,
        "type": "dois",
        "attributes": {
            "doi": doi,
            "identifiers": [],
            "creators": creators,
            "titles": [{"title": r.title}],
            "publisher": if r.arxiv.is_some() { "arXiv" } else { "Zenodo" },
            "publicationYear": r.year,
            "types": {"resourceTypeGeneral": "Preprint", "resourceType": "Article", "bibtex": "misc", "citeproc": "article"},
            "url": r.arxiv.as_ref().map(|a| format!("https://arxiv.org/abs/{a}")),
            "state": "findable",
        }
    })
}

/// One DBLP search hit.
pub fn dblp(r: &Record) -> Value {
    let authors: Vec<Value> = r
        .authors
        .iter()
        .map(|a| json!({"@pid": format!("{:x}/{}", crate::hash(a, 3) % 300, crate::hash(a, 6) % 10000), "text": a}))
        .collect();
    let author = if authors.len() == 1 {
        authors[0].clone()
    } else {
        Value::Array(authors)
    };
    let kind = match r.kind.as_str() {
        "inproceedings" => "Conference and Workshop Papers",
        "article" => "Journal Articles",
        _ => "Informal and Other Publications",
    };
    let mut info = json!({
        "authors": {"author": author},
        "title": format!("{}.", r.title.trim_end_matches('.')),
        "venue": r.venue.clone().unwrap_or_else(|| "CoRR".into()),
        "year": r.year.map(|y| y.to_string()),
        "type": kind,
        "key": r.dblp_key,
        "url": r.dblp_key.as_ref().map(|k| format!("https://dblp.org/rec/{k}")),
    });
    if let Some(d) = &r.doi {
        info["doi"] = json!(d);
        info["ee"] = json!(format!("https://doi.org/{d}"));
    }
    json!({"@score": "7", "@id": format!("{}", crate::hash(&r.title, 8) % 10_000_000), "info": info, "url": format!("URL#{}", crate::hash(&r.title, 8) % 10_000_000)})
}

/// Text escaped for XML.
pub fn xml_escape(t: &str) -> String {
    t.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// One entry of arXiv's Atom feed (version 1, names without homonym numbers).
pub fn arxiv_entry(r: &Record) -> String {
    let id = r.arxiv.as_deref().unwrap_or("");
    let year = r.year.unwrap_or(2000);
    let authors: String = r
        .authors
        .iter()
        .map(|a| {
            format!(
                "    <author>\n      <name>{}</name>\n    </author>\n",
                xml_escape(&plain_name(a))
            )
        })
        .collect();
    format!(
        "  <entry>\n    <id>http://arxiv.org/abs/{id}v1</id>\n    <title>{}</title>\n    <updated>{year}-01-01T00:00:00Z</updated>\n    <published>{year}-01-01T00:00:00Z</published>\n    <link href=\"https://arxiv.org/abs/{id}v1\" rel=\"alternate\" type=\"text/html\"/>\n    <arxiv:primary_category term=\"cs.LG\"/>\n{authors}  </entry>\n",
        xml_escape(&r.title)
    )
}
