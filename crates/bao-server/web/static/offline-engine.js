// The page's side of engine-worker.js: one worker per page, requests answered by promises.

import { t } from './i18n.js';

let worker = null;
let next = 1;
const waiting = new Map();

function start() {
  worker = new Worker(new URL('./engine-worker.js', import.meta.url), { type: 'module' });
  worker.addEventListener('message', (e) => {
    const { id, ok, error } = e.data || {};
    const w = waiting.get(id);
    if (!w) return;
    waiting.delete(id);
    if (error !== undefined) w.reject(new Error(error));
    else w.resolve(ok);
  });
  worker.addEventListener('error', (e) => {
    console.warn('bao: the browser engine failed', e.message);
    for (const w of waiting.values()) w.reject(new Error(t('offline.engine_failed')));
    waiting.clear();
    worker = null;
  });
}

/** Sends one request to the browser engine (crates/bao-wasm); resolves with its answer. */
export function engine(request) {
  if (!worker) start();
  const id = next++;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    worker.postMessage({ id, ...request });
  });
}
