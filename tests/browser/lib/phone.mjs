// Phones in the browser tests: a 360x640 touch context in a language, where the parts of the
// game page are on its screen, the checks that a player's board, bars, clocks and chooser fit
// it, and a move played as a player plays it (a pit tapped, the chooser's buttons found by
// their words). Shared by the tests that play as players do (accounts, rated games, tournaments,
// the game page on a phone).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { api, waitForPly, screenshot, BASE, ROOT, STATE_TIMEOUT_MS } from './harness.mjs';

export const PHONE = { viewport: { width: 360, height: 640 }, hasTouch: true, isMobile: true };

/** A catalog text with its {params} filled in (markup left out, as the page shows it). */
export function text(lang, area, key, params = {}) {
  const file = path.join(ROOT, 'crates/bao-server/web/i18n', lang, `${area}.json`);
  const raw = JSON.parse(readFileSync(file, 'utf8'))[key];
  assert.ok(raw, `${lang}/${area}.json has ${key}`);
  return raw.replace(/<[^>]*>/g, '').replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

/** A new browser context on `browser` as a phone (or `device`) in `lang`, animations off, its page's problems recorded. */
export async function phone(browser, lang, device = PHONE) {
  const context = await browser.newContext({ ...device, baseURL: BASE, locale: lang === 'sw' ? 'sw-TZ' : 'en-GB' });
  context.setDefaultTimeout(STATE_TIMEOUT_MS);
  await context.addInitScript(() => localStorage.setItem('bao.speed', '0'));
  const page = await context.newPage();
  const problems = { pageErrors: [], consoleErrors: [], external: [] };
  page.on('pageerror', (e) => problems.pageErrors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && problems.consoleErrors.push(m.text()));
  page.on('request', (r) => {
    if (!r.url().startsWith(BASE) && !r.url().startsWith('data:') && !r.url().startsWith(BASE.replace('http', 'ws'))) problems.external.push(r.url());
  });
  page.on('dialog', (d) => d.accept());
  page.problems = problems;
  return { context, page };
}

/** A name no other run of the suite has taken (names are unique without regard to case). */
export const unique = (stem) => `${stem}${Date.now().toString(36).slice(-6)}${Math.floor(Math.random() * 100)}`;

/** Calls the API from the test process as the account whose session is `session`: {data, res}. */
export async function callAs(pathname, { session, method = 'GET', body } = {}) {
  const headers = {};
  if (session) headers.Cookie = `bao_session=${session}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(BASE + pathname, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const raw = await res.text();
  let data = raw;
  try {
    data = JSON.parse(raw);
  } catch {
    /* not JSON */
  }
  if (!res.ok) throw new Error(`${method} ${pathname}: ${res.status} ${raw}`);
  return { data, res };
}

/** A new account `name` made through the API: its session token. */
export async function accountByApi(name, password) {
  const { res } = await callAs('/api/account/signup', { method: 'POST', body: { username: name, password } });
  return /bao_session=([0-9a-f]+)/.exec(res.headers.get('set-cookie'))[1];
}

/** The page is no wider than a 360 px phone. */
export async function noSidewaysScroll(page, where) {
  const scroll = await page.evaluate(() => document.scrollingElement.scrollWidth);
  assert.ok(scroll <= 360, `${where}: the page is ${scroll} px wide on a 360 px phone`);
}

/** Where the parts of the game page are on the screen (CSS px of the viewport). */
export function layout(page) {
  return page.evaluate(() => {
    const box = (e) => {
      if (!e) return null;
      const r = e.getBoundingClientRect();
      return { top: r.top, bottom: r.bottom, left: r.left, right: r.right };
    };
    const union = (boxes) => ({
      top: Math.min(...boxes.map((b) => b.top)),
      bottom: Math.max(...boxes.map((b) => b.bottom)),
      left: Math.min(...boxes.map((b) => b.left)),
      right: Math.max(...boxes.map((b) => b.right)),
    });
    // Each row's pits: b (North's back), a, A, B (South's back).
    const rows = {};
    for (const r of ['b', 'a', 'A', 'B']) rows[r] = union([...document.querySelectorAll('#board g.pit[data-pit]')].filter((g) => g.dataset.pit[0] === r).map((g) => box(g.querySelector('.hole') || g)));
    return {
      scrollY: window.scrollY,
      width: document.scrollingElement.scrollWidth,
      rows,
      turn: box(document.querySelector('#turn')),
      barS: box(document.querySelector('#player-S')),
      barN: box(document.querySelector('#player-N')),
      clockS: box(document.querySelector('#clock-S')),
      clockN: box(document.querySelector('#clock-N')),
      buttons: [...document.querySelectorAll('#chooser button')].map(box),
    };
  });
}

/** Everything a player needs while choosing is inside the 360x640 screen. */
export function assertOnScreen(l, where) {
  const parts = { turn: l.turn, 'South bar': l.barS, 'North bar': l.barN, 'South clock': l.clockS, 'North clock': l.clockN };
  for (const [r, b] of Object.entries(l.rows)) parts[`row ${r}`] = b;
  l.buttons.forEach((b, i) => (parts[`chooser button ${i + 1}`] = b));
  for (const [name, b] of Object.entries(parts)) {
    assert.ok(b, `${where}: ${name} is on the page`);
    assert.ok(b.top >= 0 && b.bottom <= 640 && b.left >= 0 && b.right <= 360, `${where}: ${name} at ${JSON.stringify(b)} is outside the 360x640 screen`);
  }
  assert.ok(l.width <= 360, `${where}: the page is ${l.width} px wide`);
}

/** The player's own bar and clock below the board, the opponent's above (`own`: S or N). */
export function assertOwnBelow(l, own, where) {
  const other = own === 'S' ? 'N' : 'S';
  const top = Math.min(...Object.values(l.rows).map((r) => r.top));
  const bottom = Math.max(...Object.values(l.rows).map((r) => r.bottom));
  assert.ok(l[`bar${other}`].bottom <= top && l[`clock${other}`].bottom <= top, `${where}: ${other}'s bar and clock are above the board`);
  assert.ok(l[`bar${own}`].top >= bottom && l[`clock${own}`].top >= bottom, `${where}: ${own}'s bar and clock are below the board`);
  // The mover's rows nearest to them: their back row at the very bottom.
  const back = own === 'S' ? 'B' : 'b';
  assert.ok(Math.abs(l.rows[back].bottom - bottom) < 1, `${where}: ${own}'s back row is the lowest`);
}

/**
 * The words of the chooser's button for `letter` of a move from `pit`, as the player sees it
 * with their own side at the bottom of the screen (L is then to the left, BRD-4.1); worked out
 * here from the rules, not from the page: a namua capture's letter is the kichwa the seeds
 * are sown from (NOT-1.2), any other is the direction, clockwise when it goes round the
 * mover's rows that way (front row R, back row L).
 */
export function letterWords(lang, { pit, letter, takasa }, namua) {
  if (namua && !takasa) return text(lang, 'choose', letter === 'L' ? 'choose.kichwa_left' : 'choose.kichwa_right');
  const front = /^[Aa]/.test(pit);
  const cw = front === (letter === 'R');
  return `${text(lang, 'choose', letter === 'L' ? 'choose.sow_left' : 'choose.sow_right')} (${text(lang, 'choose', cw ? 'choose.clockwise' : 'choose.anticlockwise')})`;
}

export const NOTATION = /\b[AaBb][1-8](?:[LR][+*]?)?\b/;

/**
 * Plays one move on `page` as a player: taps a pit (one with several ways to play when there
 * is one, so that the chooser opens), then the chooser's buttons found by their words. While
 * the chooser is open, checks both phones' layouts. Returns the move played.
 */
export async function playByTouch(page, other, lang, own, n, shots = '53-game-phone') {
  const s = await page.evaluate(async () => (await fetch(`/api/games/${location.pathname.split('/')[2]}`, { credentials: 'same-origin' })).json());
  const legal = s.legal;
  const count = (pit) => legal.filter((m) => m.pit === pit).length;
  const target = legal.find((m) => count(m.pit) > 1 && m.letter === (n % 2 ? 'L' : 'R')) || legal.find((m) => count(m.pit) > 1) || legal[0];
  const namua = s.stage === 'namua';
  const before = await layout(page);
  // The prompt says what to do in words, no pit names.
  const prompt = (await page.textContent('#chooser .prompt')).trim();
  assert.ok(!NOTATION.test(prompt), `the prompt is words, not notation: ${prompt}`);
  await page.locator(`#board g.pit.legal[data-pit="${target.pit}"]`).tap();
  if (count(target.pit) > 1) {
    await page.waitForSelector('#chooser button[data-letter], #chooser button[data-choice]');
    const open = await layout(page);
    const where = `ply ${n + 1}, ${own}'s phone, chooser open`;
    assert.equal(open.scrollY, before.scrollY, `${where}: the page scrolled from ${before.scrollY} to ${open.scrollY} when the chooser opened`);
    assertOnScreen(open, where);
    assertOwnBelow(open, own, where);
    const waiting = await layout(other);
    assertOnScreen(waiting, `ply ${n + 1}, the other phone`);
    assertOwnBelow(waiting, own === 'S' ? 'N' : 'S', `ply ${n + 1}, the other phone`);
    const question = (await page.textContent('#chooser .prompt')).trim();
    const names = await page.$$eval('#chooser button', (bs) => bs.map((b) => b.textContent.trim()));
    for (const t of [question, ...names]) assert.ok(!NOTATION.test(t), `${where}: "${t}" is words, not notation`);
    if (n === 0) await screenshot(page, `${shots}-${lang}-chooser`);
    if ((await page.locator('#chooser button[data-letter]').count()) > 0) {
      await page.getByRole('button', { name: letterWords(lang, target, namua), exact: true }).tap();
    }
    if ((await page.locator('#chooser button[data-choice]').count()) > 0) {
      const house = s.variant === 'kete' ? 'kuu' : 'nyumba';
      const key = target.safari ? 'choose.go_safari' : 'choose.stop_house';
      await page.getByRole('button', { name: text(lang, 'choose', key, { house }), exact: true }).tap();
    }
  }
  await waitForPly(page, s.ply + 1);
  await waitForPly(other, s.ply + 1);
  const got = await api(`/api/games/${s.id}`);
  assert.equal(got.moves[got.moves.length - 1].move, target.move, 'the move chosen by its words was played');
  return target.move;
}

