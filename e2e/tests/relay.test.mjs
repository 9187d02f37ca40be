// The app pointed at `citegate relay` on loopback (issue 32): the relay's
// services are the mock's, the app is opened with ?relay=BASE, and an
// entry that only DBLP lists — DBLP sends no CORS headers, so a page alone
// cannot ask it — is found through the relay; every request the page made
// went through the relay, none to a service directly.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import fs from "node:fs";
import os from "node:os";
import { spawn, spawnSync } from "node:child_process";
import zlib from "node:zlib";
import { serve, S2_BACKOFF_MS } from "../harness.mjs";
import { withPage, DIST } from "../browser.mjs";
import { makeApi } from "../mock/router.mjs";
import { DBLP_ONLY } from "../mock/records.mjs";

// The CLI `cargo test --workspace` built before the end-to-end step.
const BIN = path.resolve(process.env.CITEGATE_BIN || "../target/debug/citegate");
// An arXiv e-print as arXiv sends a one-file source: one gzipped .tex whose
// thebibliography cites two records the mock holds (e2e/fixtures/astropy).
const EPRINT_ID = "2401.00077";
const EPRINT = zlib.gzipSync(Buffer.from(String.raw`\documentclass{article}\begin{document}Text.
\begin{thebibliography}{2}
\bibitem{planck} {Planck Collaboration}, P.~A.~R. Ade, N.~Aghanim, et~al.
\newblock Planck 2015 results. XIII. Cosmological parameters.
\newblock \emph{A\&A}, 594:A13, 2016.
\bibitem{iraf} D.~Tody.
\newblock IRAF in the Nineties.
\newblock In \emph{Astronomical Data Analysis Software and Systems II}, volume~52, page 173, 1993.
\end{thebibliography}
\end{document}
`));
const eprint = (req, url) =>
  url.pathname === `/api/arxiv/e-print/${EPRINT_ID}` ? { status: 200, headers: { "content-type": "application/x-eprint" }, body: EPRINT } : null;
const app = serve({ dist: DIST, api: makeApi({ before: [eprint] }) });

const relays = [];
after(() => relays.forEach((r) => r.kill()));

/** Starts the relay for the app's origin, its services at the mock; resolves to its base and its log. */
function startRelay(extra = []) {
  assert.ok(fs.existsSync(BIN), `${BIN} is not built (cargo build -p citegate-cli)`);
  const mock = app.server.url + "api";
  const origin = app.server.url.replace(/\/$/, "");
  const args = ["relay", "--listen", "127.0.0.1:0", "--app-origin", origin, "--interval-ms", "s2=5,crossref=5,openalex=5,datacite=5,dblp=5,arxiv=5"];
  for (const s of ["s2", "openalex", "crossref", "datacite", "dblp", "arxiv"]) args.push(`--${s}-base`, `${mock}/${s}`);
  args.push(...extra);
  const env = { ...process.env };
  for (const v of ["S2_API_KEY", "OPENALEX_API_KEY", "CROSSREF_MAILTO", "OPENALEX_MAILTO", "PAPER_ORCHESTRA_MAILTO"]) delete env[v];
  const child = spawn(BIN, args, { env, stdio: ["ignore", "pipe", "pipe"] });
  relays.push(child);
  const log = [];
  child.stderr.on("data", (d) => log.push(String(d)));
  return new Promise((ok, fail) => {
    child.on("error", fail);
    child.stdout.once("data", (d) => {
      const base = String(d).match(/http:\/\/127\.0\.0\.1:\d+/)?.[0];
      if (!base) fail(new Error(`no address in ${d}`));
      ok({ base, log });
    });
  });
}

const f = DBLP_ONLY.fields;
const BIB = `@inproceedings{${DBLP_ONLY.key},\n  title = {${f.title}},\n  author = {${f.author}},\n  booktitle = {${f.booktitle}},\n  year = {${f.year}}\n}\n`;

/** Checks BIB on the BibTeX page opened at `url`; resolves to the card's class. */
async function classOf(page, url) {
  await page.goto(url);
  await page.waitForSelector("#load-example");
  await page.click("#clear");
  await page.setInputFiles("#bib-input", { name: "dblp.bib", mimeType: "text/plain", buffer: Buffer.from(BIB) });
  await page.waitForFunction(() => document.querySelector("#inputs")?.textContent === "dblp.bib: 1 entry");
  await page.click("#check-entries");
  const card = `[data-key="${DBLP_ONLY.key}"]`;
  await page.waitForSelector(`#entries ${card}`, { timeout: 30000 });
  return page.getAttribute(card, "data-class");
}

test("relay: an entry only DBLP lists is found through citegate relay, and the page asks no service directly", async () => {
  const relay = await startRelay();
  const errors = await withPage(app.browser, "relay", async (page) => {
    const before = app.server.requests.length;
    const url = `${app.page()}?relay=${encodeURIComponent(relay.base)}&s2_interval=0&s2_backoff_ms=${S2_BACKOFF_MS}#/bibtex`;
    assert.equal(await classOf(page, url), "valid");
    const mine = app.server.requests.slice(before);
    // The relay asked DBLP; every request reaching the mock came from the
    // relay (a browser's carries an Origin header), none from the page.
    assert.ok(mine.some((r) => r.path.startsWith("/api/dblp/search/publ/api")), JSON.stringify(mine.map((r) => r.path)));
    assert.deepEqual(mine.filter((r) => r.headers.origin), []);
    assert.match(relay.log.join(""), /GET \/dblp\/search\/publ\/api\S* -> 200/);
  });
  assert.deepEqual(errors, []);
});

test("relay --index: the page's run asks the relay's local index first, and an entry the index holds is settled with no request to any service", async () => {
  // A local index of the index crate's sample DBLP dump (index/tests/fixtures, PROVENANCE.md there).
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "citegate-relay-index-"));
  const dump = path.resolve("../index/tests/fixtures/dblp-sample.xml");
  const built = spawnSync(BIN, ["index", "build", "--out", dir, "--dblp", dump], { encoding: "utf8" });
  assert.equal(built.status, 0, built.stderr);
  const relay = await startRelay(["--index", dir]);
  // Yao's FOCS paper is in the sample dump and in none of the mock's services.
  const bib = `@inproceedings{yao82,\n  title = {Theory and Applications of Trapdoor Functions (Extended Abstract)},\n  author = {Yao, Andrew Chi-Chih},\n  booktitle = {FOCS},\n  year = {1982}\n}\n`;
  const errors = await withPage(app.browser, "relay-index", async (page) => {
    const before = app.server.requests.length;
    await page.goto(`${app.page()}?relay=${encodeURIComponent(relay.base)}&s2_interval=0&s2_backoff_ms=${S2_BACKOFF_MS}#/bibtex`);
    await page.waitForSelector("#load-example");
    await page.click("#clear");
    await page.setInputFiles("#bib-input", { name: "yao.bib", mimeType: "text/plain", buffer: Buffer.from(bib) });
    await page.waitForFunction(() => document.querySelector("#inputs")?.textContent === "yao.bib: 1 entry");
    await page.click("#check-entries");
    await page.waitForSelector('#entries [data-key="yao82"]', { timeout: 30000 });
    assert.equal(await page.getAttribute('[data-key="yao82"]', "data-class"), "valid");
    // The evidence names the dump and its date.
    assert.match(await page.textContent('[data-key="yao82"]'), /DBLP dump of \d{4}-\d{2}-\d{2}, local index/);
    assert.match(relay.log.join(""), /POST \/index -> 200/);
    assert.deepEqual(app.server.requests.slice(before).map((r) => r.path).filter((p) => p.startsWith("/api/")), []);
  });
  assert.deepEqual(errors, []);
  fs.rmSync(dir, { recursive: true, force: true });
});

test("relay: without it the page cannot ask DBLP, and the same entry is left unverified, neither valid nor fabricated", async () => {
  const errors = await withPage(app.browser, "relay-none", async (page) => {
    const before = app.server.requests.length;
    const cls = await classOf(page, app.url("#/bibtex"));
    // Not valid, and not fabricated either: DBLP, which holds it, could not be asked.
    assert.equal(cls, "unverified");
    assert.ok(!app.server.requests.slice(before).some((r) => r.path.startsWith("/api/dblp/")));
    // One banner says how many were left for DBLP and how to settle them.
    await page.waitForSelector("#dblp-banner");
    assert.match(await page.textContent("#dblp-banner"), /^1 entry could not be settled here: .*citegate relay \(\?relay=\)/);
  });
  assert.deepEqual(errors, []);
});

test("relay: an arXiv id pasted on the BibTeX page is fetched as its e-print source through the relay, read in the page and checked", async () => {
  const relay = await startRelay();
  const errors = await withPage(app.browser, "relay-arxiv", async (page) => {
    await page.goto(`${app.page()}?relay=${encodeURIComponent(relay.base)}&s2_interval=0&s2_backoff_ms=${S2_BACKOFF_MS}#/bibtex`);
    await page.waitForSelector("#load-example");
    await page.click("#clear");
    await page.click("#paste summary");
    await page.fill("#paste-refs", `https://arxiv.org/abs/${EPRINT_ID}v2`);
    await page.click("#read-pasted");
    await page.waitForFunction((id) => document.querySelector("#inputs")?.textContent === `arXiv:${id}: 2 entries`, EPRINT_ID, { timeout: 30000 });
    assert.match(relay.log.join(""), new RegExp(`GET /arxiv/e-print/${EPRINT_ID} -> 200`));
    await page.click("#check-entries");
    await page.waitForFunction(() => document.querySelectorAll("#entries .entry-card").length === 2, null, { timeout: 30000 });
    const classes = await page.$$eval("#entries .entry-card", (cs) => cs.map((c) => c.dataset.class));
    assert.ok(!classes.includes("fabricated"), JSON.stringify(classes));
    // An id the relay's arXiv does not have: named, and the paper stays.
    await page.fill("#paste-refs", "arXiv:2401.99999");
    await page.click("#read-pasted");
    await page.waitForFunction(() => !document.querySelector("#paste-error")?.hidden);
    assert.match(await page.textContent("#paste-error"), /^arXiv:2401\.99999 was not loaded: the relay answered 404/);
    assert.equal(await page.textContent("#inputs"), `arXiv:${EPRINT_ID}: 2 entries`);
  });
  assert.deepEqual(errors, []);
});
