// Start a game against the computer from the home page and play it
// to the end by clicking pits. The start is a mtaji position in which every line of play ends
// within 5 plies (checked with `bao moves` when it was chosen, and re-checked below with
// `bao apply` against the server's record of the game).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, assertClean, screenshot, api, bao, waitForPly, shownPly, clickMove } from '../lib/harness.mjs';

// South can capture at once; North has 7 seeds, so the game is short whatever is played.
const START = 'kiswahili 0,0,1,0,1,0,0,0/1,0,0,1,0,1,2,0/1,7,6,2,4,4,1,2/4,4,2,4,2,3,2,9 S 0/0 - 80';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

test('a game against the computer is started from the home page and played to the end by clicking (BRD-7.2, BRD-7.3)', async () => {
  const { page } = await openPage(browser);
  await page.goto('/');
  // The form is built from GET /api/variants.
  await page.locator('#variants input[value="kiswahili"]').check();
  await page.locator('input[name="opponent"][value="computer"]').check();
  await page.locator('#level').fill('2');
  await page.selectOption('#side', 'S');
  await page.selectOption('#match', 'single_game');
  await page.fill('#name', 'Tester');
  await page.locator('#start-box summary').click();
  await page.fill('#start', START);
  await screenshot(page, '01-home-form');
  await Promise.all([page.waitForURL(/\/g\/[^/?]+$/), page.click('#start-button')]);
  const id = new URL(page.url()).pathname.split('/')[2];
  await page.selectOption('#speed', '0');
  await waitForPly(page, 80);

  const played = [];
  for (let i = 0; i < 12; i++) {
    const s = await api(`/api/games/${id}`);
    if (s.result !== '-') break;
    if (s.side_to_move === 'S') {
      // Our turn: the legal pits are highlighted and clickable.
      await page.waitForSelector('#board g.pit.legal');
      const highlighted = await page.$$eval('#board g.pit.legal', (gs) => gs.map((g) => g.dataset.pit).sort());
      const you = await page.evaluate(() => fetch(`/api/games/${location.pathname.split('/')[2]}`).then((r) => r.json()));
      assert.deepEqual(highlighted, [...new Set(you.legal.map((l) => l.pit))].sort(), 'exactly the legal pits are highlighted');
      const { move, ply } = await clickMove(page);
      played.push(move);
      await waitForPly(page, ply + 1);
    } else {
      // The computer answers by itself.
      await waitForPly(page, s.ply + 1, 30000);
    }
  }
  const final = await api(`/api/games/${id}`);
  assert.notEqual(final.result, '-', 'the game is over');
  assert.ok(played.length >= 1, 'at least one move was made by clicking');
  await page.waitForSelector('#result:not([hidden])');
  const headline = await page.textContent('#result-headline');
  assert.match(headline, final.result === 'S' ? /You win/ : final.result === 'N' ? /You lose/ : /drawn/);
  assert.ok((await page.textContent('#result-text')).trim().length > 0, 'the page says how the game ended');
  // No pit stays clickable after the end.
  assert.equal(await page.locator('#board g.pit.legal').count(), 0);

  // Independent check with the rules' command line: the moves replay to the same end.
  const moves = final.moves.map((m) => m.move);
  const out = bao('apply', START, ...moves);
  assert.equal(out[0], final.position, 'bao apply reaches the server position');
  assert.equal(out[1], final.result, 'bao apply gives the same result');
  // The move list on the page shows every move in canonical notation.
  const listed = await page.$$eval('#moves .mvtext', (xs) => xs.map((x) => x.textContent));
  assert.deepEqual(listed, moves);
  await screenshot(page, '01-computer-game-over');
  assertClean(page);
});

test('best of three against the computer: after game 1 the sides change and the match panel keeps score (BRD-8)', async () => {
  const { page } = await openPage(browser);
  await page.goto('/');
  await page.locator('#variants input[value="kiswahili"]').check();
  await page.locator('input[name="opponent"][value="computer"]').check();
  await page.selectOption('#side', 'S');
  await page.selectOption('#match', 'best_of_three');
  await page.locator('#start-box summary').click();
  await page.fill('#start', START);
  await Promise.all([page.waitForURL(/\/g\/[^/?]+$/), page.click('#start-button')]);
  const id = new URL(page.url()).pathname.split('/')[2];
  await page.selectOption('#speed', '0');
  await page.waitForSelector('#match:not([hidden])');
  for (let i = 0; i < 12; i++) {
    const s = await api(`/api/games/${id}`);
    if (s.match.game_no > 1) break;
    if (s.side_to_move === 'S') {
      await page.waitForSelector('#board g.pit.legal');
      const { ply } = await clickMove(page);
      await page.waitForFunction((p) => {
        const b = document.querySelector('#board');
        return (Number(b.dataset.ply) > p || !b.dataset.position.endsWith(` ${p}`)) && !b.classList.contains('animating');
      }, ply);
    } else {
      // The computer's turn: wait for its move (or the next game) to reach the page.
      await page.waitForFunction((p) => {
        const b = document.querySelector('#board');
        return Number(b.dataset.ply) > p || /game 2/.test(document.querySelector('#match-tag').textContent);
      }, s.ply);
    }
  }
  const s = await api(`/api/games/${id}`);
  assert.equal(s.match.game_no, 2, 'the second game has begun');
  assert.equal(s.match.games.length, 1);
  // The page follows: game 2, we now sit North, and game 1 is listed with its result.
  await page.waitForFunction(() => /game 2/.test(document.querySelector('#match-tag').textContent));
  await page.waitForSelector('#players .player[data-side="N"] .you');
  const listed = await page.textContent('#match-games');
  assert.match(listed, /Game 1 .*(won|drawn)/);
  assert.match(await page.textContent('#page-status'), /Game 1 is over/);
  await screenshot(page, '01-best-of-three-game-2');
  // Game 1 can be replayed from the match panel.
  await Promise.all([page.waitForURL(/\/replay\?game=.*game_no=1/), page.click('#match-games a')]);
  await page.waitForSelector('#viewer:not([hidden])');
  const past = await api(`/api/games/${id}?game_no=1`);
  const rows = await page.$$eval('#moves button.mv', (bs) => bs.map((b) => b.textContent));
  assert.deepEqual(rows, past.moves.map((m) => m.move));
  assertClean(page);
});
