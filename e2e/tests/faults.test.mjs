// Faults mid-run: the mock services fail in every way a real one does (429
// bursts, 500s, a request that hangs past the app's timeout, a connection
// dropped mid-body, malformed JSON with status 200, an error without CORS
// headers) at seeded random points of pool verification and cross-checking.
//
// What must hold, for every seed:
// - after one pass, every row is accepted, rejected with the clean run's
//   reason, or unverified with the service's error in its text — a fault is
//   never read as a verdict about a paper — and the counts add up to the input;
// - no pool is offered while a row is unverified (the app builds the pool
//   only from a fully decided set, so a partial pool cannot be mistaken for
//   the real one);
// - Resume re-asks exactly the unverified rows, and once none is left the
//   downloaded citation_pool.json is byte for byte the uninterrupted run's.
//   That is what "the same pool" means here: faults may delay the pool,
//   never change it. The same holds after a reload at a seeded point mid-run.
// - the cross-check gives every paper a tier, names each index that could
//   not answer as unavailable, and a re-run converges on the clean report
//   and annotated pool.
//
// Seeds: CITEGATE_FAULT_SEEDS=1,2,3 (default) replays a run; each test name
// carries its seed and each run logs the faults it met.
import { test } from "node:test";
import { serve } from "../harness.mjs";
import assert from "node:assert/strict";
import { withPage, DIST } from "../browser.mjs";
import { makeApi, route } from "../mock/router.mjs";
import { makeFaults, prng, KINDS } from "../mock/faults.mjs";
import { indices, POOL } from "../mock/indices.mjs";

const SEEDS = (process.env.CITEGATE_FAULT_SEEDS || "1,2,3").split(",").map((s) => Number(s.trim()));
const TIMEOUT_MS = 1500; // the app's request timeout in these tests (?timeout_ms=)
const MAX_PASSES = 12;

const upstream = async (req, url, body) => indices(req, url) || route(req, url, body);

let faults = null; // the injector of the running test; null: no faults
let hold = null; // (url) => a promise to wait for before answering, or null
const app = serve(() => {
  const gate = async (req, url) => {
    const wait = hold?.(url);
    if (wait) await wait;
    return null;
  };
  const inject = (req, url, body) => (faults ? faults.handler(req, url, body) : null);
  // These runs are about faults, not OpenAlex's daily budget: the mock gives
  // the allowance of a free key ($1 a day), as for a user who set one.
  return { dist: DIST, api: makeApi({ before: [gate, inject, indices], openalexBudget: { keyless: 1, keyed: 1 } }) };
  // Page and mock on different origins: the browser applies CORS as with the
  // real services (an S2 429 reads as no response, Crossref's Retry-After is
  // not readable).
}, { crossOrigin: true });

const open = (page, frag) => app.open(page, frag, `&timeout_ms=${TIMEOUT_MS}`);
const downloaded = async (page, selector) => {
  const [download] = await Promise.all([page.waitForEvent("download"), page.click(selector)]);
  return Buffer.concat(await (await download.createReadStream()).toArray()).toString();
};
const seen = new Set(); // "service:kind" met by any run
const noteFaults = (t, seed, what) => {
  for (const e of faults.log) seen.add(`${e.service}:${e.kind}`);
  t.diagnostic(`seed ${seed} ${what}: ${faults.log.length} faults ${JSON.stringify(faults.counts())}`);
};

// ---- Pool ----------------------------------------------------------------

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
const REJECTIONS = new Set(["after_cutoff", "no_abstract", "low_score", "no_hit"]);

const rowsOf = (page) =>
  page.$$eval("#rows tbody tr", (rs) =>
    rs.map((r) => ({ i: Number(r.dataset.index), title: r.querySelector(".cand-title").textContent, decision: r.querySelector(".decision").dataset.code, figures: r.cells[3].textContent })),
  );
const poolReady = () => /^\d+ papers/.test(document.querySelector("#pool-summary")?.textContent || "");

/** Clicks Verify/Resume and waits until the pass ends (paused with rows left, or done). */
async function pass(page) {
  await page.click("#verify");
  await page.waitForFunction(() => document.querySelector("#verify")?.disabled, null, { timeout: 3000 }).catch(() => {});
  await page.waitForFunction(
    () =>
      /^\d+ papers/.test(document.querySelector("#pool-summary")?.textContent || "") ||
      (!document.querySelector("#verify").disabled && document.querySelectorAll("#rows tbody tr").length === 12),
    null,
    { timeout: 120000 },
  );
}

/** Every row is a decision of the clean run or unverified with the service's error; the counts add up. */
async function checkRows(page) {
  const rows = await rowsOf(page);
  assert.equal(rows.length, 12, "one row per candidate after pre-dedup");
  let acc = 0;
  let rej = 0;
  let unv = 0;
  for (const r of rows) {
    assert.equal(r.title, EXPECTED[r.i][0]);
    if (r.decision === "unverified") {
      unv += 1;
      assert.match(r.figures, /^unverified: /, `row ${r.i}`);
      assert.match(r.figures, /semantic[_ ]scholar/, `row ${r.i} names the service: ${r.figures}`);
    } else {
      assert.equal(r.decision, EXPECTED[r.i][1], `row ${r.i}: a fault must never become a verdict (${r.figures})`);
      if (r.decision === "accepted") acc += 1;
      else if (REJECTIONS.has(r.decision)) rej += 1;
    }
  }
  const stats = await page.textContent("#stats");
  const m = stats.match(/^(\d+) \/ 12 checked · (\d+) accepted · (\d+) rejected · (\d+) unverified/);
  assert.ok(m, stats);
  assert.deepEqual(m.slice(1).map(Number), [acc + rej, acc, rej, unv]);
  assert.equal(acc + rej + unv, 12);
  if (unv > 0) {
    assert.equal(await page.isDisabled("#download-pool"), true, "no pool while a row is unverified");
    assert.equal(await page.textContent("#verify"), "Resume");
  }
  return unv;
}

/** Resumes until every row is decided; returns the number of passes. */
async function finish(page) {
  for (let n = 1; n <= MAX_PASSES; n++) {
    if (await page.evaluate(poolReady)) return n;
    await pass(page);
    await checkRows(page);
  }
  assert.fail(`still unverified rows after ${MAX_PASSES} passes`);
}

let CLEAN_POOL = null;

test("pool: the uninterrupted run (no faults) gives the reference citation_pool.json", async () => {
  faults = null;
  await withPage(app.browser, "faults-pool-clean", async (page) => {
    await open(page, "#/pool");
    await page.click("#load-example");
    await pass(page);
    assert.equal(await checkRows(page), 0);
    assert.deepEqual((await rowsOf(page)).map((r) => [r.title, r.decision]), EXPECTED);
    CLEAN_POOL = await downloaded(page, "#download-pool");
    assert.equal(JSON.parse(CLEAN_POOL).papers.length, 8);
  });
});

for (const seed of SEEDS) {
  test(`pool under faults, seed ${seed}: every row decided or unverified with the error; Resume converges on the clean pool`, async (t) => {
    assert.ok(CLEAN_POOL, "the clean run ran first");
    faults = makeFaults({ upstream, seed, rate: 0.3 });
    try {
      await withPage(app.browser, `faults-pool-${seed}`, async (page) => {
        await open(page, "#/pool");
        await page.click("#load-example");
        await pass(page);
        const unverified = await checkRows(page);
        const passes = await finish(page);
        t.diagnostic(`seed ${seed}: ${unverified} unverified after the first pass, ${passes} passes in all`);
        assert.deepEqual((await rowsOf(page)).map((r) => [r.title, r.decision]), EXPECTED);
        assert.equal(await downloaded(page, "#download-pool"), CLEAN_POOL);
      });
    } finally {
      noteFaults(t, seed, "pool");
      faults = null;
    }
  });

  test(`pool under faults with a reload mid-run, seed ${seed}: decided rows survive, the finished pool is the clean one`, async (t) => {
    assert.ok(CLEAN_POOL, "the clean run ran first");
    const at = 2 + Math.floor(prng(seed * 7919)() * 8); // reload once this many rows are shown
    faults = makeFaults({ upstream, seed: seed + 1000, rate: 0.3 });
    try {
      await withPage(app.browser, `faults-pool-reload-${seed}`, async (page) => {
        await open(page, "#/pool");
        await page.click("#load-example");
        await page.click("#verify");
        await page.waitForFunction((n) => document.querySelectorAll("#rows tbody tr").length >= n, at, { timeout: 120000 });
        const shown = (await rowsOf(page)).filter((r) => r.decision !== "unverified");
        await page.reload();
        await page.waitForFunction((n) => document.querySelectorAll("#rows tbody tr").length >= n, shown.length, { timeout: 20000 });
        const restored = new Map((await rowsOf(page)).map((r) => [r.i, r]));
        for (const r of shown) assert.deepEqual(restored.get(r.i), r, `decided row ${r.i} survives the reload`);
        const passes = await finish(page);
        t.diagnostic(`seed ${seed}: reloaded at ${at} rows (${shown.length} decided), ${passes} passes after`);
        await checkRows(page);
        assert.equal(await downloaded(page, "#download-pool"), CLEAN_POOL);
      });
    } finally {
      noteFaults(t, seed + 1000, "pool-reload");
      faults = null;
    }
  });
}

// ---- Cross-check -----------------------------------------------------------

const TIERS = new Set(["high", "medium", "low", "conflict"]);
const tiersOf = (page) =>
  page.$$eval("#tiers tbody tr", (rs) =>
    rs.map((r) => ({ key: r.dataset.key, tier: r.dataset.tier, evidence: r.querySelector(".evidence").textContent, errors: r.querySelector(".errors").textContent })),
  );

async function crossPass(page) {
  await page.click("#run-crosscheck");
  await page.waitForFunction(() => document.querySelector("#run-crosscheck")?.textContent === "checking…", null, { timeout: 3000 }).catch(() => {});
  await page.waitForFunction(() => document.querySelector("#run-crosscheck")?.textContent === "Cross-check" && document.querySelectorAll("#tiers tbody tr").length > 0, null, { timeout: 120000 });
}

/** Every paper has a tier, every index has an outcome on every row, the counts add up; returns the unavailable indices. */
async function checkTiers(page) {
  const rows = await tiersOf(page);
  assert.equal(rows.length, 10);
  assert.deepEqual(rows.map((r) => r.key), POOL.papers.map((p) => p.bibtex_key));
  const count = { high: 0, medium: 0, low: 0, conflict: 0 };
  for (const r of rows) {
    assert.ok(TIERS.has(r.tier), `${r.key}: ${r.tier}`);
    count[r.tier] += 1;
    for (const index of ["crossref", "openalex"]) assert.match(r.evidence, new RegExp(`${index}: (unavailable|not found|title|doi)`), `${r.key}: ${r.evidence}`);
  }
  const status = await page.textContent("#crosscheck-status");
  assert.match(status, new RegExp(`^10 papers: ${count.high} high · ${count.medium} medium · ${count.low} low · ${count.conflict} conflict`));
  const unavailable = (await page.textContent("#unavailable")).match(/^unavailable: ([a-z, ]+) —/)?.[1].split(", ") ?? [];
  for (const index of unavailable) {
    assert.match(status, /\(checked: .*; unavailable: /);
    assert.equal(await page.getAttribute("#crosscheck-status", "class"), "banner partial");
    for (const r of rows) assert.match(r.evidence, new RegExp(`${index}: unavailable`), `${r.key} names ${index} as unavailable`);
    // The paper where it failed carries the service's error.
    assert.ok(rows.some((r) => new RegExp(`(^|; )${index}: ${index} .+`).test(r.errors)), `${index}'s error is shown: ${rows.map((r) => r.errors).join(" | ")}`);
  }
  if (!unavailable.length) assert.deepEqual(rows.map((r) => r.errors).filter(Boolean), []);
  return unavailable;
}

let CLEAN_REPORT = null;
let CLEAN_ANNOTATED = null;

test("cross-check: the uninterrupted run (no faults) gives the reference report and annotated pool", async () => {
  faults = null;
  await withPage(app.browser, "faults-cross-clean", async (page) => {
    await open(page, "#/crosscheck");
    await page.click("#load-example");
    await crossPass(page);
    assert.deepEqual(await checkTiers(page), []);
    CLEAN_REPORT = await downloaded(page, "#download-report");
    CLEAN_ANNOTATED = await downloaded(page, "#download-annotated");
    assert.deepEqual(JSON.parse(CLEAN_REPORT).indices_unavailable, []);
    // Issue 31: a finished run is shown again after a reload, rows,
    // summary and downloads, with nothing asked again.
    const asked = [];
    page.on("request", (r) => /\/api\/(crossref|openalex)\//.test(r.url()) && asked.push(r.url()));
    await page.reload();
    await page.waitForFunction(() => document.querySelectorAll("#tiers tbody tr").length === 10, null, { timeout: 20000 });
    assert.deepEqual(await checkTiers(page), []);
    assert.equal(await page.$("#crosscheck-stopped"), null);
    assert.equal(await downloaded(page, "#download-report"), CLEAN_REPORT);
    assert.equal(await downloaded(page, "#download-annotated"), CLEAN_ANNOTATED);
    assert.deepEqual(asked, []);
  });
});

for (const seed of SEEDS) {
  test(`cross-check under faults, seed ${seed}: a tier or an unavailable index for every paper; re-runs converge on the clean report`, async (t) => {
    assert.ok(CLEAN_REPORT, "the clean run ran first");
    faults = makeFaults({ upstream, seed: seed + 2000, rate: 0.3 });
    try {
      await withPage(app.browser, `faults-cross-${seed}`, async (page) => {
        await open(page, "#/crosscheck");
        await page.click("#load-example");
        const first = [];
        for (let n = 1; ; n++) {
          assert.ok(n <= MAX_PASSES, `indices still unavailable after ${MAX_PASSES} runs`);
          await crossPass(page);
          const unavailable = await checkTiers(page);
          if (n === 1) first.push(...unavailable);
          if (!unavailable.length) {
            t.diagnostic(`seed ${seed}: unavailable after the first run: [${first}], ${n} runs in all`);
            break;
          }
        }
        assert.equal(await downloaded(page, "#download-report"), CLEAN_REPORT);
        assert.equal(await downloaded(page, "#download-annotated"), CLEAN_ANNOTATED);
      });
    } finally {
      noteFaults(t, seed + 2000, "cross-check");
      faults = null;
    }
  });
}

test("cross-check with a reload mid-run: the page comes back with the pool and the stored answers, and finishes on the clean report", async () => {
  assert.ok(CLEAN_REPORT, "the clean run ran first");
  faults = null;
  let release;
  const gate = new Promise((ok) => (release = ok));
  let reached;
  const openalexAsked = new Promise((ok) => (reached = ok));
  // Crossref is asked first; hold OpenAlex's first request and reload then.
  hold = (url) => (url.pathname.startsWith("/api/openalex/") ? (reached(), gate) : null);
  try {
    await withPage(app.browser, "faults-cross-reload", async (page) => {
      await open(page, "#/crosscheck");
      await page.click("#load-example");
      await page.click("#run-crosscheck");
      await openalexAsked;
      await page.reload();
      hold = null;
      release();
      await page.waitForFunction(
        () => /^an earlier cross-check of this pool did not finish \(answers stored for ([1-9]|10) of 10 papers\); Resume finishes it/.test(document.querySelector("#crosscheck-status")?.textContent ?? ""),
        null,
        { timeout: 20000 },
      );
      assert.equal(await page.getAttribute("#crosscheck-status", "class"), "banner partial");
      // Issue 31: the interrupted run says where it stopped, its complete rows shown.
      const [done] = (await page.textContent("#crosscheck-stopped-text")).match(/^stopped at (\d+) of 10 — $/)?.slice(1) ?? [];
      assert.ok(done !== undefined, await page.textContent("#crosscheck-stopped-text"));
      assert.equal((await page.$$("#tiers tbody tr")).length, Number(done));
      await page.click("#crosscheck-resume");
      await page.waitForFunction(() => document.querySelector("#run-crosscheck")?.textContent === "Cross-check" && document.querySelectorAll("#tiers tbody tr").length === 10, null, { timeout: 120000 });
      assert.equal(await page.$("#crosscheck-stopped"), null);
      assert.deepEqual(await checkTiers(page), []);
      assert.equal(await downloaded(page, "#download-report"), CLEAN_REPORT);
      assert.equal(await downloaded(page, "#download-annotated"), CLEAN_ANNOTATED);
    });
  } finally {
    hold = null;
    release();
  }
});

test("cross-check cancelled mid-run: it stops with the rows so far and a note, and the next run finishes on the clean report", async () => {
  assert.ok(CLEAN_REPORT, "the clean run ran first");
  faults = null;
  let release;
  const gate = new Promise((ok) => (release = ok));
  let reached;
  const openalexAsked = new Promise((ok) => (reached = ok));
  hold = (url) => (url.pathname.startsWith("/api/openalex/") ? (reached(), gate) : null);
  try {
    await withPage(app.browser, "faults-cross-cancel", async (page) => {
      await open(page, "#/crosscheck");
      await page.click("#load-example");
      await page.click("#run-crosscheck");
      await openalexAsked;
      assert.equal(await page.getAttribute("#crosscheck-progress-cancel", "aria-disabled"), "false", "Cancel is offered while the run goes");
      assert.equal(await page.getAttribute("#crosscheck-progress", "aria-label"), "Cross-checking papers");
      assert.match(await page.textContent("#crosscheck-progress-text"), /^\d+ \/ 10 · (estimating the time left|about \d+ (s|min) left) · \d+ requests sent$/);
      await page.click("#crosscheck-progress-cancel");
      assert.match(await page.textContent("#crosscheck-status"), /^cancelled; the answers so far are kept/);
      assert.equal(await page.textContent("#run-crosscheck"), "Cross-check");
      hold = null;
      release();
      await crossPass(page);
      assert.deepEqual(await checkTiers(page), []);
      assert.equal(await downloaded(page, "#download-report"), CLEAN_REPORT);
    });
  } finally {
    hold = null;
    release();
  }
});

test("the default seeds met every fault kind", { skip: process.env.CITEGATE_FAULT_SEEDS ? "custom seeds" : false }, () => {
  const kinds = new Set([...seen].map((s) => s.split(":")[1]));
  assert.deepEqual([...KINDS].filter((k) => !kinds.has(k)), [], `met: ${[...seen].sort().join(" ")}`);
});
