// The game page made for a phone (templates/game.html, static/game.js, chooser.js, clock.js):
// two 360x640 touch phones in Swahili play each other with a clock (5+3) through the invite
// link, tapping pits and the chooser's buttons found by their words. At every move, on both
// phones, the turn line, both players' bars, both clocks and all four rows of the board are
// inside the one screen, the chooser's buttons too, and opening the chooser did not scroll the
// page; the opponent's bar and clock are above the board and the player's own below it (on
// North's phone too, whose board is turned). A spectator sees North above and South below.
// Then a resignation: the result box offers one engine review and one analysis board (two
// names), the rematch panel follows it, and the banner no longer tells the stage. The same
// first move in English. Every wait is for a state.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { launch, assertClean, screenshot, api, waitForPly, BASE, ROOT, STATE_TIMEOUT_MS } from '../lib/harness.mjs';

const PHONE = { viewport: { width: 360, height: 640 }, hasTouch: true, isMobile: true };

/** A catalog text with its {params} filled in (markup left out, as the page shows it). */
function text(lang, area, key, params = {}) {
  const file = path.join(ROOT, 'crates/bao-server/web/i18n', lang, `${area}.json`);
  const raw = JSON.parse(readFileSync(file, 'utf8'))[key];
  assert.ok(raw, `${lang}/${area}.json has ${key}`);
  return raw.replace(/<[^>]*>/g, '').replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

async function phone(lang, device = PHONE) {
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

/** Where the parts of the game page are on the screen (CSS px of the viewport). */
function layout(page) {
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
function assertOnScreen(l, where) {
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
function assertOwnBelow(l, own, where) {
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
function letterWords(lang, { pit, letter, takasa }, namua) {
  if (namua && !takasa) return text(lang, 'choose', letter === 'L' ? 'choose.kichwa_left' : 'choose.kichwa_right');
  const front = /^[Aa]/.test(pit);
  const cw = front === (letter === 'R');
  return `${text(lang, 'choose', letter === 'L' ? 'choose.sow_left' : 'choose.sow_right')} (${text(lang, 'choose', cw ? 'choose.clockwise' : 'choose.anticlockwise')})`;
}

const NOTATION = /\b[AaBb][1-8](?:[LR][+*]?)?\b/;

/**
 * Plays one move on `page` as a player: taps a pit (one with several ways to play when there
 * is one, so that the chooser opens), then the chooser's buttons found by their words. While
 * the chooser is open, checks both phones' layouts. Returns the move played.
 */
async function playByTouch(page, other, lang, own, n) {
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
    if (n === 0) await screenshot(page, `53-game-phone-${lang}-chooser`);
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

/** A game with a 5+3 clock made by Asha (South), its page open on her phone, and Baraka's phone through the invite link. */
async function twoPhones(lang) {
  const g = await api('/api/games', { method: 'POST', body: { variant: 'kiswahili', opponent: { kind: 'human' }, side: 'S', match: 'single_game', name: 'Asha', clock: { initial_ms: 300000, increment_ms: 3000 } } });
  const asha = await phone(lang);
  await asha.context.addCookies([{ name: `bao_${g.id}`, value: g.token, url: BASE }]);
  await asha.page.goto(`/g/${g.id}`);
  await asha.page.waitForSelector('#invite:not([hidden])');
  const link = await asha.page.inputValue('#invite-link');
  const baraka = await phone(lang);
  await baraka.context.addInitScript(() => localStorage.setItem('bao.name', JSON.stringify('Baraka')));
  await baraka.page.goto(link);
  await baraka.page.waitForSelector('#player-N .you');
  await asha.page.waitForSelector('#invite', { state: 'hidden' });
  for (const p of [asha.page, baraka.page]) await p.waitForSelector('#clock-S.running');
  await asha.page.waitForSelector('#board g.pit.legal');
  return { id: g.id, a: asha, b: baraka };
}

test('two phones in Swahili play with a clock: board, bars, clocks and the chooser fit one screen at every move; the end offers a review and the analysis board', async () => {
  const { id, a, b } = await twoPhones('sw');
  const [pa, pb] = [a.page, b.page];
  // Baraka plays North: his board is turned, his own bar and clock below it.
  assert.equal(await pb.isChecked('#flip'), true);
  await screenshot(pa, '53-game-phone-sw-before');
  const spectator = await phone('sw');
  await spectator.page.goto(`/g/${id}`);
  await spectator.page.waitForSelector('#connection[data-connection="open"]');

  const PLIES = 10;
  for (let n = 0; n < PLIES; n++) {
    const [mover, waiter, own] = n % 2 === 0 ? [pa, pb, 'S'] : [pb, pa, 'N'];
    await mover.waitForSelector('#board g.pit.legal');
    await playByTouch(mover, waiter, 'sw', own, n);
    if (n === 0) await screenshot(pa, '53-game-phone-sw-after');
  }
  // A spectator: North above, South below, both clocks shown with their players.
  await waitForPly(spectator.page, PLIES);
  const seen = await layout(spectator.page);
  assertOwnBelow(seen, 'S', 'the spectator');
  assert.ok(seen.clockS && seen.clockN, 'the spectator sees both clocks');
  await screenshot(spectator.page, '53-game-phone-sw-spectator');

  // Baraka resigns. Both phones: the result box names one engine review and one analysis
  // board, two different tools, and the banner no longer tells the stage.
  await pb.click('#resign');
  for (const p of [pa, pb]) {
    await p.waitForSelector('#result:not([hidden])');
    await p.waitForSelector('#review-link:not([hidden])');
    const review = p.locator('#result').getByRole('link', { name: text('sw', 'game', 'game.review'), exact: true });
    const analyse = p.locator('#result').getByRole('link', { name: text('sw', 'game', 'game.analyse'), exact: true });
    assert.equal(await review.count(), 1, 'one engine review');
    assert.equal(await analyse.count(), 1, 'one analysis board');
    assert.notEqual(text('sw', 'game', 'game.review'), text('sw', 'game', 'game.analyse'));
    assert.match(await review.getAttribute('href'), new RegExp(`^/replay\\?game=${id}&game_no=1&review=1$`));
    assert.match(await analyse.getAttribute('href'), /^\/analysis\?/);
    assert.equal((await p.textContent('#stage')).trim(), '', 'no stage text after the end');
    const banner = await p.textContent('#turn');
    assert.ok(!banner.includes('Namua') && !banner.includes(text('sw', 'game', 'game.stage_namua')), `the banner tells no stage: ${banner}`);
    // The rematch panel sits right after the result.
    assert.equal(await p.evaluate(() => document.querySelector('#result').nextElementSibling?.id), 'play-panel');
    assert.equal(await p.locator('.clock.running').count(), 0, 'no clock runs after the end');
  }
  await screenshot(pa, '53-game-phone-sw-over');
  for (const x of [a, b, spectator]) {
    await x.context.close();
    assertClean(x.page);
  }
});

test('the first move in English: the chooser in words, the board in place', async () => {
  const { a, b } = await twoPhones('en');
  await screenshot(a.page, '53-game-phone-en-before');
  await playByTouch(a.page, b.page, 'en', 'S', 0);
  await screenshot(a.page, '53-game-phone-en-after');
  await b.page.waitForSelector('#board g.pit.legal');
  await playByTouch(b.page, a.page, 'en', 'N', 1);
  await screenshot(b.page, '53-game-phone-en-north');
  for (const x of [a, b]) {
    await x.context.close();
    assertClean(x.page);
  }
});
