// A team match in the browser (docs/api.md "Team matches"; templates/team-match.html,
// static/team-match.js, club.js). Two 360x640 phones in Swahili, each a club's leader: both
// start their clubs from /clubs, members join (one by a request its leader accepts on the club
// page), the first proposes a 2-board match from its club page, the second accepts it on the
// match page, both set their lineups there, board 1 is played on the two phones (moves, then
// a resignation) and board 2 by further accounts through the API, and both phones read the
// score and the winner in Swahili. `starts_at` is real time: every wait is for a state the
// page shows (its status, the game link), never for a time.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, assertClean, screenshot } from '../lib/harness.mjs';
import { text, unique, accountByApi, callAs, noSidewaysScroll, playByTouch } from '../lib/phone.mjs';
import { signedIn as signIn, startClub, setLineup } from '../lib/clubs.mjs';

const PASSWORD = 'chama-cha-bao-66';
const sw = (key, params) => text('sw', 'teams', `teams.${key}`, params);

const signedIn = (name, session) => signIn(browser, name, session);

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

test('two phones in Swahili: clubs, a request accepted, a 2-board match proposed, accepted, lined up, played, the score and winner read', async () => {
  const tag = unique('');
  const names = { a: `Kapteni${tag}`, b: `Nahodha${tag}`, a2: `Mwenyeji${tag}`, b2: `Mgeni${tag}` };
  const sessions = {};
  for (const [k, n] of Object.entries(names)) sessions[k] = await accountByApi(n, PASSWORD);
  const one = await signedIn(names.a, sessions.a);
  const two = await signedIn(names.b, sessions.b);
  const a = one.page;
  const b = two.page;
  const homeName = `Chama cha Bao Unguja ${tag}`;
  const awayName = `Bao Pemba ${tag}`;
  const homeUrl = await startClub(a, homeName, `Unguja${tag}`, true);
  const awayUrl = await startClub(b, awayName, `Pemba${tag}`, false);
  const awayId = awayUrl.split('/')[2];

  // Board 2's home player joins the open club at once; the away one asks, and the away
  // leader accepts on the club page, which hears the request live (no reload).
  await callAs(`/api/clubs/${homeUrl.split('/')[2]}/join`, { session: sessions.a2, method: 'POST', body: {} });
  await b.waitForSelector('#requests-empty:not([hidden])');
  const asked = await callAs(`/api/clubs/${awayId}/join`, { session: sessions.b2, method: 'POST', body: {} });
  assert.equal(asked.res.status, 202);
  const request = b.locator(`#request-list li[data-name="${names.b2}"] button[data-act="accept"]`);
  await request.waitFor();
  await request.click();
  await b.waitForSelector(`#member-list li[data-name="${names.b2}"]`);

  // The home leader proposes a 2-board match from the club page, starting shortly (real time).
  await a.waitForSelector('#propose-box:not([hidden])');
  await a.click('#propose-box summary');
  await a.fill('#opp-q', `Pemba${tag}`);
  await a.click('#opp-search');
  const pick = a.locator(`#opp-list li[data-id="${awayId}"] button[data-act="pick"]`);
  await pick.waitFor();
  await pick.click();
  assert.equal(await a.textContent('#opp-picked'), sw('propose_picked', { club: awayName }));
  await a.fill('#p-boards', '2');
  await a.selectOption('#p-variant', 'kiswahili');
  await a.fill('#p-minutes', '10');
  await a.fill('#p-increment', '0');
  // Whole seconds: the form takes no milliseconds.
  const startsAt = Math.ceil((Date.now() + 75_000) / 1000) * 1000;
  await a.evaluate((ms) => {
    const d = new Date(ms);
    const p = (n) => String(n).padStart(2, '0');
    document.querySelector('#p-start').value = `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
  }, startsAt);
  await noSidewaysScroll(a, 'the club page with the proposal form');
  await screenshot(a, '56-propose-sw-360');
  await Promise.all([a.waitForURL(/\/m\/[a-z0-9]{10}$/), a.click('#propose-submit')]);
  const matchUrl = new URL(a.url()).pathname;
  await a.waitForSelector('#match[data-state="ready"][data-status="proposed"]');
  assert.equal((await a.textContent('#m-state')).trim(), sw('status_proposed'));
  assert.ok(await a.locator('#accept-button').isHidden(), 'only the away club answers');

  // The away club's page lists the match; its leader opens it and accepts.
  await b.goto(awayUrl);
  const listed = b.locator(`#club-matches a[href="${matchUrl}"]`);
  await listed.waitFor();
  await Promise.all([b.waitForURL((u) => u.pathname === matchUrl), listed.click()]);
  await b.waitForSelector('#match[data-state="ready"][data-status="proposed"]');
  await b.waitForSelector('#accept-button:not([hidden])');
  await noSidewaysScroll(b, 'the proposed match');
  await screenshot(b, '56-proposed-sw-360');
  await b.click('#accept-button');
  await b.waitForSelector('#match[data-status="accepted"]');
  // The home phone hears it live.
  await a.waitForSelector('#match[data-status="accepted"]');

  // Lineups on the match page: a player named twice is refused in words before anything is sent.
  await a.waitForSelector('#match[data-lineup="home"]');
  await a.selectOption('#lineup-1', names.a2);
  await a.selectOption('#lineup-2', names.a2);
  await a.click('#lineup-submit');
  await a.waitForFunction((s) => document.querySelector('#lineup-status')?.textContent === s, sw('err_lineup_twice'));
  assert.equal(await setLineup(a, [names.a, names.a2]), sw('lineup_saved'));
  await screenshot(a, '56-lineup-sw-360');
  await noSidewaysScroll(a, 'the lineup editor');
  assert.equal(await setLineup(b, [names.b, names.b2]), sw('lineup_saved'));
  // Both lineups on both phones, live.
  for (const p of [a, b]) {
    await p.waitForFunction(
      (n) => [...document.querySelectorAll('#boards > li')].map((li) => li.textContent).join(' ').includes(n),
      names.b2,
    );
  }

  // The start: both phones see the match run and their own game one tap away.
  for (const p of [a, b]) {
    await p.waitForSelector('#match[data-status="running"]', { timeout: 180_000 });
    await p.waitForSelector('#my-game:not([hidden])');
    assert.equal((await p.textContent('#m-state')).trim(), sw('status_running'));
  }
  await screenshot(a, '56-running-sw-360');
  const match = (await callAs(`/api${matchUrl.replace('/m/', '/team-matches/')}`)).data;
  assert.ok(startsAt <= Date.now(), 'started at its time, not before');

  // Board 1 on the phones: the home leader is South on board 1.
  await Promise.all([a.waitForURL(/\/g\//), a.click('#my-game')]);
  await Promise.all([b.waitForURL(/\/g\//), b.click('#my-game')]);
  for (const p of [a, b]) {
    await p.waitForSelector('#event-link:not([hidden])');
    assert.equal(new URL(await p.locator('#event-link').evaluate((e) => e.href)).pathname, matchUrl);
    assert.match(await p.textContent('#event-link'), new RegExp(sw('event_board', { n: 1 })));
  }
  await playByTouch(a, b, 'sw', 'S', 0, '56-team-match');
  await playByTouch(b, a, 'sw', 'N', 1, '56-team-match');
  await a.click('#resign');
  await a.waitForSelector('#result:not([hidden])');

  // Board 2 through the API: its home player resigns too.
  const g2 = match.boards[1].game;
  const st = (await callAs(`/api/games/${g2}`, { session: sessions.a2 })).data;
  await callAs(`/api/games/${g2}/resign`, { session: sessions.a2, method: 'POST', body: { game_no: 1, ply: st.ply } });

  // Back to the match page by the game's link: the score and the winner, in Swahili.
  for (const p of [a, b]) {
    await Promise.all([p.waitForURL((u) => u.pathname === matchUrl), p.click('#event-link')]);
    await p.waitForSelector('#match[data-state="ready"][data-status="finished"]');
    assert.equal((await p.textContent('#m-score')).trim(), sw('score', { home: homeName, away: awayName, hs: '0', as: '2' }));
    assert.equal((await p.textContent('#m-winner')).trim(), sw('winner', { club: awayName }));
    assert.equal((await p.textContent('#m-state')).trim(), sw('status_finished'));
    const results = await p.$$eval('#boards > li .res', (els) => els.map((e) => e.textContent));
    assert.deepEqual(results, [sw('result_won', { name: names.b, club: awayName }), sw('result_won', { name: names.b2, club: awayName })]);
    await p.waitForSelector('#records-link:not([hidden])');
    await noSidewaysScroll(p, 'the finished match');
  }
  await screenshot(a, '56-finished-sw-360');
  assertClean(a);
  assertClean(b);
});
