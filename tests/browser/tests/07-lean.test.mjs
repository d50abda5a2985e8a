// Lean live messages (docs/api.md "WebSocket"). A game is played to its end in the page (against
// the computer) while a spectator page watches; both pages keep their own state from the small move
// frames and draw the board themselves, and at the end both boards equal the server's position,
// down to the marks (owned houses, blocked pit, last move).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, assertClean, screenshot, api, BASE, clickMove, boardCounts, positionCounts } from '../lib/harness.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** Records the text frames a page's sockets receive. */
function recordFrames(page) {
  const frames = [];
  page.on('websocket', (ws) => {
    ws.on('framereceived', (f) => {
      if (typeof f.payload === 'string') frames.push(f.payload);
    });
  });
  return frames;
}

test('a game played to the end: player and spectator boards follow the lean frames to the server position', async () => {
  // A ply cap (BRD-7.6) makes the game end within a bounded number of moves.
  const created = await api('/api/games', {
    method: 'POST',
    body: { variant: 'kiswahili', rules: 'max_plies=24', opponent: { kind: 'computer', level: 1 }, side: 'S', match: 'single_game', name: 'Lea' },
  });
  const player = await openPage(browser);
  await player.context.addCookies([{ name: `bao_${created.id}`, value: created.token, url: BASE }]);
  const p = player.page;
  const pFrames = recordFrames(p);
  await p.goto(`/g/${created.id}`);
  await p.selectOption('#speed', '0');
  const watcher = await openPage(browser);
  const w = watcher.page;
  const wFrames = recordFrames(w);
  await w.goto(`/g/${created.id}`);
  await w.selectOption('#speed', '0');
  await w.waitForFunction(() => /Live/.test(document.querySelector('#connection').textContent));

  for (let i = 0; i < 40; i++) {
    // Either our turn (a legal pit to click) or the end of the game.
    await p.waitForFunction(
      () => document.querySelector('#board g.pit.legal') || !document.querySelector('#result').hidden,
      null,
    );
    if (!(await p.locator('#result').isHidden())) break;
    const { ply } = await clickMove(p);
    // Wait for our move to be shown before looking for the next turn.
    await p.waitForFunction((q) => Number(document.querySelector('#board').dataset.ply) > q, ply);
  }
  const end = await api(`/api/games/${created.id}`);
  assert.notEqual(end.result, '-', 'the game has ended');
  // With the game's rules: the ply cap decides that the game is over (no side to move).
  const server = await api(`/api/render/svg?position=${encodeURIComponent(end.position)}&rules=${encodeURIComponent(end.rules)}&last=${encodeURIComponent(end.moves.at(-1).move)}`);
  for (const page of [p, w]) {
    await page.waitForFunction((pos) => document.querySelector('#board').dataset.position === pos && !document.querySelector('#result').hidden, end.position);
    assert.deepEqual(await boardCounts(page), positionCounts(end.position));
    const [mine, theirs] = await page.evaluate((svg) => {
      const doc = new DOMParser().parseFromString(svg, 'image/svg+xml');
      const marks = (root) => {
        const out = {};
        for (const g of root.querySelectorAll('g.pit[data-pit]')) {
          out[g.dataset.pit] = ['owned', 'blocked', 'must', 'last-move'].filter((c) => g.classList.contains(c)).join(' ');
        }
        // The caption too: a page that drew the moves itself must not keep a stale one.
        out.caption = root.querySelector('text.caption')?.textContent ?? null;
        return out;
      };
      return [marks(document.querySelector('#board')), marks(doc)];
    }, server);
    assert.deepEqual(mine, theirs, 'the marks on the board are the server picture\'s');
    const listed = await page.$$eval('#moves .mvtext', (xs) => xs.map((x) => x.textContent));
    assert.deepEqual(listed, end.moves.map((m) => m.move));
  }
  // The moves came as lean frames: no picture, no move list, under 1 KiB on average.
  for (const frames of [pFrames, wFrames]) {
    const moves = frames.filter((f) => f.startsWith('{"type":"move"'));
    assert.ok(moves.length >= end.moves.length - 1, `${moves.length} move frames for ${end.moves.length} moves`);
    for (const f of moves) assert.ok(!f.includes('<svg') && !f.includes('"moves"'), f.slice(0, 200));
    const mean = moves.reduce((a, f) => a + f.length, 0) / moves.length;
    assert.ok(mean <= 1024, `a move frame averages ${mean} bytes`);
  }
  await screenshot(w, '07-lean-spectator-end');
  assertClean(p);
  assertClean(w);
});
