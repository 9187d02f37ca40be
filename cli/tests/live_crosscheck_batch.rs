//! `citegate crosscheck` sends the core's batch requests: against a loopback
//! stand-in for Crossref and OpenAlex (tools/world, which answers
//! `filter=doi:a,doi:b` and `filter=doi:a|b` as the services do), a pool of
//! DOI papers costs one request per index per 50 papers, never one per
//! paper, and a paper whose DOI an index does not hold gets one title search
//! there.

mod common;

use common::{fast_world, json_out, run, stderr, world_server, Hit, Server};
use serde_json::{json, Value};

/// Five papers with Crossref DOIs and one arXiv preprint whose DOI only
/// DataCite registers (so Crossref's batch does not know it).
const WORLD: &str = r#"{"type": "inproceedings", "fields": {"title": "Deep Residual Learning for Image Recognition", "author": "Kaiming He and Xiangyu Zhang and Shaoqing Ren and Jian Sun", "year": "2016", "doi": "10.1109/CVPR.2016.90", "booktitle": "CVPR"}}
{"type": "article", "fields": {"title": "Long Short-Term Memory", "author": "Sepp Hochreiter and Jürgen Schmidhuber", "year": "1997", "doi": "10.1162/neco.1997.9.8.1735", "journal": "Neural Comput."}}
{"type": "article", "fields": {"title": "Deep learning", "author": "Yann LeCun and Yoshua Bengio and Geoffrey E. Hinton", "year": "2015", "doi": "10.1038/nature14539", "journal": "Nature"}}
{"type": "article", "fields": {"title": "Human-level control through deep reinforcement learning", "author": "Volodymyr Mnih and Koray Kavukcuoglu and David Silver", "year": "2015", "doi": "10.1038/nature14236", "journal": "Nature"}}
{"type": "article", "fields": {"title": "ImageNet Large Scale Visual Recognition Challenge", "author": "Olga Russakovsky and Jia Deng and Hao Su", "year": "2015", "doi": "10.1007/s11263-015-0816-y", "journal": "Int. J. Comput. Vis."}}
{"type": "misc", "fields": {"title": "Adam: A Method for Stochastic Optimization", "author": "Diederik P. Kingma and Jimmy Ba", "year": "2014", "doi": "10.48550/arXiv.1412.6980", "journal": "CoRR"}}
"#;

/// `(bibtex key, title, year, DOI)` of the pool, in the world's order.
const PAPERS: [(&str, &str, i32, &str); 6] = [
    (
        "he2016",
        "Deep Residual Learning for Image Recognition",
        2016,
        "10.1109/CVPR.2016.90",
    ),
    (
        "hochreiter1997",
        "Long Short-Term Memory",
        1997,
        "10.1162/neco.1997.9.8.1735",
    ),
    ("lecun2015", "Deep learning", 2015, "10.1038/nature14539"),
    (
        "mnih2015",
        "Human-level control through deep reinforcement learning",
        2015,
        "10.1038/nature14236",
    ),
    (
        "russakovsky2015",
        "ImageNet Large Scale Visual Recognition Challenge",
        2015,
        "10.1007/s11263-015-0816-y",
    ),
    (
        "kingma2014",
        "Adam: A Method for Stochastic Optimization",
        2014,
        "10.48550/arXiv.1412.6980",
    ),
];

/// A pool of the first `n` papers.
fn pool(n: usize) -> String {
    let papers: Vec<Value> = PAPERS[..n]
        .iter()
        .map(|(key, title, year, doi)| {
            json!({"title": title, "year": year, "externalIds": {"DOI": doi}, "bibtex_key": key})
        })
        .collect();
    json!({ "papers": papers }).to_string()
}

/// Runs `crosscheck --json` on the first `n` papers against `server`.
fn crosscheck(server: &Server, n: usize) -> (Option<i32>, Value, String) {
    let dir = common::tempdir();
    let pool = common::write(dir.path(), "citation_pool.json", &pool(n));
    let mut args: Vec<String> = ["crosscheck", "--pool", &pool, "--json"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    args.extend(fast_world(server));
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = run(&a, &[]);
    (o.status.code(), json_out(&o), stderr(&o))
}

/// The requests `server` received as `service:form`, `form` being `batch`
/// (a `filter=doi:` list), `search` or `other`.
fn kinds(server: &Server) -> Vec<String> {
    server
        .hits()
        .iter()
        .map(|h: &Hit| {
            let service = h.path.trim_start_matches('/').split('/').next();
            let form = if h.param("filter").is_some_and(|f| f.starts_with("doi:")) {
                "batch"
            } else if h.param("query.bibliographic").is_some() || h.param("search").is_some() {
                "search"
            } else {
                "other"
            };
            format!("{}:{form}", service.unwrap_or(""))
        })
        .collect()
}

#[test]
fn five_doi_papers_cost_one_request_per_index() {
    let server = world_server(citegate_world::World::from_jsonl(WORLD), |_, _| None);
    let (code, report, err) = crosscheck(&server, 5);
    assert_eq!(code, Some(0), "{report}\n{err}");
    assert_eq!(kinds(&server), ["crossref:batch", "openalex:batch"]);
    // Both batches name all five DOIs, each in its service's form.
    let hits = server.hits();
    let crossref = hits[0].param("filter").unwrap_or("");
    assert_eq!(crossref.matches("doi:").count(), 5, "{crossref}");
    let openalex = hits[1].param("filter").unwrap_or("");
    assert_eq!(openalex.matches('|').count(), 4, "{openalex}");
    assert_eq!(report["summary"]["high"], 5, "{report}");
    assert_eq!(report["indices_checked"], json!(["crossref", "openalex"]));
}

#[test]
fn a_doi_the_batch_does_not_hold_gets_one_title_search_in_that_index() {
    // Crossref does not register the arXiv DOI: its batch answers five of
    // six, and the sixth paper is searched by title in Crossref only.
    let server = world_server(citegate_world::World::from_jsonl(WORLD), |_, _| None);
    let (code, report, err) = crosscheck(&server, 6);
    assert_eq!(code, Some(0), "{report}\n{err}");
    assert_eq!(
        kinds(&server),
        ["crossref:batch", "openalex:batch", "crossref:search"]
    );
    assert_eq!(report["summary"]["high"], 6, "{report}");
}

#[test]
fn an_index_down_is_asked_once_and_named_unavailable() {
    // OpenAlex answers 503 to everything: the batch's tries (3 by default),
    // then OpenAlex is out; no paper is searched there.
    let server = world_server(citegate_world::World::from_jsonl(WORLD), |h, _| {
        h.path
            .starts_with("/openalex")
            .then(|| common::Answer::status(503, "Service Unavailable"))
    });
    let (code, report, err) = crosscheck(&server, 6);
    assert_eq!(code, Some(1), "{report}\n{err}");
    let openalex: Vec<String> = kinds(&server)
        .into_iter()
        .filter(|k| k.starts_with("openalex"))
        .collect();
    assert_eq!(openalex, ["openalex:batch"; 3], "one request, three tries");
    assert_eq!(report["indices_unavailable"], json!(["openalex"]));
    assert_eq!(report["indices_checked"], json!(["crossref"]));
    assert!(err.contains("openalex"), "{err}");
}
