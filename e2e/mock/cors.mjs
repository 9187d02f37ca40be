// What each mock service lets a page read: the CORS headers of its answers
// and of its answers to preflights (OPTIONS). A browser hides an answer
// without `Access-Control-Allow-Origin` from the page (the fetch fails like
// a network error), refuses to send a request whose preflight is not
// allowed, and lets a script read only the safelisted response headers plus
// those named in `Access-Control-Expose-Headers`. The mock is never kinder
// than the real service: where no public record says a service sends a
// header, the mock does not send it.
//
// Sources (core/tests/fixtures/api/PROVENANCE.md lists the recordings):
// - Semantic Scholar: its successful and 4xx answers carry only
//   `Access-Control-Allow-Origin: *` (danielnsilva/semanticscholar VCR
//   cassettes, tests/data/*.yaml); its API gateway's 403 for a bad key has no
//   CORS header at all (same cassettes, test_debug.yaml, recorded in
//   semanticscholar/error_403_forbidden_bad_api_key.request.json); its 429
//   comes from the same gateway and browser users report it, and its
//   preflight, as "CORS Missing Allow Origin" (arXiv/arxiv-browse#226,
//   2021 and again 2023). So 429 and 403 are answered without CORS headers,
//   and a preflight without `x-api-key` in Access-Control-Request-Headers
//   (the keyless batch, preflighted for its JSON content-type) gets no
//   allow headers; a preflight for the key's header is allowed, since the
//   service issues keys for use from any client.
// - Crossref: `Access-Control-Allow-Origin: *`, a fixed
//   `Access-Control-Allow-Headers` list and `Access-Control-Expose-Headers:
//   Link` only (sckott/habanero cassettes, 2026): the `x-rate-limit-*`,
//   `x-concurrency-limit` headers it sends, and any `Retry-After`, are not
//   readable by a page. Since 1 December 2025 list queries have their own
//   lower limit ("Announcing changes to REST API rate limits", Crossref
//   blog, 5 November 2025); the page must pace by the documented numbers.
// - OpenAlex: answers browsers (`Access-Control-Allow-Origin: *`); no
//   recording shows an exposed header, so none is exposed.
// - DataCite: its REST API is documented for public GET use; no recording of
//   its CORS headers was found (datacite/lupo's own rack-cors initializer is
//   commented out, so the headers come from its edge), so the mock allows
//   GET and exposes nothing. UNVERIFIED beyond that.
// - DBLP: no public record shows its search API sending CORS headers, so
//   the mock sends none: a page cannot read it (the command line can).

/** The service of an /api/<service>/… path. */
export const serviceOf = (url) => url.pathname.split("/")[2] || "";

const CROSSREF_ALLOW_HEADERS = "X-Requested-With, Accept, Accept-Encoding, Accept-Charset, Accept-Language, Accept-Ranges, Cache-Control";

// Headers the real services send that a page may not read (not exposed).
const UNEXPOSED = {
  // habanero cassettes: public pool, single-work lookups.
  crossref: { "x-rate-limit-limit": "5", "x-rate-limit-interval": "1s", "x-concurrency-limit": "1", "x-api-pool": "public" },
};

/**
 * The CORS (and unexposed service) headers of an answer with `status` from
 * `service`; `{}` when the service sends none.
 */
export function corsHeaders(service, status) {
  switch (service) {
    case "s2":
      // Gateway errors (rate limit, bad or pruned key) carry no CORS headers.
      if (status === 429 || status === 403) return {};
      return { "access-control-allow-origin": "*" };
    case "crossref":
      return {
        "access-control-allow-origin": "*",
        "access-control-allow-headers": CROSSREF_ALLOW_HEADERS,
        "access-control-expose-headers": "Link",
        ...UNEXPOSED.crossref,
      };
    case "openalex":
      // An over-long URL is refused at the edge (router.mjs): no CORS header.
      if (status === 414) return {};
      return { "access-control-allow-origin": "*" };
    case "datacite":
      return { "access-control-allow-origin": "*" };
    case "dblp":
      return {};
    default:
      // Paths of test scenarios outside the five services.
      return { "access-control-allow-origin": "*" };
  }
}

/** The answer to a preflight (OPTIONS) for `service`: `{status, headers}`. */
export function preflight(service, req) {
  const asked = String(req.headers["access-control-request-headers"] || "")
    .toLowerCase()
    .split(",")
    .map((h) => h.trim())
    .filter(Boolean);
  const refused = { status: 403, headers: { "content-type": "application/json" } };
  switch (service) {
    case "s2":
      if (!asked.includes("x-api-key")) return refused;
      return {
        status: 204,
        headers: {
          "access-control-allow-origin": "*",
          "access-control-allow-headers": "x-api-key, content-type",
          "access-control-allow-methods": "GET, POST",
        },
      };
    case "crossref": {
      const allowed = CROSSREF_ALLOW_HEADERS.toLowerCase().split(", ");
      if (asked.some((h) => !allowed.includes(h))) return { status: 200, headers: corsHeaders("crossref", 200) };
      return { status: 200, headers: { ...corsHeaders("crossref", 200), "access-control-allow-methods": "GET" } };
    }
    case "openalex":
    case "datacite":
      // Simple GETs only: no header beyond the safelist is allowed.
      if (asked.length) return { status: 204, headers: { "access-control-allow-origin": "*" } };
      return { status: 204, headers: { "access-control-allow-origin": "*", "access-control-allow-methods": "GET" } };
    case "dblp":
      return refused;
    default:
      return { status: 204, headers: { "access-control-allow-origin": "*", "access-control-allow-headers": "*", "access-control-allow-methods": "GET, POST, OPTIONS" } };
  }
}
