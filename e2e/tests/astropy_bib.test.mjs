// The astropy v2.0 paper's real bibliography (93 entries, 52 DOIs, 23 of
// them Zenodo's) on the BibTeX check page, against the realistic mock:
// Semantic Scholar refuses the keyless batch's preflight, its 429s carry no
// CORS headers, Crossref exposes no rate header, DataCite answers for the
// Zenodo and arXiv DOIs. The page hands every entry to the core's engine.
//
// What must hold: every Zenodo DOI comes out as existing (found through
// DataCite, not flagged as a fabrication); no entry is "not found" because
// a service failed — every entry with something to look up is found, since
// the mock holds a record of each. The requests the page sent are counted per service for
// BENCHMARKS.md; with CITEGATE_PACED=1 the mock answers no faster than the
// real services allow and the wall time is reported too.
import { test } from "node:test";
import fs from "node:fs";
import { serve } from "../harness.mjs";
import assert from "node:assert/strict";
import { withPage, DIST } from "../browser.mjs";
import { makeApi } from "../mock/router.mjs";
import { ASTROPY, ASTROPY_BIB } from "../mock/records.mjs";

const PACED = process.env.CITEGATE_PACED === "1";
const api = makeApi({ pace: PACED });
const app = serve({ dist: DIST, api }, { crossOrigin: true });

const ZENODO = ASTROPY.entries.filter((e) => /10\.5281\/zenodo/i.test(e.fields.doi || "")).map((e) => e.key);

test("the astropy paper's .bib: Zenodo DOIs exist, nothing is 'not found' for a failed service", async (t) => {
  assert.equal(ASTROPY.entries.length, 93);
  assert.equal(ZENODO.length, 23);
  const errors = await withPage(app.browser, "astropy-bib", async (page) => {
    // The real Semantic Scholar spacing (1 s) when paced; none otherwise.
    await page.goto(PACED ? app.url("#/bibtex").replace("s2_interval=0", "s2_interval=1000") : app.url("#/bibtex"));
    await page.setInputFiles("#bib-input", { name: "bibliography.bib", mimeType: "text/plain", buffer: fs.readFileSync(ASTROPY_BIB) });
    await page.waitForSelector("#layer1");
    const sentBefore = app.server.requests.length;
    const started = Date.now();
    await page.click("#check-entries");
    await page.waitForFunction(() => document.querySelectorAll("#entries .entry-card").length === 93, null, { timeout: 600000 });
    const wall = Date.now() - started;
    const cards = await page.$$eval("#entries .entry-card", (cs) =>
      cs.map((c) => ({ key: c.dataset.key, status: c.dataset.status, reason: c.querySelector(".reason")?.textContent || "", line: c.querySelector(".score-line").textContent })),
    );
    const byKey = new Map(cards.map((c) => [c.key, c]));
    for (const key of ZENODO) {
      const c = byKey.get(key);
      assert.ok(c, `${key} has a card`);
      assert.ok(!["failed", "unverified"].includes(c.status), `${key}: ${c.status} ${c.reason}`);
      assert.match(c.line, /datacite \([^)]*\): found/, `${key} was found through DataCite: ${c.line}`);
    }
    for (const c of cards) {
      assert.doesNotMatch(c.reason, /not found/, `${c.key}: ${c.reason}`);
      // Only an entry with nothing to look up (astropy-ci: a URL and an author) stays unverified.
      if (c.status === "unverified") assert.match(c.reason, /nothing to look up/, `${c.key}: ${c.reason} (${c.line})`);
    }
    assert.deepEqual(cards.filter((c) => c.status === "unverified").map((c) => c.key), ["astropy-ci"]);
    // Requests per service (the preflight OPTIONS counted apart).
    const sent = app.server.requests.slice(sentBefore);
    const per = {};
    for (const r of sent) {
      const key = `${r.path.split("/")[2]}${r.method === "OPTIONS" ? " (preflight)" : ""}`;
      per[key] = (per[key] || 0) + 1;
    }
    // The titles share OpenAlex phrase searches: the keyless day's ten
    // searches are far from spent, and each phrase search fits OpenAlex's URL.
    const oaSearches = sent
      .filter((r) => r.method === "GET" && r.path.startsWith("/api/openalex/works?"))
      .map((r) => new URL(r.path, app.server.url).searchParams.get("search"))
      .filter(Boolean);
    assert.ok(oaSearches.some((q) => /^"[^"]+"( OR "[^"]+")+$/.test(q)), `a phrase search was sent: ${oaSearches.join(" | ")}`);
    assert.ok(oaSearches.length <= 5, `${oaSearches.length} OpenAlex searches`);
    assert.ok(api.openalexSpent() <= 0.005, `spent ${api.openalexSpent()} of the keyless $0.01`);
    t.diagnostic(`astropy .bib: ${sent.length} requests ${JSON.stringify(per)}, ${(wall / 1000).toFixed(1)} s${PACED ? " (paced as the real services)" : ""}`);
  });
  assert.deepEqual(errors, []);
});
