// The packed npm tarball (js/test/pack.mjs) installed into a fresh project,
// served as static files and imported by a plain page in headless Chromium.
// A browser has no exports-map resolver, so the page's import map points
// "citegate" at what the installed package.json's exports map names for a
// non-Node consumer (the "default" condition), as a bundler would.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { serve } from "../harness.mjs";
import { withPage } from "../browser.mjs";
import { packAndInstall } from "../../js/test/pack.mjs";

let pkg;
const app = serve(() => {
  pkg = packAndInstall();
  const meta = JSON.parse(fs.readFileSync(path.join(pkg.installed, "package.json"), "utf8"));
  const entry = "./node_modules/citegate/" + meta.exports["."].default.replace(/^\.\//, "");
  fs.writeFileSync(
    path.join(pkg.project, "index.html"),
    `<!doctype html><meta charset="utf-8"><title>uses citegate</title>
<script type="importmap">${JSON.stringify({ imports: { citegate: entry } })}</script>
<script type="module">
  import init, { matchTitles, checkCutoff } from "citegate";
  await init();
  const m = matchTitles("abc", "abd");
  let kind;
  try { checkCutoff("2023-02-29", "2024-10-01"); } catch (e) { kind = e.kind; }
  window.results = { match: [m.score, m.pass], cutoff: checkCutoff("2024-09", "2024-10-01").pass, kind };
</script>`,
  );
  return { dist: pkg.project };
});

test("a page imports the installed package through its exports map", async () => {
  try {
    const errors = await withPage(app.browser, "js-package-page", async (page) => {
      await page.goto(app.server.url + "index.html");
      const r = await page.waitForFunction(() => window.results).then((h) => h.jsonValue());
      assert.deepEqual(r, { match: [67, false], cutoff: true, kind: "invalid_date" });
    });
    assert.deepEqual(errors, []);
  } finally {
    fs.rmSync(pkg.tmp, { recursive: true, force: true });
  }
});
