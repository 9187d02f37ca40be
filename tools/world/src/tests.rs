use super::*;
use serde_json::json;

const WORLD: &str = r#"{"type": "inproceedings", "fields": {"title": "Deep Residual Learning for Image Recognition", "author": "Kaiming He 0001 and Xiangyu Zhang and Jan-Willem van de Meent", "year": "2016", "doi": "10.1109/CVPR.2016.90", "url": "https://dblp.org/rec/conf/cvpr/HeZRS16", "booktitle": "CVPR"}}
{"type": "inproceedings", "fields": {"title": "Attention is All you Need", "author": "Ashish Vaswani", "year": "2017", "url": "https://dblp.org/rec/conf/nips/VaswaniSPUJGKP17", "booktitle": "NeurIPS"}}
{"type": "misc", "fields": {"title": "A Preprint on Graphs", "author": "Ada Lovelace", "year": "2026", "doi": "10.48550/arXiv.2602.12253v1", "url": "http://arxiv.org/abs/2602.12253v1", "note": "arXiv preprint"}}
not json
"#;

fn world() -> World {
    World::from_jsonl(WORLD)
}

/// One request and what must hold of the answer: status and a JSON pointer's value.
fn check(method: &str, url: &str, body: &str, status: u16, pointer: &str, expected: Value) {
    let (s, _, b) = world().respond(method, url, body);
    assert_eq!(s, status, "{url}: {b}");
    if !pointer.is_empty() {
        let v: Value = serde_json::from_str(&b).unwrap_or(Value::Null);
        assert_eq!(
            v.pointer(pointer).cloned().unwrap_or(Value::Null),
            expected,
            "{url}: {b}"
        );
    }
}

#[test]
fn reads_records_and_skips_junk() {
    let w = world();
    assert_eq!(w.records().len(), 3);
    assert_eq!(w.records()[2].arxiv.as_deref(), Some("2602.12253"));
    assert!(w.records()[2].preprint);
    assert!(w.records()[0].in_crossref() && !w.records()[2].in_crossref());
}

#[test]
fn semantic_scholar() {
    let f = "fields=title,authors,venue,year,externalIds";
    check(
        "GET",
        &format!("/s2/graph/v1/paper/DOI:10.1109/cvpr.2016.90?{f}"),
        "",
        200,
        "/venue",
        json!("Computer Vision and Pattern Recognition"),
    );
    check(
        "GET",
        &format!("/s2/graph/v1/paper/DOI:10.1109/cvpr.2016.90?{f}"),
        "",
        200,
        "/authors/0/name",
        json!("Kaiming He"),
    );
    check(
        "GET",
        &format!("/s2/graph/v1/paper/ARXIV:2602.12253?{f}"),
        "",
        200,
        "/venue",
        json!("arXiv.org"),
    );
    check(
        "GET",
        &format!("http://127.0.0.1:1/s2/graph/v1/paper/DOI:10.48550/arXiv.2602.12253v1?{f}"),
        "",
        200,
        "/year",
        json!(2026),
    );
    check(
        "GET",
        "/s2/graph/v1/paper/DOI:10.1/nope",
        "",
        404,
        "/error",
        json!("Paper with id DOI:10.1/nope not found"),
    );
    // Search returns the nearest records even for a title nobody wrote.
    check(
        "GET",
        &format!("/s2/graph/v1/paper/search?query=residual+learning+for+speech&{f}"),
        "",
        200,
        "/data/0/title",
        json!("Deep Residual Learning for Image Recognition"),
    );
    check(
        "GET",
        "/s2/graph/v1/paper/search?query=zzzz",
        "",
        200,
        "/total",
        json!(0),
    );
    check(
        "GET",
        "/s2/graph/v1/paper/search?query=",
        "",
        400,
        "",
        Value::Null,
    );
    check(
        "GET",
        "/s2/graph/v1/paper/search/match?query=attention%20is%20all%20you%20need",
        "",
        200,
        "/data/0/title",
        json!("Attention is All you Need"),
    );
    check(
        "POST",
        &format!("/s2/graph/v1/paper/batch?{f}"),
        r#"{"ids":["DOI:10.1/nope","ARXIV:2602.12253"]}"#,
        200,
        "/1/title",
        json!("A Preprint on Graphs"),
    );
    check(
        "POST",
        "/s2/graph/v1/paper/batch?fields=title",
        r#"{"ids":["DOI:10.1/nope"]}"#,
        200,
        "/0",
        Value::Null,
    );
}

#[test]
fn crossref() {
    check(
        "GET",
        "/crossref/works/10.1109/CVPR.2016.90",
        "",
        200,
        "/message/DOI",
        json!("10.1109/cvpr.2016.90"),
    );
    check(
        "GET",
        "/crossref/works/10.1109/CVPR.2016.90",
        "",
        200,
        "/message/author/2/family",
        json!("van de Meent"),
    );
    check(
        "GET",
        "/crossref/works/10.1109/CVPR.2016.90",
        "",
        200,
        "/message/container-title/0",
        json!("2016 IEEE/CVF Conference on Computer Vision and Pattern Recognition (CVPR)"),
    );
    // arXiv DOIs are DataCite's: Crossref does not know them.
    check(
        "GET",
        "/crossref/works/10.48550/arXiv.2602.12253",
        "",
        404,
        "",
        Value::Null,
    );
    check(
        "GET",
        "/crossref/works?query.bibliographic=deep+residual+image&rows=2",
        "",
        200,
        "/message/items/0/title/0",
        json!("Deep Residual Learning for Image Recognition"),
    );
    check(
        "GET",
        "/crossref/works?filter=doi:10.1109/CVPR.2016.90,doi:10.1/x",
        "",
        200,
        "/message/total-results",
        json!(1),
    );
}

#[test]
fn openalex_datacite_dblp() {
    check(
        "GET",
        "/openalex/works/doi:10.1109/CVPR.2016.90",
        "",
        200,
        "/doi",
        json!("https://doi.org/10.1109/cvpr.2016.90"),
    );
    check(
        "GET",
        "/openalex/works/https://doi.org/10.1/none",
        "",
        404,
        "",
        Value::Null,
    );
    check(
        "GET",
        "/openalex/works?search=attention+need",
        "",
        200,
        "/results/0/primary_location/source/display_name",
        json!("Neural Information Processing Systems"),
    );
    check(
        "GET",
        "/openalex/works?filter=title.search:attention+need",
        "",
        200,
        "/meta/count",
        json!(1),
    );
    check(
        "GET",
        "/openalex/works?filter=doi:10.1109/CVPR.2016.90|10.48550/arXiv.2602.12253",
        "",
        200,
        "/meta/count",
        json!(2),
    );
    check(
        "GET",
        "/datacite/dois/10.48550/arXiv.2602.12253v1",
        "",
        200,
        "/data/attributes/creators/0/name",
        json!("Lovelace, Ada"),
    );
    check(
        "GET",
        "/datacite/dois/10.1109/CVPR.2016.90",
        "",
        404,
        "/errors/0/status",
        json!("404"),
    );
    check(
        "GET",
        "/dblp/search/publ/api?q=attention%20all%20need&format=json",
        "",
        200,
        "/result/hits/hit/0/info/title",
        json!("Attention is All you Need."),
    );
    check(
        "GET",
        "/dblp/search/publ/api?q=attention%20all%20need&format=json",
        "",
        200,
        "/result/hits/hit/0/info/authors/author/text",
        json!("Ashish Vaswani"),
    );
    // DBLP's search is a conjunction: one unknown word, no hit.
    check(
        "GET",
        "/dblp/search/publ/api?q=attention%20zebra&format=json",
        "",
        200,
        "/result/hits/@total",
        json!("0"),
    );
    check(
        "GET",
        "/datacite/dois?ids=10.48550/arXiv.2602.12253,10.1/x&page%5Bsize%5D=50",
        "",
        200,
        "/meta/total",
        json!(1),
    );
    let (s, _, feed) =
        world().respond("GET", "/arxiv/api/query?id_list=2602.12253v2,0000.0000", "");
    assert_eq!(s, 200);
    assert!(
        feed.contains("<id>http://arxiv.org/abs/2602.12253v1</id>")
            && feed.contains("<name>Ada Lovelace</name>"),
        "{feed}"
    );
    check("GET", "/elsewhere/x", "", 404, "", Value::Null);
}

#[test]
fn names_as_services_split_them() {
    assert_eq!(
        render::split_name("Jan-Willem van de Meent"),
        ("Jan-Willem".into(), "van de Meent".into())
    );
    assert_eq!(
        render::split_name("Satinder Singh 0001"),
        ("Satinder".into(), "Singh".into())
    );
    assert_eq!(render::plain_name("Kaiming He 0001"), "Kaiming He");
    assert_eq!(strip_version("2602.12253v1"), "2602.12253");
    assert_eq!(
        doi_key("https://doi.org/10.48550/arXiv.2602.12253v2"),
        "10.48550/arxiv.2602.12253"
    );
}

#[test]
fn corr_records_are_arxiv_preprints() {
    let w = World::from_jsonl(
        r#"{"type": "article", "fields": {"title": "A CoRR Paper", "author": "Ada Lovelace", "year": "2021", "journal": "CoRR", "volume": "abs/2101.00001", "url": "https://dblp.org/rec/journals/corr/abs-2101-00001"}}"#,
    );
    assert_eq!(w.records()[0].arxiv.as_deref(), Some("2101.00001"));
    assert!(w.records()[0].preprint);
    let (s, _, b) = w.respond(
        "GET",
        "/s2/graph/v1/paper/ARXIV:2101.00001?fields=venue",
        "",
    );
    assert_eq!((s, b.contains("arXiv.org")), (200, true), "{b}");
}
