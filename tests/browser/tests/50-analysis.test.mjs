// The analysis board (/analysis, docs/api.md "Pages") on a phone (360x640, touch) in Swahili:
// moves for both sides make a tree (another move from an earlier position is a variation),
// the address holds the board and a reload shows the same node, the position editor refuses
// a position with the catalog's words and accepts it once fixed, the engine's line appears,
// "Chambua" on the replay page, a finished game's page and a puzzle opens the board at that
// position, and the page works with no network. Every wait is for a state of the page, never for a time.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, assertClean, screenshot, api, bao, BASE } from '../lib/harness.mjs';

const PHONE = { width: 360, height: 640 };

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

async function phone() {
  const { context, page } = await openPage(browser, { viewport: PHONE });
  return { context, page };
}

/** Plays a move for the side to move: a legal pit (not `avoid`'s), then the chooser's first way. */
async function playMove(page, avoid = null) {
  // Waited for: after a step through the tree the board is drawn again, and for a moment
  // offers no pit (this read once came in that moment on a busy machine).
  const offered = await page.waitForFunction(() => {
    const pits = [...document.querySelectorAll('#board g.pit.legal')].map((g) => g.dataset.pit);
    return pits.length > 0 && pits;
  });
  const pits = await offered.jsonValue();
  assert.ok(pits.length > 0, 'legal pits are offered');
  const pit = pits.find((p) => !avoid || !avoid.startsWith(p)) || pits[0];
  const before = await page.getAttribute('#board', 'data-node');
  await page.click(`#board g.pit.legal[data-pit="${pit}"]`);
  for (const sel of ['#chooser button[data-letter]', '#chooser button[data-choice="stop"]', '#chooser button[data-confirm]']) {
    const b = page.locator(sel).first();
    if (await b.count()) await b.click();
  }
  await page.waitForFunction((b) => document.querySelector('#board').dataset.node !== b && document.querySelectorAll('#board g.pit.legal').length > 0, before);
  return pit;
}

/** Waits for the editor to refuse the position with exactly these words. */
async function errorIs(page, words) {
  await page.waitForFunction((w) => document.querySelector('#editor').dataset.valid === 'false' && document.querySelector('#ed-error').textContent.trim() === w, words);
}

const treeMoves = (page) => page.$$eval('#tree button.mv', (bs) => bs.map((b) => b.dataset.move));
const current = (page) => page.$eval('#tree button.mv.current', (b) => b.dataset.move).catch(() => null);

test('analysis at 360 px in Swahili: a variation, the address, the editor and the engine', async () => {
  const { context, page } = await phone();
  await page.goto('/analysis?lang=sw');
  assert.equal(await page.getAttribute('html', 'lang'), 'sw');
  assert.equal((await page.textContent('h1')).trim(), 'Ubao wa uchambuzi');
  await page.waitForSelector('#board g.pit.legal');
  await page.uncheck('#animate');

  // Two moves, back one, a different move: the tree branches.
  await playMove(page);
  await playMove(page);
  const [m1, m2] = await treeMoves(page);
  assert.ok(m1 && m2, `two moves in the tree: ${await treeMoves(page)}`);
  // Each move is the rules' own: the position shown is what `bao apply` gives.
  const afterTwo = await page.inputValue('#position-text');
  assert.equal(afterTwo, bao('apply', 'kiswahili', m1, m2)[0]);
  await page.click('#prev');
  await page.waitForFunction((m) => document.querySelector('#tree button.mv.current')?.dataset.move === m, m1);
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction((m) => document.querySelector('#tree button.mv.current')?.dataset.move === m, m2);
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction((m) => document.querySelector('#tree button.mv.current')?.dataset.move === m, m1);
  await playMove(page, m2);
  await page.waitForSelector('#tree .variation button.mv.current');
  const m3 = await current(page);
  assert.notEqual(m3, m2);
  assert.deepEqual(await treeMoves(page), [m1, m2, m3], 'main line first, then the variation');
  // Read as a record is (NOT-6.3): numbered, the variation after the move it replaces.
  const words = (await page.textContent('#tree')).replace(/×\d+/g, '').replace(/\s+/g, ' ').trim();
  assert.equal(words, `1. ${m1} ${m2} 1… ${m3}`);
  // The address holds the main line and the node in the variation.
  const url = new URL(page.url());
  assert.equal(url.pathname, '/analysis');
  assert.equal(url.searchParams.get('moves'), `${m1},${m2}`);
  assert.equal(url.searchParams.get('line'), `${m1},${m3}`);
  const here = await page.inputValue('#position-text');
  await screenshot(page, '50-analysis-variation-360-sw');

  // A reload opens the same board at the same node.
  await page.reload();
  await page.waitForSelector('#tree .variation button.mv.current');
  assert.equal(await current(page), m3);
  assert.equal(await page.inputValue('#position-text'), here);
  assert.deepEqual(await treeMoves(page), [m1, m2, m3]);

  // Promote the variation: it becomes the main line, the address follows.
  await page.click('#promote');
  await page.waitForFunction(() => !document.querySelector('#tree .variation button.mv.current'));
  assert.deepEqual(await treeMoves(page), [m1, m3, m2]);
  assert.equal(new URL(page.url()).searchParams.get('moves'), `${m1},${m3}`);
  // Delete it again from its first move: the other line is the only one left.
  await page.click('#delete');
  await page.waitForFunction((m) => document.querySelector('#tree button.mv.current')?.dataset.move === m, m1);
  assert.deepEqual(await treeMoves(page), [m1, m2]);

  // The engine's evaluation and best line appear for the node shown, and deepen.
  await page.waitForFunction(() => Number(document.querySelector('#engine').dataset.depth) >= 3);
  const line = await page.textContent('#engine-line');
  assert.match(line, /^Mstari bora: [A-Ba-b][1-8]/);
  assert.match(await page.textContent('#engine-depth'), /^Kina \d+/);
  const best = await page.getAttribute('#engine', 'data-best');
  const legal = bao('moves', await page.inputValue('#position-text')).map((l) => l.split('\t')[0]);
  assert.ok(legal.includes(best), `${best} is legal: ${legal}`);
  // The server's engine, asked: a legal move too.
  await page.click('#server-ask');
  await page.waitForFunction(() => document.querySelector('#server-line').dataset.best);
  assert.ok(legal.includes(await page.getAttribute('#server-line', 'data-best')));
  assert.match(await page.textContent('#server-line'), /^Kompyuta ya seva \(kina \d+\): /);
  // Off means off.
  await page.uncheck('#engine-on');
  await page.waitForFunction(() => !document.querySelector('#engine').dataset.depth);
  assert.equal((await page.textContent('#engine-eval')).trim(), 'Kompyuta imezimwa.');
  await page.check('#engine-on');

  // The editor, from the start position: six seeds in B1 make 70, which the rules refuse, in
  // the catalog's words.
  await page.click('#first');
  await page.waitForFunction(() => !document.querySelector('#tree button.mv.current'));
  await page.click('#editor-box summary');
  await page.waitForSelector('#editor[data-valid="true"]');
  await page.click('#board g.pit.legal[data-pit="B1"]');
  assert.equal(await page.inputValue('#ed-pit-seeds'), '0');
  await page.fill('#ed-pit-seeds', '6');
  await errorIs(page, 'Kete zinajumlisha 70, lakini Bao la Kiswahili huchezwa kwa kete 64.');
  assert.ok(await page.isDisabled('#ed-apply'));
  await screenshot(page, '50-analysis-editor-refused-360-sw');
  // North's nyumba owned but empty (its seeds moved to North's hand): refused, naming a5.
  await page.fill('#ed-pit-seeds', '0');
  await page.waitForSelector('#editor[data-valid="true"]');
  await page.click('#board g.pit.legal[data-pit="a5"]');
  assert.equal(await page.inputValue('#ed-pit-seeds'), '6');
  assert.ok(await page.isChecked('#ed-house-N'));
  await page.fill('#ed-pit-seeds', '0');
  await page.fill('#ed-hand-N', '28');
  await errorIs(page, 'Kaskazini hawezi kumiliki nyumba: a5 liko tupu.');
  // Fixed: one seed of A6 moved to B1, the rest as it was: accepted.
  await page.fill('#ed-pit-seeds', '6');
  await page.fill('#ed-hand-N', '22');
  await page.click('#board g.pit.legal[data-pit="B1"]');
  await page.click('#ed-plus');
  await errorIs(page, 'Kete zinajumlisha 65, lakini Bao la Kiswahili huchezwa kwa kete 64.');
  await page.click('#board g.pit.legal[data-pit="A6"]');
  await page.click('#ed-minus');
  await page.waitForSelector('#editor[data-valid="true"]');
  assert.ok(await page.isHidden('#ed-error'));
  assert.match(await page.textContent('#ed-stage'), /Namua/);
  const edited = await page.inputValue('#ed-text');
  await page.click('#ed-apply');
  await page.waitForSelector('#editor-box:not([open])');
  await page.waitForFunction((p) => document.querySelector('#position-text').value === p, edited);
  assert.deepEqual(await treeMoves(page), []);
  assert.equal(new URL(page.url()).searchParams.get('position'), edited);
  await page.waitForSelector('#board g.pit.legal');

  assertClean(page);
  await context.close();
});

test('Chambua on the replay page, a finished game and a puzzle opens that position; the board works offline', async () => {
  // A short game uploaded as a record.
  let pos = 'kiswahili';
  const moves = [];
  while (moves.length < 4) {
    const [mv, next] = bao('moves', pos)
      .map((l) => l.split('\t'))
      .find((l) => l.length === 3 && l[2] === '-');
    moves.push(mv);
    pos = next;
  }
  const record = ['[Variant "kiswahili"]', '[Rules "-"]', '[South "Asha"]', '[North "Juma"]', '[Date "2026.12.04"]', '[Result "S"]', '[Termination "resignation"]', '', `1. ${moves[0]} ${moves[1]} 2. ${moves[2]} ${moves[3]} S`, ''].join('\n');
  const res = await fetch(`${BASE}/api/records`, { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: record });
  assert.equal(res.status, 201, await res.clone().text());
  const { id } = await res.json();
  const game = await api(`/api/games/${id}`);

  const { context, page } = await phone();
  await page.goto(`/replay?game=${id}&step=2&lang=sw`);
  await page.waitForSelector('#board[data-step="2"]');
  assert.equal((await page.textContent('#analyse-link')).trim(), 'Chambua');
  await Promise.all([page.waitForURL(/\/analysis\?/), page.click('#analyse-link')]);
  await page.waitForSelector('#tree button.mv.current');
  assert.deepEqual(await treeMoves(page), moves, 'the game is the main line');
  assert.equal(await current(page), moves[1], 'at the move the replay showed');
  assert.equal(await page.inputValue('#position-text'), game.moves[1].position);
  await page.click('#last');
  await page.waitForFunction((m) => document.querySelector('#tree button.mv.current')?.dataset.move === m, moves[3]);
  assert.equal(await page.inputValue('#position-text'), game.position);

  // The finished game's page links to the board at its last position, its moves the main line.
  await page.goto(`/g/${id}`);
  await page.waitForSelector('#result:not([hidden])');
  await Promise.all([page.waitForURL(/\/analysis\?/), page.click('#analyse-link')]);
  await page.waitForFunction((m) => document.querySelector('#tree button.mv.current')?.dataset.move === m, moves[3]);
  assert.deepEqual(await treeMoves(page), moves);
  assert.equal(await page.inputValue('#position-text'), game.position);
  const fromGame = page.url();

  // A puzzle opens on the board at its position, under its variant.
  const [first] = await api('/api/puzzles?variant=kete');
  const puzzle = await api(`/api/puzzles/${first.id}`);
  await page.goto(`/puzzles?id=${first.id}`);
  await page.waitForSelector('#board g.pit.legal');
  await Promise.all([page.waitForURL(/\/analysis\?/), page.click('#analyse-link')]);
  await page.waitForFunction((p) => document.querySelector('#position-text').value === p, puzzle.position);
  assert.equal(new URL(page.url()).searchParams.get('variant'), 'kete');
  await page.goto(fromGame);
  await page.waitForSelector('#tree button.mv.current');

  // A move of the tree shown by a tap: the address says which (at=2).
  await page.click(`#tree button.mv[data-move="${moves[1]}"]`);
  await page.waitForFunction((m) => document.querySelector('#tree button.mv.current')?.dataset.move === m, moves[1]);
  assert.equal(new URL(page.url()).searchParams.get('at'), '2');

  // Offline: the page and the engine come from the service worker's cache.
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.waitForFunction(() => !!navigator.serviceWorker.controller);
  const link = page.url();
  await context.setOffline(true);
  await page.goto(link);
  await page.waitForSelector('#tree button.mv.current');
  assert.equal(await page.inputValue('#position-text'), game.moves[1].position);
  await page.uncheck('#animate');
  await page.click('#last');
  await page.waitForFunction((m) => document.querySelector('#tree button.mv.current')?.dataset.move === m, moves[3]);
  await page.waitForSelector('#board g.pit.legal');
  await playMove(page);
  assert.equal((await treeMoves(page)).length, 5);
  await page.waitForFunction(() => Number(document.querySelector('#engine').dataset.depth) >= 2);
  await screenshot(page, '50-analysis-offline-360-sw');
  assertClean(page, { allowConsole: [/net::ERR_INTERNET_DISCONNECTED/, /Failed to load resource/] });
  await context.close();
});
