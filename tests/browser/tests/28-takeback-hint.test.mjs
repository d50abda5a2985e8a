// Takeback and hint (docs/api.md "Play"): against the computer, a hint names a legal move, and a
// takeback returns to the position before the player's last move.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, assertClean, screenshot, api, waitForPly, clickMove } from '../lib/harness.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

test('takeback and hint against the computer', async () => {
  const { page } = await openPage(browser, { viewport: { width: 1280, height: 800 } });
  await page.goto('/');
  await page.locator('#variants input[value="kiswahili"]').check();
  await page.locator('input[name="opponent"][value="computer"]').check();
  await page.selectOption('#side', 'S');
  await page.selectOption('#match', 'single_game');
  await Promise.all([page.waitForURL(/\/g\//), page.click('#start-button')]);
  const id = new URL(page.url()).pathname.split('/')[2];
  await page.selectOption('#speed', '0');
  const start = await api(`/api/games/${id}`);
  await page.waitForSelector('#play-hint:not([hidden])');
  assert.ok(await page.locator('#play-takeback').isHidden(), 'nothing to take back yet');
  await page.click('#play-hint');
  await page.waitForFunction(() => document.querySelector('#play-note').dataset.move);
  const hinted = await page.getAttribute('#play-note', 'data-move');
  assert.ok(start.legal.some((l) => l.move === hinted), `the hint ${hinted} is legal`);
  await clickMove(page);
  await waitForPly(page, 2); // the computer answered
  await page.waitForSelector('#play-takeback:not([hidden])');
  await screenshot(page, '28-takeback-before');
  await page.click('#play-takeback');
  await page.waitForFunction(() => document.querySelector('#board').dataset.ply === '0');
  const s = await api(`/api/games/${id}`);
  assert.equal(s.ply, 0);
  assert.equal(s.position, start.position);
  await screenshot(page, '28-takeback-after');
  assertClean(page);
});
