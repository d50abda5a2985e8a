// On the replay page, Next and Back clicked while a move is animating finish that
// animation at once and step on (5 clicks are 5 moves), and Skip finishes it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, assertClean, api, boardCounts, positionCounts, bao, stepIs } from '../lib/harness.mjs';

const START = 'kiswahili'; // the start position
const PLIES = 12;
const SLOW_MS = 600; // the page's "Slow" speed: milliseconds per seed event

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/**
 * PLIES plies from START that do not end the game, found depth first, longest move first (by
 * its `bao trace` event lines), so that some moves animate for a long time.
 */
function longGame() {
  const search = (pos, plies) => {
    if (plies.length === PLIES) return plies;
    const legal = bao('moves', pos).map((l) => l.split('\t'));
    const scored = legal
      .filter((l) => l.length === 3 && l[2] === '-')
      .map(([mv, next]) => ({ mv, next, events: bao('trace', pos, mv).length }))
      .sort((a, b) => b.events - a.events);
    for (const m of scored) {
      const found = search(m.next, [...plies, m]);
      if (found) return found;
    }
    return null;
  };
  const moves = search(START, []);
  assert.ok(moves, `a ${PLIES}-ply game from the start`);
  return { moves, result: '-' };
}

function record({ moves, result }) {
  const numbered = moves.map((m, i) => (i % 2 === 0 ? `${i / 2 + 1}. ${m.mv}` : m.mv)).join(' ');
  return [
    '[Variant "kiswahili"]',
    '[Rules "-"]',
    '[South "Asha"]',
    '[North "Juma"]',
    '[Date "2026.11.30"]',
    `[Result "${result}"]`,
    '',
    `${numbered} ${result}`,
    '',
  ].join('\n');
}

test('Next and Back during an animation finish it and step; Skip finishes it', async () => {
  const g = longGame();
  const { page } = await openPage(browser);
  await page.goto('/replay');
  await page.fill('#record-text', record(g));
  await page.click('#upload-form button[type="submit"]');
  await page.waitForSelector('#viewer:not([hidden])');
  await stepIs(page, 0);
  const id = new URL(page.url()).searchParams.get('game');
  const s = await api(`/api/games/${id}`);
  assert.deepEqual(
    s.moves.map((m) => m.move),
    g.moves.map((m) => m.mv),
  );
  await page.selectOption('#speed', String(SLOW_MS));
  assert.ok(await page.isDisabled('#skip'), 'Skip is off while nothing moves');

  // Five clicks on Next, four of them while a move is animating: five plies.
  await page.click('#next');
  await page.waitForSelector('#board.animating');
  assert.ok(await page.isEnabled('#skip'), 'Skip is on during an animation');
  for (let i = 0; i < 4; i++) await page.click('#next');
  // The fifth move may animate in full: at the instant speed (the clicks are what is tested).
  await page.selectOption('#speed', '0');
  await stepIs(page, 5);
  assert.equal(await page.textContent('#pos'), `5 / ${PLIES}`);
  assert.deepEqual(await boardCounts(page), positionCounts(s.moves[4].position), 'board after 5 plies');

  // Back while move 6 animates: the move is finished, then one step back.
  await page.selectOption('#speed', String(SLOW_MS));
  await page.click('#next');
  await page.waitForSelector('#board.animating');
  await page.click('#prev');
  await stepIs(page, 5);
  assert.deepEqual(await boardCounts(page), positionCounts(s.moves[4].position), 'board back at ply 5');

  // Skip: the longest move would animate for many seconds at this speed; Skip ends it well
  // before.
  const k = g.moves.reduce((best, m, i) => (m.events > g.moves[best].events ? i : best), 0);
  const full = g.moves[k].events * SLOW_MS;
  assert.ok(full >= 15000, `move ${k + 1} animates for ${full} ms at the slow speed`);
  if (k > 0) await page.click(`#moves button.mv[data-step="${k}"]`);
  else await page.click('#first');
  await stepIs(page, k);
  await page.click('#next');
  await page.waitForSelector('#board.animating');
  const clicked = Date.now();
  await page.click('#skip');
  await stepIs(page, k + 1);
  const took = Date.now() - clicked;
  assert.ok(took < full / 2, `Skip finished the animation in ${took} ms (the whole would take ${full} ms)`);
  assert.deepEqual(await boardCounts(page), positionCounts(s.moves[k].position), `board after ply ${k + 1}`);
  assert.ok(await page.isDisabled('#skip'), 'Skip is off again');
  assertClean(page);
});
