// Jifunze / Learn (docs/learn.md "The web page"): on a phone in Swahili, the home page leads to
// /learn, the first Kiswahili lesson opens, a wrong move says so and does not advance, the
// step's solution (read from GET /api/learn, never written here) earns stars counted over the
// tries and "Next" advances; progress survives a reload. With the network off (service worker)
// a lesson is opened and a step done by the browser engine alone. A Kimasai step, and the Kete
// step whose first move gets the script's answer, are played too. Screenshots at 360 px in
// Swahili and English; nothing scrolls sideways.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, assertClean, api, bao, boardCounts, positionCounts, playLessonMove as play, screenshot } from '../lib/harness.mjs';

const PHONE = { width: 360, height: 640 };
let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** A step's first solution move (the data decides it). */
const solutionMove = (step, k = 0) => step.solutions[0].split(/\s+/)[k];

/** A legal move of `position` that is none of the step's solutions (`bao moves`, the native rules). */
function wrongMove(step) {
  const firsts = new Set(step.solutions.map((s) => s.split(/\s+/)[0]));
  const legal = bao('moves', step.position)
    .map((l) => l.split('\t')[0])
    .filter(Boolean);
  const w = legal.find((m) => !firsts.has(m));
  assert.ok(w, `a legal move that misses in ${step.position}`);
  return w;
}

const state = (page, s) => page.waitForSelector(`#lesson[data-state="${s}"]`);

/** The page fits the screen's width (a phone widens its layout viewport to what overflows). */
async function assertNoSideways(page, width, where) {
  const scroll = await page.evaluate(() => document.scrollingElement.scrollWidth);
  assert.ok(scroll <= width, `${where}: the page is ${scroll} px wide on a ${width} px screen`);
}

test('a phone in Swahili: the first Kiswahili lesson, a wrong move, the solution, stars, next, progress kept', async () => {
  const course = await api('/api/learn/kiswahili?lang=sw');
  const lesson = course.lessons[0];
  const [first, second] = lesson.steps;
  const { context, page } = await openPage(browser, { viewport: PHONE });
  await page.goto('/?lang=sw');
  await Promise.all([page.waitForURL(/\/learn$/), page.click('#learn-link')]);
  assert.match(await page.title(), /^Jifunze/);
  await page.waitForSelector(`section[data-variant="kimasai"] .lesson-list li`);
  assert.equal(await page.locator('#course-list section.course').count(), 3);
  assert.match(await page.textContent('#courses-title'), /Jifunze/);
  await assertNoSideways(page, PHONE.width, '/learn sw');
  await screenshot(page, '47-learn-list-sw-360');

  await Promise.all([
    page.waitForURL(new RegExp(`/learn/kiswahili/${lesson.id}`)),
    page.click(`section[data-variant="kiswahili"] a[data-lesson="${lesson.id}"]`),
  ]);
  await state(page, 'play');
  assert.equal(await page.getAttribute('#lesson', 'data-step'), '0');
  assert.equal((await page.textContent('#teach')).trim(), first.text.replace(/<[^>]*>/g, ''));
  assert.ok((await page.textContent('#goal')).trim().length > 5, 'the goal in words');
  if (first.goal.pit) await page.waitForSelector(`#board g.pit.taught[data-pit="${first.goal.pit}"]`);
  assert.deepEqual(await boardCounts(page), positionCounts(first.position));
  await assertNoSideways(page, PHONE.width, 'lesson sw');
  await screenshot(page, '47-learn-step-sw-360');

  // A wrong move: the message, "Try again", the same step.
  const wrong = wrongMove(first);
  await play(page, wrong);
  await state(page, 'failed');
  assert.equal(await page.getAttribute('#feedback', 'class'), 'bad');
  assert.match(await page.textContent('#feedback'), /^Bado: zamu hiyo haifikii lengo\./);
  assert.ok(await page.isVisible('#retry'));
  assert.ok(await page.isHidden('#next'));
  assert.equal(await page.getAttribute('#lesson', 'data-step'), '0');
  await screenshot(page, '47-learn-wrong-sw-360');
  await page.click('#retry');
  await state(page, 'play');
  assert.deepEqual(await boardCounts(page), positionCounts(first.position), 'the step starts again');

  // A hint, then the solution, sown slowly (the board animates): two stars, one move over par.
  await page.click('#hint');
  await page.waitForSelector('#hint-text:not([hidden])');
  assert.equal((await page.textContent('#hint-text')).trim(), first.hints[0].replace(/<[^>]*>/g, ''));
  const move = solutionMove(first);
  await play(page, move);
  await page.waitForSelector('#board.animating');
  await state(page, 'done');
  assert.equal(await page.getAttribute('#stars', 'data-stars'), '2');
  assert.match(await page.textContent('#feedback'), /Vizuri sana! Nyota 2\./);
  assert.equal(await page.getAttribute('#board svg', 'data-last-move'), move);
  await screenshot(page, '47-learn-done-sw-360');
  await assertNoSideways(page, PHONE.width, 'lesson done sw');

  // Next: the second step, its address shareable.
  await page.click('#next');
  await page.waitForSelector('#lesson[data-step="1"][data-state="play"]');
  assert.match(page.url(), /\?step=2$/);
  assert.deepEqual(await boardCounts(page), positionCounts(second.position));
  await page.waitForSelector('#step-marks a[data-step="0"].earned');

  // After a reload: the same step, the first one's stars, and the list shows them.
  await page.reload();
  await page.waitForSelector('#lesson[data-step="1"][data-state="play"]');
  await page.waitForSelector('#step-marks a[data-step="0"].earned');
  await page.goto('/learn');
  await page.waitForSelector(`section[data-variant="kiswahili"] li[data-lesson="${lesson.id}"][data-stars="2"]`);
  // Start again forgets the lesson's stars.
  await page.click(`section[data-variant="kiswahili"] li[data-lesson="${lesson.id}"] button.again`);
  await page.waitForSelector(`section[data-variant="kiswahili"] li[data-lesson="${lesson.id}"][data-stars="0"]`);
  assertClean(page);
  await context.close();
});

test('offline (service worker): a lesson opens and a step is done by the browser engine alone', async () => {
  const course = await api('/api/learn/kiswahili?lang=sw');
  const lesson = course.lessons[1];
  const step = lesson.steps[0];
  const { context, page } = await openPage(browser, { viewport: PHONE });
  await context.addInitScript(() => localStorage.setItem('bao.learnSpeed', '0'));
  await page.goto('/learn?lang=sw');
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.waitForFunction(() => !!navigator.serviceWorker.controller);
  await context.setOffline(true);
  await page.reload();
  await page.waitForSelector(`section[data-variant="kiswahili"] a[data-lesson="${lesson.id}"]`);
  // A lesson never opened online: the cached /learn page serves its address.
  await Promise.all([page.waitForURL(new RegExp(`/learn/kiswahili/${lesson.id}`)), page.click(`section[data-variant="kiswahili"] a[data-lesson="${lesson.id}"]`)]);
  await state(page, 'play');
  assert.equal(await page.getAttribute('html', 'lang'), 'sw');
  await play(page, solutionMove(step));
  await state(page, 'done');
  assert.equal(await page.getAttribute('#stars', 'data-stars'), '3');
  await page.reload();
  await page.waitForSelector('#step-marks a[data-step="0"].earned');
  await screenshot(page, '47-learn-offline-sw-360');
  assertClean(page, { allowConsole: [/ERR_INTERNET_DISCONNECTED/, /Failed to load resource/] });
  await context.close();
});

test('a Kimasai step in English at 360 px, opened by its address', async () => {
  const course = await api('/api/learn/kimasai?lang=en');
  const lesson = course.lessons[0];
  const step = lesson.steps[1];
  const { context, page } = await openPage(browser, { viewport: PHONE });
  await context.addInitScript(() => localStorage.setItem('bao.learnSpeed', '0'));
  await page.goto(`/learn/kimasai/${lesson.id}?step=2&lang=en`);
  await page.waitForSelector('#lesson[data-step="1"][data-state="play"]');
  assert.equal(await page.title(), `${lesson.title.replace(/<[^>]*>/g, '')} · Learn · bao`);
  assert.deepEqual(await boardCounts(page), positionCounts(step.position));
  await assertNoSideways(page, PHONE.width, 'kimasai lesson en');
  await screenshot(page, '47-learn-kimasai-en-360');
  await play(page, solutionMove(step));
  await state(page, 'done');
  assert.equal(await page.getAttribute('#stars', 'data-stars'), '3');
  assert.match(await page.textContent('#feedback'), /Well done! 3 stars\./);
  await screenshot(page, '47-learn-kimasai-done-en-360');
  // An unknown lesson is not a page.
  const res = await page.goto('/learn/kimasai/no-such-lesson');
  assert.equal(res.status(), 404);
  assertClean(page, { allowConsole: [/404/] });
  await context.close();
});

test('a Kete step of two moves: the script answers the first, the second completes it', async () => {
  const course = await api('/api/learn/kete?lang=en');
  let lesson;
  let index;
  for (const l of course.lessons) {
    const i = l.steps.findIndex((s) => Array.isArray(s.replies) && s.replies.length > 0);
    if (i >= 0) [lesson, index] = [l, i];
  }
  assert.ok(lesson, 'a kete step with a scripted answer');
  const step = lesson.steps[index];
  const { context, page } = await openPage(browser, { viewport: { width: 1280, height: 800 } });
  await context.addInitScript(() => localStorage.setItem('bao.learnSpeed', '0'));
  await page.goto(`/learn/kete/${lesson.id}?step=${index + 1}&lang=en`);
  await page.waitForSelector(`#lesson[data-step="${index}"][data-state="play"]`);
  await play(page, solutionMove(step, 0));
  // The answer is played on the board, then it is the learner's move again.
  await page.waitForFunction((m) => document.querySelector('#board svg')?.getAttribute('data-last-move') === m, step.replies[0]);
  await state(page, 'play');
  assert.match(await page.textContent('#feedback'), new RegExp(`Your opponent answers ${step.replies[0].replace(/[*+]/g, '\\$&')}`));
  await play(page, solutionMove(step, 1));
  await state(page, 'done');
  assert.equal(await page.getAttribute('#stars', 'data-stars'), '3');
  await screenshot(page, '47-learn-kete-script-1280');
  assertClean(page);
  await context.close();
});
