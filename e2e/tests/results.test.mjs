// Results a researcher reads and keeps (issue 16): the BibTeX check's
// verdicts in words with their records' links, a chart of the verdicts,
// filter and sort, the fixed .bib, the JSON/CSV/Markdown reports and the
// shared progress display; one offline banner instead of a fetch error per
// row; Search listing a paper once with every service that has it; the
// Coverage pool reading an 8-bit .bib; an accessible name on every
// progress bar, meter, text area and form field.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import { serve } from "../harness.mjs";
import { withPage, screenshot, DIST } from "../browser.mjs";
import { makeApi } from "../mock/router.mjs";

const FIX = new URL("../../core/tests/fixtures/api/", import.meta.url);
const fixture = (p) => fs.readFileSync(new URL(p, FIX), "utf8");

// One paper from three services for the Search test, in the shapes of the
// recorded answers (core/tests/fixtures/api, PROVENANCE.md there): the
// OpenAlex work is the recorded W2099326003 as OpenAlex's /works search
// lists it; Semantic Scholar's /paper/search answers that paper's title
// with its paperId only (as the recorded search_title_turing.json, whose
// items carry paperId and title); Crossref's query answers its DOI and
// title (as the recorded search_select_doi_title.json).
const GIFT = "Labor Contracts as Partial Gift Exchange";
const OA_WORK = JSON.parse(fixture("openalex/work_W2099326003_article_1982.json"));
const mergeScenario = (req, url) => {
  const p = url.pathname;
  const q = url.searchParams.get("query") || url.searchParams.get("search") || url.searchParams.get("query.bibliographic") || "";
  if (q !== GIFT) return null;
  if (p === "/api/s2/paper/search") return { status: 200, body: JSON.stringify({ total: 1, offset: 0, data: [{ paperId: "7cbc2a7843411a1768ab762930707af0a3c33a19", title: GIFT }] }) };
  if (p === "/api/openalex/works") return { status: 200, body: JSON.stringify({ meta: { count: 1, db_response_time_ms: 1, page: 1, per_page: 20 }, results: [OA_WORK], group_by: [] }) };
  if (p === "/api/crossref/works") {
    const items = [{ DOI: "10.2307/1885099", title: [GIFT], type: "journal-article" }];
    return { status: 200, body: JSON.stringify({ status: "ok", "message-type": "work-list", "message-version": "1.0.0", message: { "total-results": 1, items, "items-per-page": 1 } }) };
  }
  return null;
};

const app = serve({ dist: DIST, api: makeApi({ before: [mergeScenario] }) });

const downloaded = async (page, selector) => {
  const [download] = await Promise.all([page.waitForEvent("download"), page.click(selector)]);
  return { name: download.suggestedFilename(), text: Buffer.concat(await (await download.createReadStream()).toArray()).toString() };
};

/** A minimal RFC 4180 reader (quoted fields, doubled quotes, CRLF). */
function readCsv(text) {
  const rows = [];
  let row = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (cell += '"'), i++;
      else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") row.push(cell), (cell = "");
    else if (c === "\n") row.push(cell), rows.push(row), (row = []), (cell = "");
    else if (c !== "\r") cell += c;
  }
  return rows;
}

const cards = (page) =>
  page.$$eval("#entries .entry-card", (cs) => cs.map((c) => ({ key: c.dataset.key, check: c.dataset.check, badge: c.querySelector(".check-badge").textContent })));

async function checkExample(page) {
  await app.open(page, "#/bibtex");
  await page.waitForSelector("#load-example");
  await page.click("#clear");
  await page.click("#load-example");
  await page.waitForSelector("#layer1 tbody tr");
  await page.click("#check-entries");
  await page.waitForFunction(() => document.querySelectorAll("#entries .entry-card").length === 5, null, { timeout: 30000 });
}

test("bibtex results: statuses in words with record links, a labelled chart, filter and sort, progress with its count", async () => {
  const errors = await withPage(app.browser, "results-bibtex", async (page) => {
    await checkExample(page);
    const all = await cards(page);
    const byKey = Object.fromEntries(all.map((c) => [c.key, c]));
    // The made-up entry: the services a page reaches answered, none has it;
    // DBLP could not be asked, so it is not called absent.
    assert.equal(byKey.li2023quantum.check, "unchecked");
    assert.equal(byKey.li2023quantum.badge, "could not check");
    assert.equal(byKey.sadasivan2012methylphenidate.check, "matches");
    assert.equal(byKey.sadasivan2012methylphenidate.badge, "matches its record");
    // The three looks differ in more than colour: the badge's icon and edge.
    const look = (sel) => page.$eval(sel, (el) => [getComputedStyle(el, "::before").content, getComputedStyle(el).borderStyle].join(" "));
    assert.notEqual(await look('[data-key="li2023quantum"] .check-badge'), await look('[data-key="sadasivan2012methylphenidate"] .check-badge'));
    // Links to the record, built from its DOI, shown as links (not HTML from the API).
    const hrefs = await page.$$eval('[data-key="sadasivan2012methylphenidate"] .record-links a', (as) => as.map((a) => [a.textContent, a.getAttribute("href")]));
    assert.ok(hrefs.some(([t, h]) => t === "DOI" && h === "https://doi.org/10.1371/journal.pone.0033693"), JSON.stringify(hrefs));
    assert.ok(hrefs.every(([, h]) => h.startsWith("https://")), JSON.stringify(hrefs));
    assert.equal(await page.$('[data-key="li2023quantum"] .record-links'), null);
    // The chart: one labelled bar per status, counts in text, summing to the entries.
    const bars = await page.$$eval("#verdict-chart li", (ls) => ls.map((l) => [l.querySelector(".bar-label").textContent, Number(l.querySelector(".bar-count").textContent)]));
    assert.deepEqual(bars.map(([l]) => l), ["not found anywhere", "retracted", "found but differs", "doubtful on its face", "could not check", "matches its record"]);
    assert.equal(bars.reduce((s, [, n]) => s + n, 0), 5);
    for (const [label, n] of bars) assert.equal(n, all.filter((c) => c.badge === label).length, label);
    assert.equal(await page.textContent("#verdict-chart figcaption"), "Verdicts of 5 entries");
    // Bar lengths follow the counts (set through the CSSOM: the page's CSP
    // refuses style attributes); an empty status has no bar.
    const widths = await page.$$eval("#verdict-chart li", (ls) => ls.map((l) => [Number(l.querySelector(".bar-count").textContent), l.querySelector(".bar").getBoundingClientRect().width, l.querySelector(".bar-track").getBoundingClientRect().width]));
    const most = Math.max(...widths.map(([n]) => n));
    for (const [n, w, track] of widths) assert.ok(Math.abs(w - (track * n) / most) <= 1.5, JSON.stringify(widths));
    // On a phone the results never make the page scroll sideways.
    await page.setViewportSize({ width: 390, height: 800 });
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390);
    await page.setViewportSize({ width: 1280, height: 900 });
    // Filter by status, then sort worst first.
    await page.selectOption("#filter", "unchecked");
    const unchecked = all.filter((c) => c.check === "unchecked").map((c) => c.key);
    assert.deepEqual((await cards(page)).map((c) => c.key), unchecked);
    assert.ok(unchecked.includes("li2023quantum"), JSON.stringify(unchecked));
    assert.equal(await page.textContent("#shown-count"), `${unchecked.length} of 5 entries`);
    await page.selectOption("#filter", "all");
    await page.selectOption("#sort", "status");
    const order = ["not_found", "differs", "doubtful", "unchecked", "matches"];
    const sorted = (await cards(page)).map((c) => order.indexOf(c.check));
    assert.deepEqual(sorted, [...sorted].sort((a, b) => a - b));
    await page.selectOption("#sort", "key");
    const keys = (await cards(page)).map((c) => c.key);
    assert.deepEqual(keys, [...keys].sort());
    // The shared progress display: labelled, counted, with its cancel button idle.
    assert.equal(await page.getAttribute("#progress", "aria-label"), "Checking entries");
    assert.match(await page.textContent("#progress-text"), /^5 \/ 5/);
    assert.equal(await page.getAttribute("#progress-cancel", "aria-disabled"), "true");
    await screenshot(page, "results-bibtex");
  });
  assert.deepEqual(errors, []);
});

test("bibtex exports: JSON, CSV and Markdown reports built in the core; the fixed .bib holds only the corrections accepted, field by field", async () => {
  const errors = await withPage(app.browser, "results-exports", async (page) => {
    await app.open(page, "#/bibtex");
    await page.waitForSelector("#load-example");
    await page.click("#clear");
    // The real PLoS paper with a wrong year and venue, a made-up one, and a comment.
    const bib = [
      "% my paper's references",
      "@article{sadasivan2012methylphenidate,",
      "  title   = {Methylphenidate Exposure Induces Dopamine Neuron Loss and Activation of Microglia in the Basal Ganglia of Mice},",
      "  author  = {Sadasivan, Shankar and Pond, Brooks B. and Pani, Amar K. and Qu, Chunxu and Jiao, Yun and Smeyne, Richard J.},",
      "  journal = {Journal of Imaginary Results},",
      "  year    = {1999},",
      "  doi     = {10.1371/journal.pone.0033693}",
      "}",
      "",
      "@inproceedings{li2023quantum,",
      "  title     = {Quantum Gradient Routing for Provably Sparse Transformers},",
      "  author    = {Li, Wei and Novak, Anna},",
      "  booktitle = {Proceedings of the International Conference on Imaginary Learning},",
      "  year      = {2023}",
      "}",
      "",
    ].join("\n");
    await page.setInputFiles("#bib-input", { name: "mine.bib", mimeType: "text/plain", buffer: Buffer.from(bib) });
    await page.waitForFunction(() => document.querySelector("#inputs")?.textContent === "mine.bib: 2 entries");
    await page.click("#check-entries");
    await page.waitForFunction(() => document.querySelectorAll("#entries .entry-card").length === 2, null, { timeout: 30000 });
    assert.equal(await page.getAttribute('[data-key="sadasivan2012methylphenidate"]', "data-check"), "differs");
    assert.equal(await page.textContent('[data-key="sadasivan2012methylphenidate"] .check-badge'), "found but differs");

    // Corrections are reviewed one field at a time: nothing is applied
    // until accepted, a refused one stays out, the rest keep their bytes.
    const card = '[data-key="sadasivan2012methylphenidate"]';
    const fields = await page.$$eval(`${card} tr.change`, (rows) => rows.map((r) => r.dataset.field));
    assert.ok(fields.includes("year") && fields.includes("journal"), JSON.stringify(fields));
    assert.ok(await page.isDisabled("#download-fixed"), "nothing accepted, nothing to download");
    assert.match(await page.textContent("#review-tally"), /0 accepted, 0 refused, \d+ to review/);
    await page.click(`${card} tr.change[data-field="journal"] .refuse-change`);
    // "Accept the rest" takes the year and leaves the refusal standing.
    await page.click("#accept-rest");
    assert.match(await page.textContent("#review-tally"), /1 accepted, 1 refused, 0 to review/);
    assert.ok(await page.isDisabled("#accept-rest"));
    assert.equal(await page.getAttribute(`${card} tr.change[data-field="journal"]`, "data-decision"), "refused");
    assert.equal(await page.getAttribute(`${card} tr.change[data-field="year"]`, "data-decision"), "accepted");
    let fixed = await downloaded(page, "#download-fixed");
    assert.equal(fixed.name, "mine.fixed.bib");
    assert.ok(fixed.text.startsWith("% my paper's references\n@"), fixed.text);
    assert.doesNotMatch(fixed.text, /1999/);
    assert.match(fixed.text, /  year    = \{2012\},/);
    // The refused venue and every field not corrected, as typed.
    assert.ok(fixed.text.includes("  journal = {Journal of Imaginary Results},"), fixed.text);
    assert.ok(fixed.text.includes(bib.split("\n")[2]), fixed.text);
    // The entry no reachable index holds is left exactly as written.
    assert.ok(fixed.text.endsWith(bib.slice(bib.indexOf("@inproceedings{li2023quantum"))), fixed.text);
    // Accepting the venue after all puts it in.
    await page.click(`${card} tr.change[data-field="journal"] .accept-change`);
    fixed = await downloaded(page, "#download-fixed");
    assert.doesNotMatch(fixed.text, /Imaginary Results/);
    // "Copy all corrections" puts the corrected entries on the clipboard.
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.click("#copy-corrections");
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    assert.match(copied, /^@article\{sadasivan2012methylphenidate,\n/);
    assert.match(copied, /year = \{2012\}/);
    assert.doesNotMatch(copied, /li2023quantum/);

    const json = JSON.parse((await downloaded(page, "#export-report")).text);
    assert.equal(json.bib, "mine.bib");
    assert.equal(json.entries, 2);
    assert.deepEqual(json.online.entries.map((e) => e.key), ["sadasivan2012methylphenidate", "li2023quantum"]);

    const csv = await downloaded(page, "#export-csv");
    assert.equal(csv.name, "mine_report.csv");
    const rows = readCsv(csv.text);
    assert.deepEqual(rows[0], ["key", "line", "type", "status", "verdict", "reasons", "links", "format problems", "corrected"]);
    assert.equal(rows.length, 3);
    assert.ok(rows.every((r) => r.length === 9), JSON.stringify(rows));
    assert.deepEqual(rows.slice(1).map((r) => [r[0], r[1], r[3]]), [["sadasivan2012methylphenidate", "2", "found but differs"], ["li2023quantum", "10", "could not check"]]);
    assert.match(rows[1][6], /https:\/\/doi\.org\/10\.1371\/journal\.pone\.0033693/);
    // The corrected entry (commas, line breaks) survives the quoting whole.
    assert.match(rows[1][8], /^@article\{sadasivan2012methylphenidate,\n/);

    const md = await downloaded(page, "#export-md");
    assert.equal(md.name, "mine_report.md");
    assert.ok(md.text.startsWith("# BibTeX check: mine.bib\n"), md.text);
    // A page alone cannot ask DBLP, so the made-up entry is not claimed absent.
    assert.match(md.text, /\| could not check \| 1 \|/);
    assert.doesNotMatch(md.text, /\| not found anywhere \| [1-9]/);
    assert.match(md.text, /\| sadasivan2012methylphenidate \| 2 \| found but differs \|/);
  });
  assert.deepEqual(errors, []);
});

// Slow services: every answer of the mock arrives `ms` late; the returned
// counter says how many requests the page has sent so far.
const slowServices = async (page, ms) => {
  const sent = { count: 0 };
  await page.route(/\/api\//, async (route) => {
    sent.count += 1;
    await new Promise((r) => setTimeout(r, ms));
    await route.continue();
  });
  return sent;
};

// After a pause, requests already out may land; then nothing new may go out.
const assertQuietWhilePaused = async (page, sent, settleMs) => {
  await page.waitForTimeout(settleMs);
  const before = sent.count;
  await page.waitForTimeout(2000);
  assert.equal(sent.count, before, "no request is sent while paused");
};

test("progress: while a slow check runs the shared display estimates the time left; Cancel stops it and keeps the focus", async () => {
  const errors = await withPage(app.browser, "results-progress", async (page) => {
    await slowServices(page, 1500);
    await app.open(page, "#/bibtex");
    await page.waitForSelector("#load-example");
    await page.click("#clear");
    await page.click("#load-example");
    await page.waitForSelector("#layer1 tbody tr");
    await page.click("#check-entries");
    await page.waitForFunction(() => /^0 \/ 5 · estimating the time left$/.test(document.querySelector("#progress-text")?.textContent || ""));
    assert.equal(await page.getAttribute("#progress-cancel", "aria-disabled"), "false");
    await page.waitForFunction(() => /^[1-4] \/ 5 · about \d+ (s|min) left$/.test(document.querySelector("#progress-text")?.textContent || ""), null, { timeout: 30000 });
    await page.focus("#progress-cancel");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.querySelector("#progress-cancel")?.getAttribute("aria-disabled") === "true");
    // The pressed button keeps the focus; the run can be started again.
    assert.equal(await page.evaluate(() => document.activeElement?.id), "progress-cancel");
    assert.equal(await page.isDisabled("#check-entries"), false);
    assert.doesNotMatch(await page.textContent("#progress-text"), /left/);
  });
  assert.deepEqual(errors, []);
});

test("progress: Pause stops asking, keeps the estimate on screen, and Resume finishes from the checkpoint", async () => {
  const errors = await withPage(app.browser, "results-pause", async (page) => {
    const sent = await slowServices(page, 1000);
    await app.open(page, "#/bibtex");
    await page.waitForSelector("#load-example");
    await page.click("#clear");
    await page.click("#load-example");
    await page.waitForSelector("#layer1 tbody tr");
    await page.click("#check-entries");
    await page.waitForFunction(() => /^[1-4] \/ 5 · about \d+ (s|min) left$/.test(document.querySelector("#progress-text")?.textContent || ""), null, { timeout: 30000 });
    await page.click("#progress-pause");
    await page.waitForFunction(() => /^[1-4] \/ 5 · paused/.test(document.querySelector("#progress-text")?.textContent || ""));
    assert.equal(await page.textContent("#progress-pause"), "Resume");
    assert.equal(await page.evaluate(() => document.activeElement?.id), "progress-pause");
    await assertQuietWhilePaused(page, sent, 1500);
    await page.click("#progress-pause");
    await page.waitForFunction(() => document.querySelectorAll("#entries .entry-card").length === 5, null, { timeout: 60000 });
    assert.match(await page.textContent("#progress-text"), /^5 \/ 5/);
    assert.equal(await page.getAttribute("#progress-pause", "aria-disabled"), "true");
  });
  assert.deepEqual(errors, []);
});

test("progress: Cross-check pauses at its checkpoint and Resume finishes every paper", async () => {
  const errors = await withPage(app.browser, "results-cross-pause", async (page) => {
    const sent = await slowServices(page, 800);
    await app.open(page, "#/crosscheck");
    await page.click("#load-example");
    // Crossref only: the mock's keyless OpenAlex day is shared by this file's
    // tests, and the search test below needs what is left of it.
    await page.uncheck("#use-openalex");
    await page.click("#run-crosscheck");
    await page.waitForFunction(() => /^\d+ \/ 10 · /.test(document.querySelector("#crosscheck-progress-text")?.textContent || "") && document.querySelector("#crosscheck-progress-pause")?.getAttribute("aria-disabled") === "false", null, { timeout: 30000 });
    await page.click("#crosscheck-progress-pause");
    await page.waitForFunction(() => / · paused/.test(document.querySelector("#crosscheck-progress-text")?.textContent || ""));
    assert.equal(await page.textContent("#crosscheck-progress-pause"), "Resume");
    await assertQuietWhilePaused(page, sent, 1200);
    await page.click("#crosscheck-progress-pause");
    await page.waitForFunction(() => document.querySelector("#run-crosscheck")?.textContent === "Cross-check", null, { timeout: 90000 });
    assert.equal(await page.$$eval("#tiers tbody tr", (rs) => rs.length), 10);
    assert.match(await page.textContent("#crosscheck-progress-text"), /^10 \/ 10 · /);
  });
  assert.deepEqual(errors, []);
});

test("offline: one banner says the services cannot be reached and points to Settings; cards do not repeat the fetch error", async () => {
  const errors = await withPage(app.browser, "results-offline", async (page) => {
    await app.open(page, "#/bibtex");
    await page.waitForSelector("#load-example");
    assert.equal(await page.$("#offline-banner"), null);
    await page.click("#clear");
    await page.click("#load-example");
    await page.waitForSelector("#layer1 tbody tr");
    await page.context().setOffline(true);
    await page.waitForSelector("#offline-banner");
    assert.match(await page.textContent("#offline-banner"), /cannot be reached/);
    assert.equal(await page.getAttribute("#offline-banner a", "href"), "#/settings");
    await page.click("#check-entries");
    await page.waitForFunction(() => document.querySelectorAll("#entries .entry-card").length === 5, null, { timeout: 60000 });
    const all = await cards(page);
    assert.ok(all.every((c) => c.check === "unchecked"), JSON.stringify(all));
    const lines = await page.$$eval("#entries .score-line", (ls) => ls.map((l) => l.textContent));
    assert.ok(lines.every((l) => !/failed: /.test(l)), lines.join("\n"));
    assert.equal(await page.$$eval("#offline-banner", (b) => b.length), 1);
    await page.context().setOffline(false);
    await page.waitForFunction(() => !document.querySelector("#offline-banner"));
  });
  assert.deepEqual(errors, []);
});

test("unreachable services (every request blocked, the browser online): the same banner after a run", async () => {
  const errors = await withPage(app.browser, "results-blocked", async (page) => {
    // A firewall: every request to the services is refused before an answer.
    await page.route(/\/api\//, (route) => route.abort("connectionrefused"));
    await app.open(page, "#/bibtex");
    await page.waitForSelector("#load-example");
    await page.click("#clear");
    await page.click("#load-example");
    await page.waitForSelector("#layer1 tbody tr");
    assert.equal(await page.$("#offline-banner"), null);
    await page.click("#check-entries");
    await page.waitForFunction(() => document.querySelectorAll("#entries .entry-card").length === 5, null, { timeout: 60000 });
    await page.waitForSelector("#offline-banner");
    assert.match(await page.textContent("#offline-banner"), /cannot be reached \(offline, or a firewall\?\)/);
  });
  assert.deepEqual(errors, []);
});

test("search with every service blocked: the app's one banner, not only the per-service errors", async () => {
  const errors = await withPage(app.browser, "results-search-blocked", async (page) => {
    await page.route(/\/api\//, (route) => route.abort("connectionrefused"));
    await app.open(page, "#/search");
    await page.fill("#query", GIFT);
    await page.click("#run-search");
    await page.waitForSelector("#offline-banner", { timeout: 60000 });
    assert.match(await page.textContent("#offline-banner"), /A relay can be set in Settings/);
    // Once the services answer again, the next search takes the banner away.
    await page.unroute(/\/api\//);
    await page.click("#run-search");
    await page.waitForSelector("#results tbody tr", { timeout: 60000 });
    await page.waitForFunction(() => !document.querySelector("#offline-banner"));
  });
  assert.deepEqual(errors, []);
});

test("search: one paper from three services is one result listing them", async () => {
  const errors = await withPage(app.browser, "results-search", async (page) => {
    await app.open(page, "#/search");
    await page.fill("#query", GIFT);
    await page.click("#run-search");
    await page.waitForSelector("#results tbody tr", { timeout: 60000 });
    const rows = await page.$$eval("#results tbody tr", (rs) => rs.map((r) => [r.querySelector(".title-text").textContent, r.querySelector(".sources").textContent.trim().split(/\s+/)]));
    assert.deepEqual(rows, [[GIFT, ["crossref", "openalex", "s2"]]]);
  });
  assert.deepEqual(errors, []);
});

test("coverage: the pool may be an 8-bit .bib, read as BibTeX reads it with the encoding warning", async () => {
  const errors = await withPage(app.browser, "results-coverage-latin1", async (page) => {
    await app.open(page, "#/coverage");
    await page.waitForSelector("#tex-input");
    await page.click("#clear");
    await page.setInputFiles("#tex-input", { name: "main.tex", mimeType: "text/x-tex", buffer: Buffer.from("\\cite{cafe}\n") });
    const latin1 = Buffer.from("@misc{cafe, title={Caf\xe9 society}, year={2020}}\n", "latin1");
    await page.setInputFiles("#pool-input", { name: "pool.bib", mimeType: "text/plain", buffer: latin1 });
    await page.waitForSelector("#pool-warning");
    assert.match(await page.textContent("#pool-warning"), /read as latin-1 \(iso-8859-1\)/);
    assert.equal(await page.$(".file-errors li"), null);
    await page.waitForSelector("#cited");
    assert.equal(await page.textContent("#cited"), "1/1");
  });
  assert.deepEqual(errors, []);
});

// Every progress bar, meter, text area, select and form field on the
// pages, once they have something to show, must have an accessible name.
const unnamed = (page) =>
  page.$$eval("main progress, main meter, main textarea, main select, main input:not([type=hidden])", (els) =>
    els
      .filter((el) => {
        const labelled = [...(el.labels || [])].some((l) => l.textContent.trim());
        const aria = (el.getAttribute("aria-label") || "").trim();
        const by = (el.getAttribute("aria-labelledby") || "").split(/\s+/).some((id) => document.getElementById(id)?.textContent.trim());
        return !(labelled || aria || by);
      })
      .map((el) => `${el.tagName.toLowerCase()}#${el.id}`),
  );

test("labels: every progress bar, meter, text area and field on the pages has an accessible name", async () => {
  const errors = await withPage(app.browser, "results-labels", async (page) => {
    const missing = {};
    for (const [fragment, prepare] of [
      ["#/", null],
      ["#/pool", null],
      ["#/crosscheck", "#load-example"],
      ["#/bibtex", "#load-example"],
      ["#/coverage", "#load-example"],
      ["#/library", null],
      ["#/search", null],
      ["#/settings", null],
      ["#/write", null],
      ["#/match", null],
    ]) {
      await app.open(page, fragment);
      await page.waitForSelector("main h1");
      if (prepare) {
        await page.click(prepare);
        await page.waitForTimeout(300);
      }
      const m = await unnamed(page);
      if (m.length) missing[fragment] = m;
    }
    // The coverage gauge is there once the example is loaded.
    await app.open(page, "#/coverage");
    await page.click("#load-example");
    await page.waitForSelector("#gauge");
    assert.match(await page.getAttribute("#gauge", "aria-label"), /^pool papers cited: \d+ of \d+$/);
    assert.deepEqual(missing, {});
  });
  assert.deepEqual(errors, []);
});

// Raw access to the app's IndexedDB (database "citegate", store
// "workspace": JSON text under a document name), for the migration test.
const idb = (page, op, key, value) =>
  page.evaluate(
    ([op, key, value]) =>
      new Promise((resolve, reject) => {
        const open = indexedDB.open("citegate");
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const tx = db.transaction(["workspace"], op === "keys" ? "readonly" : "readwrite");
          const st = tx.objectStore("workspace");
          let out = null;
          if (op === "put") st.put(value, key);
          else if (op === "delete") st.delete(key);
          else if (op === "keys") {
            const r = st.getAllKeys();
            r.onsuccess = () => (out = r.result);
          }
          tx.oncomplete = () => (db.close(), resolve(out));
          tx.onerror = () => reject(tx.error);
        };
      }),
    [op, key, value],
  );

test("papers: New paper asks first, starts empty and keeps the previous paper's work; switching back brings it", async () => {
  const errors = await withPage(app.browser, "results-papers", async (page) => {
    await app.open(page, "#/bibtex");
    await page.waitForSelector("#paper-switch option", { state: "attached" });
    await page.click("#clear");
    await page.click("#load-example");
    await page.waitForFunction(() => document.querySelector("#inputs")?.textContent === "refs.bib: 5 entries");
    const first = await page.$eval("#paper-switch", (s) => s.selectedOptions[0].textContent);
    // Asked first: Cancel changes nothing.
    await page.click("#new-paper");
    await page.waitForSelector("#new-paper-form");
    assert.equal(await page.getAttribute("#new-paper", "aria-expanded"), "true");
    await page.click("#cancel-paper");
    await page.waitForFunction(() => !document.querySelector("#new-paper-form"));
    assert.equal(await page.textContent("#inputs"), "refs.bib: 5 entries");
    // A new paper starts empty.
    await page.click("#new-paper");
    await page.fill("#new-paper-name", "Second paper");
    await page.click("#create-paper");
    await page.waitForFunction(() => document.querySelector("#paper-switch")?.selectedOptions[0]?.textContent === "Second paper");
    await page.waitForFunction(() => document.querySelector("#inputs")?.textContent === "no .bib yet");
    const names = await page.$$eval("#paper-switch option", (os) => os.map((o) => o.textContent));
    assert.deepEqual(names, [first, "Second paper"]);
    // Switching back brings the first paper's .bib.
    const firstId = await page.$eval("#paper-switch", (s) => s.options[0].value);
    await page.selectOption("#paper-switch", firstId);
    await page.waitForFunction((n) => document.querySelector("#paper-switch")?.selectedOptions[0]?.textContent === n, first);
    await page.waitForFunction(() => document.querySelector("#inputs")?.textContent === "refs.bib: 5 entries");
  });
  assert.deepEqual(errors, []);
});

test("papers: a workspace from before papers is moved into a first paper", async () => {
  const errors = await withPage(app.browser, "results-papers-migrate", async (page) => {
    await app.open(page, "#/coverage");
    await page.waitForSelector("#paper-switch option", { state: "attached" });
    // The database as an older citegate left it: no list of papers, the
    // Coverage page's inputs under their bare name.
    for (const k of await idb(page, "keys")) if (k !== "settings" && k !== "library") await idb(page, "delete", k);
    const saved = { tex: [{ name: "legacy.tex", text: "\\cite{a}\n" }], pool: null, threshold: "0.9" };
    await idb(page, "put", "page:coverage", JSON.stringify(saved));
    await page.reload();
    await page.waitForFunction(() => document.querySelector("#inputs")?.textContent === "legacy.tex · no pool yet");
    assert.equal(await page.inputValue("#threshold"), "0.9");
    const keys = await idb(page, "keys");
    assert.ok(keys.includes("paper:p1:page:coverage"), keys.join(", "));
    assert.ok(!keys.includes("page:coverage"), keys.join(", "));
    assert.ok(keys.includes("papers"), keys.join(", "));
  });
  assert.deepEqual(errors, []);
});
