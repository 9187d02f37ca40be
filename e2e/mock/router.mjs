// The mock scholarly APIs for the end-to-end tests. Every answer is a
// recorded response from core/tests/fixtures/api, or one composed from the
// recorded shapes for the example set (compose.mjs). The app reaches them
// through `?api=<server>/api`, which puts Semantic Scholar under /api/s2,
// Crossref under /api/crossref and OpenAlex under /api/openalex; DataCite
// is under /api/datacite and DBLP under /api/dblp (records.mjs).
//
// Besides the records, the mock behaves as the real services do where a
// client can tell (each rule names its public source; the CORS headers of
// every answer are in cors.mjs, applied by server.mjs):
// - Semantic Scholar's title search finds nothing for a query with a
//   hyphenated term: its API documentation for /paper/search says so and
//   says to use a space instead (quoted in allenai/s2-folks#203; seen in
//   danielnsilva/semanticscholar#51).
// - OpenAlex spends a daily budget per caller: without an API key $0.01 a
//   day, with a free key $1; a search costs $0.001, a list or filter call
//   $0.0001, a single work by id or DOI nothing; once it is spent every
//   call is a 429 until midnight UTC (developers.openalex.org, "Authentication
//   and pricing" and "Errors": 429 = daily limit exceeded). The budget is a
//   makeApi option so a test can stand for a user with a key; `midnight()`
//   starts a new day.
// - `per_page` above 100 is a 400 at OpenAlex (developers.openalex.org,
//   "Page through results": per_page 1-100).
// - OpenAlex's request URL is limited to "about 4 KB" (developers.openalex.org,
//   Search, "Large Boolean queries"): a longer one gets a 414 from its edge,
//   with no CORS header (the status and the missing header are this mock's
//   assumption: no recording of that answer was found), so a page reads no
//   answer at all.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { s2SearchHits, s2BatchRecords, HYPHENATED } from "./compose.mjs";
import { dataciteDoi, dataciteList, dblpSearch, crossrefOf, s2TitleHits, s2ById, openalexTitleHits, crossrefTitleHits, openalexByDoi } from "./records.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const FIXTURES = path.resolve(HERE, "../../core/tests/fixtures/api");

export function fixture(rel) {
  return fs.readFileSync(path.join(FIXTURES, rel), "utf8");
}

const json = (status, body) => ({ status, body: typeof body === "string" ? body : JSON.stringify(body) });

// Crossref records by lowercase DOI, from every recorded /works/{doi}.
const CROSSREF = new Map();
for (const f of fs.readdirSync(path.join(FIXTURES, "crossref"))) {
  if (!f.startsWith("work_by_doi_") || !f.endsWith(".json") || f.endsWith(".request.json")) continue;
  const body = fixture(`crossref/${f}`);
  CROSSREF.set(JSON.parse(body).message.DOI.toLowerCase(), body);
}

// Semantic Scholar papers by arXiv id.
const S2_ARXIV = new Map([["1706.03762", fixture("semanticscholar/paper_by_arxiv_id_full_fields.json")]]);

/** The longest request URL OpenAlex takes ("about 4 KB"). */
export const OPENALEX_URL_MAX = 4096;

/** OpenAlex's daily allowance in USD: keyless and with a (free) key. */
export const OPENALEX_BUDGET = { keyless: 0.01, keyed: 1 };

/** What one OpenAlex call costs in USD: singletons free, lists, searches. */
export function openalexCost(url) {
  const p = url.pathname.replace(/^\/api\/openalex/, "");
  if (/^\/works\/.+/.test(p)) return 0;
  if (url.searchParams.has("search") || [...url.searchParams.keys()].some((k) => k.startsWith("search."))) return 0.001;
  return 0.0001;
}

const openalexError = (status, error, message) => ({ status, body: JSON.stringify({ error, message }) });

/**
 * The real services' published request rates, as the minimum spacing (ms)
 * between two answers of one lane, for `makeApi({pace: true})`: Semantic
 * Scholar 1/s (its API key terms and the shared keyless pool); Crossref
 * since 1 December 2025 5/s for single works and 1/s for list queries
 * (`query…`, `filter=`) in the public pool (Crossref blog, 5 November 2025);
 * OpenAlex 10/s (its former documented limit; the 2026 pricing page allows
 * more, the app keeps to 10); DataCite 3,000 requests per 5 minutes, 10/s
 * (its REST API guide); DBLP about 1/s (it asks scripts to moderate).
 */
export const PACE_MS = { s2: 1000, crossref: 200, "crossref-list": 1000, openalex: 100, datacite: 100, dblp: 1000 };

/** The pacing lane of a request: a service, Crossref's list queries apart. */
export function paceLane(url) {
  const service = url.pathname.split("/")[2] || "";
  const list = service === "crossref" && url.pathname.endsWith("/works") && [...url.searchParams.keys()].some((k) => k.startsWith("query") || k === "filter");
  return list ? "crossref-list" : service;
}

/**
 * Builds the `api` callback for server.mjs.
 * @param {object} [opts]
 * @param {Array<(req, url, body) => any>} [opts.before] handlers tried first (scenarios: 500s, 429 bursts)
 * @param {{keyless: number, keyed: number}} [opts.openalexBudget] OpenAlex's daily allowance (USD)
 * @param {boolean} [opts.pace] answer no faster than the real services allow (PACE_MS): each
 *        answer waits for its lane's next free slot, as a client sending faster would queue
 * @returns the callback, with `midnight()` (a new OpenAlex day) and `openalexSpent()`
 */
export function makeApi({ before = [], openalexBudget = OPENALEX_BUDGET, pace = false } = {}) {
  // Micro-dollars spent today, by caller (keyless, or the key).
  const spent = new Map();
  // The time each lane may answer next, when paced.
  const free = new Map();
  const paced = async (answer, url) => {
    if (!pace || !answer) return answer;
    const lane = paceLane(url);
    const gap = PACE_MS[lane];
    if (!gap) return answer;
    const now = Date.now();
    const at = Math.max(now, free.get(lane) || 0);
    free.set(lane, at + gap);
    return at > now ? { ...answer, delayMs: (answer.delayMs || 0) + (at - now) } : answer;
  };
  const api = async (req, url) => paced(await answer(req, url), url);
  const answer = async (req, url) => {
    let body = "";
    if (req.method === "POST") {
      for await (const chunk of req) body += chunk;
    }
    if (url.pathname.startsWith("/api/openalex/")) {
      if (url.href.length > OPENALEX_URL_MAX) return { status: 414, body: "" };
      const key = url.searchParams.get("api_key") || "";
      const allowance = Math.round((key ? openalexBudget.keyed : openalexBudget.keyless) * 1e6);
      const cost = Math.round(openalexCost(url) * 1e6);
      const used = spent.get(key) || 0;
      if (cost > 0 && used + cost > allowance) {
        return openalexError(429, "Rate limit exceeded", "daily budget exceeded; it resets at midnight UTC");
      }
      spent.set(key, used + cost);
      const perPage = Number(url.searchParams.get("per_page") || url.searchParams.get("per-page") || 25);
      if (!(perPage >= 1 && perPage <= 100)) return openalexError(400, "Invalid query parameters error.", "per_page must be between 1 and 100");
    }
    for (const h of before) {
      const a = await h(req, url, body);
      if (a) return a;
    }
    return route(req, url, body);
  };
  api.midnight = () => spent.clear();
  api.openalexSpent = (key = "") => (spent.get(key) || 0) / 1e6;
  return api;
}

export function route(req, url, body) {
  const p = decodeURIComponent(url.pathname);
  let m;
  if ((m = p.match(/^\/api\/crossref\/works\/(10\..+)$/))) {
    const rec = CROSSREF.get(m[1].toLowerCase());
    if (rec) return json(200, rec);
    const bib = crossrefOf(m[1]);
    if (bib) return json(200, { status: "ok", "message-type": "work", "message-version": "1.0.0", message: bib });
    return { status: 404, headers: { "content-type": "text/plain" }, body: fixture("crossref/error_404_work_not_found.txt") };
  }
  if ((m = p.match(/^\/api\/s2\/paper\/(?:ARXIV|arXiv):(.+)$/)) && S2_ARXIV.has(m[1].replace(/v\d+$/, ""))) {
    return json(200, S2_ARXIV.get(m[1].replace(/v\d+$/, "")));
  }
  if (p === "/api/s2/paper/search" || p === "/api/s2/paper/search/match") {
    const query = url.searchParams.get("query") || "";
    if (HYPHENATED.test(query)) return json(200, fixture("semanticscholar/search_empty_results.json"));
    const hits = [...s2SearchHits(query), ...s2TitleHits(query)];
    if (!hits.length) return json(200, fixture("semanticscholar/search_empty_results.json"));
    return json(200, { total: hits.length, offset: 0, data: hits });
  }
  if (p === "/api/s2/paper/batch" && req.method === "POST") {
    let ids = [];
    try {
      ids = JSON.parse(body).ids || [];
    } catch {
      return json(400, fixture("semanticscholar/error_400_unrecognized_fields.json"));
    }
    // The recorded full paper where there is one (as GET /paper/ARXIV: answers), then the example set's.
    const full = (id) => {
      const a = String(id).match(/^ARXIV:(.+)$/i)?.[1]?.replace(/v\d+$/, "");
      return a && S2_ARXIV.has(a) ? JSON.parse(S2_ARXIV.get(a)) : null;
    };
    return json(200, s2BatchRecords(ids).map((r, i) => full(ids[i]) || r || s2ById(ids[i]) || null));
  }
  // One paper by id (`DOI:…`, `ARXIV:…` without version, paperId): the
  // batch's records, one at a time.
  if ((m = p.match(/^\/api\/s2\/paper\/([^/]+(?:\/.+)?)$/)) && req.method === "GET" && !["search", "batch"].includes(m[1])) {
    const [rec] = s2BatchRecords([m[1]]);
    const found = rec || s2ById(m[1]);
    return found ? json(200, found) : json(404, fixture("semanticscholar/error_404_paper_not_found.json"));
  }
  if ((m = p.match(/^\/api\/datacite\/dois\/(10\..+)$/))) return dataciteDoi(m[1]);
  if (p === "/api/datacite/dois" && url.searchParams.has("ids")) return dataciteList(url.searchParams.get("ids"));
  // Crossref's DOI batch (`filter=doi:a,doi:b`): the recorded works among them.
  if (p === "/api/crossref/works" && /(^|,)doi:/.test(url.searchParams.get("filter") || "")) {
    const items = (url.searchParams.get("filter") || "")
      .split(",")
      .filter((f) => f.startsWith("doi:"))
      .map((f) => {
        const rec = CROSSREF.get(f.slice(4).toLowerCase());
        return rec ? JSON.parse(rec).message : crossrefOf(f.slice(4));
      })
      .filter(Boolean);
    return json(200, { status: "ok", "message-type": "work-list", "message-version": "1.0.0", message: { facets: {}, "total-results": items.length, items, "items-per-page": items.length, query: { "start-index": 0, "search-terms": null } } });
  }
  // OpenAlex's DOI batch (`filter=doi:a|b`): the example set's DOIs are
  // not held there; the retracted work is.
  if (p === "/api/openalex/works" && /(^|,)doi:/.test(url.searchParams.get("filter") || "")) {
    const results = openalexByDoi(url.searchParams.get("filter"));
    return json(200, { meta: { count: results.length, db_response_time_ms: 1, page: 1, per_page: Number(url.searchParams.get("per_page") || 25) }, results, group_by: [] });
  }
  // A title search: the bibliography's records with that title, else 200
  // with no hits (the recorded envelopes).
  if (p === "/api/openalex/works" && url.searchParams.has("search")) {
    const found = openalexTitleHits(url.searchParams.get("search"));
    const perPage = Number(url.searchParams.get("per_page") || 25);
    return json(200, { meta: { count: found.length, db_response_time_ms: 1, page: 1, per_page: perPage }, results: found.slice(0, perPage), group_by: [] });
  }
  if (p === "/api/crossref/works" && [...url.searchParams.keys()].some((k) => k.startsWith("query"))) {
    const items = crossrefTitleHits(url.searchParams.get("query.bibliographic") || url.searchParams.get("query") || "");
    return json(200, { status: "ok", "message-type": "work-list", "message-version": "1.0.0", message: { facets: {}, "total-results": items.length, items, "items-per-page": items.length, query: { "start-index": 0, "search-terms": null } } });
  }
  if (p === "/api/dblp/search/publ/api") {
    return dblpSearch(url.searchParams.get("q") || "", Number(url.searchParams.get("h") || 30));
  }
  return null;
}
