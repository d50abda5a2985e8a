// Rematch (docs/api.md "Play"): after a game, one player asks for a rematch, the other sees the
// offer and accepts; both land on the same new game, with the sides swapped.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, assertClean, screenshot } from '../lib/harness.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

test('a rematch between two browsers', async () => {
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

  // Alice resigns; both see the end and Alice asks for a rematch.
  a.on('dialog', (d) => d.accept());
  await a.click('#resign');
  await a.waitForSelector('#play-rematch:not([hidden])');
  await b.waitForSelector('#play-rematch:not([hidden])');
  await Promise.all([a.waitForURL((u) => !u.pathname.endsWith(id)), a.click('#play-rematch')]);
  const newId = new URL(a.url()).pathname.split('/')[2];
  assert.notEqual(newId, id);

  // Bob is offered it on his page, live, and accepts.
  await b.waitForFunction(() => document.querySelector('#play-rematch')?.textContent.length > 0 && !document.querySelector('#play-rematch-open').hidden);
  assert.ok((await b.textContent('#play-note')).length > 0, 'the offer is shown');
  await screenshot(b, '26-rematch-offer-phone');
  await Promise.all([b.waitForURL((u) => u.pathname.endsWith(newId)), b.click('#play-rematch')]);
  // Sides swapped: Bob now plays South and moves first; Alice North.
  await b.waitForSelector('#players .player[data-side="S"] .you');
  await a.waitForSelector('#players .player[data-side="N"] .you');
  await b.waitForSelector('#board g.pit.legal');
  await screenshot(a, '26-rematch-alice');
  assertClean(a);
  assertClean(b);
});
