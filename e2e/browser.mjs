// Headless Chromium for the end-to-end tests, driven by playwright-core.
// The browser is Debian's /usr/bin/chromium; playwright-core downloads nothing.
import { chromium } from "playwright-core";
import fs from "node:fs";
import path from "node:path";

export const ARTIFACTS = path.resolve(process.env.CITEGATE_ARTIFACTS || "../target/e2e-artifacts");
export const DIST = path.resolve(process.env.CITEGATE_DIST || "../target/e2e-dist");

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
}

/** Saves a screenshot of the page under target/e2e-artifacts/. */
export async function screenshot(page, name) {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/**
 * Runs `body(page)` in a fresh page; on failure saves a screenshot named after the test.
 * Console errors and page errors are collected and returned.
 */
export async function withPage(browser, name, body) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  try {
    await body(page, errors);
  } catch (e) {
    await screenshot(page, `FAILED-${name}`).catch(() => {});
    throw e;
  } finally {
    await context.close();
  }
  return errors;
}
