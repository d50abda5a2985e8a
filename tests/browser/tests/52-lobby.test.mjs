// The lobby (docs/api.md "Finding an opponent"; static/lobby.js, challenge-form.js,
// profile.js, blocks.js, menu.js): a challenge posted in one browser and accepted in another
// (both on the same game, each holding a seat: the side to move can play); quick pairing of
// two signed-in browsers; a direct challenge from a profile accepted live on the other's home
// page; a blocked player refused in words, the blocked list in the settings; the home page at
// 360x640 with the challenges above the fold, beside "Start playing" for a guest and "Play now"
// for a signed-in player (53-home-first-screen tests the rest); the compact header menu; the
// hand labels of the board clear of their counts in Swahili at 360 px.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { launch, assertClean, screenshot, clickMove, waitForPly, ROOT, BASE, STATE_TIMEOUT_MS } from '../lib/harness.mjs';

const PHONE = { viewport: { width: 360, height: 640 }, hasTouch: true, isMobile: true };
const DESKTOP = { viewport: { width: 1280, height: 800 } };
/** A wide desktop: the header's links in one line (below 1441 px they are behind the menu button). */
const WIDE = { viewport: { width: 1600, height: 900 } };

function text(lang, area, key, params = {}) {
  const file = path.join(ROOT, 'crates/bao-server/web/i18n', lang, `${area}.json`);
  const raw = JSON.parse(readFileSync(file, 'utf8'))[key];
  assert.ok(raw, `${lang}/${area}.json has ${key}`);
  return raw.replace(/<[^>]*>/g, '').replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

const unique = (stem) => `${stem}${Date.now().toString(36).slice(-5)}${Math.floor(Math.random() * 100)}`;
const PASSWORD = 'nyumba-sita-6';

let browser;
const contexts = [];
before(async () => {
  browser = await launch();
});
after(async () => {
  for (const c of contexts) await c.close().catch(() => {});
  await browser?.close();
});

/** A browser (own cookies and storage) in `lang` on `device`; signed in as `account` if given. */
async function openIn(lang, device, account = null) {
  const context = await browser.newContext({ ...device, baseURL: BASE, locale: lang === 'sw' ? 'sw-TZ' : 'en-GB' });
  contexts.push(context);
  context.setDefaultTimeout(STATE_TIMEOUT_MS);
  await context.addInitScript(() => localStorage.setItem('bao.speed', '0'));
  if (account) {
    await context.addCookies([{ name: 'bao_session', value: account.session, url: BASE }]);
    await context.addInitScript((name) => localStorage.setItem('bao.account', JSON.stringify({ username: name, at: Date.now() })), account.name);
  }
  const page = await context.newPage();
  const problems = { pageErrors: [], consoleErrors: [], external: [] };
  page.on('pageerror', (e) => problems.pageErrors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && problems.consoleErrors.push(m.text()));
  page.problems = problems;
  return { context, page };
}

/** A new account (through the API): {name, session}. */
async function signUp(stem) {
  const name = unique(stem);
  const res = await fetch(`${BASE}/api/account/signup`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: name, password: PASSWORD }) });
  assert.equal(res.status, 201, `signup ${name}: ${res.status} ${await res.text()}`);
  const session = /bao_session=([0-9a-f]+)/.exec(res.headers.get('set-cookie'))[1];
  return { name, session };
}

const gameOf = (page) => new URL(page.url()).pathname.split('/')[2];

/** Both pages show game `id` and each holds a seat: the side to move plays, then the other. */
async function bothPlay(a, b) {
  const id = gameOf(a);
  assert.equal(gameOf(b), id, 'both browsers are on the same game');
  const seats = [];
  for (const p of [a, b]) {
    await p.waitForSelector('#players .player .you');
    seats.push(await p.$eval('#players .player:has(.you)', (x) => x.dataset.side));
  }
  assert.deepEqual([...seats].sort(), ['N', 'S'], `one seat each: ${seats}`);
  const [south, north] = seats[0] === 'S' ? [a, b] : [b, a];
  await south.waitForSelector('#board g.pit.legal');
  assert.equal(await north.locator('#board g.pit.legal').count(), 0, 'North waits for South');
  await clickMove(south);
  await waitForPly(north, 1);
  await north.waitForSelector('#board g.pit.legal');
  await clickMove(north);
  await waitForPly(south, 2);
  return id;
}

test('a challenge posted in one browser, accepted in another: both reach the game and play', async (t) => {
  const a = await openIn('sw', PHONE);
  const b = await openIn('en', DESKTOP);
  await a.page.goto('/');
  await a.page.waitForSelector('#seek-list[data-state="ready"]');
  // A guest: no quick pairing, a link to sign in instead.
  await a.page.waitForSelector('#quick-guest:not([hidden])');
  assert.equal(await a.page.locator('#quick-buttons').isHidden(), true);
  await a.page.click('#post-seek');
  assert.equal(await a.page.getAttribute('#post-seek', 'aria-expanded'), 'true');
  // A guest's challenge is casual: no "Rated" choice.
  assert.equal(await a.page.locator('#seek-form-rated').isHidden(), true);
  await a.page.selectOption('#seek-form-variant', 'kiswahili');
  await a.page.selectOption('#seek-form-clock', '10+5');
  await a.page.click('#seek-form-submit');
  await a.page.waitForSelector('#seek-list li.mine[data-seek]');
  await a.page.waitForSelector('#seek-waiting:not([hidden])');
  const seek = await a.page.getAttribute('#seek-list li.mine', 'data-seek');
  await screenshot(a.page, '52-lobby-seek-posted-sw-360');

  // The other browser sees it, with its terms in words, and accepts.
  await b.page.goto('/');
  const item = b.page.locator(`#seek-list li[data-seek="${seek}"]`);
  await item.waitFor();
  assert.match(await item.textContent(), /Kiswahili · 10\+5 · casual/);
  // Timed (reported, not asserted: docs/api.md "Measured"): from the click on Accept to each
  // page showing the game with its seat.
  const t0 = performance.now();
  const ready = (p) => p.waitForSelector('#players .player .you').then(() => performance.now() - t0);
  const [, acceptor, poster] = await Promise.all([item.locator('button.seek-accept').click(), ready(b.page), ready(a.page)]);
  t.diagnostic(`measured: seek accept to the game page with its seat: acceptor ${acceptor.toFixed(0)} ms, poster ${poster.toFixed(0)} ms`);
  assert.match(b.page.url(), /\/g\//);
  assert.match(a.page.url(), /\/g\//);
  await bothPlay(a.page, b.page);
  await screenshot(a.page, '52-lobby-seek-game-sw-360');
  assertClean(a.page);
  assertClean(b.page);
});

test('a challenge accepted by someone else first: refused in words, the list updated', async () => {
  const a = await openIn('en', DESKTOP);
  const b = await openIn('en', DESKTOP);
  const c = await openIn('sw', PHONE);
  await a.page.goto('/');
  await a.page.click('#post-seek');
  await a.page.click('#seek-form-submit');
  await a.page.waitForSelector('#seek-list li.mine[data-seek]');
  const seek = await a.page.getAttribute('#seek-list li.mine', 'data-seek');
  for (const p of [b.page, c.page]) {
    await p.goto('/');
    await p.waitForSelector(`#seek-list li[data-seek="${seek}"] button.seek-accept`);
  }
  await Promise.all([b.page.waitForURL(/\/g\//), b.page.click(`#seek-list li[data-seek="${seek}"] button.seek-accept`)]);
  // The third page may already have heard that the list changed; if the button is still
  // there, pressing it is refused in Swahili.
  const late = c.page.locator(`#seek-list li[data-seek="${seek}"] button.seek-accept`);
  if ((await late.count()) > 0) {
    await late.click().catch(() => {});
    const status = c.page.locator('#lobby-status');
    await c.page.waitForFunction(
      ([s]) => !document.querySelector(`#seek-list li[data-seek="${s}"]`) || document.querySelector('#lobby-status[data-kind="error"]:not([hidden])'),
      [seek],
    );
    if (await status.isVisible()) {
      const said = (await status.textContent()).trim();
      assert.ok([text('sw', 'lobby', 'lobby.err_seek_taken'), text('sw', 'lobby', 'lobby.err_gone')].includes(said), said);
    }
  }
  await c.page.waitForSelector(`#seek-list li[data-seek="${seek}"]`, { state: 'detached' });
  assert.equal(new URL(c.page.url()).pathname, '/', 'the late browser stays on the home page');
  await a.page.waitForURL(/\/g\//);
  assert.equal(gameOf(a.page), gameOf(b.page));
});

test('quick pairing: two signed-in browsers press the same "Play now" and reach the same game', async () => {
  const alice = await signUp('Asha');
  const bob = await signUp('Baraka');
  const a = await openIn('sw', PHONE, alice);
  const b = await openIn('en', DESKTOP, bob);
  await a.page.goto('/');
  await a.page.waitForSelector('#quick-buttons:not([hidden]) button[data-clock="5+3"]');
  assert.equal(await a.page.locator('#quick-guest').isHidden(), true, 'no sign-in link when signed in');
  await a.page.check('#lobby-variants input[value="kete"]', { force: true });
  await a.page.click('#quick-buttons button[data-clock="5+3"]');
  // Waiting: the search in words and a running time, with Cancel.
  await a.page.waitForSelector('#pool-wait:not([hidden])');
  assert.equal((await a.page.textContent('#pool-what')).trim(), text('sw', 'lobby', 'lobby.pool_looking', { game: 'Bao la Kete', clock: '5+3' }));
  await a.page.waitForFunction(() => /^\(\d+:\d\d\)$/.test(document.querySelector('#pool-time').textContent));
  assert.equal(await a.page.getAttribute('#quick-buttons button[data-clock="5+3"]', 'aria-pressed'), 'true');
  await screenshot(a.page, '52-lobby-pool-waiting-sw-360');

  // Cancel, then look again: the buttons come back.
  await a.page.click('#pool-cancel');
  await a.page.waitForSelector('#pool-wait', { state: 'hidden' });
  assert.equal(await a.page.isDisabled('#quick-buttons button[data-clock="5+3"]'), false);
  await a.page.click('#quick-buttons button[data-clock="5+3"]');
  await a.page.waitForSelector('#pool-wait:not([hidden])');

  await b.page.goto('/');
  await b.page.waitForSelector('#quick-buttons:not([hidden]) button[data-clock="5+3"]');
  await b.page.check('#lobby-variants input[value="kete"]', { force: true });
  await Promise.all([b.page.waitForURL(/\/g\//), b.page.click('#quick-buttons button[data-clock="5+3"]')]);
  await a.page.waitForURL(/\/g\//);
  assert.equal(gameOf(a.page), gameOf(b.page), 'the same game');
  const s = await (await fetch(`${BASE}/api/games/${gameOf(a.page)}`)).json();
  assert.equal(s.variant, 'kete');
  assert.equal(s.rated, true, 'pool games are rated');
  assert.deepEqual(s.clock?.control, { initial_ms: 300000, increment_ms: 3000 }, 'the clock chosen');
  await bothPlay(a.page, b.page);
  assertClean(a.page);
  assertClean(b.page);
});

test('a direct challenge from a profile, accepted live on the home page of the other', async () => {
  const zuhura = await signUp('Zuhura');
  const juma = await signUp('Juma');
  const z = await openIn('en', DESKTOP, zuhura);
  const j = await openIn('sw', PHONE, juma);
  // Juma waits on the home page; nothing for him yet.
  await j.page.goto('/');
  await j.page.waitForSelector('#seek-list[data-state="ready"]');
  assert.equal(await j.page.locator('#incoming').isHidden(), true);

  await z.page.goto(`/@/${juma.name}`);
  await z.page.waitForSelector('#profile-actions[data-state="ready"]');
  await z.page.click('#challenge-open');
  assert.equal(await z.page.getAttribute('#challenge-open', 'aria-expanded'), 'true');
  await z.page.selectOption('#challenge-form-variant', 'kimasai');
  await z.page.selectOption('#challenge-form-clock', '1d');
  await z.page.selectOption('#challenge-form-match', 'best_of_three');
  await z.page.click('#challenge-form-submit');
  await z.page.waitForSelector('#profile-action-status:not([hidden])');
  assert.equal((await z.page.textContent('#profile-action-status')).trim(), text('en', 'lobby', 'lobby.challenge_sent', { name: juma.name }));
  await screenshot(z.page, '52-lobby-profile-challenge-sent-en');

  // The challenger's home page lists it in "My games", waiting for Juma, with Cancel.
  await z.page.goto('/');
  const sent = z.page.locator('#my-games:not([hidden]) #my-challenges li[data-challenge][data-dir="out"]');
  await sent.waitFor();
  assert.ok((await sent.textContent()).includes(text('en', 'lobby', 'lobby.mine_their_answer', { name: juma.name })));
  assert.equal(await sent.locator('button[data-action="cancel"]').count(), 1);

  // It arrives on Juma's page live, at the top, in Swahili.
  await j.page.waitForSelector('#incoming:not([hidden]) #incoming-list li[data-challenge]');
  const li = j.page.locator('#incoming-list li[data-challenge]').first();
  const said = await li.textContent();
  assert.ok(said.includes(zuhura.name) && said.includes('Kimasai') && said.includes(text('sw', 'lobby', 'lobby.clock_day')) && said.includes(text('sw', 'lobby', 'lobby.best_of_three_short')), said);
  const incomingBox = await j.page.locator('#incoming').boundingBox();
  const playBox = await j.page.locator('#play-now-title').boundingBox();
  assert.ok(incomingBox.y < playBox.y, 'challenges for you are at the top');
  await screenshot(j.page, '52-lobby-incoming-sw-360');
  // And in his "My games", waiting for his answer, with Accept and Decline there too.
  const row = j.page.locator('#my-games:not([hidden]) #my-challenges li[data-challenge][data-dir="in"]');
  await row.waitFor();
  const rowText = await row.textContent();
  assert.ok(rowText.includes(zuhura.name) && rowText.includes(text('sw', 'lobby', 'lobby.mine_your_answer')), rowText);
  assert.equal(await row.locator('button[data-action="accept"]').count(), 1);
  assert.equal(await row.locator('button[data-action="decline"]').count(), 1);
  await row.scrollIntoViewIfNeeded();
  await screenshot(j.page, '52-lobby-my-games-challenge-sw-360');
  await Promise.all([j.page.waitForURL(/\/g\//), li.locator('button[data-action="accept"]').click()]);
  // Zuhura's home page goes to the game by itself.
  await z.page.waitForURL(/\/g\//);
  const id = await bothPlay(z.page, j.page);
  const s = await (await fetch(`${BASE}/api/games/${id}`)).json();
  assert.equal(s.variant, 'kimasai');
  assert.equal(s.match?.format, 'best_of_three');
  assertClean(z.page);
  assertClean(j.page);
});

test('a declined challenge: the challenger is told in words', async () => {
  const x = await signUp('Mwanaisha');
  const y = await signUp('Hamisi');
  const px = await openIn('en', DESKTOP, x);
  const py = await openIn('en', DESKTOP, y);
  await px.page.goto('/');
  await px.page.waitForSelector('#seek-list[data-state="ready"]');
  await py.page.goto(`/@/${x.name}`);
  await py.page.waitForSelector('#profile-actions[data-state="ready"]');
  await py.page.click('#challenge-open');
  await py.page.click('#challenge-form-submit');
  await py.page.waitForSelector('#profile-action-status:not([hidden])');
  await py.page.goto('/');
  await py.page.waitForSelector('#my-challenges li[data-challenge][data-dir="out"]');
  await px.page.waitForSelector('#incoming-list li[data-challenge]');
  // Declined from the row in "My games": both lists of both players empty.
  await px.page.click('#my-challenges li[data-challenge][data-dir="in"] button[data-action="decline"]');
  await px.page.waitForSelector('#incoming', { state: 'hidden' });
  await px.page.waitForSelector('#my-challenges li[data-challenge]', { state: 'detached' });
  await py.page.waitForSelector('#my-challenges li[data-challenge]', { state: 'detached' });
  await py.page.waitForFunction((t) => document.querySelector('#lobby-status')?.textContent === t, text('en', 'lobby', 'lobby.challenge_declined', { name: x.name }));
  assertClean(px.page);
  assertClean(py.page);
});

test('a blocked player cannot challenge (said in words); the blocked list in the settings unblocks', async () => {
  const rehema = await signUp('Rehema');
  const kassim = await signUp('Kassim');
  const r = await openIn('sw', PHONE, rehema);
  const k = await openIn('sw', PHONE, kassim);
  // Rehema blocks Kassim on his profile.
  await r.page.goto(`/@/${kassim.name}`);
  await r.page.waitForSelector('#profile-actions[data-state="ready"]');
  assert.equal((await r.page.textContent('#block-toggle')).trim(), text('sw', 'lobby', 'lobby.block'));
  await r.page.click('#block-toggle');
  await r.page.waitForSelector('#profile-actions[data-blocked="true"]');
  assert.equal((await r.page.textContent('#block-toggle')).trim(), text('sw', 'lobby', 'lobby.unblock'));
  await r.page.reload();
  await r.page.waitForSelector('#profile-actions[data-blocked="true"]');

  // Kassim tries to challenge her: refused, in Swahili.
  await k.page.goto(`/@/${rehema.name}`);
  await k.page.waitForSelector('#profile-actions[data-state="ready"]');
  await k.page.click('#challenge-open');
  await k.page.click('#challenge-form-submit');
  await k.page.waitForSelector('#challenge-form-status[data-kind="error"]:not([hidden])');
  assert.equal((await k.page.textContent('#challenge-form-status')).trim(), text('sw', 'lobby', 'lobby.err_blocked'));
  await screenshot(k.page, '52-lobby-blocked-sw-360');

  // Her settings list him; Unblock empties the list, and his challenge goes through.
  await r.page.goto('/account');
  await r.page.waitForSelector(`#blocked-list li[data-name="${kassim.name}"]`);
  await screenshot(r.page, '52-lobby-blocked-list-sw-360');
  await r.page.click(`#blocked-list li[data-name="${kassim.name}"] button`);
  await r.page.waitForFunction((t) => document.querySelector('#blocked-list li.muted')?.textContent === t, text('sw', 'lobby', 'lobby.blocked_empty'));
  await k.page.click('#challenge-form-submit');
  await k.page.waitForSelector('#profile-action-status:not([hidden])');
  assert.equal(await k.page.locator('#challenge-form-status').isHidden(), true);
  // The pages' own 403 (the refused challenge) is the only console error.
  assertClean(r.page);
  k.page.problems.consoleErrors = k.page.problems.consoleErrors.filter((e) => !/403/.test(e));
  assertClean(k.page);
});

test('the home page on a 360x640 phone: the open challenges above the fold, with "Start playing" (guest) or "Play now" (signed in)', async () => {
  // Someone has a challenge open, so that the list has an item with its Accept button.
  const poster = await openIn('en', DESKTOP);
  await poster.page.goto('/');
  await poster.page.click('#post-seek');
  await poster.page.click('#seek-form-submit');
  await poster.page.waitForSelector('#seek-list li.mine[data-seek]');
  const seek = await poster.page.getAttribute('#seek-list li.mine', 'data-seek');

  const account = await signUp('Salma');
  for (const [lang, who] of [
    ['sw', null],
    ['en', null],
    ['sw', account],
    ['en', account],
  ]) {
    const { page } = await openIn(lang, PHONE, who);
    await page.goto('/');
    await page.waitForSelector(`#seek-list li[data-seek="${seek}"] button.seek-accept`);
    // A guest: play the computer, a friend, the lessons (quick pairing needs an account: its
    // note comes after the challenges). Signed in: Play now with its games and clocks.
    const wanted = [...(who ? ['#play-now-title', '#lobby-variants', '#quick-buttons button[data-clock="1d"]'] : ['#play-computer', '#invite-friend', '#learn-link']), '#seeks-title', '#post-seek', `#seek-list li[data-seek="${seek}"] button.seek-accept`];
    for (const sel of wanted) {
      const box = await page.locator(sel).boundingBox();
      assert.ok(box, `${sel} is shown (${lang}, ${who ? 'signed in' : 'guest'})`);
      assert.ok(box.y >= 0 && box.y + box.height <= 640 && box.x >= 0 && box.x + box.width <= 360, `${sel} inside the first screen of 360x640 (${lang}, ${who ? 'signed in' : 'guest'}): ${JSON.stringify(box)}`);
    }
    // The header is one compact line.
    const header = await page.locator('.site-header').boundingBox();
    assert.ok(header.height <= 64, `the header is ${header.height} px high`);
    assert.ok((await page.evaluate(() => document.scrollingElement.scrollWidth)) <= 360, 'no sideways scrolling');
    await screenshot(page, `52-lobby-home-${lang}-${who ? 'in' : 'guest'}-360`);
    assertClean(page);
  }
});

test('the compact menu on a phone: one button with aria-expanded, Escape closes it, the language switch inside', async () => {
  const { page } = await openIn('sw', PHONE);
  await page.goto('/rules/kete');
  const toggle = page.locator('#menu-toggle');
  assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
  assert.equal(await page.locator('.site-nav a[href="/puzzles"]').isVisible(), false, 'the links are behind the button');
  // The brand, the account links and the button share one line.
  const [brand, account, button] = await Promise.all([page.locator('.brand').boundingBox(), page.locator('#account-menu').boundingBox(), toggle.boundingBox()]);
  for (const b of [account, button]) assert.ok(Math.abs(b.y + b.height / 2 - (brand.y + brand.height / 2)) < 12, `one line: ${JSON.stringify({ brand, account, button })}`);
  assert.ok(button.height >= 44 && button.x + button.width <= 360, `the button: ${JSON.stringify(button)}`);
  const mainBefore = (await page.locator('main').boundingBox()).y;
  await toggle.click();
  assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
  await page.waitForSelector('.site-nav a[href="/puzzles"]:visible');
  assert.equal((await page.locator('main').boundingBox()).y, mainBefore, 'the open menu covers the page instead of pushing it');
  // The current page is marked; every link is big enough to tap.
  assert.equal(await page.getAttribute('.site-nav a[href="/rules/kete"]', 'aria-current'), 'page');
  for (const box of await page.locator('.site-nav a').evaluateAll((as) => as.map((a) => a.getBoundingClientRect().toJSON()))) assert.ok(box.height >= 44, JSON.stringify(box));
  await page.waitForSelector('.lang-switch a[data-lang="en"]:visible');
  await screenshot(page, '52-lobby-menu-open-sw-360');
  // Keyboard: Tab reaches the links after the button; Escape closes and returns to it.
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.closest('#site-menu') !== null), true, 'Tab goes into the menu');
  await page.keyboard.press('Escape');
  assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'menu-toggle');
  assert.equal(await page.locator('.site-nav a[href="/puzzles"]').isVisible(), false);
  // The language switch works from inside the menu.
  await toggle.click();
  await Promise.all([page.waitForURL(/lang=en/), page.click('.lang-switch a[data-lang="en"]')]);
  assert.equal(await page.getAttribute('html', 'lang'), 'en');
  assertClean(page);

  // Wide screens: no button, the links in one line with the account and language, in Swahili too.
  for (const lang of ['sw', 'en']) {
    const wide = await openIn(lang, WIDE);
    await wide.page.goto('/');
    assert.equal(await wide.page.locator('#menu-toggle').isVisible(), false);
    assert.equal(await wide.page.locator('.site-nav a[href="/analysis"]').isVisible(), true);
    const h = (await wide.page.locator('.site-header').boundingBox()).height;
    assert.ok(h <= 64, `${lang}: the header is one line (${h} px)`);
    const [first, last, lang2] = await Promise.all([wide.page.locator('.brand').boundingBox(), wide.page.locator('.site-nav a').last().boundingBox(), wide.page.locator('.lang-switch a').boundingBox()]);
    assert.ok(first.x >= 0 && lang2.x + lang2.width <= 1600 && last.x + last.width <= lang2.x, `${lang}: ${JSON.stringify({ first, last, lang2 })}`);
    await screenshot(wide.page, `52-lobby-header-${lang}-1600`);
  }
});

test('the board: each hand label stays clear of its count in Swahili and English, at 360 px and on a desktop', async () => {
  const res = await fetch(`${BASE}/api/games`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ variant: 'kiswahili', opponent: { kind: 'computer', level: 1 }, side: 'N' }) });
  const g = await res.json();
  for (const device of [PHONE, DESKTOP]) {
    for (const lang of ['sw', 'en']) {
      for (const seat of [false, true]) {
        const { context, page } = await openIn(lang, device);
        // Seated North, the board is turned round (the hands move); as a spectator it is not.
        if (seat) await context.addCookies([{ name: `bao_${g.id}`, value: g.token, url: BASE }]);
        await page.goto(`/g/${g.id}`);
        await page.waitForSelector('#board svg #hand-N');
        await page.waitForFunction((w) => document.querySelector('#hand-N .label')?.textContent.includes(w), lang === 'sw' ? 'Kaskazini' : 'North');
        for (const side of ['S', 'N']) {
          const [label, count] = await Promise.all([page.locator(`#hand-${side} .label`).boundingBox(), page.locator(`#hand-${side} .count`).boundingBox()]);
          const where = `${lang} ${device.viewport.width}px ${seat ? 'North' : 'spectator'} hand-${side}`;
          assert.ok(label.x + label.width <= count.x, `${where}: label ${JSON.stringify(label)} runs into count ${JSON.stringify(count)}`);
          assert.ok(count.x + count.width <= device.viewport.width, `${where}: the count is on the screen`);
        }
        if (device === PHONE && lang === 'sw') await screenshot(page, `52-lobby-board-hands-sw-360-${seat ? 'north' : 'spectator'}`);
        await context.close();
      }
    }
  }
});
