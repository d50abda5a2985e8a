// Shared helpers for the browser tests: a real headless Chromium (Debian's /usr/bin/chromium,
// driven by playwright-core) against a running `bao serve` whose URL is in BAO_URL.
// Nothing here skips: a missing browser or server is a failure.

import { existsSync, mkdirSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.resolve(here, '../../..');
export const BASE = process.env.BAO_URL;
export const BAO_BIN = process.env.BAO_BIN || path.join(ROOT, 'target/debug/bao');
export const CHROMIUM = process.env.BAO_CHROMIUM || '/usr/bin/chromium';
export const ARTIFACTS = path.join(ROOT, 'artifacts/browser');

if (!BASE) throw new Error('BAO_URL is not set: run the tests with tests/browser/run.sh');

/** How long any wait for a state may take before a test fails (Playwright's default is 30 s).
 * Every wait is for a state, so this is only a ceiling: 30 s was too short for a page load
 * with two CPU-bound processes beside the suite (36-turn-alert's waitForURL, 2026-12-02). */
export const STATE_TIMEOUT_MS = 90000;

/** Starts Chromium. Fails (never skips) when it is missing. */
export async function launch() {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium is missing at ${CHROMIUM}: install it with apt-get install -y chromium`);
  }
  // playwright-core gives every launch a fresh temporary user-data-dir.
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * A new browser context and page that records page errors, console errors and every request
 * that leaves the server (the app must work without any outside resource).
 */
export async function openPage(browser, { viewport = { width: 1280, height: 900 } } = {}) {
  const context = await browser.newContext({ viewport, baseURL: BASE });
  context.setDefaultTimeout(STATE_TIMEOUT_MS);
  const page = await context.newPage();
  const problems = { pageErrors: [], consoleErrors: [], external: [] };
  page.on('pageerror', (e) => problems.pageErrors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.consoleErrors.push(m.text());
  });
  page.on('request', (r) => {
    const u = r.url();
    if (!u.startsWith(BASE) && !u.startsWith('data:') && !u.startsWith('blob:') && !u.startsWith(BASE.replace('http', 'ws'))) {
      problems.external.push(u);
    }
  });
  page.problems = problems;
  return { context, page };
}

/** Asserts that a page raised no script error and asked for nothing outside the server. */
export function assertClean(page, { allowConsole = [] } = {}) {
  const p = page.problems;
  assert.deepEqual(p.pageErrors, [], 'uncaught script errors');
  assert.deepEqual(p.external, [], 'requests to outside the server');
  const errs = p.consoleErrors.filter((t) => !allowConsole.some((re) => re.test(t)));
  assert.deepEqual(errs, [], 'console errors');
}

export async function screenshot(page, name) {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/** Calls the JSON API from the test process (not through the browser). */
export async function api(pathname, { method = 'GET', body, token } = {}) {
  const headers = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(BASE + pathname, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let data = text;
  try {
    data = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  if (!res.ok) throw new Error(`${method} ${pathname}: ${res.status} ${text}`);
  return data;
}

/** Pit counts and hands of a position string (NOT-3.2), written independently of the app. */
export function positionCounts(text) {
  const f = text.trim().split(/\s+/);
  const rows = f[1].split('/').map((r) => r.split(',').map(Number));
  const pits = {};
  for (let i = 0; i < 8; i++) {
    pits[`b${8 - i}`] = rows[0][i];
    pits[`a${8 - i}`] = rows[1][i];
    pits[`A${i + 1}`] = rows[2][i];
    pits[`B${i + 1}`] = rows[3][i];
  }
  const [S, N] = f[3].split('/').map(Number);
  return { pits, hands: { S, N } };
}

/** Pit counts and hands as drawn on the page's board: the text of each `.count`. */
export async function boardCounts(page, selector = '#board') {
  return page.evaluate((sel) => {
    const root = document.querySelector(sel);
    const pits = {};
    for (const g of root.querySelectorAll('g.pit[data-pit]')) {
      const t = g.querySelector('.count');
      pits[g.dataset.pit] = Number(t ? t.textContent : NaN);
    }
    const hand = (s) => {
      const g = root.querySelector(`[id="hand-${s}"] .count`);
      return g ? Number(g.textContent) : NaN;
    };
    return { pits, hands: { S: hand('S'), N: hand('N') } };
  }, selector);
}

/** Runs the `bao` binary (the rules' command-line interface) and returns its stdout lines. */
export function bao(...args) {
  return execFileSync(BAO_BIN, args, { encoding: 'utf8' }).trim().split('\n');
}

/** Waits until the game page shows ply `ply` (or later) and no animation is running. */
export async function waitForPly(page, ply, timeout = STATE_TIMEOUT_MS) {
  await page.waitForFunction(
    (p) => {
      const b = document.querySelector('#board');
      return b && Number(b.dataset.ply) >= p && !b.classList.contains('animating');
    },
    ply,
    { timeout },
  );
}

export async function shownPly(page) {
  return page.evaluate(() => Number(document.querySelector('#board').dataset.ply));
}

/**
 * Plays one move on the game page by clicking: the pit, then a direction or kichwa button and a
 * stop/safari button when the page asks. `choose(legal)` picks the legal entry to play.
 * Returns the move text played.
 */
export async function clickMove(page, pick = (legal) => legal[0]) {
  const state = await page.evaluate(async () => {
    const id = location.pathname.split('/')[2];
    const r = await fetch(`/api/games/${id}`, { credentials: 'same-origin' });
    return r.json();
  });
  const target = pick(state.legal);
  assert.ok(target, 'there is a legal move to play');
  await page.click(`#board g.pit.legal[data-pit="${target.pit}"]`);
  const letterButton = page.locator(`#chooser button[data-letter="${target.letter}"]`);
  if (target.letter && (await letterButton.count()) > 0) await letterButton.click();
  const choice = page.locator(`#chooser button[data-choice="${target.safari ? 'safari' : 'stop'}"]`);
  if ((await choice.count()) > 0) await choice.click();
  const confirm = page.locator('#chooser button[data-confirm]');
  if ((await confirm.count()) > 0) await confirm.click();
  return { move: target.move, ply: state.ply };
}

/**
 * Lets a test hide the tab and see notifications (the turn alerts): every Notification the
 * page makes is recorded in `window.__notes` (headless Chromium shows none), and
 * `window.__setHidden(true|false)` sets `document.visibilityState` and fires
 * `visibilitychange`. Grants the notification permission too.
 */
export async function fakeHiddenTab(context) {
  await context.grantPermissions(['notifications'], { origin: BASE });
  await context.addInitScript(() => {
    window.__notes = [];
    const Real = window.Notification;
    window.Notification = class {
      constructor(title, options = {}) {
        window.__notes.push({ title, body: options.body, tag: options.tag });
      }
      static get permission() {
        return Real ? Real.permission : 'denied';
      }
      static requestPermission() {
        return Real.requestPermission();
      }
      close() {}
    };
    let hidden = false;
    Object.defineProperty(document, 'visibilityState', { get: () => (hidden ? 'hidden' : 'visible') });
    Object.defineProperty(document, 'hidden', { get: () => hidden });
    window.__setHidden = (h) => {
      hidden = h;
      document.dispatchEvent(new Event('visibilitychange'));
    };
  });
}

/**
 * Waits until `check()` (which may be async) gives a truthy value and returns it. For checks
 * that need a promise in the page (`getNotifications()`): `page.waitForFunction` takes a
 * returned promise for a truthy value and returns at once, without waiting for it.
 */
export async function eventually(check, what, timeout = STATE_TIMEOUT_MS) {
  const end = Date.now() + timeout;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out after ${timeout} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Waits until the replay page's board shows step `n` with no animation running. */
export function stepIs(page, n) {
  return page.waitForFunction(
    (k) => {
      const b = document.querySelector('#board');
      return b.dataset.step === String(k) && !b.classList.contains('animating');
    },
    n,
  );
}

/** axe-core's browser script (tests/browser/package.json pins the version). */
const AXE_PATH = createRequire(import.meta.url).resolve('axe-core');

/**
 * Runs axe-core on the page as it is now, with its default rules (WCAG 2.0, 2.1 and 2.2 A
 * and AA, and the best practices) and WCAG 2.2's target size (24 px, off by default), and
 * returns the violations: rule id, impact, help, and each failing node's selector and axe's
 * summary of what is wrong.
 */
export async function axeViolations(page) {
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.addScriptTag({ path: AXE_PATH });
  return page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'], rules: { 'target-size': { enabled: true } } });
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target.join(' '), summary: n.failureSummary })),
    }));
  });
}

/** A readable report of `axeViolations`' answer for the page or state named `where`. */
export function axeReport(where, violations) {
  const lines = [];
  for (const v of violations) {
    lines.push(`${where}: ${v.id} (${v.impact}): ${v.help}`);
    for (const n of v.nodes) {
      lines.push(`    ${n.target}`);
      for (const l of (n.summary || '').split('\n')) if (l.trim()) lines.push(`      ${l.trim()}`);
    }
  }
  return lines.join('\n');
}

/**
 * Plays `move` (canonical) on the Learn page (/learn/{variant}/{lesson}): its pit, then the
 * chooser's buttons that lead to exactly that move. Returns once the page took the move.
 */
export async function playLessonMove(page, move) {
  await page.locator(`#board g.pit.legal[data-pit="${move.slice(0, 2)}"]`).click();
  for (let i = 0; i < 3; i++) {
    const handle = await page.waitForFunction(() =>
      document.querySelector('#lesson').dataset.state !== 'play' || document.querySelector('#chooser button') ? true : null,
    );
    await handle.dispose();
    if ((await page.getAttribute('#lesson', 'data-state')) !== 'play') return;
    const exact = page.locator(`#chooser button[data-move="${move}"]`);
    if (await exact.count()) {
      await exact.click();
      return;
    }
    await page.locator(`#chooser button[data-letter="${move[2]}"]`).click();
  }
}

/**
 * `plies` plies of seeded pseudo-random Kiswahili play from the start that do not end the
 * game (legal moves from `bao moves`): `{moves, positions}`, positions[i] before moves[i].
 */
export function randomGame(seed, plies) {
  let x = seed;
  const next = () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x;
  };
  let pos = 'kiswahili';
  const moves = [];
  const positions = [pos];
  while (moves.length < plies) {
    const legal = bao('moves', pos)
      .map((l) => l.split('\t'))
      .filter((l) => l.length === 3 && l[2] === '-');
    assert.ok(legal.length > 0, `a move that does not end the game after ${moves.join(' ')}`);
    const [mv, after] = legal[next() % legal.length];
    moves.push(mv);
    positions.push(after);
    pos = after;
  }
  return { moves, positions };
}

/** A record (NOT-6) of Kiswahili `moves` that South won by North's resignation. */
export function resignedRecord(moves) {
  const numbered = moves.map((m, i) => (i % 2 === 0 ? `${i / 2 + 1}. ${m}` : m)).join(' ');
  return ['[Variant "kiswahili"]', '[Rules "-"]', '[South "Asha"]', '[North "Juma"]', '[Date "2026.11.30"]', '[Result "S"]', '[Termination "resignation"]', '', `${numbered} S`, ''].join('\n');
}

/** Uploads a record (`POST /api/records`); its game's id. */
export async function uploadRecord(text) {
  const res = await fetch(`${BASE}/api/records`, { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: text });
  assert.equal(res.status, 201, await res.clone().text());
  return (await res.json()).id;
}
