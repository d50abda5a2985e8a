// The sockets come back. The game page and the home page's lobby
// say "Connection lost" when the network goes, reconnect by themselves when it is back, and
// the game page catches up with a move made meanwhile. The back-off is jittered and capped.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, assertClean, screenshot, api, waitForPly } from '../lib/harness.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

test('game and lobby sockets reconnect after the connection drops', async () => {
  const created = await api('/api/games', { method: 'POST', body: { variant: 'kiswahili', opponent: { kind: 'human' }, side: 'S', match: 'single_game', name: 'Asha' } });
  const id = created.id;
  const baraka = (await api(`/api/games/${id}/join`, { method: 'POST', body: { invite: created.invite, name: 'Baraka' } })).token;

  const { context, page } = await openPage(browser);
  await page.goto(`/g/${id}`); // a spectator
  await page.waitForSelector('#connection[data-connection="open"]');
  await waitForPly(page, 0);

  await context.setOffline(true);
  await page.waitForSelector('#connection[data-connection="lost"]');
  await screenshot(page, '37-connection-lost');
  // A move while this browser is offline.
  const s = await api(`/api/games/${id}`, { token: created.token });
  await api(`/api/games/${id}/moves`, { method: 'POST', token: created.token, body: { move: s.legal[0].move, ply: 0 } });
  await context.setOffline(false);
  await page.waitForSelector('#connection[data-connection="open"]');
  await waitForPly(page, 1);

  // And the live feed works again: Baraka's move arrives over the new socket.
  const s1 = await api(`/api/games/${id}`, { token: baraka });
  await api(`/api/games/${id}/moves`, { method: 'POST', token: baraka, body: { move: s1.legal[0].move, ply: 1 } });
  await waitForPly(page, 2);

  // The lobby socket of the home page does the same.
  await page.goto('/');
  await page.waitForSelector('#mine-connection[data-connection="open"]', { state: 'attached' });
  await context.setOffline(true);
  await page.waitForSelector('#mine-connection[data-connection="lost"]', { state: 'attached' });
  await context.setOffline(false);
  await page.waitForSelector('#mine-connection[data-connection="open"]', { state: 'attached' });

  // Back-off: 1 s, 2 s, 4 s ... capped at 30 s, each a random 50-100 % of that.
  const waits = await page.evaluate(async () => {
    const { backoff } = await import('/static/socket.js');
    return [1, 2, 3, 6, 7, 20].map((n) => [backoff(n, () => 0), backoff(n, () => 1)]);
  });
  assert.deepEqual(waits, [
    [500, 1000],
    [1000, 2000],
    [2000, 4000],
    [15000, 30000],
    [15000, 30000],
    [15000, 30000],
  ]);
  assertClean(page, { allowConsole: [/ERR_INTERNET_DISCONNECTED|WebSocket|Failed to load resource/] });
  await context.close();
});
