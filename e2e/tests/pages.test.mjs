// The offline pages from "Load example", and files dropped through the picker.
import { test } from "node:test";
import { serve } from "../harness.mjs";
import assert from "node:assert/strict";
import { withPage, screenshot, DIST } from "../browser.mjs";
import { makeApi } from "../mock/router.mjs";

const app = serve({ dist: DIST, api: makeApi() });


test("coverage of the example draft: 7 of 10 cited, 9 needed, fail; foreign keys with file:line", async () => {
  const errors = await withPage(app.browser, "coverage", async (page) => {
    await app.open(page, "#/coverage");
    await page.click("#load-example");
    await page.waitForSelector("#cited");
    assert.equal(await page.textContent("#cited"), "7/10");
    assert.equal(await page.textContent("#verdict"), "FAIL");
    assert.equal(await page.textContent("#summary"), "Coverage: 7/10 = 70.0% (threshold 90% = 9)");
    const foreign = await page.$$eval("#foreign tbody tr", (rs) => rs.map((r) => [...r.cells].map((c) => c.textContent)));
    assert.deepEqual(foreign, [
      ["smith2099quantum", "related.tex:8"],
      ["wang2020lin", "related.tex:3"],
    ]);
    const tags = await page.$$eval("#uncited h3", (hs) => hs.map((h) => h.textContent));
    assert.deepEqual(tags, ["related_work[2.1] (1)", "related_work[2.2] (2)"]);
    assert.match(await page.textContent("#reprompt"), /dao2022flashattention/);
    // Sync keys offers related.tex with its one renamed key.
    const sync = await page.$$eval("#sync button", (bs) => bs.map((b) => b.textContent));
    assert.deepEqual(sync, ["Download main.tex (0 keys changed)", "Download related.tex (1 key changed)"]);
    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#sync button >> nth=1")]);
    const text = await (await download.createReadStream()).toArray();
    assert.match(Buffer.concat(text).toString(), /\\citep\{wang2020linformer\}/);
    await screenshot(page, "page-coverage");
  });
  assert.deepEqual(errors, []);
});

test("coverage explains a bad pool file and shows markup in titles as text", async () => {
  await withPage(app.browser, "coverage-bad", async (page) => {
    await app.open(page, "#/coverage");
    await page.setInputFiles("#tex-input", { name: "a.tex", mimeType: "text/plain", buffer: Buffer.from("\\cite{x1}\n") });
    await page.setInputFiles("#pool-input", { name: "pool.json", mimeType: "application/json", buffer: Buffer.from('{"papers": [ {"title": 1,}') });
    await page.waitForSelector("#coverage-error");
    assert.match(await page.textContent("#coverage-error"), /^pool\.json: /);
    const pool = { papers: [{ title: "<img src=x onerror=alert(1)>", bibtex_key: "x2", discovered_for: ["intro"] }] };
    await page.setInputFiles("#pool-input", { name: "pool.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(pool)) });
    await page.waitForSelector("#uncited li");
    assert.equal(await page.textContent("#uncited li"), "x2 <img src=x onerror=alert(1)>");
    assert.equal(await page.$$eval("#uncited img", (x) => x.length), 0);
    // Files that are not text: each named with what it is in plain words, no
    // byte offsets (an 8-bit .bib is read as BibTeX reads it: results.test.mjs).
    const utf16 = (text, bom) => Buffer.concat([Buffer.from(bom ? [0xff, 0xfe] : []), Buffer.from(text, "utf16le")]);
    const zip = Buffer.concat([Buffer.from("PK\x03\x04", "latin1"), Buffer.alloc(40, 7)]);
    for (const [name, buffer, says] of [
      ["utf16.bib", utf16("@misc{k, title={T}}\n", true), "utf16.bib was not loaded: it is saved as UTF-16 text; save it as UTF-8 and drop it again"],
      ["utf16-nobom.bib", utf16("@misc{k}\n", false), "utf16-nobom.bib was not loaded: it is not a text file (a PDF, an image, other binary data, or text saved as UTF-16?)"],
      ["refs.bib", zip, "refs.bib was not loaded: it is a zip archive or a Word document, not a text file"],
    ]) {
      await page.setInputFiles("#pool-input", { name, mimeType: "text/plain", buffer });
      await page.waitForFunction((n) => document.querySelector(".file-errors li")?.textContent.startsWith(n), name);
      assert.equal(await page.textContent(".file-errors li"), says);
    }
  });
});

test("bibtex check of the example leaves the made-up entry unverified without DBLP and verifies a real one", async () => {
  const errors = await withPage(app.browser, "bibtex", async (page) => {
    await app.open(page, "#/bibtex");
    await page.click("#load-example");
    await page.waitForSelector("#layer1 tbody tr");
    // The DOI written as a URL is a layer-1 warning with the bare DOI as fix.
    assert.ok((await page.textContent("#layer1")).includes("10.1038/srep16696"));
    await page.click("#check-entries");
    await page.waitForFunction(() => document.querySelectorAll("#entries .entry-card").length === 5, null, { timeout: 30000 });
    const status = await page.$$eval("#entries .entry-card", (cs) => Object.fromEntries(cs.map((c) => [c.dataset.key, c.dataset.status])));
    // Made up: no index the page reaches has it, and DBLP, which a page
    // cannot ask, is named instead of a claim that it does not exist.
    assert.equal(status.li2023quantum, "unverified");
    assert.equal(status.sadasivan2012methylphenidate, "verified");
    assert.equal(status.vaswani2017attention, "verified");
    assert.match(await page.textContent('[data-key="li2023quantum"] .reason'), /DBLP could not be asked.*relay/);
    assert.ok(["low match", "failed", "partial match"].includes(status.lee2012human), status.lee2012human);
    await screenshot(page, "page-bibtex");
  });
  assert.deepEqual(errors, []);
});

test("pages without storage are shown at once: with IndexedDB never opening, Title match and Start render, the Pool says it is starting", async () => {
  await withPage(app.browser, "storage-wait", async (page) => {
    // An IndexedDB whose open request never succeeds nor fails.
    await page.addInitScript(() => {
      indexedDB.open = () => ({});
    });
    await app.open(page, "#/match");
    await page.waitForSelector("#score");
    await page.fill("#candidate", "Attention Is All You Need");
    await page.fill("#found", "Attention is all you need");
    await page.waitForFunction(() => document.querySelector("#score")?.textContent === "100");
    assert.equal(await page.$("#loading"), null);
    await page.evaluate(() => { location.hash = "#/"; });
    await page.waitForFunction(() => document.title === "citegate — check your citations");
    assert.equal(await page.$("#loading"), null);
    await page.evaluate(() => { location.hash = "#/pool"; });
    await page.waitForSelector("#loading");
    assert.equal(await page.textContent("#loading"), "starting…");
  });
});
