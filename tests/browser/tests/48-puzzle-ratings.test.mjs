// Rated puzzles on a phone in Swahili (docs/api.md "Puzzles", "Rated puzzles"): a signed-in
// player solves one puzzle and fails another and reads how their puzzle rating moved, in words,
// both ways; a guest's solved puzzle is remembered after a reload (localStorage).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, assertClean, api, screenshot, BASE } from '../lib/harness.mjs';
import { PHONE, phone, text, unique } from '../lib/phone.mjs';
import { play } from '../lib/puzzles.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** Opens puzzle `id` in Swahili and waits for it. */
async function openPuzzle(page, id) {
  await page.goto(`/puzzles?lang=sw&id=${id}`);
  await page.waitForFunction((i) => document.body.dataset.puzzleOpen === i && document.querySelector('#board g.pit.legal'), id);
}

/** No sideways scrolling. */
async function fits(page) {
  const w = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(w <= 360, `the page is ${w} px wide`);
}

// Two kete seeds puzzles (one solver move each): one solved, one failed by a legal move from
// another pit.
const seeds = async () => (await api('/api/puzzles?variant=kete')).filter((p) => p.goal.kind === 'seeds');

test('a signed-in player on a phone in Swahili: a puzzle solved and one failed, the rating change in words', async () => {
  const [solve, fail] = (await seeds()).slice(5, 7);
  const res = await fetch(`${BASE}/api/account/signup`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: unique('Fumbo'), password: 'mafumbo-ya-bao-1' }) });
  assert.equal(res.status, 201, await res.clone().text());
  const session = /bao_session=([0-9a-f]+)/.exec(res.headers.get('set-cookie'))[1];
  const { context, page } = await phone(browser, 'sw', PHONE);
  await context.addCookies([{ name: 'bao_session', value: session, url: BASE }]);

  await openPuzzle(page, solve.id);
  await page.waitForFunction((w) => document.querySelector('#ratings').textContent.startsWith(w), text('sw', 'puzzles', 'puzzles.ratings_signed_in', { mine: 1500 }).split('.')[0]);
  await play(page, solve.moves[0]);
  await page.waitForSelector('#rating-change:not([hidden])');
  const up = Number(await page.getAttribute('#rating-change', 'data-change'));
  assert.ok(up > 0, `the rating went up (${up})`);
  assert.equal(await page.textContent('#rating-change'), text('sw', 'puzzles', 'puzzles.rating_up', { change: up, rating: 1500 + up }));
  await fits(page);
  await screenshot(page, '48-puzzle-rated-up-sw-360');

  await openPuzzle(page, fail.id);
  const one = await api(`/api/puzzles/${fail.id}`);
  const wrong = one.legal.find((m) => m.slice(0, 2) !== fail.moves[0].slice(0, 2));
  assert.ok(wrong, 'a move from another pit');
  await play(page, wrong);
  await page.waitForSelector('#rating-change:not([hidden])');
  const down = -Number(await page.getAttribute('#rating-change', 'data-change'));
  assert.ok(down > 0, `the rating went down (${down})`);
  assert.equal(await page.textContent('#rating-change'), text('sw', 'puzzles', 'puzzles.rating_down', { change: down, rating: 1500 + up - down }));
  // The server says the same.
  const me = await (await fetch(`${BASE}/api/puzzles/${fail.id}`, { headers: { Cookie: `bao_session=${session}` } })).json();
  assert.equal(me.player.rating, 1500 + up - down);
  assert.equal(me.attempted, true);
  await fits(page);
  await screenshot(page, '48-puzzle-rated-down-sw-360');

  // The dashboard, from the puzzles page's link: both tries counted, each theme's record
  // (computed here from the two puzzles' themes), the weakest first, the history in words.
  await Promise.all([page.waitForURL(/\/puzzles\/dashboard/), page.click('#dashboard-link')]);
  await page.waitForSelector('#dashboard[data-state="ready"]');
  await page.selectOption('#variant', 'kete');
  await page.waitForSelector('#dashboard[data-state="ready"][data-variant="kete"]');
  const rating = 1500 + up - down;
  assert.equal(
    await page.textContent('#d-rating'),
    me.player.provisional ? text('sw', 'puzzles', 'puzzles.dash_rating_provisional', { rating }) : String(rating),
  );
  assert.equal(await page.textContent('#d-solved'), text('sw', 'puzzles', 'puzzles.dash_solved_of', { solved: 1, tried: 2 }));
  const want = new Map();
  for (const [p, ok] of [[solve, 1], [fail, 0]]) {
    for (const th of p.themes) {
      const c = want.get(th) || { tried: 0, solved: 0 };
      want.set(th, { tried: c.tried + 1, solved: c.solved + ok });
    }
  }
  const rows = await page.$$eval('#themes > li', (lis) => lis.map((li) => [li.dataset.theme, li.querySelector('.d-line').textContent]));
  assert.equal(rows.length, want.size, JSON.stringify(rows));
  const shares = [];
  for (const [th, line] of rows) {
    const c = want.get(th);
    assert.ok(c, `theme ${th} is one of the two puzzles'`);
    const percent = Math.floor((c.solved * 100) / c.tried);
    assert.equal(line, text('sw', 'puzzles', 'puzzles.dash_theme_line', { solved: c.solved, tried: c.tried, percent }));
    shares.push(c.solved / c.tried);
  }
  assert.deepEqual(shares, [...shares].sort((x, y) => x - y), 'the weakest theme first');
  assert.equal(
    await page.textContent('#history-text'),
    text('sw', 'puzzles', 'puzzles.dash_history_text', { n: 2, first: 1500 + up, last: rating, low: Math.min(1500 + up, rating), high: 1500 + up }),
  );
  await fits(page);
  await screenshot(page, '48-puzzle-dashboard-sw-360');
  assertClean(page);
  await context.close();
});

test('a guest on a phone in Swahili: a solved puzzle is remembered after a reload', async () => {
  const p = (await seeds())[9];
  const { context, page } = await phone(browser, 'sw', PHONE);
  await openPuzzle(page, p.id);
  assert.match(await page.textContent('#ratings'), /Kiwango cha fumbo hili/);
  await play(page, p.moves[0]);
  await page.waitForFunction((id) => document.body.dataset.puzzleSolved === id, p.id);
  await page.reload();
  await page.waitForFunction((id) => document.body.dataset.puzzleOpen === id, p.id);
  await page.locator(`#list button.solved[data-id="${p.id}"]`).waitFor();
  assert.match(await page.textContent('#progress'), /Umetatua 1 kati ya \d+/);
  await fits(page);
  assertClean(page);
  await context.close();
});
