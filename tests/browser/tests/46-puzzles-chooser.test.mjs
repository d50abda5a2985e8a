// The puzzles page uses the game page's move chooser (static/chooser.js): a pit with several
// moves asks the direction or kichwa, then stop or safari, in the page's language; Cancel goes
// back to the choice of a pit; the puzzle's move played through the chooser is accepted.
// Swahili on a phone (360x640), with a screenshot.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { launch, openPage, assertClean, api, screenshot, ROOT } from '../lib/harness.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const catalog = (lang) => JSON.parse(readFileSync(path.join(ROOT, 'crates/bao-server/web/i18n', lang, 'choose.json'), 'utf8'));

/** The fixed part of a catalog text (before its first parameter). */
const head = (text) => text.split('{')[0].trim();

test('the puzzles page in Swahili: the shared chooser asks the way to play a pit, cancels, and plays the move', async () => {
  const sw = catalog('sw');
  const en = catalog('en');
  // A kiswahili puzzle whose first move comes from a pit with several legal moves.
  const list = await api('/api/puzzles?variant=kiswahili');
  let found = null;
  for (const p of list) {
    const one = await api(`/api/puzzles/${p.id}`);
    const pit = p.moves[0].slice(0, 2);
    if (one.legal.filter((m) => m.slice(0, 2) === pit).length > 1) {
      found = one;
      break;
    }
  }
  assert.ok(found, 'a puzzle whose first move is one of several from its pit');
  const move = found.moves[0];
  const pit = move.slice(0, 2);

  const { context, page } = await openPage(browser, { viewport: { width: 360, height: 640 } });
  await page.goto(`/puzzles?lang=sw&id=${found.id}`);
  await page.waitForFunction((pos) => document.querySelector('#board svg')?.getAttribute('data-position') === pos, found.position);
  // The prompt of the chooser: how many pits to choose from, in words.
  const pits = new Set(found.legal.map((m) => m.slice(0, 2))).size;
  const pickPrompt = (pits === 1 ? sw['choose.click_one_of.one'] : sw['choose.click_one_of.other']).replace('{n}', pits);
  await page.waitForSelector('#chooser .prompt');
  assert.equal((await page.textContent('#chooser .prompt')).trim(), pickPrompt);

  // The pit: a question in Swahili, with buttons for the letters or for stop / safari.
  await page.click(`#board g.pit.legal[data-pit="${pit}"]`);
  await page.waitForSelector('#chooser button[data-letter], #chooser button[data-choice]');
  const prompt = (await page.textContent('#chooser .prompt')).trim();
  const questions = ['choose.q_way_capture', 'choose.q_way_takasa', 'choose.q_kichwa', 'choose.q_house'];
  assert.ok(questions.some((k) => prompt.startsWith(head(sw[k]))), `a Swahili question: ${prompt}`);
  assert.ok(!questions.some((k) => prompt.startsWith(head(en[k]))), `no English question: ${prompt}`);
  await screenshot(page, '46-puzzle-chooser-sw-360');

  // Cancel ("Ghairi"): back to choosing a pit.
  await page.click(`#chooser button:has-text("${sw['choose.cancel']}")`);
  await page.waitForFunction(() => !document.querySelector('#chooser button'));
  assert.equal((await page.textContent('#chooser .prompt')).trim(), pickPrompt);

  // The puzzle's move, through the chooser's steps: the letter if asked, then stop or safari.
  await page.click(`#board g.pit.legal[data-pit="${pit}"]`);
  await page.waitForSelector('#chooser button[data-letter], #chooser button[data-choice]');
  const letter = /[LR]/.test(move[2] || '') ? move[2] : null;
  const letterButton = page.locator(`#chooser button[data-letter="${letter}"]`);
  if (letter && (await letterButton.count()) > 0) await letterButton.click();
  const choice = page.locator(`#chooser button[data-choice="${move.includes('+') ? 'safari' : 'stop'}"]`);
  if ((await choice.count()) > 0) await choice.click();
  await page.waitForFunction(() => document.querySelector('#feedback').className === 'good');
  // "Sahihi: …" (correct), or the Swahili "solved" sentence when it was the only move.
  const feedback = await page.textContent('#feedback');
  assert.ok(feedback.includes(move) && !/Correct|Solved/.test(feedback), feedback);
  assertClean(page);
  await context.close();
});
