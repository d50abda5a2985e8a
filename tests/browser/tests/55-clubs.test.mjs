// Clubs in the browser (docs/api.md "Clubs"; templates/clubs.html, club.html; static/clubs.js,
// club.js). Two 360x640 phones in Swahili: the first player starts a closed club from /clubs,
// the second finds it by its place, asks to join, the first sees the request on the club's
// page and accepts it, and both read the member list with its roles in Swahili. Every wait is
// for a state (an attribute or an element), never for a time.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, assertClean, screenshot } from '../lib/harness.mjs';
import { text, unique, accountByApi, noSidewaysScroll } from '../lib/phone.mjs';
import { signedIn as signIn } from '../lib/clubs.mjs';

const PASSWORD = 'chama-cha-bao-66';

const signedIn = (name, session) => signIn(browser, name, session);

/** Every button and link in view that a finger taps is at least 44 px high (the text links of sentences aside). */
async function bigTargets(page, selector, where) {
  const small = await page.$$eval(selector, (els) =>
    els
      .filter((e) => e.offsetParent !== null)
      .map((e) => ({ h: e.getBoundingClientRect().height, what: e.outerHTML.slice(0, 80) }))
      .filter((x) => x.h < 44),
  );
  assert.deepEqual(small, [], `${where}: tap targets under 44 px`);
}

/** The member list as the page shows it: [name, role words]. */
function members(page) {
  return page.$$eval('#member-list > li', (lis) => lis.map((li) => [li.querySelector('.who').textContent, li.querySelector('.tag').textContent]));
}

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

test('two phones in Swahili: one starts a closed club, the other asks to join, the first accepts, both read the members', async () => {
  const leaderName = unique('Kiongozi');
  const playerName = unique('Mchezaji');
  const place = unique('Mkokotoni');
  const clubName = `Chama cha Bao ${place}`;
  const leader = await signedIn(leaderName, await accountByApi(leaderName, PASSWORD));
  const player = await signedIn(playerName, await accountByApi(playerName, PASSWORD));
  const a = leader.page;
  const b = player.page;

  // The leader starts a closed club from /clubs, reached from the site's navigation.
  await a.goto('/');
  await a.click('#menu-toggle');
  await Promise.all([a.waitForURL(/\/clubs$/), a.click(`.site-nav a[href="/clubs"]`)]);
  await a.waitForSelector('#clubs[data-state="ready"]');
  await a.waitForSelector('#new-form:not([hidden])');
  await noSidewaysScroll(a, '/clubs');
  // An empty name is refused in words before anything is sent.
  await a.click('#new-submit');
  await a.waitForSelector('#c-name-err:not([hidden])');
  assert.equal(await a.textContent('#c-name-err'), text('sw', 'clubs', 'clubs.err_name'));
  await a.fill('#c-name', clubName);
  await a.fill('#c-place', place);
  await a.fill('#c-description', 'Tunacheza Bao kila jioni.\nKaribuni wote.');
  await a.check('input[name="joining"][value="closed"]');
  await Promise.all([a.waitForURL(/\/club\/[a-z0-9]{10}$/), a.click('#new-submit')]);
  await a.waitForSelector('#club[data-state="ready"][data-you="leader"]');
  const url = new URL(a.url()).pathname;
  assert.equal(await a.textContent('#club-name'), clubName);
  assert.equal(await a.textContent('#you-text'), text('sw', 'clubs', 'clubs.you_are', { role: text('sw', 'clubs', 'clubs.role_leader') }));
  assert.equal(await a.textContent('#club-joining'), text('sw', 'clubs', 'clubs.closed_tag'));
  await a.waitForSelector('#requests-empty:not([hidden])');
  await noSidewaysScroll(a, 'the new club');
  await screenshot(a, '55-club-new-sw-360');

  // The player finds it by its place and asks to join.
  await b.goto('/clubs');
  await b.waitForSelector('#clubs[data-state="ready"]');
  await b.fill('#club-q', place.toLowerCase());
  await b.click('#club-search-submit');
  const link = b.locator('#club-list a.t-name', { hasText: clubName });
  // The list before the search may hold the new club too: wait for the search's answer, the
  // one club of that place, not for the link alone.
  await b.waitForFunction(
    (name) => {
      const items = document.querySelectorAll('#club-list > li');
      return items.length === 1 && items[0].textContent.includes(name);
    },
    clubName,
  );
  await link.waitFor();
  await Promise.all([b.waitForURL((u) => u.pathname === url), link.click()]);
  await b.waitForSelector('#club[data-state="ready"][data-you="none"]');
  assert.equal(await b.textContent('#join-button'), text('sw', 'clubs', 'clubs.ask'));
  await bigTargets(b, '#club-actions button', 'the club, a visitor');
  await b.click('#join-button');
  await b.waitForSelector('#club[data-state="ready"][data-you="requested"]');
  assert.equal(await b.textContent('#you-text'), text('sw', 'clubs', 'clubs.you_requested'));
  assert.equal(await b.textContent('#leave-button'), text('sw', 'clubs', 'clubs.withdraw'));
  // Not a member yet: no announcements for them.
  assert.equal(await b.isHidden('#news-box'), true);

  // The leader opens the club's page again and accepts the request.
  await a.reload();
  await a.waitForSelector('#club[data-state="ready"][data-you="leader"]');
  const row = a.locator(`#request-list > li[data-name="${playerName}"]`);
  await row.waitFor();
  await bigTargets(a, '#request-list button', 'the requests');
  await row.locator('button[data-act="accept"]').click();
  await a.waitForSelector(`#member-list > li[data-name="${playerName}"]`);
  await a.waitForSelector('#requests-empty:not([hidden])');
  assert.equal(await a.textContent('#club-status'), text('sw', 'clubs', 'clubs.done_accepted', { name: playerName }));
  await noSidewaysScroll(a, 'the club after accepting');
  await screenshot(a, '55-club-accepted-sw-360');

  // Both read the member list: the leader first, then the new member, roles in Swahili.
  const expected = [
    [leaderName, text('sw', 'clubs', 'clubs.role_leader')],
    [playerName, text('sw', 'clubs', 'clubs.role_member')],
  ];
  assert.deepEqual(await members(a), expected);
  await b.reload();
  await b.waitForSelector('#club[data-state="ready"][data-you="member"]');
  assert.equal(await b.textContent('#you-text'), text('sw', 'clubs', 'clubs.you_are', { role: text('sw', 'clubs', 'clubs.role_member') }));
  assert.deepEqual(await members(b), expected);
  assert.equal(await b.textContent('#club-count'), text('sw', 'clubs', 'clubs.members_count', { n: 2 }));
  await noSidewaysScroll(b, 'the club, a member');
  await screenshot(b, '55-club-member-sw-360');
  // A member sees no leader's tools.
  assert.equal(await b.locator('#member-list details').count(), 0);
  assert.equal(await b.isHidden('#requests-box'), true);
  // The club's name is on its new member's profile, a link to the club.
  await b.goto(`/@/${playerName}`);
  await b.waitForSelector('#clubs-box:not([hidden])');
  assert.equal(await b.getAttribute('#profile-clubs a', 'href'), url);
  assert.equal(await b.textContent('#profile-clubs a'), clubName);

  // The leader dissolves the club while the member reads its page (docs/api.md "Clubs"):
  // a wrong name is refused in words before anything is sent, the right one in another case
  // is taken, and the member's page hears it on its socket.
  await b.goto(url);
  await b.waitForSelector('#club[data-state="ready"][data-you="member"][data-socket="open"]');
  assert.equal(await b.isHidden('#dissolve-box'), true, 'a member is offered no dissolving');
  await a.goto(url);
  await a.waitForSelector('#club[data-state="ready"][data-you="leader"]');
  await a.click('#dissolve-box summary');
  await a.waitForSelector('#dissolve-box[open] #dissolve-name');
  assert.equal(await a.textContent('#dissolve-help'), text('sw', 'clubs', 'clubs.dissolve_help'));
  await noSidewaysScroll(a, 'the dissolve form');
  await bigTargets(a, '#dissolve-form button', 'the dissolve form');
  await a.fill('#dissolve-name', 'Chama kingine');
  await a.click('#dissolve-submit');
  await a.waitForSelector('#club-status[data-kind="error"]');
  assert.equal(await a.textContent('#club-status'), text('sw', 'clubs', 'clubs.dissolve_wrong_name', { name: clubName }));
  assert.equal(await a.getAttribute('#club', 'data-state'), 'ready', 'nothing was dissolved');
  await a.fill('#dissolve-name', clubName.toUpperCase());
  await a.click('#dissolve-submit');
  await a.waitForSelector('#club[data-state="dissolved"]');
  assert.equal(await a.textContent('#club-status'), text('sw', 'clubs', 'clubs.done_dissolved'));
  for (const page of [a, b]) {
    await page.waitForSelector('#club[data-state="dissolved"]');
    const note = await page.textContent('#club-dissolved');
    assert.ok(note.startsWith(text('sw', 'clubs', 'clubs.dissolved', { time: 'X' }).split('X')[0]), note);
    assert.equal(await page.textContent('#club-name'), clubName, 'its name stays');
    assert.equal(await page.isHidden('#club-actions'), true, 'nothing to join or leave');
    assert.equal(await page.isHidden('#dissolve-box'), true);
    assert.equal(await page.locator('#member-list > li').count(), 0);
  }
  await screenshot(b, '55-club-dissolved-sw-360');
  // Gone from the member's profile.
  await b.goto(`/@/${playerName}`);
  await b.waitForSelector('#profile[data-state="ready"]');
  assert.equal(await b.locator('#profile-clubs a').count(), 0);
  assert.equal(await b.isHidden('#clubs-box'), true);

  for (const p of [leader, player]) {
    assertClean(p.page);
    await p.context.close();
  }
});
