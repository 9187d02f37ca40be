// A mock language-model endpoint for the Write page, in both API shapes the
// app speaks, streamed as Server-Sent Events. It runs as its own server on
// 127.0.0.1 (the app's security policy allows any port there), answers each
// request from a script, and records what it was sent.
//
// It is never kinder than the real services. Each rule names its source:
//   [OAI-AUTH]   OpenAI API reference, "Authentication": `Authorization: Bearer KEY`;
//                a missing or wrong key is 401 with code `invalid_api_key`
//                (OpenAI "Error codes" guide: "401 - Incorrect API key provided").
//   [OAI-STREAM] OpenAI API reference, "Streaming": `data: {chat.completion.chunk}`
//                lines with `choices[0].delta.content`, ended by `data: [DONE]`.
//   [OAI-ERR]    OpenAI "Error codes" guide: 429 `rate_limit_exceeded`; a prompt over
//                the window is 400 `context_length_exceeded` ("This model's maximum
//                context length is …").
//   [ANT-AUTH]   Anthropic API docs, "Getting started"/"Versioning": `x-api-key` and
//                `anthropic-version` are required (401 authentication_error, 400
//                invalid_request_error otherwise).
//   [ANT-CORS]   Anthropic's CORS support (announced August 2024, documented in the
//                TypeScript SDK's `dangerouslyAllowBrowser`): a browser request must send
//                `anthropic-dangerous-direct-browser-access: true`, else it is refused.
//   [ANT-STREAM] Anthropic API docs, "Streaming Messages": message_start,
//                content_block_start, content_block_delta (text_delta), content_block_stop,
//                message_delta (stop_reason), message_stop.
//   [ANT-ERR]    Anthropic API docs, "Errors": `{"type":"error","error":{"type":…,
//                "message":…}}`; 429 rate_limit_error; "prompt is too long: N tokens > M maximum".
//   [MAXTOK]     Anthropic API docs, "Messages": `max_tokens` is required.
import http from "node:http";

export const KEY = "sk-mock-model-0123456789";
export const MODEL = "mock-writer-1";

const openaiError = (status, message, code, type = "invalid_request_error") => ({
  status,
  body: { error: { message, type, param: null, code } },
});
const anthropicError = (status, type, message) => ({
  status,
  body: { type: "error", error: { type, message } },
});

/** Ready-made error answers, in each shape. */
export const ERRORS = {
  openai: {
    badKey: openaiError(401, "Incorrect API key provided: sk-wrong. You can find your API key at your account page.", "invalid_api_key"), // [OAI-AUTH]
    rateLimit: { ...openaiError(429, "Rate limit reached for requests", "rate_limit_exceeded", "requests"), headers: { "retry-after": "20" } }, // [OAI-ERR]
    context: openaiError(400, "This model's maximum context length is 8192 tokens. However, your messages resulted in 9120 tokens.", "context_length_exceeded"), // [OAI-ERR]
  },
  anthropic: {
    badKey: anthropicError(401, "authentication_error", "invalid x-api-key"), // [ANT-ERR]
    rateLimit: { ...anthropicError(429, "rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit"), headers: { "retry-after": "20" } }, // [ANT-ERR]
    context: anthropicError(400, "invalid_request_error", "prompt is too long: 208656 tokens > 200000 maximum"), // [ANT-ERR]
  },
};

const pieces = (text) => {
  const out = [];
  for (let i = 0; i < text.length; i += 40) out.push(text.slice(i, i + 40));
  return out;
};

function openaiEvents(text) {
  // [OAI-STREAM]
  const chunk = (delta, finish = null) =>
    `data: ${JSON.stringify({ id: "chatcmpl-1", object: "chat.completion.chunk", model: MODEL, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  return [chunk({ role: "assistant", content: "" }), ...pieces(text).map((p) => chunk({ content: p })), chunk({}, "stop"), "data: [DONE]\n\n"];
}

function anthropicEvents(text) {
  // [ANT-STREAM]
  const ev = (name, data) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
  return [
    ev("message_start", { type: "message_start", message: { id: "msg_1", type: "message", role: "assistant", model: MODEL, content: [] } }),
    ev("content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }),
    ev("ping", { type: "ping" }),
    ...pieces(text).map((p) => ev("content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: p } })),
    ev("content_block_stop", { type: "content_block_stop", index: 0 }),
    ev("message_delta", { type: "message_delta", delta: { stop_reason: "end_turn" } }),
    ev("message_stop", { type: "message_stop" }),
  ];
}

/** Refusals the real services give before looking at the script. */
function refusal(shape, req, body) {
  const h = req.headers;
  if (shape === "openai") {
    if (h.authorization !== `Bearer ${KEY}`) return ERRORS.openai.badKey; // [OAI-AUTH]
    if (body?.model !== MODEL) return openaiError(404, `The model \`${body?.model}\` does not exist or you do not have access to it.`, "model_not_found");
    return null;
  }
  if (h["x-api-key"] !== KEY) return ERRORS.anthropic.badKey; // [ANT-AUTH]
  if (!h["anthropic-version"]) return anthropicError(400, "invalid_request_error", "anthropic-version: header is required"); // [ANT-AUTH]
  if (h.origin && h["anthropic-dangerous-direct-browser-access"] !== "true")
    return anthropicError(401, "authentication_error", "CORS requests must set 'anthropic-dangerous-direct-browser-access' header"); // [ANT-CORS]
  if (!Number.isInteger(body?.max_tokens)) return anthropicError(400, "invalid_request_error", "max_tokens: Field required"); // [MAXTOK]
  if (body?.model !== MODEL) return anthropicError(404, "not_found_error", `model: ${body?.model}`);
  return null;
}

/**
 * Starts the mock. `model.script(...items)` queues answers: `{ text }` streams that
 * text (`chunkDelayMs` between events, 2 by default); `{ status, body, headers }` is an error answer (see ERRORS). Requests are
 * recorded in `model.requests` as `{ shape, path, headers, body }`.
 */
export async function startModel() {
  const queue = [];
  const requests = [];
  const server = http.createServer((req, res) => {
    const cors = {
      "access-control-allow-origin": "*",
      "access-control-allow-headers": "authorization, content-type, accept, x-api-key, anthropic-version, anthropic-dangerous-direct-browser-access",
      "access-control-allow-methods": "POST, OPTIONS",
    };
    if (req.method === "OPTIONS") {
      res.writeHead(204, cors);
      return res.end();
    }
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", async () => {
      const path = new URL(req.url, "http://127.0.0.1").pathname;
      const shape = path.endsWith("/v1/chat/completions") ? "openai" : path.endsWith("/v1/messages") ? "anthropic" : null;
      let body = null;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString());
      } catch {}
      if (!shape) {
        res.writeHead(404, { ...cors, "content-type": "application/json" });
        return res.end(JSON.stringify({ error: { message: "not found" } }));
      }
      requests.push({ shape, path, headers: req.headers, body });
      const answer = refusal(shape, req, body) ?? queue.shift() ?? { status: 500, body: { error: { message: "the mock's script is empty" } } };
      if (answer.text === undefined) {
        res.writeHead(answer.status, { ...cors, "content-type": "application/json", ...(answer.headers || {}) });
        return res.end(JSON.stringify(answer.body));
      }
      res.writeHead(200, { ...cors, "content-type": "text/event-stream", "cache-control": "no-cache" });
      for (const e of shape === "openai" ? openaiEvents(answer.text) : anthropicEvents(answer.text)) {
        if (res.destroyed) return;
        res.write(e);
        await new Promise((ok) => setTimeout(ok, answer.chunkDelayMs ?? 2));
      }
      res.end();
    });
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  const url = `http://127.0.0.1:${server.address().port}`;
  return {
    url,
    requests,
    script: (...items) => queue.push(...items),
    pending: () => queue.length,
    close: () => new Promise((ok) => server.close(ok)),
  };
}
