import { test } from "node:test";
import { serve } from "../harness.mjs";
import assert from "node:assert/strict";
import { withPage, screenshot, DIST } from "../browser.mjs";

const app = serve({ dist: DIST });

test("title match page scores a typed pair like python-Levenshtein", async () => {
  const errors = await withPage(app.browser, "title-match", async (page) => {
    await page.goto(app.server.url + "#/match");
    await page.fill("#candidate", "Attention is all you need");
    await page.fill("#found", "Attention Is All You Need!");
    await page.waitForFunction(() => document.querySelector("#score")?.textContent === "100");
    assert.equal(await page.textContent("#verdict"), "PASS");
    // A substitution costs two edits: "abc" vs "abd" is 1 - 2/6 = 66.67, rounded 67, which fails.
    await page.fill("#candidate", "abc");
    await page.fill("#found", "abd");
    await page.waitForFunction(() => document.querySelector("#score")?.textContent === "67");
    assert.equal(await page.textContent("#verdict"), "FAIL");
    assert.equal(await page.textContent("#norm-candidate"), "abc");
    await screenshot(page, "page-title-match");
  });
  assert.deepEqual(errors, []);
});

test("load example shows the substring bypass at work", async () => {
  await withPage(app.browser, "title-match-example", async (page) => {
    await page.goto(app.server.url + "#/match");
    await page.click("#load-example");
    await page.waitForFunction(() => document.querySelector("#score")?.textContent === "95");
    assert.equal(await page.textContent("#verdict"), "PASS");
    assert.equal(await page.textContent("#norm-found"), "linformer self attention with linear complexity");
  });
});

test("every navigation link opens its page", async () => {
  await withPage(app.browser, "navigation", async (page) => {
    await page.goto(app.server.url);
    const links = await page.$$eval("nav a", (as) => as.map((a) => [a.getAttribute("href"), a.textContent]));
    assert.ok(links.length >= 8, `only ${links.length} links`);
    for (const [href, label] of links) {
      // Tools (Title match) sit in a menu that opens first.
      if (await page.$(`#tools-menu a[href="${href}"]`)) await page.click("#tools-menu > summary");
      await page.click(`nav a[href="${href}"]`);
      await page.waitForFunction((l) => document.querySelector("main h1")?.textContent === l, label);
    }
  });
});
