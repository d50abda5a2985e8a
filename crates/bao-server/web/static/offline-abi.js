// The browser engine's interface (crates/bao-wasm): JSON strings through the module's memory.
// Used by engine-worker.js, and by the tests in Node; no DOM here.

/** What the module imports: the search's clock (bao_engine::time). */
export const imports = () => ({ env: { bao_now_ms: () => performance.now() } });

/** Instantiates the engine from its bytes (ArrayBuffer or typed array). */
export async function instantiate(bytes) {
  const { instance } = await WebAssembly.instantiate(bytes, imports());
  return instance.exports;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * One request (`{op: 'legal' | 'apply' | 'choose' | 'game' | 'record' | 'svg', ...}`) to its
 * answer. Throws an Error with the engine's sentence when it refuses the request.
 */
export function call(x, request) {
  const bytes = encoder.encode(JSON.stringify(request));
  const p = x.bao_alloc(bytes.length);
  new Uint8Array(x.memory.buffer, p, bytes.length).set(bytes);
  const out = x.bao_call(p, bytes.length); // frees the request
  const n = new DataView(x.memory.buffer).getUint32(out, true);
  const text = decoder.decode(new Uint8Array(x.memory.buffer, out + 4, n));
  x.bao_free(out, n + 4);
  const answer = JSON.parse(text);
  if ('error' in answer) throw new Error(answer.error);
  return answer.ok;
}
