// Every page in Swahili and English, on a phone (360x640, touch)
// and a desktop (1280x800): nothing scrolls sideways, the language switch works and is
// remembered, pits are big enough to tap, and a whole game against the computer is played in
// Swahili with no English sentence from the catalog on the page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { launch, openPage, assertClean, screenshot, api, clickMove, ROOT, BASE, STATE_TIMEOUT_MS } from '../lib/harness.mjs';

// A short game: South can capture at once; North has 7 seeds (the start of test 01).
const START = 'kiswahili 0,0,1,0,1,0,0,0/1,0,0,1,0,1,2,0/1,7,6,2,4,4,1,2/4,4,2,4,2,3,2,9 S 0/0 - 80';

const PHONE = { viewport: { width: 360, height: 640 }, hasTouch: true, isMobile: true };
const DESKTOP = { viewport: { width: 1280, height: 800 } };

/** The catalog of one language, key → plain text (markup stripped). */
function catalog(lang) {
  const dir = path.join(ROOT, 'crates/bao-server/web/i18n', lang);
  const out = {};
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.json'))) {
    for (const [k, v] of Object.entries(JSON.parse(readFileSync(path.join(dir, f), 'utf8')))) {
      if (!k.startsWith('_')) out[k] = v.replace(/<[^>]*>/g, '').replace(/&quot;/g, '"').replace(/&amp;/g, '&');
    }
  }
  return out;
}

/**
 * English phrases that must not appear on a Swahili page: the literal pieces (between
 * {params}) of every English text that differs from its Swahili one, long enough to be
 * sentences rather than shared words or Bao terms.
 */
function englishPhrases() {
  const en = catalog('en');
  const sw = catalog('sw');
  const out = new Set();
  for (const [k, text] of Object.entries(en)) {
    if (text === sw[k]) continue;
    for (const piece of text.split(/\{[A-Za-z0-9_]+\}/)) {
      const p = piece.trim().replace(/^[.,:;·()!?\s]+|[.,:;·()!?\s]+$/g, '');
      if (p.length >= 12 && /\s/.test(p)) out.add(p);
    }
  }
  return [...out];
}

let browser;
let gameId;
let tournamentId;
before(async () => {
  browser = await launch();
  gameId = (await api('/api/games', { method: 'POST', body: { variant: 'kiswahili', opponent: { kind: 'human' }, side: 'S' } })).id;
  // A tournament open to join (docs/api.md "Tournaments"), made by an account.
  const signup = await fetch(`${BASE}/api/account/signup`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: `lang${Date.now().toString(36).slice(-6)}`, password: 'lugha-mbili-2' }) });
  assert.equal(signup.status, 201, await signup.clone().text());
  const session = /bao_session=([0-9a-f]+)/.exec(signup.headers.get('set-cookie'))[1];
  const made = await fetch(`${BASE}/api/tournaments`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Cookie: `bao_session=${session}` },
    body: JSON.stringify({ name: 'Mashindano ya lugha mbili', variant: 'kete', format: { kind: 'swiss', rounds: 4 }, clock: { initial_ms: 300000, increment_ms: 3000 }, rated: true, starts_at: null, max_players: 32, private: false }),
  });
  assert.equal(made.status, 201, await made.clone().text());
  tournamentId = (await made.json()).id;
});
after(async () => {
  await browser?.close();
});

async function newContext(device, lang) {
  const context = await browser.newContext({ ...device, baseURL: process.env.BAO_URL, locale: lang === 'sw' ? 'sw-TZ' : 'en-GB' });
  context.setDefaultTimeout(STATE_TIMEOUT_MS);
  const page = await context.newPage();
  const problems = { pageErrors: [], consoleErrors: [], external: [] };
  page.on('pageerror', (e) => problems.pageErrors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && problems.consoleErrors.push(m.text()));
  page.problems = problems;
  return { context, page };
}

const PAGES = () => ['/', `/g/${gameId}`, '/replay', '/rules/kiswahili', '/rules/kete', '/rules/kimasai', '/puzzles', '/learn', '/learn/kiswahili/board', '/analysis', '/account/signup', '/account/login', '/account/recover', '/tournaments', '/tournaments/new', `/t/${tournamentId}`];

for (const [name, device] of [['phone 360x640', PHONE], ['desktop 1280x800', DESKTOP]]) {
  for (const lang of ['sw', 'en']) {
    test(`every page fits without sideways scrolling: ${name}, ${lang}`, async () => {
      // The browser's Accept-Language chooses the language (no cookie, no ?lang).
      const { context, page } = await newContext(device, lang);
      for (const url of PAGES()) {
        await page.goto(url);
        await page.waitForLoadState('load');
        if (url.startsWith('/g/')) await page.waitForSelector('#board svg g.pit');
        if (url.startsWith('/analysis')) await page.waitForSelector('#engine[data-depth]');
        if (url.startsWith('/t/')) await page.waitForSelector('#tournament[data-state="ready"]');
        if (url === '/tournaments') await page.waitForSelector('#tournaments[data-state="ready"]');
        assert.equal(await page.getAttribute('html', 'lang'), lang, `${url}: html lang`);
        // Against the device's width, not innerWidth: a phone browser widens its layout
        // viewport (and innerWidth) to content that overflows, so that check could not fail.
        const scroll = await page.evaluate(() => document.scrollingElement.scrollWidth);
        const width = device.viewport.width;
        assert.ok(scroll <= width, `${url} (${name}, ${lang}): the page is ${scroll} px wide on a ${width} px screen`);
      }
      await context.close();
      assertClean(page);
    });
  }
}

/** Clicks the switch to `lang`: below 1441 px it is behind the header's menu button. */
async function switchTo(page, lang) {
  if (await page.locator('#menu-toggle').isVisible()) await page.click('#menu-toggle');
  await page.click(`.lang-switch a[data-lang="${lang}"]`);
}

test('the language switch works on every page and is remembered', async () => {
  const { context, page } = await newContext(DESKTOP, 'en');
  await page.goto('/replay?x=1');
  assert.equal(await page.getAttribute('html', 'lang'), 'en');
  await Promise.all([page.waitForURL(/lang=sw/), switchTo(page, 'sw')]);
  assert.equal(await page.getAttribute('html', 'lang'), 'sw');
  assert.match(page.url(), /x=1/, 'the switch keeps the rest of the address');
  assert.equal(await page.textContent('#replay-title'), catalog('sw')['replay.heading']);
  // Remembered: other pages, without ?lang, stay Swahili although the browser prefers English.
  for (const url of PAGES()) {
    await page.goto(url);
    assert.equal(await page.getAttribute('html', 'lang'), 'sw', url);
  }
  await switchTo(page, 'en');
  await page.waitForFunction(() => document.documentElement.lang === 'en');
  await page.goto('/');
  assert.equal(await page.getAttribute('html', 'lang'), 'en');
  await context.close();
  assertClean(page);
});

test('a whole game against the computer in Swahili on a phone: Swahili text only, pits big enough to tap', async () => {
  const { context, page } = await newContext(PHONE, 'sw');
  await page.goto('/?lang=sw');
  await page.locator('#variants input[value="kiswahili"]').check();
  await page.locator('#level').fill('1');
  await page.selectOption('#side', 'S');
  await page.selectOption('#match', 'single_game');
  await page.locator('#start-box summary').click();
  await page.fill('#start', START);
  await Promise.all([page.waitForURL(/\/g\/[^/?]+$/), page.click('#start-button')]);
  await page.selectOption('#speed', '0');
  const phrases = englishPhrases();
  assert.ok(phrases.length > 50, `${phrases.length} English phrases to look for`);
  const english = () =>
    page.evaluate((list) => {
      const text = `${document.body.innerText}\n${document.querySelector('#board svg')?.textContent ?? ''}`;
      return list.filter((p) => text.includes(p));
    }, phrases);
  let shots = 0;
  for (let i = 0; i < 40; i++) {
    await page.waitForFunction(() => document.querySelector('#board g.pit.legal') || !document.querySelector('#result').hidden);
    if (!(await page.locator('#result').isHidden())) break;
    // Each playable pit is a tap target of at least 44 x 44 px.
    const sizes = await page.$$eval('#board g.pit.legal', (gs) => gs.map((g) => g.getBoundingClientRect()).map((r) => [r.width, r.height]));
    for (const [w, h] of sizes) assert.ok(w >= 44 && h >= 44, `a playable pit is ${w.toFixed(1)} x ${h.toFixed(1)} px`);
    assert.deepEqual(await english(), [], 'English sentences on the Swahili game page');
    assert.match(await page.textContent('#turn-detail'), /Gusa/, 'a touch screen is told to tap');
    if (shots++ === 0) await screenshot(page, '10-lang-sw-phone-turn');
    const { ply } = await clickMove(page);
    await page.waitForFunction((q) => Number(document.querySelector('#board').dataset.ply) > q, ply);
  }
  const id = new URL(page.url()).pathname.split('/')[2];
  const end = await api(`/api/games/${id}`);
  assert.notEqual(end.result, '-', 'the game has ended');
  await page.waitForFunction((pos) => document.querySelector('#board').dataset.position === pos, end.position);
  assert.deepEqual(await english(), [], 'English sentences on the finished Swahili game page');
  // A finished game shows no turn indicator: no dot, no "to move" anywhere.
  assert.equal(await page.locator('#board circle.turn:visible').count(), 0);
  assert.equal(await page.locator('#players .to-move').count(), 0);
  assert.match(await page.textContent('#board text.caption'), /^Mchezo umekwisha/);
  await screenshot(page, '10-lang-sw-phone-end');
  await context.close();
  assertClean(page);
});

test('the direction chooser appears in view without scrolling on a desktop (1280x900) and a phone', async () => {
  for (const device of [{ viewport: { width: 1280, height: 900 } }, { viewport: { width: 1280, height: 800 } }, PHONE]) {
    const { context, page } = await newContext(device, 'en');
    const g = await api('/api/games', { method: 'POST', body: { variant: 'kiswahili', opponent: { kind: 'human' }, side: 'S', match: 'single_game' } });
    await context.addCookies([{ name: `bao_${g.id}`, value: g.token, url: process.env.BAO_URL }]);
    await page.goto(`/g/${g.id}`);
    // At the start A6 can be sown either way: the page asks which.
    await page.click('#board g.pit.legal[data-pit="A6"]');
    await page.waitForSelector('#chooser button[data-letter]');
    const [top, bottom, h] = await page.$eval('#chooser', (e) => {
      const r = e.getBoundingClientRect();
      return [r.top, r.bottom, innerHeight];
    });
    assert.ok(top >= 0 && bottom <= h, `${JSON.stringify(device.viewport)}: the chooser is at ${top}-${bottom} in a ${h} px window`);
    // The page must not even scroll, on a phone either (focusing the first button used to
    // scroll the board's top rows and the clocks away).
    assert.equal(await page.evaluate(() => scrollY), 0, `${JSON.stringify(device.viewport)}: the page scrolled`);
    await context.close();
    assertClean(page);
  }
});
