// The JavaScript API (js/pkg-node) checked against independent sources: the
// python-Levenshtein vectors, the reference scripts' golden outputs, and the
// recorded API bodies under core/tests/fixtures/. Build first: js/build.sh.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const cg = createRequire(import.meta.url)("../pkg-node/citegate.js");
const FIX = path.resolve(here, "../../core/tests/fixtures");
const read = (rel) => fs.readFileSync(path.join(FIX, rel), "utf8");
const json = (rel) => JSON.parse(read(rel));

/** Calls `fn(...args)` and compares the result (or the part `pick` selects) with `expected`. */
function check(fn, args, expected, pick = (x) => x) {
  assert.deepEqual(pick(fn(...args)), expected, `${fn.name}(${JSON.stringify(args).slice(0, 120)})`);
}

/** Calls `fn(...args)` and checks it throws a citegate error of `kind` whose location has `where`. */
function checkThrows(fn, args, kind, where = {}) {
  assert.throws(
    () => fn(...args),
    (e) => {
      assert.ok(e instanceof Error, "a JS Error");
      assert.equal(e.kind, kind, e.message);
      for (const [k, v] of Object.entries(where)) assert.equal(e.location[k], v, `location.${k}`);
      return true;
    },
  );
}

test("title ratio and score equal python-Levenshtein on the 2,028 parity vectors", () => {
  const lines = read("title/vectors.tsv").split("\n").filter((l) => l && !l.startsWith("#"));
  assert.ok(lines.length > 2000);
  for (const line of lines) {
    const [a, b, ratio, score] = line.split("\t");
    check(cg.matchTitles, [a, b, false, 70], [Number(ratio), Number(score)], (m) => [m.ratio, m.score]);
    check(cg.titleScore, [a, b], Number(score));
  }
});

test("title match applies threshold and substring bypass", () => {
  check(cg.matchTitles, ["Attention is all you need", "Attention Is All You Need!"], true, (m) => m.pass);
  // "abc" vs "abd": one substitution costs two edits, 1 - 2/6 = 66.67, score 67, not above 70.
  check(cg.matchTitles, ["abc", "abd"], [67, false], (m) => [m.score, m.pass]);
  check(cg.matchTitles, ["abc", "abd", false, 60], true, (m) => m.pass);
});

test("cutoff check passes strictly before the cutoff", () => {
  check(cg.checkCutoff, ["2017-06-12", "2024-10-01"], { paper: "2017-06-12", cutoff: "2024-10-01", pass: true });
  check(cg.checkCutoff, ["2024-09", "2024-10-01"], true, (c) => c.pass);
  check(cg.checkCutoff, ["2024", "2024-10-01"], false, (c) => c.pass);
  check(cg.checkCutoff, ["2024-10-01", "2024-10-01"], false, (c) => c.pass);
});

test("errors are JS Errors with kind and location", () => {
  checkThrows(cg.checkCutoff, ["2023-02-29", "2024-10-01"], "invalid_date");
  checkThrows(cg.checkCutoff, ["2020", "yesterday"], "invalid_date");
  checkThrows(cg.parsePool, ['{\n  "papers": [\n    {"title": }\n  ]\n}'], "json", { line: 3 });
  checkThrows(cg.parseCandidates, ["[1, 2]"], "shape");
  checkThrows(cg.preDedup, [42], "shape", { field: "candidates" });
  checkThrows(cg.decide, [undefined, "{}", 200, { cutoff: "2024-10-01" }], "missing_field", { field: "candidate" });
  checkThrows(cg.writeBib, ['{"papers": 3}'], "shape");
  checkThrows(cg.coverage, [{ papers: [{ title: "x" }] }, { "main.tex": "" }], "missing_field");
  checkThrows(cg.coverage, [{ papers: [] }, { "main.tex": "" }, undefined, "1.5"], "invalid_value");
  checkThrows(cg.bibVerify, ["@article{a, title={T}}", "b", 200, "{}"], "invalid_value", { field: "key" });
  checkThrows(cg.searchStatus, ["x".repeat(1501), []], "query");
});

test("pre-dedup and dedup reproduce the reference scripts' golden outputs", () => {
  for (const name of ["predup_small", "predup_large"]) {
    const input = read(`golden/inputs/${name}.json`);
    check(cg.preDedup, [input], json(`golden/expected/${name}.json`));
    // The same list given as objects gives the same result.
    const parsed = JSON.parse(input); // a bare list, or {"candidates": [...]}
    check(cg.preDedup, [Array.isArray(parsed) ? parsed : parsed.candidates], json(`golden/expected/${name}.json`));
  }
  check(cg.dedupe, [read("golden/inputs/dedupe.json"), "2024-10-01"], json("golden/expected/dedupe.json"), (d) => d.pool);
});

test("writeBib reproduces the reference refs.bib and sets bibtex_key", () => {
  const body = (bib) => bib.split("\n").filter((l, i, a) => !a.slice(0, i + 1).every((x) => x.startsWith("%") || x === "")).join("\n");
  const out = cg.writeBib(read("golden/inputs/bibtex_pool.json"));
  assert.equal(body(out.text), body(read("golden/expected/refs.bib")));
  assert.deepEqual(out.pool, json("golden/expected/bibtex_pool_after.json"));
  assert.equal(out.keys.length, out.pool.papers.length);
});

test("parseBib reads the generated refs.bib back: one entry per key", () => {
  const out = cg.writeBib(read("golden/inputs/bibtex_pool.json"));
  const bib = cg.parseBib(out.text);
  check((b) => b.entries.map((e) => e.key), [bib], out.keys);
  assert.deepEqual(bib.problems, []);
  // A broken entry is reported with its line, and reading goes on.
  const broken = cg.parseBib("@article{a,\n title = {x\n\n@book{b, title={y}}\n");
  assert.ok(broken.problems.length > 0);
  assert.equal(broken.problems[0].error.kind, "bibtex");
  assert.ok(broken.problems[0].error.location.line >= 1);
});

test("coverage equals the reference citation_coverage.py on its 40 golden cases", () => {
  const dir = path.join(FIX, "golden/coverage/cases");
  const cases = fs.readdirSync(dir);
  assert.equal(cases.length, 40);
  for (const c of cases) {
    const r = (f) => fs.readFileSync(path.join(dir, c, f), "utf8");
    const stdout = r("stdout.txt");
    const foreign = stdout.split("FAIL:")[0].split("\n").filter((l) => l.startsWith("  - ")).map((l) => l.slice(4).split(/\s/)[0]);
    const res = cg.coverage(r("pool.json"), { "main.tex": r("main.tex") }, ["main.tex"], r("threshold").trim());
    assert.equal(res.summary, stdout.split("\n")[0], c);
    assert.equal(res.coverage.pass, r("exit_code").trim() === "0", c);
    assert.deepEqual(res.coverage.foreign.map((f) => f.key), foreign, c);
    assert.equal(res.reprompt === "", res.coverage.pass, c);
  }
});

test("cite extraction and key sync: golden sync-keys cases", () => {
  const dir = path.join(FIX, "golden/sync-keys/cases");
  for (const c of fs.readdirSync(dir)) {
    const r = (f) => fs.readFileSync(path.join(dir, c, f), "utf8");
    check(cg.syncKeys, [r("main.tex"), r("pool.json")], r("expected.tex"), (s) => s.text);
  }
  check(cg.extractCites, ["see \\citep[p.~3]{a, b} and \\citet*{c}"], [["a", "citep"], ["b", "citep"], ["c", "citet*"]],
    (cs) => cs.map((x) => [x.key, x.command]));
  const p = cg.scanProject({ "main.tex": "\\input{intro}\\cite{x}", "intro.tex": "\\cite{y}" }, ["main.tex"]);
  check((q) => q.files.map((f) => f.name), [p], ["main.tex", "intro.tex"]);
});

test("decide: recorded Semantic Scholar answers", () => {
  const relevance = read("api/semanticscholar/search_relevance_with_abstracts.json");
  const top = JSON.parse(relevance).data[0];
  const opts = { cutoff: "2024-10-01" };
  check(cg.decide, [{ title: top.title }, relevance, 200, opts], ["accepted", top.paperId], (d) => [d.decision, d.paper?.paperId]);
  // Dated after the cutoff: rejected with the figures behind it.
  check(cg.decide, [{ title: top.title }, relevance, 200, { cutoff: "2017-01-01" }], ["rejected", "after_cutoff"], (d) => [d.decision, d.reason]);
  const noAbstract = read("api/semanticscholar/search_match_title.json");
  check(cg.decide, [{ title: JSON.parse(noAbstract).data[0].title }, noAbstract, 200, opts], "no_abstract", (d) => d.reason);
  checkThrows(cg.decide, [{ title: "x" }, read("api/semanticscholar/error_429_too_many_requests.json"), 429, opts], "api");
  checkThrows(cg.decide, [{ title: "x" }, relevance, 200, { cutoff: "2024-13-01" }], "invalid_date");
});

test("parseResponse, fuse and searchStatus on recorded bodies", () => {
  const s2 = read("api/semanticscholar/search_relevance_with_abstracts.json");
  const oa = read("api/openalex/search_attention_mechanism_with_abstracts.json");
  const s2Page = cg.parseResponse("semantic_scholar", 200, s2);
  check((p) => p.works.map((w) => w.title), [s2Page], JSON.parse(s2).data.map((d) => d.title));
  const oaPage = cg.parseResponse("openalex", 200, oa);
  check((p) => p.works.length, [oaPage], JSON.parse(oa).results.length);
  checkThrows(cg.parseResponse, ["semantic_scholar", 429, read("api/semanticscholar/error_429_too_many_requests.json")], "api");

  const fused = cg.fuse([{ service: "semantic_scholar", works: s2Page.works }, { service: "openalex", works: oaPage.works }]);
  assert.ok(fused.length <= s2Page.works.length + oaPage.works.length);
  // Reciprocal rank fusion: scores never increase down the list.
  for (let i = 1; i < fused.length; i++) assert.ok(fused[i - 1].rrf >= fused[i].rrf);
  const oaDoi = JSON.parse(oa).results[0].doi;
  check(cg.fuse, [[{ service: "openalex", works: oaPage.works }], [oaDoi]], true, (f) => f[0].in_library);

  const answers = [
    { service: "semantic_scholar", status: 200, body: s2 },
    { service: "crossref", status: 429, body: "{}" },
  ];
  check(cg.searchStatus, ["attention", answers], ["partial", ["crossref"]], (r) => [r.status, r.failed_backends]);
  check(cg.searchStatus, ["attention", answers.slice(0, 1)], ["ok", true], (r) => [r.status, r.complete]);
});

test("probe session drives the zero-result probe to a report", () => {
  const s = new cg.ProbeSession("transformer protein folding quantum annealing", 0, ["openalex"], { max_drops: 2, delay_ms: 0, min_terms: 3 });
  const made = [];
  for (let req = s.nextRequest(); req; req = s.nextRequest()) {
    made.push(req);
    s.consume(req.dropped_term === "quantum" ? 7 : 0);
  }
  assert.ok(made.length >= 1 && made.length <= 3);
  assert.equal(made[0].backend, "openalex");
  const r = s.result();
  assert.ok(["hits", "empty"].includes(r.state), r.state);
  assert.equal(r.drops_tried, made.length - 1);
  // With results, no probe is run.
  check((x) => x.result()?.state, [new cg.ProbeSession("a b c d", 5, ["openalex"])], "not_run");
});

test("cross-index classification from recorded Crossref and OpenAlex works", () => {
  const cr = cg.parseResponse("crossref", 200, read("api/crossref/work_by_doi_plos_article.json")).works[0];
  const paper = { title: cr.title, year: cr.published.year, externalIds: { DOI: cr.doi } };
  check(cg.crossClassify, [paper, [{ service: "crossref", byDoi: cr }]], ["high", ["crossref"]], (v) => [v.confidence, v.indices_found]);
  const other = { ...paper, externalIds: { DOI: "10.1000/other" } };
  check(cg.crossClassify, [other, [{ service: "crossref", search: [cr] }]], "conflict", (v) => v.confidence);
  check(cg.crossClassify, [paper, [{ service: "crossref", search: [] }]], "low", (v) => v.confidence);
});

test("bibcheck layers: format findings, lookup plan, verification from a recorded answer", () => {
  const body = read("api/crossref/work_by_doi_plos_article.json");
  const m = JSON.parse(body).message;
  const authors = m.author.map((a) => `${a.family}, ${a.given}`).join(" and ");
  const bib = `@article{ok,
  title = {${m.title[0]}},
  author = {${authors}},
  journal = {${m["container-title"][0]}},
  year = {${m.issued["date-parts"][0][0]}},
  doi = {${m.DOI}}
}
@article{bad, title = {No year here}, author = {Doe, J.}, journal = {J}}
`;
  const layer1 = cg.bibCheckFormat(bib, 2025, { "main.tex": "\\cite{ok,ghost}" });
  // `bad` has no year and is never cited; `ghost` is cited but not in the .bib.
  check((r) => r.findings.filter((f) => f.key === "bad").map((f) => f.code), [layer1], ["missing_field", "unused_entry"]);
  check((r) => r.findings.filter((f) => f.key === "ghost").map((f) => f.code), [layer1], ["undefined_cite"]);
  check((r) => r.findings.filter((f) => f.key === "ok").length, [layer1], 0);

  const plan = cg.bibPlan(bib);
  check((p) => p.find((x) => x.key === "ok").lookup.service, [plan], "crossref");
  const v = cg.bibVerify(bib, "ok", 200, body);
  check((x) => [x.existence.status, x.verdict.status], [v], ["exists", "verified"]);
  const missing = cg.bibVerify(bib, "ok", 404, "Resource not found.");
  check((x) => x.existence.status, [missing], "not_found");
  assert.match(cg.correctedEntry("ok", v.existence.work), /^@article\{ok,/);
});

test("refs.jsonl: add a work, refuse its DOI twice, read it back", () => {
  const cr = cg.parseResponse("crossref", 200, read("api/crossref/work_by_doi_plos_article.json")).works[0];
  const first = cg.libraryAdd("", cr);
  const back = cg.libraryParse(first.text);
  check((l) => [l.records.length, l.records[0].id, l.records[0].doi?.toLowerCase()], [back], [1, first.id, cr.doi.toLowerCase()]);
  checkThrows(cg.libraryAdd, [first.text, cr], "invalid_value", { field: "doi" });
  const bad = cg.libraryParse(first.text + "not json\n");
  check((l) => [l.records.length, l.errors.length, l.errors[0].kind], [bad], [1, 1, "json"]);
});

test("readBibliography reads CSL-JSON and RIS into the entries parseBib gives; toCslJson writes CSL-JSON", () => {
  const F = path.resolve(here, "../../core/tests/fixtures/formats");
  const fx = (name) => fs.readFileSync(path.join(F, name), "utf8");
  const fields = (bib) => bib.entries.map((e) => [e.kind, e.key, e.fields.map((f) => f.name).sort()]);
  const ris = cg.readBibliography("record.ris", fx("citationjs-ris-record.ris"));
  const csl = cg.readBibliography("record.json", fx("citationjs-ris-record.json"));
  assert.deepEqual(ris.entries[0].key, "Trentini2019");
  assert.deepEqual(ris.entries.map((e) => e.kind), csl.entries.map((e) => e.kind));
  // The layer-1 checks take any of the three as text, told apart by content.
  for (const name of ["citationjs-ris-file.ris", "citationjs-ris-file.json"]) {
    assert.equal(cg.bibCheckFormat(fx(name), 2026).findings.length, 23, name);
  }
  const back = JSON.parse(cg.toCslJson("refs.bib", "@article{k, title={T}, author={Doe, J.}, journal={J}, year={2020}}"));
  assert.deepEqual(back, [
    { id: "k", type: "article-journal", author: [{ family: "Doe", given: "J." }], title: "T",
      "container-title": "J", issued: { "date-parts": [[2020]] } },
  ]);
  assert.ok(fields(cg.readBibliography("x.bib", "@misc{a, title={A}}")).length === 1);
});

test("verification run asks DataCite first for a Zenodo DOI", () => {
  const endpoints = {
    s2_base: "https://s2.test/graph/v1", openalex_base: "https://oa.test",
    crossref_base: "https://cr.test", datacite_base: "https://dc.test",
  };
  const run = new cg.VerificationRun([{ key: "z", doi: "10.5281/zenodo.48440" }], { endpoints, surface: "browser", batch: false });
  let now = 0;
  const asked = [];
  for (let step = run.next(now); step.kind !== "done"; step = run.next(now)) {
    if (step.kind === "wait_until") {
      now = step.at;
      continue;
    }
    assert.equal(step.kind, "send");
    for (const { id, request } of step.requests) {
      asked.push(request.service);
      const reply = request.service === "datacite"
        ? { status: 200, body: read("api/datacite/doi_zenodo_48440.json") }
        : { status: 404, body: "" };
      run.answer(id, reply, now);
    }
  }
  const r = run.report().resolutions[0];
  // Zenodo's prefix is DataCite's: Crossref is not asked.
  assert.deepEqual(asked, ["datacite"]);
  assert.equal(r.outcome.status, "found");
  assert.equal(r.outcome.via, "datacite");
  assert.deepEqual(r.evidence.map((e) => [e.service, e.answer.status]), [["datacite", "found"]]);
  assert.deepEqual(run.progress(), [1, 1]);
});

test("bibJudge gives each entry the CLI's verdict and class", () => {
  const bib = [
    "@inproceedings{he_icml, title={Deep Residual Learning for Image Recognition},",
    "  author={He, Kaiming and Zhang, Xiangyu and Ren, Shaoqing and Sun, Jian}, booktitle={ICML}, year={2016}}",
    "@article{fake, title={Quantum Gravitational Transformers for Protein Folding at Scale},",
    "  author={Keller, Maria}, journal={Nature}, year={2023}}",
  ].join("\n");
  assert.deepEqual(cg.bibReferences(bib).map((r) => r.key), ["he_icml", "fake"]);
  const names = ["Kaiming He", "Xiangyu Zhang", "Shaoqing Ren", "Jian Sun"];
  const work = {
    source: "dblp", title: "Deep Residual Learning for Image Recognition",
    authors: names.map((name) => ({ name })), published: { year: 2016 }, venue: "CVPR",
  };
  const absent = (service) => ({ service, route: "title", asked: "q", answer: { status: "not_here" } });
  const report = {
    requests: 4,
    resolutions: [
      { key: "he_icml", evidence: [{ service: "dblp", route: "title", asked: work.title, answer: { status: "hits", works: [work] } }],
        outcome: { status: "found", work, via: "dblp" } },
      { key: "fake", evidence: ["semantic_scholar", "openalex", "dblp"].map(absent), outcome: { status: "not_found" } },
    ],
  };
  const online = cg.bibJudge(bib, report, "2026-12-05");
  check((x) => x, [online.entries.map((e) => [e.key, e.line, e.verdict, e.class])], [
    ["he_icml", 1, "hallucinated", "miscited"],
    ["fake", 3, "hallucinated", "fabricated"],
  ]);
  assert.deepEqual(online.classes, { fabricated: 1, miscited: 1, retracted: 0, unverified: 0, valid: 0 });
  checkThrows(cg.bibJudge, [bib, { requests: 0, resolutions: [] }, "2026-12-05"], "invalid_value", { field: "report" });
});

test("bibJudge calls the recorded retracted work retracted, with its notice", () => {
  const bib = "@article{wakefield1998, title={Ileal-lymphoid-nodular hyperplasia, non-specific colitis, and pervasive developmental disorder in children},"
    + " author={Wakefield, A. J. and Murch, S. H. and Anthony, A. and Linnell, J. and Casson, D. M. and Malik, M. and Berelowitz, M. and Dhillon, A. P."
    + " and Thomson, M. A. and Harvey, P. and Valentine, A. and Davies, S. E. and Walker-Smith, J. A.}, journal={The Lancet}, year={1998},"
    + " doi={10.1016/S0140-6736(97)11096-0}}";
  const work = cg.parseResponse("crossref", 200, read("api/crossref/work_by_doi_retracted_wakefield.json")).works[0];
  assert.equal(work.updated_by[1].kind, "retraction");
  const report = { requests: 1, resolutions: [{ key: "wakefield1998",
    evidence: [{ service: "crossref", route: "doi", asked: "10.1016/S0140-6736(97)11096-0", answer: { status: "found", work } }],
    outcome: { status: "found", work, via: "crossref" } }] };
  const [e] = cg.bibJudge(bib, report, "2026-12-05").entries;
  check((x) => x, [[e.verdict, e.class, e.notices[0].kind, e.notices[0].doi, e.notices[0].date]],
    ["valid", "retracted", "retraction", "10.1016/s0140-6736(10)60175-4", "2010-02-06"]);
});
