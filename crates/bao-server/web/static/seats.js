// The seats this browser holds (docs/api.md "Seats"): game id, token, side and name, kept in
// localStorage as well as the HttpOnly cookie the server sets (which scripts cannot read).
// The home page asks `POST /api/games/mine` about them to list "My games" with whose turn it
// is (docs/api.md, My games).

import { api } from './app.js';

const KEY = 'bao.seats';
/** Seats kept; the oldest are forgotten first. The API takes at most 50 at once. */
export const MAX_SEATS = 40;
/** A finished game stays in "My games" this long after this browser first saw it finished. */
export const KEEP_FINISHED_MS = 3 * 24 * 3600 * 1000;

function read() {
  try {
    const list = JSON.parse(localStorage.getItem(KEY) || '[]');
    return Array.isArray(list) ? list.filter((s) => s && typeof s.id === 'string' && typeof s.token === 'string') : [];
  } catch {
    return [];
  }
}

function write(list) {
  try {
    localStorage.setItem(KEY, JSON.stringify(list.slice(0, MAX_SEATS)));
  } catch {
    /* private mode or full storage: the cookie still holds the seat */
  }
}

/** Every seat held, newest first: [{id, token, side, name, variant, added, finished?}]. */
export function seats() {
  return read();
}

/** The seat held in game `id`, or null. */
export function seatOf(id) {
  return read().find((s) => s.id === id) || null;
}

/** Remembers a seat (from the answer of create or join); a seat already known is refreshed. */
export function saveSeat({ id, token, side = null, name = null, variant = null }) {
  if (!id || !token) return;
  const old = read();
  const prev = old.find((s) => s.id === id);
  const seat = { ...(prev || {}), id, token, side: side ?? prev?.side ?? null, name: name ?? prev?.name ?? null, variant: variant ?? prev?.variant ?? null, added: prev?.added ?? Date.now() };
  if (prev && prev.token !== token) delete seat.finished;
  write([seat, ...old.filter((s) => s.id !== id)]);
}

/** Forgets the seat of game `id` (the player's choice, or the server does not know it). */
export function forgetSeat(id) {
  write(read().filter((s) => s.id !== id));
}

/** Drops finished games seen finished more than KEEP_FINISHED_MS ago. */
export function prune(now = Date.now()) {
  const list = read();
  const kept = list.filter((s) => !(s.finished && now - s.finished > KEEP_FINISHED_MS));
  if (kept.length !== list.length) write(kept);
  return kept;
}

/**
 * Asks the server about every seat held: the games (newest activity first, see the API) and
 * the seats it refused. Refused seats (an unknown game, a token of no seat) are forgotten,
 * finished games are stamped so that `prune` drops them after a while.
 */
export async function fetchMine() {
  // Asked even with no seat kept here: the server adds the live games of the seat cookies
  // this browser carries (games made before seats were kept, or by another page).
  const held = prune();
  const answer = await api('/api/games/mine', {
    method: 'POST',
    body: { games: held.map(({ id, token }) => ({ id, token })) },
  });
  const games = Array.isArray(answer?.games) ? answer.games : [];
  const refused = new Set((answer?.refused || []).map((r) => r.id));
  const now = Date.now();
  const byId = new Map(games.map((g) => [g.id, g]));
  const next = [];
  for (const s of read()) {
    if (refused.has(s.id)) continue;
    const g = byId.get(s.id);
    if (g) {
      s.side = g.your_side;
      s.variant = g.variant;
      if (g.status === 'finished' && !s.finished) s.finished = now;
      if (g.status !== 'finished') delete s.finished;
    }
    next.push(s);
  }
  write(next);
  return games;
}

/** "your" (your move), "their" (the opponent's move), "waiting" (no opponent yet), or "over". */
export function turnOf(g) {
  if (g.status === 'finished' || g.result !== '-' || !g.to_move) return 'over';
  if (g.to_move === g.your_side) return 'your';
  if (g.waiting) return 'waiting';
  return 'their';
}
