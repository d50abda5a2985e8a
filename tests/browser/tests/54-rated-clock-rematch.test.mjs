// The game itself on two phones (docs/api.md "Clocks", "Play: rematch"): two signed-in 360x640
// touch phones in Swahili play a rated game with a 20 s + 3 s clock, by tapping pits and the
// chooser's words. At every move, on both phones, the board's four rows, both bars and both
// clocks are inside the one screen. The clocks are read as a player reads them: the waiting
// player's clock visibly runs down, and the mover's clock after a move is what it showed
// before, less the time the move took, plus the increment (read on both phones and against the
// server). North then stops moving and loses on time: both phones say so in Swahili words, no
// English, and the rating changes show. Then the rematch: South offers it, North (on the home
// page by then) declines it there, and no game is made; North offers one from the game page,
// South accepts, and both phones reach the same new rated game, sides swapped. Every wait is
// for a state.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, assertClean, screenshot, api, waitForPly } from '../lib/harness.mjs';
import { phone, text, layout, assertOnScreen, assertOwnBelow, playByTouch } from '../lib/phone.mjs';

const INITIAL = 20000;
const INCREMENT = 3000;
const PASSWORD = 'kete-sitini-4';
const unique = (stem) => `${stem}${Date.now().toString(36).slice(-5)}${Math.floor(Math.random() * 100)}`;

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** A JSON call from the page itself (its cookies: the session, the seat). */
function call(page, pathname, body) {
  return page.evaluate(
    async ([p, b]) => {
      const r = await fetch(p, b === undefined ? {} : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(b) });
      return { status: r.status, json: await r.json().catch(() => null) };
    },
    [pathname, body],
  );
}

/** A phone signed in as a new account. */
async function signedIn(stem) {
  const p = await phone(browser, 'sw');
  await p.page.goto('/learn');
  const name = unique(stem);
  const r = await call(p.page, '/api/account/signup', { username: name, password: PASSWORD });
  assert.equal(r.status, 201, JSON.stringify(r));
  return { ...p, name };
}

/** The time a phone shows on `side`'s clock (ms, from the face's data-ms). */
const shown = (page, side) => page.$eval(`#clock-${side}`, (e) => Number(e.dataset.ms));

/** Waits until `side`'s clock on `page` shows `ms` (a stopped clock: the figure the server gave). */
function showsClock(page, side, ms) {
  return page.waitForFunction(([s, v]) => Math.abs(Number(document.querySelector(`#clock-${s}`)?.dataset.ms) - v) <= 100, [side, ms]);
}

test('two phones in Swahili: a rated clocked game lost on time, clocks read at every move, a rematch declined and then accepted', async () => {
  const a = await signedIn('Asha');
  const b = await signedIn('Baraka');
  const [pa, pb] = [a.page, b.page];

  // Asha makes a rated game with a clock (South); Baraka joins through the invite link.
  const made = await call(pa, '/api/games', {
    variant: 'kiswahili',
    opponent: { kind: 'human' },
    side: 'S',
    match: 'single_game',
    rated: true,
    clock: { initial_ms: INITIAL, increment_ms: INCREMENT },
  });
  assert.equal(made.status, 201, JSON.stringify(made));
  const id = made.json.id;
  await pa.goto(`/g/${id}`);
  await pa.waitForSelector('#invite:not([hidden])');
  await pb.goto(await pa.inputValue('#invite-link'));
  await pb.waitForSelector('#player-N .you');
  for (const p of [pa, pb]) {
    await p.waitForSelector('#rated-tag:not([hidden])');
    await p.waitForSelector('#clock-S.running');
  }
  const start = await api(`/api/games/${id}`);
  assert.equal(start.rated, true);
  assert.equal(start.accounts.S.username, a.name);
  assert.equal(start.accounts.N.username, b.name);

  // South's clock runs down on both phones before the first move.
  const first = await shown(pb, 'S');
  await pb.waitForFunction((v) => Number(document.querySelector('#clock-S').dataset.ms) <= v - 300, first);

  const PLIES = 7; // South, North, ..., South: then North is to move and stops.
  for (let n = 0; n < PLIES; n++) {
    const [mover, waiter, own] = n % 2 === 0 ? [pa, pb, 'S'] : [pb, pa, 'N'];
    await mover.waitForSelector('#board g.pit.legal');
    const before = await shown(mover, own);
    const t0 = Date.now();
    await playByTouch(mover, waiter, 'sw', own, n, '54-phones');
    const took = Date.now() - t0;
    // The server's figure: charged the time the move took (at most what the test measured,
    // from the moment the page showed `before`) and given the increment.
    const s = await api(`/api/games/${id}`);
    const after = s.clock[own];
    assert.ok(
      after <= before + INCREMENT + 150 && after >= before + INCREMENT - took - 150,
      `ply ${n + 1}: ${own} showed ${before} ms, took at most ${took} ms, has ${after} ms (increment ${INCREMENT})`,
    );
    assert.equal(s.clock.running, own === 'S' ? 'N' : 'S');
    // Both phones show the mover's stopped clock at that figure, and every part in the screen.
    for (const [p, mine] of [
      [mover, own],
      [waiter, own === 'S' ? 'N' : 'S'],
    ]) {
      await waitForPly(p, n + 1);
      await showsClock(p, own, after);
      const l = await layout(p);
      assertOnScreen({ ...l, buttons: [] }, `ply ${n + 1}, ${mine}'s phone after the move`);
      assertOwnBelow(l, mine, `ply ${n + 1}, ${mine}'s phone after the move`);
    }
    if (n === 0) await screenshot(pa, '54-phones-sw-after-first-move');
  }

  // North does not move: his clock runs down on both phones, then he loses on time.
  const northLeft = await shown(pa, 'N');
  for (const p of [pa, pb]) await p.waitForFunction((v) => Number(document.querySelector('#clock-N').dataset.ms) <= v - 1000, northLeft);
  const youLose = text('sw', 'game', 'game.you_lose', { side: text('sw', 'common', 'common.south') });
  const youWin = text('sw', 'game', 'game.you_win', { side: text('sw', 'common', 'common.south') });
  const onTime = text('sw', 'words', 'words.end_time', { loser: text('sw', 'common', 'common.north'), winner: text('sw', 'common', 'common.south') });
  for (const [p, headline] of [
    [pa, youWin],
    [pb, youLose],
  ]) {
    await p.waitForSelector('#result:not([hidden])');
    assert.equal((await p.textContent('#result-headline')).trim(), headline);
    const said = `${await p.textContent('#turn')} ${await p.textContent('#result')}`;
    assert.ok(said.includes(onTime), `the loss on time in Swahili words: ${said}`);
    for (const english of ['ran out of time', 'has won', 'South', 'North', 'time']) assert.ok(!said.includes(english), `no English "${english}" on the Swahili page: ${said}`);
    assert.equal(await p.locator('.clock.running').count(), 0, 'no clock runs after the end');
    await showsClock(p, 'N', 0);
    await p.waitForSelector('#rating-changes[data-state="ready"]');
  }
  const over = await api(`/api/games/${id}`);
  assert.equal(over.termination, 'time');
  assert.deepEqual(over.ending, { reason: 'time', winner: 'S' });
  assert.ok(over.rating_change.S > 0 && over.rating_change.N < 0, JSON.stringify(over.rating_change));
  await screenshot(pb, '54-phones-sw-lost-on-time');

  // Baraka goes to the home page; Asha offers a rematch from the game page. It reaches his
  // home page, where he declines it: no game is made, and Asha reads that he declined.
  await pb.goto('/');
  await pb.waitForSelector('#lobby[data-socket="open"]');
  await pa.waitForSelector('#play-rematch:not([hidden])');
  await pa.click('#play-rematch');
  await pa.waitForSelector('#play-rematch-box[data-status="offered-mine"]');
  const row = pb.locator(`#incoming-list li[data-rematch="${id}"]`);
  await row.waitFor();
  assert.ok((await row.textContent()).includes(a.name), 'the offer names who asks');
  await screenshot(pb, '54-phones-sw-rematch-on-home');
  await row.locator('button[data-action="decline"]').tap();
  await row.waitFor({ state: 'detached' });
  await pa.waitForSelector('#play-rematch-box[data-status="declined-mine"]');
  assert.ok((await pa.textContent('#play-rematch-text')).includes(b.name));
  const declined = await api(`/api/games/${id}`);
  assert.equal(declined.rematch.status, 'declined');
  assert.equal(declined.rematch.id, undefined, 'no game was made');

  // Baraka comes back to the game and offers one himself; Asha accepts on her phone.
  await pb.goto(`/g/${id}`);
  await pb.waitForSelector('#play-rematch:not([hidden])');
  await pb.click('#play-rematch');
  await pb.waitForSelector('#play-rematch-box[data-status="offered-mine"]');
  await pa.waitForSelector('#play-rematch-box[data-status="offered-theirs"]');
  assert.ok((await pa.textContent('#play-rematch-text')).includes(b.name));
  await screenshot(pa, '54-phones-sw-rematch-offered');
  await Promise.all([pa.waitForURL((u) => !u.pathname.endsWith(id)), pa.locator('#play-rematch').tap()]);
  const newId = new URL(pa.url()).pathname.split('/')[2];
  await pb.waitForURL((u) => u.pathname.endsWith(newId));
  const again = await api(`/api/games/${id}`);
  assert.equal(again.rematch.status, 'made');
  assert.equal(again.rematch.id, newId, 'one game, the one both phones show');
  const next = await api(`/api/games/${newId}`);
  assert.equal(next.rated, true, 'a rated game\'s rematch is rated');
  assert.deepEqual(next.clock.control, { initial_ms: INITIAL, increment_ms: INCREMENT });
  assert.equal(next.accounts.S.username, b.name, 'sides swapped');
  assert.equal(next.accounts.N.username, a.name);
  await pb.waitForSelector('#player-S .you');
  await pa.waitForSelector('#player-N .you');
  await pb.waitForSelector('#board g.pit.legal');
  for (const [p, mine] of [
    [pa, 'N'],
    [pb, 'S'],
  ]) {
    const l = await layout(p);
    assertOnScreen({ ...l, buttons: [] }, `the rematch, ${mine}'s phone`);
    assertOwnBelow(l, mine, `the rematch, ${mine}'s phone`);
  }
  await screenshot(pb, '54-phones-sw-rematch-started');
  for (const x of [a, b]) {
    await x.context.close();
    assertClean(x.page);
  }
});
