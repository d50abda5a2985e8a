// Two people in two separate browser contexts (separate cookies)
// play each other through an invite link.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, assertClean, screenshot, api, waitForPly, clickMove, boardCounts, positionCounts } from '../lib/harness.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

test('two browsers play each other through an invite link', async () => {
  const alice = await openPage(browser);
  const bob = await openPage(browser, { viewport: { width: 420, height: 860 } }); // a phone-sized screen
  const a = alice.page;
  const b = bob.page;

  await a.goto('/');
  await a.locator('#variants input[value="kiswahili"]').check();
  await a.locator('input[name="opponent"][value="human"]').check();
  assert.ok(await a.locator('#level-row').isHidden(), 'no computer level for a human opponent');
  await a.selectOption('#side', 'S');
  await a.selectOption('#match', 'single_game');
  await a.fill('#name', 'Alice');
  await Promise.all([a.waitForURL(/\/g\//), a.click('#start-button')]);
  const id = new URL(a.url()).pathname.split('/')[2];
  await a.selectOption('#speed', '90');

  // The creator sees the invite link to copy, and waits.
  await a.waitForSelector('#invite:not([hidden])');
  const link = await a.inputValue('#invite-link');
  assert.match(link, new RegExp(`/g/${id}\\?invite=.+`));
  assert.match(await a.textContent('#turn-detail'), /not joined yet/);
  await screenshot(a, '02-invite-waiting');

  // The second person opens the link in another browser context and takes North's seat.
  await b.goto(link);
  await b.waitForFunction(() => !location.search.includes('invite'));
  await b.waitForSelector('#players .player[data-side="N"] .you');
  await b.selectOption('#speed', '90');
  // The invite box disappears for the creator once the seat is taken.
  await a.waitForSelector('#invite', { state: 'hidden' });
  await a.waitForSelector('#players .player[data-side="S"] .you');

  // Four plies, alternating; each side sees the other's move arrive live.
  let ply = 0;
  for (let i = 0; i < 4; i++) {
    const [mover, waiter] = i % 2 === 0 ? [a, b] : [b, a];
    await mover.waitForSelector('#board g.pit.legal');
    assert.equal(await waiter.locator('#board g.pit.legal').count(), 0, 'the waiting player has nothing to click');
    // South's first move: the start position offers A6 and A7 in both directions, so the
    // direction buttons must appear; pick the R direction to exercise them.
    const { move } = await clickMove(mover, (legal) => legal.find((l) => l.letter === 'R') || legal[0]);
    ply += 1;
    await waitForPly(mover, ply);
    await waitForPly(waiter, ply);
    const listed = await waiter.$$eval('#moves .mvtext', (xs) => xs.map((x) => x.textContent));
    assert.equal(listed[listed.length - 1], move, 'the other player sees the move in the list');
  }
  const s = await api(`/api/games/${id}`);
  assert.equal(s.ply, 4);
  assert.equal(s.players.S.name, 'Alice');
  for (const p of [a, b]) assert.deepEqual(await boardCounts(p), positionCounts(s.position), 'both boards show the server position');
  await screenshot(a, '02-invite-alice');
  await screenshot(b, '02-invite-bob-phone');
  assertClean(a);
  assertClean(b);
});

test('direction buttons: a pit with two directions asks which way before moving', async () => {
  const { page } = await openPage(browser);
  await page.goto('/');
  await page.locator('#variants input[value="kiswahili"]').check();
  await page.locator('input[name="opponent"][value="human"]').check();
  await page.selectOption('#side', 'S');
  await Promise.all([page.waitForURL(/\/g\//), page.click('#start-button')]);
  await page.waitForSelector('#board g.pit.legal');
  // Start position (KIS-4.3/4.4): A6 and A7 may be sown either way, the house A5 is barred.
  const pits = await page.$$eval('#board g.pit.legal', (gs) => gs.map((g) => g.dataset.pit).sort());
  assert.deepEqual(pits, ['A6', 'A7']);
  await page.click('#board g.pit.legal[data-pit="A7"]');
  const letters = await page.$$eval('#chooser button[data-letter]', (bs) => bs.map((b) => b.dataset.letter).sort());
  assert.deepEqual(letters, ['L', 'R']);
  await screenshot(page, '02-direction-choice');
  // Cancel leaves the position untouched.
  await page.click('#chooser button:has-text("Cancel")');
  assert.equal(await page.locator('#chooser button[data-letter]').count(), 0);
  assert.equal(await page.evaluate(() => document.querySelector('#board').dataset.ply), '0');
  assertClean(page);
});
