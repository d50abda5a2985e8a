// The browser engine in a Web Worker (docs/api.md "Offline"): the rules and the computer player
// of the server, compiled to WebAssembly (crates/bao-wasm), so that a game against the
// computer goes on with no network and the page never freezes while the computer thinks.
//
// Messages: {id, op, ...request} with op legal | apply | choose | game | record | parse_record | svg
// (crates/bao-wasm documents each); answers {id, ok} or {id, error}.

import { call, imports } from './offline-abi.js';

let engine = null; // Promise of the module's exports

function load() {
  if (!engine) {
    engine = (async () => {
      const url = new URL('./bao.wasm', import.meta.url);
      try {
        return (await WebAssembly.instantiateStreaming(fetch(url), imports())).instance.exports;
      } catch {
        // A cache that lost the wasm content type: compile from the bytes.
        const bytes = await (await fetch(url)).arrayBuffer();
        return (await WebAssembly.instantiate(bytes, imports())).instance.exports;
      }
    })();
    engine.catch(() => {
      engine = null; // try again with the next message
    });
  }
  return engine;
}

self.addEventListener('message', async (e) => {
  const { id, ...request } = e.data || {};
  try {
    const x = await load();
    self.postMessage({ id, ok: call(x, request) });
  } catch (err) {
    // A trap (a panic in the engine) leaves the instance unusable: start a fresh one.
    if (err instanceof WebAssembly.RuntimeError) engine = null;
    self.postMessage({ id, error: String((err && err.message) || err) });
  }
});
