// Clocks (docs/api.md "Clocks"): the clocks count down on the page, and a clock that runs out ends
// the game on time (decided by the server; the page shows it). The home form offers clocks.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, assertClean, screenshot, api } from '../lib/harness.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

test('a clock runs out: the page shows the loss on time', async () => {
  const g = await api('/api/games', {
    method: 'POST',
    body: { variant: 'kiswahili', opponent: { kind: 'human' }, side: 'S', match: 'single_game', clock: { initial_ms: 4000, increment_ms: 0 } },
  });
  await api(`/api/games/${g.id}/join`, { method: 'POST', body: { invite: g.invite, name: 'Baraka' } });
  const { page } = await openPage(browser, { viewport: { width: 360, height: 640 } });
  await page.goto(`/g/${g.id}`);
  await page.waitForSelector('#clock-S.running');
  // The page counts down by itself between the server's figures.
  const first = Number(await page.getAttribute('#clock-S', 'data-ms'));
  await page.waitForFunction((ms) => Number(document.querySelector('#clock-S').dataset.ms) < ms, first);
  await screenshot(page, '25-clock-running-phone');
  // The loss on time in words, in the banner and the result box (static/words.js).
  await page.waitForSelector('#result:not([hidden])');
  assert.match(await page.textContent('#result-text'), /South ran out of time/);
  assert.match(await page.textContent('#turn'), /South ran out of time/);
  await page.waitForSelector('#clock-S.out');
  assert.equal(await page.locator('#clock-S.running').count(), 0, 'no clock runs after the game');
  const s = await api(`/api/games/${g.id}`);
  assert.equal(s.termination, 'time');
  assert.equal(s.result, 'N');
  await screenshot(page, '25-clock-out-phone');
  assertClean(page);
});

test('the home form starts a game with a clock', async () => {
  const { page } = await openPage(browser, { viewport: { width: 1280, height: 800 } });
  await page.goto('/');
  await page.locator('#variants input[value="kete"]').check();
  await page.locator('input[name="opponent"][value="computer"]').check();
  await page.selectOption('#side', 'N');
  await page.selectOption('#match', 'single_game');
  await page.selectOption('#clock', '5+3');
  await Promise.all([page.waitForURL(/\/g\//), page.click('#start-button')]);
  const id = new URL(page.url()).pathname.split('/')[2];
  await page.waitForSelector('#clock-N');
  const s = await api(`/api/games/${id}`);
  assert.deepEqual(s.clock.control, { initial_ms: 300000, increment_ms: 3000 });
  assert.ok(Number(await page.getAttribute('#clock-N', 'data-ms')) <= 300000);
  await screenshot(page, '25-clock-desktop');
  assertClean(page);
});
