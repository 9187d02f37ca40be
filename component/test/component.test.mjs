// citegate's WebAssembly component (wit/citegate.wit) called from a host:
// Node, through the JavaScript bindings `jco transpile` generates
// (component/build.sh). Expected values come from the same sources as the
// core's tests: python-Levenshtein's ratio, the reference cutoff rule,
// citation.js's RIS test file, the DBLP crossref export.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { checks } from "../dist/citegate.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const fixture = (name) =>
  fs.readFileSync(path.resolve(here, "../../core/tests/fixtures/formats", name), "utf8");

/** Calls `fn(...args)` and compares the result (or the part `pick` selects) with `expected`. */
function check(fn, args, expected, pick = (x) => x) {
  assert.deepEqual(pick(fn(...args)), expected, `${fn.name}(${JSON.stringify(args).slice(0, 100)})`);
}

test("title match", () => {
  check(checks.titleScore, ["Attention is all you need", "Attention Is All You Need!", false], 100);
  // "abc" vs "abd": 1 - 2/6 = 66.67, score 67, not above 70.
  check(checks.matchTitles, ["abc", "abd", false, 70], [67, false], (m) => [m.score, m.pass]);
  check(checks.matchTitles, ["Linformer", "Linformer: Self-Attention with Linear Complexity", true, 70], true, (m) => m.pass);
});

test("cutoff, and a typed error as the result's error case", () => {
  check(checks.checkCutoff, ["2024-09", "2024-10-01"], { paper: "2024-09-01", cutoff: "2024-10-01", pass: true });
  check(checks.checkCutoff, ["2024-10-01", "2024-10-01"], false, (c) => c.pass);
  assert.throws(
    () => checks.checkCutoff("2023-02-29", "2024-10-01"),
    (e) => {
      assert.equal(e.payload.kind, "invalid_date");
      assert.match(e.payload.message, /2023-02-29/);
      return true;
    },
  );
});

test("bibliography parse and layer 1, any format", () => {
  // The unclosed last entry is kept with what was read, as BibTeX keeps it,
  // and reported with its line.
  const bib = checks.parseBibliography("refs.bib", "@article{a, title={T}}\n@book{b, title={U}\n");
  assert.deepEqual(bib.entries.map((e) => [e.kind, e.key, e.line]), [["article", "a", 1], ["book", "b", 2]]);
  assert.deepEqual(bib.entries[1].fields, [["title", "U"]]);
  assert.deepEqual(bib.entries[0].fields, [["title", "T"]]);
  assert.deepEqual(bib.problems.map((p) => [p.kind, p.line]), [["bibtex", 2]]);
  // The DBLP child passes through crossref inheritance.
  check(checks.checkBibliography, ["dblp.bib", fixture("dblp-crossref-bare.bib"), 2026], []);
  // citation.js's RIS test file: the same 23 findings as its CSL-JSON.
  const codes = (f) => f.map((x) => `${x.severity} ${x.code} ${x.field}`);
  const ris = checks.checkBibliography("f.ris", fixture("citationjs-ris-file.ris"), 2026);
  assert.equal(ris.length, 23);
  assert.deepEqual(codes(ris), codes(checks.checkBibliography("f.json", fixture("citationjs-ris-file.json"), 2026)));
  assert.deepEqual(codes(ris).slice(0, 2), ["error missing_field journal", "error missing_field year"]);
});

test("coverage gate", () => {
  const pool = JSON.stringify({ papers: [{ title: "T", bibtex_key: "a" }, { title: "U", bibtex_key: "b" }] });
  const files = [{ name: "main.tex", text: "\\citep{a}" }];
  const half = checks.coverageGate(pool, files, [], "50%");
  assert.deepEqual([half.pass, half.nPool, half.nCited, half.minRequired], [true, 2, 1, 1]);
  assert.deepEqual(JSON.parse(half.reportJson).cited, ["a"]);
  // The default 90 %: floor(0.9 * 3) = 2 papers needed, 1 cited.
  const three = JSON.stringify({ papers: ["a", "b", "c"].map((k) => ({ title: k, bibtex_key: k })) });
  check(checks.coverageGate, [three, files, ["main.tex"], ""], [false, 2], (c) => [c.pass, c.minRequired]);
  assert.throws(() => checks.coverageGate(pool, files, [], "lots"), (e) => e.payload.kind === "invalid_value");
});

test("rank fusion", () => {
  const w = (source, title, doi) => ({ source, title, doi, authors: [] });
  const lists = [
    { service: "semantic_scholar", works: [w("semantic_scholar", "A", "10.1/a"), w("semantic_scholar", "B", "10.1/b")] },
    { service: "openalex", works: [w("openalex", "B", "10.1/B"), w("openalex", "C", "10.1/c")] },
  ];
  const fused = JSON.parse(checks.fuse(JSON.stringify(lists), ["10.1/c"]));
  // B is in both lists: 1/62 + 1/61 beats A's 1/61.
  assert.deepEqual(fused.map((f) => f.title), ["B", "A", "C"]);
  assert.throws(() => checks.fuse("[", []), (e) => e.payload.kind === "json");
});
