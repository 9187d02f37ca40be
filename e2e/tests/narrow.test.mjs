// Every page at 1280×800 and at a phone's 390×844, after "Load example"
// where the page has one: the page itself never scrolls sideways (a wide
// table may scroll inside its own .table-wrap), every navigation link is on
// screen and works; on the phone every table is labelled cards, none wider
// than its container. Screenshots: target/e2e-artifacts/{wide,narrow}-<page>.png.
import { test } from "node:test";
import { serve } from "../harness.mjs";
import assert from "node:assert/strict";
import { screenshot, DIST } from "../browser.mjs";
import { makeApi } from "../mock/router.mjs";

const PAGES = ["pool", "coverage", "crosscheck", "bibtex", "search", "library", "write", "match", "settings"];
// Pages reached through the Tools menu rather than the main navigation.
const TOOLS = ["match"];
const SIZES = [
  ["wide", { width: 1280, height: 800 }],
  ["narrow", { width: 390, height: 844 }],
];

const app = serve({ dist: DIST, api: makeApi() });

const url = (page) => app.url(`#/${page}`);

// Elements sticking out on the right of the viewport, outside any
// container that scrolls sideways by itself: what makes the page overflow.
const overflowing = () => {
  const out = [];
  const scrollsX = (el) => {
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      const o = getComputedStyle(p).overflowX;
      if (o === "auto" || o === "scroll" || o === "hidden") return true;
    }
    return false;
  };
  for (const el of document.body.querySelectorAll("*")) {
    const r = el.getBoundingClientRect();
    if (r.width > 0 && r.right > innerWidth + 0.5 && !scrollsX(el)) {
      out.push(`${el.tagName.toLowerCase()}${el.id ? "#" + el.id : ""}${el.className && typeof el.className === "string" ? "." + el.className.split(" ").join(".") : ""} right=${Math.round(r.right)}`);
    }
  }
  return out.slice(0, 8);
};

for (const [size, viewport] of SIZES) {
  test(`every page fits ${viewport.width}×${viewport.height} without sideways page scroll`, async () => {
    const context = await app.browser.newContext({ viewport });
    const page = await context.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    try {
      for (const name of PAGES) {
        await page.goto(url(name));
        await page.waitForSelector("nav.nav a.active", { state: "attached" });
        await page.waitForSelector("main.page h1");
        const example = await page.$("#load-example");
        if (example) {
          await example.click();
          await page.waitForTimeout(600);
        }
        const { scrollWidth, innerWidth } = await page.evaluate(() => ({
          scrollWidth: document.documentElement.scrollWidth,
          innerWidth: window.innerWidth,
        }));
        await screenshot(page, `${size}-${name}`);
        assert.ok(scrollWidth <= innerWidth, `${name} at ${viewport.width}px: page is ${scrollWidth}px wide; sticking out: ${(await page.evaluate(overflowing)).join(", ")}`);
        // Tables scroll inside their own container, never the page.
        const loose = await page.$$eval("table", (ts) =>
          ts.filter((t) => !["auto", "scroll"].includes(getComputedStyle(t.parentElement).overflowX)).map((t) => t.id || t.className),
        );
        assert.deepEqual(loose, [], `${name}: tables outside a sideways-scrolling container`);
        // On a phone every table is labelled cards: no column is clipped or
        // reached only by scrolling the table sideways (issue 31).
        if (viewport.width < 600) {
          const clipped = await page.$$eval("table", (ts) =>
            ts.filter((t) => !t.classList.contains("cards") || t.getBoundingClientRect().width > t.parentElement.clientWidth + 0.5).map((t) => t.id || t.className),
          );
          assert.deepEqual(clipped, [], `${name}: tables not shown as cards at ${viewport.width}px`);
        }
        // Every nav link is on screen, and the next page's link opens it.
        // The main links and the Tools menu (whose links show when it opens).
        const links = await page.$$eval("nav.nav > a, nav.nav #tools-menu > summary", (as) =>
          as.map((a) => {
            const r = a.getBoundingClientRect();
            return { href: a.getAttribute("href") || "tools", left: r.left, right: r.right, w: r.width, h: r.height };
          }),
        );
        assert.equal(links.length, PAGES.length - TOOLS.length + 1);
        for (const l of links) assert.ok(l.w > 0 && l.h >= 24 && l.left >= 0 && l.right <= innerWidth, `${name}: nav link ${l.href} off screen or too small: ${JSON.stringify(l)}`);
        const next = PAGES[(PAGES.indexOf(name) + 1) % PAGES.length];
        if (TOOLS.includes(next)) await page.click("#tools-menu > summary");
        await page.click(`nav.nav a[href="#/${next}"]`);
        await page.waitForFunction((n) => location.hash === `#/${n}` && document.querySelector("nav.nav a.active")?.getAttribute("href") === `#/${n}`, next);
      }
    } finally {
      await context.close();
    }
    assert.deepEqual(errors, []);
  });
}
