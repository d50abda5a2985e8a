// Shared helpers for every page of the bao web app: API calls, DOM building,
// position parsing and move-list formatting. Plain ES module, no build step.

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
    throw new ApiError(0, 'network', 'The server cannot be reached. Check your connection and try again.');
  }
  const type = res.headers.get('Content-Type') || '';
  const data = type.includes('json') ? await res.json().catch(() => null) : await res.text();
  if (!res.ok) {
    if (data && typeof data === 'object') throw new ApiError(res.status, data.error, data.message);
    throw new ApiError(res.status, 'internal', typeof data === 'string' && data.trim() ? data.trim() : `The server answered ${res.status}.`);
  }
  return data;
}

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

export const SIDE_NAMES = { S: 'South', N: 'North' };

/** Human words for GameState.stage. */
export const STAGE_TEXT = {
  namua: ['Namua', 'first stage: each move starts by putting a seed from the hand on the board'],
  nemo: ['Nemo', 'first stage: each move starts by putting a seed from the hand on the board'],
  mtaji: ['Mtaji', 'second stage: all seeds are on the board'],
  phase1: ['Phase 1', 'bringing in the herd: no captures yet'],
  phase2: ['Phase 2', 'raiding: captures happen automatically'],
};

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
    const by = m.by || (i % 2 === 0 ? firstSide : firstSide === 'S' ? 'N' : 'S');
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
        caps.push(`${p[2]} from ${p[1]}`);
        break;
      case 'lift':
      case 'tax':
        laps += 1;
        break;
      case 'safari':
        parts.push('went on safari (played the house)');
        break;
      case 'house-lost':
        parts.push(`${SIDE_NAMES[p[1]]} lost the house`);
        break;
      case 'block':
        parts.push(`blocked ${p[1]} (takasia)`);
        break;
      case 'must':
        parts.push(`next move must capture ${p[1]}`);
        break;
      case 'stop':
        if (p[1] === 'house') parts.push('stopped in the house');
        if (p[1] === 'block') parts.push('stopped at the blocked pit');
        if (p[1] === 'never_ending') parts.push('never-ending move');
        break;
      default:
    }
  }
  const who = SIDE_NAMES[by] || by;
  const head = caps.length ? `${who} captured ${caps.join(', ')}` : `${who} captured nothing`;
  const lapText = laps > 1 ? `${laps} laps` : null;
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
