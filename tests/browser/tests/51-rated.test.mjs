// Rated play, profiles and the leaderboard (docs/api.md "Ratings"; static/rated.js,
// profile.js, leaderboard.js). Two signed-in browsers play a rated game started from the home
// page's form, one resigns after one move, and both see the rating changes in words; the
// winner's profile shows the rating (provisional, "1523?"), won/drawn/lost, a graph (an SVG
// with a path) and the game; the leaderboard (settled ratings only) leaves the provisional
// winner out, links whoever it lists to a profile, and switches games with its tabs.
// These need the ratings backend (GET /api/users/{name}, /api/leaderboard, "rated" games).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, assertClean, screenshot, clickMove, BASE, STATE_TIMEOUT_MS } from '../lib/harness.mjs';
import { PHONE, phone, text } from '../lib/phone.mjs';

const DESKTOP = { viewport: { width: 1280, height: 800 } };

const unique = (stem) => `${stem}${Date.now().toString(36).slice(-6)}${Math.floor(Math.random() * 1000)}`;
const PASSWORD = 'kete-sitini-4';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** Signs up through the page; the browser is then signed in as `name`. */
async function signUp(page, name) {
  await page.goto('/account/signup');
  await page.fill('#username', name);
  await page.fill('#password', PASSWORD);
  await page.click('#submit');
  await page.waitForSelector('#code-box:not([hidden])');
  await page.waitForSelector('#account-name');
}

const WINNER = unique('Zuhura');
const LOSER = unique('Bakari');
let gameId;

test('a rated game between two signed-in browsers: one move, a resignation, both see the rating changes', async () => {
  const a = await phone(browser, 'sw', PHONE);
  const b = await phone(browser, 'en', DESKTOP);
  await signUp(a.page, WINNER);
  await signUp(b.page, LOSER);

  // "Rated game" is offered for a game against a person only.
  await a.page.goto('/');
  await a.page.locator('#variants input[value="kiswahili"]').check();
  await a.page.locator('input[name="opponent"][value="computer"]').check();
  assert.equal(await a.page.locator('#rated-row').isHidden(), true, 'not against the computer');
  await a.page.locator('input[name="opponent"][value="local"]').check();
  assert.equal(await a.page.locator('#rated-row').isHidden(), true, 'not in pass and play');
  await a.page.locator('input[name="opponent"][value="human"]').check();
  await a.page.waitForSelector('#rated-row:not([hidden])');
  await a.page.locator('#rated').check();
  await a.page.selectOption('#side', 'S');
  await a.page.selectOption('#match', 'single_game');
  await Promise.all([a.page.waitForURL(/\/g\//), a.page.click('#start-button')]);
  gameId = new URL(a.page.url()).pathname.split('/')[2];
  await a.page.waitForSelector('#rated-tag:not([hidden])');
  assert.equal((await a.page.textContent('#rated-tag')).trim(), text('sw', 'players', 'players.rated_tag'));
  await a.page.waitForSelector('#invite:not([hidden])');
  const invite = await a.page.inputValue('#invite-link');

  // The other browser joins with the invite link; the game says "Rated" there too.
  await b.page.goto(invite);
  await b.page.waitForSelector('#rated-tag:not([hidden])');
  await a.page.waitForSelector('#invite', { state: 'hidden' });

  // One move by South, then North resigns.
  await a.page.waitForSelector('#board g.pit.legal');
  await clickMove(a.page);
  await b.page.waitForFunction(() => Number(document.querySelector('#board').dataset.ply) >= 1);
  await b.page.waitForSelector('#resign:not([hidden])');
  await b.page.click('#resign');

  for (const [p, lang, you, other] of [
    [a.page, 'sw', 'S', 'N'],
    [b.page, 'en', 'N', 'S'],
  ]) {
    await p.waitForSelector('#result:not([hidden])');
    await p.waitForSelector('#rating-changes[data-state="ready"]', { timeout: STATE_TIMEOUT_MS });
    const changes = await p.$$eval('#rating-change-list li', (lis) => lis.map((li) => [li.dataset.side, Number(li.dataset.change), li.textContent]));
    assert.equal(changes.length, 2, `${lang}: both players' changes`);
    const mine = changes.find((c) => c[0] === you);
    const theirs = changes.find((c) => c[0] === other);
    // South won: a gain for South, a loss for North, each with a sign and in words.
    const south = you === 'S' ? mine : theirs;
    const north = you === 'S' ? theirs : mine;
    assert.ok(south[1] > 0 && north[1] < 0, `${lang}: ${JSON.stringify(changes)}`);
    assert.ok(south[2].startsWith(`+${south[1]}`), south[2]);
    assert.ok(north[2].startsWith(`−${-north[1]}`), north[2]);
    const key = you === 'S' ? 'players.change_you_gain.other' : 'players.change_you_lose.other';
    assert.ok(mine[2].includes(text(lang, 'players', key, { n: Math.abs(mine[1]) })), `${lang}: ${mine[2]}`);
    await screenshot(p, `51-rated-end-${lang}`);
    assertClean(p);
  }
  await a.context.close();
  await b.context.close();
});

test('the profile: ratings, results, a graph drawn as an SVG path, recent games; the leaderboard and its tabs', async () => {
  assert.ok(gameId, 'the rated game of the test above');
  const { context, page } = await phone(browser, 'sw', PHONE);
  await page.goto(`/@/${WINNER}`);
  await page.waitForSelector('#profile[data-state="ready"]');
  assert.equal((await page.textContent('#profile-name')).trim(), WINNER);
  // One rated game: a provisional rating, "1523?".
  assert.match((await page.textContent('#ratings li[data-variant="kiswahili"] .rating [aria-hidden]')).trim(), /^\d{3,4}\?$/);
  assert.deepEqual(await page.$$eval('#results dd', (dds) => dds.map((d) => d.textContent)), ['1', '0', '0']);
  const d = await page.getAttribute('#graph-kiswahili svg path.line', 'd');
  // From the start (1500) to the rating after the game: two points.
  assert.match(d, /^M[\d.]+,[\d.]+ L[\d.]+,[\d.]+$/, `the graph has a path of two points: ${d}`);
  assert.equal(await page.getAttribute('#graph-kiswahili svg', 'role'), 'img');
  assert.ok((await page.textContent('#graph-kiswahili-text')).length > 20, 'a text summary of the graph');
  await page.waitForSelector(`#recent-games li[data-game="${gameId}"] a[href="/g/${gameId}"]`);
  const scroll = await page.evaluate(() => document.scrollingElement.scrollWidth);
  assert.ok(scroll <= 360, `the profile is ${scroll} px wide`);
  await screenshot(page, '51-profile-sw-360');

  // The leaderboard lists settled ratings only: one rated game leaves the winner provisional,
  // so not listed. Whoever is listed links to a profile; an empty list says why in words.
  await page.goto('/leaderboard?variant=kiswahili');
  await page.waitForSelector('#leaderboard[data-state="ready"]');
  assert.equal(await page.locator(`#board-rows tr[data-player="${WINNER}"]`).count(), 0, 'a provisional rating is not on the leaderboard');
  const listed = async () => {
    const rows = await page.$$eval('#board-rows tr', (trs) => trs.map((tr) => [tr.dataset.player, tr.querySelector('a')?.getAttribute('href')]));
    for (const [name, href] of rows) assert.equal(href, `/@/${encodeURIComponent(name)}`);
    if (rows.length === 0) assert.equal(await page.locator('#board-empty').isVisible(), true, 'the empty list is said in words');
    return rows;
  };
  await listed();
  await screenshot(page, '51-leaderboard-sw-360');
  // Another game's tab: the address and the current tab follow; Back returns.
  await page.click('#variant-tabs a[data-variant="kete"]');
  await page.waitForSelector('#variant-tabs a[data-variant="kete"][aria-current="page"]');
  await page.waitForSelector('#leaderboard[data-state="ready"]');
  assert.match(page.url(), /variant=kete/);
  assert.match(await page.textContent('#board-caption'), /Bao la Kete/);
  await listed();
  await page.goBack();
  await page.waitForSelector('#variant-tabs a[data-variant="kiswahili"][aria-current="page"]');
  await page.waitForSelector('#leaderboard[data-state="ready"]');
  // A game on the profile links to its page, which says it was rated.
  await page.goto(`/@/${WINNER}`);
  await Promise.all([page.waitForURL(new RegExp(`/g/${gameId}$`)), page.click(`#recent-games li[data-game="${gameId}"] a`)]);
  await page.waitForSelector('#rated-tag:not([hidden])');
  assertClean(page);
  await context.close();
});

test('a guest opening the invite of a rated game is told in words that it needs an account', async () => {
  // The host: an account made through the API, which creates a rated game with an invite.
  const host = unique('Mwenyeji');
  const res = await fetch(`${BASE}/api/account/signup`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: host, password: PASSWORD }) });
  assert.equal(res.status, 201, await res.text());
  const session = /bao_session=([0-9a-f]+)/.exec(res.headers.get('set-cookie'))[1];
  const made = await fetch(`${BASE}/api/games`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Cookie: `bao_session=${session}` },
    body: JSON.stringify({ variant: 'kete', opponent: { kind: 'human' }, rated: true }),
  });
  assert.equal(made.status, 201);
  const g = await made.json();
  // The guest's join is refused with the one answer for "signed out" (401 not_signed_in): the
  // page says that a rated game needs an account, in Swahili, not a generic refusal.
  const { context, page } = await phone(browser, 'sw', PHONE);
  await page.goto(`/g/${g.id}?invite=${g.invite}`);
  const words = text('sw', 'players', 'players.err_rated_needs_account');
  await page.waitForFunction((w) => document.querySelector('#page-status')?.textContent === w, words);
  assert.equal(await page.isVisible('#page-status'), true);
  await screenshot(page, '51-rated-guest-invite-sw-360');
  // The refused join is the page's only console error (browsers log every 401).
  assertClean(page, { allowConsole: [/401/] });
  await context.close();
});
