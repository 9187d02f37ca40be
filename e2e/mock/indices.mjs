// Crossref and OpenAlex for the example pool (web/examples/citation_pool.json):
// a title search finds the paper (Crossref misses devlin2019bert and dates
// tay2022efficient three years early, so the tiers differ); a DOI batch finds
// nothing, so every paper goes through the title search. The envelopes are
// those of the recorded responses in core/tests/fixtures/api/{crossref,openalex}.
import fs from "node:fs";

export const POOL = JSON.parse(fs.readFileSync(new URL("../../web/examples/citation_pool.json", import.meta.url), "utf8"));
const list = (items) => ({ status: 200, body: JSON.stringify({ status: "ok", "message-type": "work-list", "message-version": "1.0.0", message: { "total-results": items.length, items } }) });
const openalexList = (results) => ({ status: 200, body: JSON.stringify({ meta: { count: results.length, page: 1, per_page: 5 }, results }) });
export const indices = (req, url) => {
  const p = url.pathname;
  if (p === "/api/crossref/works") {
    if (url.searchParams.get("filter")?.includes("doi:")) return list([]);
    const paper = POOL.papers.find((x) => x.title === url.searchParams.get("query.bibliographic"));
    if (!paper || paper.bibtex_key === "devlin2019bert") return list([]);
    const year = paper.bibtex_key === "tay2022efficient" ? paper.year - 3 : paper.year;
    return list([{ DOI: `10.5555/mock.${POOL.papers.indexOf(paper)}`, title: [paper.title], type: "journal-article", issued: { "date-parts": [[year]] } }]);
  }
  if (p === "/api/openalex/works") {
    if (url.searchParams.get("filter")?.includes("doi:")) return openalexList([]);
    const paper = POOL.papers.find((x) => x.title === url.searchParams.get("search"));
    if (!paper) return openalexList([]);
    const n = POOL.papers.indexOf(paper);
    return openalexList([{ id: `https://openalex.org/W90000000${n}`, doi: null, title: paper.title, display_name: paper.title, publication_year: paper.year, publication_date: `${paper.year}-01-01`, type: "article" }]);
  }
  return null;
};
