// The packed npm tarball installed into a fresh project and imported by name
// from Node, as `import` and as `require`, through the exports map.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { packAndInstall } from "./pack.mjs";

let pkg;
before(() => {
  pkg = packAndInstall();
});
after(() => fs.rmSync(pkg.tmp, { recursive: true, force: true }));

/** Writes `source` as `name` in the project and returns what it prints, parsed as JSON. */
function run(name, source) {
  fs.writeFileSync(path.join(pkg.project, name), source);
  return JSON.parse(execFileSync(process.execPath, [name], { cwd: pkg.project, encoding: "utf8" }));
}

test("the tarball holds both builds, their types, the README and the LICENSE, and nothing else", () => {
  const want = ["LICENSE", "README.md", "package.json"];
  for (const kind of ["pkg-node", "pkg-web"]) {
    for (const f of ["citegate.js", "citegate.d.ts", "citegate_bg.wasm", "citegate_bg.wasm.d.ts", "package.json"]) {
      want.push(`${kind}/${f}`);
    }
  }
  assert.deepEqual(pkg.files, want.sort());
});

test("the package is publishable: not private, with a name, version, license and exports", () => {
  const meta = JSON.parse(fs.readFileSync(path.join(pkg.installed, "package.json"), "utf8"));
  assert.equal(meta.private, undefined);
  assert.deepEqual([meta.name, meta.version, meta.license], ["citegate", "0.1.0", "MIT"]);
  // Each condition's types belong to its own build: Node's declare no init().
  const root = meta.exports["."];
  assert.deepEqual(root.node, { types: "./pkg-node/citegate.d.ts", default: "./pkg-node/citegate.js" });
  assert.deepEqual([root.types, root.default], ["./pkg-web/citegate.d.ts", "./pkg-web/citegate.js"]);
  const nodeTypes = fs.readFileSync(path.join(pkg.installed, root.node.types), "utf8");
  const webTypes = fs.readFileSync(path.join(pkg.installed, root.types), "utf8");
  for (const t of [nodeTypes, webTypes]) assert.match(t, /export function matchTitles\(/);
  assert.doesNotMatch(nodeTypes, /export default function __wbg_init/);
  assert.match(webTypes, /export default function __wbg_init/);
});

test("import from Node by the package name", () => {
  const r = run(
    "use.mjs",
    `import { matchTitles, checkCutoff, parseBib } from "citegate";
     const m = matchTitles("Attention is all you need", "Attention Is All You Need.");
     let kind;
     try { checkCutoff("2023-02-29", "2024-10-01"); } catch (e) { kind = e.kind; }
     console.log(JSON.stringify({
       match: [m.score, m.pass],
       cutoff: checkCutoff("2024-09", "2024-10-01").pass,
       keys: parseBib("@article{a, title={T}}\\n@book{b, title={U}}").entries.map((e) => e.key),
       kind,
       resolved: import.meta.resolve("citegate").split("node_modules/")[1],
     }));`,
  );
  assert.deepEqual(r, {
    match: [100, true],
    cutoff: true,
    keys: ["a", "b"],
    kind: "invalid_date",
    resolved: "citegate/pkg-node/citegate.js",
  });
});

test("require from Node by the package name", () => {
  const r = run(
    "use.cjs",
    `const { titleScore } = require("citegate");
     console.log(JSON.stringify({ score: titleScore("abc", "abd"), path: require.resolve("citegate").split("node_modules/")[1] }));`,
  );
  // "abc" vs "abd": 1 - 2/6 = 66.67, rounded to 67.
  assert.deepEqual(r, { score: 67, path: "citegate/pkg-node/citegate.js" });
});
