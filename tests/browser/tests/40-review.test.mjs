// The review of a finished game (docs/api.md "Review", docs/review.md) on the replay page
// (evaluation graph, marks in the move list, the best move on the board), and the game page's
// "Review this game" link.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, assertClean, screenshot, api, stepIs, randomGame, resignedRecord, uploadRecord } from '../lib/harness.mjs';

const PLIES = 16;

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const randomMoves = (seed) => randomGame(seed, PLIES).moves;

test('a finished game is reviewed: graph, marks and the best move on the board', async () => {
  const moves = randomMoves(7);
  const id = await uploadRecord(resignedRecord(moves));
  const { page } = await openPage(browser);
  await page.goto(`/replay?game=${id}`);
  await page.waitForSelector('#viewer:not([hidden])');
  await page.waitForSelector('#review-start:not([hidden]):not([disabled])');
  await page.click('#review-start');
  await page.waitForSelector('#review-panel[data-state="done"]', { timeout: 180000 });
  const r = await api(`/api/games/${id}/review?game_no=1`);
  assert.equal(r.state, 'done');
  assert.deepEqual(
    r.plies.map((p) => p.move),
    moves,
  );
  // One graph point per move; every marked move has its mark in the move list.
  assert.equal(await page.locator('#review-graph circle.point').count(), PLIES);
  const marked = r.plies.filter((p) => p.mark !== '-');
  assert.equal(await page.locator('#moves .review-mark').count(), marked.length);
  for (const p of marked) {
    const text = await page.locator(`#moves .mv[data-step="${p.ply}"] + .review-mark`).textContent();
    assert.equal(text, p.mark);
  }
  // The summary table shows both players' counts.
  const rows = await page.locator('#review-summary tbody tr').allTextContents();
  assert.equal(rows.length, 2);
  // Clicking a point goes to that move; the board marks the best move of the next ply.
  await page.click('#review-graph circle[data-step="5"]');
  await stepIs(page, 5);
  const best = r.plies[5].best;
  await page.waitForFunction((b) => document.querySelector('#board').dataset.best === b, best);
  const pit = /^([AaBb][1-8])/.exec(best)[1];
  assert.equal(await page.locator(`#board [data-pit="${pit}"].review-best`).count(), 1);
  assert.equal(await page.locator('#board .review-best').count(), 1);
  assert.match(await page.locator('#review-here').textContent(), new RegExp(best.replace(/[*+]/g, '\\$&')));
  await screenshot(page, '40-review-1280');
  await page.setViewportSize({ width: 360, height: 640 });
  await screenshot(page, '40-review-360');
  // Reloading shows the review made without a click.
  await page.reload();
  await page.waitForSelector('#review-panel[data-state="done"]');
  assertClean(page);
});

test('the game page of a finished game offers "Review this game", which starts it', async () => {
  const moves = randomMoves(11);
  const id = await uploadRecord(resignedRecord(moves));
  const { page } = await openPage(browser, { viewport: { width: 360, height: 640 } });
  await page.goto(`/g/${id}`);
  const link = page.locator('#review-link');
  await link.waitFor({ state: 'visible' });
  assert.match(await link.getAttribute('href'), new RegExp(`^/replay\\?game=${id}&game_no=1&review=1$`));
  await link.click();
  await page.waitForSelector('#review-panel[data-state="done"]', { timeout: 180000 });
  assert.equal(await page.locator('#review-graph circle.point').count(), PLIES);
  // A game not over has no review to offer.
  const open = await api('/api/games', { method: 'POST', body: { variant: 'kiswahili', rules: '-', opponent: { kind: 'human' }, side: 'S', match: 'single_game', name: 'Asha' } });
  await page.goto(`/g/${open.id}`);
  await page.waitForSelector('#board svg');
  assert.equal(await page.locator('#review-link:visible').count(), 0);
  assertClean(page);
});
