// Accounts in the web app (docs/api.md "Accounts"; static/account.js, account-pages.js): sign
// up on a phone in Swahili (the recovery code shown once, the header's menu with the name),
// log out, a wrong password in words, log in on another browser and see "My games" with the
// game made on the first (signup claims the browser's seats), the settings page, a recovery
// with the code, a refusal by the rate limit in words with its wait, and the profile page of a
// name nobody has.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, assertClean, screenshot } from '../lib/harness.mjs';
import { PHONE, phone, text } from '../lib/phone.mjs';

/** A name no other run of the suite has taken (names are unique without regard to case). */
const unique = (stem) => `${stem}${Date.now().toString(36).slice(-6)}${Math.floor(Math.random() * 1000)}`;

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const USER = unique('Asha');
const PASSWORD = 'mbegu-nne-4';
let gameId;

test('sign up on a 360 px phone in Swahili, log out, a wrong password, log in on a second browser and see My games', async () => {
  const { context, page } = await phone(browser, 'sw', PHONE);
  // A game made before signing up: the signup claims its seat.
  await page.goto('/');
  await page.locator('#variants input[value="kiswahili"]').check();
  await page.locator('input[name="opponent"][value="human"]').check();
  await page.selectOption('#side', 'S');
  await page.selectOption('#match', 'single_game');
  // Signed out, the rated choice is not offered.
  assert.equal(await page.locator('#rated-row').isHidden(), true, 'no "Rated game" when signed out');
  await Promise.all([page.waitForURL(/\/g\//), page.click('#start-button')]);
  gameId = new URL(page.url()).pathname.split('/')[2];

  // The header offers "Ingia" and "Jisajili" beside the brand, on its line.
  assert.equal((await page.textContent('#account-signup')).trim(), text('sw', 'account', 'account.nav_signup'));
  const [brand, menu] = await Promise.all([page.locator('.brand').boundingBox(), page.locator('#account-menu').boundingBox()]);
  assert.ok(Math.abs(brand.y + brand.height / 2 - (menu.y + menu.height / 2)) < 12, `the account links share the brand's line (${JSON.stringify({ brand, menu })})`);
  await Promise.all([page.waitForURL(/\/account\/signup\?next=/), page.click('#account-signup')]);

  // The rules in words, and a refusal before anything is sent.
  assert.match(await page.textContent('#username-help'), /3/);
  await page.fill('#username', 'ab');
  await page.fill('#password', PASSWORD);
  await page.click('#submit');
  await page.waitForSelector('#form-status[data-kind="error"]:not([hidden])');
  assert.equal((await page.textContent('#form-status')).trim(), text('sw', 'account', 'account.err_name_short'));
  assert.equal(await page.getAttribute('#username', 'aria-invalid'), 'true');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'username', 'the wrong field has the focus');
  // The autocomplete attributes password managers need.
  assert.equal(await page.getAttribute('#username', 'autocomplete'), 'username');
  assert.equal(await page.getAttribute('#password', 'autocomplete'), 'new-password');

  // Signed up with the keyboard: the recovery code once, large, with the words to keep it.
  await page.fill('#username', USER);
  await page.focus('#password');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#code-box:not([hidden])');
  const code = (await page.textContent('#recovery-code')).trim();
  assert.match(code, /^[a-z0-9]{5}(-[a-z0-9]{5}){3}$/, `a recovery code: ${code}`);
  assert.ok((await page.$eval('#recovery-code', (e) => parseFloat(getComputedStyle(e).fontSize))) >= 20, 'the code is large');
  const box = await page.textContent('#code-box');
  assert.ok(box.includes(text('sw', 'account', 'account.code_once')), 'it says the code is not shown again');
  assert.ok(box.includes(text('sw', 'account', 'account.code_write_down')), 'it says to write it down');
  assert.equal(await page.locator('#account-form').isHidden(), true);
  // Signed in at once: the header's menu shows the name, a link to the profile.
  await page.waitForSelector('#account-name');
  assert.equal((await page.textContent('#account-name')).trim(), USER);
  assert.equal(await page.getAttribute('#account-name', 'href'), `/@/${USER}`);
  const scroll = await page.evaluate(() => document.scrollingElement.scrollWidth);
  assert.ok(scroll <= 360, `the page is ${scroll} px wide`);
  await screenshot(page, '50-accounts-signup-code-sw-360');

  // Continue: back to the game the player came from, still signed in.
  await Promise.all([page.waitForURL(new RegExp(`/g/${gameId}$`)), page.click('#code-continue')]);
  await page.waitForSelector('#account-name');
  await screenshot(page, '50-accounts-menu-sw-360');

  // The menu: profile, settings, log out; with the keyboard too (Escape closes it).
  await page.click('#account-toggle');
  await page.waitForSelector('.account-list:not([hidden])');
  assert.equal(await page.getAttribute('#account-toggle', 'aria-expanded'), 'true');
  const items = await page.$$eval('.account-list li', (lis) => lis.map((li) => li.textContent.trim()));
  assert.deepEqual(items, [text('sw', 'account', 'account.menu_profile'), text('sw', 'account', 'account.menu_settings'), text('sw', 'account', 'account.menu_logout')]);
  await screenshot(page, '50-accounts-menu-open-sw-360');
  await page.keyboard.press('Escape');
  await page.waitForSelector('.account-list', { state: 'hidden' });
  await page.click('#account-toggle');
  await page.click('#account-logout');
  await page.waitForSelector('#account-login');
  assert.equal(await page.evaluate(() => JSON.parse(localStorage.getItem('bao.account')).username), null);
  const me = await page.evaluate(async () => (await fetch('/api/account')).status);
  assert.equal(me, 401, 'the session is gone on the server');

  // A wrong password: the words of the catalog, on the password field.
  await page.goto('/account/login');
  await page.fill('#username', USER);
  await page.fill('#password', 'not-the-password');
  await page.click('#submit');
  await page.waitForSelector('#form-status[data-kind="error"]:not([hidden])');
  assert.equal((await page.textContent('#form-status')).trim(), text('sw', 'account', 'account.err_bad_credentials'));
  assert.equal(await page.getAttribute('#password', 'autocomplete'), 'current-password');
  await screenshot(page, '50-accounts-wrong-password-sw-360');
  // The 401s asked for (the session after logging out, the wrong password) are the only errors.
  assertClean(page, { allowConsole: [/status of 401/] });
  await context.close();

  // A second browser (English, desktop): log in, land on the home page with "My games"
  // holding the game made on the phone.
  const second = await phone(browser, 'en', { viewport: { width: 1280, height: 800 } });
  const p2 = second.page;
  await p2.goto('/');
  await Promise.all([p2.waitForURL(/\/account\/login/), p2.click('#account-login')]);
  await p2.fill('#username', USER.toLowerCase()); // a name in any case
  await p2.fill('#password', PASSWORD);
  await Promise.all([p2.waitForURL((u) => u.pathname === '/'), p2.click('#submit')]);
  await p2.waitForSelector('#account-name');
  assert.equal((await p2.textContent('#account-name')).trim(), USER);
  await p2.waitForSelector(`#my-games li[data-game="${gameId}"]`);
  assert.equal(await p2.evaluate(() => JSON.parse(localStorage.getItem('bao.seats') || '[]').length), 0, 'the game came from the account, not from seats kept here');

  // The settings page: who, since when; a wrong current password in words.
  await p2.goto('/account');
  await p2.waitForSelector('#settings:not([hidden])');
  assert.match(await p2.textContent('#settings-who'), new RegExp(`Signed in as ${USER}, member since \\d+ \\w+ 20\\d\\d`));
  await p2.fill('#old-password', 'not-the-password');
  await p2.fill('#new-password', 'a-new-password');
  await p2.click('#password-submit');
  await p2.waitForSelector('#password-status[data-kind="error"]:not([hidden])');
  assert.equal((await p2.textContent('#password-status')).trim(), text('en', 'account', 'account.err_wrong_password'));
  await screenshot(p2, '50-accounts-settings-en-1280');

  // A recovery with the code written down at signup: a new password, and a new code shown once.
  await p2.goto('/account/recover');
  await p2.fill('#username', USER);
  await p2.fill('#code', code.toUpperCase().replace(/-/g, ' ')); // capitals and spaces do not matter
  await p2.fill('#password', 'a-newer-password');
  await p2.click('#submit');
  await p2.waitForSelector('#code-box:not([hidden])');
  const fresh = (await p2.textContent('#recovery-code')).trim();
  assert.match(fresh, /^[a-z0-9]{5}(-[a-z0-9]{5}){3}$/);
  assert.notEqual(fresh, code, 'a new recovery code');
  assert.ok((await p2.textContent('#code-box')).includes(text('en', 'account', 'account.code_once')));
  await p2.waitForFunction((n) => document.querySelector('#account-name')?.textContent === n, USER);
  assertClean(p2, { allowConsole: [/status of 401/] });
  await second.context.close();
});

test('a refusal by the rate limit says how long to wait; a taken name and a reserved one are said in words', async () => {
  const { context, page } = await openPage(browser, { viewport: { width: 360, height: 640 } });
  // The limit itself is the server's (tests/accounts_*.rs); here its answer, as the API gives it.
  await page.route('**/api/account/login', (route) =>
    route.fulfill({ status: 429, headers: { 'Retry-After': '7', 'Content-Type': 'application/json' }, body: JSON.stringify({ error: 'rate_limited', message: 'too many sign-in attempts for this account name; try again in 7 s' }) }),
  );
  await page.goto('/account/login?lang=en');
  await page.fill('#username', 'Someone');
  await page.fill('#password', 'whatever-it-is');
  await page.click('#submit');
  await page.waitForSelector('#form-status[data-kind="error"]:not([hidden])');
  assert.equal((await page.textContent('#form-status')).trim(), text('en', 'account', 'account.err_rate_limited.other', { n: 7 }));

  // A name taken (the one signed up above, in another case) and a reserved one, from the server.
  await page.goto('/account/signup?lang=sw');
  await page.fill('#username', USER.toUpperCase());
  await page.fill('#password', PASSWORD);
  await page.click('#submit');
  await page.waitForSelector('#form-status[data-kind="error"]:not([hidden])');
  assert.equal((await page.textContent('#form-status')).trim(), text('sw', 'account', 'account.err_name_taken', { name: USER.toUpperCase() }));
  await page.fill('#username', 'Admin');
  await page.click('#submit');
  await page.waitForFunction((t) => document.querySelector('#form-status').textContent.trim() === t, text('sw', 'account', 'account.err_name_reserved'));
  assertClean(page, { allowConsole: [/status of 4(29|09|00)/] });
  await context.close();
});

test('a sign-up refused because the server is checking too many passwords (503 busy) says in Swahili how long to wait', async () => {
  const { context, page } = await openPage(browser, { viewport: { width: 360, height: 640 } });
  // The queue itself is the server's (features/accounts/hashing.rs); here its answer, as the API gives it.
  await page.route('**/api/account/signup', (route) =>
    route.fulfill({ status: 503, headers: { 'Retry-After': '2', 'Content-Type': 'application/json' }, body: JSON.stringify({ error: 'busy', message: 'the server is checking many passwords at once; try again in 2 s' }) }),
  );
  await page.goto('/account/signup?lang=sw');
  await page.fill('#username', 'Mgeni_mpya');
  await page.fill('#password', PASSWORD);
  await page.click('#submit');
  await page.waitForSelector('#form-status[data-kind="error"]:not([hidden])');
  assert.equal((await page.textContent('#form-status')).trim(), text('sw', 'account', 'account.err_busy.other', { n: 2 }));
  assertClean(page, { allowConsole: [/status of 503/] });
  await context.close();
});

test('the profile of a name nobody has says so in words; an address that cannot be a name is 404', async () => {
  const { context, page } = await phone(browser, 'sw', PHONE);
  await page.goto('/@/hakunamtu123');
  await page.waitForSelector('#profile[data-state="missing"]');
  assert.equal((await page.textContent('#profile-name')).trim(), text('sw', 'players', 'players.not_found_title'));
  assert.ok((await page.textContent('#page-status')).includes(text('sw', 'players', 'players.not_found', { name: 'hakunamtu123' })));
  const res = await page.goto('/@/a%20b');
  assert.equal(res.status(), 404);
  assertClean(page, { allowConsole: [/status of 404/] });
  await context.close();
});
