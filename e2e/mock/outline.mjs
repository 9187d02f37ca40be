// Search answers for the example outline (web/examples/outline.json), for
// Semantic Scholar, OpenAlex and Crossref. Each query maps to some of the
// example set's papers (s2_records.json); the answers are built in the
// envelopes and field names of the recorded searches:
//   semanticscholar/search_relevance_with_abstracts.json (total/offset/data),
//   openalex/search_attention_mechanism_with_abstracts.json (meta/results,
//     abstract_inverted_index, authorships[].author.display_name),
//   crossref/search_query_ecology_rows2.json (message.items, title[],
//     issued.date-parts, author[].given/family, container-title[]).
// Crossref items carry the arXiv DataCite DOI (10.48550/arXiv.<id>).
import { RECORDS, HYPHENATED, dehyphen } from "./compose.mjs";

export const OUTLINE_QUERIES = {
  "transformer sequence transduction": ["Attention is All you Need"],
  "efficient attention for long sequences": [
    "Longformer: The Long-Document Transformer",
    "Big Bird: Transformers for Longer Sequences",
    "Reformer: The Efficient Transformer",
  ],
  "sparse attention patterns for long documents": [
    "Longformer: The Long-Document Transformer",
    "Big Bird: Transformers for Longer Sequences",
    "Sparse Sinkhorn Attention",
    "Sparse Transformers for Protein Folding at Scale",
  ],
  "low-rank approximation of self-attention": ["Linformer: Self-Attention with Linear Complexity"],
  "kernel feature maps for linear attention": [
    "Rethinking Attention with Performers",
    "Transformers are RNNs: Fast Autoregressive Transformers with Linear Attention",
  ],
  "IO-aware exact attention": [
    "FlashAttention: Fast and Memory-Efficient Exact Attention with IO-Awareness",
    "Attention is All you Need",
  ],
  "selective state space models": ["Mamba: Linear-Time Sequence Modeling with Selective State Spaces"],
};

const strip = ({ _queries, ...r }) => r;

/** The example-set records a query finds, in rank order, at most `limit`. */
export function recordsFor(query, limit = 100) {
  const titles = OUTLINE_QUERIES[query.trim()] || [];
  return titles
    .map((t) => RECORDS.find((r) => r.title === t))
    .filter(Boolean)
    .slice(0, limit)
    .map(strip);
}

function invertedIndex(text) {
  const index = {};
  text.split(/\s+/).filter(Boolean).forEach((w, i) => (index[w] ||= []).push(i));
  return index;
}

function openalexWork(r) {
  const n = RECORDS.findIndex((x) => x.paperId === r.paperId);
  return {
    id: `https://openalex.org/W90000000${n}`,
    doi: r.externalIds?.DOI ? `https://doi.org/${r.externalIds.DOI.toLowerCase()}` : null,
    title: r.title,
    publication_year: r.year,
    publication_date: r.publicationDate,
    cited_by_count: r.citationCount,
    authorships: (r.authors || []).map((a, i) => ({
      author_position: i === 0 ? "first" : "middle",
      author: { id: `https://openalex.org/A9${a.authorId}`, display_name: a.name },
    })),
    abstract_inverted_index: r.abstract ? invertedIndex(r.abstract) : null,
  };
}

function crossrefItem(r) {
  const arxiv = r.externalIds?.ArXiv;
  const [y, m, d] = (r.publicationDate || String(r.year)).split("-").map(Number);
  return {
    DOI: r.externalIds?.DOI || (arxiv ? `10.48550/arXiv.${arxiv}` : `10.5555/mock.${r.paperId.slice(0, 8)}`),
    type: "posted-content",
    title: [r.title],
    author: (r.authors || []).map((a) => {
      const parts = a.name.split(" ");
      return { given: parts.slice(0, -1).join(" "), family: parts.at(-1), sequence: "additional" };
    }),
    "container-title": r.venue ? [r.venue] : [],
    issued: { "date-parts": [[y, m, d].filter((x) => Number.isFinite(x))] },
    ...(r.abstract ? { abstract: `<jats:p>${r.abstract}</jats:p>` } : {}),
  };
}

const ok = (body) => ({ status: 200, body: JSON.stringify(body) });

/**
 * A `before` handler for makeApi answering the outline's searches on all
 * three services. `fail(service, query)` returning a status makes that
 * search answer it instead (a 500 for one query, say).
 */
export function outlineSearch(fail = () => null) {
  return (req, url) => {
    const p = url.pathname;
    const service = p === "/api/s2/paper/search" ? "s2" : p === "/api/openalex/works" ? "openalex" : p === "/api/crossref/works" ? "crossref" : null;
    if (!service) return null;
    const asked = (url.searchParams.get(service === "s2" ? "query" : service === "openalex" ? "search" : "query.bibliographic") || "").trim();
    // S2 matches the outline's query only in its hyphen-free form (compose.mjs).
    if (service === "s2" && HYPHENATED.test(asked)) return ok({ total: 0, offset: 0 });
    const q = Object.keys(OUTLINE_QUERIES).find((k) => k === asked || (service === "s2" && dehyphen(k) === asked));
    if (!q) return null;
    const status = fail(service, q);
    if (status) return { status, body: JSON.stringify({ error: "mock outage", message: "internal server error" }) };
    const limit = Number(url.searchParams.get(service === "s2" ? "limit" : service === "openalex" ? "per_page" : "rows") || 100);
    const recs = recordsFor(q, limit);
    if (service === "s2") return ok({ total: recs.length, offset: 0, data: recs });
    if (service === "openalex")
      return ok({ meta: { count: recs.length, db_response_time_ms: 1, page: 1, per_page: limit, groups_count: null }, results: recs.map(openalexWork), group_by: [] });
    return ok({ status: "ok", "message-type": "work-list", "message-version": "1.0.0", message: { facets: {}, "total-results": recs.length, items: recs.map(crossrefItem), "items-per-page": limit, query: { "start-index": 0, "search-terms": q } } });
  };
}
