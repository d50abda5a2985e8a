// Rematch (docs/api.md "Play: rematch"): after a game, one player offers a rematch and the other
// sees the offer live on their page. Declined, no game is made and the asker reads why; offered
// again the other way round and accepted, both land on the same new game with the sides swapped.
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

test('a rematch offered, declined, offered again and accepted between two browsers', async () => {
  const alice = await openPage(browser);
  const bob = await openPage(browser, { viewport: { width: 360, height: 640 } });
  const a = alice.page;
  const b = bob.page;
  await a.goto('/');
  await a.locator('#variants input[value="kiswahili"]').check();
  await a.locator('input[name="opponent"][value="human"]').check();
  await a.selectOption('#side', 'S');
  await a.selectOption('#match', 'single_game');
  await Promise.all([a.waitForURL(/\/g\//), a.click('#start-button')]);
  const id = new URL(a.url()).pathname.split('/')[2];
  await a.waitForSelector('#invite:not([hidden])');
  await b.goto(await a.inputValue('#invite-link'));
  await b.waitForSelector('#players .player[data-side="N"] .you');
  await a.waitForSelector('#invite', { state: 'hidden' });

  // Alice resigns; both see the end and Alice offers a rematch: no game is made yet.
  a.on('dialog', (d) => d.accept());
  await a.click('#resign');
  await a.waitForSelector('#play-rematch:not([hidden])');
  await b.waitForSelector('#play-rematch:not([hidden])');
  await a.click('#play-rematch');
  await a.waitForSelector('#play-rematch-box[data-status="offered-mine"]');
  assert.ok(a.url().endsWith(`/g/${id}`), 'Alice stays on the game: nothing was made');
  assert.ok(await a.isVisible('#play-rematch-cancel'), 'Alice can withdraw her offer');
  assert.ok(!(await a.isVisible('#play-rematch')), 'no second offer while one waits');

  // Bob sees it live, with Accept and Decline, and declines.
  await b.waitForSelector('#play-rematch-box[data-status="offered-theirs"]');
  assert.ok(await b.isVisible('#play-rematch-decline'));
  await screenshot(b, '26-rematch-offer-phone');
  await b.click('#play-rematch-decline');
  await b.waitForSelector('#play-rematch-box[data-status="declined-theirs"]');
  await a.waitForSelector('#play-rematch-box[data-status="declined-mine"]');
  assert.match(await a.textContent('#play-rematch-text'), /\S/);
  assert.ok(!(await a.isVisible('#play-rematch')), 'Alice cannot offer again after a refusal');
  const old = await api(`/api/games/${id}`);
  assert.equal(old.rematch.status, 'declined');
  assert.equal(old.rematch.id, undefined, 'a declined rematch makes no game');

  // Bob changes his mind and offers one himself; Alice accepts; both reach the same new game.
  await b.click('#play-rematch');
  await a.waitForSelector('#play-rematch-box[data-status="offered-theirs"]');
  await Promise.all([a.waitForURL((u) => !u.pathname.endsWith(id)), a.click('#play-rematch')]);
  const newId = new URL(a.url()).pathname.split('/')[2];
  assert.notEqual(newId, id);
  await b.waitForURL((u) => u.pathname.endsWith(newId));
  // Sides swapped: Bob now plays South and moves first; Alice North.
  await b.waitForSelector('#players .player[data-side="S"] .you');
  await a.waitForSelector('#players .player[data-side="N"] .you');
  await b.waitForSelector('#board g.pit.legal');
  await screenshot(a, '26-rematch-alice');
  assertClean(a);
  assertClean(b);
});
