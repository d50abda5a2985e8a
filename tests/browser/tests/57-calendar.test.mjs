// The calendar in the browser (docs/api.md "Calendar"; templates/calendar.html,
// static/calendar.js). Two 360x640 phones in Swahili, each a signed-in player: an arena is made
// (through the API) to start a little later; both find it on the calendar through the menu, in
// their own time and language, and join it ahead; it starts (the arena page hears it on its
// socket), they are paired, one plays a move and resigns, both see the standings move, and
// both are paired again. Every wait is for a state.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, assertClean, screenshot, BASE } from '../lib/harness.mjs';
import { phone, text, unique, callAs, accountByApi, noSidewaysScroll } from '../lib/phone.mjs';

const PASSWORD = 'kete-sitini-4';
/** How far ahead the arena starts: time for both phones to join from the calendar first. */
const AHEAD_MS = 45000;
/** The wait for the start: the time ahead and a busy machine's slack (a ceiling, not a wait). */
const START_TIMEOUT_MS = AHEAD_MS + 60000;

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

/** The game id of "Your game" on the arena page once it shows one other than `not`. */
async function yourGame(page, not = '') {
  const handle = await page.waitForFunction(
    (n) => {
      const a = document.querySelector('#your-game');
      const g = document.querySelector('#arena')?.dataset.game;
      return a && !a.hidden && g && g !== n ? g : null;
    },
    not,
    { timeout: START_TIMEOUT_MS },
  );
  return handle.jsonValue();
}

test('two phones in Swahili: join an arena ahead from the calendar, it starts, they are paired, play, see the standings move and are paired again', async () => {
  const maker = await accountByApi(unique('Mratibu'), PASSWORD);
  const name = `Uwanja ${unique('Ratiba')}`;
  const startsAt = Date.now() + AHEAD_MS;
  const made = await callAs('/api/arenas', {
    session: maker,
    method: 'POST',
    body: { name, variant: 'kete', clock: { initial_ms: 600000, increment_ms: 5000 }, minutes: 30, starts_at: startsAt, berserk: false, rated: false },
  });
  const id = made.data.id;
  assert.ok(id, JSON.stringify(made));

  const a = await player('Asha');
  const b = await player('Baraka');
  for (const p of [a, b]) {
    // The header's "Ratiba" leads to the calendar (on a phone, behind the menu button).
    await p.page.goto('/');
    await p.page.click('#menu-toggle');
    await Promise.all([p.page.waitForURL(/\/calendar$/), p.page.click('.site-nav a[href="/calendar"]')]);
    assert.equal((await p.page.textContent('.site-nav a[href="/calendar"]')).trim(), text('sw', 'calendar', 'calendar.nav'));
    await p.page.waitForSelector('#calendar[data-state="ready"]');
    const card = p.page.locator(`li.c-event[data-id="${id}"]`);
    await card.waitFor();
    // The start in the phone's own time and language, the game, clock, length and players.
    const when = await p.page.evaluate(
      (ms) => new Intl.DateTimeFormat('sw-TZ', { weekday: 'long', day: 'numeric', month: 'long', hour: '2-digit', minute: '2-digit' }).format(new Date(ms)),
      startsAt,
    );
    const shown = await card.textContent();
    // Before the start, or (a slow machine) already running: either way it says when in words.
    assert.ok(
      shown.includes(text('sw', 'calendar', 'calendar.starts', { time: when })) || shown.includes(text('sw', 'calendar', 'calendar.now')),
      shown,
    );
    assert.ok(shown.includes('Bao la Kete'), shown);
    assert.ok(shown.includes(text('sw', 'calendar', 'calendar.length', { n: 30 })), shown);
    assert.ok(shown.includes(text('sw', 'arenas', 'arenas.clock_live', { min: 10, sec: 5 })), shown);
    await noSidewaysScroll(p.page, '/calendar');
    // Join ahead: the card says so, and its link opens the arena.
    await card.locator('button.c-join').click();
    await p.page.waitForSelector(`li.c-event[data-id="${id}"][data-joined="true"] .c-in`);
    assert.equal((await card.locator('.c-in').textContent()).trim(), text('sw', 'calendar', 'calendar.joined'));
  }
  // The second phone's calendar, read again, counts both.
  await b.page.reload();
  await b.page.waitForSelector('#calendar[data-state="ready"]');
  assert.ok((await b.page.textContent(`li.c-event[data-id="${id}"]`)).includes(text('sw', 'calendar', 'calendar.players', { n: 2 })));
  await screenshot(a.page, '57-calendar-joined-sw-360');

  for (const p of [a, b]) {
    await Promise.all([p.page.waitForURL(new RegExp(`/a/${id}$`)), p.page.click(`li.c-event[data-id="${id}"] .c-act a`)]);
    await p.page.waitForSelector('#arena[data-state="ready"][data-joined="true"]');
  }
  // The start: the pages hear it on their sockets (no reload) and show the game made.
  for (const p of [a, b]) {
    await p.page.waitForSelector('#arena[data-status="running"]', { timeout: START_TIMEOUT_MS });
  }
  const [ga, gb] = await Promise.all([yourGame(a.page), yourGame(b.page)]);
  assert.equal(ga, gb, 'the two players are paired together');
  await screenshot(a.page, '57-calendar-paired-sw-360');

  // Asha opens her game, plays when it is her move (Baraka through the API first when South
  // is his), then resigns.
  await Promise.all([a.page.waitForURL(new RegExp(`/g/${ga}$`)), a.page.click('#your-game')]);
  await a.page.waitForSelector('#board svg g.pit');
  const state = await a.page.evaluate(async (g) => (await fetch(`/api/games/${g}`, { credentials: 'same-origin' })).json(), ga);
  if (state.side_to_move !== state.you) {
    await callAs(`/api/games/${ga}/moves`, { session: b.session, method: 'POST', body: { move: state.legal[0].move, ply: state.ply } });
  }
  await a.page.waitForSelector('#resign:not([hidden])');
  await a.page.click('#resign');
  await a.page.waitForSelector('#result:not([hidden])');

  // Baraka's page, never reloaded, shows the win; both are paired again.
  await b.page.waitForSelector(`#standings tr[data-player="${b.name}"][data-score="2"]`);
  const gb2 = await yourGame(b.page, gb);
  await Promise.all([a.page.waitForURL(new RegExp(`/a/${id}$`)), a.page.click('#event-link')]);
  await a.page.waitForSelector(`#standings tr[data-player="${a.name}"][data-score="0"]`);
  const ga2 = await yourGame(a.page, ga);
  assert.equal(ga2, gb2, 'paired again, together');
  await noSidewaysScroll(a.page, '/a/{id} after a game');
  await screenshot(b.page, '57-calendar-standings-sw-360');
  for (const p of [a, b]) {
    await p.context.close();
    assertClean(p.page);
  }
});
