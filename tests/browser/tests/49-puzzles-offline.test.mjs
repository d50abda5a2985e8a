// Offline puzzles (docs/api.md "Puzzles", "Offline"): after one visit online the service worker
// keeps each game's puzzle pack and the /puzzles page. With no network, on a phone in Swahili,
// the page opens from the cache, says it is offline and that ratings wait for the network,
// judges a wrong move and then the line's moves from the pack (the positions from the browser
// engine), shows the opponent's answers, ends solved and keeps the solved id in the browser.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, assertClean, api, axeViolations, axeReport, boardCounts, positionCounts, screenshot } from '../lib/harness.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** Plays `move` on the board: its pit, then (if asked) the button of the exact move. */
async function play(page, move) {
  const before = await page.locator('#feedback').textContent();
  await page.locator(`#board g.pit.legal[data-pit="${move.slice(0, 2)}"]`).click();
  // Either the chooser asks which way (a button per move) or the pit's only move was sent.
  await page
    .waitForFunction(
      ([m, b]) => document.querySelector(`#chooser button[data-move="${m}"]`) || document.querySelector('#feedback').textContent !== b,
      [move, before],
    )
    .catch(async (e) => {
      throw new Error(`${move}: ${e.message}; feedback "${await page.locator('#feedback').textContent()}", chooser: ${await page.locator('#chooser').innerHTML()}`);
    });
  const choice = page.locator(`#chooser button[data-move="${move}"]`);
  if (await choice.count()) await choice.click();
}

test('offline on a phone in Swahili: a puzzle of the saved pack is solved by tapping', async () => {
  const pack = await api('/api/puzzles/pack?variant=kiswahili');
  // A line with an answer of the opponent, so that a reply is played too, whose solver's moves
  // each have a button of their own in the chooser (no other legal move extends them).
  let p = null;
  for (const x of pack.puzzles.filter((y) => y.moves.length >= 3)) {
    let legal = x.legal;
    let plain = true;
    for (let k = 0; k < x.moves.length && plain; k += 2) {
      plain = /^[A-Da-d][1-8][LR]?$/.test(x.moves[k]) && !legal.some((m) => m !== x.moves[k] && m.startsWith(x.moves[k]));
      if (k + 2 < x.moves.length) legal = (await api(`/api/puzzles/${x.id}/check`, { method: 'POST', body: { ply: k, move: x.moves[k] } })).legal;
    }
    if (plain) {
      p = x;
      break;
    }
  }
  assert.ok(p, 'a pack puzzle to solve by tapping');
  const wrong = p.legal.find((m) => m.slice(0, 2) !== p.moves[0].slice(0, 2));

  const { context, page } = await openPage(browser, { viewport: { width: 360, height: 640 } });
  await context.addInitScript(() => localStorage.setItem('bao.speed', '0'));
  // One visit online: the service worker installs and fills its cache (the packs too).
  await page.goto('/puzzles?lang=sw');
  await page.waitForSelector('#board svg');
  const cached = await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    const urls = ['/puzzles', ...['kiswahili', 'kete', 'kimasai'].map((v) => `/api/puzzles/pack?variant=${v}`)];
    const hits = await Promise.all(urls.map((u) => caches.match(u)));
    return urls.filter((_, i) => !hits[i]);
  });
  assert.deepEqual(cached, [], 'the page and the three packs are in the cache');
  await page.waitForFunction(() => !!navigator.serviceWorker.controller);
  assert.equal(await page.locator('#offline-note').isHidden(), true, 'online, no offline notice');

  await context.setOffline(true);
  await page.goto(`/puzzles?id=${p.id}`);
  await page.waitForFunction(() => document.body.dataset.puzzlesOffline === 'true');
  await page.waitForFunction((pos) => document.querySelector('#board svg')?.getAttribute('data-position') === pos, p.position);
  const note = await page.locator('#offline-note').textContent();
  assert.match(note, /Hakuna mtandao/);
  assert.match(note, /Viwango vinasubiri mtandao/);
  assert.equal(await page.locator('#ratings').textContent(), '', 'no rating shown offline');
  assert.match(await page.locator('#progress').textContent(), /Umetatua 0 kati ya 100/);

  if (wrong) {
    await play(page, wrong);
    await page.waitForFunction(() => document.querySelector('#feedback').className === 'bad');
    assert.match(await page.locator('#feedback').textContent(), /Jaribu tena/);
    assert.deepEqual(await boardCounts(page), positionCounts(p.position));
  }
  for (let k = 0; k < p.moves.length; k += 2) {
    await play(page, p.moves[k]);
    if (k + 1 < p.moves.length) {
      await page.waitForFunction(
        (m) =>
          document.querySelector('#board svg')?.getAttribute('data-last-move') === m &&
          !document.querySelector('#board').classList.contains('animating') &&
          (document.querySelector('#chooser .prompt') || document.body.dataset.puzzleSolved),
        p.moves[k + 1],
      );
    }
  }
  await page.waitForFunction((id) => document.body.dataset.puzzleSolved === id, p.id);
  assert.match(await page.locator('#feedback').textContent(), /Umelitatua!/);
  await page.locator(`#list button.solved[data-id="${p.id}"]`).waitFor();
  assert.match(await page.locator('#progress').textContent(), /Umetatua 1 kati ya 100/);
  const kept = await page.evaluate(() => JSON.parse(localStorage.getItem('bao.puzzles.solved') || '[]'));
  assert.ok(kept.includes(p.id), 'the solved id is kept in the browser');
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 360), 'no sideways scrolling');
  await screenshot(page, '49-puzzles-offline-360-sw');
  const violations = await axeViolations(page);
  assert.deepEqual(violations, [], axeReport('/puzzles offline (sw, 360)', violations));
  assertClean(page, { allowConsole: [/ERR_INTERNET_DISCONNECTED/, /Failed to load resource/, /WebSocket/] });
  await context.close();
});
