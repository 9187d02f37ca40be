// The JavaScript API's browser package (js/pkg-web, built by js/build.sh)
// imported by a plain page (js/test/page.html) in headless Chromium.
import { test } from "node:test";
import { serve } from "../harness.mjs";
import assert from "node:assert/strict";
import path from "node:path";
import { withPage } from "../browser.mjs";

const app = serve({ dist: path.resolve("../js") });

test("a plain page imports pkg-web and gets scores, checks and typed errors", async () => {
  const errors = await withPage(app.browser, "js-api-page", async (page) => {
    await page.goto(app.server.url + "test/page.html");
    const r = await page.waitForFunction(() => window.results).then((h) => h.jsonValue());
    assert.equal(r.score, 100);
    // "abc" vs "abd": 1 - 2/6 = 66.67, score 67, not above 70.
    assert.deepEqual([r.low.score, r.low.pass], [67, false]);
    // A month stands for its first day (check_cutoff.py).
    assert.deepEqual(r.cutoff, { paper: "2024-09-01", cutoff: "2024-10-01", pass: true });
    assert.deepEqual(r.keys, ["a", "b"]);
    assert.equal(r.gate, true);
    assert.equal(r.error.isError, true);
    assert.equal(r.error.kind, "invalid_date");
  });
  assert.deepEqual(errors, []);
});
