// Responses composed from the recorded Semantic Scholar shapes for the
// example candidates (web/examples/raw_candidates.json): the search and
// batch envelopes and field names are those of
// core/tests/fixtures/api/semanticscholar/{search_relevance_with_abstracts,batch_many_fields_with_null}.json;
// the records are the example set's papers.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const RECORDS = JSON.parse(fs.readFileSync(path.join(HERE, "s2_records.json"), "utf8"));

// Semantic Scholar's /paper/search finds nothing for a query with a
// hyphenated term; its API documentation says to use a space instead
// (quoted in allenai/s2-folks#203; danielnsilva/semanticscholar#51).
export const HYPHENATED = /[\p{L}\p{N}]-[\p{L}\p{N}]/u;
/** A query as S2 wants it: hyphens between word characters become spaces. */
export const dehyphen = (q) => q.replace(/(?<=[\p{L}\p{N}])-(?=[\p{L}\p{N}])/gu, " ");

const norm = (t) => t.toLowerCase().replace(/[^a-z0-9]+/g, " ").trim();

const strip = ({ _queries, ...r }) => r;

/** Search hits for a title query: the records whose title equals or contains it. */
export function s2SearchHits(query) {
  const q = norm(query);
  if (!q) return [];
  return RECORDS.filter((r) => norm(r.title) === q || (r._queries || []).some((x) => norm(x) === q)).map(strip);
}

/** A batch answer: one record or null per id, in request order. */
export function s2BatchRecords(ids) {
  return ids.map((id) => {
    const bare = String(id).replace(/^(ARXIV|DOI|CorpusId):/i, "").toLowerCase();
    const r = RECORDS.find(
      (r) =>
        r.paperId === id ||
        (r.externalIds?.ArXiv || "").toLowerCase() === bare ||
        (r.externalIds?.DOI || "").toLowerCase() === bare,
    );
    return r ? strip(r) : null;
  });
}
