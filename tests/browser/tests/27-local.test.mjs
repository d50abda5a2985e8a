// Pass and play on one page (docs/api.md "Pass and play"); the page says whose move it is and
// turns the board to the player to move.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, assertClean, screenshot, waitForPly, clickMove } from '../lib/harness.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

test('pass and play: one page plays both sides', async () => {
  const { page } = await openPage(browser, { viewport: { width: 360, height: 640 } });
  await page.goto('/');
  await page.locator('#variants input[value="kiswahili"]').check();
  await page.locator('input[name="opponent"][value="local"]').check();
  assert.ok(await page.locator('#level-row').isHidden(), 'no computer level');
  await page.selectOption('#match', 'single_game');
  await Promise.all([page.waitForURL(/\/g\//), page.click('#start-button')]);
  await page.selectOption('#speed', '0');
  await page.waitForSelector('#play-local:not([hidden])');
  assert.match(await page.textContent('#play-local'), /South/);
  assert.equal(await page.isChecked('#flip'), false, 'South sees the board from South');
  for (let ply = 1; ply <= 4; ply++) {
    await page.waitForSelector('#board g.pit.legal');
    await clickMove(page);
    await waitForPly(page, ply);
    const side = ply % 2 === 1 ? 'North' : 'South';
    await page.waitForFunction((w) => document.querySelector('#play-local').textContent.includes(w), side);
    assert.equal(await page.isChecked('#flip'), ply % 2 === 1, 'the board turns to the player to move');
    // The bars turn with it: the player to move has their own bar (and clock) below the board.
    const mover = ply % 2 === 1 ? 'N' : 'S';
    assert.deepEqual(
      await page.evaluate(() => [document.querySelector('#board').previousElementSibling.id, document.querySelector('#board').nextElementSibling.id]),
      [`player-${mover === 'N' ? 'S' : 'N'}`, `player-${mover}`],
    );
  }
  await screenshot(page, '27-local-phone');
  assertClean(page);
});
