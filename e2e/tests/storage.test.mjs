// Nothing the person did is lost when the browser's storage is full
// (issue 30). A full quota is made by the test: Chromium 156 headless does
// not enforce DevTools' Storage.overrideQuotaForOrigin on IndexedDB writes
// (measured 2026-12-05: with the quota overridden to 1 byte and 73,728 bytes
// in use, a 100 KB put still completed, in an incognito and in a persistent
// context), so IndexedDB's put is made to throw the DOMException a full
// browser gives (QuotaExceededError) while `fullStorage` is set. A `.bib` is
// dropped on the BibTeX check; the page keeps the file and its entries, one
// banner names what was not saved and how to free space, with a link to
// Settings; once space is back, the next save takes the banner away.
import { test } from "node:test";
import assert from "node:assert/strict";
import { serve } from "../harness.mjs";
import { withPage, DIST } from "../browser.mjs";
import { makeApi } from "../mock/router.mjs";

const app = serve({ dist: DIST, api: makeApi() });

const bib = (n) =>
  Array.from({ length: n }, (_, i) =>
    [`@article{entry${i},`, `  title = {A study of storage number ${i}},`, "  author = {Doe, Jane},", "  journal = {Journal of Tests},", "  year = {2020}", "}", ""].join("\n"),
  ).join("\n");

test("a full storage quota: the loaded .bib stays on the page and one banner says what was not saved", async () => {
  const errors = await withPage(app.browser, "storage-quota-full", async (page) => {
    await app.open(page, "#/bibtex");
    await page.waitForSelector("#bib-input");
    // Let the app's own start-up writes finish before the quota is cut.
    await page.waitForSelector("#papers", { timeout: 10000 });
    await page.evaluate(() => {
      const put = IDBObjectStore.prototype.put;
      window.fullStorage = true;
      IDBObjectStore.prototype.put = function (...args) {
        if (window.fullStorage) throw new DOMException("the quota has been exceeded", "QuotaExceededError");
        return put.apply(this, args);
      };
    });

    await page.setInputFiles("#bib-input", { name: "big.bib", mimeType: "text/plain", buffer: Buffer.from(bib(40)) });
    await page.waitForSelector("#unsaved-banner", { timeout: 15000 });
    const banner = await page.textContent("#unsaved-banner");
    assert.match(banner, /^Not saved in this browser: the BibTeX check's files — the browser's storage for this site is full\./, banner);
    assert.match(banner, /clear the response cache in Settings/, banner);
    assert.doesNotMatch(banner, /quotaexceeded/i, banner);
    assert.equal(await page.getAttribute("#unsaved-banner a", "href"), "#/settings");

    // The work is still on the page: the file, its 40 entries, their checks.
    await page.waitForFunction(() => document.querySelector("#inputs")?.textContent === "big.bib: 40 entries");

    // Space again: the next save of the same document clears the banner.
    await page.evaluate(() => (window.fullStorage = false));
    await page.setInputFiles("#bib-input", { name: "small.bib", mimeType: "text/plain", buffer: Buffer.from(bib(2)) });
    await page.waitForFunction(() => document.querySelector("#inputs")?.textContent === "small.bib: 2 entries");
    await page.waitForSelector("#unsaved-banner", { state: "detached", timeout: 15000 });
  });
  assert.deepEqual(errors, []);
});
