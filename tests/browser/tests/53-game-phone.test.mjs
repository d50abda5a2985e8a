// The game page made for a phone (templates/game.html, static/game.js, chooser.js, clock.js):
// two 360x640 touch phones in Swahili play each other with a clock (5+3) through the invite
// link, tapping pits and the chooser's buttons found by their words. At every move, on both
// phones, the turn line, both players' bars, both clocks and all four rows of the board are
// inside the one screen, the chooser's buttons too, and opening the chooser did not scroll the
// page; the opponent's bar and clock are above the board and the player's own below it (on
// North's phone too, whose board is turned). A spectator sees North above and South below.
// Then a resignation: the result box offers one engine review and one analysis board (two
// names), the rematch panel follows it, and the banner no longer tells the stage. The same
// first move in English. Every wait is for a state.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, assertClean, screenshot, api, waitForPly, BASE } from '../lib/harness.mjs';
import { phone as phoneOn, text, layout, assertOwnBelow, playByTouch } from '../lib/phone.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const phone = (lang, device) => phoneOn(browser, lang, device);

/** A game with a 5+3 clock made by Asha (South), its page open on her phone, and Baraka's phone through the invite link. */
async function twoPhones(lang) {
  const g = await api('/api/games', { method: 'POST', body: { variant: 'kiswahili', opponent: { kind: 'human' }, side: 'S', match: 'single_game', name: 'Asha', clock: { initial_ms: 300000, increment_ms: 3000 } } });
  const asha = await phone(lang);
  await asha.context.addCookies([{ name: `bao_${g.id}`, value: g.token, url: BASE }]);
  await asha.page.goto(`/g/${g.id}`);
  await asha.page.waitForSelector('#invite:not([hidden])');
  const link = await asha.page.inputValue('#invite-link');
  const baraka = await phone(lang);
  await baraka.context.addInitScript(() => localStorage.setItem('bao.name', JSON.stringify('Baraka')));
  await baraka.page.goto(link);
  await baraka.page.waitForSelector('#player-N .you');
  await asha.page.waitForSelector('#invite', { state: 'hidden' });
  for (const p of [asha.page, baraka.page]) await p.waitForSelector('#clock-S.running');
  await asha.page.waitForSelector('#board g.pit.legal');
  return { id: g.id, a: asha, b: baraka };
}

test('two phones in Swahili play with a clock: board, bars, clocks and the chooser fit one screen at every move; the end offers a review and the analysis board', async () => {
  const { id, a, b } = await twoPhones('sw');
  const [pa, pb] = [a.page, b.page];
  // Baraka plays North: his board is turned, his own bar and clock below it.
  assert.equal(await pb.isChecked('#flip'), true);
  await screenshot(pa, '53-game-phone-sw-before');
  const spectator = await phone('sw');
  await spectator.page.goto(`/g/${id}`);
  await spectator.page.waitForSelector('#connection[data-connection="open"]');

  const PLIES = 10;
  for (let n = 0; n < PLIES; n++) {
    const [mover, waiter, own] = n % 2 === 0 ? [pa, pb, 'S'] : [pb, pa, 'N'];
    await mover.waitForSelector('#board g.pit.legal');
    await playByTouch(mover, waiter, 'sw', own, n);
    if (n === 0) await screenshot(pa, '53-game-phone-sw-after');
  }
  // A spectator: North above, South below, both clocks shown with their players.
  await waitForPly(spectator.page, PLIES);
  const seen = await layout(spectator.page);
  assertOwnBelow(seen, 'S', 'the spectator');
  assert.ok(seen.clockS && seen.clockN, 'the spectator sees both clocks');
  await screenshot(spectator.page, '53-game-phone-sw-spectator');

  // Baraka resigns. Both phones: the result box names one engine review and one analysis
  // board, two different tools, and the banner no longer tells the stage.
  await pb.click('#resign');
  for (const p of [pa, pb]) {
    await p.waitForSelector('#result:not([hidden])');
    await p.waitForSelector('#review-link:not([hidden])');
    const review = p.locator('#result').getByRole('link', { name: text('sw', 'game', 'game.review'), exact: true });
    const analyse = p.locator('#result').getByRole('link', { name: text('sw', 'game', 'game.analyse'), exact: true });
    assert.equal(await review.count(), 1, 'one engine review');
    assert.equal(await analyse.count(), 1, 'one analysis board');
    assert.notEqual(text('sw', 'game', 'game.review'), text('sw', 'game', 'game.analyse'));
    assert.match(await review.getAttribute('href'), new RegExp(`^/replay\\?game=${id}&game_no=1&review=1$`));
    assert.match(await analyse.getAttribute('href'), /^\/analysis\?/);
    assert.equal((await p.textContent('#stage')).trim(), '', 'no stage text after the end');
    const banner = await p.textContent('#turn');
    assert.ok(!banner.includes('Namua') && !banner.includes(text('sw', 'game', 'game.stage_namua')), `the banner tells no stage: ${banner}`);
    // The rematch panel sits right after the result.
    assert.equal(await p.evaluate(() => document.querySelector('#result').nextElementSibling?.id), 'play-panel');
    assert.equal(await p.locator('.clock.running').count(), 0, 'no clock runs after the end');
  }
  await screenshot(pa, '53-game-phone-sw-over');
  for (const x of [a, b, spectator]) {
    await x.context.close();
    assertClean(x.page);
  }
});

test('the first move in English: the chooser in words, the board in place', async () => {
  const { a, b } = await twoPhones('en');
  await screenshot(a.page, '53-game-phone-en-before');
  await playByTouch(a.page, b.page, 'en', 'S', 0);
  await screenshot(a.page, '53-game-phone-en-after');
  await b.page.waitForSelector('#board g.pit.legal');
  await playByTouch(b.page, a.page, 'en', 'N', 1);
  await screenshot(b.page, '53-game-phone-en-north');
  for (const x of [a, b]) {
    await x.context.close();
    assertClean(x.page);
  }
});
