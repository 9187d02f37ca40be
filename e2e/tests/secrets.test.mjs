// Secrets: the Semantic Scholar and OpenAlex keys go to their own service,
// in the place that service reads them, and nowhere else.
//
// The rule under test is web/src/services/settings.rs: keys are kept in
// memory for the tab's life; "remember on this device" writes them — and
// only them — to localStorage under citegate:secret:*. They are never
// written to IndexedDB (workspace, run checkpoints, response cache), never
// part of a cache key or a stored URL, never in a download, a console line,
// the page's text, or a request to any other service or host.
//
// Each test sets recognisable keys in Settings, verifies the example pool
// (Semantic Scholar), cross-checks the example pool (Crossref, OpenAlex),
// searches all three and exports the library, downloading every file the
// pages offer, then inspects everything it recorded.
import { test } from "node:test";
import { serve } from "../harness.mjs";
import assert from "node:assert/strict";
import { withPage, DIST } from "../browser.mjs";
import { makeApi } from "../mock/router.mjs";
import { indices } from "../mock/indices.mjs";

// Page and mock on different origins: the browser applies CORS as with the real services.
const app = serve({ dist: DIST, api: makeApi({ before: [indices] }) }, { crossOrigin: true });

const downloaded = async (page, selector) => {
  const [download] = await Promise.all([page.waitForEvent("download"), page.click(selector)]);
  return { name: download.suggestedFilename(), text: Buffer.concat(await (await download.createReadStream()).toArray()).toString() };
};

/** Every record of every object store of every IndexedDB database of the page's origin. */
const dumpIndexedDb = (page) =>
  page.evaluate(async () => {
    const req = (r) => new Promise((ok, no) => { r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error); });
    const out = {};
    for (const { name } of await indexedDB.databases()) {
      const db = await req(indexedDB.open(name));
      for (const store of db.objectStoreNames) {
        const tx = db.transaction(store, "readonly").objectStore(store);
        const [keys, values] = await Promise.all([req(tx.getAllKeys()), req(tx.getAll())]);
        out[`${name}/${store}`] = keys.map((k, i) => [k, values[i]]);
      }
      db.close();
    }
    return out;
  });

const dumpStorage = (page) =>
  page.evaluate(async () => {
    const all = (s) => Object.fromEntries(Array.from({ length: s.length }, (_, i) => [s.key(i), s.getItem(s.key(i))]));
    const caches_ = {};
    if (self.caches) {
      for (const name of await caches.keys()) {
        const c = await caches.open(name);
        caches_[name] = await Promise.all((await c.keys()).map(async (r) => [r.url, await (await c.match(r)).text()]));
      }
    }
    return { local: all(localStorage), session: all(sessionStorage), cacheStorage: caches_ };
  });

/** Where a key may appear in a request: its own service, its own place. */
function checkRequest(r, keys, where) {
  const u = new URL(r.url, app.server.url);
  const onApi = u.origin === new URL(app.server.url).origin && u.pathname.startsWith("/api/");
  const service = onApi ? u.pathname.split("/")[2] : `${u.host} (not the mock)`;
  const headers = Object.entries(r.headers || {});
  const inHeaders = (k) => headers.filter(([, v]) => String(v).includes(k)).map(([h]) => h.toLowerCase());
  const inUrl = (k) => r.url.includes(k) || decodeURIComponent(r.url).includes(k);
  const inBody = (k) => (r.body || "").includes(k);
  // Semantic Scholar: the x-api-key header of requests to it, nothing else.
  const s2Headers = inHeaders(keys.s2);
  if (service === "s2") assert.ok(s2Headers.every((h) => h === "x-api-key"), `${where}: s2 key in ${s2Headers} of ${r.url}`);
  else assert.deepEqual(s2Headers, [], `${where}: s2 key in a header of a ${service} request ${r.url}`);
  assert.ok(!inUrl(keys.s2) && !inBody(keys.s2), `${where}: s2 key in the url or body of ${r.url}`);
  // OpenAlex: the api_key parameter of requests to it, nothing else.
  if (service === "openalex" && inUrl(keys.oa)) assert.equal(u.searchParams.get("api_key"), keys.oa, `${where}: ${r.url}`);
  else assert.ok(!inUrl(keys.oa), `${where}: openalex key in the url of a ${service} request`);
  assert.deepEqual(inHeaders(keys.oa), [], `${where}: openalex key in a header of ${r.url}`);
  assert.ok(!inBody(keys.oa), `${where}: openalex key in the body of ${r.url}`);
}

const hasAny = (text, keys) => [keys.s2, keys.oa].filter((k) => text.includes(k));

for (const remember of [false, true]) {
  test(`secrets (${remember ? "remembered" : "this tab only"}): keys only in their own service's requests; never in downloads, console, IndexedDB${remember ? "" : " or localStorage"}`, async (t) => {
    const keys = { s2: `S2KEY-${remember ? "r" : "t"}-7f3a9c51e2`, oa: `OAKEY-${remember ? "r" : "t"}-b84d20c6f1` };
    const firstServerRequest = app.server.requests.length;
    const pageRequests = [];
    const consoleLines = [];
    const files = [];
    const texts = [];
    await withPage(app.browser, `secrets-${remember ? "remembered" : "tab"}`, async (page, errors) => {
      page.on("request", (r) => pageRequests.push({ url: r.url(), headers: r.headers(), body: r.postData() }));
      page.on("console", (m) => consoleLines.push(`${m.type()}: ${m.text()}`));
      // The page's own origin (it differs from the mock's: cross-origin serving).
      await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: new URL(app.page()).origin });

      await app.open(page, "#/settings");
      await page.fill("#s2-key", keys.s2);
      await page.fill("#openalex-key", keys.oa);
      await page.setChecked("#remember", remember);
      await page.click("#save-settings");
      await page.waitForFunction(() => document.querySelector("#settings-status")?.textContent === "settings saved");
      assert.match(await page.textContent("#key-state"), /Semantic Scholar key: set · OpenAlex key: set/);

      // Pool verification (Semantic Scholar, keyed).
      await page.goto(page.url().replace(/#.*$/, "#/pool"));
      await page.click("#load-example");
      await page.click("#verify");
      await page.waitForFunction(() => document.querySelector("#pool-summary")?.textContent.startsWith("8 papers"), null, { timeout: 60000 });
      texts.push(await page.content());
      files.push(await downloaded(page, "#download-pool"), await downloaded(page, "#download-bib"));
      await page.click("#copy-prompt");
      files.push({ name: "clipboard (writing prompt)", text: await page.evaluate(() => navigator.clipboard.readText()) });
      assert.ok(files.at(-1).text.length > 100, "the prompt was copied");

      // Cross-check (Crossref, OpenAlex keyed).
      await page.goto(page.url().replace(/#.*$/, "#/crosscheck"));
      await page.click("#load-example");
      await page.click("#run-crosscheck");
      await page.waitForSelector("#tiers tbody tr", { timeout: 60000 });
      // Rows come as papers complete: the downloads wait for the end of the run.
      await page.waitForFunction(() => document.querySelector("#run-crosscheck")?.textContent === "Cross-check", null, { timeout: 60000 });
      texts.push(await page.content());
      files.push(await downloaded(page, "#download-report"), await downloaded(page, "#download-annotated"));

      // Search (all three), one result into the library, the library exported.
      await page.goto(page.url().replace(/#.*$/, "#/search"));
      await page.fill("#query", "Attention Is All You Need");
      await page.click("#run-search");
      await page.waitForSelector("#results tbody tr", { timeout: 60000 });
      texts.push(await page.content());
      await page.click("#results tbody tr >> nth=0 >> button.add");
      await page.waitForFunction(() => document.querySelector("#added")?.textContent.startsWith("added `"));
      await page.goto(page.url().replace(/#.*$/, "#/library"));
      await page.waitForFunction(() => /^[1-9]\d* records?$/.test(document.querySelector("#library-count")?.textContent || ""));
      files.push(await downloaded(page, "#export-library"));

      // After a reload the keys are back only if remembered, and still not shown.
      await page.reload();
      await page.goto(page.url().replace(/#.*$/, "#/settings"));
      await page.waitForSelector("#key-state");
      const state = await page.textContent("#key-state");
      if (remember) assert.match(state, /Semantic Scholar key: set · OpenAlex key: set · remembered on this device/);
      else assert.match(state, /Semantic Scholar key: not set · OpenAlex key: not set/);
      texts.push(await page.content());

      const idb = await dumpIndexedDb(page);
      const storage = await dumpStorage(page);
      t.diagnostic(`indexeddb stores: ${Object.entries(idb).map(([s, r]) => `${s}=${r.length}`).join(" ")}`);
      assert.ok(Object.values(idb).some((r) => r.length > 0), "the dump saw the app's records");
      assert.ok(Object.keys(idb).some((s) => /cache/i.test(s) && idb[s].length > 0), "cached responses were dumped");
      assert.deepEqual(hasAny(JSON.stringify(idb), keys), [], "no key in any IndexedDB record, cached responses included");
      // The cached OpenAlex answers were asked with the key, and store its URL redacted.
      const cachedOpenAlex = Object.entries(idb).filter(([s]) => /cache/i.test(s)).flatMap(([, r]) => r).map(([, v]) => String(v)).filter((v) => v.includes("/api/openalex/"));
      assert.ok(cachedOpenAlex.length > 0 && cachedOpenAlex.every((v) => v.includes("api_key=***")), "cached OpenAlex URLs keep api_key only as ***");
      assert.deepEqual(hasAny(JSON.stringify(storage.session), keys), [], "no key in sessionStorage");
      assert.deepEqual(hasAny(JSON.stringify(storage.cacheStorage), keys), [], "no key in Cache Storage");
      if (remember) {
        // Exactly the two documented entries, each holding its own key.
        const holding = Object.entries(storage.local).filter(([, v]) => hasAny(v, keys).length);
        assert.deepEqual(Object.fromEntries(holding), { "citegate:secret:s2_api_key": keys.s2, "citegate:secret:openalex_api_key": keys.oa });
      } else {
        assert.deepEqual(hasAny(JSON.stringify(storage.local), keys), [], "not remembered: no key in localStorage");
      }
      assert.deepEqual(errors, []);
    });

    for (const f of files) assert.deepEqual(hasAny(f.text, keys), [], `no key in the download ${f.name}`);
    t.diagnostic(`downloads checked: ${files.map((f) => f.name).join(", ")}`);
    for (const [i, text] of texts.entries()) assert.deepEqual(hasAny(text, keys), [], `no key in the page's html (${i})`);
    assert.deepEqual(consoleLines.filter((l) => hasAny(l, keys).length), [], "no key in a console message");

    // Every request the page made and the mock received.
    const served = app.server.requests.slice(firstServerRequest).map((r) => ({ url: new URL(r.path, app.server.url).href, headers: r.headers, method: r.method }));
    for (const r of pageRequests) checkRequest(r, keys, "page");
    for (const r of served) checkRequest(r, keys, "mock");
    const own = [new URL(app.server.url).origin, new URL(app.page()).origin];
    const foreign = pageRequests.filter((r) => !own.includes(new URL(r.url).origin) && !r.url.startsWith("data:") && !r.url.startsWith("blob:"));
    assert.deepEqual(foreign.map((r) => r.url), [], "no request leaves the app's own host and the mock");
    // The keys were used where they belong.
    const s2Keyed = served.filter((r) => r.url.includes("/api/s2/") && r.headers["x-api-key"] === keys.s2);
    const oaKeyed = served.filter((r) => r.url.includes("/api/openalex/") && new URL(r.url).searchParams.get("api_key") === keys.oa);
    const s2Requests = served.filter((r) => r.url.includes("/api/s2/") && r.method !== "OPTIONS");
    assert.ok(s2Requests.length >= 12, `the pool asked Semantic Scholar (${s2Requests.length})`);
    assert.equal(s2Keyed.length, s2Requests.length, "every Semantic Scholar request carried the key");
    assert.ok(oaKeyed.length >= 10, "the cross-check and search sent the OpenAlex key");
    t.diagnostic(`${pageRequests.length} page requests, ${served.length} mock requests, ${consoleLines.length} console lines, ${files.length} downloads`);
  });
}
