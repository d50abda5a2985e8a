// Fair play in the browser (docs/api.md "Fair play"; static/report.js, mod.js,
// fair-play-account.js; templates/mod.html). Two 360x640 phones in Swahili: a player who lost a
// rated game reports the winner from the finished game's page; a moderator (named by `bao admin
// moderator grant`) finds the report on /mod, opens the account and marks it with a reason; the
// loser's rating is given back, and the marked player reads the mark and its reason on their
// account page. Every wait is for a state, never for a time.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, assertClean, screenshot, bao, axeViolations, axeReport, BASE } from '../lib/harness.mjs';
import { phone, text, unique, accountByApi, callAs, noSidewaysScroll } from '../lib/phone.mjs';

const PASSWORD = 'haki-ya-mchezo-7';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

async function signedIn(name, session, lang = 'sw') {
  const p = await phone(browser, lang);
  await p.context.addCookies([{ name: 'bao_session', value: session, url: BASE }]);
  await p.page.goto('/account');
  await p.page.waitForFunction((n) => document.querySelector('#account-name')?.textContent === n, name);
  return p;
}

async function seatCall(pathname, token, body) {
  const res = await fetch(BASE + pathname, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  const raw = await res.text();
  assert.ok(res.ok, `${pathname}: ${res.status} ${raw}`);
  return JSON.parse(raw);
}

async function axeClean(page, where) {
  const v = await axeViolations(page);
  assert.deepEqual(v, [], axeReport(where, v));
}

test('two phones in Swahili: a report from a finished game, a moderator marks the account, the rating comes back', async () => {
  const cheatName = unique('Nakili');
  const victimName = unique('Mshindwa');
  const modName = unique('Msimamizi');
  const cheat = await accountByApi(cheatName, PASSWORD);
  const victimSession = await accountByApi(victimName, PASSWORD);
  const modSession = await accountByApi(modName, PASSWORD);
  // The site's operator names the moderator on the server's database.
  const said = bao('admin', 'moderator', 'grant', modName, '--database', process.env.BAO_DATABASE).join('\n');
  assert.match(said, new RegExp(`${modName} is a moderator now`));

  // A rated game: the copier wins after one move, the victim resigns (through the API).
  const made = (await callAs('/api/games', { session: cheat, method: 'POST', body: { variant: 'kete', opponent: { kind: 'human' }, side: 'S', match: 'single_game', rated: true } })).data;
  const joined = (await callAs(`/api/games/${made.id}/join`, { session: victimSession, method: 'POST', body: { invite: made.invite } })).data;
  const state = (await callAs(`/api/games/${made.id}`, { session: cheat })).data;
  await seatCall(`/api/games/${made.id}/moves`, made.token, { move: state.legal[0].move, ply: 0 });
  await seatCall(`/api/games/${made.id}/resign`, joined.token, { game_no: 1, ply: 1 });
  let lost;
  for (;;) {
    const u = (await callAs(`/api/users/${victimName}`)).data;
    lost = u.ratings.kete.rating;
    if (lost < 1500) break;
    await new Promise((r) => setImmediate(r));
  }

  const victim = await signedIn(victimName, victimSession);
  const moderator = await signedIn(modName, modSession);
  const a = victim.page;
  const b = moderator.page;

  // The victim reports the winner from the finished game's page.
  await a.goto(`/g/${made.id}`);
  await a.waitForSelector('#result:not([hidden]) [data-report-open]');
  assert.equal(await a.textContent('[data-report-open]'), text('sw', 'fairplay', 'fairplay.report_button', { name: cheatName }));
  await a.click('[data-report-open]');
  // An empty reason is refused in words before anything is sent.
  await a.click('[data-report-send]');
  await a.waitForSelector('[data-report-status]:not([hidden])');
  assert.equal(await a.textContent('[data-report-status]'), text('sw', 'fairplay', 'fairplay.err_reason'));
  await a.fill('.report-form textarea', 'Kila zamu ilikuwa ya kompyuta, haraka sana.');
  await noSidewaysScroll(a, 'the report form');
  await screenshot(a, '56-report-form-sw-360');
  await axeClean(a, 'the report form (sw, 360)');
  await a.click('[data-report-send]');
  await a.waitForFunction((t) => document.querySelector('[data-report-status]')?.textContent === t, text('sw', 'fairplay', 'fairplay.sent', { name: cheatName }));

  // The moderator finds the report on /mod and opens the account.
  await b.goto('/account');
  await b.waitForSelector('#mod-link');
  await Promise.all([b.waitForURL(/\/mod$/), b.click('#mod-link')]);
  await b.waitForSelector('#mod[data-state="ready"]');
  const line = text('sw', 'fairplay', 'fairplay.report_line', { reporter: victimName, name: cheatName, reason: 'Kila zamu ilikuwa ya kompyuta, haraka sana.' });
  const report = b.locator('#report-list li', { hasText: line });
  await report.waitFor();
  await noSidewaysScroll(b, '/mod');
  await screenshot(b, '56-mod-queue-sw-360');
  await axeClean(b, '/mod (sw, 360)');
  await Promise.all([b.waitForURL(/\/mod\?user=/), report.locator('[data-open-user]').click()]);
  await b.waitForSelector('#mod[data-state="ready"] #mod-user:not([hidden])');
  assert.equal(await b.textContent('#user-name'), cheatName);
  assert.equal((await b.textContent('#user-reports')).includes(line), true);
  await axeClean(b, '/mod?user (sw, 360)');

  // A mark needs a reason; then it gives the victim's loss back and closes the report.
  await b.check('input[name="action"][value="mark"]');
  await b.click('#act-submit');
  await b.waitForSelector('#act-status:not([hidden])');
  assert.equal(await b.textContent('#act-status'), text('sw', 'fairplay', 'fairplay.err_reason'));
  await b.fill('#act-reason', 'Zamu zake zote zilifanana na za kompyuta.');
  await b.click('#act-submit');
  await b.waitForSelector('#mod[data-acted="mark"]');
  const given = 1500 - lost;
  const done = await b.textContent('#act-status');
  assert.equal(done, text('sw', 'fairplay', 'fairplay.done_mark', { n: 1, points: given }));
  await b.waitForSelector('#user-marked:not([hidden])');
  const logged = await b.textContent('#user-actions li[data-action="mark"]');
  for (const part of [modName, text('sw', 'fairplay', 'fairplay.action_mark'), 'Zamu zake zote zilifanana na za kompyuta.']) {
    assert.ok(logged.includes(part), `the log line "${logged}" names ${part}`);
  }
  await screenshot(b, '56-mod-marked-sw-360');
  await axeClean(b, '/mod?user after a mark (sw, 360)');

  // The victim's rating is back on their profile.
  await a.goto(`/@/${victimName}`);
  await a.waitForSelector('#profile[data-state="ready"]');
  assert.match(await a.textContent('#ratings'), /1500/);

  // The marked player reads the mark and its reason on their account page, in Swahili.
  const marked = await signedIn(cheatName, cheat);
  await marked.page.waitForSelector('#fairplay-section #fairplay-marked');
  assert.equal(await marked.page.textContent('#fairplay-marked'), text('sw', 'fairplay', 'fairplay.notice_marked'));
  assert.ok((await marked.page.textContent('#fairplay-actions')).includes('Zamu zake zote zilifanana na za kompyuta.'));
  assert.ok(!(await marked.page.textContent('#fairplay-section')).includes(modName), 'the moderator is not named to the player');
  await noSidewaysScroll(marked.page, '/account with a mark');
  await screenshot(marked.page, '56-account-marked-sw-360');
  await axeClean(marked.page, '/account with a mark (sw, 360)');

  // The moderators' pages in both languages on a desktop and a phone, and refused to a player.
  const others = [];
  for (const [lang, device] of [['en', { viewport: { width: 1280, height: 800 } }], ['sw', { viewport: { width: 1280, height: 800 } }], ['en', undefined]]) {
    const p = await phone(browser, lang, device);
    others.push(p);
    await p.context.addCookies([{ name: 'bao_session', value: modSession, url: BASE }]);
    const where = `(${lang}, ${device ? 1280 : 360})`;
    await p.page.goto(`/mod?user=${cheatName}`);
    await p.page.waitForSelector('#mod[data-state="ready"] #mod-user:not([hidden])');
    await axeClean(p.page, `/mod?user ${where}`);
    await p.page.goto('/mod');
    await p.page.waitForSelector('#mod[data-state="ready"]');
    await axeClean(p.page, `/mod ${where}`);
    if (!device) await noSidewaysScroll(p.page, '/mod in English');
  }
  await a.goto('/mod');
  await a.waitForSelector('#mod[data-state="error"]');
  assert.equal(await a.textContent('#page-status'), text('sw', 'fairplay', 'fairplay.mod_not_moderator'));
  await axeClean(a, '/mod refused (sw, 360)');

  for (const p of [victim, moderator, marked, ...others]) {
    assertClean(p.page, { allowConsole: [/403/] });
    await p.context.close();
  }
});
