// The home page's first screen on a 360x640 phone, in Swahili and English (templates/index.html,
// static/home.js, static/lobby.js): a guest sees "Start playing" (the computer in one tap, a
// friend, the lessons) and the open challenges inside the first screen, and the short note
// that quick pairing needs an account after the challenges. One tap on "Play the computer"
// reaches a game against the computer where the guest moves; "Invite a friend" reaches a game
// with its invite link. The game and level chosen last in the form are what the one tap
// starts next time. Signed in, the lobby's "Play now" is in the first screen, "Start playing"
// right under the lobby. With no network the one tap plays the browser engine.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { launch, assertClean, screenshot, clickMove, waitForPly, ROOT, BASE, STATE_TIMEOUT_MS } from '../lib/harness.mjs';

const PHONE = { viewport: { width: 360, height: 640 }, hasTouch: true, isMobile: true };

/** A catalog's text with its markup taken out and its {params} filled in. */
function text(lang, area, key, params = {}) {
  const file = path.join(ROOT, 'crates/bao-server/web/i18n', lang, `${area}.json`);
  const raw = JSON.parse(readFileSync(file, 'utf8'))[key];
  assert.ok(raw, `${lang}/${area}.json has ${key}`);
  return raw.replace(/<[^>]*>/g, '').replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

let browser;
const contexts = [];
before(async () => {
  browser = await launch();
});
after(async () => {
  for (const c of contexts) await c.close().catch(() => {});
  await browser?.close();
});

/** A phone (own cookies and storage) in `lang`; signed in as `account` if given. */
async function phone(lang, account = null) {
  const context = await browser.newContext({ ...PHONE, baseURL: BASE, locale: lang === 'sw' ? 'sw-TZ' : 'en-GB' });
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
  const name = `${stem}${Date.now().toString(36).slice(-5)}${Math.floor(Math.random() * 100)}`;
  const res = await fetch(`${BASE}/api/account/signup`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: name, password: 'nyumba-sita-6' }) });
  assert.equal(res.status, 201, `signup ${name}: ${res.status} ${await res.text()}`);
  return { name, session: /bao_session=([0-9a-f]+)/.exec(res.headers.get('set-cookie'))[1] };
}

/** Each of `selectors` is shown whole inside the first screen of 360x640. */
async function inFirstScreen(page, selectors, where) {
  assert.equal(await page.evaluate(() => window.scrollY), 0, `${where}: the page is at its top`);
  for (const sel of selectors) {
    const box = await page.locator(sel).boundingBox();
    assert.ok(box, `${sel} is shown (${where})`);
    assert.ok(box.y >= 0 && box.y + box.height <= 640 && box.x >= 0 && box.x + box.width <= 360, `${sel} inside the first screen (${where}): ${JSON.stringify(box)}`);
  }
  assert.ok((await page.evaluate(() => document.scrollingElement.scrollWidth)) <= 360, `${where}: no sideways scrolling`);
}

/** The game the page shows, as its API tells it to this browser (with its seat cookie). */
const gameState = (page) => page.evaluate(() => fetch(`/api/games/${location.pathname.split('/')[2]}`, { credentials: 'same-origin' }).then((r) => r.json()));

for (const lang of ['sw', 'en']) {
  test(`a guest's first screen (${lang}, 360x640): one tap plays the computer, a friend, the lessons and the open challenges`, async () => {
    const { page } = await phone(lang);
    await page.goto('/');
    await page.waitForSelector('#seek-list[data-state="ready"]');
    await page.waitForSelector('#quick-guest:not([hidden])');
    const where = `${lang}, guest`;
    await inFirstScreen(page, ['#start-here-title', '#play-computer', '#invite-friend', '#learn-link', '#seeks-title', '#post-seek', '#seek-list li:first-child'], where);
    // In the page's language: the computer's game and level are said on the button.
    assert.equal((await page.textContent('#play-computer .start-label')).trim(), text(lang, 'home', 'home.quick_computer'));
    assert.equal((await page.textContent('#play-computer-what')).trim(), text(lang, 'home', 'home.quick_computer_what', { game: 'Bao la Kiswahili', level: 2 }));
    assert.equal((await page.textContent('#invite-friend .start-label')).trim(), text(lang, 'home', 'home.quick_friend'));
    assert.equal((await page.textContent('#learn-link .start-label')).trim(), text(lang, 'lessons', 'lessons.home_button'));
    // Quick pairing needs an account: said after the challenges, with the way to sign in.
    const [seeks, guest] = await Promise.all([page.locator('#seeks-title').boundingBox(), page.locator('#quick-guest').boundingBox()]);
    assert.ok(guest.y > seeks.y, `the sign-in note comes after the challenges: ${JSON.stringify({ seeks, guest })}`);
    assert.equal((await page.textContent('#quick-guest a')).trim(), text(lang, 'lobby', 'lobby.sign_in_to_play'));
    // Every button of the first screen is big enough to tap.
    for (const sel of ['#play-computer', '#invite-friend', '#learn-link', '#post-seek']) {
      const box = await page.locator(sel).boundingBox();
      assert.ok(box.height >= 44 && box.width >= 44, `${sel}: ${JSON.stringify(box)}`);
    }
    await screenshot(page, `53-home-guest-${lang}-360`);

    // One tap: a Kiswahili game against the computer at an easy level, the guest moves first.
    await Promise.all([page.waitForURL(/\/g\/[^/?]+$/), page.tap('#play-computer')]);
    const s = await gameState(page);
    assert.equal(s.variant, 'kiswahili');
    assert.equal(s.you, 'S', 'the guest has South, the side that moves first');
    assert.equal(s.players.N.kind, 'computer');
    assert.equal(s.players.N.level, 2);
    assert.equal(s.clock ?? null, null, 'no clock');
    await page.waitForSelector('#board g.pit.legal');
    const { ply } = await clickMove(page);
    await waitForPly(page, ply + 1);
    await screenshot(page, `53-home-computer-game-${lang}-360`);
    assertClean(page);
  });

  test(`a guest invites a friend in one tap (${lang}, 360x640): the game waits with its invite link`, async () => {
    const { page } = await phone(lang);
    await page.goto('/');
    await page.waitForSelector('#variants input[value="kiswahili"]');
    await Promise.all([page.waitForURL(/\/g\/[^/?]+$/), page.tap('#invite-friend')]);
    const id = new URL(page.url()).pathname.split('/')[2];
    await page.waitForSelector('#invite:not([hidden])');
    assert.match(await page.inputValue('#invite-link'), new RegExp(`/g/${id}\\?invite=.+`));
    const s = await gameState(page);
    assert.ok(s.you === 'S' || s.you === 'N', 'the guest holds a seat');
    assert.equal(s.players[s.you === 'S' ? 'N' : 'S']?.kind ?? 'human', 'human', 'the other seat is for a person');
    assertClean(page);
  });
}

test('"Play the computer" starts the game and level chosen last in the form', async () => {
  const { page } = await phone('en');
  await page.goto('/');
  await page.locator('#variants input[value="kete"]').check({ force: true });
  await page.locator('input[name="opponent"][value="computer"]').check({ force: true });
  await page.locator('#level').fill('4');
  await page.selectOption('#side', 'S');
  await Promise.all([page.waitForURL(/\/g\/[^/?]+$/), page.click('#start-button')]);
  await page.goto('/');
  await page.waitForFunction((want) => document.querySelector('#play-computer-what')?.textContent === want, text('en', 'home', 'home.quick_computer_what', { game: 'Bao la Kete', level: 4 }));
  // The form offers the same game again.
  await page.waitForSelector('#variants input[value="kete"]:checked');
  await Promise.all([page.waitForURL(/\/g\/[^/?]+$/), page.tap('#play-computer')]);
  const s = await gameState(page);
  assert.equal(s.variant, 'kete');
  assert.equal(s.players.N.kind, 'computer');
  assert.equal(s.players.N.level, 4);
  assertClean(page);
});

test('signed in (sw and en, 360x640): the lobby first, "Start playing" right under it', async () => {
  const account = await signUp('Neema');
  for (const lang of ['sw', 'en']) {
    const { page } = await phone(lang, account);
    await page.goto('/');
    await page.waitForSelector('#quick-buttons:not([hidden]) button[data-clock="1d"]');
    await page.waitForSelector('#seek-list[data-state="ready"]');
    const where = `${lang}, signed in`;
    await inFirstScreen(page, ['#play-now-title', '#lobby-variants', '#quick-buttons button[data-clock="5+3"]', '#quick-buttons button[data-clock="1d"]', '#seeks-title', '#post-seek'], where);
    assert.equal(await page.locator('#quick-guest').isHidden(), true, 'no sign-in note');
    // Play now, then the challenges, then Start playing; the lists of games below.
    const box = async (sel) => (await page.locator(sel).boundingBox()) || { y: Infinity, height: 0 };
    const [playNow, seeks, start, form] = await Promise.all(['#play-now-title', '.lobby .seeks', '#start-here', '#new-game'].map(box));
    assert.ok(playNow.y < seeks.y, `Play now before the challenges (${where})`);
    assert.ok(start.y >= seeks.y + seeks.height && start.y - (seeks.y + seeks.height) < 30, `Start playing right under the lobby (${where}): ${JSON.stringify({ seeks, start })}`);
    assert.ok(form.y > start.y, `the full form below (${where})`);
    // One column: each panel as wide as the others.
    const widths = await Promise.all(['.lobby .play-now', '.lobby .seeks', '#start-here'].map(async (sel) => Math.round((await box(sel)).width)));
    assert.ok(Math.max(...widths) - Math.min(...widths) <= 1, `the panels are as wide as each other (${where}): ${widths}`);
    await screenshot(page, `53-home-signed-in-${lang}-360`);
    // Still one tap away: the computer.
    await page.locator('#play-computer').scrollIntoViewIfNeeded();
    await Promise.all([page.waitForURL(/\/g\/[^/?]+$/), page.tap('#play-computer')]);
    const s = await gameState(page);
    assert.equal(s.players.N.kind, 'computer');
    await page.waitForSelector('#board g.pit.legal');
    assertClean(page);
  }
});

test('offline (service worker, sw, 360x640): one tap on "Play the computer" starts a game against the browser engine', async () => {
  const { context, page } = await phone('sw');
  await page.goto('/');
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.waitForFunction(() => !!navigator.serviceWorker.controller);
  await context.setOffline(true);
  await page.reload();
  await page.waitForSelector('#offline-note:not([hidden])');
  await inFirstScreen(page, ['#play-computer', '#learn-link'], 'sw, offline');
  await Promise.all([page.waitForURL(/\/g\/local-[a-z0-9]+$/), page.tap('#play-computer')]);
  // The guest moves first; the browser engine answers.
  await page.waitForSelector('#board g.pit.legal');
  const pit = await page.getAttribute('#board g.pit.legal', 'data-pit');
  await page.click(`#board g.pit.legal[data-pit="${pit}"]`);
  for (const sel of ['#chooser button[data-letter]', '#chooser button[data-choice="stop"]', '#chooser button[data-confirm]']) {
    const b = page.locator(sel).first();
    if (await b.count()) await b.click();
  }
  await page.waitForFunction(() => Number(document.querySelector('#board').dataset.ply) >= 2 && !document.querySelector('#board').classList.contains('animating'));
  await page.waitForSelector('#board g.pit.legal');
  assertClean(page, { allowConsole: [/ERR_INTERNET_DISCONNECTED/, /Failed to load resource/, /WebSocket/] });
});
