// A turn alert in a hidden tab. When the opponent moves while the
// game's tab is in the background, the title gets "(•)", the favicon a dot, a sound plays (if
// turned on) and a Notification is made (the player allowed it with a click); all of it goes
// away when the tab is visible again.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, fakeHiddenTab, assertClean, screenshot, api, waitForPly, clickMove } from '../lib/harness.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

test('turn alert in a hidden tab: title, favicon, sound, notification', async () => {
  const { context, page } = await openPage(browser);
  await fakeHiddenTab(context); // records notifications, lets the test hide the tab

  await page.goto('/');
  // The form starts nothing until the variants have come (home.js): wait for them.
  await page.waitForSelector('#variants input[value="kiswahili"]');
  await page.locator('input[name="opponent"][value="human"]').check();
  await page.selectOption('#side', 'S');
  await page.selectOption('#match', 'single_game');
  await Promise.all([page.waitForURL(/\/g\//), page.click('#start-button')]);
  const id = new URL(page.url()).pathname.split('/')[2];
  await page.selectOption('#speed', '0');
  const seat = await page.evaluate(() => JSON.parse(localStorage.getItem('bao.seats'))[0]);
  assert.equal(seat.id, id);
  const invite = (await api(`/api/games/${id}`, { token: seat.token })).invite;
  const baraka = (await api(`/api/games/${id}/join`, { method: 'POST', body: { invite, name: 'Baraka' } })).token;

  // The player asks for alerts with a click (permission is asked then, never before).
  await page.waitForSelector('#turn-alerts:not([hidden])');
  await page.click('#alert-notify');
  await page.waitForSelector('#alert-notify[aria-pressed="true"]');
  await page.check('#alert-sound');
  await screenshot(page, '36-alert-settings');

  await clickMove(page);
  await waitForPly(page, 1);
  const title = await page.title();
  const icon = await page.getAttribute('link[rel~="icon"]', 'href');
  assert.ok(!title.startsWith('(•)'));

  // The tab goes to the background; Baraka moves.
  await page.evaluate(() => window.__setHidden(true));
  const st = await api(`/api/games/${id}`, { token: baraka });
  await api(`/api/games/${id}/moves`, { method: 'POST', token: baraka, body: { move: st.legal[0].move, ply: st.ply } });
  await page.waitForFunction(() => document.title.startsWith('(•)'));
  assert.match(await page.title(), /^\(•\) .+ – bao$/);
  assert.match(await page.getAttribute('link[rel~="icon"]', 'href'), /^data:image\/svg\+xml,/);
  await page.waitForFunction(() => window.__notes.length === 1);
  const notes = await page.evaluate(() => window.__notes);
  assert.match(notes[0].body, /Baraka/);
  assert.equal(await page.evaluate(() => document.documentElement.dataset.turnSound), '1', 'one sound played');

  // Back to the front: title and favicon are restored.
  await page.evaluate(() => window.__setHidden(false));
  await page.waitForFunction((t) => document.title === t, title);
  assert.equal(await page.getAttribute('link[rel~="icon"]', 'href'), icon);

  // A move seen while the tab is visible alerts nobody.
  await clickMove(page);
  await waitForPly(page, 3);
  const st3 = await api(`/api/games/${id}`, { token: baraka });
  await api(`/api/games/${id}/moves`, { method: 'POST', token: baraka, body: { move: st3.legal[0].move, ply: st3.ply } });
  await waitForPly(page, 4);
  assert.equal(await page.evaluate(() => window.__notes.length), 1);
  assert.ok(!(await page.title()).startsWith('(•)'));
  assertClean(page);
  await context.close();
});
