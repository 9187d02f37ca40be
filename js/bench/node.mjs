// Runs the workloads on js/pkg-node: node js/bench/node.mjs DIR
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { runAll, runPdf, loadInputs, TEX_NAMES } from "./workloads.mjs";

const dir = process.argv[2] || "/tmp/citegate-bench";
const cg = createRequire(import.meta.url)("../pkg-node/citegate.js");
const inputs = await loadInputs(async (f) => fs.readFileSync(path.join(dir, f), "utf8"), TEX_NAMES);
console.log(`node ${process.version}, wasm (js/pkg-node)`);
runAll(cg, inputs);
const pdf = path.join(dir, "long.pdf");
if (fs.existsSync(pdf)) runPdf(cg, "long.pdf", new Uint8Array(fs.readFileSync(pdf)));
