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

/// A world with one behaviour of real indexes on, the others off.
fn unkind_world(text: &str, set: impl Fn(&mut Unkind)) -> World {
    let mut u = Unkind::kind();
    set(&mut u);
    World::from_jsonl_with(text, u)
}

fn answer(w: &World, url: &str) -> (u16, Value) {
    let (s, _, b) = w.respond("GET", url, "");
    (s, serde_json::from_str(&b).unwrap_or(Value::Null))
}

#[test]
fn unkind_name_forms() {
    for (name, initials) in [
        ("Ashish Vaswani", "A. Vaswani"),
        ("Kaiming He 0001", "K. He 0001"),
        ("Jan-Willem van de Meent", "J. van de Meent"),
        ("Plato", "Plato"),
    ] {
        assert_eq!(unkind::initials(name), initials, "{name}");
    }
    for (name, fold, long) in [
        (
            "Bernhard Schölkopf",
            "Bernhard Scholkopf",
            "Bernhard Schoelkopf",
        ),
        ("Jürgen Groß", "Jurgen Gross", "Juergen Gross"),
        ("Ada Lovelace", "Ada Lovelace", "Ada Lovelace"),
    ] {
        assert_eq!(unkind::transliterate(name, true), fold, "{name}");
        assert_eq!(unkind::transliterate(name, false), long, "{name}");
    }
}

#[test]
fn unkind_off_is_the_kind_world() {
    let kind = World::from_jsonl(WORLD);
    let off = World::from_jsonl_with(WORLD, Unkind::kind());
    assert_eq!(kind.records(), off.records());
    for url in [
        "/s2/graph/v1/paper/search?query=residual+learning&fields=title,authors",
        "/crossref/works/10.1109/cvpr.2016.90",
        "/openalex/works?search=attention+need",
    ] {
        assert_eq!(
            kind.respond("GET", url, ""),
            off.respond("GET", url, ""),
            "{url}"
        );
    }
}

#[test]
fn unkind_missing_works_leave_search_indexes_not_registries() {
    let w = unkind_world(WORLD, |u| u.missing = 1.0);
    let (_, v) = answer(
        &w,
        "/s2/graph/v1/paper/search?query=deep+residual+learning&fields=title",
    );
    assert_eq!(v["total"], json!(0));
    let (_, v) = answer(&w, "/openalex/works?search=deep+residual+learning");
    assert_eq!(v["meta"]["count"], json!(0));
    // Crossref still answers the DOIs it registers.
    assert_eq!(answer(&w, "/crossref/works/10.1109/cvpr.2016.90").0, 200);
}

#[test]
fn unkind_neighbour_ranked_first() {
    let text = format!(
        "{WORLD}\n{}",
        r#"{"type": "inproceedings", "fields": {"title": "Deep Residual Learning for Image Recognition Revisited", "author": "Someone Else", "year": "2020", "booktitle": "CVPR"}}"#
    );
    let w = unkind_world(&text, |u| u.neighbours = 1.0);
    let q = "/openalex/works?search=Deep+Residual+Learning+for+Image+Recognition";
    let (_, v) = answer(&w, q);
    assert_eq!(
        v["results"][0]["title"],
        json!("Deep Residual Learning for Image Recognition Revisited")
    );
    assert_eq!(
        v["results"][1]["title"],
        json!("Deep Residual Learning for Image Recognition")
    );
}

#[test]
fn unkind_preprint_is_its_own_record_except_at_semantic_scholar() {
    let w = unkind_world(WORLD, |u| u.versions = 1.0);
    let pre = w
        .records()
        .iter()
        .find(|r| r.preprint && r.sibling == Some(0))
        .expect("the CVPR paper has a preprint");
    let arxiv = pre.arxiv.clone().unwrap_or_default();
    assert_eq!(pre.venue, None);
    // DataCite holds the preprint's DOI; Semantic Scholar answers its arXiv id with the paper.
    let (s, v) = answer(&w, &format!("/datacite/dois/10.48550/arXiv.{arxiv}"));
    assert_eq!(
        (s, v["data"]["attributes"]["publisher"].clone()),
        (200, json!("arXiv"))
    );
    let (s, v) = answer(
        &w,
        &format!("/s2/graph/v1/paper/ARXIV:{arxiv}?fields=title,venue,externalIds"),
    );
    assert_eq!(s, 200);
    assert_eq!(v["venue"], json!("Computer Vision and Pattern Recognition"));
    assert_eq!(v["externalIds"]["ArXiv"], json!(arxiv));
    // OpenAlex has both.
    let (_, v) = answer(
        &w,
        "/openalex/works?search=Deep+Residual+Learning+Image+Recognition",
    );
    assert_eq!(v["meta"]["count"], json!(2));
}

#[test]
fn unkind_crossref_markup_and_subtitle() {
    let text = r#"{"type": "article", "fields": {"title": "Capturing CO2 at Scale: A Review of Sorbents", "author": "Ada Lovelace", "year": "2020", "doi": "10.1000/co2", "journal": "Nature"}}"#;
    let w = unkind_world(text, |u| u.crossref_markup = true);
    let (_, v) = answer(&w, "/crossref/works/10.1000/co2");
    let title = v["message"]["title"][0].as_str().unwrap_or("");
    assert!(title.contains("CO<sub>2</sub>"), "{title}");
    let whole = format!(
        "{title}{}",
        v["message"]["subtitle"][0]
            .as_str()
            .map(|s| format!(": {s}"))
            .unwrap_or_default()
    );
    let plain = whole.replace("<sub>", "").replace("</sub>", "");
    let plain = plain.replace("<i>", "").replace("</i>", "");
    assert_eq!(plain, "Capturing CO2 at Scale: A Review of Sorbents");
}

#[test]
fn unkind_regional_doi_resolves_nowhere_but_title_is_found() {
    let text = r#"{"type": "article", "fields": {"title": "A Study of Japanese Language Models", "author": "Taro Yamada", "year": "2021", "doi": "10.11517/pjsai.jsai2021.0_2j1gs10a01", "journal": "JSAI", "agency": "JaLC"}}"#;
    let w = unkind_world(text, |u| u.regional_dois = true);
    let doi = "10.11517/pjsai.jsai2021.0_2j1gs10a01";
    assert_eq!(answer(&w, &format!("/crossref/works/{doi}")).0, 404);
    assert_eq!(answer(&w, &format!("/datacite/dois/{doi}")).0, 404);
    assert_eq!(answer(&w, &format!("/openalex/works/doi:{doi}")).0, 404);
    let (_, v) = answer(&w, "/openalex/works?search=Japanese+Language+Models");
    assert_eq!(v["meta"]["count"], json!(1));
}

#[test]
fn unkind_theses_and_software_are_in_no_index() {
    let text = r#"{"type": "phdthesis", "fields": {"title": "Learning Deep Generative Models", "author": "Ruslan Salakhutdinov", "year": "2009"}}"#;
    let w = unkind_world(text, |u| u.unindexed_kinds = true);
    let (_, v) = answer(&w, "/openalex/works?search=Learning+Deep+Generative+Models");
    assert_eq!(v["meta"]["count"], json!(0));
    let kind = World::from_jsonl(text);
    let (_, v) = answer(
        &kind,
        "/openalex/works?search=Learning+Deep+Generative+Models",
    );
    assert_eq!(v["meta"]["count"], json!(1));
}

#[test]
fn unkind_thin_datacite_record() {
    let text = r#"{"type": "misc", "fields": {"title": "Attention Is All You Need", "author": "Ashish Vaswani and Noam Shazeer and Niki Parmar", "year": "2017", "doi": "10.48550/arXiv.1706.03762"}}"#;
    let w = unkind_world(text, |u| u.thin = 1.0);
    let (_, v) = answer(&w, "/datacite/dois/10.48550/arXiv.1706.03762");
    assert_eq!(
        v["data"]["attributes"]["creators"].as_array().map(Vec::len),
        Some(2)
    );
    let (_, v) = answer(
        &World::from_jsonl(text),
        "/datacite/dois/10.48550/arXiv.1706.03762",
    );
    assert_eq!(
        v["data"]["attributes"]["creators"].as_array().map(Vec::len),
        Some(3)
    );
}
