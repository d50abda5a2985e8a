// Team battles in the browser (docs/api.md "Arenas", "Team battles"; templates/arena.html,
// static/arena.js, arenas.js). Two 360x640 phones in Swahili, each a signed-in member of a
// club: Asha leads one club and is a member of the other too, Baraka leads the other. The
// battle is marked in the list; Asha's page asks which club she plays for, Baraka's does not;
// both join from the battle's page, are paired, Asha resigns, and both read the clubs' ranking
// move (Baraka's club first, in words, with its best player named). Every wait is for a state.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, assertClean, screenshot, BASE } from '../lib/harness.mjs';
import { phone, text, unique, callAs, accountByApi, noSidewaysScroll } from '../lib/phone.mjs';

const PASSWORD = 'kete-sitini-4';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** A Swahili phone signed in as a new account: {context, page, name, session}. */
async function player(stem) {
  const name = unique(stem);
  const session = await accountByApi(name, PASSWORD);
  const { context, page } = await phone(browser, 'sw');
  await context.addCookies([{ name: 'bao_session', value: session, url: BASE }]);
  await context.addInitScript((n) => localStorage.setItem('bao.account', JSON.stringify({ username: n })), name);
  return { context, page, name, session };
}

/** The game id of "Your game" once it shows one. */
async function yourGame(page) {
  const handle = await page.waitForFunction(() => {
    const a = document.querySelector('#your-game');
    const g = document.querySelector('#arena')?.dataset.game;
    return a && !a.hidden && g ? g : null;
  });
  return handle.jsonValue();
}

const sw = (key, params) => text('sw', 'arenas', key, params);

test('two phones in Swahili: members of two clubs join a team battle from its page, are paired, play to a result and see the clubs ranking move', async () => {
  const a = await player('Asha');
  const b = await player('Baraka');
  const clubA = `Simba ${unique('')}`;
  const clubB = `Nyota ${unique('')}`;
  const idA = (await callAs('/api/clubs', { session: a.session, method: 'POST', body: { name: clubA, place: 'Mombasa', description: '', open: true } })).data.id;
  const idB = (await callAs('/api/clubs', { session: b.session, method: 'POST', body: { name: clubB, place: 'Dodoma', description: '', open: true } })).data.id;
  // Asha is a member of both clubs: she has to say which she plays for.
  await callAs(`/api/clubs/${idB}/join`, { session: a.session, method: 'POST', body: {} });
  const name = `Vita ${unique('Jioni')}`;
  // Asha makes the battle from the /arenas form: both clubs found by name and added; one club
  // alone is refused in words before anything is sent.
  await a.page.goto('/arenas');
  await a.page.waitForSelector('#create-form:not([hidden])');
  await a.page.fill('#a-name', name);
  await a.page.selectOption('#a-clock', '600000+5000');
  await a.page.fill('#a-minutes', '60');
  await a.page.uncheck('#a-berserk');
  await a.page.check('#a-battle');
  await a.page.waitForSelector('#battle-box:not([hidden])');
  const add = async (club, cid) => {
    await a.page.fill('#b-q', club);
    await a.page.click('#b-search');
    const row = a.page.locator(`#b-found li[data-club="${cid}"]`);
    await row.waitFor();
    await row.locator('button[data-act="add"]').click();
    await a.page.waitForSelector(`#b-chosen li[data-club="${cid}"]`);
  };
  await add(clubA, idA);
  await a.page.fill('#b-leaders', '1');
  await a.page.click('#create-button');
  await a.page.waitForSelector('#b-q-err:not([hidden])');
  assert.equal(await a.page.textContent('#b-q-err'), sw('arenas.err_battle_clubs'));
  await add(clubB, idB);
  // Two clubs now: the refusal has gone.
  await a.page.waitForSelector('#b-q-err[hidden]', { state: 'attached' });
  await noSidewaysScroll(a.page, 'the battle form');
  await screenshot(a.page, '58-battle-form-sw-360');
  await Promise.all([a.page.waitForURL(/\/a\/[a-z0-9]+$/), a.page.click('#create-button')]);
  const id = new URL(a.page.url()).pathname.split('/')[2];

  // The list marks the battle and names its clubs.
  await a.page.goto('/arenas');
  await a.page.waitForSelector('#arenas[data-state="ready"]');
  const card = a.page.locator(`#list-running li[data-id="${id}"]`);
  await card.waitFor();
  assert.equal((await card.locator('.tag.battle').textContent()).trim(), sw('arenas.battle_tag'));
  assert.equal((await card.locator('.battle-clubs').textContent()).trim(), sw('arenas.battle_clubs', { clubs: `${clubA}, ${clubB}` }));
  await noSidewaysScroll(a.page, '/arenas with a battle');
  await Promise.all([a.page.waitForURL(new RegExp(`/a/${id}$`)), card.locator('a.t-name').click()]);
  await b.page.goto(`/a/${id}`);

  for (const p of [a, b]) {
    await p.page.waitForSelector('#arena[data-state="ready"][data-status="running"][data-battle="true"]');
    await p.page.waitForSelector('#arena[data-socket="open"]');
    assert.equal((await p.page.textContent('#battle-about')).trim(), sw('arenas.battle_about', { n: 1 }));
    // Nobody has played: both clubs share the first place.
    for (const [club, cname] of [
      [idA, clubA],
      [idB, clubB],
    ]) {
      const li = p.page.locator(`#battle-clubs li[data-club="${club}"][data-rank="1"][data-score="0"]`);
      await li.waitFor();
      assert.equal((await li.locator('.a-club-place').textContent()).trim(), sw('arenas.battle_place', { rank: 1, name: cname, points: 0 }));
    }
  }
  // Asha picks her club before joining; Baraka, a member of one, is not asked.
  await a.page.waitForSelector('#club-pick:not([hidden])');
  assert.equal((await a.page.textContent('label[for="club-select"]')).trim(), sw('arenas.pick_club'));
  assert.ok(await b.page.locator('#club-pick').isHidden());
  await a.page.selectOption('#club-select', idA);
  await screenshot(a.page, '58-battle-pick-club-sw-360');
  await noSidewaysScroll(a.page, '/a/{id} picking a club');
  for (const p of [a, b]) {
    await p.page.click('#join-button');
    await p.page.waitForSelector('#arena[data-joined="true"]');
  }
  await a.page.waitForSelector('#club-pick[hidden]', { state: 'attached' });

  // Paired together; each page says which club its player plays for.
  const [ga, gb] = await Promise.all([yourGame(a.page), yourGame(b.page)]);
  assert.equal(ga, gb, 'the two players are paired together');
  for (const [p, cname] of [
    [a, clubA],
    [b, clubB],
  ]) {
    await p.page.waitForFunction((s) => document.querySelector('#you-status')?.textContent.includes(s), sw('arenas.you_club', { club: cname }));
    assert.ok((await p.page.textContent(`#standings tr[data-player="${p.name}"]`)).includes(sw('arenas.club_of', { club: cname })));
    await noSidewaysScroll(p.page, '/a/{id} battle paired');
  }
  await screenshot(b.page, '58-battle-paired-sw-360');

  // Asha opens the game and resigns (after Baraka's first move when South is his).
  await Promise.all([a.page.waitForURL(new RegExp(`/g/${ga}$`)), a.page.click('#your-game')]);
  await a.page.waitForSelector('#board svg g.pit');
  const state = await a.page.evaluate(async (g) => (await fetch(`/api/games/${g}`, { credentials: 'same-origin' })).json(), ga);
  if (state.side_to_move !== state.you) {
    await callAs(`/api/games/${ga}/moves`, { session: b.session, method: 'POST', body: { move: state.legal[0].move, ply: state.ply } });
  }
  await a.page.waitForSelector('#resign:not([hidden])');
  await a.page.click('#resign');
  await a.page.waitForSelector('#result:not([hidden])');

  // Baraka's page, never reloaded, reads the clubs' ranking move: his club first with his two
  // points, Asha's second.
  const first = b.page.locator(`#battle-clubs li[data-club="${idB}"][data-rank="1"][data-score="2"]`);
  await first.waitFor();
  assert.equal((await first.locator('.a-club-place').textContent()).trim(), sw('arenas.battle_place', { rank: 1, name: clubB, points: 2 }));
  assert.equal(
    (await first.locator('.a-club-leaders').textContent()).trim(),
    sw('arenas.battle_leaders', { list: sw('arenas.battle_leader', { name: b.name, points: 2 }) }),
  );
  await b.page.waitForSelector(`#battle-clubs li[data-club="${idA}"][data-rank="2"][data-score="0"]`);
  assert.equal((await b.page.textContent('#battle-clubs li:first-child .a-club-place')).trim(), sw('arenas.battle_place', { rank: 1, name: clubB, points: 2 }));
  await noSidewaysScroll(b.page, '/a/{id} battle after a game');
  await screenshot(b.page, '58-battle-ranking-moved-sw-360');

  // Asha goes back through the game's link: the same ranking, her club marked as hers.
  await Promise.all([a.page.waitForURL(new RegExp(`/a/${id}$`)), a.page.click('#event-link')]);
  await a.page.waitForSelector(`#battle-clubs li.mine[data-club="${idA}"][data-rank="2"]`);
  await a.page.waitForSelector(`#battle-clubs li[data-club="${idB}"][data-rank="1"][data-score="2"]`);
  for (const p of [a, b]) {
    await p.context.close();
    assertClean(p.page);
  }
});
