// The npm package as a user gets it: `npm pack` in js/, then the tarball
// installed into a fresh project in a temporary folder. Shared by
// js/test/pack.test.mjs (Node) and e2e/tests/js_package.test.mjs (a page).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const jsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/**
 * Packs js/ and installs the tarball into `<tmp>/project`. Returns the
 * project folder, the installed package's folder and the packed file list.
 * Installing a local tarball with no dependencies needs no network.
 */
export function packAndInstall() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "citegate-pack-"));
  const out = execFileSync("npm", ["pack", "--json", "--pack-destination", tmp], {
    cwd: jsDir,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  // npm prints the prepack script's output before the JSON.
  const [packed] = JSON.parse(out.slice(out.indexOf("[")));
  const project = path.join(tmp, "project");
  fs.mkdirSync(project);
  fs.writeFileSync(
    path.join(project, "package.json"),
    JSON.stringify({ name: "uses-citegate", version: "1.0.0", private: true, type: "module" }),
  );
  execFileSync(
    "npm",
    ["install", "--offline", "--no-audit", "--no-fund", path.join(tmp, packed.filename)],
    { cwd: project, stdio: ["ignore", "ignore", "inherit"] },
  );
  return {
    tmp,
    project,
    installed: path.join(project, "node_modules", "citegate"),
    files: packed.files.map((f) => f.path).sort(),
  };
}
