// The puzzle streak and the puzzles of the day on a phone in Swahili (docs/api.md "Puzzles",
// "Streak", GET /api/puzzles/daily): a signed-in player starts a streak, solves its first puzzle
// by tapping the board (the solution read from the API), the streak reads 1, then a wrong move
// ends it in words and the best streak stays 1 after a reload; the home page shows one puzzle
// of the day per game, one opens on /puzzles and is solved, and a second phone (a guest) sees
// the same three.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, assertClean, screenshot, BASE } from '../lib/harness.mjs';
import { PHONE, phone, text, unique, accountByApi, callAs } from '../lib/phone.mjs';
import { play } from '../lib/puzzles.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const VARIANTS = ['kiswahili', 'kete', 'kimasai'];

/** Solves the open puzzle `p` (from the API) move by move, each reply awaited, until the page
 * says it is solved. */
async function solve(page, p) {
  for (let i = 0; i < p.moves.length; i += 2) {
    await play(page, p.moves[i]);
    if (i + 2 < p.moves.length) {
      const reply = text('sw', 'puzzles', 'puzzles.reply', { move: p.moves[i], reply: p.moves[i + 1] });
      await page.waitForFunction((w) => document.querySelector('#feedback').textContent === w, reply);
      await page.locator(`#board g.pit.legal[data-pit="${p.moves[i + 2].slice(0, 2)}"]`).waitFor();
    }
  }
  await page.waitForFunction((id) => document.body.dataset.puzzleSolved === id, p.id);
}

/** The id of the puzzle the page opened after `before` (another one than it). */
async function opened(page, before) {
  const h = await page.waitForFunction(
    (b) => document.body.dataset.puzzleOpen && document.body.dataset.puzzleOpen !== b && document.querySelector('#board g.pit.legal') && document.body.dataset.puzzleOpen,
    before,
  );
  return h.jsonValue();
}

/** No sideways scrolling. */
async function fits(page) {
  const w = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(w <= 360, `the page is ${w} px wide`);
}

async function streakLine(page) {
  return (await page.textContent('#streak')).trim();
}

test('a signed-in player on a phone in Swahili: a streak of one, ended by a wrong move, the best kept', async () => {
  const session = await accountByApi(unique('Mfululizo'), 'mafumbo-ya-bao-1');
  const { context, page } = await phone(browser, 'sw', PHONE);
  await context.addCookies([{ name: 'bao_session', value: session, url: BASE }]);
  await page.goto('/puzzles?lang=sw');
  await opened(page, '');
  await page.waitForFunction(() => document.querySelector('#streak').dataset.streak === '0');
  assert.equal(await streakLine(page), text('sw', 'puzzles', 'puzzles.streak_line', { n: 0, best: 0 }));

  // The streak switch: the page opens the streak's first puzzle, the server's choice.
  const variant = await page.inputValue('#variant');
  await page.check('#streak-mode');
  const { data: streak } = await callAs(`/api/puzzles/streak?variant=${variant}`, { session });
  const id = streak.next.id;
  await page.waitForFunction((i) => document.body.dataset.puzzleOpen === i && document.querySelector('#board g.pit.legal'), id);
  const p = (await callAs(`/api/puzzles/${id}`, { session })).data;
  await screenshot(page, '59-streak-start-sw-360');
  await solve(page, p);
  await page.waitForFunction(() => document.querySelector('#streak').dataset.streak === '1');
  assert.equal(await streakLine(page), text('sw', 'puzzles', 'puzzles.streak_line', { n: 1, best: 1 }));
  await fits(page);
  await screenshot(page, '59-streak-one-sw-360');

  // The next puzzle of the streak, missed: the page says the streak ended, the best is 1.
  await page.click('#next');
  const second = await opened(page, id);
  const q = (await callAs(`/api/puzzles/${second}`, { session })).data;
  const wrong = q.legal.find((m) => m.slice(0, 2) !== q.moves[0].slice(0, 2)) || q.legal.find((m) => m !== q.moves[0]);
  assert.ok(wrong, 'a move that is not the solution');
  await play(page, wrong);
  await page.waitForFunction(() => document.querySelector('#streak').dataset.ended === 'yes');
  assert.equal(await streakLine(page), text('sw', 'puzzles', 'puzzles.streak_ended', { n: 1, best: 1 }));
  assert.equal(await page.getAttribute('#streak', 'data-best'), '1');
  await fits(page);
  await screenshot(page, '59-streak-ended-sw-360');

  // The server keeps it: after a reload the streak is 0 and the best still 1.
  await page.reload();
  await page.waitForFunction(() => document.body.dataset.puzzleOpen && document.querySelector('#streak').dataset.best === '1');
  assert.equal(await streakLine(page), text('sw', 'puzzles', 'puzzles.streak_line', { n: 0, best: 1 }));
  const { data: after } = await callAs(`/api/puzzles/streak?variant=${variant}`, { session });
  assert.equal(after.streak, 0);
  assert.equal(after.best_streak, 1);
  await fits(page);
  await screenshot(page, '59-streak-reload-sw-360');
  assertClean(page);
  await context.close();
});

/** The puzzles of the day the home page links to: variant -> id, in the page's order. */
async function dailyOnHome(page) {
  await page.goto('/?lang=sw');
  await page.waitForSelector('#daily-box:not([hidden]) #daily-puzzles li a');
  return page.$$eval('#daily-puzzles li', (lis) =>
    lis.map((li) => ({
      game: li.querySelector('div > div').textContent,
      goal: li.querySelector('.meta').textContent,
      href: li.querySelector('a').getAttribute('href'),
      label: li.querySelector('a').getAttribute('aria-label'),
      text: li.querySelector('a').textContent,
    })),
  );
}

test('the puzzles of the day on two phones in Swahili: one a game, the same for both, one solved', async () => {
  const session = await accountByApi(unique('Leo'), 'mafumbo-ya-bao-1');
  const { context, page } = await phone(browser, 'sw', PHONE);
  await context.addCookies([{ name: 'bao_session', value: session, url: BASE }]);
  const shown = await dailyOnHome(page);
  assert.equal(shown.length, VARIANTS.length, JSON.stringify(shown));
  const daily = [];
  for (const [i, v] of VARIANTS.entries()) {
    const p = (await callAs(`/api/puzzles/daily?variant=${v}`)).data;
    daily.push(p);
    const s = shown[i];
    assert.equal(s.href, `/puzzles?id=${encodeURIComponent(p.id)}`);
    assert.equal(s.text, text('sw', 'home', 'home.daily_solve'));
    assert.equal(s.label, text('sw', 'home', 'home.daily_solve_label', { game: s.game }));
    const goal =
      p.goal.kind === 'seeds'
        ? text('sw', 'home', 'home.daily_seeds', { n: p.goal.n })
        : p.goal.kind === 'save_house'
          ? text('sw', 'home', 'home.daily_house')
          : Math.ceil(p.moves.length / 2) === 1
            ? text('sw', 'home', 'home.daily_win.one')
            : text('sw', 'home', 'home.daily_win.other', { n: Math.ceil(p.moves.length / 2) });
    assert.equal(s.goal, goal);
  }
  await page.locator('#daily-box').scrollIntoViewIfNeeded();
  await fits(page);
  await screenshot(page, '59-daily-home-sw-360');

  // The first one tapped: it opens on /puzzles and is solved.
  const p = daily[0];
  await Promise.all([page.waitForURL(/\/puzzles\?/), page.locator(`#daily-puzzles a[href="${shown[0].href}"]`).tap()]);
  await page.waitForFunction((i) => document.body.dataset.puzzleOpen === i && document.querySelector('#board g.pit.legal'), p.id);
  await solve(page, p);
  assert.equal(
    await page.textContent('#feedback'),
    text('sw', 'puzzles', 'puzzles.solved', { move: p.moves[p.moves.length - 1 - ((p.moves.length - 1) % 2)] }),
  );
  await fits(page);
  await screenshot(page, '59-daily-solved-sw-360');
  assertClean(page);

  // A second phone, a guest's: the same three puzzles.
  const other = await phone(browser, 'sw', PHONE);
  const seen = await dailyOnHome(other.page);
  assert.deepEqual(
    seen.map((s) => s.href),
    shown.map((s) => s.href),
  );
  assertClean(other.page);
  await other.context.close();
  await context.close();
});
