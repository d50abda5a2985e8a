// The other pages: rules pages with boards from the shared renderer, the home page's option
// form for every variant, record upload and step-by-step replay, and a 404 for unknown rules.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, assertClean, screenshot, api, BASE, boardCounts, positionCounts } from '../lib/harness.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

for (const variant of ['kiswahili', 'kete', 'kimasai']) {
  test(`rules page for ${variant}: diagrams drawn by the renderer, options explained`, async () => {
    const { page } = await openPage(browser);
    const res = await page.goto(`/rules/${variant}`);
    assert.equal(res.status(), 200);
    assert.match(await page.textContent('h1'), /How to play Bao la/);
    const imgs = page.locator('main figure img');
    const n = await imgs.count();
    assert.ok(n >= 2, 'the page has board diagrams');
    await page.waitForFunction(() => [...document.querySelectorAll('main figure img')].every((i) => i.complete));
    for (let i = 0; i < n; i++) {
      const ok = await imgs.nth(i).evaluate((img) => img.naturalWidth > 0 && img.src.includes('/api/render/svg?'));
      assert.ok(ok, `diagram ${i + 1} is drawn by /api/render/svg`);
      assert.ok((await imgs.nth(i).getAttribute('alt')).length > 20, 'each diagram has a text alternative');
    }
    assert.ok(await page.locator('h2#options ~ table').count(), 'the rule options are explained');
    await screenshot(page, `05-rules-${variant}`);
    assertClean(page);
  });
}

test('unknown rules page is a 404', async () => {
  const res = await fetch(`${BASE}/rules/chess`);
  assert.equal(res.status, 404);
});

test('home page: every variant lists its rule options with defaults and help; changing one builds the option string', async () => {
  const { page } = await openPage(browser);
  await page.goto('/');
  const variants = await api('/api/variants');
  for (const v of variants) {
    await page.locator(`#variants input[value="${v.id}"]`).check();
    const shown = await page.$$eval('#options [data-option]', (xs) => xs.map((x) => [x.dataset.option, x.dataset.default]));
    const expected = v.options.filter((o) => o.name !== 'match').map((o) => [o.name, String(o.default)]);
    assert.deepEqual(shown, expected, `${v.id}: all options with their defaults`);
  }
  await page.locator('#variants input[value="kiswahili"]').check();
  await page.locator('#options-box summary').click();
  await page.selectOption('#opt-takasia', 'false');
  // In words, not as the option string (docs/i18n.md, "Words, not codes").
  assert.match(await page.textContent('#options-summary'), /Takasia \(a threatened pit is blocked\): not played/);
  assert.match(await page.textContent('label[for="opt-takasia"]'), /^Takasia/);
  assert.match(await page.textContent('#opt-takasia option:checked'), /^not played$/);
  await screenshot(page, '05-home-options');
  // The chosen options reach the game.
  await page.locator('input[name="opponent"][value="human"]').check();
  await Promise.all([page.waitForURL(/\/g\//), page.click('#start-button')]);
  const id = new URL(page.url()).pathname.split('/')[2];
  const s = await api(`/api/games/${id}`);
  assert.ok(s.rules.split(',').includes('takasia=false'), `rules ${s.rules}`);
  await page.waitForSelector('#rules-tag:not([hidden])');
  assert.match(await page.textContent('#rules-tag'), /^Rules: Takasia \(a threatened pit is blocked\): not played$/);
  assertClean(page);
});

test('a bad start position is refused with the reason, on the form', async () => {
  const { page } = await openPage(browser);
  await page.goto('/');
  await page.locator('#start-box summary').click();
  await page.fill('#start', 'kiswahili 1,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 S 22/22 house:S,house:N 0');
  await page.click('#start-button');
  // The form first says it is starting the game: wait for the refusal itself.
  await page.waitForSelector('#form-status[data-kind="error"]:not([hidden])');
  assert.match(await page.textContent('#form-status'), /total|64/);
  assert.match(page.url(), /\/$/);
});

test('a record is uploaded, replayed step by step with animation, and can be downloaded again', async () => {
  const record = [
    '[Variant "kiswahili"]',
    '[Rules "-"]',
    '[South "Ramadhan"]',
    '[North "Kijumbe"]',
    '[Date "1994.10.17"]',
    '[Result "-"]',
    '[Site "Zanzibar"]',
    '',
    '1. A7L* a5R 2. A6R* a6R* 3. A7R* a8L* -',
    '',
  ].join('\n');
  const { page } = await openPage(browser);
  await page.goto('/replay');
  await page.fill('#record-text', record);
  await page.click('#upload-form button[type="submit"]');
  await page.waitForSelector('#viewer:not([hidden])');
  await page.waitForFunction(() => document.querySelector('#board').dataset.step === '0');
  const id = new URL(page.url()).searchParams.get('game');
  assert.ok(id, 'the address names the uploaded game');
  const s = await api(`/api/games/${id}`);
  assert.deepEqual(s.moves.map((m) => m.move), ['A7L*', 'a5R', 'A6R*', 'a6R*', 'A7R*', 'a8L*']);
  assert.deepEqual(await boardCounts(page), positionCounts(s.start));
  await page.selectOption('#speed', '90');
  for (let i = 1; i <= 3; i++) {
    await page.click('#next');
    await page.waitForFunction((n) => document.querySelector('#board').dataset.step === String(n), i);
    assert.deepEqual(await boardCounts(page), positionCounts(s.moves[i - 1].position), `board after move ${i}`);
  }
  assert.match(await page.textContent('#step-headline'), /Move 3: South played A6R\*/);
  // Jump with the move list and back to the start.
  await page.click('#moves button.mv[data-step="6"]');
  await page.waitForFunction(() => document.querySelector('#board').dataset.step === '6');
  assert.deepEqual(await boardCounts(page), positionCounts(s.position));
  await page.click('#first');
  await page.waitForFunction(() => document.querySelector('#board').dataset.step === '0');
  await screenshot(page, '05-replay');
  // Download the record: same moves.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#record-link')]);
  const stream = await download.createReadStream();
  let text = '';
  for await (const chunk of stream) text += chunk;
  assert.match(text, /\[Variant "kiswahili"\]/);
  assert.match(text, /A7L\* a5R 2\. A6R\* a6R\* 3\. A7R\* a8L\*/);
  assertClean(page);
});

test('a broken record is refused with the line and reason', async () => {
  const { page } = await openPage(browser);
  await page.goto('/replay');
  await page.fill('#record-text', '[Variant "kiswahili"]\n[Rules "-"]\n[South "?"]\n[North "?"]\n[Date "????.??.??"]\n[Result "-"]\n\n1. A7L* a4R -\n');
  await page.click('#upload-form button[type="submit"]');
  // "Checking the record…" shows first: wait for the refusal itself, not for a time.
  await page.waitForSelector('#page-status[data-kind="error"]:not([hidden])');
  assert.match(await page.textContent('#page-status'), /not accepted/);
  assert.ok(await page.locator('#viewer').isHidden());
  // The refusal is an expected 400 answer, reported by the browser as a failed resource.
  assertClean(page, { allowConsole: [/status of 400/] });
});

test('an unknown game link says so', async () => {
  const { page } = await openPage(browser);
  await page.goto('/g/nosuchgame');
  await page.waitForSelector('#page-status[data-kind="error"]:not([hidden])');
  assert.match(await page.textContent('#page-status'), /no game/);
  assert.match(await page.textContent('#turn-headline'), /not found/);
  assertClean(page, { allowConsole: [/status of 404/] });
});
