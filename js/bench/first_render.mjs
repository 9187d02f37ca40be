// First render of the built app in headless Chromium from a local server,
// on #/match, with a fresh browser context (empty cache) each time, in
// milliseconds from navigation start:
// - frame: the first animation frame after `#score` entered the page (a
//   MutationObserver in the page notes it; the frame is when the browser
//   can paint it), the figure BENCHMARKS.md gives as first render;
// - fcp: Chromium's first-contentful-paint, where the page has one;
// - seen: when the harness saw `#score` (Playwright polls every frame and
//   then asks the page the time: one more round trip, about 40 ms on a
//   blank page; the figure earlier runs reported). Given several dist
// folders (say an older build and a blank page holding only `#score`, the
// harness's floor), the loads take turns, one of each per round, so that
// all see the same machine.
// (cd e2e && node ../js/bench/first_render.mjs ../target/e2e-dist [OTHER_DIST…])
// ROUNDS (default 7) sets the loads per dist; FRAGMENT and READY (default
// `#/match` and `#score`) time another page, e.g. a link straight to the
// BibTeX check: FRAGMENT='#/bibtex' READY='#entries'. NETWORK shapes every
// load through Chromium's network emulation: `slow4g` (1.6 Mbps down, 750 kbps
// up, 150 ms latency: Lighthouse's "slow 4G" mobile profile), `10mbps`
// (10 Mbps down, 5 up, 20 ms), or `DOWN_KBPS,UP_KBPS,LATENCY_MS`.
import path from "node:path";
import { start } from "../../e2e/server.mjs";
import { launch } from "../../e2e/browser.mjs";

const dists = (process.argv.length > 2 ? process.argv.slice(2) : ["../target/e2e-dist"]).map((d) => path.resolve(d));
const rounds = Number(process.env.ROUNDS || 7);
const fragment = process.env.FRAGMENT || "#/match";
const ready = process.env.READY || "#score";
const profiles = { slow4g: [1600, 750, 150], "10mbps": [10000, 5000, 20] };
const network = process.env.NETWORK
  ? profiles[process.env.NETWORK] ?? process.env.NETWORK.split(",").map(Number)
  : null;
if (network && (network.length !== 3 || network.some((x) => !Number.isFinite(x)))) {
  throw new Error(`NETWORK: "${process.env.NETWORK}" is neither slow4g, 10mbps nor DOWN_KBPS,UP_KBPS,LATENCY_MS`);
}
const servers = await Promise.all(dists.map((dist) => start({ dist })));
const browser = await launch();
const times = dists.map(() => []);
try {
  for (let i = 0; i < rounds; i++) {
    for (const [k, server] of servers.entries()) {
      const context = await browser.newContext();
      const page = await context.newPage();
      if (network) {
        const cdp = await context.newCDPSession(page);
        await cdp.send("Network.enable");
        await cdp.send("Network.emulateNetworkConditions", {
          offline: false,
          downloadThroughput: (network[0] * 1000) / 8,
          uploadThroughput: (network[1] * 1000) / 8,
          latency: network[2],
        });
      }
      await page.addInitScript((ready) => {
        const seen = new MutationObserver(() => {
          if (!document.querySelector(ready)) return;
          seen.disconnect();
          performance.mark("score-in-dom");
          requestAnimationFrame(() => performance.mark("score-frame"));
        });
        seen.observe(document, { childList: true, subtree: true });
      }, ready);
      await page.goto(server.url + fragment);
      await page.waitForFunction((ready) => document.querySelector(ready), ready, { polling: "raf" });
      await page.waitForFunction(() => performance.getEntriesByName("score-frame").length, null, { polling: "raf" });
      const t = await page.evaluate(() => ({
        seen: performance.now(),
        score: performance.getEntriesByName("score-frame")[0].startTime,
        fcp: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? NaN,
        dcl: performance.getEntriesByType("navigation")[0].domContentLoadedEventEnd,
      }));
      times[k].push(t);
      await context.close();
    }
  }
} finally {
  await browser.close();
  await Promise.all(servers.map((s) => s.close()));
}
// Median of the loads that have the figure (a blank page has no contentful
// paint, and now and then a load ends before Chromium reports one).
const med = (xs) => {
  const ys = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  return ys.length ? ys[Math.floor(ys.length / 2)] : NaN;
};
for (const [k, dist] of dists.entries()) {
  const ts = times[k];
  const m = (k) => med(ts.map((t) => t[k])).toFixed(0);
  const shaped = network ? `, network ${network[0]}/${network[1]} kbps ${network[2]} ms` : "";
  console.log(`${dist}: ${ts.length} cold loads${shaped}, medians: first render (frame after ${ready}) ${m("score")} ms, first contentful paint ${m("fcp")} ms, seen by the harness ${m("seen")} ms, DOMContentLoaded ${m("dcl")} ms`);
  console.log(`  frame after ${ready}: ${JSON.stringify(ts.map((t) => Math.round(t.score)))}`);
}
