// Shared helpers for every page of the bao web app: API calls, DOM building,
// position parsing and move-list formatting. Plain ES module, no build step.
// Text for people comes from the catalogs (./i18n.js, docs/i18n.md).

import { t, tn, lang } from './i18n.js';

/** An error answered by the API: {"error": category, "message": sentence}. */
export class ApiError extends Error {
  constructor(status, category, message) {
    super(message || category || `HTTP ${status}`);
    this.status = status;
    this.category = category || 'internal';
  }
}

/** Calls the JSON API. `body` (if any) is sent as JSON; the answer is parsed as JSON when it is JSON. */
export async function api(path, { method = 'GET', body, raw = false, headers = {} } = {}) {
  const init = { method, headers: { ...headers }, credentials: 'same-origin' };
  if (body !== undefined) {
    if (raw) {
      init.body = body;
      init.headers['Content-Type'] = init.headers['Content-Type'] || 'text/plain; charset=utf-8';
    } else {
      init.body = JSON.stringify(body);
      init.headers['Content-Type'] = 'application/json';
    }
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (e) {
    throw new ApiError(0, 'network', t('common.error_network'));
  }
  const type = res.headers.get('Content-Type') || '';
  const data = type.includes('json') ? await res.json().catch(() => null) : await res.text();
  if (!res.ok) {
    const err =
      data && typeof data === 'object'
        ? new ApiError(res.status, data.error, data.message)
        : new ApiError(res.status, 'internal', typeof data === 'string' && data.trim() ? data.trim() : t('common.error_http', { status: res.status }));
    // A 429 says how long to wait (docs/api.md "Limits"): the page can say it in words.
    const wait = Number(res.headers.get('Retry-After'));
    if (wait > 0) err.retryAfter = wait;
    throw err;
  }
  return data;
}

/** The element with id `id` (every page's scripts look their parts up by id). */
export const $ = (id) => document.getElementById(id);

/** The items of `xs` without repeats, in first-seen order. */
export const uniq = (xs) => [...new Set(xs)];

/** The other side: `S` for `N`, `N` for `S`. */
export const otherSide = (side) => (side === 'S' ? 'N' : 'S');

/** Builds an element: el('a', {href: '/', class: 'x'}, 'text', child...). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'class') node.className = v;
    else if (k === 'dataset') Object.assign(node.dataset, v);
    else if (k.startsWith('on') && typeof v === 'function') node.addEventListener(k.slice(2), v);
    else if (v === true) node.setAttribute(k, '');
    else node.setAttribute(k, String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

export const VARIANT_TITLES = {
  kiswahili: 'Bao la Kiswahili',
  kete: 'Bao la Kete',
  kimasai: 'Bao la Kimasai',
};

export const SIDE_NAMES = { S: t('common.south'), N: t('common.north') };

/** Human words for GameState.stage. */
export const STAGE_TEXT = {
  namua: ['Namua', t('game.stage_namua')],
  nemo: ['Nemo', t('game.stage_namua')],
  mtaji: ['Mtaji', t('game.stage_mtaji')],
  phase1: [t('game.stage_phase1'), t('game.stage_phase1_help')],
  phase2: [t('game.stage_phase2'), t('game.stage_phase2_help')],
};

/**
 * The sentence to show a player for an API error: the catalog's text for its category
 * (docs/api.md "Errors"); the server's own (English) message where it names the detail to fix.
 */
export function errorText(err) {
  const cat = (err && err.category) || 'internal';
  const byCategory = {
    network: () => t('errors.network'),
    bad_request: () => t('errors.bad_request'),
    bad_rules: () => t('errors.bad_rules'),
    bad_position: () => t('errors.bad_position'),
    bad_move: () => t('errors.bad_move'),
    bad_record: () => t('errors.bad_record'),
    illegal_move: () => t('errors.illegal_move'),
    ambiguous_move: () => t('errors.ambiguous_move'),
    game_over: () => t('errors.game_over'),
    not_your_turn: () => t('errors.not_your_turn'),
    forbidden: () => t('errors.forbidden'),
    not_found: () => t('errors.not_found'),
    too_large: () => t('errors.too_large'),
    conflict: () => t('errors.conflict'),
    rate_limited: () => t('errors.rate_limited'),
    timeout: () => t('errors.timeout'),
    unavailable: () => t('errors.unavailable'),
    internal: () => t('errors.internal'),
    // The one answer for a call that needs an account (a rated game included).
    not_signed_in: () => t('errors.not_signed_in'),
    // Rated games (docs/api.md "Ratings"): both seats need an account, two different ones.
    rated_same_account: () => t('players.err_rated_same_account'),
    // Rematch offers (docs/api.md "Play: rematch").
    rematch_declined: () => t('play.err_rematch_declined'),
    rematch_lapsed: () => t('play.err_rematch_lapsed'),
    // Fair play (docs/api.md "Fair play").
    not_moderator: () => t('errors.not_moderator'),
    engine_marked: () => t('errors.engine_marked'),
    too_many_reports: () => t('errors.too_many_reports'),
  };
  const known = byCategory[cat];
  const detail = err && err.message && err.message !== cat ? err.message : '';
  if (!known) return detail || t('errors.internal');
  // English pages keep the server's precise sentence; other languages get the catalog's
  // sentence, plus the server's detail where the player needs it to fix the input.
  if (lang === 'en' && detail) return detail;
  const withDetail = ['bad_request', 'bad_rules', 'bad_position', 'bad_record', 'illegal_move', 'too_large'];
  return withDetail.includes(cat) && detail && cat !== 'network' ? `${known()} (${detail})` : known();
}

/** A player's name for lists: the chosen name, "Computer (level N)" or "Guest"; "—" for an empty seat. */
export function playerName(p) {
  if (!p) return '—';
  if (p.name) return p.name;
  return p.kind === 'computer' ? t('common.computer_level', { level: p.level ?? '?' }) : t('common.guest');
}

/**
 * Parses a position string (NOT-3) into pit counts keyed by pit name ("A1", "b8", ...),
 * hands, side, flags and ply. Returns null for text that is not a position.
 */
export function parsePosition(text) {
  if (!text) return null;
  const f = text.trim().split(/\s+/);
  if (f.length !== 6) return null;
  const rows = f[1].split('/').map((r) => r.split(',').map(Number));
  if (rows.length !== 4 || rows.some((r) => r.length !== 8)) return null;
  const pits = {};
  // Diagram order (NOT-3.2): b8..b1 / a8..a1 / A1..A8 / B1..B8.
  for (let i = 0; i < 8; i++) {
    pits[`b${8 - i}`] = rows[0][i];
    pits[`a${8 - i}`] = rows[1][i];
    pits[`A${i + 1}`] = rows[2][i];
    pits[`B${i + 1}`] = rows[3][i];
  }
  const [hs, hn] = f[3].split('/').map(Number);
  return {
    variant: f[0],
    pits,
    side: f[2],
    hands: { S: hs, N: hn },
    flags: f[4] === '-' ? [] : f[4].split(','),
    ply: Number(f[5]),
  };
}

/**
 * Numbers a list of moves as in a game record (NOT-6.3): "1. A7L* a5R 2. ...".
 * Returns [{no, south, north}] rows; `firstSide` is the side that made the first move.
 */
export function numberMoves(moves, firstSide = 'S') {
  const rows = [];
  let row = null;
  let no = 0;
  moves.forEach((m, i) => {
    const by = m.by || (i % 2 === 0 ? firstSide : otherSide(firstSide));
    if (by === 'S' || !row) {
      no += 1;
      row = { no, S: null, N: null };
      rows.push(row);
    }
    row[by] = { move: m, index: i };
    if (by === 'N') row = null;
  });
  return rows;
}

/** A legal move from its canonical text (NOT-1): `A7L*`, `a5R+`, `B2L`, kimasai `A3`. */
export function legalFromText(move) {
  const letter = /[LR]/.test(move[2] || '') ? move[2] : null;
  return { move, pit: move.slice(0, 2), letter, safari: move.includes('+'), takasa: move.includes('*') };
}

/** Seeds captured by a move, from its event lines ("capture a4 6"). */
export function capturedBy(events) {
  let n = 0;
  for (const e of events || []) {
    const p = e.split(' ');
    if (p[0] === 'capture') n += Number(p[2]) || 0;
  }
  return n;
}

/** A one-line summary of what a move did, for people, from its event lines (CLI-5). */
export function describeEvents(events, by) {
  const parts = [];
  const caps = [];
  let laps = 0;
  for (const e of events || []) {
    const p = e.split(' ');
    switch (p[0]) {
      case 'capture':
        caps.push(t('game.ev_capture_from', { n: p[2], pit: p[1] }));
        break;
      case 'lift':
      case 'tax':
        laps += 1;
        break;
      case 'safari':
        parts.push(t('game.ev_safari'));
        break;
      case 'house-lost':
        parts.push(p[1] === 'S' ? t('game.ev_house_lost_south') : t('game.ev_house_lost_north'));
        break;
      case 'block':
        parts.push(t('game.ev_block', { pit: p[1] }));
        break;
      case 'must':
        parts.push(t('game.ev_must', { pit: p[1] }));
        break;
      case 'stop':
        if (p[1] === 'house') parts.push(t('game.ev_stop_house'));
        if (p[1] === 'block') parts.push(t('game.ev_stop_block'));
        if (p[1] === 'never_ending') parts.push(t('game.ev_never_ending'));
        break;
      default:
    }
  }
  const who = SIDE_NAMES[by] || by;
  const head = caps.length ? t('game.ev_captured', { who, list: caps.join(', ') }) : t('game.ev_captured_nothing', { who });
  const lapText = laps > 1 ? tn('game.ev_laps', laps) : null;
  return [head, lapText, ...parts].filter(Boolean).join('; ') + '.';
}

/** Reads a cookie-free preference from localStorage, with a default. */
export function pref(name, fallback) {
  try {
    const v = localStorage.getItem(`bao.${name}`);
    return v === null ? fallback : JSON.parse(v);
  } catch {
    return fallback;
  }
}

export function setPref(name, value) {
  try {
    localStorage.setItem(`bao.${name}`, JSON.stringify(value));
  } catch {
    /* private mode: preferences last for this page only */
  }
}

/** Shows a message in the page's status region (role=status or alert). */
export function notify(region, text, kind = 'info') {
  if (!region) return;
  region.textContent = text || '';
  region.dataset.kind = kind;
  region.hidden = !text;
}

/** Copies text to the clipboard, falling back to selecting an input for older browsers. */
export async function copyText(text, input) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (input) {
      input.select();
      try {
        return document.execCommand('copy');
      } catch {
        return false;
      }
    }
    return false;
  }
}

/** URL of the shared renderer's SVG for a position. */
export function renderUrl(position, rules, last) {
  const q = new URLSearchParams({ position });
  if (rules && rules !== '-') q.set('rules', rules);
  if (last) q.set('last', last);
  return `/api/render/svg?${q}`;
}
