// Runs the workloads on js/pkg-web in headless Chromium:
// (cd e2e && node ../js/bench/chromium.mjs DIR)  — uses e2e's server and browser.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { start } from "../../e2e/server.mjs";
import { launch } from "../../e2e/browser.mjs";

const dir = path.resolve(process.argv[2] || "/tmp/citegate-bench");
const js = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const server = await start({
  dist: js,
  api: (_req, url) => {
    const rel = decodeURIComponent(url.pathname.slice("/api/inputs/".length));
    const file = path.resolve(dir, rel);
    if (!file.startsWith(dir) || !fs.existsSync(file)) return null;
    return { status: 200, headers: { "content-type": "text/plain" }, body: fs.readFileSync(file) };
  },
});
const browser = await launch();
try {
  const page = await browser.newPage();
  page.on("pageerror", (e) => console.error(String(e)));
  await page.goto(server.url + "bench/page.html");
  const handle = await page.waitForFunction(() => window.results, null, { timeout: 300_000 });
  console.log(`${browser.version()} (headless), wasm (js/pkg-web)`);
  console.log(await page.textContent("#out"));
  await handle.dispose();
} finally {
  await browser.close();
  await server.close();
}
