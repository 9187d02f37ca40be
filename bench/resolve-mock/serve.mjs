// The e2e mock on a free loopback port, paced as the real services are
// (PACE=0: answering at once); prints its URL.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { start } from "../../e2e/server.mjs";
import { makeApi } from "../../e2e/mock/router.mjs";

const dist = fs.mkdtempSync(path.join(os.tmpdir(), "citegate-bench-"));
fs.writeFileSync(path.join(dist, "index.html"), "<!doctype html>");
const server = await start({ dist, api: makeApi({ pace: process.env.PACE !== "0" }) });
console.log(server.url);
