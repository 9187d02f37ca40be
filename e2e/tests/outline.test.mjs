// Discovering candidates from an outline.json on the Pool page: the example
// outline's seven queries run on the chosen backend(s) of the mock API, the
// results become tagged candidates (one per paper, tags merged in query
// order), and they flow into pre-dedup, verification and the pool exactly
// like an imported raw_candidates.json. A search that answers 500 is named
// on the page and the other queries still count.
import { test } from "node:test";
import { serve } from "../harness.mjs";
import assert from "node:assert/strict";
import { withPage, screenshot, DIST } from "../browser.mjs";
import { makeApi } from "../mock/router.mjs";
import { outlineSearch, OUTLINE_QUERIES } from "../mock/outline.mjs";

let failing = null; // [service, query] answering 500
const app = serve(() => {
  const handler = outlineSearch((service, query) => (failing && failing[0] === service && failing[1] === query ? 500 : null));
  return { dist: DIST, api: makeApi({ before: [handler] }) };
});

const url = () => app.url("#/pool");
const RW1 = "related_work[2.1]";
const RW2 = "related_work[2.2]";

// The example outline's queries and the mock's answers imply these
// candidates, in order of first discovery, with their tags.
const DISCOVERED = [
  ["Attention is All you Need", ["intro", RW2]],
  ["Longformer: The Long-Document Transformer", ["intro", RW1]],
  ["Big Bird: Transformers for Longer Sequences", ["intro", RW1]],
  ["Reformer: The Efficient Transformer", ["intro"]],
  ["Sparse Sinkhorn Attention", [RW1]],
  ["Sparse Transformers for Protein Folding at Scale", [RW1]],
  ["Linformer: Self-Attention with Linear Complexity", [RW1]],
  ["Rethinking Attention with Performers", [RW2]],
  ["Transformers are RNNs: Fast Autoregressive Transformers with Linear Attention", [RW2]],
  ["FlashAttention: Fast and Memory-Efficient Exact Attention with IO-Awareness", [RW2]],
  ["Mamba: Linear-Time Sequence Modeling with Selective State Spaces", [RW2]],
];

async function downloaded(page, selector) {
  const [download] = await Promise.all([page.waitForEvent("download"), page.click(selector)]);
  return JSON.parse(Buffer.concat(await (await download.createReadStream()).toArray()).toString());
}

async function discover(page, backend) {
  await page.goto(url());
  await page.click("#load-example-outline");
  await page.waitForFunction(() => document.querySelector("#outline-summary")?.textContent.includes("7 queries"));
  await page.selectOption("#discover-backend", backend);
  await page.fill("#discover-limit", "5");
  await page.click("#discover");
  await page.waitForFunction(() => document.querySelector("#discover")?.textContent === "Discover candidates" && document.querySelector("#discover-status"), null, { timeout: 60000 });
}

test("the example outline on Semantic Scholar: 11 tagged candidates, then 9 in the pool", async () => {
  failing = null;
  assert.equal(Object.keys(OUTLINE_QUERIES).length, 7);
  const errors = await withPage(app.browser, "outline-s2", async (page) => {
    await discover(page, "s2");
    assert.equal(await page.textContent("#discover-stats"), "7 / 7 queries · 14 results · 11 candidates");
    assert.equal(await page.textContent("#discover-status"), "11 candidates from 7 queries");
    assert.equal(await page.$$eval("#discover-failures li", (l) => l.length), 0);
    const raw = await downloaded(page, "#download-raw");
    assert.deepEqual(raw.map((c) => [c.title, c.discovered_for]), DISCOVERED);
    assert.equal(raw[0].source_url, "https://arxiv.org/abs/1706.03762");
    assert.match(raw[0].snippet, /^The dominant sequence transduction models/);
    assert.match(raw[5].source_url, /^https:\/\/www\.semanticscholar\.org\/paper\//);
    // Into the pool steps like an imported raw_candidates.json.
    await page.waitForFunction(() => document.querySelector("#dedup-summary")?.textContent.includes("11 candidates, 11 after pre-dedup"));
    await page.fill("#cutoff", "2023-01-01");
    await page.click("#verify");
    await page.waitForFunction(() => document.querySelector("#pool-summary")?.textContent.startsWith("9 papers"), null, { timeout: 60000 });
    assert.match(await page.textContent("#stats"), /11 \/ 11 checked · 9 accepted · 2 rejected · 0 unverified/);
    const decisions = await page.$$eval("#rows tbody tr", (rs) => rs.map((r) => r.querySelector(".decision").dataset.code));
    assert.deepEqual(decisions, ["accepted", "accepted", "accepted", "accepted", "no_abstract", "accepted", "accepted", "accepted", "accepted", "accepted", "after_cutoff"]);
    const pool = await downloaded(page, "#download-pool");
    assert.equal(pool.papers.length, 9);
    assert.deepEqual(pool.papers.find((p) => /Longformer/.test(p.title)).discovered_for, ["intro", RW1]);
    await screenshot(page, "page-pool-outline");
  });
  assert.deepEqual(errors, []);
});

test("one query answering 500 is named; the other six still give their candidates", async () => {
  failing = ["s2", "selective state space models"];
  await withPage(app.browser, "outline-s2-500", async (page) => {
    await discover(page, "s2");
    assert.equal(await page.textContent("#discover-stats"), "7 / 7 queries · 13 results · 10 candidates");
    assert.match(await page.textContent("#discover-status"), /^INCOMPLETE: 10 candidates from 6 of 7 queries; 1 queries failed/);
    const failures = await page.$$eval("#discover-failures li", (l) => l.map((x) => x.textContent));
    assert.equal(failures.length, 1);
    assert.match(failures[0], /^s2 failed for “selective state space models” \(related_work\[2\.2\]\): semantic_scholar answered 500/);
    const raw = await downloaded(page, "#download-raw");
    assert.deepEqual(raw.map((c) => [c.title, c.discovered_for]), DISCOVERED.slice(0, 10));
    await page.waitForFunction(() => document.querySelector("#dedup-summary")?.textContent.includes("10 candidates, 10 after pre-dedup"));
  });
});

test("all three fused, OpenAlex failing one query: the others fill in and the failure is named", async () => {
  failing = ["openalex", "IO-aware exact attention"];
  await withPage(app.browser, "outline-fused", async (page) => {
    await discover(page, "all");
    const failures = await page.$$eval("#discover-failures li", (l) => l.map((x) => x.textContent));
    assert.equal(failures.length, 1);
    assert.match(failures[0], /^openalex failed for “IO-aware exact attention” \(related_work\[2\.2\]\): openalex answered 500/);
    assert.match(await page.textContent("#discover-status"), /^INCOMPLETE: 11 candidates from 7 of 7 queries; 0 queries failed/);
    const raw = await downloaded(page, "#download-raw");
    assert.deepEqual(raw.map((c) => [c.title, c.discovered_for]), DISCOVERED);
    // Crossref's DOI reaches the candidate found first by Semantic Scholar.
    assert.equal(raw[0].doi, "10.48550/arXiv.1706.03762");
  });
});

test("a bad outline.json shows the core's located error", async () => {
  await withPage(app.browser, "outline-bad", async (page) => {
    await page.goto(url());
    await page.setInputFiles("#outline-input", {
      name: "outline.json",
      mimeType: "application/json",
      buffer: Buffer.from('{"related_work_strategy": {"subsections": [{"limitation_search_queries": [3]}]}}'),
    });
    await page.waitForSelector("#outline-error");
    const text = await page.textContent("#outline-error");
    assert.match(text, /^outline\.json: /);
    assert.match(text, /related_work_strategy\.subsections\[0\]\.limitation_search_queries\[0\]/);
    assert.ok(await page.isDisabled("#discover"));
  });
});

test("Stop ends a discovery after the query in flight and hands over what it found", async () => {
  failing = null;
  const errors = await withPage(app.browser, "outline-stop", async (page) => {
    // One Semantic Scholar request per 700 ms: time to press Stop mid-run.
    await page.goto(`${app.server.url}?api=${encodeURIComponent(app.server.url + "api")}&s2_interval=700#/pool`);
    await page.click("#load-example-outline");
    await page.waitForFunction(() => document.querySelector("#outline-summary")?.textContent.includes("7 queries"));
    assert.equal(await page.getAttribute("#discover-progress-cancel", "aria-disabled"), "true");
    await page.click("#discover");
    await page.waitForFunction(() => /^[2-9] \/ 7 queries/.test(document.querySelector("#discover-stats")?.textContent ?? ""), null, { timeout: 30000 });
    await page.click("#discover-progress-cancel");
    await page.waitForFunction(() => document.querySelector("#discover")?.textContent === "Discover candidates", null, { timeout: 30000 });
    const stats = await page.textContent("#discover-stats");
    const asked = Number(stats.match(/^(\d+) \/ 7 queries/)[1]);
    const found = Number(stats.match(/(\d+) candidates$/)[1]);
    assert.ok(asked >= 2 && asked < 7, stats);
    assert.equal(
      await page.textContent("#discover-status"),
      `${found} candidates from ${asked} of 7 queries; stopped by you before the other ${7 - asked} queries (press Discover to run them all)`,
    );
    assert.equal(await page.getAttribute("#discover-progress-cancel", "aria-disabled"), "true");
    // What was found goes to pre-dedup like any candidate file.
    await page.waitForFunction(
      ([a, n]) => document.querySelector("#dedup-summary")?.textContent === `raw_candidates.json (discovered, stopped after ${a} of 7 queries): ${n} candidates, ${n} after pre-dedup (0 merged)`,
      [asked, found],
    );
    const raw = await downloaded(page, "#download-raw");
    assert.equal(raw.length, found);
    // Every candidate found is one of the full run's, tagged only with the
    // sections of the queries that ran.
    for (const c of raw) assert.ok(DISCOVERED.some(([t]) => t === c.title), c.title);
  });
  assert.deepEqual(errors, []);
});

test("the outline and the backend choice survive a reload", async () => {
  failing = null;
  await withPage(app.browser, "outline-reload", async (page) => {
    await page.goto(url());
    await page.click("#load-example-outline");
    await page.waitForFunction(() => document.querySelector("#outline-summary")?.textContent.includes("7 queries"));
    await page.selectOption("#discover-backend", "openalex");
    await page.fill("#discover-limit", "7");
    await page.press("#discover-limit", "Tab");
    // The workspace write is asynchronous: reload once it holds the choices.
    await page.waitForFunction(async () => {
      const req = (r) => new Promise((ok, no) => { r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error); });
      const db = await req(indexedDB.open("citegate"));
      try {
        // The open paper's documents are stored as `paper:<id>:<name>`.
        const store = db.transaction("workspace", "readonly").objectStore("workspace");
        const papers = JSON.parse((await req(store.get("papers"))) || "{}");
        const text = await req(store.get(`paper:${papers.current}:page:discover`));
        const saved = typeof text === "string" ? JSON.parse(text) : text;
        return saved?.backend === "openalex" && saved?.limit === "7";
      } finally {
        db.close();
      }
    }, null, { polling: 100 });
    await page.reload();
    await page.waitForFunction(() => document.querySelector("#outline-summary")?.textContent === "outline.json: 7 queries");
    assert.equal(await page.$eval("#discover-backend", (s) => s.value), "openalex");
    assert.equal(await page.$eval("#discover-limit", (i) => i.value), "7");
    assert.equal(await page.isDisabled("#discover"), false);
  });
});
