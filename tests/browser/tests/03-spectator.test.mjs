// A spectator (no seat, no cookie) watches a game live and sees
// every move as it is played; the home page lists the game under "Watch live".
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, assertClean, screenshot, api, waitForPly, boardCounts, positionCounts } from '../lib/harness.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

test('a spectator sees the moves of a live game as they are played', async () => {
  // Two players seated through the API, so the browser is a pure spectator.
  const created = await api('/api/games', {
    method: 'POST',
    body: { variant: 'kimasai', rules: '-', opponent: { kind: 'human' }, side: 'S', match: 'single_game', name: 'Sam' },
  });
  assert.ok(created.invite, 'a human game has an invite code');
  const joined = await api(`/api/games/${created.id}/join`, { method: 'POST', body: { invite: created.invite, name: 'Nia' } });
  const tokens = { [created.seat]: created.token, [joined.seat]: joined.token };

  // "Watch live" lists games with a move: South plays the first one.
  const first = await api(`/api/games/${created.id}`);
  await api(`/api/games/${created.id}/moves`, { method: 'POST', token: tokens.S, body: { move: first.legal[0].move, ply: 0 } });

  const { page } = await openPage(browser);
  await page.goto('/');
  await page.waitForSelector(`#live-games a[href="/g/${created.id}"]`);
  await Promise.all([page.waitForURL(new RegExp(`/g/${created.id}$`)), page.click(`#live-games a[href="/g/${created.id}"]`)]);
  await page.selectOption('#speed', '90');
  await waitForPly(page, 1);
  await page.waitForFunction(() => /Live/.test(document.querySelector('#connection').textContent));
  assert.match(await page.textContent('#turn-detail'), /watching/);
  assert.equal(await page.locator('#resign').isHidden(), true, 'a spectator cannot resign');

  for (let i = 0; i < 6; i++) {
    const s = await api(`/api/games/${created.id}`);
    if (s.result !== '-') break;
    const mv = s.legal[s.legal.length - 1].move;
    await api(`/api/games/${created.id}/moves`, { method: 'POST', token: tokens[s.side_to_move], body: { move: mv, ply: s.ply } });
    // The spectator's page follows over the WebSocket, without reloading.
    await waitForPly(page, s.ply + 1, 15000);
    const listed = await page.$$eval('#moves .mvtext', (xs) => xs.map((x) => x.textContent));
    assert.equal(listed[listed.length - 1], mv);
    assert.equal(await page.locator('#board g.pit.legal').count(), 0, 'nothing is clickable for a spectator');
  }
  const s = await api(`/api/games/${created.id}`);
  assert.deepEqual(await boardCounts(page), positionCounts(s.position));
  const names = await page.textContent('#players');
  assert.match(names, /Sam/);
  assert.match(names, /Nia/);
  await screenshot(page, '03-spectator');
  assertClean(page);
});
