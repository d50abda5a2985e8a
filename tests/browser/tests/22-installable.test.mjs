// The site is installable (docs/api.md "Offline"). The manifest names the app and its icons (192
// and 512 px PNG, checked by their PNG headers, and an SVG), a theme colour, a start URL and the
// standalone display; every page links it and registers the service worker, which the server sends
// from the root with the versioned files it precaches.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, launch, openPage, assertClean } from '../lib/harness.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** Width and height from a PNG's IHDR chunk. */
function pngSize(buf) {
  const sig = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  assert.deepEqual([...buf.subarray(0, 8)], sig, 'a PNG file');
  const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  return [dv.getUint32(16), dv.getUint32(20)];
}

test('the manifest, its icons and the service worker are served', async () => {
  const res = await fetch(`${BASE}/manifest.webmanifest`);
  assert.equal(res.status, 200);
  const m = await res.json();
  assert.ok(m.name && m.short_name, 'name and short_name');
  assert.equal(m.display, 'standalone');
  assert.match(m.theme_color, /^#[0-9a-f]{6}$/i);
  assert.ok(m.start_url.startsWith('/'));
  const sizes = new Set();
  for (const icon of m.icons) {
    const r = await fetch(new URL(icon.src, BASE));
    assert.equal(r.status, 200, icon.src);
    if (icon.type === 'image/png') {
      const [w, h] = pngSize(Buffer.from(await r.arrayBuffer()));
      assert.equal(`${w}x${h}`, icon.sizes, `${icon.src} is as large as it says`);
      sizes.add(icon.sizes);
    } else {
      assert.match(await r.text(), /^<svg/);
    }
  }
  assert.ok(sizes.has('192x192') && sizes.has('512x512'), 'PNG icons of 192 and 512 px');

  const sw = await fetch(`${BASE}/sw.js`);
  assert.equal(sw.status, 200);
  assert.match(sw.headers.get('content-type'), /javascript/);
  assert.equal(sw.headers.get('cache-control'), 'no-cache');
  const text = await sw.text();
  assert.doesNotMatch(text, /__BAO_/);
  assert.match(text, /"\/static\/bao\.wasm\?v=[0-9a-f]{12}"/);
});

test('every page links the manifest and is controlled by the service worker', async () => {
  const { context, page } = await openPage(browser, { viewport: { width: 360, height: 640 } });
  for (const path of ['/', '/rules/kiswahili', '/rules/kete', '/rules/kimasai', '/replay', '/learn', '/analysis', '/g/local-nothing']) {
    await page.goto(path);
    assert.equal(await page.getAttribute('link[rel="manifest"]', 'href'), '/manifest.webmanifest', path);
    await page.evaluate(() => navigator.serviceWorker.ready);
    await page.waitForFunction(() => !!navigator.serviceWorker.controller);
  }
  // A local game that this browser does not have is refused in words, not with an error.
  await page.waitForSelector('#page-status[data-kind="error"]');
  assertClean(page);
  await context.close();
});
