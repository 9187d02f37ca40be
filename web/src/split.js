// The start module's loader for the whole app (web/src/split.rs).
// One fetch of the whole app at a time, shared by the prefetch and the
// handover; a failed one is forgotten so that "try again" fetches anew.
// Paths resolve against the page (the app may live under a sub-path), not
// against this file's own address.
// A file rather than inline JavaScript: wasm-bindgen numbers inline snippets
// per build, and the two modules' builds share one snippets folder.
let pending = null;
function load(js, wasm) {
  if (!pending) {
    const base = document.baseURI;
    const answer = fetch(new URL(wasm, base).href).then((r) => {
      if (!r.ok) throw new Error(`${wasm}: HTTP ${r.status}`);
      return r;
    });
    pending = Promise.all([import(new URL(js, base).href), answer]);
    pending.catch(() => { pending = null; });
  }
  return pending;
}
export function prefetch_app(js, wasm) { load(js, wasm).catch(() => {}); }
export function fetch_app(js, wasm) { return load(js, wasm); }
export function start_app(loaded) {
  pending = null;
  const [module, answer] = loaded;
  return module.default({ module_or_path: answer });
}
