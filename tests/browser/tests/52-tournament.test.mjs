// Tournaments in the browser (docs/api.md "Tournaments"; templates/tournaments.html,
// tournament-new.html, tournament.html; static/tournaments.js, tournament.js). On a 360 px
// phone in Swahili a player signs up, finds a round robin made by another account (through the
// API) in the list, joins it, sees it start and the pairing, opens the game from "Your game",
// plays a move (the game names its tournament and round) and resigns, goes back to the
// tournament from the game, and sees the crosstable and standings change (the page follows the
// tournament by itself). The create form refuses bad input in words and
// makes a tournament. Every wait is for a state.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, assertClean, screenshot, clickMove, BASE } from '../lib/harness.mjs';
import { phone, text, unique, callAs, accountByApi, noSidewaysScroll } from '../lib/phone.mjs';

const PASSWORD = 'kete-sitini-4';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

test('a phone in Swahili: sign up, join a round robin, it starts, play the game from "Your game", the standings change', async () => {
  const organiser = unique('Mwenyeji');
  const session = await accountByApi(organiser, PASSWORD);
  const name = `Kombe ${unique('Pwani')}`;
  const made = await callAs('/api/tournaments', {
    session,
    method: 'POST',
    body: { name, variant: 'kiswahili', format: { kind: 'round_robin', double: false }, clock: { initial_ms: 600000, increment_ms: 5000 }, rated: false, starts_at: null, max_players: 8, private: false },
  });
  const id = made.data.id;
  assert.equal(made.data.url, `/t/${id}`);
  await callAs(`/api/tournaments/${id}/join`, { session, method: 'POST', body: {} });

  const { context, page } = await phone(browser, 'sw');
  const me = unique('Mchezaji');
  await page.goto('/account/signup');
  await page.fill('#username', me);
  await page.fill('#password', PASSWORD);
  await page.click('#submit');
  await page.waitForSelector('#code-box:not([hidden])');
  await page.waitForSelector('#account-name');

  // The header's "Mashindano" leads to the list, where the tournament waits for players.
  // On a phone the links are behind the header's menu button.
  await page.click('#menu-toggle');
  await Promise.all([page.waitForURL(/\/tournaments$/), page.click(`.site-nav a[href="/tournaments"]`)]);
  assert.equal((await page.textContent('.site-nav a[href="/tournaments"]')).trim(), text('sw', 'tournaments', 'tournaments.nav'));
  await page.waitForSelector('#tournaments[data-state="ready"]');
  await page.waitForSelector('#create-link:not([hidden])');
  const card = page.locator(`#list-upcoming li[data-id="${id}"]`);
  await card.waitFor();
  assert.match(await card.textContent(), /wachezaji 1 kati ya 8/);
  await noSidewaysScroll(page, '/tournaments');
  await screenshot(page, '52-tournament-list-sw-360');
  await Promise.all([page.waitForURL(new RegExp(`/t/${id}$`)), card.locator('a.t-name').click()]);

  // Open: the header in words, Join for this player (not the organiser's buttons).
  await page.waitForSelector('#tournament[data-state="ready"][data-status="open"]');
  assert.equal((await page.textContent('#t-name')).trim(), name);
  assert.equal((await page.textContent('#t-status')).trim(), text('sw', 'tournaments', 'tournaments.status_open'));
  assert.ok(await page.locator('#start-button').isHidden(), 'only the organiser starts it');
  await page.click('#join-button');
  await page.waitForSelector(`#t-players li[data-player="${me}"]`);
  await page.waitForSelector('#withdraw-button:not([hidden])');
  assert.ok(await page.locator('#join-form').isHidden(), 'joined: no Join any more');
  await screenshot(page, '52-tournament-joined-sw-360');

  // The player waits on the home page. The organiser starts it: the game is announced at the
  // top of the home page (the player socket's `game`) with Play, and listed in "My games".
  await page.goto('/');
  await page.waitForSelector('#lobby[data-socket="open"]');
  await callAs(`/api/tournaments/${id}/start`, { session, method: 'POST', body: {} });
  const ready = page.locator('#ready:not([hidden]) #ready-list li[data-game]');
  await ready.waitFor();
  assert.ok((await ready.textContent()).includes(text('sw', 'lobby', 'lobby.ready_against', { name: organiser })), await ready.textContent());
  const readyGame = await ready.getAttribute('data-game');
  assert.equal(await ready.locator('a.button').getAttribute('href'), `/g/${readyGame}`);
  await page.waitForSelector(`#my-games li[data-game="${readyGame}"]`);
  await screenshot(page, '52-tournament-ready-home-sw-360');

  // The tournament page: running, round 1, "Your game" (that game).
  await page.goto(`/t/${id}`);
  await page.waitForSelector('#tournament[data-status="running"]');
  await page.waitForSelector('#your-game:not([hidden])');
  assert.equal((await page.textContent('#your-game')).trim(), text('sw', 'tournaments', 'tournaments.your_game', { round: 1, opponent: organiser }));
  const pairing = page.locator('#rounds [data-round="1"] li[data-game]');
  assert.equal(await pairing.count(), 1, 'two players: one game in round 1');
  const gameId = await pairing.getAttribute('data-game');
  assert.equal(gameId, readyGame, 'the game announced on the home page');
  assert.match(await pairing.textContent(), new RegExp(`${organiser}.*${me}|${me}.*${organiser}`));
  assert.equal(await page.getAttribute('#your-game', 'href'), `/g/${gameId}`);
  // The crosstable: both players, no result yet (• the game being played).
  await page.waitForSelector('#crosstable');
  assert.equal((await page.textContent(`#crosstable tr[data-player="${me}"] td.pts`)).trim(), '0');
  assert.equal(await page.locator(`#crosstable tr[data-player="${me}"] a[href="/g/${gameId}"]`).textContent(), '•');
  await noSidewaysScroll(page, '/t/{id} running');
  await screenshot(page, '52-tournament-running-sw-360');

  // The game: the session holds this player's seat. South moves first; the organiser plays
  // South's first move through the API when South is not this player.
  await Promise.all([page.waitForURL(new RegExp(`/g/${gameId}$`)), page.click('#your-game')]);
  await page.waitForSelector('#board svg g.pit');
  // The game names its tournament and round, and links back to it.
  const event = page.locator('#event-link');
  await event.waitFor();
  const named = (await event.textContent()).replace(/\u00a0/g, ' ').trim();
  assert.equal(named, `${text('sw', 'game', 'game.event_tournament_name', { name })} · ${text('sw', 'game', 'game.event_round', { round: 1 })}`);
  // On the phone the round stays in view however long the name is.
  const [link, round] = await Promise.all([event.boundingBox(), event.locator('.event-round').boundingBox()]);
  assert.ok(round.x + round.width <= Math.min(link.x + link.width, 360) + 0.5, `the round is in view: ${JSON.stringify({ link, round })}`);
  assert.equal(await event.getAttribute('href'), `/t/${id}`);
  await screenshot(page, '52-tournament-game-sw-360');
  const state = await page.evaluate(async (g) => (await fetch(`/api/games/${g}`, { credentials: 'same-origin' })).json(), gameId);
  assert.ok(state.you === 'S' || state.you === 'N', `the session holds a seat: ${JSON.stringify(state.you)}`);
  if (state.side_to_move !== state.you) {
    await callAs(`/api/games/${gameId}/moves`, { session, method: 'POST', body: { move: state.legal[0].move, ply: state.ply } });
  }
  await page.waitForSelector('#board g.pit.legal');
  const played = await clickMove(page);
  await page.waitForFunction((p) => Number(document.querySelector('#board').dataset.ply) > p, played.ply);
  await page.waitForSelector('#resign:not([hidden])');
  await page.click('#resign');
  await page.waitForSelector('#result:not([hidden])');

  // Back on the tournament page through the game's link: the result is in, the organiser
  // won, the tournament is over.
  await Promise.all([page.waitForURL(new RegExp(`/t/${id}$`)), page.click('#event-link')]);
  await page.waitForSelector('#tournament[data-state="ready"][data-status="finished"]');
  assert.equal((await page.textContent(`#crosstable tr[data-player="${organiser}"] td.pts`)).trim(), '1');
  assert.equal((await page.textContent(`#crosstable tr[data-player="${me}"] td.pts`)).trim(), '0');
  assert.equal(await page.locator(`#crosstable tr[data-player="${me}"] a[href="/g/${gameId}"]`).textContent(), '0');
  assert.equal(await page.locator(`#crosstable tr[data-player="${organiser}"] a[href="/g/${gameId}"]`).textContent(), '1');
  assert.equal((await page.textContent('#crosstable tbody tr:first-child th.t-player a')).trim(), organiser, 'the winner ranks first');
  assert.ok(await page.locator('#your-game').isHidden(), 'no game left to play');
  assert.equal((await page.textContent('#t-live')).trim(), text('sw', 'tournaments', 'tournaments.finished_winner', { name: organiser }));
  // The tie-breaks are named and explained in words; the exports are linked.
  await page.click('#legend summary');
  assert.ok((await page.textContent('#legend-list')).includes(text('sw', 'tournaments', 'tournaments.tb_sb_explain')));
  const csv = await (await fetch(`${BASE}${await page.getAttribute('#csv-link', 'href')}`)).text();
  assert.ok(csv.includes(organiser) && csv.includes(me), csv);
  const games = await fetch(`${BASE}${await page.getAttribute('#games-link', 'href')}`);
  assert.equal(games.status, 200);
  await noSidewaysScroll(page, '/t/{id} finished');
  await screenshot(page, '52-tournament-finished-sw-360');
  await context.close();
  assertClean(page);
});

test('the create form: signed out it says to log in; bad input is refused in words; a private Swiss made, joined with its code, a player removed, started, paused and resumed from the page', async () => {
  const { context, page } = await phone(browser, 'sw');
  await page.goto('/tournaments/new');
  await page.waitForSelector('#new-signin:not([hidden])');
  assert.ok(await page.locator('#new-form').isHidden());

  const organiser = unique('Mwandaaji');
  const session = await accountByApi(organiser, PASSWORD);
  await context.addCookies([{ name: 'bao_session', value: session, url: BASE }]);
  // As after a login on this browser: the name remembered (static/account.js), then confirmed.
  await page.evaluate((n) => localStorage.setItem('bao.account', JSON.stringify({ username: n })), organiser);
  await page.reload();
  await page.waitForSelector('#new-form:not([hidden])');
  await page.click('input[name="format"][value="swiss"]');
  await page.waitForSelector('#swiss-box:not([hidden])');
  await page.fill('#t-rounds', '40');
  await page.fill('#t-max', '1');
  await page.click('input[name="start"][value="at"]');
  await page.click('#create-submit');
  await page.waitForSelector('#new-status[data-kind="error"]:not([hidden])');
  assert.equal((await page.textContent('#t-name-err')).trim(), text('sw', 'tournaments', 'tournaments.err_name'));
  assert.equal((await page.textContent('#t-rounds-err')).trim(), text('sw', 'tournaments', 'tournaments.err_rounds'));
  assert.equal((await page.textContent('#t-max-err')).trim(), text('sw', 'tournaments', 'tournaments.err_max'));
  assert.equal((await page.textContent('#t-starts-err')).trim(), text('sw', 'tournaments', 'tournaments.err_start_missing'));
  assert.equal(await page.getAttribute('#t-name', 'aria-invalid'), 'true');
  await noSidewaysScroll(page, '/tournaments/new with errors');
  await screenshot(page, '52-tournament-new-errors-sw-360');

  const name = `Jumamosi ${unique('S')}`;
  await page.fill('#t-name', name);
  await page.fill('#t-rounds', '3');
  await page.fill('#t-max', '12');
  await page.click('input[name="start"][value="manual"]');
  // The forfeit time is asked for live clocks only; the organiser sets the bye to half a point.
  assert.equal(await page.isVisible('#t-forfeit'), true, 'a live clock (the default) asks for the forfeit time');
  await page.selectOption('#t-clock', 'd2');
  await page.waitForSelector('#forfeit-box', { state: 'hidden' });
  await page.selectOption('#t-bye', '0.5');
  await page.check('#t-private');
  await Promise.all([page.waitForURL(/\/t\/[a-z0-9]+\?code=/), page.click('#create-submit')]);
  await page.waitForSelector('#tournament[data-state="ready"][data-status="open"]');
  assert.equal((await page.textContent('#t-name')).trim(), name);
  const code = new URL(page.url()).searchParams.get('code');
  assert.ok((await page.textContent('#t-share code')).trim() === code, 'the organiser sees the code to pass on');
  await page.waitForSelector('#start-button:not([hidden])');
  const facts = await page.textContent('#t-facts');
  assert.ok(facts.includes(text('sw', 'tournaments', 'tournaments.format_swiss_rounds', { n: 3 })), facts);
  assert.ok(facts.includes(text('sw', 'tournaments', 'tournaments.clock_days', { n: 2 })), facts);
  assert.ok(facts.includes(text('sw', 'tournaments', 'tournaments.bye_points_half')), facts);
  // Starting with fewer than two players is refused in words.
  await page.click('#start-button');
  await page.waitForSelector('#action-status[data-kind="error"]:not([hidden])');
  assert.equal((await page.textContent('#action-status')).trim(), text('sw', 'tournaments', 'tournaments.err_start_two'));
  // Private: not in the list.
  const listed = (await callAs('/api/tournaments?status=upcoming&limit=100')).data.tournaments.map((x) => x.name);
  assert.ok(!listed.includes(name), 'a private tournament is not listed');

  // The organiser joins with the code the link filled in; two players join by the API (the
  // code is needed) and the page shows them without a reload; the organiser removes one.
  const id = new URL(page.url()).pathname.split('/')[2];
  assert.equal(await page.inputValue('#join-code'), code);
  await page.click('#join-button');
  await page.waitForSelector(`#t-players li[data-player="${organiser}"]`);
  const [asha, juma] = [unique('Asha'), unique('Juma')];
  const sessions = {};
  for (const n of [asha, juma]) {
    sessions[n] = await accountByApi(n, PASSWORD);
    await assert.rejects(callAs(`/api/tournaments/${id}/join`, { session: sessions[n], method: 'POST', body: {} }), /403.*needs_code/);
    await callAs(`/api/tournaments/${id}/join`, { session: sessions[n], method: 'POST', body: { code } });
  }
  await page.waitForSelector(`#t-players li[data-player="${asha}"]`);
  await page.waitForSelector(`#t-players li[data-player="${juma}"]`);
  await page.click(`#t-players li[data-player="${juma}"] button`);
  await page.waitForSelector(`#t-players li[data-player="${juma}"]`, { state: 'detached' });

  // Start, pause and resume from the page: a Swiss with its rounds and standings.
  await page.click('#start-button');
  await page.waitForSelector('#tournament[data-status="running"]');
  await page.waitForSelector('#standings');
  await page.waitForSelector('#rounds [data-round="1"] li[data-game]');
  assert.equal((await page.textContent('#t-round')).trim(), text('sw', 'tournaments', 'tournaments.round_of', { n: 1, total: 3 }));
  await page.click('#pause-button');
  await page.waitForSelector('#tournament[data-status="paused"]');
  assert.equal((await page.textContent('#t-live')).trim(), text('sw', 'tournaments', 'tournaments.paused_note'));
  await page.click('#resume-button');
  await page.waitForSelector('#tournament[data-status="running"]');
  await noSidewaysScroll(page, 'a Swiss being played');
  await screenshot(page, '52-tournament-swiss-sw-360');
  await context.close();
  assertClean(page);
});
