// Learning from mistakes (docs/api.md "Learning from mistakes"): after a review, the moves
// marked ? and ?? become exercises on the replay page: the board before the mistake, a move
// chosen on the board, judged by the server's engine; a better move counts as found and the
// engine's line can be shown. Reached from "My games" of the player who made them.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, assertClean, screenshot, api, bao, axeViolations, axeReport, randomGame, resignedRecord, uploadRecord } from '../lib/harness.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** The review of game `id`, asked for and waited for (states, not time). */
async function reviewed(id) {
  let r = await api(`/api/games/${id}/review`, { method: 'POST', body: {} });
  while (r.state !== 'done') {
    assert.notEqual(r.state, 'failed');
    await new Promise((ok) => setTimeout(ok, 100));
    r = await api(`/api/games/${id}/review?game_no=1`);
  }
  return r;
}

/** Plays `move` in the practice's chooser: its pit, then the buttons that lead to it. */
async function pick(page, move) {
  await page.locator(`#board g.pit.legal[data-pit="${move.slice(0, 2)}"]`).click();
  for (let i = 0; i < 3; i++) {
    const handle = await page.waitForFunction(() => {
      const box = document.querySelector('#review-practice');
      return box.dataset.state === 'judging' || box.dataset.state === 'good' || document.querySelector('#practice-chooser button[data-move], #practice-chooser button[data-letter]') ? true : null;
    });
    await handle.dispose();
    if ((await page.getAttribute('#review-practice', 'data-state')) !== 'pick' && (await page.getAttribute('#review-practice', 'data-state')) !== 'bad') return;
    if ((await page.getAttribute('#review-practice', 'data-ready')) === null) return;
    const exact = page.locator(`#practice-chooser button[data-move="${move}"]`);
    if (await exact.count()) {
      await exact.click();
      return;
    }
    await page.locator(`#practice-chooser button[data-letter="${move[2]}"]`).click();
  }
}

test('the mistakes of a reviewed game are practised on a phone in Swahili', async () => {
  // A random game with at least one mistake of North's (random play makes them).
  let game;
  let id;
  let review;
  for (let seed = 3; ; seed++) {
    game = randomGame(seed, 14);
    id = await uploadRecord(resignedRecord(game.moves));
    review = await reviewed(id);
    if (review.plies.some((p) => (p.mark === '?' || p.mark === '??') && p.side === 'N')) break;
    assert.ok(seed < 40, 'random play makes a mistake within a few games');
  }
  const mistakes = review.plies.filter((p) => (p.mark === '?' || p.mark === '??') && p.side === 'N');
  const first = mistakes[0];
  // North's seat is held in this browser: its mistakes are the ones practised.
  const { page, context } = await openPage(browser, { viewport: { width: 360, height: 720 } });
  // Written before the page loads, and no home page visited: the home page's "My games" asks
  // the server about its seats and forgets this one (its token is not real) when it gets
  // there first, which a busy machine makes likely.
  await context.addInitScript((gid) => localStorage.setItem('bao.seats', JSON.stringify([{ id: gid, token: 'x', side: 'N', added: Date.now() }])), id);
  await page.goto(`/replay?game=${id}&review=1&practice=1&lang=sw`);
  await page.waitForSelector(`#review-practice[data-ready="${first.ply}"]`);
  // Only North's mistakes: the exercises count them.
  assert.equal(await page.locator('#review-practice h3').textContent(), `Zoezi 1 kati ya ${mistakes.length}`);
  assert.match(await page.locator('#practice-task').textContent(), new RegExp(`Zamu ${first.ply}:.*${first.move.replace(/[*+]/g, '\\$&')}`));
  // The board is at the position before the mistake, and the answer is not shown.
  await page.waitForFunction((step) => document.querySelector('#board').dataset.step === String(step), first.ply - 1);
  assert.equal(await page.locator('#board .review-best').count(), 0);
  assert.equal(await page.locator('#review-here').textContent(), '');

  // A move the server judges a mistake is refused with its cost, and the question stays.
  const before = game.positions[first.ply - 1];
  const legal = bao('moves', before).map((l) => l.split('\t')[0]).filter(Boolean);
  let bad = null;
  let good = null;
  for (const mv of legal) {
    const r = await api(`/api/games/${id}/review/try`, { method: 'POST', body: { ply: first.ply, move: mv } });
    if (!r.good && !bad) bad = mv;
    if (r.good && !good) good = mv;
  }
  assert.ok(good, 'the best move is judged good');
  if (bad) {
    await pick(page, bad);
    await page.waitForSelector('#review-practice[data-state="bad"]');
    assert.match(await page.locator('#practice-status').textContent(), /Bado/);
    await page.waitForSelector(`#review-practice[data-ready="${first.ply}"]`);
  }
  await screenshot(page, '41-practice-sw-360');
  // A good move is found; the engine's line can be shown.
  await pick(page, good);
  await page.waitForSelector('#review-practice[data-state="good"]');
  assert.match(await page.locator('#practice-status').textContent(), /Umeipata/);
  await page.click('#practice-show');
  assert.match(await page.locator('#practice-reveal').textContent(), new RegExp(first.best.replace(/[*+]/g, '\\$&')));
  const violations = await axeViolations(page);
  assert.deepEqual(violations, [], axeReport('practice, sw, 360 px', violations));
  // To the end of the exercises: the count of moves found.
  for (let k = 1; k < mistakes.length; k++) {
    await page.click('#practice-next');
    await page.waitForSelector(`#review-practice[data-ready="${mistakes[k].ply}"]`);
  }
  await page.click('#practice-next');
  await page.waitForSelector('#review-practice[data-state="done"]');
  assert.match(await page.locator('#practice-done').textContent(), new RegExp(`1 kati ya ${mistakes.length}`));
  assertClean(page);
  await context.close();
});
