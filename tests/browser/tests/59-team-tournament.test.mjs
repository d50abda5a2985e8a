// A team tournament from start to end in the browser (docs/api.md "Team tournaments";
// templates/tournament-new.html, tournament.html, team-match.html). Two 360x640 phones in
// Swahili, each a club's leader: each starts a club from /clubs (a member each joins through
// the API), the first makes a team round robin of 2 boards in the form, each enters their club
// on the tournament page ("Enter my club"), the organiser starts it, each leader names their
// side on the match page, board 1 is played on the phones (moves, then a resignation) and board
// 2 ended through the API, and both phones read in Swahili the match's score and winner, the
// tournament's result, its standings (match points, board points) and its winner. The match
// starts 10 minutes after the pairing (real time: the server has no test clock), so its wait
// is for the state, with a ceiling above that window.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, assertClean, screenshot } from '../lib/harness.mjs';
import { text, unique, accountByApi, callAs, noSidewaysScroll, playByTouch } from '../lib/phone.mjs';
import { signedIn as signIn, startClub as startClubAt, setLineup } from '../lib/clubs.mjs';

const PASSWORD = 'kombe-la-vilabu-2026';
const tw = (key, params) => text('sw', 'tournaments', `tournaments.${key}`, params);
const mw = (key, params) => text('sw', 'teams', `teams.${key}`, params);
/** The lineup window (src/features/tournaments/run.rs LINEUP_WINDOW_MS) and room for a busy machine. */
const MATCH_START_CEILING_MS = 14 * 60_000;

const signedIn = (name, session) => signIn(browser, name, session);
/** The leader on `page` starts an open club from /clubs: its id. */
const startClub = async (page, name, place) => (await startClubAt(page, name, place)).split('/')[2];

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

test('two phones in Swahili: a team tournament of two clubs made, entered, started, lined up, played, the score, standings and winner read', async () => {
  const tag = unique('');
  const names = { a: `Mratibu${tag}`, b: `Kiranja${tag}`, a2: `Mwenzi${tag}`, b2: `Rafiki${tag}` };
  const sessions = {};
  for (const [k, n] of Object.entries(names)) sessions[k] = await accountByApi(n, PASSWORD);
  const one = await signedIn(names.a, sessions.a);
  const two = await signedIn(names.b, sessions.b);
  const a = one.page;
  const b = two.page;
  const homeName = `Chama cha Mji ${tag}`;
  const awayName = `Bao Kusini ${tag}`;
  const homeId = await startClub(a, homeName, `Mji${tag}`);
  const awayId = await startClub(b, awayName, `Kusini${tag}`);
  // Board 2's players join the open clubs (the clubs' own test does this on the phones).
  await callAs(`/api/clubs/${homeId}/join`, { session: sessions.a2, method: 'POST', body: {} });
  await callAs(`/api/clubs/${awayId}/join`, { session: sessions.b2, method: 'POST', body: {} });

  // The first leader makes a team round robin on 2 boards in the form, started by hand.
  await a.goto('/tournaments/new');
  await a.waitForSelector('#new-form:not([hidden])');
  await a.fill('#t-name', `Kombe la Vilabu ${tag}`);
  await a.selectOption('#t-variant', 'kete');
  await a.check('input[name="format"][value="round_robin"]');
  await a.check('#t-teams');
  await a.waitForSelector('#teams-box:not([hidden])');
  // A team tournament is between clubs: never for one club's members.
  await a.waitForSelector('#tournament-new[data-clubs="1"]');
  assert.ok(await a.locator('#club-box').isHidden(), 'no club choice for a team tournament');
  await a.fill('#t-boards', '2');
  await a.selectOption('#t-clock', '600000+5000');
  await noSidewaysScroll(a, 'the team tournament form');
  await screenshot(a, '59-form-sw-360');
  await Promise.all([a.waitForURL(/\/t\/[a-z0-9]+$/), a.click('#create-submit')]);
  const tourUrl = new URL(a.url()).pathname;
  const tourId = tourUrl.split('/')[2];

  // Each leader enters their club on the tournament page.
  await b.goto(tourUrl);
  for (const [p, club] of [
    [a, homeName],
    [b, awayName],
  ]) {
    await p.waitForSelector('#club-form:not([hidden])');
    assert.equal((await p.textContent('#club-enter')).trim(), tw('team_enter'));
    assert.equal(await p.locator('#club-pick option:checked').textContent(), club);
    await p.click('#club-enter');
    await p.waitForSelector('#club-withdraw:not([hidden])');
  }
  // Entered in this order: the first club is the pairing's home side.
  for (const p of [a, b]) {
    await p.waitForFunction(() => document.querySelectorAll('#t-players li').length === 2);
  }
  await noSidewaysScroll(b, 'the team tournament with two clubs entered');
  await screenshot(b, '59-entered-sw-360');

  // The organiser starts it: round 1 is paired as a team match, shown on both phones.
  await a.waitForSelector('#start-button:not([hidden])');
  await a.click('#start-button');
  for (const p of [a, b]) await p.waitForSelector('#rounds li[data-match] .res a');
  const matchUrl = await a.locator('#rounds li[data-match] .res a').getAttribute('href');
  const pairing = (await callAs(`/api/tournaments/${tourId}`)).data.rounds[0].pairings[0];
  const [home, away] = pairing.S === homeName ? [a, b] : [b, a];
  const homeClub = pairing.S;
  const awayClub = pairing.N;
  const lineups = new Map([
    [homeName, [names.a, names.a2]],
    [awayName, [names.b, names.b2]],
  ]);

  // Each leader opens the match from the tournament page and names their side.
  for (const [p, club] of [
    [home, homeClub],
    [away, awayClub],
  ]) {
    await Promise.all([p.waitForURL((u) => u.pathname === matchUrl), p.click('#rounds li[data-match] .res a')]);
    await p.waitForSelector('#match[data-state="ready"][data-status="accepted"]');
    assert.equal(await setLineup(p, lineups.get(club)), mw('lineup_saved'));
    await noSidewaysScroll(p, 'the lineup editor of a tournament match');
  }
  await screenshot(home, '59-lineup-sw-360');

  // The match starts at the end of the lineup window: each leader's game one tap away.
  for (const p of [home, away]) {
    await p.waitForSelector('#match[data-status="running"]', { timeout: MATCH_START_CEILING_MS });
    await p.waitForSelector('#my-game:not([hidden])');
  }
  const match = (await callAs(`/api${matchUrl.replace('/m/', '/team-matches/')}`)).data;

  // Board 1 on the phones (the home leader South on board 1): a move each, then the away
  // leader resigns.
  await Promise.all([home.waitForURL(/\/g\//), home.click('#my-game')]);
  await Promise.all([away.waitForURL(/\/g\//), away.click('#my-game')]);
  for (const p of [home, away]) await p.waitForSelector('#event-link:not([hidden])');
  await playByTouch(home, away, 'sw', 'S', 0, '59-team-tournament');
  await playByTouch(away, home, 'sw', 'N', 1, '59-team-tournament');
  await away.click('#resign');
  await away.waitForSelector('#result:not([hidden])');

  // Board 2 through the API: the away player resigns too.
  const g2 = match.boards[1].game;
  const awayTwo = pairing.S === homeName ? sessions.b2 : sessions.a2;
  const st = (await callAs(`/api/games/${g2}`, { session: awayTwo })).data;
  await callAs(`/api/games/${g2}/resign`, { session: awayTwo, method: 'POST', body: { game_no: 1, ply: st.ply } });

  // The match page, by the game's link: the score and the winner in Swahili.
  for (const p of [home, away]) {
    await Promise.all([p.waitForURL((u) => u.pathname === matchUrl), p.click('#event-link')]);
    await p.waitForSelector('#match[data-state="ready"][data-status="finished"]');
    assert.equal((await p.textContent('#m-score')).trim(), mw('score', { home: homeClub, away: awayClub, hs: '2', as: '0' }));
    assert.equal((await p.textContent('#m-winner')).trim(), mw('winner', { club: homeClub }));
    await noSidewaysScroll(p, 'the finished tournament match');
  }

  // The tournament page: the pairing's result, the standings and the winner, in words.
  for (const p of [home, away]) {
    await p.goto(tourUrl);
    await p.waitForSelector('#t-live:not([hidden])');
    await p.waitForFunction((s) => document.querySelector('#t-live')?.textContent === s, tw('finished_winner', { name: homeClub }));
    assert.equal((await p.textContent('#t-status')).trim(), tw('status_finished'));
    const res = (await p.textContent('#rounds li[data-match] .res')).trim();
    assert.ok(res.startsWith(tw('team_won', { club: homeClub, s: '2', n: '0' })), res);
    const heads = await p.$$eval('#standings thead th', (ths) => ths.map((th) => th.getAttribute('aria-label') || th.textContent.trim()));
    assert.equal(heads[2], tw('col_match_points'));
    assert.equal(heads[3], tw('tb_bp'));
    const rows = await p.$$eval('#standings tbody tr', (trs) => trs.map((tr) => [...tr.children].slice(0, 4).map((c) => c.textContent.trim())));
    assert.deepEqual(rows, [
      ['1', homeClub, '2', '2'],
      ['2', awayClub, '0', '0'],
    ]);
    await noSidewaysScroll(p, 'the finished team tournament');
  }
  await screenshot(home, '59-finished-sw-360');
  assertClean(a);
  assertClean(b);
});
