// Static hosting: the release build, made with `--public-url /some/sub/path/`
// (scripts/test.sh builds it into target/e2e-dist-sub), served under that
// sub-path by a plain static server, loads every page in headless Chromium
// with its Content-Security-Policy in force, no failed request, no request
// to another host, and no CSP violation.
import { test } from "node:test";
import { serve } from "../harness.mjs";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { withPage } from "../browser.mjs";

const BASE = "/some/sub/path/";
const DIST_SUB = path.resolve(process.env.CITEGATE_DIST_SUB || "../target/e2e-dist-sub");

const app = serve({ dist: DIST_SUB, base: BASE });

/** Opens `page` recording every request, failure, bad status and CSP violation. */
function watch(page) {
  const seen = { requests: [], failed: [], bad: [], csp: [] };
  page.on("request", (r) => seen.requests.push(r.url()));
  page.on("requestfailed", (r) => seen.failed.push(`${r.url()} ${r.failure()?.errorText}`));
  page.on("response", (r) => r.status() >= 400 && seen.bad.push(`${r.status()} ${r.url()}`));
  page.on("console", (m) => /Content.Security.Policy/i.test(m.text()) && seen.csp.push(m.text()));
  return seen;
}

test("index.html carries a CSP with the loader's hash and only the allowed origins", () => {
  const html = fs.readFileSync(path.join(DIST_SUB, "index.html"), "utf8");
  const csp = html.match(/http-equiv="Content-Security-Policy" content="([^"]+)"/)?.[1];
  assert.ok(csp, "no CSP meta tag");
  assert.ok(!csp.includes("inline-script-hashes"), "the post_build hook did not run");
  assert.ok(!csp.includes("relay-origin"), "the relay placeholder is filled in or dropped");
  assert.match(csp, /script-src 'self' 'wasm-unsafe-eval' 'sha256-[A-Za-z0-9+/]{43}='/);
  assert.doesNotMatch(csp, /'unsafe-inline'|'unsafe-eval'|\s\*[\s;]|https?:\/\/\*/);
  const origins = csp.match(/https?:\/\/[^\s;]+/g);
  // The scholarly APIs, and the writing models (README, "Hosting"): no build-time extra here.
  assert.deepEqual(origins.sort(), [
    "http://127.0.0.1:*",
    "http://localhost:*",
    "https://api.anthropic.com",
    "https://api.crossref.org",
    "https://api.datacite.org",
    "https://api.openai.com",
    "https://api.openalex.org",
    "https://api.semanticscholar.org",
    "https://openrouter.ai",
  ]);
  assert.ok(!csp.includes("llm-origins"), "the post_build hook did not fill the model origins");
  // Every asset URL in the page is under the sub-path.
  for (const [, url] of html.matchAll(/(?:href|src|from|module_or_path:)\s*=?\s*['"]([^'"]+\.(?:js|wasm|css))['"]/g)) {
    assert.ok(url.startsWith(BASE), `${url} is not under ${BASE}`);
  }
});

test("every page loads under /some/sub/path/ with no failed or foreign request", async () => {
  const origin = new URL(app.server.url).origin;
  const errors = await withPage(app.browser, "hosting-sub-path", async (page) => {
    const seen = watch(page);
    await page.goto(app.server.url);
    await page.waitForSelector("nav a");
    const links = await page.$$eval("nav a", (as) => as.map((a) => [a.getAttribute("href"), a.textContent]));
    assert.ok(links.length >= 8, `only ${links.length} links`);
    for (const [href, label] of links) {
      // A fresh load of each page's URL, as a bookmark or a shared link would do.
      await page.goto(new URL(href, app.server.url).href);
      await page.waitForFunction((l) => document.querySelector("main h1")?.textContent === l, label);
    }
    assert.deepEqual(seen.failed, []);
    assert.deepEqual(seen.bad, []);
    assert.deepEqual(seen.csp, []);
    const foreign = seen.requests.filter((u) => !u.startsWith(origin + "/") && !u.startsWith("data:"));
    assert.deepEqual(foreign, []);
    const outside = seen.requests.filter((u) => u.startsWith(origin) && !new URL(u).pathname.startsWith(BASE));
    assert.deepEqual(outside, [], "requests outside the sub-path");
    assert.ok(seen.requests.some((u) => u.endsWith(".wasm")), "the wasm was loaded");
  });
  assert.deepEqual(errors, []);
});

test("the CSP is enforced: a script from another origin is refused", async () => {
  await withPage(app.browser, "hosting-csp", async (page) => {
    const seen = watch(page);
    await page.goto(app.server.url);
    await page.waitForSelector("nav a");
    const blocked = await page.evaluate(
      () =>
        new Promise((ok) => {
          document.addEventListener("securitypolicyviolation", (e) => ok(e.violatedDirective), { once: true });
          const s = document.createElement("script");
          s.src = "https://example.invalid/x.js";
          document.head.append(s);
          setTimeout(() => ok(null), 3000);
        }),
    );
    assert.match(blocked ?? "", /^script-src/);
    // Chromium reports the attempt as a request that failed, blocked by the CSP.
    const tried = seen.failed.filter((f) => f.includes("example.invalid"));
    assert.ok(tried.every((f) => /\bcsp\b|ERR_BLOCKED_BY_CSP/i.test(f)), tried.join("; "));
  });
});

/** The dist file a request of this server names ("" is index.html). */
function distFile(url) {
  return decodeURIComponent(new URL(url).pathname.slice(BASE.length)) || "index.html";
}

const WHOLE_APP_WASM = /citegate-web-[0-9a-f]{16}_bg\.wasm$/;

test("the first load fetches only the start module, at most 400 KB with Brotli; the whole app comes when a link to its pages is pointed at, once", async () => {
  const origin = new URL(app.server.url).origin;
  const errors = await withPage(app.browser, "hosting-first-load", async (page) => {
    const seen = watch(page);
    await page.goto(app.server.url);
    await page.waitForSelector("#ways-in");
    await page.waitForLoadState("networkidle");
    const files = seen.requests.filter((u) => u.startsWith(origin)).map(distFile);
    assert.ok(files.some((f) => /^citegate-start-[0-9a-f]+_bg\.wasm$/.test(f)), files.join(", "));
    assert.ok(!files.some((f) => f.startsWith("citegate-web-")), `the whole app was fetched at once: ${files.join(", ")}`);
    // What a host serving the precompressed files sends for them.
    let brotli = 0;
    for (const f of files) brotli += fs.statSync(path.join(DIST_SUB, f + ".br")).size;
    console.log(`first load (start page): ${files.length} files, ${brotli} bytes with Brotli: ${files.join(", ")}`);
    assert.ok(brotli <= 400_000, `first load ${brotli} bytes with Brotli`);

    // Pointing at a link to a page of the whole app fetches it ahead; the start page stays.
    const fetched = page.waitForRequest((r) => WHOLE_APP_WASM.test(r.url()));
    await page.hover('nav a[href="#/pool"]');
    await fetched;
    assert.ok(await page.$("#ways-in"));
    await page.click('nav a[href="#/pool"]');
    await page.waitForFunction(() => document.querySelector("main h1")?.textContent === "Pool");
    await page.waitForSelector("#load-example");
    assert.equal(await page.$("#app-loading"), null);
    // The whole app drew the page and kept the frame: one navigation, one header.
    assert.equal(await page.$$eval("nav.nav", (n) => n.length), 1);
    assert.equal(await page.$$eval("header.top", (n) => n.length), 1);
    // And back to the start page without another fetch.
    await page.click("a.brand");
    await page.waitForSelector("#ways-in");
    assert.equal(seen.requests.filter((u) => WHOLE_APP_WASM.test(u)).length, 1, seen.requests.join("\n"));
    assert.deepEqual(seen.failed, []);
    assert.deepEqual(seen.bad, []);
    assert.deepEqual(seen.csp, []);
  });
  assert.deepEqual(errors, []);
});

test("focusing a link to a page of the whole app from the keyboard fetches it ahead; a link to Title match does not", async () => {
  const errors = await withPage(app.browser, "hosting-focus-prefetch", async (page) => {
    const seen = watch(page);
    await page.goto(app.server.url);
    await page.waitForSelector("#ways-in");
    await page.waitForLoadState("networkidle");
    await page.focus('a[href="#/match"]');
    await page.waitForTimeout(300);
    assert.ok(!seen.requests.some((u) => WHOLE_APP_WASM.test(u)), "Title match's link fetched the whole app");
    const fetched = page.waitForRequest((r) => WHOLE_APP_WASM.test(r.url()));
    await page.focus("#way-bibtex");
    await fetched;
    assert.ok(await page.$("#ways-in"), "the start page stays until the link is followed");
  });
  assert.deepEqual(errors, []);
});

test("a link straight to a page of the whole app fetches it once, beside the start module; a link to Title match does not fetch it", async () => {
  const errors = await withPage(app.browser, "hosting-deep-links", async (page) => {
    const seen = watch(page);
    await page.goto(app.server.url + "#/match");
    await page.waitForSelector("#score");
    await page.waitForLoadState("networkidle");
    assert.ok(!seen.requests.some((u) => WHOLE_APP_WASM.test(u)), seen.requests.join("\n"));
  });
  assert.deepEqual(errors, []);
  // Every page of the whole app, each in a fresh page as a shared link opens it.
  for (const [fragment, title] of [["#/pool", "Pool"], ["#/settings", "Settings"], ["#/write", "Write"]]) {
    const errs = await withPage(app.browser, "hosting-deep-link", async (page) => {
      const seen = watch(page);
      await page.goto(app.server.url + fragment);
      await page.waitForFunction((t) => document.querySelector("main h1")?.textContent === t, title);
      await page.waitForLoadState("networkidle");
      // The page's inline script preloads it; the start module's fetch takes that answer.
      assert.equal(seen.requests.filter((u) => WHOLE_APP_WASM.test(u)).length, 1, `${fragment}: ${seen.requests.join("\n")}`);
      assert.equal(await page.$$eval("header.top", (n) => n.length), 1);
      assert.deepEqual(seen.failed, []);
      assert.deepEqual(seen.csp, []);
    });
    assert.deepEqual(errs, []);
  }
});

test("a link straight to a page of the whole app paints the frame, the page's name and a progress bar before the whole app arrives, and the page is never blank at the handover", async () => {
  const errors = await withPage(app.browser, "hosting-frame-first", async (page) => {
    let release;
    const held = new Promise((ok) => (release = ok));
    await page.route(WHOLE_APP_WASM, async (route) => {
      await held;
      await route.continue();
    });
    // Notes whether the header, once painted, ever left the page.
    await page.addInitScript(() => {
      window.__seenHeader = false;
      window.__headerLost = false;
      new MutationObserver(() => {
        const n = document.querySelectorAll("header.top").length;
        if (n > 0) window.__seenHeader = true;
        else if (window.__seenHeader) window.__headerLost = true;
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto(app.server.url + "#/bibtex");
    await page.waitForSelector("#app-loading progress");
    assert.equal(await page.textContent("#app-loading-title"), "BibTeX check");
    assert.ok((await page.$$("nav a")).length >= 8, "the navigation is drawn");
    assert.equal(await page.$$eval("header.top", (n) => n.length), 1);
    assert.equal(await page.$("main h1"), null, "no page heading before the page");
    assert.equal(await page.title(), "BibTeX check — citegate");
    release();
    await page.waitForFunction(() => document.querySelector("main h1")?.textContent === "BibTeX check");
    await page.waitForSelector("#entries", { state: "attached" });
    assert.equal(await page.$("#app-loading"), null);
    assert.equal(await page.$$eval("header.top", (n) => n.length), 1);
    assert.equal(await page.evaluate(() => window.__headerLost), false, "the page went blank at the handover");
  });
  assert.deepEqual(errors, []);
});

test("when the whole app cannot be fetched the start module says why, keeps its frame, and fetches it again on request", async () => {
  const errors = await withPage(app.browser, "hosting-app-retry", async (page) => {
    let block = true;
    await page.route(WHOLE_APP_WASM, (route) => (block ? route.abort("internetdisconnected") : route.continue()));
    await page.goto(app.server.url + "#/bibtex");
    await page.waitForSelector("#app-load-error");
    assert.match(await page.textContent("#app-load-error"), /could not be loaded \(.+\)\. Check the connection/);
    assert.ok((await page.$$("nav a")).length >= 8, "the frame stays");
    block = false;
    await page.click("#app-load-retry");
    await page.waitForFunction(() => document.querySelector("main h1")?.textContent === "BibTeX check");
    assert.equal(await page.$("#app-load-error"), null);
  });
  assert.deepEqual(errors, []);
});

test("every file of the build has .br and .gz beside it, each decompressing to the same bytes", async () => {
  const zlib = await import("node:zlib");
  const files = fs
    .readdirSync(DIST_SUB)
    .filter((f) => /\.(html|js|css|wasm|svg)$/.test(f));
  assert.ok(files.some((f) => f.endsWith(".wasm")), files.join(", "));
  const sizes = { raw: 0, gz: 0, br: 0 };
  for (const f of files) {
    const raw = fs.readFileSync(path.join(DIST_SUB, f));
    const gz = fs.readFileSync(path.join(DIST_SUB, f + ".gz"));
    assert.ok(zlib.gunzipSync(gz).equals(raw), `${f}.gz`);
    sizes.raw += raw.length;
    sizes.gz += gz.length;
    const brPath = path.join(DIST_SUB, f + ".br");
    if (fs.existsSync(brPath)) {
      const br = fs.readFileSync(brPath);
      assert.ok(zlib.brotliDecompressSync(br).equals(raw), `${f}.br`);
      assert.ok(br.length <= gz.length + 64, `${f}: brotli ${br.length} > gzip ${gz.length}`);
      sizes.br += br.length;
    }
  }
  // Every file of the build, both modules (what the first load fetches is measured above).
  console.log(`all files: ${sizes.raw} bytes raw, ${sizes.gz} gzip, ${sizes.br} brotli`);
});
