//! A loopback Semantic Scholar that knows a given list of papers and answers
//! the three requests pool verification makes: `POST /paper/batch` (one
//! record or `null` per id, in order), `GET /paper/{id}` (the record or a
//! 404) and `GET /paper/search` (the papers whose normalized title is the
//! query's). Papers are looked up by `DOI:<doi>` and `ARXIV:<id>`.

use super::{Answer, Hit, Server};
use serde_json::{json, Value};

/// One paper the server knows.
#[derive(Debug, Clone)]
pub struct Paper {
    /// The title as the service spells it.
    pub title: String,
    /// The DOI it is known by.
    pub doi: Option<String>,
    /// The arXiv id it is known by.
    pub arxiv: Option<String>,
    /// The publication date, `YYYY-MM-DD`.
    pub date: String,
}

impl Paper {
    /// A paper with an abstract, published on `date`.
    pub fn new(title: &str, date: &str) -> Paper {
        Paper {
            title: title.to_string(),
            doi: None,
            arxiv: None,
            date: date.to_string(),
        }
    }

    /// The same paper, known by `doi`.
    pub fn doi(mut self, doi: &str) -> Paper {
        self.doi = Some(doi.to_string());
        self
    }

    /// The same paper, known by arXiv id `id`.
    pub fn arxiv(mut self, id: &str) -> Paper {
        self.arxiv = Some(id.to_string());
        self
    }

    fn record(&self, n: usize) -> Value {
        let mut ids = serde_json::Map::new();
        if let Some(d) = &self.doi {
            ids.insert("DOI".into(), json!(d));
        }
        if let Some(a) = &self.arxiv {
            ids.insert("ArXiv".into(), json!(a));
        }
        json!({
            "paperId": format!("{n:040x}"),
            "externalIds": ids,
            "title": self.title,
            "abstract": format!("what {} is about", self.title),
            "year": self.date[..4].parse::<i32>().unwrap_or(0),
            "publicationDate": self.date,
            "authors": [{"authorId": "1", "name": "Ada Lovelace"}],
        })
    }
}

fn norm(t: &str) -> String {
    t.to_lowercase()
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect()
}

fn lookup<'a>(papers: &'a [Paper], id: &str) -> Option<(usize, &'a Paper)> {
    let (kind, value) = id.split_once(':')?;
    let value = value.to_lowercase();
    papers.iter().enumerate().find(|(_, p)| match kind {
        "DOI" => p.doi.as_deref().map(str::to_lowercase) == Some(value.clone()),
        "ARXIV" => p.arxiv.as_deref() == Some(value.as_str()),
        _ => false,
    })
}

/// The answer of a Semantic Scholar that knows `papers` to `hit`.
pub fn answer(papers: &[Paper], hit: &Hit) -> Answer {
    if hit.method == "POST" && hit.path.ends_with("/paper/batch") {
        let body: Value = serde_json::from_str(&hit.body).unwrap_or(Value::Null);
        let out: Vec<Value> = body["ids"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|id| {
                lookup(papers, id.as_str().unwrap_or("")).map_or(Value::Null, |(n, p)| p.record(n))
            })
            .collect();
        return Answer::ok(Value::Array(out).to_string());
    }
    if hit.path.ends_with("/paper/search") {
        let q = norm(hit.param("query").unwrap_or(""));
        let data: Vec<Value> = papers
            .iter()
            .enumerate()
            .filter(|(_, p)| norm(&p.title) == q)
            .map(|(n, p)| p.record(n))
            .collect();
        return Answer::ok(json!({"total": data.len(), "offset": 0, "data": data}).to_string());
    }
    if let Some((_, id)) = hit.path.split_once("/paper/") {
        let id = form_urlencoded::parse(format!("x={id}").as_bytes())
            .next()
            .map(|(_, v)| v.into_owned())
            .unwrap_or_default();
        if let Some((n, p)) = lookup(papers, &id) {
            return Answer::ok(p.record(n).to_string());
        }
    }
    Answer::status(404, r#"{"error": "Paper not found"}"#)
}

/// A server that knows `papers`.
pub fn server(papers: Vec<Paper>) -> Server {
    Server::start(move |hit, _| answer(&papers, hit))
}

/// The requests `server` got, in short: `batch <n ids>`, `search <query>`,
/// `one <id>`, `other <path>`.
pub fn requests(server: &Server) -> Vec<String> {
    server
        .hits()
        .iter()
        .map(|h| {
            if h.method == "POST" && h.path.ends_with("/paper/batch") {
                let body: Value = serde_json::from_str(&h.body).unwrap_or(Value::Null);
                format!("batch {}", body["ids"].as_array().map_or(0, Vec::len))
            } else if h.path.ends_with("/paper/search") {
                format!("search {}", h.param("query").unwrap_or(""))
            } else if let Some((_, id)) = h.path.split_once("/paper/") {
                format!("one {id}")
            } else {
                format!("other {}", h.path)
            }
        })
        .collect()
}
