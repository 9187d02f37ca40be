// Compiled by `tsc --noEmit --strict` (never run): calls the package's exports
// with correctly typed arguments and reads their results' fields, so a
// missing, wrong or `any`-typed declaration in ../pkg-web/citegate.d.ts (the
// one generated from the Rust types) fails the build. Each `@ts-expect-error`
// line must be an error: it holds a declaration to its exact shape.
import {
  VerificationRun, ProbeSession, bibCheckFormat, bibJudge, bibReferences, checkCutoff,
  coverage, crossClassify, decide, dedupe, extractCites, fuse, libraryAdd, libraryParse,
  matchTitles, parseBib, parseCandidates, parseReference, parseResponse, preDedup,
  readPdfReferences, readReferences, scanProject, searchStatus, syncKeys, titleScore, writeBib,
} from "../pkg-web/citegate.js";
import type {
  CitegateError, Decision, ErrorKind, Existence, Location, PoolPaper, RunNext, RunOutcome,
  RunSettings, Service, TexFiles, Work,
} from "../pkg-web/citegate.js";
import type * as NodeTypes from "../pkg-node/citegate.js";

const score: number = titleScore("Attention is all you need", "Attention Is All You Need.");
const m = matchTitles("a", "b", true, 70);
const pass: boolean = m.pass && m.score > score && m.candidate_normalized.length > 0;
// @ts-expect-error: TitleMatch has no field `verdict`
m.verdict;

const cut = checkCutoff("2024-09", "2024-10-01");
const day: string = cut.cutoff;

const bib = parseBib("@article{a, title={T}}");
const keys: string[] = bib.entries.map((e) => e.key + e.fields.map((f) => f.name + f.line).join());
const problemKinds = bib.problems.map((p) => p.kind);
// @ts-expect-error: a problem's kind is one of the parser's, not any string
const badKind: (typeof problemKinds)[number] = "no_such_kind";

const files: TexFiles = { "main.tex": "\\cite{a}" };
const project = scanProject(files, undefined);
const cites: number = project.files[0].scan.cites.length + extractCites("\\cite{a}")[0].line;
const gate = coverage("{\"papers\": []}", files, ["main.tex"], "90%");
const gateFigures: string = `${gate.percent} ${gate.coverage.n_cited} ${gate.summary} ${gate.missing_includes.length}`;
const check = bibCheckFormat("@misc{a}", 2025, files, undefined);
const findingCodes: string[] = check.findings.map((f) => f.code + f.severity);

const candidates = parseCandidates("[]");
const deduped = preDedup(candidates, 92);
const nAfter: number = deduped.n_after_dedup;
const decision: Decision = decide(
  { title: "T", snippet: null },
  "{}",
  200,
  { cutoff: "2024-10-01", threshold: 70, substringBypass: true },
  undefined,
);
if (decision.decision === "accepted") {
  const p: PoolPaper = decision.paper;
  const y: number | null | undefined = p.year;
  void y;
} else if (decision.reason === "low_score") {
  const s: number = decision.score;
  void s;
}
const pool = dedupe([{ title: "T", year: 2020 }], "2024-10-01").pool;
const written = writeBib(pool);
const bibKeys: string[] = written.keys.concat(syncKeys("\\cite{x}", written.pool).replacements.map((r) => r.new));

const service: Service = "crossref";
// @ts-expect-error: not a service citegate knows
const noService: Service = "google_scholar";
const page = parseResponse(service, 200, "{}");
const works: Work[] = page.works;
const titles: string[] = works.map((w) => w.title + (w.doi ?? "") + w.authors.map((a) => a.name).join());
const fused = fuse([{ service, works }], ["10.1/x"]);
const ranks: number[] = fused.map((f) => f.rank + f.found_by);
const response = searchStatus("q", [{ service, status: 200, body: "{}" }], undefined, 10, undefined);
const state: string = response.probe.state + response.status;
const verdict = crossClassify({ title: "T" }, [{ service, unavailable: true }], { threshold: 80 });
const confidence: "high" | "medium" | "low" | "conflict" = verdict.confidence;

const added = libraryAdd("", works[0]);
const lib = libraryParse(added.text);
const ids: string[] = lib.records.map((r) => r.id).concat(lib.errors.map((e) => e.message));

const settings: RunSettings = {
  endpoints: { s2_base: "a", openalex_base: "b", crossref_base: "c" },
  surface: "native",
};
const run = new VerificationRun(bibReferences("@misc{a, title={T}}"), settings);
const next: RunNext = run.next(0);
if (next.kind === "send") {
  for (const { id, request } of next.requests) {
    const url: string = request.url;
    const method: "GET" | "POST" = request.method;
    void [url, method];
    run.answer(id, { status: 200, body: "{}" }, 1);
  }
} else if (next.kind === "wait_until") {
  const at: number = next.at;
  void at;
}
const [decided, total]: [number, number] = run.progress();
const outcome: RunOutcome = run.report().resolutions[0].outcome;
const found: Work | undefined = outcome.status === "found" ? outcome.work : undefined;
const judged = bibJudge("@misc{a}", run.report(), "2025-01-01");
const verdicts: string[] = judged.entries.map((e) => e.class + e.verdict + e.reasons.map((r) => r.kind).join());

const probe = new ProbeSession("q", 0, ["openalex"], { max_drops: 2, delay_ms: 0, min_terms: 2 });
const req = probe.nextRequest();
const probeQuery: string | undefined = req?.query;
probe.consume(3);

const existence: Existence = { status: "not_found", reason: "none" };

function kindOf(e: unknown): ErrorKind | undefined {
  const err = e as CitegateError;
  const where: Location = err.location;
  return where.line !== undefined ? err.kind : undefined;
}

// A paper's references: from a PDF, from a `.bbl` or a list, one string.
const pdf = readPdfReferences(new Uint8Array());
const firstPage: number = pdf.pages + (pdf.references[0]?.page ?? 0);
const label: string | undefined = pdf.references[0]?.label;
const read = readReferences("paper.bbl", new TextEncoder().encode(""));
const readFormat: "biblatex" | "thebibliography" | "bibliography" | "text" | "pdf" = read.format;
// @ts-expect-error: a format is one of the readers', not any string
const anyFormat: "docx" = read.format;
const one = parseReference("A. Author. A title. 2020.");
const family: string | undefined = one.authors[0]?.family;
const titleSure: number = one.confidence.title;
// @ts-expect-error: a reference's year is a number or null, not a string
const yearText: string = one.year;

// The Node build declares the same types.
const nodeWork: NodeTypes.Work = works[0];

export const used = [
  pass, day, keys, badKind, cites, gateFigures, findingCodes, nAfter, bibKeys, noService, titles,
  ranks, state, confidence, ids, decided, total, found, verdicts, probeQuery, existence, kindOf,
  nodeWork, firstPage, label, readFormat, anyFormat, family, titleSure, yearText,
];
