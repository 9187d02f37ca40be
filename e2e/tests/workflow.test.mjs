// The app as a researcher meets it: the start page, the navigation, the
// Library's imports that never lose records, Settings that refuse typos and
// keep ?api= to the visit, and tables that never split a word.
import { test } from "node:test";
import assert from "node:assert/strict";
import { serve } from "../harness.mjs";
import { withPage, screenshot, DIST } from "../browser.mjs";
import { makeApi } from "../mock/router.mjs";
import fs from "node:fs";
import zlib from "node:zlib";

const app = serve({ dist: DIST, api: makeApi() });

const count = (page) => page.textContent("#library-count");
const waitCount = (page, n) =>
  page.waitForFunction((want) => document.querySelector("#library-count")?.textContent === want, `${n} records`);
const status = (page) => page.textContent("#library-status");

// Words of table cells that the layout broke across lines: for every word
// of every cell, the number of distinct line boxes its glyphs sit on. A
// break right after a hyphen is the ordinary place to wrap a hyphenated
// word ("alpha-|synuclein"), so each hyphen-ended part is measured alone.
const brokenWords = (page, selector) =>
  page.evaluate((sel) => {
    const broken = [];
    for (const td of document.querySelectorAll(sel)) {
      const walker = document.createTreeWalker(td, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const m of node.data.matchAll(/[^\s-]+-*|-+/g)) {
          const r = document.createRange();
          r.setStart(node, m.index);
          r.setEnd(node, m.index + m[0].length);
          const tops = new Set([...r.getClientRects()].filter((x) => x.width > 0).map((x) => Math.round(x.top)));
          if (tops.size > 1) broken.push(m[0]);
        }
      }
    }
    return broken;
  }, selector);

test("start page: the default route says what citegate does, offers four ways in and the steps", async () => {
  const errors = await withPage(app.browser, "start", async (page) => {
    await app.open(page, "");
    await page.waitForSelector("#ways-in");
    assert.equal(await page.textContent("main h1"), "Check a paper's citations before you submit it");
    assert.equal(await page.title(), "citegate — check your citations");
    const ways = await page.$$eval("#ways-in a", (as) => as.map((a) => [a.getAttribute("href"), a.querySelector("strong").textContent]));
    assert.deepEqual(ways, [
      ["#/pool", "Build a pool from an outline"],
      ["#/coverage", "Gate a draft"],
      ["#/bibtex", "Check a paper"],
      ["#/bibtex", "Check a .bib"],
    ]);
    // The header offers the paper check from every page.
    assert.equal(await page.getAttribute("header #check-paper", "href"), "#/bibtex");
    const steps = await page.$$eval("#workflow li a", (as) => as.map((a) => a.textContent));
    assert.deepEqual(steps, ["Pool", "Draft", "Coverage", "BibTeX check"]);
    // Title match is no longer a main page: it sits in the Tools menu.
    const main = await page.$$eval("nav > a", (as) => as.map((a) => a.textContent));
    assert.ok(!main.includes("Title match"), main.join(", "));
    await page.click("#tools-menu summary");
    await page.click("#tools-menu a[href='#/match']");
    await page.waitForFunction(() => document.querySelector("main h1")?.textContent === "Title match");
    assert.equal(await page.title(), "Title match — citegate");
    // An unknown fragment lands on the start page, not on a tool.
    await app.open(page, "#/nowhere");
    await page.waitForSelector("#ways-in");
    await page.reload();
    await page.waitForSelector("#ways-in");
    // The skip link moves focus to the page's content.
    await page.keyboard.press("Tab");
    assert.equal(await page.evaluate(() => document.activeElement?.className), "skip-link");
    await page.keyboard.press("Enter");
    assert.equal(await page.evaluate(() => document.activeElement?.id), "main");
    assert.equal(await page.getAttribute("link[rel='icon']", "href").then((h) => h.endsWith(".svg")), true);
    await screenshot(page, "page-start");
    // The system's dark setting darkens the page.
    await page.emulateMedia({ colorScheme: "dark" });
    const bg = await page.evaluate(() => getComputedStyle(document.body.parentElement).backgroundColor);
    const [r, g, b] = bg.match(/\d+/g).map(Number);
    assert.ok(r + g + b < 150, `dark background, got ${bg}`);
    await screenshot(page, "page-start-dark");
  });
  assert.deepEqual(errors, []);
});

test("library: a bad import leaves it as it was, imports merge, clear and import can be undone", async () => {
  const errors = await withPage(app.browser, "library-merge", async (page) => {
    await app.open(page, "#/library");
    await page.waitForSelector("#library-count");
    await page.click("#load-example");
    await waitCount(page, 2);
    // A file with no readable record: refused, nothing lost.
    await page.setInputFiles("#library-file", { name: "broken.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from("{oops\nnot json\n") });
    await page.waitForFunction(() => document.querySelector("#library-status")?.textContent.startsWith("nothing imported"));
    assert.match(await status(page), /broken\.jsonl has no readable record \(2 unreadable lines\); the library is unchanged/);
    assert.equal(await count(page), "2 records");
    // A file with one new record and one already there: merged.
    const incoming = [
      JSON.stringify({ id: "Lee2024", title: "A New Paper", doi: "10.9999/new" }),
      JSON.stringify({ id: "dup", title: "Attention", doi: "10.48550/ARXIV.1706.03762" }),
    ].join("\n");
    await page.setInputFiles("#library-file", { name: "more.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from(incoming + "\n") });
    await waitCount(page, 3);
    assert.equal(await status(page), "1 added from more.jsonl, 1 already in the library");
    // Loading the example again adds nothing.
    await page.click("#load-example");
    await page.waitForFunction(() => document.querySelector("#library-status")?.textContent.startsWith("0 added"));
    assert.equal(await count(page), "3 records");
    // Clear, then undo: every record back, and still there after a reload.
    await page.click("#clear-library");
    await waitCount(page, 0);
    await page.click("#undo-library");
    await waitCount(page, 3);
    await page.reload();
    await waitCount(page, 3);
  });
  assert.deepEqual(errors, []);
});

test("settings: typos are refused naming the field, reset restores defaults, ?api= lasts for the visit only", async () => {
  const errors = await withPage(app.browser, "settings-validate", async (page) => {
    await app.open(page, "#/settings");
    await page.waitForSelector("#url-override");
    const banner = () => page.textContent("#settings-status");
    await page.fill("#mailto", "not-an-email");
    await page.click("#save-settings");
    await page.waitForFunction(() => document.querySelector("#settings-status")?.textContent.startsWith("not saved"));
    assert.match(await banner(), /Contact email: `not-an-email` is not an email address/);
    assert.equal(await page.inputValue("#mailto"), "not-an-email", "what was typed is kept");
    await page.fill("#mailto", "ada@lab.example.org");
    await page.fill("#crossref-base", "htp:/broken");
    await page.click("#save-settings");
    await page.waitForFunction(() => /Crossref base URL/.test(document.querySelector("#settings-status")?.textContent));
    assert.match(await banner(), /must start with https:\/\/ or http:\/\//);
    await page.click("#reset-settings");
    await page.waitForFunction(() => document.querySelector("#settings-status")?.textContent.startsWith("settings reset"));
    assert.equal(await page.inputValue("#crossref-base"), "https://api.crossref.org");
    assert.equal(await page.inputValue("#mailto"), "");
    // Opened with ?api=, the form shows the override; opened without it, the saved defaults.
    await page.reload();
    await page.waitForSelector("#url-override");
    assert.ok((await page.inputValue("#s2-base")).startsWith(app.server.url));
    await page.goto(app.server.url + "#/settings");
    await page.waitForSelector("#s2-base");
    assert.equal(await page.inputValue("#s2-base"), "https://api.semanticscholar.org/graph/v1");
    assert.equal(await page.$("#url-override"), null);
  });
  assert.deepEqual(errors, []);
});

for (const [width, height] of [[1280, 900], [390, 844]]) {
  test(`tables never break inside a word at ${width} px`, async () => {
    const errors = await withPage(app.browser, `no-split-${width}`, async (page) => {
      await page.setViewportSize({ width, height });
      await app.open(page, "#/library");
      await page.waitForSelector("#library-count");
      await page.click("#load-example");
      await page.waitForSelector("#library-table tbody tr");
      assert.deepEqual(await brokenWords(page, "#library-table td"), []);
      await app.open(page, "#/settings");
      await page.waitForSelector("#backends tbody tr");
      assert.deepEqual(await brokenWords(page, "#backends td"), []);
      // The page itself never scrolls sideways.
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1));
      await screenshot(page, `tables-${width}`);
    });
    assert.deepEqual(errors, []);
  });
}

// The workspace document whose key ends with `suffix` ("page:bibtex",
// "page:coverage"), as IndexedDB holds it now; null when there is none.
const storedDoc = (page, suffix) =>
  page.evaluate(
    (suffix) =>
      new Promise((resolve) => {
        const open = indexedDB.open("citegate");
        open.onerror = () => resolve(null);
        open.onsuccess = () => {
          const db = open.result;
          const tx = db.transaction(["workspace"], "readonly");
          const st = tx.objectStore("workspace");
          const keys = st.getAllKeys();
          const values = st.getAll();
          tx.oncomplete = () => {
            db.close();
            const i = keys.result.findIndex((k) => String(k).endsWith(suffix));
            resolve(i < 0 ? null : String(values.result[i]));
          };
          tx.onerror = () => resolve(null);
        };
      }),
    suffix,
  );

// Waits until the page's document satisfies `ok`: a reload right after a
// change can otherwise abort the write still in flight (Chromium aborts a
// page's open IndexedDB transactions when it navigates away).
const untilStored = async (page, suffix, ok) => {
  for (let i = 0; i < 100; i++) {
    if (ok(await storedDoc(page, suffix))) return;
    await page.waitForTimeout(100);
  }
  throw new Error(`the workspace document ${suffix} was not written within 10 s`);
};

test("work travels: the pool built on Pool reaches Cross-check and Coverage, and Coverage keeps its files across reloads", async () => {
  const errors = await withPage(app.browser, "travel", async (page) => {
    await app.open(page, "#/pool");
    await page.evaluate(() => new Promise((ok) => { const r = indexedDB.deleteDatabase("citegate"); r.onsuccess = r.onerror = r.onblocked = ok; }));
    await page.reload();
    await page.click("#load-example");
    await page.waitForFunction(() => document.querySelector("#dedup-summary")?.textContent.includes("12 after pre-dedup"));
    await page.click("#verify");
    await page.waitForFunction(() => document.querySelector("#pool-summary")?.textContent.startsWith("8 papers"), null, { timeout: 60000 });
    await app.open(page, "#/crosscheck");
    await page.reload();
    await page.waitForFunction(() => document.querySelector("#pool-source")?.textContent === "pool: the pool in this workspace");
    await app.open(page, "#/coverage");
    await page.reload();
    await page.waitForFunction(() => document.querySelector("#inputs")?.textContent.includes("built on the Pool page"));
    const tex = "\\section{Intro}\\citep{vaswani2017attention}\n";
    await page.setInputFiles("#tex-input", { name: "intro.tex", mimeType: "text/x-tex", buffer: Buffer.from(tex) });
    await page.waitForSelector("#cited");
    const cited = await page.textContent("#cited");
    assert.match(cited, /^\d+\/8$/);
    await untilStored(page, "page:coverage", (doc) => doc?.includes("intro.tex"));
    await page.reload();
    await page.waitForFunction(() => document.querySelector("#inputs")?.textContent.startsWith("intro.tex"));
    assert.equal(await page.textContent("#cited"), cited);
    await page.click("#clear");
    await untilStored(page, "page:coverage", (doc) => doc !== null && !doc.includes("intro.tex"));
    await page.reload();
    await page.waitForFunction(() => document.querySelector("#inputs")?.textContent.startsWith("no .tex yet"));
  });
  assert.deepEqual(errors, []);
});

// A stored (uncompressed) zip archive of `files` ({path: text}), as an
// Overleaf project download holds them.
function zipOf(files) {
  const { crc32 } = zlib;
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const [path, text] of Object.entries(files)) {
    const name = Buffer.from(path);
    const body = Buffer.from(text);
    const crc = crc32(body);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(body.length, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, body);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(body.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += 30 + name.length + body.length;
  }
  const dir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(files).length, 8);
  end.writeUInt16LE(Object.keys(files).length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}

test("coverage takes an Overleaf project .zip: paths kept, so \\input of a sub-folder file resolves", async () => {
  const errors = await withPage(app.browser, "zip-drop", async (page) => {
    await app.open(page, "#/coverage");
    await page.waitForSelector("#load-example");
    await page.click("#clear");
    const pool = fs.readFileSync(new URL("../../web/examples/citation_pool.json", import.meta.url), "utf8");
    await page.setInputFiles("#pool-input", { name: "citation_pool.json", mimeType: "application/json", buffer: Buffer.from(pool) });
    const project = zipOf({
      "main.tex": "\\documentclass{article}\\begin{document}\\input{sections/intro}\\end{document}\n",
      "sections/intro.tex": "Attention \\citep{vaswani2017attention}.\n",
      "figures/plot.pdf": "%PDF-1.4 not text \u0000\u0001",
    });
    await page.setInputFiles("#tex-input", { name: "project.zip", mimeType: "application/zip", buffer: project });
    await page.waitForSelector("#cited");
    const inputs = await page.textContent("#inputs");
    assert.ok(inputs.startsWith("main.tex, sections/intro.tex ·"), inputs);
    assert.doesNotMatch(await page.textContent(".coverage"), /was not given/);
    assert.match(await page.textContent("#cited"), /^1\//);
  });
  assert.deepEqual(errors, []);
});

// The BibTeX page's stored document (JSON text) in the open paper's
// workspace, or null: a reload must wait until a change is written, or it
// races the IndexedDB transaction (seen as a flaky failure under load).
test("bibtex check: inputs survive a reload, another paper's .bib sets the old .tex files aside, Clear empties it", async () => {
  const errors = await withPage(app.browser, "bibtex-keep", async (page) => {
    await app.open(page, "#/bibtex");
    await page.waitForSelector("#load-example");
    await page.click("#clear");
    const bib = "@article{a1, title={One}, author={A, B}, journal={J}, year={2020}}\n";
    await page.setInputFiles("#bib-input", { name: "paper1.bib", mimeType: "text/plain", buffer: Buffer.from(bib) });
    await page.setInputFiles("#tex-input", { name: "paper1.tex", mimeType: "text/x-tex", buffer: Buffer.from("\\cite{a1}\n") });
    await page.waitForFunction(() => document.querySelector("#inputs")?.textContent === "paper1.bib: 1 entry · paper1.tex");
    await untilStored(page, "page:bibtex", (doc) => doc?.includes("paper1.bib") && doc.includes("paper1.tex"));
    await page.reload();
    await page.waitForFunction(() => document.querySelector("#inputs")?.textContent === "paper1.bib: 1 entry · paper1.tex");
    // The next paper's .bib: the first paper's .tex is set aside, with a note.
    await page.setInputFiles("#bib-input", { name: "paper2.bib", mimeType: "text/plain", buffer: Buffer.from("@misc{b2, title={Two}}\n") });
    await page.waitForFunction(() => document.querySelector("#inputs")?.textContent === "paper2.bib: 1 entry");
    assert.match(await page.textContent("#bib-note"), /the \.tex files given with paper1\.bib were set aside/);
    await page.click("#clear");
    await untilStored(page, "page:bibtex", (doc) => !doc?.includes("paper2.bib"));
    await page.reload();
    await page.waitForFunction(() => document.querySelector("#inputs")?.textContent === "no .bib yet");
  });
  assert.deepEqual(errors, []);
});

test("bibtex check reads an 8-bit .bib as BibTeX does, with a warning naming the encoding", async () => {
  const errors = await withPage(app.browser, "bibtex-latin1", async (page) => {
    await app.open(page, "#/bibtex");
    await page.waitForSelector("#load-example");
    await page.click("#clear");
    const latin1 = Buffer.from("@misc{cafe, title={Caf\xe9 society}, year={2020}}\n", "latin1");
    await page.setInputFiles("#bib-input", { name: "latin1.bib", mimeType: "text/plain", buffer: latin1 });
    await page.waitForFunction(() => document.querySelector("#inputs")?.textContent === "latin1.bib: 1 entry");
    await page.waitForSelector("#layer1 tbody tr");
    assert.match(await page.textContent("#layer1"), /read as latin-1 \(iso-8859-1\)/);
    assert.equal(await page.$(".file-errors li"), null);
  });
  assert.deepEqual(errors, []);
});
