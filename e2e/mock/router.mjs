// The mock scholarly APIs for the end-to-end tests. Every answer is a
// recorded response from core/tests/fixtures/api, or one composed from the
// recorded shapes for the example set (compose.mjs). The app reaches them
// through `?api=<server>/api`, which puts Semantic Scholar under /api/s2,
// Crossref under /api/crossref and OpenAlex under /api/openalex.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { s2SearchHits, s2BatchRecords } from "./compose.mjs";

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

/**
 * Builds the `api` callback for server.mjs.
 * @param {object} [opts]
 * @param {Array<(req, url, body) => any>} [opts.before] handlers tried first (scenarios: 500s, 429 bursts)
 */
export function makeApi({ before = [] } = {}) {
  return async (req, url) => {
    let body = "";
    if (req.method === "POST") {
      for await (const chunk of req) body += chunk;
    }
    for (const h of before) {
      const a = await h(req, url, body);
      if (a) return a;
    }
    return route(req, url, body);
  };
}

export function route(req, url, body) {
  const p = decodeURIComponent(url.pathname);
  let m;
  if ((m = p.match(/^\/api\/crossref\/works\/(10\..+)$/))) {
    const rec = CROSSREF.get(m[1].toLowerCase());
    if (rec) return json(200, rec);
    return { status: 404, headers: { "content-type": "text/plain" }, body: fixture("crossref/error_404_work_not_found.txt") };
  }
  if ((m = p.match(/^\/api\/s2\/paper\/(?:ARXIV|arXiv):(.+)$/))) {
    const rec = S2_ARXIV.get(m[1].replace(/v\d+$/, ""));
    return rec ? json(200, rec) : json(404, fixture("semanticscholar/error_404_paper_not_found.json"));
  }
  if (p === "/api/s2/paper/search" || p === "/api/s2/paper/search/match") {
    const hits = s2SearchHits(url.searchParams.get("query") || "");
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
    return json(200, s2BatchRecords(ids));
  }
  return null;
}
