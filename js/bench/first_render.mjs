// First render of the built app in headless Chromium from a local server:
// milliseconds from navigation start until `#score` exists on #/match, with
// a fresh browser context (empty cache) each time.
// (cd e2e && node ../js/bench/first_render.mjs ../target/e2e-dist)
import path from "node:path";
import { start } from "../../e2e/server.mjs";
import { launch } from "../../e2e/browser.mjs";

const dist = path.resolve(process.argv[2] || "../target/e2e-dist");
const server = await start({ dist });
const browser = await launch();
const times = [];
try {
  for (let i = 0; i < 7; i++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(server.url + "#/match");
    await page.waitForFunction(() => document.querySelector("#score"), null, { polling: "raf" });
    const t = await page.evaluate(() => ({
      score: performance.now(),
      dcl: performance.getEntriesByType("navigation")[0].domContentLoadedEventEnd,
    }));
    times.push(t);
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
}
const med = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`first render (#score exists): median ${med(times.map((t) => t.score)).toFixed(0)} ms over ${times.length} cold loads`);
console.log(`DOMContentLoaded: median ${med(times.map((t) => t.dcl)).toFixed(0)} ms`);
console.log(JSON.stringify(times.map((t) => Math.round(t.score))));
