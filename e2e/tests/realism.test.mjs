// The app against the mock's behaviours of the real services (mock/cors.mjs,
// mock/router.mjs): Semantic Scholar refuses the keyless batch's preflight,
// OpenAlex's daily budget runs out mid-run, and a service outside the
// page's Content-Security-Policy is reported as blocked by the page, not
// as a service failure. Each must leave an honest result: decided rows
// where the service could still be asked another way, "unavailable" with
// the reason where it could not, never "not found".
import { test } from "node:test";
import { serve } from "../harness.mjs";
import assert from "node:assert/strict";
import { withPage, DIST } from "../browser.mjs";
import { makeApi } from "../mock/router.mjs";
import { indices, POOL } from "../mock/indices.mjs";

const api = makeApi({ before: [indices] });
const app = serve({ dist: DIST, api }, { crossOrigin: true });

const fresh = async (page, fragment) => {
  await app.open(page, fragment);
  await page.evaluate(() => new Promise((ok) => { const r = indexedDB.deleteDatabase("citegate"); r.onsuccess = r.onerror = r.onblocked = ok; }));
  await page.reload();
};

// Candidates that carry arXiv ids (in their URLs), so they go through S2's
// batch: a POST with a JSON body, which needs a preflight.
const WITH_IDS = [
  ["Linformer: Self-Attention with Linear Complexity", "2006.04768"],
  ["Reformer: The Efficient Transformer", "2001.04451"],
  ["Rethinking Attention with Performers", "2009.14794"],
  ["Mamba: Linear-Time Sequence Modeling with Selective State Spaces", "2312.00752"],
];

test("S2 refuses the keyless batch's preflight: the ids are asked one GET each and every row is decided", async () => {
  await withPage(app.browser, "realism-preflight", async (page) => {
    await fresh(page, "#/pool");
    const sentBefore = app.server.requests.length;
    const candidates = WITH_IDS.map(([title, id]) => ({ title, source_url: `https://arxiv.org/abs/${id}`, discovered_for: ["intro"] }));
    await page.setInputFiles("#candidates-input", { name: "raw_candidates.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(candidates)) });
    await page.waitForFunction(() => document.querySelector("#dedup-summary")?.textContent.includes("4 candidates"));
    await page.fill("#cutoff", "2023-01-01");
    await page.click("#verify");
    await page.waitForFunction(() => /^\d+ papers/.test(document.querySelector("#pool-summary")?.textContent || ""), null, { timeout: 60000 });
    const rows = await page.$$eval("#rows tbody tr", (rs) => rs.map((r) => [r.querySelector(".cand-title").textContent, r.querySelector(".decision").dataset.code]));
    assert.deepEqual(rows, [
      [WITH_IDS[0][0], "accepted"],
      [WITH_IDS[1][0], "accepted"],
      [WITH_IDS[2][0], "accepted"],
      [WITH_IDS[3][0], "after_cutoff"],
    ]);
    const s2 = app.server.requests.slice(sentBefore).filter((r) => r.path.startsWith("/api/s2/"));
    const options = s2.filter((r) => r.method === "OPTIONS");
    const gets = s2.filter((r) => r.method === "GET" && /^\/api\/s2\/paper\/ARXIV:/.test(decodeURIComponent(r.path)));
    assert.ok(options.length >= 1, `the batch was preflighted: ${s2.map((r) => r.method + " " + r.path.slice(0, 60)).join(", ")}`);
    assert.equal(s2.filter((r) => r.method === "POST").length, 0, "no preflight passed, so no POST reached the service");
    assert.equal(gets.length, 4, `one GET per id: ${s2.map((r) => r.method + " " + r.path).join(", ")}`);
  });
});

// Semantic Scholar shut for good: every answer a 429 without CORS headers
// (a page reads none of them). OpenAlex answers phrase searches with the
// example pool's records that hold a phrase, with abstracts (as
// `abstract_inverted_index`) and dates; a relevance search finds nothing.
const words = (t) => t.toLowerCase().replace(/[^a-z0-9]+/g, " ").trim();
const shutS2 = (req, url) => {
  if (url.pathname.startsWith("/api/s2/")) return { status: 429, body: JSON.stringify({ message: "Too Many Requests" }) };
  if (url.pathname === "/api/openalex/works" && url.searchParams.has("search")) {
    const phrases = [...url.searchParams.get("search").matchAll(/"([^"]*)"/g)].map((m) => words(m[1]));
    const results = POOL.papers
      .filter((p) => phrases.some((ph) => ` ${words(p.title)} `.includes(` ${ph} `)))
      .map((p, n) => ({ id: `https://openalex.org/W8${n}`, title: p.title, display_name: p.title, publication_year: p.year, publication_date: `${p.year}-06-01`, abstract_inverted_index: { An: [0], abstract: [1] }, type: "article" }));
    return { status: 200, body: JSON.stringify({ meta: { count: results.length, page: 1, per_page: 100 }, results }) };
  }
  return null;
};
const shutApp = serve({ dist: DIST, api: makeApi({ before: [shutS2] }) }, { crossOrigin: true });

test("S2 stays shut: after its back-offs the pool is verified on OpenAlex, acceptances naming it, what OpenAlex lacks left unverified", async () => {
  const titles = ["Attention Is All You Need", "Linformer: Self-Attention with Linear Complexity", "Longformer: The Long-Document Transformer", "Efficient Transformers: A Survey", "A Made-Up Study of Attention in Hallucinated Transformers"];
  await withPage(shutApp.browser, "realism-s2-shut", async (page) => {
    await shutApp.open(page, "#/pool");
    await page.evaluate(() => new Promise((ok) => { const r = indexedDB.deleteDatabase("citegate"); r.onsuccess = r.onerror = r.onblocked = ok; }));
    await page.reload();
    const candidates = titles.map((title) => ({ title, discovered_for: ["intro"] }));
    await page.setInputFiles("#candidates-input", { name: "raw_candidates.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(candidates)) });
    await page.waitForFunction(() => document.querySelector("#dedup-summary")?.textContent.includes("5 candidates"));
    await page.fill("#cutoff", "2023-01-01");
    await page.click("#verify");
    // Four accepted, one left unverified: the run pauses for Resume.
    await page.waitForFunction(() => !document.querySelector("#verify")?.disabled && document.querySelectorAll("#rows tbody tr").length === 5, null, { timeout: 120000 });
    const rows = await page.$$eval("#rows tbody tr", (rs) => rs.map((r) => ({ title: r.querySelector(".cand-title").textContent, code: r.querySelector(".decision").dataset.code, text: r.textContent })));
    assert.deepEqual(rows.map((r) => [r.title, r.code]), [...titles.slice(0, 4).map((t) => [t, "accepted"]), [titles[4], "unverified"]]);
    for (const r of rows.slice(0, 4)) assert.match(r.text, /decided on openalex's records/, r.text);
    // Only Semantic Scholar's records reject: OpenAlex lacking the made-up
    // title leaves it unverified, with both services' words.
    assert.match(rows[4].text, /semantic_scholar.*; then openalex found no paper with this title/, rows[4].text);
    const sent = shutApp.server.requests;
    const s2 = sent.filter((r) => r.path.startsWith("/api/s2/") && r.method === "GET");
    // One title asked of S2, then again after each of four back-offs
    // (5 → 10 → 20 → 40 s, shortened here by ?s2_backoff_ms); then S2 is out.
    assert.equal(s2.length, 5, s2.map((r) => r.path).join(", "));
    const oa = sent.filter((r) => r.path.startsWith("/api/openalex/works?")).map((r) => new URL(r.path, shutApp.server.url).searchParams.get("search"));
    // Five titles in one phrase search; the made-up one, which it did not
    // return, in a relevance search of its own.
    assert.equal(oa.length, 2, oa.join(" | "));
    assert.match(oa[0], /^"[^"]+"( OR "[^"]+"){4}$/, oa.join(" | "));
  });
});

test("OpenAlex's daily budget runs out mid cross-check: OpenAlex is unavailable for the rest, named with the reason, and no paper is 'not found' by it", async () => {
  api.midnight();
  // Earlier today this caller already ran five searches ($0.005 of $0.01).
  for (let i = 0; i < 5; i++) await fetch(`${app.server.url}api/openalex/works?search=earlier+${i}&per_page=5`);
  await withPage(app.browser, "realism-openalex-budget", async (page) => {
    await fresh(page, "#/crosscheck");
    await page.click("#load-example");
    await page.click("#run-crosscheck");
    await page.waitForFunction(() => document.querySelector("#run-crosscheck")?.textContent === "Cross-check" && document.querySelectorAll("#tiers tbody tr").length > 0, null, { timeout: 90000 });
    const rows = await page.$$eval("#tiers tbody tr", (rs) => rs.map((r) => ({ key: r.dataset.key, evidence: r.querySelector(".evidence").textContent, errors: r.querySelector(".errors").textContent })));
    assert.equal(rows.length, POOL.papers.length);
    // Keyless: $0.01 a day, a search $0.001: five more searches fit, the sixth is a 429.
    assert.ok(Math.abs(api.openalexSpent() - 0.01) < 1e-9, `spent ${api.openalexSpent()}`);
    assert.match(await page.textContent("#unavailable"), /unavailable: openalex/);
    // OpenAlex answered the first five papers, then was out for the run (every
    // row names an index that was unavailable for part of the run).
    const answered = rows.filter((r) => /openalex: title/.test(r.evidence)).map((r) => r.key);
    assert.deepEqual(answered, rows.slice(0, 5).map((r) => r.key), JSON.stringify(rows.map((r) => [r.key, r.evidence])));
    for (const r of rows) assert.match(r.evidence, /openalex: unavailable/, `${r.key}: ${r.evidence}`);
    assert.ok(rows.slice(5).some((r) => /daily request budget is spent until midnight utc/.test(r.errors)), rows.map((r) => r.errors).join(" | "));
    for (const r of rows) assert.doesNotMatch(r.evidence, /openalex: not found/, `${r.key}: ${r.evidence}`);
    const oa = app.server.requests.filter((r) => r.path.startsWith("/api/openalex/works?search="));
    assert.equal(oa.length, 5 + 6, "five earlier, five answered, one 429 — nothing sent after it");
  });
  api.midnight();
});

test("a service outside the page's CSP is reported as blocked by the page's policy, not as a service failure", async () => {
  // [::1] is not in connect-src (127.0.0.1 and localhost are, for local relays and models):
  // every request is refused by the page itself.
  const blockedApi = app.server.url.replace("127.0.0.1", "[::1]") + "api";
  await withPage(app.browser, "realism-csp", async (page) => {
    await page.goto(`${app.server.url}?api=${encodeURIComponent(blockedApi)}&s2_interval=0#/search`);
    const sentBefore = app.server.requests.length;
    await page.fill("#query", "Attention Is All You Need");
    await page.click("#run-search");
    await page.waitForSelector("#search-status", { timeout: 60000 });
    const notes = await page.textContent("#search-notes");
    for (const s of ["s2", "openalex", "crossref"]) {
      assert.match(notes, new RegExp(`${s}: [^\\n]*blocked by the page's content security policy`), notes);
    }
    assert.doesNotMatch(notes, /no readable response/);
    assert.equal(app.server.requests.length, sentBefore, "nothing reached the mock");
  });
});
