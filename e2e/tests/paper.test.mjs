// A paper as a reviewer holds it (issue 29): its PDF dropped on the BibTeX
// check page is read in the browser by the core's PDF reader (nothing is
// uploaded), its references shown as entries and checked against the mock
// services, and the report downloaded; a file that only claims to be a PDF
// is named in plain words and leaves the loaded work as it was.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import { serve } from "../harness.mjs";
import { withPage, DIST } from "../browser.mjs";
import { makeApi } from "../mock/router.mjs";

const PDF = new URL("../../core/tests/fixtures/pdf/", import.meta.url);
const app = serve({ dist: DIST, api: makeApi() });

// The typeset fixture (core/tests/fixtures/pdf, PROVENANCE.md there) prints
// the references its .bbl holds.
const TWOCOL = fs.readFileSync(new URL("twocol.pdf", PDF));
const PRINTED = (fs.readFileSync(new URL("twocol.bbl", PDF), "utf8").match(/\\bibitem/g) || []).length;

async function downloaded(page, selector) {
  const [d] = await Promise.all([page.waitForEvent("download"), page.click(selector)]);
  const file = await d.path();
  return { name: d.suggestedFilename(), text: fs.readFileSync(file, "utf8") };
}

test("paper: a dropped PDF's references are read in the page, checked, and reported; a broken PDF loses nothing", async () => {
  const errors = await withPage(app.browser, "paper-pdf", async (page) => {
    await app.open(page, "#/bibtex");
    await page.waitForSelector("#load-example");
    await page.click("#clear");
    await page.setInputFiles("#bib-input", { name: "twocol.pdf", mimeType: "application/pdf", buffer: TWOCOL });
    await page.waitForFunction((n) => document.querySelector("#inputs")?.textContent === `twocol.pdf: ${n} entries`, PRINTED, { timeout: 30000 });
    // Read from print: no format findings about how a .bib is written.
    await page.click("#check-entries");
    await page.waitForFunction((n) => document.querySelectorAll("#entries .entry-card").length === n, PRINTED, { timeout: 60000 });
    const classes = await page.$$eval("#entries .entry-card", (cards) => cards.map((c) => c.dataset.class));
    assert.ok(classes.every((c) => ["fabricated", "miscited", "retracted", "unverified", "valid"].includes(c)), JSON.stringify(classes));
    const report = JSON.parse((await downloaded(page, "#export-report")).text);
    assert.equal(report.bib, "twocol.pdf");
    assert.equal(report.online.entries.length, PRINTED);

    // Issue 31: the checked paper and its verdicts come back after a reload.
    await page.reload();
    await page.waitForFunction((n) => document.querySelector("#inputs")?.textContent === `twocol.pdf: ${n} entries`, PRINTED, { timeout: 30000 });
    await page.waitForFunction((n) => document.querySelectorAll("#entries .entry-card").length === n, PRINTED, { timeout: 30000 });
    assert.deepEqual(await page.$$eval("#entries .entry-card", (cards) => cards.map((c) => c.dataset.class)), classes);

    // A "PDF" that is not one: named in plain words, the paper and its results stay.
    await page.setInputFiles("#bib-input", { name: "scan.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.7\n% nothing readable follows\n") });
    await page.waitForSelector(".file-errors li");
    assert.match(await page.textContent(".file-errors li"), /^scan\.pdf was not loaded: /);
    assert.equal(await page.textContent("#inputs"), `twocol.pdf: ${PRINTED} entries`);
    assert.equal(await page.$$eval("#entries .entry-card", (c) => c.length), PRINTED);
  });
  assert.deepEqual(errors, []);
});

test("paper: a pasted reference list is read into entries and checked; a pasted arXiv id says where its PDF is and loses nothing", async () => {
  const errors = await withPage(app.browser, "paper-paste", async (page) => {
    await app.open(page, "#/bibtex");
    await page.waitForSelector("#load-example");
    await page.click("#clear");
    await page.click("#paste summary");
    assert.equal(await page.isDisabled("#read-pasted"), true, "nothing pasted, nothing to read");
    const list = [
      "[1] P. A. R. Ade, N. Aghanim, et al. Planck 2015 results. XIII. Cosmological parameters. A&A, 594:A13, 2016. doi:10.1051/0004-6361/201525830",
      "[2] D. Tody. IRAF in the Nineties. In Astronomical Data Analysis Software and Systems II, volume 52 of ASP Conference Series, page 173, 1993.",
    ].join("\n");
    await page.fill("#paste-refs", list);
    await page.click("#read-pasted");
    await page.waitForFunction(() => document.querySelector("#inputs")?.textContent === "pasted references.txt: 2 entries");
    await page.click("#check-entries");
    await page.waitForFunction(() => document.querySelectorAll("#entries .entry-card").length === 2, null, { timeout: 30000 });
    const classes = await page.$$eval("#entries .entry-card", (cards) => cards.map((c) => c.dataset.class));
    assert.ok(!classes.includes("fabricated"), JSON.stringify(classes));
    // A lone arXiv id names a paper the page cannot fetch: the message says
    // where its PDF is, and the list and its results stay.
    await page.fill("#paste-refs", "https://arxiv.org/abs/1706.03762v5");
    await page.click("#read-pasted");
    await page.waitForFunction(() => !document.querySelector("#paste-error")?.hidden);
    assert.match(await page.textContent("#paste-error"), /^arXiv:1706\.03762 names a paper.*https:\/\/arxiv\.org\/pdf\/1706\.03762/);
    assert.equal(await page.textContent("#inputs"), "pasted references.txt: 2 entries");
    assert.equal(await page.$$eval("#entries .entry-card", (c) => c.length), 2);
  });
  assert.deepEqual(errors, []);
});
