// The puzzles page with no network (docs/api.md "Puzzles", "Offline"): static/puzzles.js turns
// here when the server cannot be reached. The service worker keeps each game's pack
// (GET /api/puzzles/pack); a move is judged against the pack's line, the positions come from
// the browser engine (the server's rules in WebAssembly, offline-engine.js), the opponent's
// answer from the line. Answers have the shapes of the server's (GET /api/puzzles/{id},
// POST .../check), so the page shows them the same way; nothing is rated.

import { engine } from './offline-engine.js';

const packs = new Map(); // variant -> its puzzles

/** The pack of `variant` (from the service worker's cache when offline); throws when absent. */
export async function list(variant) {
  if (!packs.has(variant)) {
    const res = await fetch(`/api/puzzles/pack?variant=${encodeURIComponent(variant)}`, { credentials: 'same-origin' });
    if (!res.ok) throw new Error(`pack ${variant}: ${res.status}`);
    packs.set(variant, (await res.json()).puzzles || []);
  }
  return packs.get(variant);
}

/** One puzzle of a pack, as GET /api/puzzles/{id} gives it (without ratings). */
export async function puzzle(id) {
  const found = (await list(String(id).split('-')[0])).find((p) => p.id === id);
  if (!found) throw Object.assign(new Error(id), { category: 'not_found' });
  return { ...found, rules: '-' };
}

const spec = (position) => ({ variant: position.split(' ')[0], rules: '-' });

/** The board's picture of a position (the server's /api/render/svg). */
export function svg(position) {
  return engine({ op: 'svg', ...spec(position), position });
}

/** The answer of POST /api/puzzles/{id}/check for `move` at the solver's turn `ply`, played in
 * `here` (the position the line reaches at that ply). Throws the rules' sentence for a move
 * that is not legal there. */
export async function check(p, ply, move, here) {
  const line = p.moves;
  const tried = await engine({ op: 'apply', ...spec(here), position: here, move });
  const base = { move: tried.move, position: tried.position, result: tried.result };
  if (tried.move !== line[ply]) {
    return { ...base, verdict: 'wrong', events: [], reply: null, reply_position: null, reply_events: null, legal: null, solved: false };
  }
  const reply = line[ply + 1] || null;
  const answer = reply ? await engine({ op: 'apply', ...spec(tried.position), position: tried.position, move: reply }) : null;
  // Solved by the solver's last move; a seeds or house line still shows the reply.
  const solved = ply + 2 >= line.length;
  const legal =
    answer && !solved ? (await engine({ op: 'legal', ...spec(answer.position), position: answer.position })).map((m) => m.move) : null;
  return {
    ...base,
    verdict: 'correct',
    events: tried.events,
    reply,
    reply_position: answer ? answer.position : null,
    reply_events: answer ? answer.events : null,
    legal,
    solved,
  };
}

/** The next puzzle offline: the first unsolved one after `after` in the list, of `theme` if
 * one is chosen (the server's /next orders by rating, which the pack has not). */
export function nextOf(all, after, theme, solved) {
  const pool = theme ? all.filter((p) => (p.themes || []).includes(theme)) : all;
  if (!pool.length) return null;
  const at = pool.findIndex((p) => p.id === after);
  for (let k = 1; k <= pool.length; k++) {
    const p = pool[(at + k + pool.length) % pool.length];
    if (!solved.has(p.id)) return p.id;
  }
  return pool[(at + 1 + pool.length) % pool.length].id;
}
