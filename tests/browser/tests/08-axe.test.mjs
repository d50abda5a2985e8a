// Accessibility: every page of the app, and the states that appear after playing (a direction
// chooser, the end of a game, a review, a refused record), passes axe-core's default rules
// (WCAG 2.0, 2.1 and 2.2 levels A and AA, and the best practices) and WCAG 2.2's target size,
// in Swahili and English, on a phone (360x640, touch) and a desktop (1280x800). A test fails
// on any violation and prints each one: the page, the rule, its impact, what it asks for and
// the failing nodes. The states are reached by waiting for what shows them, never for a time.
//
// BAO_AXE_SCREENSHOTS=1 also saves a screenshot of every state checked (artifacts/browser/),
// to look at the pages after a change of colours or markup.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, api, bao, screenshot, axeViolations, axeReport, playLessonMove, BASE, STATE_TIMEOUT_MS } from '../lib/harness.mjs';

const PHONE = { viewport: { width: 360, height: 640 }, hasTouch: true, isMobile: true };
const DESKTOP = { viewport: { width: 1280, height: 800 } };
/** A review takes the engine a while on a busy machine: a ceiling, not a wait. */
const REVIEW_TIMEOUT_MS = 300000;

/** A finished game's record (South won by resignation), uploaded for the replay and review. */
function finishedRecord(south) {
  let pos = 'kiswahili';
  const moves = [];
  // Six plies that do not end the game, each the first legal move `bao moves` lists.
  while (moves.length < 6) {
    const [mv, next] = bao('moves', pos)
      .map((l) => l.split('\t'))
      .find((l) => l.length === 3 && l[2] === '-');
    moves.push(mv);
    pos = next;
  }
  const numbered = moves.map((m, i) => (i % 2 === 0 ? `${i / 2 + 1}. ${m}` : m)).join(' ');
  return ['[Variant "kiswahili"]', '[Rules "-"]', `[South "${south}"]`, '[North "Juma"]', '[Date "2026.12.01"]', '[Result "S"]', '[Termination "resignation"]', '', `${numbered} S`, ''].join('\n');
}

async function upload(text) {
  const res = await fetch(`${BASE}/api/records`, { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: text });
  assert.equal(res.status, 201, await res.clone().text());
  return (await res.json()).id;
}

let browser;
/** Replay: a finished game not reviewed, and one whose review is asked for in before(). */
let replayId;
let reviewedId;
/** An account for the signed-in states: its name and its session token (cookie `bao_session`). */
const account = { name: `axe${Date.now().toString(36).slice(-6)}`, session: null };
/** A second account: it challenges the first, is challenged and blocked by it (the lobby states). */
const rival = { name: `axr${Date.now().toString(36).slice(-6)}`, session: null };

/** Calls the API as a signed-in account (cookie `bao_session`). */
async function asAccount(who, pathname, { method = 'GET', body = method === 'GET' ? undefined : {} } = {}) {
  const headers = { Cookie: `bao_session=${who.session}` };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(BASE + pathname, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  assert.ok(res.ok, `${method} ${pathname}: ${res.status} ${await res.clone().text()}`);
  return res;
}
/** The ids of the started tournaments made in before(). */
const tournaments = {};
/** Arenas made in before(): one being played (the account paired in it), one starting later. */
const arenas = {};
before(async () => {
  browser = await launch();
  replayId = await upload(finishedRecord('Asha'));
  reviewedId = await upload(finishedRecord('Baraka'));
  await api(`/api/games/${reviewedId}/review`, { method: 'POST', body: { game_no: 1 } });
  const res = await fetch(`${BASE}/api/account/signup`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: account.name, password: 'axe-core-4-all' }) });
  assert.equal(res.status, 201, await res.clone().text());
  account.session = /bao_session=([0-9a-f]+)/.exec(res.headers.get('set-cookie'))[1];
  const res2 = await fetch(`${BASE}/api/account/signup`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: rival.name, password: 'axe-core-4-all' }) });
  assert.equal(res2.status, 201, await res2.clone().text());
  rival.session = /bao_session=([0-9a-f]+)/.exec(res2.headers.get('set-cookie'))[1];
  // Tournaments between the account and a second one, started: a round robin (crosstable), a
  // Swiss (rounds and standings) and a knockout (bracket); docs/api.md "Tournaments".
  const other = await fetch(`${BASE}/api/account/signup`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: `${account.name}b`, password: 'axe-core-4-all' }) });
  assert.equal(other.status, 201, await other.clone().text());
  const otherSession = /bao_session=([0-9a-f]+)/.exec(other.headers.get('set-cookie'))[1];
  for (const [kind, format] of [
    ['roundRobin', { kind: 'round_robin', double: false }],
    ['swiss', { kind: 'swiss', rounds: 3 }],
    ['knockout', { kind: 'knockout', third_place: false }],
  ]) {
    const body = { name: `Axe ${kind}`, variant: 'kiswahili', format, clock: { days_per_move: 3 }, rated: false, starts_at: null, max_players: 8, private: false };
    const id = (await postAs(account.session, '/api/tournaments', body)).id;
    await postAs(account.session, `/api/tournaments/${id}/join`, {});
    await postAs(otherSession, `/api/tournaments/${id}/join`, {});
    await postAs(account.session, `/api/tournaments/${id}/start`, {});
    tournaments[kind] = id;
  }
  // Clubs (docs/api.md "Clubs"): one the account leads (closed: the rival asks to join, the
  // second account is a member, an announcement), and one of the rival's it may ask to join.
  const led = await postAs(account.session, '/api/clubs', { name: `Chama ${account.name}`, place: 'Unguja', description: 'Tunacheza kila Jumamosi.\nKaribuni.', open: false });
  clubs.led = led.id;
  await postAs(otherSession, `/api/clubs/${led.id}/join`, {});
  await postAs(account.session, `/api/clubs/${led.id}/requests/${account.name}b/accept`, {});
  await postAs(rival.session, `/api/clubs/${led.id}/join`, {});
  await postAs(account.session, `/api/clubs/${led.id}/announce`, { text: 'Mashindano ya klabu Jumamosi saa nne asubuhi.' });
  clubs.other = (await postAs(rival.session, '/api/clubs', { name: `Klabu ${rival.name}`, place: 'Pemba', description: '', open: false })).id;
  const gone = `Chama cha zamani ${account.name}`;
  clubs.dissolved = (await postAs(account.session, '/api/clubs', { name: gone, place: 'Tumbatu', description: '', open: true })).id;
  await postAs(account.session, `/api/clubs/${clubs.dissolved}/dissolve`, { name: gone });
  // Team matches between the two clubs: one the rival proposes (the account, leading the away
  // club, answers it and names its players), one accepted (the lineup editor), one that starts
  // in a moment with a board for each leader (running), one whose away side named nobody
  // (finished at its start, by forfeit).
  const terms = { boards: 2, variant: 'kete', clock: { initial_ms: 600000, increment_ms: 5000 }, rated: false };
  matches.proposed = (await postAs(rival.session, '/api/team-matches', { ...terms, home: clubs.other, away: led.id, starts_at: Date.now() + 3600000 })).id;
  matches.accepted = (await postAs(account.session, '/api/team-matches', { ...terms, home: led.id, away: clubs.other, starts_at: Date.now() + 3600000 })).id;
  await postAs(rival.session, `/api/team-matches/${matches.accepted}/accept`, {});
  const soon = Date.now() + 8000;
  for (const kind of ['running', 'finished']) {
    matches[kind] = (await postAs(account.session, '/api/team-matches', { ...terms, home: led.id, away: clubs.other, starts_at: soon })).id;
    await postAs(rival.session, `/api/team-matches/${matches[kind]}/accept`, {});
    await postAs(account.session, `/api/team-matches/${matches[kind]}/lineup`, { players: [account.name] });
  }
  await postAs(rival.session, `/api/team-matches/${matches.running}/lineup`, { players: [rival.name] });
  // docs/api.md "Arenas": the account and the rival paired at once in a running arena.
  const arena = { variant: 'kete', clock: { initial_ms: 600000, increment_ms: 5000 }, minutes: 60, berserk: true, rated: false };
  arenas.running = (await postAs(rival.session, '/api/arenas', { ...arena, name: 'Axe arena' })).id;
  await postAs(account.session, `/api/arenas/${arenas.running}/join`, {});
  await postAs(rival.session, `/api/arenas/${arenas.running}/join`, {});
  arenas.later = (await postAs(rival.session, '/api/arenas', { ...arena, name: 'Axe arena later', starts_at: Date.now() + 3600000 })).id;
  // A weekly arena of the account's club: its leader is offered the stop (never taken here).
  arenas.series = (await postAs(account.session, '/api/arenas', { ...arena, name: 'Axe weekly', starts_at: Date.now() + 7200000, club: clubs.led, repeat: 'weekly' })).id;
  // docs/api.md "Team battles": the account is in two clubs of one battle (asked which it plays
  // for), has joined another (the clubs' ranking, its club marked), and is in none of a third's.
  clubs.second = (await postAs(account.session, '/api/clubs', { name: `Kikosi ${account.name}`, place: 'Tanga', description: '', open: true })).id;
  clubs.rivalSecond = (await postAs(rival.session, '/api/clubs', { name: `Kundi ${rival.name}`, place: 'Lindi', description: '', open: true })).id;
  const battle = (clubIds) => ({ ...arena, berserk: false, battle: { clubs: clubIds, leaders: 2 } });
  arenas.battlePick = (await postAs(account.session, '/api/arenas', { ...battle([clubs.led, clubs.second]), name: 'Axe battle' })).id;
  arenas.battleJoined = (await postAs(account.session, '/api/arenas', { ...battle([clubs.led, clubs.other]), name: 'Axe battle joined' })).id;
  await postAs(account.session, `/api/arenas/${arenas.battleJoined}/join`, {});
  await postAs(otherSession, `/api/arenas/${arenas.battleJoined}/join`, {});
  arenas.battleOutside = (await postAs(rival.session, '/api/arenas', { ...battle([clubs.other, clubs.rivalSecond]), name: 'Axe battle of others' })).id;
  // docs/api.md "Team tournaments": one open that the account may enter its clubs in, and one
  // started between its club and the rival's (round 1's match, the standings).
  const team = { variant: 'kete', format: { kind: 'round_robin', double: false }, clock: { days_per_move: 3 }, rated: false, starts_at: null, max_players: 8, private: false, teams: { boards: 2 } };
  tournaments.teamOpen = (await postAs(rival.session, '/api/tournaments', { ...team, name: 'Axe team open' })).id;
  tournaments.teamRunning = (await postAs(account.session, '/api/tournaments', { ...team, name: 'Axe team' })).id;
  await postAs(account.session, `/api/tournaments/${tournaments.teamRunning}/join`, { club: clubs.led });
  await postAs(rival.session, `/api/tournaments/${tournaments.teamRunning}/join`, { club: clubs.other });
  await postAs(account.session, `/api/tournaments/${tournaments.teamRunning}/start`, {});
});
/** The ids of the clubs made in before(). */
const clubs = {};
/** Team matches between those clubs made in before() (docs/api.md "Team matches"). */
const matches = {};

/** A POST to the API as the account whose session is `session`; the answer's JSON. */
async function postAs(session, pathname, body) {
  const res = await fetch(`${BASE}${pathname}`, { method: 'POST', headers: { 'Content-Type': 'application/json', Cookie: `bao_session=${session}` }, body: JSON.stringify(body) });
  assert.ok(res.ok, `${pathname}: ${res.status} ${await res.clone().text()}`);
  return res.json();
}
after(async () => {
  await browser?.close();
});

/**
 * Plays a move on the analysis board for the side to move: a legal pit (not the start pit of
 * `avoid`), then the first way the chooser offers to play it.
 */
async function analysisMove(page, avoid = null) {
  const pits = await page.$$eval('#board g.pit.legal', (gs) => gs.map((g) => g.dataset.pit));
  const pit = pits.find((p) => !avoid || !avoid.startsWith(p)) || pits[0];
  const before = await page.getAttribute('#board', 'data-node');
  await page.click(`#board g.pit.legal[data-pit="${pit}"]`);
  for (const sel of ['#chooser button[data-letter]', '#chooser button[data-choice="stop"]', '#chooser button[data-confirm]']) {
    const b = page.locator(sel).first();
    if (await b.count()) await b.click();
  }
  await page.waitForFunction((b) => document.querySelector('#board').dataset.node !== b, before);
}

/** A game made through the API: `{id, seats: {S: token, N: token}, invite}`. */
async function newGame(body, { join = false } = {}) {
  const g = await api('/api/games', { method: 'POST', body: { variant: 'kiswahili', side: 'S', match: 'single_game', ...body } });
  const seats = { [g.seat]: g.token };
  if (join) {
    const j = await api(`/api/games/${g.id}/join`, { method: 'POST', body: { invite: g.invite, name: 'Nia' } });
    seats[j.seat] = j.token;
  }
  return { id: g.id, seats, invite: g.invite };
}

/** Gives the browser context the seat cookie of `token` in game `id`. */
async function sit(context, id, token) {
  await context.addCookies([{ name: `bao_${id}`, value: token, url: BASE }]);
}

/**
 * The states to check, in order, on one page of one context: [name, async (page, context)
 * => void], each leaving the page in the state to check. Later states may build on earlier
 * ones (the home page last, with the games of this context in "My games").
 */
const STATES = [
  [
    'home',
    async (page) => {
      await page.goto('/');
      await page.waitForSelector('#variants input[value="kiswahili"]');
      await page.waitForSelector('input[name="opponent"][value="local"]');
      // The lists have loaded (a game or "none"), not "Loading…".
      await page.waitForFunction(() => !document.querySelector('#live-games')?.textContent.includes('…'));
      // The puzzles of the day are shown.
      await page.waitForSelector('#daily-box:not([hidden]) #daily-puzzles li');
    },
  ],
  [
    'home, options and start position open',
    async (page) => {
      await page.click('#options-box summary');
      await page.waitForSelector('#options .option');
      await page.click('#start-box summary');
      await page.waitForSelector('#start:visible');
    },
  ],
  [
    'game against the computer (best of three), your move',
    async (page, context) => {
      const g = await newGame({ opponent: { kind: 'computer', level: 1 }, match: 'best_of_three' });
      await sit(context, g.id, g.seats.S);
      await page.goto(`/g/${g.id}`);
      await page.waitForSelector('#board g.pit.legal');
      await page.waitForSelector('#match:not([hidden])');
    },
  ],
  [
    'game against the computer, direction chooser open',
    async (page) => {
      // At the start A6 can be sown either way: the page asks which.
      await page.click('#board g.pit.legal[data-pit="A6"]');
      await page.waitForSelector('#chooser button[data-letter]');
    },
  ],
  [
    'game against the computer, all moves open and a hint',
    async (page) => {
      await page.click('#chooser button:not([data-letter])');
      await page.waitForSelector('#all-moves:not([hidden])');
      await page.click('#all-moves summary');
      await page.waitForSelector('#all-moves-list button[data-move]');
      await page.click('#play-hint');
      await page.waitForFunction(() => document.querySelector('#play-note')?.dataset.move);
    },
  ],
  [
    'two players with clocks, waiting for the opponent (invite link)',
    async (page, context) => {
      const g = await newGame({ opponent: { kind: 'human' }, clock: { initial_ms: 300000, increment_ms: 3000 } });
      await sit(context, g.id, g.seats.S);
      await page.goto(`/g/${g.id}`);
      await page.waitForSelector('#invite:not([hidden])');
      await page.waitForSelector('#board svg g.pit');
      page.game = g;
    },
  ],
  [
    'two players with clocks, a player to move',
    async (page) => {
      const g = page.game;
      const j = await api(`/api/games/${g.id}/join`, { method: 'POST', body: { invite: g.invite, name: 'Nia' } });
      g.seats[j.seat] = j.token;
      await page.waitForSelector('#invite', { state: 'hidden' });
      await page.waitForSelector('#board g.pit.legal');
      await page.waitForSelector('.clock.running');
    },
  ],
  [
    'two players with clocks, the chooser open (the bars and clocks around the board)',
    async (page) => {
      await page.click('#board g.pit.legal[data-pit="A6"]');
      await page.waitForSelector('#chooser button[data-letter]');
    },
  ],
  [
    'two players with clocks, the game over (resigned): the engine review and the analysis board, a rematch offered by the opponent',
    async (page) => {
      const g = page.game;
      await api(`/api/games/${g.id}/resign`, { method: 'POST', token: g.seats.N, body: { game_no: 1, ply: 0 } });
      await page.waitForSelector('#result:not([hidden])');
      await page.waitForSelector('#review-link:not([hidden])');
      await page.waitForSelector('#play-rematch:not([hidden])');
      await api(`/api/games/${g.id}/rematch`, { method: 'POST', token: g.seats.N, body: {} });
      await page.waitForSelector('#play-rematch-box[data-status="offered-theirs"]');
      await page.waitForSelector('#play-rematch-decline:not([hidden])');
    },
  ],
  [
    'a spectator of a live game',
    async (page) => {
      const g = await newGame({ opponent: { kind: 'human' } }, { join: true });
      const s = await api(`/api/games/${g.id}`);
      await api(`/api/games/${g.id}/moves`, { method: 'POST', token: g.seats.S, body: { move: s.legal[0].move, ply: 0 } });
      await page.goto(`/g/${g.id}`);
      await page.waitForFunction(() => Number(document.querySelector('#board')?.dataset.ply) === 1);
      await page.waitForSelector('#connection[data-connection="open"]');
    },
  ],
  [
    'pass and play',
    async (page, context) => {
      const g = await newGame({ opponent: { kind: 'local' } });
      await sit(context, g.id, g.seats.S);
      await page.goto(`/g/${g.id}`);
      await page.waitForSelector('#play-local:not([hidden])');
      await page.waitForSelector('#board g.pit.legal');
    },
  ],
  [
    'a game in this browser (browser engine)',
    async (page) => {
      await page.goto('/');
      await page.waitForSelector('#variants input[value="kiswahili"]');
      await page.locator('input[name="opponent"][value="computer"]').check();
      await page.locator('#play-here').check();
      await page.locator('#level').fill('1');
      await page.selectOption('#side', 'S');
      await Promise.all([page.waitForURL(/\/g\/local-[a-z0-9]+$/), page.click('#start-button')]);
      await page.waitForSelector('#board g.pit.legal');
    },
  ],
  [
    'a game that does not exist',
    async (page) => {
      await page.goto('/g/nosuchgame0000');
      await page.waitForSelector('#page-status[data-kind="error"]:not([hidden])');
    },
  ],
  [
    'replay, nothing loaded',
    async (page) => {
      await page.goto('/replay');
      await page.waitForSelector('#record-text');
    },
  ],
  [
    'replay, a broken record refused',
    async (page) => {
      await page.fill('#record-text', '[Variant "kiswahili"]\n[Rules "-"]\n[South "?"]\n[North "?"]\n[Date "????.??.??"]\n[Result "-"]\n\n1. A7L* a4R -\n');
      await page.click('#upload-form button[type="submit"]');
      await page.waitForSelector('#page-status[data-kind="error"]:not([hidden])');
    },
  ],
  [
    'replay, a record loaded',
    async (page) => {
      await page.goto(`/replay?game=${replayId}`);
      await page.waitForSelector('#viewer:not([hidden])');
      await page.waitForSelector('#review-start:not([hidden])');
      await page.click('#next');
      await page.waitForFunction(() => document.querySelector('#board').dataset.step === '1' && !document.querySelector('#board').classList.contains('animating'));
    },
  ],
  [
    'review',
    async (page) => {
      await page.goto(`/replay?game=${reviewedId}`);
      await page.waitForSelector('#review-panel[data-state="done"]', { timeout: REVIEW_TIMEOUT_MS });
      await page.click('#review-graph circle[data-step="2"]');
      await page.waitForFunction(() => document.querySelector('#board').dataset.step === '2' && !document.querySelector('#board').classList.contains('animating'));
    },
  ],
  ...['kiswahili', 'kete', 'kimasai'].map((v) => [
    `rules of ${v}`,
    async (page) => {
      await page.goto(`/rules/${v}`);
      await page.waitForLoadState('load');
    },
  ]),
  [
    'puzzles',
    async (page) => {
      await page.goto('/puzzles');
      await page.waitForSelector('#list button');
      await page.waitForSelector('#board g.pit.legal');
    },
  ],
  [
    'puzzles, a pit played (the ways to play it offered, or the move judged)',
    async (page) => {
      await page.locator('#board g.pit.legal').last().click();
      await page.waitForFunction(() => document.querySelector('#chooser button[data-move]') || /good|bad/.test(document.querySelector('#feedback').className));
      await page.waitForFunction(() => !document.querySelector('#board').classList.contains('animating'));
    },
  ],
  [
    'puzzles, the solution shown',
    async (page) => {
      await page.click('#show');
      await page.waitForSelector('#solution:not([hidden])');
    },
  ],
  [
    'puzzles, a theme chosen and the streak on (a guest)',
    async (page) => {
      const was = await page.evaluate(() => document.body.dataset.puzzleOpen);
      await page.selectOption('#theme', 'capture_chain');
      await page.waitForFunction((id) => document.body.dataset.puzzleOpen && document.body.dataset.puzzleOpen !== id, was);
      await page.check('#streak-mode');
      await page.waitForSelector('#streak[data-streak]');
    },
  ],
  [
    'puzzles, the streak ended by a miss (a guest)',
    async (page) => {
      const first = (await api('/api/puzzles?variant=kete'))[0];
      await page.goto(`/puzzles?id=${first.id}`);
      await page.waitForFunction((i) => document.body.dataset.puzzleOpen === i && document.querySelector('#board g.pit.legal'), first.id);
      await page.check('#streak-mode');
      const id = await (
        await page.waitForFunction((i) => document.body.dataset.puzzleOpen !== i && document.querySelector('#board g.pit.legal') && document.body.dataset.puzzleOpen, first.id)
      ).jsonValue();
      const p = await api(`/api/puzzles/${id}`);
      const wrong = p.legal.find((m) => m.slice(0, 2) !== p.moves[0].slice(0, 2)) || p.legal.find((m) => m !== p.moves[0]);
      await page.locator(`#board g.pit.legal[data-pit="${wrong.slice(0, 2)}"]`).click();
      await page.waitForFunction((m) => document.querySelector(`#chooser button[data-move="${m}"]`) || document.querySelector('#feedback').textContent, wrong);
      const choice = page.locator(`#chooser button[data-move="${wrong}"]`);
      if (await choice.count()) await choice.click();
      // A guest's streak at 0: the miss before any puzzle solved.
      await page.waitForSelector('#streak[data-ended="yes"][data-streak="0"]');
      await page.waitForFunction(() => !document.querySelector('#board').classList.contains('animating'));
    },
  ],
  [
    'the puzzle dashboard, signed out',
    async (page) => {
      await page.goto('/puzzles/dashboard');
      await page.waitForSelector('#dashboard[data-state="signed-out"]');
    },
  ],
  [
    'analysis board, two moves and a variation, the engine line shown',
    async (page) => {
      await page.goto('/analysis');
      await page.waitForSelector('#board g.pit.legal');
      await page.uncheck('#animate');
      // Two moves on the main line, back one, another move: a variation.
      for (const n of [1, 2]) {
        await analysisMove(page);
        await page.waitForFunction((k) => document.querySelectorAll('#tree button.mv').length === k, n);
      }
      await page.click('#prev');
      await page.waitForFunction(() => document.querySelector('#tree button.mv.current')?.dataset.node === document.querySelector('#tree button.mv')?.dataset.node);
      const taken = await page.getAttribute('#tree button.mv >> nth=1', 'data-move');
      await analysisMove(page, taken);
      await page.waitForSelector('#tree .variation button.mv.current');
      await page.waitForSelector('#engine[data-depth]');
    },
  ],
  [
    'analysis board, the position editor with a refused position',
    async (page) => {
      await page.click('#editor-box summary');
      await page.waitForSelector('#editor[data-valid="true"]');
      await page.click('#board g.pit.legal[data-pit="B1"]');
      await page.fill('#ed-pit-seeds', '6');
      await page.waitForSelector('#editor[data-valid="false"]');
      await page.waitForSelector('#ed-error:not([hidden])');
    },
  ],
  [
    'learn, the courses',
    async (page) => {
      await page.goto('/learn');
      await page.waitForSelector('section[data-variant="kimasai"] .lesson-list li');
    },
  ],
  [
    'learn, the first lesson with a hint',
    async (page) => {
      await page.click('section[data-variant="kiswahili"] a.lesson-link');
      await page.waitForSelector('#lesson[data-step="0"][data-state="play"]');
      await page.click('#hint');
      await page.waitForSelector('#hint-text:not([hidden])');
    },
  ],
  [
    'learn, a move that misses (try again)',
    async (page) => {
      const step = (await api('/api/learn/kiswahili')).lessons[0].steps[0];
      const wrong = bao('moves', step.position)
        .map((l) => l.split('\t')[0])
        .find((m) => m && !step.solutions.includes(m));
      await playLessonMove(page, wrong);
      await page.waitForSelector('#lesson[data-state="failed"]');
    },
  ],
  [
    'learn, the step done (stars, next step)',
    async (page) => {
      const step = (await api('/api/learn/kiswahili')).lessons[0].steps[0];
      await page.click('#retry');
      await page.waitForSelector('#lesson[data-state="play"]');
      await playLessonMove(page, step.solutions[0].split(' ')[0]);
      await page.waitForSelector('#lesson[data-state="done"]');
    },
  ],
  [
    'learn, the next step (from its top, the focus on its instruction)',
    async (page) => {
      await page.click('#next');
      await page.waitForSelector('#lesson[data-step="1"][data-state="play"]');
    },
  ],
  [
    'the calendar with nothing planned, signed out',
    async (page) => {
      // The shared server always has coming arenas (made in before()): the page is shown the
      // empty answer it would get on a new site.
      await page.route('**/api/calendar', (r) => r.fulfill({ json: { now: Date.now(), events: [] } }));
      await page.goto('/calendar');
      await page.waitForSelector('#calendar[data-state="ready"]');
      await page.waitForSelector('#empty:not([hidden])');
      await page.unroute('**/api/calendar');
    },
  ],
  [
    'the calendar, signed out (the events, log in to join)',
    async (page) => {
      await page.goto('/calendar');
      await page.waitForSelector('#calendar[data-state="ready"]');
      await page.waitForSelector(`li.c-event[data-id="${arenas.later}"] .c-act a[href^="/account/login"]`);
    },
  ],
  [
    'sign up',
    async (page) => {
      await page.goto('/account/signup');
      await page.waitForSelector('#account-form #username');
    },
  ],
  [
    'sign up, a name refused',
    async (page) => {
      await page.fill('#username', 'ab');
      await page.fill('#password', 'long-enough');
      await page.click('#submit');
      await page.waitForSelector('#form-status[data-kind="error"]:not([hidden])');
    },
  ],
  [
    'sign up, the recovery code shown once',
    async (page) => {
      // The answer of a signup (the real one is made in before(): each counts against the limits).
      await page.route('**/api/account/signup', (route) =>
        route.fulfill({ status: 201, contentType: 'application/json', body: JSON.stringify({ username: 'Mfano', recovery_code: 'abcde-fghij-kmnpq-rstuv' }) }),
      );
      await page.fill('#username', 'Mfano');
      await page.click('#submit');
      await page.waitForSelector('#code-box:not([hidden])');
      await page.unroute('**/api/account/signup');
    },
  ],
  [
    'log in, a field missing',
    async (page) => {
      await page.goto('/account/login');
      await page.fill('#username', 'Mfano');
      await page.click('#submit');
      await page.waitForSelector('#form-status[data-kind="error"]:not([hidden])');
    },
  ],
  [
    'recover an account',
    async (page) => {
      await page.goto('/account/recover');
      await page.waitForSelector('#account-form #code');
    },
  ],
  [
    'account settings, signed in (the header shows the name)',
    async (page, context) => {
      await context.addCookies([{ name: 'bao_session', value: account.session, url: BASE }]);
      await page.goto('/account');
      await page.waitForSelector('#settings:not([hidden])');
      await page.waitForFunction((n) => document.querySelector('#account-name')?.textContent === n, account.name);
    },
  ],
  [
    'puzzles signed in: the ratings, and the rating change of a try (the solution shown)',
    async (page) => {
      await page.goto('/puzzles?id=kete-001');
      await page.waitForFunction(() => document.body.dataset.puzzleOpen === 'kete-001' && document.querySelector('#ratings').textContent);
      await page.click('#show');
      await page.waitForSelector('#rating-change:not([hidden])');
    },
  ],
  [
    'the puzzle dashboard (a try counted, the themes, the rating history)',
    async (page) => {
      await page.goto('/puzzles/dashboard?variant=kete');
      await page.waitForSelector('#dashboard[data-state="ready"][data-variant="kete"]');
      await page.waitForSelector('#themes > li');
    },
  ],
  [
    'the account menu open',
    async (page) => {
      await page.click('#account-toggle');
      await page.waitForSelector('.account-list:not([hidden])');
    },
  ],
  [
    'a profile',
    async (page) => {
      await page.goto(`/@/${account.name}`);
      // Shown, or (without the ratings backend) "no such player": both in words.
      await page.waitForSelector('#profile:not([data-state="loading"])');
    },
  ],
  [
    'the profile of nobody',
    async (page) => {
      await page.goto('/@/hakunamtu000');
      await page.waitForSelector('#profile[data-state="missing"]');
    },
  ],
  [
    'home lobby signed in: looking for an opponent, the challenge form open',
    async (page) => {
      await page.goto('/');
      await page.waitForSelector('#quick-buttons:not([hidden]) button[data-clock="1d"]');
      await page.check('#lobby-variants input[value="kimasai"]', { force: true });
      await page.click('#quick-buttons button[data-clock="1d"]');
      await page.waitForSelector('#pool-wait:not([hidden])');
      await page.click('#post-seek');
      await page.waitForSelector('#seek-form:not([hidden]) #seek-form-rated');
    },
  ],
  [
    'home lobby: a challenge received and one sent, an open challenge of this browser',
    async (page) => {
      await page.click('#pool-cancel');
      await page.waitForSelector('#pool-wait', { state: 'hidden' });
      await page.click('#seek-form-submit');
      await page.waitForSelector('#seek-list li.mine[data-seek]');
      await asAccount(rival, '/api/challenges', { method: 'POST', body: { to: account.name, variant: 'kete', rules: '-', clock: { days_per_move: 1 }, match: 'best_of_three', rated: true } });
      await asAccount(account, '/api/challenges', { method: 'POST', body: { to: rival.name, variant: 'kiswahili', rules: '-', clock: null, match: 'single_game', rated: false } });
      // The received one arrives live; the sent one is listed on the next load.
      await page.waitForSelector('#incoming:not([hidden]) #incoming-list li[data-challenge]');
      await page.reload();
      await page.waitForSelector('#my-games:not([hidden]) #my-challenges li[data-challenge][data-dir="out"]');
      await page.waitForSelector('#my-challenges li[data-challenge][data-dir="in"]');
      await page.waitForSelector('#incoming:not([hidden]) #incoming-list li[data-challenge]');
      await page.waitForSelector('#seek-list li.mine[data-seek]');
      // A tournament round made a game for this account: announced at the top with Play.
      await page.waitForSelector('#lobby[data-socket="open"]');
      const t = await (
        await asAccount(rival, '/api/tournaments', {
          method: 'POST',
          body: { name: `Axe ${Date.now()}`, variant: 'kete', format: { kind: 'round_robin', double: false }, clock: { days_per_move: 1 }, rated: false, starts_at: null, max_players: 4, private: false },
        })
      ).json();
      for (const who of [rival, account]) await asAccount(who, `/api/tournaments/${t.id}/join`, { method: 'POST' });
      await asAccount(rival, `/api/tournaments/${t.id}/start`, { method: 'POST' });
      await page.waitForSelector('#ready:not([hidden]) #ready-list li[data-game]');
    },
  ],
  [
    "another player's profile: the challenge form open, blocked",
    async (page) => {
      // This browser's open challenge goes (at most 3 open per account across the runs).
      await page.click('#seek-list li.mine button.seek-cancel');
      await page.waitForSelector('#seek-list li.mine', { state: 'detached' });
      await page.goto(`/@/${rival.name}`);
      await page.waitForSelector('#profile-actions[data-state="ready"]');
      await page.click('#block-toggle');
      await page.waitForSelector('#profile-actions[data-blocked="true"]');
      await page.click('#challenge-open');
      await page.waitForSelector('#challenge-form:not([hidden])');
    },
  ],
  [
    'account settings: the blocked players',
    async (page) => {
      await page.goto('/account');
      await page.waitForSelector(`#blocked-list li[data-name="${rival.name}"]`);
      // Unblocked again for the next run (the state was reached before).
      await asAccount(account, `/api/blocks/${rival.name}`, { method: 'DELETE' });
    },
  ],
  [
    'the compact menu open',
    async (page) => {
      await page.goto('/puzzles');
      if (await page.locator('#menu-toggle').isVisible()) {
        await page.click('#menu-toggle');
        await page.waitForSelector('.site-nav a[href="/learn"]:visible');
      }
    },
  ],
  [
    'the leaderboard',
    async (page) => {
      await page.goto('/leaderboard?variant=kete');
      await page.waitForSelector('#leaderboard:not([data-state="loading"])');
    },
  ],
  [
    'the tournaments',
    async (page) => {
      await page.goto('/tournaments');
      await page.waitForSelector('#tournaments[data-state="ready"]');
      await page.waitForSelector('#create-link:not([hidden])');
    },
  ],
  [
    'create a tournament, the fields refused',
    async (page) => {
      await page.goto('/tournaments/new');
      await page.waitForSelector('#new-form:not([hidden])');
      await page.click('input[name="format"][value="swiss"]');
      await page.click('input[name="start"][value="at"]');
      await page.fill('#t-max', '1');
      await page.click('#create-submit');
      await page.waitForSelector('#new-status[data-kind="error"]:not([hidden])');
    },
  ],
  [
    'create a team tournament, the boards refused',
    async (page) => {
      await page.goto('/tournaments/new');
      await page.waitForSelector('#new-form:not([hidden])');
      await page.click('#t-teams');
      await page.waitForSelector('#teams-box:not([hidden])');
      await page.fill('#t-boards', '1');
      await page.click('#create-submit');
      await page.waitForSelector('#t-boards-err:not([hidden])');
    },
  ],
  [
    'create a tournament for one club (who may join)',
    async (page) => {
      await page.goto('/tournaments/new');
      // The account leads clubs: the form offers them once its profile is read.
      await page.waitForSelector('#tournament-new[data-clubs]:not([data-clubs="0"])');
      await page.waitForSelector('#club-box:not([hidden])');
      await page.fill('#t-name', 'Axe club only');
      await page.selectOption('#t-club', clubs.led);
    },
  ],
  [
    'a tournament for one club (its members only)',
    async (page) => {
      await Promise.all([page.waitForURL(/\/t\/[a-z0-9]+/), page.click('#create-submit')]);
      await page.waitForSelector(`#t-for-club[href="/club/${clubs.led}"]`);
      await page.waitForFunction((n) => document.querySelector('#t-for-club')?.textContent.includes(n), `Chama ${account.name}`);
    },
  ],
  [
    'a team tournament open (enter my club)',
    async (page) => {
      await page.goto(`/t/${tournaments.teamOpen}`);
      await page.waitForSelector('#club-form:not([hidden])');
      await page.waitForSelector('#club-pick option', { state: 'attached' });
    },
  ],
  [
    'a team tournament being played (matches, match and board points, the tie-breaks explained)',
    async (page) => {
      await page.goto(`/t/${tournaments.teamRunning}`);
      await page.waitForSelector('#standings');
      await page.waitForSelector('#rounds li[data-match] a');
      await page.waitForSelector('#club-withdraw:not([hidden])');
      await page.click('#legend summary');
      await page.waitForSelector('#legend-list dd');
    },
  ],
  [
    'a round robin being played (crosstable, your game)',
    async (page) => {
      await page.goto(`/t/${tournaments.roundRobin}`);
      await page.waitForSelector('#crosstable');
      await page.waitForSelector('#your-game:not([hidden])');
    },
  ],
  [
    'a tournament game (its tournament and round named, a link back)',
    async (page) => {
      await Promise.all([page.waitForURL(/\/g\//), page.click('#your-game')]);
      await page.waitForSelector('#event-link:not([hidden])');
      await page.waitForSelector('#board svg g.pit');
    },
  ],
  [
    'a Swiss tournament (rounds, standings, the tie-breaks explained)',
    async (page) => {
      await page.goto(`/t/${tournaments.swiss}`);
      await page.waitForSelector('#standings');
      await page.click('#legend summary');
      await page.waitForSelector('#legend-list dd');
    },
  ],
  [
    'a knockout (bracket)',
    async (page) => {
      await page.goto(`/t/${tournaments.knockout}`);
      await page.waitForSelector('#bracket .t-match');
    },
  ],
  [
    'the tournament of nobody',
    async (page) => {
      await page.goto('/t/hakuna0000');
      await page.waitForSelector('#tournament[data-state="missing"]');
    },
  ],
  [
    'the clubs (find one, start one)',
    async (page) => {
      await page.goto('/clubs');
      await page.waitForSelector('#clubs[data-state="ready"]');
      await page.waitForSelector('#club-list > li');
      await page.waitForSelector('#new-form:not([hidden])');
    },
  ],
  [
    'start a club, the name refused',
    async (page) => {
      await page.click('#new-submit');
      await page.waitForSelector('#c-name-err:not([hidden])');
    },
  ],
  [
    'a club its leader sees (a request, an announcement, a member managed)',
    async (page) => {
      await page.goto(`/club/${clubs.led}`);
      await page.waitForSelector('#club[data-state="ready"][data-you="leader"]');
      await page.waitForSelector('#request-list > li');
      await page.waitForSelector('#news-list > li');
      await page.click('#member-list details summary');
      await page.waitForSelector('#member-list details[open] button[data-act="ban"]');
      await page.click('#dissolve-box summary');
      await page.waitForSelector('#dissolve-box[open] #dissolve-name');
    },
  ],
  [
    'a dissolved club',
    async (page) => {
      await page.goto(`/club/${clubs.dissolved}`);
      await page.waitForSelector('#club[data-state="dissolved"]');
    },
  ],
  [
    'a club one may ask to join',
    async (page) => {
      await page.goto(`/club/${clubs.other}`);
      await page.waitForSelector('#club[data-state="ready"][data-you="none"]');
      await page.waitForSelector('#join-button:not([hidden])');
    },
  ],
  [
    'the arenas (lists, the form)',
    async (page) => {
      await page.goto('/arenas');
      await page.waitForSelector('#arenas[data-state="ready"]');
      await page.waitForSelector('#create-form:not([hidden])');
    },
  ],
  [
    'the arenas form, a team battle (a club found, one chosen, too few refused)',
    async (page) => {
      await page.check('#a-battle');
      await page.waitForSelector('#battle-box:not([hidden])');
      await page.fill('#b-q', 'Chama');
      await page.click('#b-search');
      await page.locator('#b-found li button[data-act="add"]').first().click();
      await page.waitForSelector('#b-chosen li');
      // The name is left empty: the next state reads its refusal too.
      await page.click('#create-button');
      await page.waitForSelector('#b-q-err:not([hidden])');
    },
  ],
  [
    'create an arena, the fields refused',
    async (page) => {
      await page.fill('#a-minutes', '5');
      await page.click('input[name="start"][value="later"]');
      await page.click('#create-button');
      await page.waitForSelector('#a-minutes-err:not([hidden])');
      await page.waitForSelector('#a-name-err:not([hidden])');
    },
  ],
  [
    'an arena being played (countdown, your game, standings, points explained)',
    async (page) => {
      await page.goto(`/a/${arenas.running}`);
      await page.waitForSelector('#arena[data-state="ready"]');
      await page.waitForSelector('#your-game:not([hidden])');
      await page.click('#legend summary');
      await page.waitForSelector('#legend[open]');
    },
  ],
  [
    'an arena game (its arena named, a link back)',
    async (page) => {
      await Promise.all([page.waitForURL(/\/g\//), page.click('#your-game')]);
      await page.waitForSelector('#event-link:not([hidden])');
      await page.waitForSelector('#board svg g.pit');
    },
  ],
  [
    'an arena starting later (countdown, join)',
    async (page) => {
      await page.goto(`/a/${arenas.later}`);
      await page.waitForSelector('#arena[data-state="ready"][data-status="upcoming"]');
      await page.waitForSelector('#join-button:not([hidden])');
    },
  ],
  [
    'an arena of a club series, its leader asked whether to stop it',
    async (page) => {
      await page.goto(`/a/${arenas.series}`);
      await page.waitForSelector('#arena[data-state="ready"]');
      await page.click('#stop-series');
      await page.waitForSelector('#stop-confirm:not([hidden])');
    },
  ],
  [
    'the calendar, signed in (join ahead)',
    async (page) => {
      // A fresh arena each run: joining it below changes it for the next run.
      const body = { variant: 'kete', clock: { initial_ms: 300000, increment_ms: 3000 }, minutes: 30, berserk: false, rated: false };
      arenas.calendar = (await postAs(rival.session, '/api/arenas', { ...body, name: 'Axe calendar', starts_at: Date.now() + 7200000 })).id;
      await page.goto('/calendar');
      await page.waitForSelector('#calendar[data-state="ready"]');
      await page.waitForSelector(`li.c-event[data-id="${arenas.calendar}"] button.c-join`);
    },
  ],
  [
    'the calendar, an arena joined',
    async (page) => {
      await page.click(`li.c-event[data-id="${arenas.calendar}"] button.c-join`);
      await page.waitForSelector(`li.c-event[data-id="${arenas.calendar}"][data-joined="true"] .c-in`);
    },
  ],
  [
    'a team battle, the club to play for (the clubs ranking, the choice)',
    async (page) => {
      await page.goto(`/a/${arenas.battlePick}`);
      await page.waitForSelector('#arena[data-state="ready"][data-battle="true"]');
      await page.waitForSelector('#club-pick:not([hidden])');
      await page.waitForSelector('#battle-clubs li');
    },
  ],
  [
    'a team battle joined (its club marked, the standings with clubs)',
    async (page) => {
      await page.goto(`/a/${arenas.battleJoined}`);
      await page.waitForSelector('#arena[data-state="ready"][data-joined="true"]');
      await page.waitForSelector('#battle-clubs li.mine');
      await page.waitForSelector('#standings .a-club-line');
    },
  ],
  [
    'a team battle of clubs one is not in (who may join)',
    async (page) => {
      await page.goto(`/a/${arenas.battleOutside}`);
      await page.waitForSelector('#arena[data-state="ready"][data-battle="true"]');
      await page.waitForSelector('#members-only:not([hidden])');
    },
  ],
  [
    'a team match proposed to the account\'s club (accept, decline, its lineup editor)',
    async (page) => {
      await page.goto(`/m/${matches.proposed}`);
      await page.waitForSelector('#match[data-state="ready"][data-status="proposed"][data-lineup="away"]');
      await page.waitForSelector('#accept-button:not([hidden])');
    },
  ],
  [
    'a team match accepted, the lineup refused in words',
    async (page) => {
      await page.goto(`/m/${matches.accepted}`);
      await page.waitForSelector('#match[data-state="ready"][data-status="accepted"][data-lineup="home"]');
      await page.selectOption('#lineup-2', account.name);
      await page.click('#lineup-submit');
      await page.waitForSelector('#lineup-status:not([hidden])');
    },
  ],
  [
    'a team match being played (the boards, your game)',
    async (page) => {
      await page.goto(`/m/${matches.running}`);
      await page.waitForSelector('#match[data-state="ready"][data-status="running"]', { timeout: 120000 });
      await page.waitForSelector('#my-game:not([hidden])');
    },
  ],
  [
    'a team match game (its match and board named, a link back)',
    async (page) => {
      await Promise.all([page.waitForURL(/\/g\//), page.click('#my-game')]);
      await page.waitForSelector('#event-link:not([hidden])');
      await page.waitForSelector('#board svg g.pit');
    },
  ],
  [
    'a team match finished (the score and the winner)',
    async (page) => {
      await page.goto(`/m/${matches.finished}`);
      await page.waitForSelector('#match[data-state="ready"][data-status="finished"]', { timeout: 120000 });
      await page.waitForSelector('#m-winner:not([hidden])');
    },
  ],
  [
    'the club of nobody',
    async (page) => {
      await page.goto('/club/hakuna0000');
      await page.waitForSelector('#club[data-state="missing"]');
    },
  ],
  [
    'a profile with its clubs',
    async (page) => {
      await page.goto(`/@/${account.name}`);
      await page.waitForSelector('#clubs-box:not([hidden])');
      await page.waitForSelector('#profile[data-state="ready"]');
    },
  ],
  [
    'the arena of nobody',
    async (page) => {
      await page.goto('/a/hakuna0000');
      await page.waitForSelector('#arena[data-state="missing"]');
    },
  ],
  [
    'an address with no page (404)',
    async (page) => {
      const res = await page.goto('/no/such/page');
      assert.equal(res.status(), 404);
      await page.waitForSelector('h1');
    },
  ],
  [
    'home, with my games and the games in this browser',
    async (page) => {
      await page.goto('/');
      await page.waitForSelector('#variants input[value="kiswahili"]');
      await page.waitForSelector('#local-title');
      await page.waitForSelector('#my-games-list li:not(.muted)');
    },
  ],
  [
    'home with no network (from the service worker)',
    async (page, context) => {
      await page.evaluate(() => navigator.serviceWorker.ready);
      await page.waitForFunction(() => !!navigator.serviceWorker.controller);
      await context.setOffline(true);
      await page.reload();
      await page.waitForSelector('#variants input[value="kiswahili"]');
      await page.waitForSelector('#offline-note:not([hidden])');
    },
  ],
  [
    'puzzles with no network (the saved pack, after the state above)',
    async (page) => {
      await page.goto('/puzzles');
      await page.waitForSelector('body[data-puzzles-offline="true"] #offline-note:not([hidden])');
      await page.waitForFunction(() => !!document.body.dataset.puzzleOpen && !!document.querySelector('#board svg'));
    },
  ],
];

for (const [device, name] of [
  [PHONE, 'phone 360x640'],
  [DESKTOP, 'desktop 1280x800'],
]) {
  for (const lang of ['sw', 'en']) {
    test(`axe-core finds no violation on any page: ${lang}, ${name}`, async () => {
      // The browser's language chooses the page's (no cookie, no ?lang).
      const context = await browser.newContext({ ...device, baseURL: BASE, locale: lang === 'sw' ? 'sw-TZ' : 'en-GB' });
      context.setDefaultTimeout(STATE_TIMEOUT_MS);
      await context.addInitScript(() => {
        localStorage.setItem('bao.speed', '0');
        localStorage.setItem('bao.learnSpeed', '0');
      });
      const page = await context.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      const reports = [];
      let checked = 0;
      for (const [state, reach] of STATES) {
        await reach(page, context);
        const where = `${state} (${new URL(page.url()).pathname}, ${lang}, ${name})`;
        if (!page.url().includes('/no/such/')) assert.equal(await page.getAttribute('html', 'lang'), lang, `${where}: html lang`);
        const v = await axeViolations(page);
        if (v.length) reports.push(axeReport(where, v));
        if (process.env.BAO_AXE_SCREENSHOTS) {
          await screenshot(page, `08-axe-${lang}-${device.viewport.width}-${String(checked).padStart(2, '0')}-${state.replace(/[^a-z0-9]+/gi, '-')}`);
        }
        checked += 1;
      }
      await context.close();
      assert.deepEqual(errors, [], 'uncaught script errors');
      assert.ok(checked === STATES.length);
      assert.equal(reports.length, 0, `axe-core violations in ${reports.length} of ${checked} states:\n${reports.join('\n')}`);
    });
  }
}
