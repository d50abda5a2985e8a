// What the club and team-match browser tests do alike (docs/api.md "Clubs", "Team matches"):
// a Swahili phone signed in as an account, a club started from /clubs, a lineup named on the
// match page. Every wait is for a state the page shows.
import { BASE } from './harness.mjs';
import { phone } from './phone.mjs';

/** A Swahili phone of `browser` signed in with `session` as `name`: {context, page, name}. */
export async function signedIn(browser, name, session) {
  const p = await phone(browser, 'sw');
  await p.context.addCookies([{ name: 'bao_session', value: session, url: BASE }]);
  // The account page asks the server who this browser is, and the pages remember it.
  await p.page.goto('/account');
  await p.page.waitForFunction((n) => document.querySelector('#account-name')?.textContent === n, name);
  p.name = name;
  return p;
}

/** The leader on `page` starts a club from /clubs, open or closed: its page's path. */
export async function startClub(page, name, place, open = true) {
  await page.goto('/clubs');
  await page.waitForSelector('#clubs[data-state="ready"]');
  await page.fill('#c-name', name);
  await page.fill('#c-place', place);
  await page.check(`input[name="joining"][value="${open ? 'open' : 'closed'}"]`);
  await Promise.all([page.waitForURL(/\/club\/[a-z0-9]{10}$/), page.click('#new-submit')]);
  await page.waitForSelector('#club[data-state="ready"][data-you="leader"]');
  return new URL(page.url()).pathname;
}

/** The lineup editor on `page`: picks `names` in board order and saves; the status said. */
export async function setLineup(page, names) {
  await page.waitForSelector('#match[data-state="ready"]:not([data-lineup="none"])');
  for (const [i, n] of names.entries()) {
    await page.waitForSelector(`#lineup-${i + 1} option[value="${n}"]`, { state: 'attached' });
    await page.selectOption(`#lineup-${i + 1}`, n);
  }
  await page.click('#lineup-submit');
  await page.waitForFunction(() => document.querySelector('#lineup-status')?.textContent.length > 0);
  return (await page.textContent('#lineup-status')).trim();
}
