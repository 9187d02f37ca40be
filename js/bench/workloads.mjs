// The BENCHMARKS.md workloads on the JavaScript API, shared by the node and
// Chromium runners. `inputs` holds the texts written by
// `cargo run -p citegate-core --example bench_inputs -- DIR`; results are
// the best of `runs` wall-clock times in milliseconds (performance.now()).
export function runAll(cg, inputs, log = console.log) {
  const best = (runs, f) => {
    let t = Infinity;
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      f();
      t = Math.min(t, performance.now() - t0);
    }
    return t;
  };
  const out = {};
  const pairs = inputs.titlePairs.split("\n").filter(Boolean).map((l) => l.split("\t"));
  out.title_score_10k = best(10, () => {
    let s = 0;
    for (const [a, b] of pairs) s += cg.titleScore(a, b);
    return s;
  });
  out.title_pairs_per_s = Math.round(pairs.length / (out.title_score_10k / 1000));
  out.pre_dedup_1000 = best(10, () => cg.preDedup(inputs.candidates1000));
  out.pre_dedup_10000 = best(4, () => cg.preDedup(inputs.candidates10000));
  out.coverage_5mb = best(10, () => cg.coverage(inputs.pool, inputs.tex, ["main.tex"], "0.90"));
  out.bib_5000 = best(10, () => cg.bibCheckFormat(inputs.bib, 2025));
  const lists = JSON.parse(inputs.fusion);
  const library = Array.from({ length: 50 }, (_, i) => `10.5555/shared.${i}`);
  out.fusion_3x100 = best(50, () => cg.fuse(lists, library));
  for (const [k, v] of Object.entries(out)) log(`${k}\t${typeof v === "number" && !Number.isInteger(v) ? v.toFixed(2) + " ms" : v}`);
  return out;
}

/** Reads the inputs through `read(relativePath) -> Promise<string>`. */
export async function loadInputs(read, texNames) {
  const tex = {};
  for (const n of texNames) tex[n] = await read(`tex/${n}`);
  return {
    titlePairs: await read("title_pairs.tsv"),
    candidates1000: await read("candidates_1000.json"),
    candidates10000: await read("candidates_10000.json"),
    pool: await read("pool.json"),
    bib: await read("refs_5000.bib"),
    fusion: await read("fusion_3x100.json"),
    tex,
  };
}

/** The tree's file names: main.tex and its 50 sections. */
export const TEX_NAMES = ["main.tex", ...Array.from({ length: 50 }, (_, s) => `sections/s${String(s).padStart(2, "0")}.tex`)];

/**
 * A paper's references read from its PDF bytes, as the app's "Check a paper"
 * does (readReferences: text with positions, the bibliography found, split,
 * each reference parsed into fields), best of `runs`. The PDF is issue 29's
 * 20-page two-column document (tools/refcorpus: --set long).
 */
export function runPdf(cg, name, bytes, log = console.log, runs = 7) {
  let refs = 0;
  let t = Infinity;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    refs = cg.readReferences(name, bytes).references.length;
    t = Math.min(t, performance.now() - t0);
  }
  log(`read_pdf_${name}\t${t.toFixed(2)} ms\t(${refs} references)`);
  return { ms: t, refs };
}
