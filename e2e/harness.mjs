// The setup every end-to-end test file shares: one local server (the built
// app plus, when given, the mock API) and one headless Chromium for the
// file, started before its tests and closed after them.
import { before, after } from "node:test";
import { start } from "./server.mjs";
import { launch } from "./browser.mjs";

/** The tests' first back-off after an unreadable Semantic Scholar answer (`?s2_backoff_ms=`). */
export const S2_BACKOFF_MS = 50;

/**
 * Registers the file's `before`/`after` hooks. `options` is `start()`'s
 * options, or a function returning them (run inside `before`). Returns an
 * object whose `server` and `browser` are set once `before` has run, and
 * `open(page, fragment)`, which loads the app with every API pointed at
 * the mock, Semantic Scholar's spacing off and its back-off after an
 * unreadable answer (its 429s reach the page as network errors) shortened
 * from 5 s to 50 ms (`query` adds parameters).
 */
export function serve(options, { crossOrigin = false } = {}) {
  // With crossOrigin the page loads from http://localhost:PORT and the mock
  // API stays at http://127.0.0.1:PORT (allowed by the CSP), so the browser
  // applies CORS as with the real services; same-origin requests skip it.
  const page = () => (crossOrigin ? app.server.url.replace("127.0.0.1", "localhost") : app.server.url);
  const app = {
    server: null,
    browser: null,
    page,
    url: (fragment = "", query = "") =>
      `${page()}?api=${encodeURIComponent(app.server.url + "api")}&s2_interval=0&s2_backoff_ms=${S2_BACKOFF_MS}${query}${fragment}`,
    open: (page, fragment = "", query = "") => page.goto(app.url(fragment, query)),
  };
  before(async () => {
    app.server = await start(typeof options === "function" ? options() : options);
    app.browser = await launch();
  });
  after(async () => {
    await app.browser?.close();
    await app.server?.close();
  });
  return app;
}
