// The Write page against a mock model endpoint (e2e/mock/model.mjs), in both
// API shapes: the seed's three rounds (60 % coverage with an invented key and
// a changed Method section, then a fixed draft still short, then a pass),
// each re-prompt's content, the rounds shown and kept across a reload, the
// downloaded files; and a 401, a 429, a context-length error and an answer
// without LaTeX, each with a clear message and no round lost; progress while
// streaming, and Cancel keeping the rounds done.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { serve } from "../harness.mjs";
import { withPage, screenshot, DIST } from "../browser.mjs";
import { startModel, ERRORS, KEY, MODEL } from "../mock/model.mjs";

const FIX = path.resolve("../cli/tests/fixtures/write");
const TEMPLATE = fs.readFileSync(path.join(FIX, "template.tex"), "utf8");
const KEYS = [
  "vaswani2017attention", "he2016deep", "radford2021learning", "dosovitskiy2021image",
  "bertasius2021space", "arnab2021vivit", "wu2022memvit",
  "child2019generating", "beltagy2020longformer", "zaheer2020big",
];

/** The template with both sections filled, citing the first n keys plus extra. */
function draft(n, extra = [], method = null) {
  const keys = [...KEYS.slice(0, n), ...extra];
  const half = Math.floor(keys.length / 2);
  let t = TEMPLATE.replace("% The introduction goes here.", `Long videos strain attention \\cite{${keys.slice(0, half).join(",")}}.`).replace(
    "% The related work goes here.",
    `Prior work \\citep{${keys.slice(half).join(",")}} scales attention.`,
  );
  if (method) t = t.replace("We sparsify attention over frames with a learned router.", method);
  return t;
}
const answer = (t) => ({ text: `Here is the updated file.\n\n\`\`\`latex\n${t}\`\`\`\n` });

const app = serve({ dist: DIST });
let model;
before(async () => {
  model = await startModel();
});
after(async () => model?.close());

test("with every file given but no model set, Write stays disabled and the page says to choose one in Settings", async () => {
  const errors = await withPage(app.browser, "write-no-model", async (page) => {
    await app.open(page, "#/write");
    await page.waitForSelector("#write-template");
    for (const [id, file] of [["#write-template", "template.tex"], ["#write-pool", "citation_pool.json"], ["#write-outline", "outline.json"], ["#write-idea", "idea.md"], ["#write-log", "experimental_log.md"]]) {
      await page.setInputFiles(id, path.join(FIX, file));
    }
    await page.waitForFunction(() => document.querySelector("#write-cutoff")?.value === "2024-10-01");
    assert.equal(await page.textContent("#write-model"), "no writing model set: choose one in Settings");
    assert.equal(await page.isDisabled("#write-start"), true);
  });
  assert.deepEqual(errors, []);
});

async function setup(page, shape) {
  await app.open(page, "#/settings");
  await page.waitForSelector("#llm-api");
  await page.selectOption("#llm-api", shape);
  await page.fill("#llm-base", shape === "openai" ? `${model.url}/v1` : model.url);
  await page.fill("#llm-model", MODEL);
  await page.fill("#llm-key", KEY);
  await page.click("#save-settings");
  await page.waitForFunction(() => document.querySelector("#settings-status")?.textContent.includes("settings saved"));
  await page.click('a[href="#/write"]');
  await page.waitForSelector("#write-template");
  for (const [id, file] of [["#write-template", "template.tex"], ["#write-pool", "citation_pool.json"], ["#write-outline", "outline.json"], ["#write-idea", "idea.md"], ["#write-log", "experimental_log.md"]]) {
    await page.setInputFiles(id, path.join(FIX, file));
  }
  await page.waitForFunction(() => document.querySelector("#write-cutoff")?.value === "2024-10-01");
  await page.waitForFunction(() => !document.querySelector("#write-start").disabled);
}

const rounds = (page) => page.$$eval("#rounds li.round .summary", (s) => s.map((x) => x.textContent));
const lastMessage = (r) => r.body.messages.at(-1).content;
const downloaded = async (page, selector) => {
  const [d] = await Promise.all([page.waitForEvent("download"), page.click(selector)]);
  return [d.suggestedFilename(), Buffer.concat(await (await d.createReadStream()).toArray()).toString()];
};

for (const shape of ["openai", "anthropic"]) {
  test(`${shape}: three rounds as the seed describes, kept across a reload`, async () => {
    const errors = await withPage(app.browser, `write-${shape}`, async (page) => {
      await setup(page, shape);
      const start = model.requests.length;
      const final = draft(10);
      model.script(answer(draft(6, ["smith2023invented"], "We sparsify attention with a better router.")), answer(draft(8)), answer(final));
      await page.click("#write-start");
      await page.waitForFunction(() => document.querySelector("#write-verdict")?.textContent === "PASS", null, { timeout: 30000 });
      const got = await rounds(page);
      assert.equal(got.length, 3);
      assert.match(got[0], /^round 1: 1 of 4 checks pass — template changed, keys 1 invented, coverage 6\/10 = 60\.0% \(need 9\) short/);
      assert.match(got[1], /^round 2: 3 of 4 checks pass — template kept, keys ok, coverage 8\/10 = 80\.0%/);
      assert.match(got[2], /^round 3: 4 of 4 checks pass/);
      const sent = model.requests.slice(start);
      assert.equal(sent.length, 3);
      // Requests: the shape's path and headers, the key only there.
      if (shape === "openai") {
        assert.equal(sent[0].path, "/v1/chat/completions");
        assert.equal(sent[0].headers.authorization, `Bearer ${KEY}`);
        assert.equal(sent[0].body.messages[0].role, "system");
      } else {
        assert.equal(sent[0].path, "/v1/messages");
        assert.equal(sent[0].headers["x-api-key"], KEY);
        assert.equal(sent[0].headers["anthropic-version"], "2023-06-01");
        assert.equal(sent[0].headers["anthropic-dangerous-direct-browser-access"], "true");
        assert.match(sent[0].body.system, /^Work only from the material given in this conversation/);
      }
      assert.equal(sent[0].body.stream, true);
      // Re-prompt 1: the Method diff, the invented key, the missing papers by tag.
      const r1 = lastMessage(sent[1]);
      for (const needle of [
        "-We sparsify attention over frames with a learned router.\n+We sparsify attention with a better router.",
        "you invented them",
        "    smith2023invented\n",
        "cites 6 of the 10 papers in the pool (60.0%); at least 9 are required",
        "For related work 2.1:\n    wu2022memvit (MeMViT",
        "For related work 2.2:\n    beltagy2020longformer (Longformer: The Long-Document Transformer)\n    child2019generating (Generating Long Sequences with Sparse Transformers)\n    zaheer2020big",
      ]) assert.ok(r1.includes(needle), `re-prompt 1 lacks ${JSON.stringify(needle)}:\n${r1}`);
      // Re-prompt 2: only the coverage is still short.
      const r2 = lastMessage(sent[2]);
      assert.ok(r2.includes("cites 8 of the 10") && !r2.includes("byte for byte") && !r2.includes("invented"), r2);
      assert.ok(r2.includes("For related work 2.2:\n    beltagy2020longformer (Longformer: The Long-Document Transformer)\n    zaheer2020big"), r2);
      // The page shows each re-prompt as text.
      const shown = await page.$$eval("#rounds .round-reprompt", (p) => p.map((x) => x.textContent));
      assert.deepEqual(shown, [r1, r2]);
      // Downloads.
      // intro_relwork.tex is the filled template (seed 001); sections.tex the two sections alone.
      const [name, full] = await downloaded(page, "#download-intro-relwork");
      assert.equal(name, "intro_relwork.tex");
      assert.equal(full, final);
      const [sectionsName, intro] = await downloaded(page, "#download-sections");
      assert.equal(sectionsName, "sections.tex");
      assert.equal(intro, final.slice(final.indexOf("\\section{Introduction}"), final.indexOf("\\section{Method}")));
      assert.match(await page.textContent("#write-cutoff-note"), /the pool holds no paper dated on or after the cutoff/);
      // The key went to the model endpoint only: not in the files, the page's storage or any other request.
      const stored = await page.evaluate(async () => {
        const db = await new Promise((ok, no) => { const r = indexedDB.open("citegate"); r.onsuccess = () => ok(r.result); r.onerror = no; });
        const all = [];
        for (const name of db.objectStoreNames) {
          all.push(await new Promise((ok) => { const q = db.transaction(name).objectStore(name).getAll(); q.onsuccess = () => ok(JSON.stringify(q.result)); }));
        }
        return JSON.stringify(localStorage) + all.join("");
      });
      assert.ok(stored.includes("smith2023invented"), "the rounds are stored");
      for (const text of [intro, full, stored, JSON.stringify(app.server.requests)]) assert.ok(!text.includes(KEY), "the model key leaked");
      await screenshot(page, `page-write-${shape}`);
      // A reload keeps the rounds and the verdict (the key is not remembered, the history is).
      await page.reload();
      await page.waitForFunction(() => document.querySelectorAll("#rounds li.round").length === 3);
      assert.equal(await page.textContent("#write-verdict"), "PASS");
    });
    assert.deepEqual(errors, []);
  });

  test(`${shape}: a 401, a 429, a context-length error and an answer without LaTeX lose no round`, async () => {
    const errors = await withPage(app.browser, `write-errors-${shape}`, async (page) => {
      await setup(page, shape);
      // A good first round, then a refused key: round 1 stays.
      model.script(answer(draft(7)), ERRORS[shape].badKey);
      await page.click("#write-start");
      await page.waitForFunction(() => document.querySelector("#write-error")?.textContent.includes("refused the api key"), null, { timeout: 30000 });
      assert.match(await page.textContent("#write-error"), /^round 2: the model endpoint refused the api key \(http 401\)/);
      assert.equal((await rounds(page)).length, 1);
      // Rate limited: a clear message, still one round.
      model.script(ERRORS[shape].rateLimit);
      await page.click("#write-continue");
      await page.waitForFunction(() => document.querySelector("#write-error")?.textContent.includes("rate limited"));
      assert.match(await page.textContent("#write-error"), /^round 2: rate limited by the model endpoint \(http 429\)/);
      assert.equal((await rounds(page)).length, 1);
      // The prompt does not fit.
      model.script(ERRORS[shape].context);
      await page.click("#write-continue");
      await page.waitForFunction(() => document.querySelector("#write-error")?.textContent.includes("too long"));
      assert.match(await page.textContent("#write-error"), /^round 2: the prompt is too long for this model/);
      assert.equal((await rounds(page)).length, 1);
      // An answer with no LaTeX is a round with a clear note and a re-prompt; then a pass.
      const start = model.requests.length;
      model.script({ text: "I am sorry, but I cannot write that paper." }, answer(draft(9)));
      await page.click("#write-continue");
      await page.waitForFunction(() => document.querySelector("#write-verdict")?.textContent === "PASS", null, { timeout: 30000 });
      const got = await rounds(page);
      assert.equal(got.length, 3);
      assert.match(got[1], /^round 2: the answer holds no latex file/);
      assert.ok(lastMessage(model.requests.at(-1)).includes("held no usable LaTeX file"));
      assert.equal(model.requests.length - start, 2);
      assert.equal(await page.$("#write-error"), null, "the error is cleared once a round succeeds");
    });
    assert.deepEqual(errors, []);
  });
}

test("cancel stops a streaming answer, shows progress first, and keeps the rounds", async () => {
  const errors = await withPage(app.browser, "write-cancel", async (page) => {
    await setup(page, "openai");
    model.script(answer(draft(7)), { ...answer(draft(10)), chunkDelayMs: 100 });
    await page.click("#write-start");
    await page.waitForFunction(() => document.querySelectorAll("#rounds li.round").length === 1, null, { timeout: 30000 });
    await page.waitForFunction(() => / · round 2: \d+ characters received$/.test(document.querySelector("#write-run-text")?.textContent ?? ""));
    assert.equal(await page.getAttribute("#write-run", "aria-label"), "Writing the two sections");
    assert.ok((await page.textContent("#write-stream")).startsWith("Here is the updated file."));
    await page.click("#write-run-cancel");
    await page.waitForFunction(() => document.querySelector("#write-error")?.textContent.includes("cancelled"));
    assert.equal(await page.textContent("#write-error"), "round 2: cancelled; the rounds so far are kept");
    assert.equal((await rounds(page)).length, 1);
    assert.equal(await page.textContent("#write-verdict"), "IN PROGRESS");
    assert.equal(await page.isDisabled("#write-continue"), false);
  });
  assert.deepEqual(errors, []);
});
