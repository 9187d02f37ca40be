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

    // A "PDF" that is not one: named in plain words, the paper and its results stay.
    await page.setInputFiles("#bib-input", { name: "scan.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.7\n% nothing readable follows\n") });
    await page.waitForSelector(".file-errors li");
    assert.match(await page.textContent(".file-errors li"), /^scan\.pdf was not loaded: /);
    assert.equal(await page.textContent("#inputs"), `twocol.pdf: ${PRINTED} entries`);
    assert.equal(await page.$$eval("#entries .entry-card", (c) => c.length), PRINTED);
  });
  assert.deepEqual(errors, []);
});
