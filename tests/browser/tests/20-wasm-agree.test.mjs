// The browser engine (crates/bao-wasm, as the server serves it at /static/bao.wasm) and the
// native rules (`bao moves -`) agree on the legal moves, the position each leads to and the
// result it reaches, over 1,000 random positions per variant (docs/api.md "Offline"). The
// positions come from random walks chosen here in JavaScript (seed printed; BAO_AGREE_SEED
// repeats a run), so neither side picks the positions it is tested on.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { BASE, BAO_BIN, ROOT } from '../lib/harness.mjs';

const { instantiate, call } = await import(pathToFileURL(path.join(ROOT, 'crates/bao-server/web/static/offline-abi.js')));

const PER_VARIANT = 1000;

/** mulberry32: a small seeded generator, independent of the rules crate's own. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `bao moves -` for many positions: per position, a list of [move, next, result]. */
function nativeMoves(positions) {
  const out = execFileSync(BAO_BIN, ['moves', '-'], { input: positions.join('\n') + '\n', encoding: 'utf8', maxBuffer: 1 << 28 });
  const lists = [];
  let cur = [];
  for (const line of out.split('\n')) {
    if (line === '.') {
      lists.push(cur);
      cur = [];
    } else if (line) {
      cur.push(line.split('\t'));
    }
  }
  return lists;
}

test('the wasm engine and bao agree on legal moves over 1,000 random positions per variant', async () => {
  const res = await fetch(`${BASE}/static/bao.wasm`);
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') || '', /application\/wasm/);
  const x = await instantiate(await res.arrayBuffer());
  const seed = Number(process.env.BAO_AGREE_SEED || Math.floor(Math.random() * 2 ** 31));
  console.log(`wasm agreement seed: ${seed} (BAO_AGREE_SEED=${seed} repeats it)`);
  const random = rng(seed);
  for (const variant of ['kiswahili', 'kete', 'kimasai']) {
    const positions = [];
    const wasmLists = [];
    while (positions.length < PER_VARIANT) {
      // A walk of 0..120 random moves from the start; every position on it is tested.
      let pos = call(x, { op: 'game', variant, moves: [] }).position;
      const len = Math.floor(random() * 121);
      for (let i = 0; i <= len && positions.length < PER_VARIANT; i++) {
        const legal = call(x, { op: 'legal', variant, position: pos });
        positions.push(pos);
        wasmLists.push(legal);
        if (!legal.length || legal.some((m) => m.outcome !== '-')) break;
        pos = legal[Math.floor(random() * legal.length)].next;
      }
    }
    const native = nativeMoves(positions);
    assert.equal(native.length, positions.length, `${variant}: one list per position`);
    let moves = 0;
    for (let i = 0; i < positions.length; i++) {
      const w = wasmLists[i].map((m) => [m.move, m.next, m.outcome].join('\t'));
      const n = native[i].map((f) => f.join('\t'));
      assert.deepEqual(w, n, `${variant} (seed ${seed}): legal moves of ${positions[i]}`);
      moves += w.length;
    }
    // One move of every 50th position applied through the worker's `apply`: same position.
    for (let i = 0; i < positions.length; i += 50) {
      const m = wasmLists[i][0];
      if (!m) continue;
      const applied = call(x, { op: 'apply', variant, position: positions[i], move: m.move });
      assert.equal(applied.position, m.next, `${variant}: apply ${m.move} in ${positions[i]}`);
      assert.ok(applied.events.length > 0);
    }
    console.log(`${variant}: ${positions.length} positions, ${moves} legal moves, all agree`);
  }
});
