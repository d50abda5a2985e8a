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

test('two phones in Swahili: a club leader stops the club’s weekly arena on its page; the member sees it no longer comes again', async () => {
  const leader = await player('Kiongozi');
  const member = await player('Mwanachama');
  const club = await callAs('/api/clubs', {
    session: leader.session,
    method: 'POST',
    body: { name: unique('Chama Pemba'), description: 'Tunacheza kila Ijumaa.', place: 'Pemba', open: true },
  });
  assert.equal(club.res.status, 201, JSON.stringify(club.data));
  const joined = await callAs(`/api/clubs/${club.data.id}/join`, { session: member.session, method: 'POST', body: {} });
  assert.equal(joined.data.member, true, JSON.stringify(joined.data));
  const made = await callAs('/api/arenas', {
    session: leader.session,
    method: 'POST',
    body: {
      name: `Uwanja ${unique('Ijumaa')}`, variant: 'kiswahili', clock: { initial_ms: 300000, increment_ms: 3000 },
      minutes: 60, starts_at: Date.now() + 3600000, berserk: false, rated: false, club: club.data.id, repeat: 'weekly',
    },
  });
  assert.equal(made.res.status, 201, JSON.stringify(made.data));
  const weekly = `${text('sw', 'arenas', 'arenas.fact_repeat')}${text('sw', 'calendar', 'calendar.weekly')}`;
  const facts = (p) => p.page.textContent('#a-facts').then((s) => s.replace(/\s+/g, ''));
  for (const p of [leader, member]) {
    await p.page.goto(`/a/${made.data.id}`);
    await p.page.waitForSelector('#arena[data-state="ready"]');
    assert.ok((await facts(p)).includes(weekly.replace(/\s+/g, '')), `${p.name}: ${await facts(p)}`);
  }
  // Only the leader is offered the stop.
  assert.equal(await member.page.isVisible('#stop-series'), false, 'a member cannot stop the series');
  const lp = leader.page;
  assert.equal((await lp.textContent('#stop-series')).trim(), text('sw', 'arenas', 'arenas.series_stop'));
  await noSidewaysScroll(lp, 'arena of a series');
  await lp.click('#stop-series');
  await lp.waitForSelector('#stop-confirm:not([hidden])');
  assert.equal((await lp.textContent('#stop-ask')).trim(), text('sw', 'arenas', 'arenas.series_stop_ask'));
  await screenshot(lp, '57-series-stop-ask');
  // "Keep it" changes nothing; asked again, "Yes" stops it.
  await lp.click('#stop-series-no');
  await lp.waitForSelector('#stop-confirm', { state: 'hidden' });
  await lp.click('#stop-series');
  await lp.click('#stop-series-yes');
  await lp.waitForSelector('#arena[data-series="stopped"]');
  assert.equal((await lp.textContent('#series-status')).trim(), text('sw', 'arenas', 'arenas.series_stopped'));
  await lp.waitForFunction(() => !document.querySelector('#a-facts').textContent.includes('Hurudiwa'));
  assert.equal(await lp.isVisible('#stop-series'), false);
  await screenshot(lp, '57-series-stopped');
  // The member's page: read again, the arena stays and no longer comes again.
  await member.page.reload();
  await member.page.waitForSelector('#arena[data-state="ready"]');
  assert.ok(!(await facts(member)).includes(weekly.replace(/\s+/g, '')), await facts(member));
  const view = await callAs(`/api/arenas/${made.data.id}`, { session: member.session });
  assert.equal(view.data.repeat, null);
  await assertClean(lp);
  await assertClean(member.page);
  await leader.context.close();
  await member.context.close();
});
