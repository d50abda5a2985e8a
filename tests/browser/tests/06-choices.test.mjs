// Move entry on the game page: the direction / kichwa choice, the stop-or-safari choice
// (KIS-7.5, NOT-1.3), and the setting that asks to confirm forced choices by hand.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, assertClean, screenshot, api, BASE, waitForPly } from '../lib/harness.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** A two-human game from `start`, with the page seated as South. */
async function southPage(start) {
  const created = await api('/api/games', {
    method: 'POST',
    body: { variant: start.split(' ')[0], rules: '-', opponent: { kind: 'human' }, side: 'S', match: 'single_game', start },
  });
  const { context, page } = await openPage(browser);
  await context.addCookies([{ name: `bao_${created.id}`, value: created.token, url: BASE }]);
  await page.goto(`/g/${created.id}`);
  await page.selectOption('#speed', '0');
  await page.waitForSelector('#board g.pit.legal');
  return { page, id: created.id };
}

// Fixture kis-06 (Nierse diagrams 14-16): legal A2L A3L A3R A3R+ A7R A8R A8R+.
const KIS06 = 'kiswahili 0,0,0,0,0,0,0,0/0,3,4,8,0,2,5,6/0,2,1,0,8,0,3,4/0,0,0,0,0,0,0,0 S 9/9 house:S,house:N 0';

test('a namua capture asks for the entry kichwa, then stop or safari at the house (KIS-4.2, KIS-7.5)', async () => {
  const { page, id } = await southPage(KIS06);
  const pits = await page.$$eval('#board g.pit.legal', (gs) => gs.map((g) => g.dataset.pit).sort());
  assert.deepEqual(pits, ['A2', 'A3', 'A7', 'A8']);
  await page.click('#board g.pit.legal[data-pit="A3"]');
  // The kichwa buttons say in words what each does, the left kichwa's on the left (South
  // sees his left kichwa A1 at the left of the screen), never the move's notation.
  const letters = await page.$$eval('#chooser button[data-letter]', (bs) => bs.map((b) => [b.dataset.letter, b.textContent.trim()]));
  assert.deepEqual(letters, [
    ['L', '← Capture and sow from the left kichwa'],
    ['R', '→ Capture and sow from the right kichwa'],
  ]);
  assert.equal((await page.textContent('#chooser .prompt')).trim(), 'You capture: from which kichwa are the captured seeds sown?');
  await page.click('#chooser button[data-letter="R"]');
  const choices = await page.$$eval('#chooser button[data-choice]', (bs) => bs.map((b) => [b.dataset.choice, b.textContent.trim()]));
  assert.deepEqual(choices, [
    ['stop', 'Stop in the nyumba: your move ends there'],
    ['safari', "Safari: sow the nyumba's seeds and go on"],
  ]);
  await screenshot(page, '06-safari-choice');
  await page.click('#chooser button[data-choice="safari"]');
  await waitForPly(page, 1);
  const s = await api(`/api/games/${id}`);
  assert.equal(s.moves[0].move, 'A3R+');
  // A8: the kichwa is forced (R), only stop/safari is asked.
  assertClean(page);
});

test('a forced kichwa is chosen for the player; only the stop/safari choice is asked (KIS-6.5)', async () => {
  const { page, id } = await southPage(KIS06);
  await page.click('#board g.pit.legal[data-pit="A8"]');
  assert.equal(await page.locator('#chooser button[data-letter]').count(), 0, 'no kichwa question on the kimbi');
  await page.click('#chooser button[data-choice="stop"]');
  await waitForPly(page, 1);
  assert.equal((await api(`/api/games/${id}`)).moves[0].move, 'A8R');
  assertClean(page);
});

test('with "confirm forced choices" on, a pit with a single move waits for confirmation', async () => {
  const { page, id } = await southPage(KIS06);
  await page.check('#confirm-forced');
  await page.click('#board g.pit.legal[data-pit="A2"]');
  const confirm = page.locator('#chooser button[data-confirm="A2L"]');
  await confirm.waitFor();
  // The one way to play it, in words: the kimbi's capture enters at the left kichwa.
  assert.equal((await confirm.textContent()).trim(), '← Capture and sow from the left kichwa');
  await page.waitForTimeout(300);
  assert.equal((await api(`/api/games/${id}`)).ply, 0, 'nothing is played before confirming');
  await screenshot(page, '06-confirm-forced');
  await confirm.click();
  await waitForPly(page, 1);
  assert.equal((await api(`/api/games/${id}`)).moves[0].move, 'A2L');
  assertClean(page);
});

test('keyboard: a legal pit can be focused and played with Enter, a direction chosen with the keyboard', async () => {
  const { page, id } = await southPage('kiswahili');
  // The pit's button (its hit area, named "Play A6 …") takes the focus.
  const pit = page.locator('#board g.pit.legal[data-pit="A6"] [role="button"]');
  assert.match(await pit.getAttribute('aria-label'), /A6/);
  await pit.focus();
  await page.waitForSelector('#board g.pit.legal[data-pit="A6"] [role="button"]:focus');
  await page.keyboard.press('Enter');
  // The first direction button has the focus.
  await page.waitForSelector('#chooser button[data-letter]:focus');
  await page.keyboard.press('Enter');
  await waitForPly(page, 1);
  const mv = (await api(`/api/games/${id}`)).moves[0].move;
  assert.match(mv, /^A6[LR]\*$/);
  assertClean(page);
});

test('resigning asks for confirmation, ends the game and says how it ended', async () => {
  const { page, id } = await southPage('kimasai');
  page.once('dialog', (d) => d.accept());
  await page.click('#resign');
  await page.waitForSelector('#result:not([hidden])');
  assert.match(await page.textContent('#result-headline'), /You lose/);
  const s = await api(`/api/games/${id}`);
  assert.equal(s.result, 'N');
  assert.ok(await page.locator('#resign').isHidden(), 'no resign button after the end');
  assert.equal(await page.locator('#board g.pit.legal').count(), 0);
  await screenshot(page, '06-resigned');
  assertClean(page);
});
