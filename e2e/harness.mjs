// The setup every end-to-end test file shares: one local server (the built
// app plus, when given, the mock API) and one headless Chromium for the
// file, started before its tests and closed after them.
import { before, after } from "node:test";
import { start } from "./server.mjs";
import { launch } from "./browser.mjs";

/**
 * Registers the file's `before`/`after` hooks. `options` is `start()`'s
 * options, or a function returning them (run inside `before`). Returns an
 * object whose `server` and `browser` are set once `before` has run, and
 * `open(page, fragment)`, which loads the app with every API pointed at
 * the mock and Semantic Scholar's spacing off (`query` adds parameters).
 */
export function serve(options) {
  const app = {
    server: null,
    browser: null,
    url: (fragment = "", query = "") =>
      `${app.server.url}?api=${encodeURIComponent(app.server.url + "api")}&s2_interval=0${query}${fragment}`,
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
