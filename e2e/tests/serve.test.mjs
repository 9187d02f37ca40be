// The README's first command: `scripts/serve.sh` builds the release app and
// serves it; the page must load with no console error (Trunk's injected
// reload script used to be refused by the page's own security policy).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import net from "node:net";
import path from "node:path";
import { launch } from "../browser.mjs";

const ROOT = path.resolve(import.meta.dirname, "../..");

const freePort = () =>
  new Promise((ok) => {
    const s = net.createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
  });

async function waitFor(url, ms) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      const r = await fetch(url);
      if (r.ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${url} did not answer within ${ms} ms`);
}

test("scripts/serve.sh serves the app with no console error", { timeout: 900_000 }, async () => {
  const port = await freePort();
  const child = spawn("bash", ["scripts/serve.sh"], {
    cwd: ROOT,
    env: { ...process.env, CITEGATE_PORT: String(port) },
    detached: true,
    stdio: "ignore",
  });
  const browser = await launch();
  try {
    const url = `http://127.0.0.1:${port}/`;
    await waitFor(url, 840_000);
    const page = await browser.newPage();
    const problems = [];
    page.on("console", (m) => m.type() === "error" && problems.push(m.text()));
    page.on("pageerror", (e) => problems.push(String(e)));
    await page.goto(url);
    await page.waitForSelector("#ways-in");
    // Every page of the navigation, loaded fresh.
    for (const href of await page.$$eval("nav a", (as) => as.map((a) => a.getAttribute("href")))) {
      await page.goto(new URL(href, url).href);
      await page.waitForSelector("main h1");
    }
    assert.deepEqual(problems, []);
    const scripts = await page.$$eval("script", (ss) => ss.map((s) => s.src || s.textContent.slice(0, 60)));
    assert.ok(!scripts.some((s) => /autoreload|__trunk_address__|WebSocket/.test(s)), scripts.join("\n"));
  } finally {
    await browser.close();
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {}
  }
});
