// Offline (docs/api.md "Offline"): after one visit the site works with no network. The test goes
// offline (context.setOffline), reloads the home page from the service worker's cache, starts
// a game against the computer (level 1) that the browser engine (WebAssembly in a worker)
// plays, plays it to the end by clicking, downloads its record, which `bao record validate`
// accepts, and opens it in the replay page, still offline. The game is listed on the home page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { launch, openPage, assertClean, screenshot, bao, ARTIFACTS } from '../lib/harness.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** Waits until the game page is still: no animation, and either our turn or the end. */
async function settled(page) {
  await page.waitForFunction(
    () => {
      const b = document.querySelector('#board');
      if (!b || b.classList.contains('animating') || !b.dataset.ply) return false;
      const over = document.querySelector('#turn')?.classList.contains('over');
      const mine = document.querySelectorAll('#all-moves-list button[data-move]').length > 0;
      return over || mine;
    },
    null,
  );
}

// The phone plays in Swahili: the offline parts speak the page's language too.
for (const [viewport, lang] of [
  [{ width: 1280, height: 800 }, 'en'],
  [{ width: 360, height: 640 }, 'sw'],
]) {
  test(`offline at ${viewport.width}x${viewport.height} (${lang}): a game against the browser engine is played to the end, recorded and replayed`, async () => {
    const { context, page } = await openPage(browser, { viewport });
    await context.addInitScript(() => localStorage.setItem('bao.speed', '0'));
    // One visit online: the service worker installs and caches the site.
    await page.goto(`/?lang=${lang}`);
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    // clients.claim(): this page is controlled without a reload.
    await page.waitForFunction(() => !!navigator.serviceWorker.controller);
    await context.setOffline(true);
    await page.reload();
    await page.waitForSelector('#variants input[value="kiswahili"]');
    await page.waitForSelector('#offline-note:not([hidden])');
    const words = { en: 'Games in this browser', sw: 'Michezo kwenye kivinjari hiki' };
    assert.equal((await page.textContent('#local-title')).trim(), words[lang]);
    await screenshot(page, `21-offline-home-${viewport.width}-${lang}`);
    await page.locator('input[name="opponent"][value="computer"]').check();
    await page.locator('#level').fill('1');
    await page.selectOption('#side', 'S');
    await Promise.all([page.waitForURL(/\/g\/local-[a-z0-9]+$/), page.click('#start-button')]);
    const id = new URL(page.url()).pathname.split('/')[2];

    // Play by clicking a highlighted pit (and the buttons the page asks for) until the end.
    let moves = 0;
    for (;;) {
      await settled(page);
      if (await page.locator('#turn.over').count()) break;
      const pits = await page.$$eval('#board g.pit.legal', (gs) => gs.map((g) => g.dataset.pit));
      assert.ok(pits.length > 0, 'our turn shows legal pits');
      const before = Number(await page.getAttribute('#board', 'data-ply'));
      await page.click(`#board g.pit.legal[data-pit="${pits[moves % pits.length]}"]`);
      for (const sel of ['#chooser button[data-letter]', '#chooser button[data-choice="stop"]', '#chooser button[data-confirm]']) {
        const b = page.locator(sel).first();
        if (await b.count()) await b.click();
      }
      await page.waitForFunction((p) => Number(document.querySelector('#board').dataset.ply) > p, before);
      moves += 1;
      assert.ok(moves < 400, 'the game ends');
    }
    await page.waitForSelector('#result:not([hidden])');
    const headline = await page.textContent('#result-headline');
    assert.ok(headline && headline.trim().length > 0, 'a result is shown');
    await screenshot(page, `21-offline-game-${viewport.width}`);

    // The record, downloaded offline, is accepted by the native rules.
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#record-link2')]);
    mkdirSync(ARTIFACTS, { recursive: true });
    const file = path.join(ARTIFACTS, `21-offline-${viewport.width}.txt`);
    await download.saveAs(file);
    const out = bao('record', 'validate', file).join('\n');
    assert.match(out, /^record 1: valid: kiswahili .* result (S|N|draw)/, out);

    // The replay page, still offline, steps through the game kept in the browser.
    await page.goto(`/replay?game=${id}`);
    await page.waitForSelector('#viewer:not([hidden])');
    const pos = await page.textContent('#pos');
    assert.match(pos, /^0 \/ \d+$/);
    await page.click('#last');
    await page.waitForFunction(() => {
      const [a, b] = document.querySelector('#pos').textContent.split(' / ');
      return a === b;
    });

    // A record uploaded with no server is checked by the browser engine and replayed too.
    await page.goto('/replay');
    await page.fill('#record-text', readFileSync(file, 'utf8'));
    await page.click('#upload-form button[type="submit"]');
    await page.waitForSelector('#viewer:not([hidden])');
    assert.equal(await page.textContent('#pos'), pos, 'the uploaded record has the same moves');
    await page.goto('/replay');
    await page.fill('#record-text', readFileSync(file, 'utf8').replace(/^1\. \S+ /m, '1. A1L* '));
    await page.click('#upload-form button[type="submit"]');
    await page.waitForSelector('#page-status[data-kind="error"]');

    // The home page lists it.
    await page.goto('/');
    await page.waitForSelector(`[data-local-game="${id}"]`);
    assertClean(page, { allowConsole: [/ERR_INTERNET_DISCONNECTED/, /Failed to load resource/, /WebSocket/] });
    assert.ok(moves > 0);
    await context.close();
  });
}
