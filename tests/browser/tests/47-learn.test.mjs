// Jifunze / Learn (docs/learn.md "The web page"): on a phone in Swahili, the home page leads to
// /learn, the first Kiswahili lesson opens, a wrong move says so and does not advance, the
// step's solution (read from GET /api/learn, never written here) earns stars counted over the
// tries and "Next" advances; progress survives a reload. With the network off (service worker)
// a lesson is opened and a step done by the browser engine alone. A Kimasai step, and the Kete
// step whose first move gets the script's answer, are played too. On a 360x640 phone each step
// starts with its instruction, goal and whole board on the screen, and Next shows the new step
// from its top without the words of the step before. Screenshots at 360 px in Swahili and
// English; nothing scrolls sideways.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, assertClean, api, bao, boardCounts, positionCounts, playLessonMove as play, screenshot, BASE, STATE_TIMEOUT_MS } from '../lib/harness.mjs';

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

/** The box of `sel` on the screen, null when it is not shown. */
const boxOf = (page, sel) => page.locator(sel).boundingBox();

/** The instruction, the goal and the whole board are inside the screen's height. */
async function stepOnScreen(page, height, where) {
  for (const sel of ['#teach', '.goal', '#board svg']) {
    const box = await boxOf(page, sel);
    assert.ok(box, `${where}: ${sel} is shown`);
    assert.ok(box.y >= 0 && box.y + box.height <= height, `${where}: ${sel} inside the screen: ${JSON.stringify(box)}`);
  }
}

/** Plays the step's first solution: each learner move, the script's answers in between. */
async function solve(page, step) {
  const line = step.solutions[0].split(/\s+/);
  for (const [j, move] of line.entries()) {
    await play(page, move);
    if (j + 1 < line.length) {
      await page.waitForFunction((m) => document.querySelector('#board svg')?.getAttribute('data-last-move') === m, step.replies[j]);
      await state(page, 'play');
    }
  }
  await state(page, 'done');
}

for (const lang of ['sw', 'en']) {
  test(`a lesson on a 360x640 phone (${lang}): each step starts with its instruction, goal and whole board on the screen; after Next the new step from its top, the last step's words gone`, async () => {
    const course = await api(`/api/learn/kiswahili?lang=${lang}`);
    const lesson = course.lessons.find((l) => l.steps.length > 3);
    const context = await browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true, baseURL: BASE, locale: lang === 'sw' ? 'sw-TZ' : 'en-GB' });
    context.setDefaultTimeout(STATE_TIMEOUT_MS);
    await context.addInitScript(() => localStorage.setItem('bao.learnSpeed', '0'));
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`/learn/kiswahili/${lesson.id}`);
    for (const [i, step] of lesson.steps.slice(0, 3).entries()) {
      const where = `${lang} ${lesson.id} step ${i + 1}`;
      await page.waitForSelector(`#lesson[data-step="${i}"][data-state="play"]`);
      assert.equal((await page.textContent('#teach')).trim(), step.text.replace(/<[^>]*>/g, ''), where);
      await stepOnScreen(page, PHONE.height, where);
      if (i > 0) {
        // Reached with Next: the step's count and instruction at the top of the screen, the
        // words of the step before gone.
        const teach = await boxOf(page, '#teach');
        assert.ok(teach.y <= 40, `${where}: the instruction is at the top: ${JSON.stringify(teach)}`);
        assert.equal((await page.textContent('#caption')).trim(), '', `${where}: no caption of the last step's move`);
        assert.equal((await page.textContent('#feedback')).trim(), '', `${where}: no feedback of the last step`);
        assert.equal(await page.isHidden('#hint-text'), true, `${where}: no hint of the last step`);
        assert.equal(await page.isHidden('#next'), true);
        assert.equal(await page.evaluate(() => document.activeElement?.id), 'teach', `${where}: the instruction has the focus`);
      }
      await screenshot(page, `47-learn-phone-${lang}-step${i + 1}`);
      // A hint and the solution: the words of this step (caption, feedback, hint) are shown.
      await page.tap('#hint');
      await page.waitForSelector('#hint-text:not([hidden])');
      await solve(page, step);
      assert.notEqual((await page.textContent('#caption')).trim(), '', `${where}: the move's words under the board`);
      assert.notEqual((await page.textContent('#feedback')).trim(), '', `${where}: the stars in words`);
      if (i === 2) break;
      await page.locator('#next').scrollIntoViewIfNeeded();
      await screenshot(page, `47-learn-phone-${lang}-step${i + 1}-done`);
      await page.tap('#next');
    }
    // The longest instruction of each course, opened by its address: it still fits with the goal and the board.
    for (const variant of ['kiswahili', 'kete', 'kimasai']) {
      const c = await api(`/api/learn/${variant}?lang=${lang}`);
      const steps = c.lessons.flatMap((l) => l.steps.map((s, k) => ({ lesson: l.id, k, len: s.text.replace(/<[^>]*>/g, '').length })));
      const longest = steps.reduce((a, b) => (b.len > a.len ? b : a));
      await page.goto(`/learn/${variant}/${longest.lesson}?step=${longest.k + 1}`);
      await page.waitForSelector(`#lesson[data-step="${longest.k}"][data-state="play"]`);
      await stepOnScreen(page, PHONE.height, `${lang} ${variant} ${longest.lesson} step ${longest.k + 1} (the longest instruction, ${longest.len} characters)`);
      await screenshot(page, `47-learn-phone-${lang}-${variant}-longest`);
    }
    await assertNoSideways(page, PHONE.width, `lesson ${lang}`);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('a beginner finishes the first three Kiswahili lessons on a phone in Swahili; stars and progress survive a reload', async () => {
  const course = await api('/api/learn/kiswahili?lang=sw');
  const lessons = course.lessons.slice(0, 3);
  const { context, page } = await openPage(browser, { viewport: PHONE });
  await context.addInitScript(() => localStorage.setItem('bao.learnSpeed', '0'));
  await page.goto(`/learn/kiswahili/${lessons[0].id}?lang=sw`);
  for (const [k, lesson] of lessons.entries()) {
    for (const [i, step] of lesson.steps.entries()) {
      await page.waitForSelector(`#lesson[data-step="${i}"][data-state="play"]`);
      // Every learner move of the step's first solution (the script answers in between).
      const line = step.solutions[0].split(/\s+/);
      for (const [j, move] of line.entries()) {
        await play(page, move);
        if (j + 1 < line.length) {
          // The script's answer is on the board before the learner moves again.
          assert.ok(Array.isArray(step.replies), `${lesson.id} step ${i + 1}: a line of several moves has scripted answers`);
          await page.waitForFunction((m) => document.querySelector('#board svg')?.getAttribute('data-last-move') === m, step.replies[j]);
          await state(page, 'play');
        }
      }
      await state(page, 'done');
      assert.equal(await page.getAttribute('#stars', 'data-stars'), '3', `${lesson.id} step ${i + 1}`);
      if (i + 1 < lesson.steps.length) await page.click('#next');
    }
    // The lesson's end: on to the next lesson.
    if (k + 1 < lessons.length) {
      await page.waitForSelector('#next-lesson:not([hidden])');
      await Promise.all([page.waitForURL(new RegExp(`/learn/kiswahili/${lessons[k + 1].id}`)), page.click('#next-lesson')]);
    }
  }
  await page.reload();
  await page.goto('/learn?lang=sw');
  for (const lesson of lessons) {
    await page.waitForSelector(`section[data-variant="kiswahili"] li[data-lesson="${lesson.id}"][data-stars="${3 * lesson.steps.length}"]`);
  }
  assertClean(page);
  await context.close();
});
