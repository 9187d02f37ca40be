// Library, Settings, Search and Cross-check pages against the mock API.
import { test } from "node:test";
import { serve } from "../harness.mjs";
import assert from "node:assert/strict";
import { withPage, screenshot, DIST } from "../browser.mjs";
import { makeApi } from "../mock/router.mjs";

import fs from "node:fs";

// Scenario handlers: OpenAlex down (500 for search, 503 for everything in
// the cross-check), Crossref answering title searches from the example pool.
const POOL = JSON.parse(fs.readFileSync(new URL("../../web/examples/citation_pool.json", import.meta.url), "utf8"));
const crossrefList = (items) => ({ status: 200, body: JSON.stringify({ status: "ok", "message-type": "work-list", "message-version": "1.0.0", message: { "total-results": items.length, items } }) });
const crossrefItem = (title, year, n) => ({ DOI: `10.5555/mock.${n}`, title: [title], type: "journal-article", issued: { "date-parts": [[year]] } });
let openalexStatus = 500;
const scenario = (req, url) => {
  const p = url.pathname;
  if (p.startsWith("/api/openalex/")) return { status: openalexStatus, body: JSON.stringify({ error: "mock outage", message: "service unavailable" }) };
  if (p === "/api/crossref/works") {
    if (url.searchParams.get("filter")?.includes("doi:")) return crossrefList([]);
    const q = url.searchParams.get("query.bibliographic") || "";
    // Search page: two recorded ecology works for any other query.
    const paper = POOL.papers.find((x) => x.title === q);
    if (!paper) return { status: 200, body: fs.readFileSync(new URL("../../core/tests/fixtures/api/crossref/search_query_ecology_rows2.json", import.meta.url), "utf8") };
    if (paper.bibtex_key === "devlin2019bert") return crossrefList([]);
    const year = paper.bibtex_key === "tay2022efficient" ? paper.year - 3 : paper.year;
    return crossrefList([crossrefItem(paper.title, year, POOL.papers.indexOf(paper))]);
  }
  return null;
};

// Page and mock on different origins: the browser applies CORS as with the real services.
const app = serve({ dist: DIST, api: makeApi({ before: [scenario] }) }, { crossOrigin: true });

const downloaded = async (page, selector) => {
  const [download] = await Promise.all([page.waitForEvent("download"), page.click(selector)]);
  return Buffer.concat(await (await download.createReadStream()).toArray()).toString();
};

test("library: example, add by DOI, duplicate warning, export and re-import round trip, bad lines by number", async () => {
  const errors = await withPage(app.browser, "library", async (page) => {
    await app.open(page, "#/library");
    await page.click("#clear-library");
    await page.click("#load-example");
    await page.waitForFunction(() => document.querySelector("#library-count")?.textContent === "2 records");
    await page.fill("#add-id", "10.1371/journal.pone.0033693");
    await page.click("#add");
    await page.waitForFunction(() => document.querySelector("#library-count")?.textContent === "3 records");
    assert.match(await page.textContent("#library-status"), /^added `/);
    // The example already holds this DOI (in another case): refused with a warning.
    await page.fill("#add-id", "https://doi.org/10.1038/SREP16696");
    await page.click("#add");
    await page.waitForFunction(() => document.querySelector("#library-status")?.textContent.startsWith("duplicate"));
    assert.match(await page.textContent("#library-status"), /already in the library as `Choi2015-crossref`/);
    assert.equal(await page.textContent("#library-count"), "3 records");
    const text = await downloaded(page, "#export-library");
    const lines = text.trim().split("\n").map((l) => JSON.parse(l));
    assert.deepEqual(lines.map((l) => l.doi.toLowerCase()), ["10.48550/arxiv.1706.03762", "10.1038/srep16696", "10.1371/journal.pone.0033693"]);
    assert.match(lines[2].title, /Methylphenidate Exposure Induces Dopamine Neuron Loss/);
    // The first two lines come back byte for byte.
    assert.equal(text.split("\n").slice(0, 2).join("\n"), (await import("node:fs")).readFileSync(new URL("../../web/examples/refs.jsonl", import.meta.url), "utf8").trim());
    // A reload keeps the library (workspace store).
    await page.reload();
    await page.waitForFunction(() => document.querySelector("#library-count")?.textContent === "3 records");
    // Re-import the export with one broken line: it is reported by line number.
    const broken = text.trim().split("\n");
    broken.splice(1, 0, "{not json");
    await page.setInputFiles("#library-file", { name: "refs.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from(broken.join("\n") + "\n") });
    await page.waitForSelector("#library-problems li");
    assert.match(await page.textContent("#library-problems li"), /^refs\.jsonl: .*line 2/);
    assert.equal(await page.textContent("#library-count"), "3 records");
    assert.equal(await page.textContent("h1"), "Library");
    await screenshot(page, "page-library");
  });
  assert.deepEqual(errors, []);
});

test("settings: keys are password fields and never shown after saving; backend needs; cache stats", async () => {
  const errors = await withPage(app.browser, "settings", async (page) => {
    await app.open(page, "#/settings");
    assert.equal(await page.textContent("h1"), "Settings");
    assert.equal(await page.getAttribute("#s2-key", "type"), "password");
    assert.equal(await page.getAttribute("#openalex-key", "type"), "password");
    await page.fill("#openalex-key", "oa-secret-123");
    await page.check("#remember");
    await page.fill("#mailto", "me@example.org");
    await page.click("#save-settings");
    await page.waitForFunction(() => document.querySelector("#settings-status")?.textContent === "settings saved");
    assert.equal(await page.inputValue("#openalex-key"), "");
    assert.match(await page.textContent("#key-state"), /OpenAlex key: set · remembered on this device/);
    assert.ok(!(await page.content()).includes("oa-secret-123"));
    const rows = await page.$$eval("#backends tbody tr", (rs) => rs.map((r) => [...r.cells].map((c) => c.textContent)));
    assert.deepEqual(rows.map((r) => r[0]), ["Semantic Scholar", "OpenAlex", "Crossref", "ASTA"]);
    assert.equal(rows[2][2], "polite pool (mailto set)");
    assert.match(await page.textContent("#cache-stats"), /\d+ entries/);
    // After a reload the remembered key is still set and still not shown.
    await page.reload();
    await page.waitForSelector("#key-state");
    assert.match(await page.textContent("#key-state"), /OpenAlex key: set/);
    assert.equal(await page.inputValue("#openalex-key"), "");
    assert.ok(!(await page.content()).includes("oa-secret-123"));
    await screenshot(page, "page-settings");
    await page.click("#forget-keys");
    await page.click("#clear-cache");
    await page.waitForFunction(() => document.querySelector("#cache-stats")?.textContent.startsWith("0 entries"));
  });
  assert.deepEqual(errors, []);
});

test("search: OpenAlex returns 500, the others answer: partial banner naming it, fused results with sources, add to library", async () => {
  openalexStatus = 500;
  const errors = await withPage(app.browser, "search", async (page) => {
    await app.open(page, "#/search");
    assert.equal(await page.textContent("h1"), "Search");
    await page.fill("#query", "Attention Is All You Need");
    // ASTA is not offered: Settings says the browser cannot reach it.
    assert.equal(await page.$("#backend-asta"), null);
    await page.click("#run-search");
    await page.waitForSelector("#search-status", { timeout: 60000 });
    assert.equal(await page.getAttribute("#search-status", "class"), "banner partial");
    const status = await page.textContent("#search-status");
    assert.match(status, /INCOMPLETE: openalex failed/);
    assert.doesNotMatch(status, /asta/);
    assert.match(await page.textContent("#search-notes"), /openalex: /);
    const rows = await page.$$eval("#results tbody tr", (rs) => rs.map((r) => [r.querySelector(".title-text").textContent, r.querySelector(".sources").textContent.trim()]));
    // S2's record (no DOI) and Crossref's have the same title: one paper,
    // listed once with both services (issue 16).
    assert.deepEqual(rows, [["Attention is All you Need", "crossref s2"]]);
    // Issue 31: who wrote it, where, and links to its pages, under the title.
    assert.match(await page.textContent("#results tbody tr .byline"), /^Ashish Vaswani, Noam Shazeer/);
    const links = await page.$$eval("#results tbody tr .record-links a", (as) => as.map((a) => [a.textContent, a.getAttribute("href"), a.getAttribute("rel")]));
    assert.ok(links.length >= 1, JSON.stringify(links));
    for (const [, href, rel] of links) {
      assert.match(href, /^https:\/\//);
      assert.equal(rel, "noopener noreferrer");
    }
    await page.click("#results tbody tr >> nth=0 >> button.add");
    await page.waitForFunction(() => document.querySelector("#added")?.textContent.startsWith("added `"));
    await page.waitForSelector("#results tbody tr:first-child .badge.pass");
    await screenshot(page, "page-search");
  });
  assert.deepEqual(errors, []);
});

test("cross-check: tiers of the example pool with OpenAlex unavailable; filter, evidence and downloads", async () => {
  openalexStatus = 503;
  const errors = await withPage(app.browser, "crosscheck", async (page) => {
    await app.open(page, "#/crosscheck");
    assert.equal(await page.textContent("h1"), "Cross-check");
    await page.click("#load-example");
    // The tiers are explained on the page, in the core's words.
    const legend = await page.$$eval("#tier-legend li", (ls) => ls.map((l) => [l.dataset.tier, l.textContent]));
    assert.deepEqual(legend.map(([t]) => t), ["high", "medium", "low", "conflict"]);
    for (const [tier, text] of legend) assert.match(text, new RegExp(`^${tier}: .{40,}`));
    await page.click("#run-crosscheck");
    // Rows come as papers complete, with a progress line and a Cancel while it runs.
    await page.waitForSelector("#tiers tbody tr", { timeout: 90000 });
    await page.waitForFunction(() => document.querySelector("#run-crosscheck")?.textContent === "Cross-check", null, { timeout: 90000 });
    assert.match(await page.textContent("#crosscheck-progress-text"), /^10 \/ 10 · \d+ requests sent$/);
    assert.equal(await page.getAttribute("#crosscheck-progress-cancel", "aria-disabled"), "true");
    const tiers = await page.$$eval("#tiers tbody tr", (rs) => Object.fromEntries(rs.map((r) => [r.dataset.key, r.dataset.tier])));
    assert.equal(Object.keys(tiers).length, 10);
    assert.equal(tiers.devlin2019bert, "low");
    assert.equal(tiers.tay2022efficient, "medium");
    assert.equal(tiers.vaswani2017attention, "high");
    assert.equal(Object.values(tiers).filter((t) => t === "high").length, 8);
    assert.match(await page.textContent("#crosscheck-status"), /10 papers: 8 high · 1 medium · 1 low · 0 conflict/);
    assert.match(await page.textContent("#unavailable"), /unavailable: openalex/);
    assert.match(await page.textContent('#tiers tr[data-key="vaswani2017attention"] .evidence'), /crossref: title 100 · 2017/);
    assert.match(await page.textContent('#tiers tr[data-key="vaswani2017attention"] .evidence'), /openalex: unavailable/);
    await page.selectOption("#tier-filter", "low");
    assert.deepEqual(await page.$$eval("#tiers tbody tr", (rs) => rs.map((r) => r.dataset.key)), ["devlin2019bert"]);
    const report = JSON.parse(await downloaded(page, "#download-report"));
    assert.deepEqual(report.indices_unavailable, ["openalex"]);
    assert.deepEqual(report.summary, { high: 8, medium: 1, low: 1, conflict: 0 });
    // Every paper below high is flagged for review, the medium one too.
    assert.deepEqual(report.flagged.map((f) => [f.bibtex_key, f.confidence]).sort(), [["devlin2019bert", "low"], ["tay2022efficient", "medium"]]);
    const pool = JSON.parse(await downloaded(page, "#download-annotated"));
    assert.equal(pool.papers.length, 10);
    assert.equal(pool.papers[1].cross_verification.confidence, "low");
    await page.selectOption("#tier-filter", "all");
    await screenshot(page, "page-crosscheck");
  });
  assert.deepEqual(errors, []);
});

test("search: an empty result runs the over-constraint probe and says what it tried", async () => {
  const errors = await withPage(app.browser, "search-probe", async (page) => {
    await app.open(page, "#/search");
    await page.fill("#query", "quantum gradient routing for provably sparse transformers in protein folding");
    await page.uncheck("#backend-openalex");
    await page.uncheck("#backend-crossref");
    await page.click("#run-search");
    await page.waitForSelector("#search-status", { timeout: 60000 });
    const status = await page.textContent("#search-status");
    assert.match(status, /^no papers matched the query as asked in s2; this is an observation, not a verified absence; no single-term drop among the 6 tried of 8 content terms found papers$/);
    assert.equal(await page.getAttribute("#search-status", "class"), "banner ok");
    assert.match(await page.textContent("#probe"), /probe: empty \(8 content terms, 6 drops tried\)/);
    assert.equal(await page.$$eval("#results tbody tr", (rs) => rs.length), 0);
  });
  assert.deepEqual(errors, []);
});
