// Sharing the invite. Where the browser has a share sheet
// (navigator.share) the "Share link" button opens it with the invite link; when sharing is
// refused the link is copied instead; without a share sheet the button is not shown and
// "Copy link" copies.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, assertClean, api, screenshot, BASE } from '../lib/harness.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** A game page of a fresh game against a person, as its creator, in a new context. */
async function creatorPage(share) {
  const { context, page } = await openPage(browser, { viewport: { width: 360, height: 640 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: BASE });
  await context.addInitScript((mode) => {
    window.__shared = [];
    if (mode === 'none') {
      delete Navigator.prototype.share;
      delete Navigator.prototype.canShare;
    } else {
      Navigator.prototype.canShare = () => true;
      Navigator.prototype.share = async (data) => {
        if (mode === 'refuse') throw new DOMException('not allowed here', 'NotAllowedError');
        window.__shared.push(data);
      };
    }
  }, share);
  await page.goto('/');
  // The form starts nothing until the variants have come (home.js): wait for them.
  await page.waitForSelector('#variants input[value="kiswahili"]');
  await page.locator('input[name="opponent"][value="human"]').check();
  await Promise.all([page.waitForURL(/\/g\//), page.click('#start-button')]);
  await page.waitForSelector('#invite:not([hidden])');
  return { context, page, link: await page.inputValue('#invite-link') };
}

test('invite: share sheet, copy when sharing is refused, copy without a share sheet', async () => {
  {
    const { context, page, link } = await creatorPage('share');
    assert.match(link, /\/g\/[a-z0-9]+\?invite=/);
    await page.click('#share-invite');
    await page.waitForFunction(() => window.__shared.length === 1);
    assert.equal((await page.evaluate(() => window.__shared[0])).url, link);
    await screenshot(page, '38-share-360x640');
    assertClean(page);
    await context.close();
  }
  {
    const { context, page, link } = await creatorPage('refuse');
    await page.click('#share-invite');
    await page.waitForFunction((l) => navigator.clipboard.readText().then((t) => t === l), link);
    assert.notEqual(await page.textContent('#copy-done'), '');
    assertClean(page);
    await context.close();
  }
  {
    const { context, page, link } = await creatorPage('none');
    assert.ok(await page.locator('#share-invite').isHidden(), 'no share button without a share sheet');
    await page.click('#copy-invite');
    await page.waitForFunction((l) => navigator.clipboard.readText().then((t) => t === l), link);
    assertClean(page);
    await context.close();
  }
  assert.ok(await api('/api/health'));
});
