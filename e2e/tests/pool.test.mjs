// Building a pool from the example candidates against the mock Semantic
// Scholar: the right reasons, a reload mid-run that loses nothing, and
// bursts of 429s — which reach the page as network errors, since S2 sends
// them without CORS headers — that slow the run but drop no candidate.
import { test } from "node:test";
import { serve, S2_BACKOFF_MS } from "../harness.mjs";
import assert from "node:assert/strict";
import { withPage, screenshot, DIST } from "../browser.mjs";
import { makeApi, fixture } from "../mock/router.mjs";

let burst = 0;
// OpenAlex down as well (server errors): once S2 is out the run asks
// OpenAlex in its stead, so S2's silence alone would decide the rows there.
let openalexDown = false;
const app = serve(() => {
  const tooMany = (req, url) => {
    if (openalexDown && url.pathname.startsWith("/api/openalex/")) return { status: 503, body: JSON.stringify({ error: "Service Unavailable" }) };
    if (burst > 0 && url.pathname === "/api/s2/paper/search") {
      burst -= 1;
      return { status: 429, headers: { "retry-after": "1" }, body: fixture("semanticscholar/error_429_too_many_requests.json") };
    }
    return null;
  };
  return { dist: DIST, api: makeApi({ before: [tooMany] }) };
}, { crossOrigin: true });

const url = (interval) => `${app.page()}?api=${encodeURIComponent(app.server.url + "api")}&s2_interval=${interval}&s2_backoff_ms=${S2_BACKOFF_MS}#/pool`;
const rowsOf = (page) =>
  page.$$eval("#rows tbody tr", (rs) => rs.map((r) => [r.querySelector(".cand-title").textContent, r.querySelector(".decision").dataset.code]));

const EXPECTED = [
  ["Attention Is All You Need", "accepted"],
  ["Linformer: Self-Attention with Linear Complexity", "accepted"],
  ["Reformer: The Efficient Transformer", "accepted"],
  ["Longformer: The Long-Document Transformer", "accepted"],
  ["Big Bird: Transformers for Longer Sequences", "accepted"],
  ["Rethinking Attention with Performers", "accepted"],
  ["FlashAttention: Fast and Memory-Efficient Exact Attention with IO-Awareness", "accepted"],
  ["Transformers are RNNs: Fast Autoregressive Transformers with Linear Attention", "accepted"],
  ["Mamba: Linear-Time Sequence Modeling with Selective State Spaces", "after_cutoff"],
  ["Sparse Sinkhorn Attention", "no_abstract"],
  ["Generating Long Sequences with Sparse Transformers", "low_score"],
  ["Quantum Gradient Routing for Provably Sparse Transformers", "no_hit"],
];

test("the example candidates give 8 accepted and 4 rejected with their reasons", async () => {
  const errors = await withPage(app.browser, "pool", async (page) => {
    await page.goto(url(0));
    await page.click("#load-example");
    await page.waitForFunction(() => document.querySelector("#dedup-summary")?.textContent.includes("13 candidates, 12 after pre-dedup"));
    await page.click("#verify");
    await page.waitForFunction(() => document.querySelector("#pool-summary")?.textContent.startsWith("8 papers"), null, { timeout: 60000 });
    assert.deepEqual(await rowsOf(page), EXPECTED);
    assert.match(await page.textContent("#stats"), /12 \/ 12 checked · 8 accepted · 4 rejected · 0 unverified/);
    assert.match(await page.textContent('#rows tr[data-index="10"]'), /closest title `Sparse Transformers for Protein Folding at Scale` matches \d+\/100, not above 70/);
    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#download-pool")]);
    const pool = JSON.parse(Buffer.concat(await (await download.createReadStream()).toArray()).toString());
    assert.equal(pool.papers.length, 8);
    assert.equal(pool.cutoff_date, "2023-01-01");
    assert.ok(pool.papers.every((p) => p.bibtex_key));
    await screenshot(page, "page-pool");
  });
  assert.deepEqual(errors, []);
});

test("a reload in the middle of verification resumes without losing rows", async () => {
  await withPage(app.browser, "pool-reload", async (page) => {
    await page.goto(url(700));
    await page.evaluate(() => new Promise((ok) => { const r = indexedDB.deleteDatabase("citegate"); r.onsuccess = r.onerror = r.onblocked = ok; }));
    await page.goto(url(700));
    await page.reload();
    await page.click("#load-example");
    await page.click("#verify");
    await page.waitForFunction(() => document.querySelectorAll("#rows tbody tr").length >= 3, null, { timeout: 60000 });
    const beforeReload = await rowsOf(page);
    await page.reload();
    await page.waitForFunction((n) => document.querySelectorAll("#rows tbody tr").length >= n, beforeReload.length, { timeout: 20000 });
    const restored = await rowsOf(page);
    assert.deepEqual(restored.slice(0, beforeReload.length), beforeReload);
    assert.equal(await page.textContent("#verify"), "Resume");
    await page.click("#verify");
    await page.waitForFunction(() => document.querySelector("#pool-summary")?.textContent.startsWith("8 papers"), null, { timeout: 60000 });
    assert.deepEqual(await rowsOf(page), EXPECTED);
  });
});

test("a burst of 429s (unreadable in the page) slows the run but loses no candidate", async () => {
  await withPage(app.browser, "pool-429", async (page) => {
    await page.goto(url(0));
    await page.evaluate(() => new Promise((ok) => { const r = indexedDB.deleteDatabase("citegate"); r.onsuccess = r.onerror = r.onblocked = ok; }));
    await page.reload();
    const sentBefore = app.server.requests.length;
    burst = 3;
    const started = Date.now();
    await page.click("#load-example");
    await page.click("#verify");
    // Each 429 looks like a network failure: the client backs off (base,
    // 2x, 4x …) and asks again; three in a row are within its tries.
    await page.waitForFunction(() => document.querySelector("#pool-summary")?.textContent.startsWith("8 papers"), null, { timeout: 90000 });
    assert.equal(burst, 0);
    assert.deepEqual(await rowsOf(page), EXPECTED);
    assert.ok(Date.now() - started >= 7 * S2_BACKOFF_MS, "the back-offs 1x, 2x and 4x were waited");
    const searches = app.server.requests.slice(sentBefore).filter((r) => r.path.startsWith("/api/s2/paper/search") && r.method === "GET");
    assert.equal(searches.length, 12 + 3, "three 429s, then one answer per candidate");
  });
});

test("a 429 burst longer than the back-offs leaves the rows unverified, never rejected, and Resume finishes", async () => {
  await withPage(app.browser, "pool-429-long", async (page) => {
    await page.goto(url(0));
    await page.evaluate(() => new Promise((ok) => { const r = indexedDB.deleteDatabase("citegate"); r.onsuccess = r.onerror = r.onblocked = ok; }));
    await page.reload();
    const sentBefore = app.server.requests.length;
    burst = 5;
    openalexDown = true;
    await page.click("#load-example");
    await page.click("#verify");
    await page.waitForFunction(() => !document.querySelector("#verify")?.disabled && document.querySelectorAll("#rows tbody tr").length === 12, null, { timeout: 90000 });
    assert.equal(burst, 0);
    // Five unreadable answers in a row: S2 is unavailable for this run;
    // OpenAlex, asked in its stead, fails too; every row says so.
    assert.match(await page.textContent("#stats"), /0 \/ 12 checked · 0 accepted · 0 rejected · 12 unverified/);
    assert.match(await page.textContent('#rows tr[data-index="0"]'), /unverified: service unavailable \(semantic_scholar unavailable for this run: no readable response after 5 tries/);
    assert.equal(await page.textContent("#verify"), "Resume");
    assert.match(await page.textContent('#rows tr[data-index="0"]'), /; then openalex/);
    openalexDown = false;
    await page.click("#verify");
    await page.waitForFunction(() => document.querySelector("#pool-summary")?.textContent.startsWith("8 papers"), null, { timeout: 90000 });
    assert.deepEqual(await rowsOf(page), EXPECTED);
    const searches = app.server.requests.slice(sentBefore).filter((r) => r.path.startsWith("/api/s2/paper/search") && r.method === "GET");
    assert.equal(searches.length, 5 + 12, "five 429s, nothing more to an unavailable service, then one answer per candidate");
  });
});

test("pasted guidelines suggest the full-paper deadline; the cutoff is set only when chosen", async () => {
  await withPage(app.browser, "pool-detect-cutoff", async (page) => {
    await page.goto(url(50));
    await page.click("details.detect summary");
    await page.fill(
      "#guidelines",
      [
        "Key dates",
        "- Abstract registration: September 27, 2024",
        "- Full paper submission deadline: October 1, 2024, 23:59 AoE",
        "- Author notification: January 22, 2025",
        "- Camera-ready version due: Feb 28, 2025",
      ].join("\n"),
    );
    await page.waitForSelector("#deadlines li.suggested");
    const suggested = await page.textContent("#deadlines li.suggested span");
    assert.match(suggested, /line 3: 2024-10-01 \(full-paper submission\)/);
    const items = await page.$$eval("#deadlines li", (lis) => lis.length);
    assert.equal(items, 4);
    await page.click("#deadlines li.suggested button");
    await page.waitForFunction(() => document.querySelector("#cutoff")?.value === "2024-10-01");
  });
});
