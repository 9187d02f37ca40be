// A seeded fault injector for the mock scholarly APIs: a `before` handler
// for makeApi that, for a fraction of the requests to Semantic Scholar,
// Crossref and OpenAlex, answers with one of the ways a real service fails
// instead of the recorded answer. The choice comes from a small seeded PRNG
// (mulberry32), so a seed replays the same faults for the same sequence of
// requests; the tests print the seed and the faults each run met.
//
// Fault kinds (what the page sees):
//   burst     429 with Retry-After 0, repeated for the next 1–3 requests to that service
//   server    500 with a JSON error body
//   timeout   the right answer, but only after `hangMs` (10 minutes: a hang; the app must time out)
//   truncate  200 headers with the full content-length, half the body, then the socket is destroyed
//   malformed 200 with the first half of the right body: not JSON
//   nocors    502 without CORS headers: an opaque network failure in the browser
import { route } from "./router.mjs";

export const KINDS = ["burst", "server", "timeout", "truncate", "malformed", "nocors"];
export const SERVICES = ["s2", "crossref", "openalex"];

/** mulberry32: a tiny deterministic PRNG returning floats in [0, 1). */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const errorBody = (svc, status) => JSON.stringify({ error: `injected ${status}`, message: `mock ${svc} failure` });

/**
 * Builds a fault injector.
 * @param {object} opts
 * @param {number} opts.seed      PRNG seed
 * @param {number} [opts.rate]    fraction of requests that fail (0..1)
 * @param {string[]} [opts.services] which services may fail ("s2", "crossref", "openalex")
 * @param {string[]} [opts.kinds] which fault kinds may be picked
 * @param {number} [opts.hangMs]  how long a "timeout" answer is held back
 * @param {(req, url, body) => any} [opts.upstream] the right answer (default: the recorded router)
 * @returns {{handler: Function, log: Array<{n:number, service:string, path:string, kind:string}>, enabled: boolean, counts: () => object}}
 */
export function makeFaults({ seed, rate = 0.3, services = SERVICES, kinds = KINDS, hangMs = 600000, upstream = route } = {}) {
  const rand = prng(seed);
  const burst = new Map();
  const log = [];
  let n = 0;
  const self = {
    enabled: true,
    log,
    counts() {
      const c = {};
      for (const e of log) c[e.kind] = (c[e.kind] || 0) + 1;
      return c;
    },
    async handler(req, url, body) {
      const service = url.pathname.split("/")[2];
      if (!self.enabled || !services.includes(service)) return null;
      n += 1;
      const note = (kind) => log.push({ n, service, path: url.pathname + url.search, kind });
      const left = burst.get(service) || 0;
      if (left > 0) {
        burst.set(service, left - 1);
        note("burst");
        return { status: 429, headers: { "retry-after": "0" }, body: errorBody(service, 429) };
      }
      if (rand() >= rate) return null;
      const kind = kinds[Math.floor(rand() * kinds.length)];
      note(kind);
      const right = async () => (await upstream(req, url, body)) || { status: 404, body: errorBody(service, 404) };
      switch (kind) {
        case "burst":
          burst.set(service, 1 + Math.floor(rand() * 3));
          return { status: 429, headers: { "retry-after": "0" }, body: errorBody(service, 429) };
        case "server":
          return { status: 500, body: errorBody(service, 500) };
        case "timeout":
          return { ...(await right()), delayMs: hangMs };
        case "truncate":
          return { ...(await right()), truncate: true };
        case "malformed": {
          const a = await right();
          const text = String(a.body ?? "");
          return { status: 200, body: text.slice(0, Math.max(1, Math.floor(text.length / 2))) };
        }
        case "nocors":
          return { status: 502, noCors: true, body: errorBody(service, 502) };
        default:
          return null;
      }
    },
  };
  return self;
}
