// Records for the mock DataCite and DBLP, rendered from a real bibliography
// the way each service shapes its answers — not the entries copied as
// they are. The bibliography is the astropy v2.0 paper's
// (e2e/fixtures/astropy/bibliography.bib, see e2e/fixtures/PROVENANCE.md):
// 93 entries, 52 DOIs, 23 of them Zenodo's, which DataCite registers; the
// other DOIs are Crossref's, and Semantic Scholar holds every titled entry.
//
// Shapes:
// - DataCite REST API `GET /dois/{doi}` (support.datacite.org, "Retrieving
//   a single DOI"): a JSON:API document `{data: {id, type: "dois",
//   attributes: {doi, titles: [{title}], creators: [{name, givenName,
//   familyName, nameType}], publisher, publicationYear, types, url}}}`; an
//   unknown DOI is a 404 with `{errors: [{status: "404", title: "The
//   resource you are looking for doesn't exist."}]}` (the message in
//   datacite/lupo's ApplicationController).
// - DBLP `GET /search/publ/api?q=…&format=json` (dblp.org FAQ "How to use
//   the dblp search API"): `{result: {query, status: {"@code", text}, hits:
//   {"@total", "@computed", "@sent", "@first", hit: [{"@score", "@id",
//   info: {authors: {author: [{"@pid", text}]}, title, venue, year, type,
//   key, doi, ee, url}}]}}}`; titles end with a period, as DBLP prints them.
import fs from "node:fs";

export const ASTROPY_BIB = new URL("../fixtures/astropy/bibliography.bib", import.meta.url);

/** A small .bib reader for the mock: entries with lowercase field names and raw values. */
export function readBib(text) {
  const entries = [];
  const at = /@(\w+)\s*[{(]/g;
  let m;
  while ((m = at.exec(text))) {
    const type = m[1].toLowerCase();
    if (type === "comment" || type === "string" || type === "preamble") continue;
    let i = at.lastIndex;
    const comma = text.indexOf(",", i);
    if (comma < 0) break;
    const key = text.slice(i, comma).trim();
    i = comma + 1;
    const fields = {};
    for (;;) {
      const f = /\s*([A-Za-z][\w-]*)\s*=\s*/y;
      f.lastIndex = i;
      const fm = f.exec(text);
      if (!fm) break;
      i = f.lastIndex;
      let value = "";
      if (text[i] === "{") {
        let depth = 0;
        const start = i;
        for (; i < text.length; i++) {
          if (text[i] === "{") depth++;
          else if (text[i] === "}" && --depth === 0) break;
        }
        value = text.slice(start + 1, i);
        i++;
      } else if (text[i] === '"') {
        let depth = 0;
        const start = ++i;
        for (; i < text.length; i++) {
          if (text[i] === "{") depth++;
          else if (text[i] === "}") depth--;
          else if (text[i] === '"' && depth === 0) break;
        }
        value = text.slice(start, i);
        i++;
      } else {
        const start = i;
        while (i < text.length && !/[,}\n]/.test(text[i])) i++;
        value = text.slice(start, i).trim();
      }
      fields[fm[1].toLowerCase()] = value;
      const sep = /\s*,/y;
      sep.lastIndex = i;
      if (!sep.exec(text)) break;
      i = sep.lastIndex;
    }
    entries.push({ type, key, fields });
    at.lastIndex = i;
  }
  return entries;
}

/** Field text as a service shows it: braces, TeX accents and macros dropped, spaces collapsed. */
export function plain(value = "") {
  return value
    .replace(/\\[`'^"~=.uvHc]\s*\{?(\w)\}?/g, "$1")
    .replace(/\\&/g, "&")
    .replace(/\\[a-zA-Z]+\s*/g, "")
    .replace(/[{}]/g, "")
    .replace(/~/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** "Family, Given" / "Given Family" / "{Org}" author list as [{given, family}]. */
export function people(value = "") {
  return value
    .split(/\s+and\s+/)
    .map((a) => a.trim())
    .filter((a) => a && a !== "others" && !/^et al\.?$/.test(a))
    .map((a) => {
      if (/^\{[^{}]*\}$/.test(a) && !a.includes(",")) return { family: plain(a), given: "" };
      const [family, given = ""] = a.includes(",") ? a.split(",", 2) : [a.split(/\s+/).pop(), a.split(/\s+/).slice(0, -1).join(" ")];
      return { family: plain(family), given: plain(given) };
    });
}

const norm = (t) => t.toLowerCase().replace(/[^a-z0-9]+/g, " ").trim();
const bareDoi = (d = "") => plain(d).replace(/^https?:\/\/(dx\.)?doi\.org\//i, "").toLowerCase();

// Prefixes DataCite registers among the ones citegate meets: Zenodo,
// figshare, arXiv's own DOIs.
const DATACITE_PREFIXES = ["10.5281/", "10.6084/", "10.48550/"];
const PUBLISHER = { "10.5281/": "Zenodo", "10.6084/": "figshare", "10.48550/": "arXiv" };

/** DataCite's record of an entry's DOI (or of its arXiv DOI), or null. */
function dataciteRecord(entry, doi) {
  const prefix = DATACITE_PREFIXES.find((p) => doi.startsWith(p));
  if (!prefix) return null;
  const f = entry.fields;
  const year = Number(String(f.year || "").match(/\d{4}/)?.[0]) || null;
  const software = prefix === "10.5281/" && !/article|proceedings/.test(entry.type);
  return {
    data: {
      id: doi,
      type: "dois",
      attributes: {
        doi,
        identifiers: [],
        creators: people(f.author).map((p) =>
          p.given ? { name: `${p.family}, ${p.given}`, nameType: "Personal", givenName: p.given, familyName: p.family } : { name: p.family, nameType: "Organizational" },
        ),
        titles: [{ title: plain(f.title) }],
        publisher: PUBLISHER[prefix],
        publicationYear: year,
        types: software
          ? { ris: "COMP", bibtex: "misc", citeproc: "article", schemaOrg: "SoftwareSourceCode", resourceTypeGeneral: "Software" }
          : { ris: "RPRT", bibtex: "article", citeproc: "article-journal", schemaOrg: "ScholarlyArticle", resourceTypeGeneral: "Preprint" },
        url: prefix === "10.48550/" ? `https://arxiv.org/abs/${doi.slice("10.48550/arxiv.".length)}` : `https://zenodo.org/record/${doi.split(".").pop()}`,
        state: "findable",
      },
    },
  };
}

/** DBLP's hit for an entry (venue, type and key as DBLP forms them). */
function dblpHit(entry, n) {
  const f = entry.fields;
  const authors = people(f.author).map((p, i) => ({ "@pid": `00/${n}-${i}`, text: [p.given, p.family].filter(Boolean).join(" ") }));
  const venue = plain(f.booktitle || f.journal || "CoRR");
  const conf = entry.type === "inproceedings";
  const doi = f.doi ? bareDoi(f.doi) : undefined;
  const key = `${conf ? "conf" : "journals"}/mock/${entry.key.replace(/[^A-Za-z0-9]/g, "")}`;
  return {
    "@score": "10",
    "@id": String(1000 + n),
    info: {
      authors: { author: authors.length === 1 ? authors[0] : authors },
      title: `${plain(f.title)}.`,
      venue,
      ...(f.pages ? { pages: plain(f.pages).replace(/-+/g, "-") } : {}),
      year: String(f.year || "").match(/\d{4}/)?.[0],
      type: conf ? "Conference and Workshop Papers" : "Journal Articles",
      key,
      ...(doi ? { doi, ee: `https://doi.org/${doi}` } : {}),
      url: `https://dblp.org/rec/${key}`,
    },
  };
}

/** Crossref's `message` for an entry's DOI (journal article or proceedings paper). */
function crossrefWork(entry, doi) {
  const f = entry.fields;
  const year = Number(String(f.year || "").match(/\d{4}/)?.[0]);
  const venue = plain(f.journal || f.booktitle || "");
  return {
    DOI: doi,
    type: entry.type === "inproceedings" ? "proceedings-article" : "journal-article",
    title: [plain(f.title)],
    author: people(f.author).map((p) => (p.given ? { given: p.given, family: p.family, sequence: "additional" } : { name: p.family, sequence: "additional" })),
    ...(venue ? { "container-title": [venue] } : {}),
    ...(year ? { issued: { "date-parts": [[year]] }, published: { "date-parts": [[year]] } } : {}),
    ...(f.volume ? { volume: plain(f.volume) } : {}),
    ...(f.pages ? { page: plain(f.pages).replace(/-+/g, "-") } : {}),
    URL: `https://doi.org/${doi}`,
  };
}

/** Semantic Scholar's paper record for an entry (the fields citegate asks for). */
function s2Paper(entry, n, doi, arxiv) {
  const f = entry.fields;
  const year = Number(String(f.year || "").match(/\d{4}/)?.[0]) || null;
  return {
    paperId: `a${String(n).padStart(39, "0")}`,
    externalIds: { ...(doi ? { DOI: doi } : {}), ...(arxiv ? { ArXiv: arxiv } : {}) },
    title: plain(f.title),
    abstract: null,
    authors: people(f.author).map((p, i) => ({ authorId: String(9000 + n * 100 + i), name: [p.given, p.family].filter(Boolean).join(" ") })),
    year,
    publicationDate: null,
    venue: plain(f.journal || f.booktitle || ""),
    journal: f.journal ? { name: plain(f.journal) } : null,
    citationCount: 0,
    publicationTypes: null,
  };
}

/** OpenAlex's work for an entry (the recorded search's fields). */
function openalexWork(entry, n, doi) {
  const f = entry.fields;
  const year = Number(String(f.year || "").match(/\d{4}/)?.[0]) || null;
  return {
    id: `https://openalex.org/W8${String(n).padStart(9, "0")}`,
    doi: doi ? `https://doi.org/${doi}` : null,
    title: plain(f.title),
    display_name: plain(f.title),
    publication_year: year,
    publication_date: year ? `${year}-01-01` : null,
    type: doi.startsWith("10.5281/") ? "dataset" : "article",
    authorships: people(f.author).map((p, i) => ({
      author_position: i === 0 ? "first" : "middle",
      author: { id: `https://openalex.org/A8${n}${i}`, display_name: [p.given, p.family].filter(Boolean).join(" ") },
    })),
    abstract_inverted_index: null,
  };
}

/** Builds the DataCite, Crossref, Semantic Scholar, OpenAlex and DBLP indexes of a bibliography. */
export function indexBib(text) {
  const entries = readBib(text);
  const datacite = new Map();
  const crossref = new Map();
  const s2 = [];
  const openalex = [];
  const dblp = [];
  entries.forEach((e, n) => {
    const doi = e.fields.doi ? bareDoi(e.fields.doi) : "";
    if (doi) {
      const r = dataciteRecord(e, doi);
      if (r) datacite.set(doi, r);
      // Every other DOI here is Crossref's (journals, proceedings, JOSS).
      else if (/^10\.\d{4,9}\/\S+$/.test(doi)) crossref.set(doi, crossrefWork(e, doi));
    }
    const arxivOf = plain(e.fields.eprint || "").replace(/^arxiv:/i, "").replace(/v\d+$/, "");
    // Semantic Scholar indexes papers, not software deposits: the Zenodo
    // entries are not there (never kinder than the real index).
    const zenodo = doi.startsWith("10.5281/");
    // OpenAlex takes in DataCite's records too: every titled entry is there.
    if (e.fields.title) openalex.push(openalexWork(e, n, doi));
    if (e.fields.title && !zenodo) s2.push(s2Paper(e, n, doi && !doi.startsWith("10.48550/") ? doi : "", /^\d{4}\.\d{4,5}$/.test(arxivOf) ? arxivOf : ""));
    const eprint = plain(e.fields.eprint || "").replace(/^arxiv:/i, "").replace(/v\d+$/, "");
    if (eprint && /^\d{4}\.\d{4,5}$|^[a-z-]+(\.[A-Z]{2})?\/\d{7}$/.test(eprint)) {
      const arxivDoi = `10.48550/arxiv.${eprint.toLowerCase()}`;
      datacite.set(arxivDoi, dataciteRecord(e, arxivDoi));
    }
    // DBLP indexes computer science: the proceedings and IEEE/ACM entries.
    if (e.type === "inproceedings" || /^10\.(1109|1145)\//.test(doi)) dblp.push(dblpHit(e, n));
  });
  return { entries, datacite, crossref, s2, openalex, dblp };
}

export const ASTROPY = indexBib(fs.readFileSync(ASTROPY_BIB, "utf8"));

// A workshop paper that DBLP lists and the other indexes do not (as DBLP
// holds many workshop papers S2, OpenAlex and Crossref lack): a browser
// finds it only through a relay, DBLP sending no CORS headers. Made up for
// the mock, under a title no index holds.
export const DBLP_ONLY = {
  type: "inproceedings",
  key: "relaywitness2019",
  fields: {
    title: "Relay Witness Records for Workshop Proceedings",
    author: "Quist, Maren and Oduya, Tomas",
    booktitle: "Workshop on Mock Indexes",
    year: "2019",
  },
};
ASTROPY.dblp.push(dblpHit(DBLP_ONLY, 9000));

// arXiv registers a DataCite DOI (10.48550/arXiv.<id>) for every paper
// (arXiv blog, "new arXiv articles are now automatically assigned DOIs",
// 2022): the example set's arXiv papers (s2_records.json) have theirs.
const S2_RECORDS = JSON.parse(fs.readFileSync(new URL("./s2_records.json", import.meta.url), "utf8"));
for (const r of S2_RECORDS) {
  const id = r.externalIds?.ArXiv;
  if (!id) continue;
  const names = (r.authors || []).map((a) => a.name).join(" and ");
  const entry = { type: "article", key: id, fields: { title: r.title, author: names, year: String(r.year || "") } };
  const doi = `10.48550/arxiv.${id.toLowerCase()}`;
  if (!ASTROPY.datacite.has(doi)) ASTROPY.datacite.set(doi, dataciteRecord(entry, doi));
}

// A retracted work, Wakefield et al. 1998 (The Lancet; retracted
// 2010-02-06), as the indexes answer for it (core/tests/fixtures/api, see
// its PROVENANCE.md): Crossref's record, with its Retraction Watch
// `updated-by` notices, is served from the recorded /works/{doi} fixtures
// (router.mjs); OpenAlex's, with `is_retracted`, is held here and answers
// its DOI and its title. No other index of the mock has it.
export const RETRACTED_DOI = "10.1016/s0140-6736(97)11096-0";
const RETRACTED_OPENALEX = JSON.parse(
  fs.readFileSync(new URL("../../core/tests/fixtures/api/openalex/work_doi_retracted_wakefield.json", import.meta.url), "utf8"),
);
ASTROPY.openalex.push(RETRACTED_OPENALEX);

/** OpenAlex's works for a DOI filter (`doi:a|b`): the retracted work when asked, nothing else (the example set's DOIs are not held there). */
export function openalexByDoi(filter) {
  const asked = String(filter || "")
    .replace(/^doi:/, "")
    .split("|")
    .map((d) => bareDoi(d));
  return asked.includes(RETRACTED_DOI) ? [RETRACTED_OPENALEX] : [];
}

const JSON_API = { "content-type": "application/vnd.api+json; charset=utf-8" };

/** Crossref's `message` for a DOI of the bibliography, or undefined. */
export const crossrefOf = (doi) => ASTROPY.crossref.get(bareDoi(doi));

/** OpenAlex's works of the bibliography whose title is `query` (normalized). */
export function openalexTitleHits(query) {
  // A boolean query of quoted phrases joined by OR (OpenAlex's search
  // guide: uppercase AND, OR, NOT; double quotes for an exact phrase): the
  // works whose title holds one of the phrases as whole words. The real
  // search also reads abstracts and full texts, so it finds at least these.
  const phrases = [...String(query).matchAll(/"([^"]*)"/g)].map((m) => norm(m[1])).filter(Boolean);
  if (phrases.length) return ASTROPY.openalex.filter((w) => phrases.some((p) => ` ${norm(w.title)} `.includes(` ${p} `)));
  const q = norm(query);
  return q ? ASTROPY.openalex.filter((w) => norm(w.title) === q) : [];
}

/** Crossref's works of the bibliography whose title is `query` (normalized). */
export function crossrefTitleHits(query) {
  const q = norm(query);
  return q ? [...ASTROPY.crossref.values()].filter((w) => norm(w.title[0]) === q) : [];
}

/** Semantic Scholar's records of the bibliography whose title is `query` (normalized). */
export function s2TitleHits(query) {
  const q = norm(query);
  return q ? ASTROPY.s2.filter((r) => norm(r.title) === q) : [];
}

/** Semantic Scholar's record of the bibliography for an id (`DOI:…`, `ARXIV:…`), or undefined. */
export function s2ById(id) {
  const bare = String(id).replace(/^(ARXIV|DOI):/i, "").toLowerCase();
  return ASTROPY.s2.find((r) => (r.externalIds.DOI || "").toLowerCase() === bare || (r.externalIds.ArXiv || "").toLowerCase() === bare);
}

/** DataCite `GET /dois?ids=a,b,…`: the known ones, in a JSON:API list (`meta.total`). */
export function dataciteList(ids) {
  const data = String(ids || "")
    .split(",")
    .map((d) => ASTROPY.datacite.get(bareDoi(d))?.data)
    .filter(Boolean);
  return { status: 200, headers: JSON_API, body: JSON.stringify({ data, meta: { total: data.length, totalPages: 1, page: 1 } }) };
}

/** DataCite `GET /dois/{doi}`. */
export function dataciteDoi(doi) {
  const r = ASTROPY.datacite.get(bareDoi(doi));
  if (r) return { status: 200, headers: { "content-type": "application/vnd.api+json; charset=utf-8" }, body: JSON.stringify(r) };
  return { status: 404, headers: { "content-type": "application/vnd.api+json; charset=utf-8" }, body: JSON.stringify({ errors: [{ status: "404", title: "The resource you are looking for doesn't exist." }] }) };
}

/** DBLP `GET /search/publ/api?q=…&format=json`: every word of the query in the title. */
export function dblpSearch(q, h = 30) {
  const words = norm(q).split(" ").filter(Boolean);
  const hits = words.length ? ASTROPY.dblp.filter((x) => words.every((w) => norm(x.info.title).split(" ").some((t) => t.startsWith(w)))) : [];
  const sent = hits.slice(0, Math.max(0, h));
  const result = {
    query: q,
    status: { "@code": "200", text: "OK" },
    time: { "@unit": "msecs", text: "1.00" },
    completions: { "@total": "0", "@computed": "0", "@sent": "0" },
    hits: { "@total": String(hits.length), "@computed": String(hits.length), "@sent": String(sent.length), "@first": "0", ...(sent.length ? { hit: sent } : {}) },
  };
  return { status: 200, body: JSON.stringify({ result }) };
}
