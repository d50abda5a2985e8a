// The home page alerts too. With the home page in a background
// tab, the opponent's move in one of "My games" marks the title and favicon and makes a
// Notification (permission granted, asked for with a click); back in front, all is restored.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, fakeHiddenTab, assertClean, api } from '../lib/harness.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

test('home page: turn alert for one of my games while the tab is hidden', async () => {
  const { context, page } = await openPage(browser);
  await fakeHiddenTab(context); // records notifications, lets the test hide the tab
  // Asha is North: Baraka (South) has the first move.
  await page.goto('/');
  // The form starts nothing until the variants have come (home.js): wait for them.
  await page.waitForSelector('#variants input[value="kiswahili"]');
  await page.locator('input[name="opponent"][value="human"]').check();
  await page.selectOption('#side', 'N');
  await Promise.all([page.waitForURL(/\/g\//), page.click('#start-button')]);
  const seat = await page.evaluate(() => JSON.parse(localStorage.getItem('bao.seats'))[0]);
  const invite = (await api(`/api/games/${seat.id}`, { token: seat.token })).invite;
  const baraka = (await api(`/api/games/${seat.id}/join`, { method: 'POST', body: { invite, name: 'Baraka' } })).token;

  await page.goto('/');
  await page.waitForSelector(`#my-games li[data-game="${seat.id}"][data-turn="their"]`);
  await page.click('#my-games details summary');
  await page.click('#alert-notify');
  await page.waitForSelector('#alert-notify[aria-pressed="true"]');
  const title = await page.title();
  const icon = await page.getAttribute('link[rel~="icon"]', 'href');

  await page.evaluate(() => window.__setHidden(true));
  const st = await api(`/api/games/${seat.id}`, { token: baraka });
  await api(`/api/games/${seat.id}/moves`, { method: 'POST', token: baraka, body: { move: st.legal[0].move, ply: 0 } });
  await page.waitForSelector(`#my-games li[data-game="${seat.id}"][data-turn="your"]`);
  await page.waitForFunction(() => document.title.startsWith('(•)'));
  assert.match(await page.getAttribute('link[rel~="icon"]', 'href'), /^data:image\/svg\+xml,/);
  await page.waitForFunction(() => window.__notes.length === 1);
  assert.match((await page.evaluate(() => window.__notes[0])).body, /Baraka/);

  await page.evaluate(() => window.__setHidden(false));
  await page.waitForFunction((t) => document.title === t, title);
  assert.equal(await page.getAttribute('link[rel~="icon"]', 'href'), icon);
  assertClean(page);
  await context.close();
});
