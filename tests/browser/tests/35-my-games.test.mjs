// "My games" on the home page (docs/api.md "POST /api/games/mine"). The browser keeps the seats it
// takes (static/seats.js) and lists whose move it is in each game; the list follows the
// opponent's moves live (lobby socket -> POST /api/games/mine) and finished games can be removed.
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

/** Starts a game against a person from the home page form; returns its id. */
async function startGame(page, side) {
  await page.goto('/');
  await page.locator('#variants input[value="kiswahili"]').check();
  await page.locator('input[name="opponent"][value="human"]').check();
  await page.selectOption('#side', side);
  await page.selectOption('#match', 'single_game');
  await page.fill('#name', 'Asha');
  await Promise.all([page.waitForURL(/\/g\//), page.click('#start-button')]);
  return new URL(page.url()).pathname.split('/')[2];
}

const row = (page, id) => page.locator(`#my-games li[data-game="${id}"]`);

test('my games: whose move, live updates, newest first, remove finished', async () => {
  const { context, page } = await openPage(browser);
  const g1 = await startGame(page, 'S'); // Asha is South: her move
  const g2 = await startGame(page, 'N'); // Asha is North: South (Baraka) moves first
  const seats = await page.evaluate(() => JSON.parse(localStorage.getItem('bao.seats')));
  assert.deepEqual(
    seats.map((s) => [s.id, s.side]),
    [
      [g2, 'N'],
      [g1, 'S'],
    ],
    'both seats kept in localStorage, newest first',
  );
  const tokens = Object.fromEntries(seats.map((s) => [s.id, s.token]));

  // Baraka takes the other seat of both games (from outside the browser).
  const invite = async (id) => (await api(`/api/games/${id}`, { token: tokens[id] })).invite;
  const baraka = {};
  for (const id of [g1, g2]) {
    baraka[id] = (await api(`/api/games/${id}/join`, { method: 'POST', body: { invite: await invite(id), name: 'Baraka' } })).token;
  }

  await page.goto('/');
  await page.waitForSelector('#my-games:not([hidden])');
  await row(page, g1).waitFor();
  await row(page, g2).waitFor();
  assert.equal(await row(page, g1).getAttribute('data-turn'), 'your');
  assert.equal(await row(page, g2).getAttribute('data-turn'), 'their');
  assert.match(await row(page, g2).textContent(), /Baraka/);
  // The games joined last changed last: g2 first.
  assert.deepEqual(await page.$$eval('#my-games li[data-game]', (xs) => xs.map((x) => x.dataset.game)), [g2, g1]);
  await page.waitForSelector('#mine-connection[data-connection="open"]');

  // Baraka (South) moves in g2; the home page hears it on the lobby socket and asks again:
  // now it is Asha's move in both.
  const s2 = await api(`/api/games/${g2}`, { token: baraka[g2] });
  await api(`/api/games/${g2}/moves`, { method: 'POST', token: baraka[g2], body: { move: s2.legal[0].move, ply: s2.ply } });
  await page.waitForSelector(`#my-games li[data-game="${g2}"][data-turn="your"]`);
  assert.equal(await row(page, g1).getAttribute('data-turn'), 'your');

  // Asha moves in g1: after the update g1 is "their move" and the most recent.
  const s1 = await api(`/api/games/${g1}`, { token: tokens[g1] });
  await api(`/api/games/${g1}/moves`, { method: 'POST', token: tokens[g1], body: { move: s1.legal[0].move, ply: s1.ply } });
  await page.waitForSelector(`#my-games li[data-game="${g1}"][data-turn="their"]`);
  assert.deepEqual(await page.$$eval('#my-games li[data-game]', (xs) => xs.map((x) => x.dataset.game)), [g1, g2]);

  for (const [w, h] of [
    [360, 640],
    [1280, 800],
  ]) {
    await page.setViewportSize({ width: w, height: h });
    await screenshot(page, `35-my-games-${w}x${h}`);
  }

  // Baraka resigns g2: finished, with a Remove button that forgets the seat.
  const s2b = await api(`/api/games/${g2}`, { token: baraka[g2] });
  await api(`/api/games/${g2}/resign`, { method: 'POST', token: baraka[g2], body: { game_no: 1, ply: s2b.ply } });
  await page.waitForSelector(`#my-games li[data-game="${g2}"][data-turn="over"]`);
  await row(page, g2).locator('button.remove').click();
  await row(page, g2).waitFor({ state: 'detached' });
  const left = await page.evaluate(() => JSON.parse(localStorage.getItem('bao.seats')).map((s) => s.id));
  assert.deepEqual(left, [g1]);

  // A seat the server does not know (a deleted database, a mistyped token) is forgotten.
  await page.evaluate(() => {
    const s = JSON.parse(localStorage.getItem('bao.seats'));
    s.push({ id: 'nosuchgame1', token: '0'.repeat(32), side: 'S' });
    localStorage.setItem('bao.seats', JSON.stringify(s));
  });
  await page.reload();
  await row(page, g1).waitFor();
  await page.waitForFunction(() => !localStorage.getItem('bao.seats').includes('nosuchgame1'));

  // A finished game leaves by itself 3 days after this browser first saw it finished.
  const s1c = await api(`/api/games/${g1}`, { token: tokens[g1] });
  await api(`/api/games/${g1}/resign`, { method: 'POST', token: tokens[g1], body: { game_no: 1, ply: s1c.ply } });
  await page.waitForSelector(`#my-games li[data-game="${g1}"][data-turn="over"]`);
  await page.waitForFunction(() => JSON.parse(localStorage.getItem('bao.seats'))[0].finished > 0);
  await page.evaluate((id) => {
    const s = JSON.parse(localStorage.getItem('bao.seats'));
    for (const x of s) if (x.id === id) x.finished = Date.now() - 4 * 24 * 3600 * 1000;
    localStorage.setItem('bao.seats', JSON.stringify(s));
  }, g1);
  await page.reload();
  await page.waitForFunction(() => JSON.parse(localStorage.getItem('bao.seats')).length === 0);
  await page.waitForSelector('#my-games', { state: 'hidden' });
  assertClean(page);
  await context.close();
});
