// The puzzles page (docs/api.md "Puzzles"). A wrong move is refused ("try again", the board
// unchanged), the solution is played move by move by clicking pits (the opponent's answers come
// from the line), the puzzle is marked solved and stays solved after a reload (localStorage); the
// home page links to it; Swahili text; screenshots at 1280x800 and 360x640.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, assertClean, api, boardCounts, positionCounts, screenshot } from '../lib/harness.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** Plays `move` on the board: its pit, then (if asked) the button of the exact move. */
async function play(page, move) {
  const pit = move.slice(0, 2);
  await page.locator(`#board g.pit.legal[data-pit="${pit}"]`).click();
  const choice = page.locator(`#chooser button[data-move="${move}"]`);
  // Either the pit had one move (sent at once: "Checking ...") or the exact move is offered.
  await page.waitForFunction(
    (m) => document.querySelector(`#chooser button[data-move="${m}"]`) || /…/.test(document.querySelector('#feedback').textContent) || document.querySelector('#feedback').className,
    move,
  );
  if (await choice.count()) await choice.click();
}

const feedbackIs = (page, cls) =>
  page.waitForFunction((c) => document.querySelector('#feedback').className === c, cls);

test('a kiswahili win puzzle: a wrong move is refused, the line solves it, progress is kept', async () => {
  const list = await api('/api/puzzles?variant=kiswahili');
  // A win in two or more of the solver's moves, so that the opponent's answer is played too.
  const p = list.find((x) => x.goal.kind === 'win' && x.moves.length >= 3);
  assert.ok(p, 'a win puzzle with an answer');
  const one = await api(`/api/puzzles/${p.id}`);
  const wrong = one.legal.find((m) => m.slice(0, 2) !== p.moves[0].slice(0, 2));
  assert.ok(wrong, 'a move from another pit');

  const { context, page } = await openPage(browser, { viewport: { width: 1280, height: 800 } });
  await page.goto('/');
  await page.locator('#puzzles-link').click();
  await page.waitForURL(/\/puzzles/);
  await page.locator('#variant').selectOption('kiswahili');
  await page.locator(`#list button[data-id="${p.id}"]`).click();
  await page.waitForFunction((pos) => document.querySelector('#board svg')?.getAttribute('data-position') === pos, p.position);
  assert.match(await page.locator('#goal').textContent(), /Win the game in \d+ moves/);
  await screenshot(page, '45-puzzle-1280');

  // The wrong move: "try again", the board still shows the puzzle's position.
  await play(page, wrong);
  await feedbackIs(page, 'bad');
  assert.match(await page.locator('#feedback').textContent(), /Try again/);
  assert.deepEqual(await boardCounts(page), positionCounts(p.position));

  // The solution, move by move; after each answer the board shows the line's position.
  for (let k = 0; k < p.moves.length; k += 2) {
    await play(page, p.moves[k]);
    if (k + 1 < p.moves.length) {
      await page.waitForFunction(
        (m) => document.querySelector('#board svg')?.getAttribute('data-last-move') === m && !document.querySelector('#board').classList.contains('animating') && document.querySelector('#chooser .prompt'),
        p.moves[k + 1],
      );
    }
  }
  await page.waitForFunction((id) => document.body.dataset.puzzleSolved === id, p.id);
  assert.match(await page.locator('#feedback').textContent(), /Solved/);
  await page.locator(`#list button.solved[data-id="${p.id}"]`).waitFor();
  await screenshot(page, '45-puzzle-solved-1280');

  // Remembered after a reload.
  await page.reload();
  await page.locator(`#list button.solved[data-id="${p.id}"]`).waitFor();
  assert.match(await page.locator('#progress').textContent(), /Solved 1 of \d+/);
  assertClean(page);
  await context.close();
});

test('the page in Swahili on a phone, with a kimasai puzzle', async () => {
  const list = await api('/api/puzzles?variant=kimasai');
  const { context, page } = await openPage(browser, { viewport: { width: 360, height: 640 } });
  await page.goto(`/puzzles?lang=sw&id=${list[0].id}`);
  await page.waitForFunction((pos) => document.querySelector('#board svg')?.getAttribute('data-position') === pos, list[0].position);
  assert.equal(await page.locator('#variant').inputValue(), 'kimasai');
  assert.match(await page.locator('h1').textContent(), /Mafumbo/);
  assert.match(await page.locator('#progress').textContent(), /Umetatua 0 kati ya \d+/);
  await screenshot(page, '45-puzzle-sw-360');
  assertClean(page);
  await context.close();
});
