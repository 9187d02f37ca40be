// A local server for the end-to-end tests: serves the built app (dist/) under
// any sub-path, and a mock of the scholarly APIs that replays recorded
// responses. Nothing here talks to the network.
import http from "node:http";
import fs from "node:fs";
import path from "node:path";
import { corsHeaders, preflight, serviceOf } from "./mock/cors.mjs";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".wasm": "application/wasm",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
};

/**
 * Starts the server on 127.0.0.1 and a free port.
 * @param {object} opts
 * @param {string} opts.dist   folder of the built app
 * @param {string} [opts.base] sub-path the app is served under, e.g. "/lab/citegate/"
 * @param {(req: http.IncomingMessage, url: URL) => (null | {status:number, headers?:object, body:string|Buffer} | Promise<any>)} [opts.api]
 *        answers for paths under /api/; null means 404. Each answer gets the
 *        CORS headers its service really sends (mock/cors.mjs: none on a
 *        Semantic Scholar 429 or 403, only `Link` exposed by Crossref, …),
 *        and a preflight (OPTIONS) is answered as that service answers it.
 *        An answer may also say
 *        `drop: true` (close the socket, no response), `noCors: true` (answer
 *        without CORS headers: the page sees an opaque network failure),
 *        `delayMs` (wait that long first; nothing is sent if the client has
 *        gone by then) or `truncate: true` (send the headers with the full
 *        content-length and half the body, then destroy the socket).
 * @returns {Promise<{url: string, base: string, close: () => Promise<void>, requests: Array<{method:string, path:string, headers:object}>}>}
 */
export async function start({ dist, base = "/", api } = {}) {
  const requests = [];
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url, "http://127.0.0.1");
    // Semantic Scholar's Graph path, as `citegate relay` forwards to it (the
    // app's BASE/s2 stands for the Graph root, as https://api.semanticscholar.org/graph/v1).
    if (url.pathname.startsWith("/api/s2/graph/v1/")) url.pathname = url.pathname.replace("/api/s2/graph/v1/", "/api/s2/");
    if (url.pathname.startsWith("/api/")) {
      requests.push({ method: req.method, path: url.pathname + url.search, headers: req.headers });
      const service = serviceOf(url);
      if (req.method === "OPTIONS") {
        const pre = preflight(service, req);
        res.writeHead(pre.status, pre.headers);
        return res.end();
      }
      let answer = api ? await api(req, url) : null;
      if (!answer) answer = { status: 404, body: JSON.stringify({ error: "no recorded response" }) };
      if (answer.delayMs) {
        // Held until the delay passes or the client gives up, whichever is first.
        await new Promise((ok) => {
          const timer = setTimeout(ok, answer.delayMs);
          res.on("close", () => {
            clearTimeout(timer);
            ok();
          });
        });
        if (req.socket.destroyed || res.writableEnded || res.destroyed) return;
      }
      if (answer.drop) {
        req.socket.destroy();
        return;
      }
      const headers = answer.noCors ? { ...(answer.headers || {}) } : { ...corsHeaders(service, answer.status), ...(answer.headers || {}) };
      if (!headers["content-type"]) headers["content-type"] = "application/json";
      if (answer.truncate) {
        const body = Buffer.from(answer.body ?? "");
        headers["content-length"] = String(body.length);
        res.writeHead(answer.status, headers);
        res.write(body.subarray(0, Math.floor(body.length / 2)), () => setTimeout(() => res.destroy(), 20));
        return;
      }
      res.writeHead(answer.status, headers);
      return res.end(answer.body);
    }
    if (!url.pathname.startsWith(base)) {
      res.writeHead(404, { "content-type": "text/plain" });
      return res.end("not under " + base);
    }
    let rel = decodeURIComponent(url.pathname.slice(base.length)) || "index.html";
    if (rel.endsWith("/")) rel += "index.html";
    const file = path.resolve(dist, rel);
    if (!file.startsWith(path.resolve(dist))) {
      res.writeHead(403);
      return res.end();
    }
    // Like a static host that serves precompressed files (README, Hosting):
    // the `.br` beside a file when the browser accepts Brotli, so what the
    // tests see transferred is what such a host sends.
    const type = TYPES[path.extname(file)] || "application/octet-stream";
    const brotli = /\bbr\b/.test(req.headers["accept-encoding"] || "") && fs.existsSync(file + ".br");
    fs.readFile(brotli ? file + ".br" : file, (err, data) => {
      if (err) {
        res.writeHead(404, { "content-type": "text/plain" });
        return res.end("not found");
      }
      const headers = { "content-type": type, vary: "accept-encoding" };
      if (brotli) headers["content-encoding"] = "br";
      res.writeHead(200, headers);
      res.end(data);
    });
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}${base}`,
    base,
    requests,
    close: () =>
      new Promise((ok) => {
        server.close(() => ok());
        // Held-open (delayed) answers must not keep the server alive.
        server.closeAllConnections?.();
      }),
  };
}
