// Words, not codes (docs/i18n.md "Words, not codes"; docs/api.md "Endings"): every ending of a
// game (each reason, each winner, for a player and for a spectator), every match line, every
// rule option with each of its values and the match formats, put in words by the one shared
// module (static/words.js) in Swahili, with no English word and no code identifier; then a
// real game lost on time, read in Swahili on the game page and on the replay page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, assertClean, screenshot, api } from '../lib/harness.mjs';

// Bao's own terms, which stay Swahili in English text too, and names that are no language.
const OWN_TERMS = new Set(
  'bao nyumba kichwa vichwa kimbi takasa takasia mtaji namua kuu nemo safari kete kiswahili kimasai la s b bh'.split(' '),
);

const REASONS = ['front_row', 'no_moves', 'never_ending', 'repetition', 'max_plies', 'resignation', 'time', 'abandoned', 'forfeit', 'closed', 'agreement', 'adjudication'];

/** Everything words.js renders, in the page's language: [what, text] pairs. */
async function renderAll(page, variants) {
  return page.evaluate(
    async ({ reasons, variants }) => {
      const w = await import('/static/words.js');
      const out = [];
      for (const reason of reasons) {
        for (const winner of ['S', 'N', null]) {
          const result = winner || (reason === 'closed' ? '-' : 'draw');
          for (const you of ['S', 'N', null]) {
            const state = { result, you };
            if (result !== '-') out.push([`${reason}/${winner}/${you} headline`, w.resultHeadline(state)]);
            out.push([`${reason}/${winner}/${you} sentence`, w.endingSentence({ reason, winner }, result)]);
          }
        }
      }
      // A game whose ending the page does not know: its result still in words.
      for (const result of ['S', 'N', 'draw']) out.push([`no ending ${result}`, w.endingSentence(null, result)]);
      for (const over of [false, true]) {
        for (const [s, n] of [[0, 0], [1, 0], [1, 2]]) {
          out.push([`match ${s}-${n} ${over}`, w.matchScore({ format: 'best_of_three', wins: { S: s, N: n }, over })]);
        }
      }
      for (const f of ['single_game', 'best_of_three']) out.push([`format ${f}`, w.matchFormatName(f)]);
      const all = [];
      for (const v of variants) {
        for (const o of v.options) {
          out.push([`${o.name} name`, w.optionName(o.name)]);
          out.push([`${o.name} help`, w.optionHelp(o.name)]);
          // A range of numbers ("2..64", "1..") stands for a few numbers in it.
          const values = o.values.flatMap((x) => (/^\d+\.\.\d*$/.test(x) ? [x.split('..')[0], '6', '200'] : [x]));
          for (const value of values) {
            out.push([`${o.name}=${value}`, w.optionValue(o.name, value)]);
            all.push(`${o.name}=${value}`);
          }
        }
      }
      for (const item of all) out.push([`rules ${item}`, w.rulesInWords(item).join('; ')]);
      return out;
    },
    { reasons: REASONS, variants },
  );
}

/** The words of a text, lower case, without numbers. */
const wordsOf = (text) => (text.toLowerCase().match(/[a-z\u00c0-\u024f']+/g) || []).map((x) => x.replace(/^'+|'+$/g, '')).filter(Boolean);

/** What is wrong with a Swahili text: English words (of `english`) and code identifiers. */
function problems(text, english, rawValues) {
  const found = [];
  if (/\b[a-z0-9]+_[a-z0-9_]+\b/i.test(text)) found.push('snake_case');
  if (/\b\w+=\w+/.test(text)) found.push('key=value');
  if (/\b[a-z]+\.[a-z_]+\b/.test(text)) found.push('a catalog key');
  for (const w of wordsOf(text)) {
    if (rawValues.has(w)) found.push(`raw value "${w}"`);
    else if (english.has(w) && !OWN_TERMS.has(w)) found.push(`English "${w}"`);
  }
  return found;
}

let browser;
let variants;
let englishRendered; // [what, text] of every case in English
let english; // every word the English rendering uses
let rawValues; // every option value as the API sends it
before(async () => {
  browser = await launch();
  variants = await api('/api/variants');
  rawValues = new Set(variants.flatMap((v) => v.options.flatMap((o) => o.values)).filter((x) => /^[a-z_]+$/.test(x)));
  const { page } = await openPage(browser);
  await page.goto('/?lang=en');
  englishRendered = await renderAll(page, variants);
  english = new Set(englishRendered.flatMap(([, text]) => wordsOf(text)));
  // Words Swahili shares with English spelling: none of these is in the English rendering,
  // which this check relies on.
  for (const w of ['sare', 'mechi', 'zamu']) assert.ok(!english.has(w), w);
});
after(async () => {
  await browser?.close();
});

test('every ending, match line, rule option and match format is in Swahili words', async () => {
  const { page } = await openPage(browser, { viewport: { width: 360, height: 640 } });
  await page.goto('/?lang=sw');
  await page.waitForSelector('html[lang="sw"]');
  const rendered = await renderAll(page, variants);
  const bad = [];
  for (const [what, text] of rendered) {
    if (!text) {
      // Every case has words, but an option's help may be missing only for an option the
      // page does not know; the match format's help is the home page's.
      bad.push(`${what}: empty`);
      continue;
    }
    const p = problems(text, english, rawValues);
    if (p.length) bad.push(`${what}: ${JSON.stringify(text)}: ${p.join(', ')}`);
  }
  assert.deepEqual(bad, []);
  // The loss on time, as a player reads it on a phone.
  const time = rendered.find(([what]) => what === 'time/N/S sentence')[1];
  assert.match(time, /Muda wa Kusini umekwisha: Kaskazini ameshinda\./);
  assertClean(page);
});

test('every ending, match line, rule option and match format is in English words too, without codes', () => {
  const bad = [];
  for (const [what, text] of englishRendered) {
    // English words may spell an option value ("none", "never"): only codes are looked for.
    const p = text ? problems(text, new Set(), new Set()) : ['empty'];
    if (p.length) bad.push(`${what}: ${JSON.stringify(text)}: ${p.join(', ')}`);
  }
  assert.deepEqual(bad, []);
  const time = englishRendered.find(([what]) => what === 'time/N/null sentence')[1];
  assert.equal(time, 'South ran out of time: North has won.');
});

test('a game lost on time reads in Swahili on the game page and the replay page', async () => {
  const g = await api('/api/games', {
    method: 'POST',
    body: {
      variant: 'kiswahili',
      opponent: { kind: 'human' },
      side: 'S',
      match: 'single_game',
      rules: 'never_ending=mover_loses,takasia=false',
      clock: { initial_ms: 300, increment_ms: 0 },
    },
  });
  await api(`/api/games/${g.id}/join`, { method: 'POST', body: { invite: g.invite, name: 'Baraka' } });
  const { page } = await openPage(browser, { viewport: { width: 360, height: 640 } });
  await page.goto(`/g/${g.id}?lang=sw`);
  // South's clock runs out (the server decides, docs/api.md "Clocks").
  await page.waitForSelector('#turn.over');
  await page.waitForSelector('#result:not([hidden])');
  const s = await api(`/api/games/${g.id}`);
  assert.deepEqual(s.ending, { reason: 'time', winner: 'N' });
  assert.equal(s.result_text, 'South ran out of time: North has won', 'the API keeps its English sentence');
  const shown = {
    headline: await page.textContent('#turn-headline'),
    banner: await page.textContent('#turn-detail'),
    resultHeadline: await page.textContent('#result-headline'),
    result: await page.textContent('#result-text'),
    rules: await page.textContent('#rules-tag'),
  };
  assert.match(shown.banner, /Muda wa Kusini umekwisha: Kaskazini ameshinda/);
  assert.match(shown.result, /Muda wa Kusini umekwisha: Kaskazini ameshinda/);
  assert.match(shown.rules, /Zamu isiyoisha: aliyeicheza anashindwa/);
  for (const [where, text] of Object.entries(shown)) assert.deepEqual(problems(text, english, rawValues), [], `${where}: ${text}`);
  await screenshot(page, '11-words-time-game-sw');

  await page.goto(`/replay?game=${encodeURIComponent(g.id)}&lang=sw`);
  await page.waitForSelector('#viewer:not([hidden]) #facts dd');
  const facts = await page.textContent('#facts');
  assert.match(facts, /Muda wa Kusini umekwisha: Kaskazini ameshinda/);
  assert.match(facts, /Mechi: mchezo mmoja/);
  // Names are the players' own (Baraka), not words of a language.
  assert.deepEqual(problems(facts.replace(/Baraka/g, ''), english, rawValues), [], facts);
  await screenshot(page, '11-words-time-replay-sw');
  assertClean(page);
});
