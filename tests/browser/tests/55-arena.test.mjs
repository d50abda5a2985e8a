// Arenas in the browser (docs/api.md "Arenas"; templates/arenas.html, arena.html;
// static/arenas.js, arena.js). Two 360x640 phones in Swahili, each a signed-in player: both
// find a running arena in the list and join it, both are paired (the page follows the arena
// on the player socket, no reload), one opens the game from "Your game" and resigns, both see
// the standings move (the winner's points, the points of each game), and both are paired again.
// Berserk is asked for from the arena page before the first move.
// Every wait is for a state.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, assertClean, screenshot, BASE } from '../lib/harness.mjs';
import { phone, text, unique, callAs, accountByApi, noSidewaysScroll } from '../lib/phone.mjs';

const PASSWORD = 'kete-sitini-4';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** A Swahili phone signed in as a new account: {context, page, name, session}. */
async function player(stem) {
  const name = unique(stem);
  const session = await accountByApi(name, PASSWORD);
  const { context, page } = await phone(browser, 'sw');
  await context.addCookies([{ name: 'bao_session', value: session, url: BASE }]);
  await context.addInitScript((n) => localStorage.setItem('bao.account', JSON.stringify({ username: n })), name);
  return { context, page, name, session };
}

/** The game id of "Your game" once it shows one other than `not`. */
async function yourGame(page, not = '') {
  const handle = await page.waitForFunction((n) => {
    const a = document.querySelector('#your-game');
    const g = document.querySelector('#arena')?.dataset.game;
    return a && !a.hidden && g && g !== n ? g : null;
  }, not);
  return handle.jsonValue();
}

test('two phones in Swahili: join an arena from the list, get paired, one resigns, both see the standings move and are paired again', async () => {
  const maker = await accountByApi(unique('Mwenyeji'), PASSWORD);
  const name = `Uwanja ${unique('Jioni')}`;
  const made = await callAs('/api/arenas', {
    session: maker,
    method: 'POST',
    body: { name, variant: 'kete', clock: { initial_ms: 600000, increment_ms: 5000 }, minutes: 60, berserk: true, rated: false },
  });
  const id = made.data.id;
  assert.equal(made.data.url, `/a/${id}`);

  const a = await player('Asha');
  const b = await player('Baraka');
  for (const p of [a, b]) {
    // The header's "Viwanja" leads to the list (on a phone, behind the menu button).
    await p.page.goto('/');
    await p.page.click('#menu-toggle');
    await Promise.all([p.page.waitForURL(/\/arenas$/), p.page.click('.site-nav a[href="/arenas"]')]);
    assert.equal((await p.page.textContent('.site-nav a[href="/arenas"]')).trim(), text('sw', 'arenas', 'arenas.nav'));
    await p.page.waitForSelector('#arenas[data-state="ready"]');
    const card = p.page.locator(`#list-running li[data-id="${id}"]`);
    await card.waitFor();
    await noSidewaysScroll(p.page, '/arenas');
    await Promise.all([p.page.waitForURL(new RegExp(`/a/${id}$`)), card.locator('a.t-name').click()]);
    await p.page.waitForSelector('#arena[data-state="ready"][data-status="running"]');
    await p.page.waitForSelector('#arena[data-socket="open"]');
    assert.equal((await p.page.textContent('#a-title')).trim(), name);
    assert.ok((await p.page.textContent('#a-countdown')).startsWith(text('sw', 'arenas', 'arenas.countdown_end', { time: '' }).trim()));
    await p.page.click('#join-button');
    await p.page.waitForSelector('#arena[data-joined="true"]');
  }
  await screenshot(a.page, '55-arena-joined-sw-360');

  // Both paired: each page hears it on its socket and shows "Your game", the same game.
  const [ga, gb] = await Promise.all([yourGame(a.page), yourGame(b.page)]);
  assert.equal(ga, gb, 'the two players are paired together');
  for (const p of [a, b]) {
    assert.equal((await p.page.textContent('#your-game')).trim(), text('sw', 'arenas', 'arenas.your_game'));
    assert.equal((await p.page.textContent('#you-status')).trim(), text('sw', 'arenas', 'arenas.you_playing'));
    assert.ok((await p.page.textContent(`#standings tr[data-player="${a.name}"]`)).includes(text('sw', 'arenas', 'arenas.playing_mark')));
    await noSidewaysScroll(p.page, '/a/{id} paired');
  }
  // Points are explained in words.
  await a.page.click('#legend summary');
  assert.ok((await a.page.textContent('#legend')).includes(text('sw', 'arenas', 'arenas.rules_fire')));
  await screenshot(a.page, '55-arena-paired-sw-360');

  // Asha goes berserk before her first move: the page says what it means, her clock is halved.
  await a.page.click('#berserk-button');
  await a.page.waitForSelector('#berserk-button[hidden]', { state: 'attached' });
  assert.equal((await a.page.textContent('#you-status')).trim(), text('sw', 'arenas', 'arenas.berserk_done'));
  const halved = await a.page.evaluate(async (g) => (await fetch(`/api/games/${g}`, { credentials: 'same-origin' })).json(), ga);
  assert.ok(halved.clock[halved.you] <= 300000 && halved.clock[halved.you] > 250000, JSON.stringify(halved.clock));

  // Asha opens the game from "Your game": it names its arena and links back. She resigns
  // after a move (Baraka, through the API, plays first when South is his).
  await Promise.all([a.page.waitForURL(new RegExp(`/g/${ga}$`)), a.page.click('#your-game')]);
  await a.page.waitForSelector('#board svg g.pit');
  const event = a.page.locator('#event-link');
  await event.waitFor();
  assert.equal((await event.textContent()).trim(), text('sw', 'arenas', 'arenas.event_name', { name }));
  assert.equal(await event.getAttribute('href'), `/a/${id}`);
  const state = await a.page.evaluate(async (g) => (await fetch(`/api/games/${g}`, { credentials: 'same-origin' })).json(), ga);
  assert.ok(state.you === 'S' || state.you === 'N', JSON.stringify(state.you));
  if (state.side_to_move !== state.you) {
    await callAs(`/api/games/${ga}/moves`, { session: b.session, method: 'POST', body: { move: state.legal[0].move, ply: state.ply } });
  }
  // Baraka's page has its standings from its socket (docs/api.md "Live updates and live
  // standings"): from now on it does not ask the server for the arena again.
  await b.page.waitForSelector('#arena[data-live="true"]');
  const asked = [];
  const count = (r) => {
    if (new URL(r.url()).pathname === `/api/arenas/${id}`) asked.push(r.url());
  };
  b.page.on('request', count);
  await a.page.waitForSelector('#resign:not([hidden])');
  await a.page.click('#resign');
  await a.page.waitForSelector('#result:not([hidden])');

  // Baraka's page, never reloaded, shows the win (2 points, one game) and his next game.
  await b.page.waitForSelector(`#standings tr[data-player="${b.name}"][data-score="2"]`);
  assert.equal((await b.page.textContent(`#standings tr[data-player="${b.name}"] .a-sheet`)).trim(), '2');
  assert.equal((await b.page.textContent('#standings tbody tr:first-child th.t-player a')).trim(), b.name, 'the winner ranks first');
  // Two players alone in the arena meet again: a new game for both.
  const gb2 = await yourGame(b.page, gb);
  b.page.off('request', count);
  assert.deepEqual(asked, [], 'the standings and the next game came on the socket, not by asking');
  await screenshot(b.page, '55-arena-standings-moved-sw-360');

  // Asha goes back through the game's link: the standings show her loss, and her next game.
  await Promise.all([a.page.waitForURL(new RegExp(`/a/${id}$`)), a.page.click('#event-link')]);
  await a.page.waitForSelector(`#standings tr[data-player="${a.name}"][data-score="0"]`);
  assert.equal((await a.page.textContent(`#standings tr[data-player="${a.name}"] .a-sheet`)).trim(), '0');
  // Her berserk game is counted in words on her line (a loss: no extra point).
  assert.ok((await a.page.textContent(`#standings tr[data-player="${a.name}"]`)).includes(text('sw', 'arenas', 'arenas.berserk_mark', { n: 1 })));
  const ga2 = await yourGame(a.page, ga);
  assert.equal(ga2, gb2, 'paired again, together');
  await noSidewaysScroll(a.page, '/a/{id} after a game');

  // Pausing: no new game after this one; the page says so in words.
  await a.page.click('#pause-button');
  await a.page.waitForSelector('#arena[data-paused="true"]');
  await a.page.waitForSelector('#join-button:not([hidden])');
  assert.equal((await a.page.textContent('#join-button')).trim(), text('sw', 'arenas', 'arenas.join_again'));
  await screenshot(a.page, '55-arena-paused-sw-360');
  for (const p of [a, b]) {
    await p.context.close();
    assertClean(p.page);
  }
});
