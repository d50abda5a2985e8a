// A move is animated seed by seed from its event lines (CLI-5), the
// viewer can skip, and the final board equals the server's position.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, assertClean, screenshot, api, BASE, boardCounts, positionCounts, waitForPly, bao } from '../lib/harness.mjs';

// South's B1L here is a long move: 2 captures, 8 laps, 40 sown seeds (see `bao trace`).
const START = 'kiswahili 0,0,1,0,1,0,0,0/1,0,0,1,0,1,2,0/1,7,6,2,4,4,1,2/4,4,2,4,2,3,2,9 S 0/0 - 80';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

async function snapshotsDuringAnimation(page) {
  // Samples the drawn counts while the board has the "animating" class.
  return page.evaluate(async () => {
    const board = document.querySelector('#board');
    const seen = new Set();
    let marker = false;
    let active = false;
    const t0 = performance.now();
    while (!board.classList.contains('animating') && performance.now() - t0 < 10000) await new Promise((r) => setTimeout(r, 5));
    while (board.classList.contains('animating') && performance.now() - t0 < 60000) {
      const counts = [...board.querySelectorAll('g.pit .count')].map((t) => t.textContent).join(',');
      seen.add(counts);
      if (board.querySelector('.anim-hand')) marker = true;
      if (board.querySelector('g.pit.active')) active = true;
      await new Promise((r) => setTimeout(r, 15));
    }
    return { distinct: seen.size, marker, active };
  });
}

test('a move is animated seed by seed and ends on the server position; skip finishes at once', async () => {
  const created = await api('/api/games', {
    method: 'POST',
    body: { variant: 'kiswahili', rules: '-', opponent: { kind: 'human' }, side: 'S', match: 'single_game', start: START },
  });
  const joined = await api(`/api/games/${created.id}/join`, { method: 'POST', body: { invite: created.invite } });
  const { context, page } = await openPage(browser);
  // Sit as South: the seat cookie the server would have set for the creator.
  await context.addCookies([{ name: `bao_${created.id}`, value: created.token, url: BASE }]);
  await page.goto(`/g/${created.id}`);
  await page.selectOption('#speed', '250');
  await page.waitForSelector('#board g.pit.legal[data-pit="B1"]');

  // B1 has one way to be played (B1L), so clicking it plays at once.
  const watching = snapshotsDuringAnimation(page);
  await page.click('#board g.pit.legal[data-pit="B1"]');
  await page.waitForTimeout(2500);
  await screenshot(page, '04-during-animation');
  const seen = await watching;
  const events = bao('trace', START, 'B1L').filter((l) => /^(place|lift|tax|capture|sow) /.test(l));
  assert.ok(seen.distinct >= 10, `the board changed step by step (${seen.distinct} distinct boards for ${events.length} seed events)`);
  assert.ok(seen.marker, 'the seeds in hand are shown while sowing');
  assert.ok(seen.active, 'the pit being sown is highlighted');
  await waitForPly(page, 81);
  assert.equal(await page.getAttribute('#board', 'data-anim-check'), 'ok', 'the animated counts equal the position after the move');
  let s = await api(`/api/games/${created.id}`);
  assert.deepEqual(await boardCounts(page), positionCounts(s.position), 'final board = GET /api/games/{id}');
  assert.match(await page.textContent('#last-move'), /captured 1 from a5, 1 from a8/);
  await screenshot(page, '04-after-animation');

  // North answers through the API; the South page animates it, and Skip ends it at once.
  if (s.result === '-') {
    await page.selectOption('#speed', '600');
    // North's longest move (most event lines), so that there is plenty left to skip.
    const length = (m) => bao('trace', s.position, m).length;
    const mv = s.legal.map((l) => l.move).sort((x, y) => length(y) - length(x))[0];
    await api(`/api/games/${created.id}/moves`, { method: 'POST', token: joined.token, body: { move: mv, ply: s.ply } });
    await page.waitForSelector('#board.animating');
    await page.click('#skip');
    // After Skip the remaining events are applied in one go: no further intermediate board
    // is ever drawn (at most the board at the moment of the click, then the final one).
    const after = await page.evaluate(async () => {
      const board = document.querySelector('#board');
      const seen = new Set();
      while (board.classList.contains('animating')) {
        seen.add([...board.querySelectorAll('g.pit .count')].map((t) => t.textContent).join(','));
        await new Promise((r) => setTimeout(r, 10));
      }
      return seen.size;
    });
    assert.ok(after <= 1, `no intermediate boards after Skip (${after} seen)`);
    await waitForPly(page, s.ply + 1, 10000);
    assert.equal(await page.getAttribute('#board', 'data-anim-check'), 'ok');
    s = await api(`/api/games/${created.id}`);
    assert.deepEqual(await boardCounts(page), positionCounts(s.position));
  }
  assertClean(page);
});
