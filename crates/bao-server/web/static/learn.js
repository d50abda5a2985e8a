// Jifunze / Learn (docs/learn.md): /learn lists each game's lessons with the stars earned;
// /learn/{variant}/{lesson}[?step=N] plays a lesson step by step on the game's board and move
// chooser (board.js, chooser.js).
//
// The lessons and their texts come from GET /api/learn/{variant}?lang= (the service worker
// keeps them for use with no network). Every move is decided by the rules in this browser:
// the engine worker's `learn` request (crates/bao-wasm, bao-learn's goals) says whether it
// reaches the step's goal, gives its events to animate and the scripted or engine answer; the
// page never decides a rule. Progress is kept by learn-progress.js.

import { $, api, el, errorText, notify, parsePosition, pref, setPref, VARIANT_TITLES } from './app.js';
import { BoardView } from './board.js';
import { MoveChooser } from './chooser.js';
import { engine } from './offline-engine.js';
import { t, tHtml, tn, lang } from './i18n.js';
import { lessonProgress, lessonStars, loadProgress, recordStep, resetLesson } from './learn-progress.js';

const VARIANTS = ['kiswahili', 'kete', 'kimasai'];
const pageStatus = $('page-status');
const lessonBox = $('lesson');

/** The course of a game, with its texts in the page's language. */
const courseCache = new Map();
function loadCourse(variant) {
  if (!courseCache.has(variant)) {
    const p = api(`/api/learn/${variant}?lang=${lang}`);
    p.catch(() => courseCache.delete(variant));
    courseCache.set(variant, p);
  }
  return courseCache.get(variant);
}

/** "★★☆" for `n` of `max` stars. */
const starMarks = (n, max = 3) => '★'.repeat(n) + '☆'.repeat(Math.max(0, max - n));

// ---------------------------------------------------------------- the course list

async function showCourses() {
  $('courses').hidden = false;
  const list = $('course-list');
  let courses;
  try {
    courses = await Promise.all(VARIANTS.map(loadCourse));
  } catch (err) {
    notify(pageStatus, t('lessons.load_failed', { error: errorText(err) }), 'error');
    list.replaceChildren();
    list.removeAttribute('aria-busy');
    return;
  }
  const progress = loadProgress();
  list.replaceChildren(...courses.map((c) => courseSection(c, progress)));
  list.removeAttribute('aria-busy');
  document.body.dataset.learnView = 'courses';
}

function courseSection(course, progress) {
  const v = course.variant;
  let earned = 0;
  let total = 0;
  const items = course.lessons.map((lesson) => {
    const n = lesson.steps.length;
    const p = progress[`${v}/${lesson.id}`] ? lessonProgress(v, lesson.id) : { stars: {}, done: false };
    const stars = lessonStars(p, n);
    earned += stars;
    total += 3 * n;
    const title = el('a', { class: 'lesson-link', href: `/learn/${v}/${lesson.id}`, 'data-lesson': lesson.id });
    title.innerHTML = lesson.title; // catalog text: Bao's words in <span lang="sw">
    const started = Object.keys(p.stars).length > 0;
    const again = started
      ? el(
          'button',
          {
            type: 'button',
            class: 'again',
            'aria-label': t('lessons.start_again_label', { title: title.textContent }),
            onclick: () => {
              resetLesson(v, lesson.id);
              showCourses();
            },
          },
          t('lessons.start_again'),
        )
      : null;
    return el(
      'li',
      { 'data-lesson': lesson.id, 'data-stars': stars, 'data-done': p.done ? 'true' : null },
      title,
      el('span', { class: 'muted small' }, tn('lessons.steps', n)),
      el('span', { class: 'stars', role: 'img', 'aria-label': t('lessons.course_stars', { stars, total: 3 * n }) }, `★ ${stars}/${3 * n}`),
      p.done ? el('span', { class: 'done' }, `✓ ${t('lessons.lesson_done')}`) : null,
      again,
    );
  });
  const id = `course-${v}`;
  return el(
    'section',
    { class: 'course panel', 'aria-labelledby': id, 'data-variant': v },
    el('h2', { id }, VARIANT_TITLES[v]),
    el('p', { class: 'muted small', 'data-course-stars': earned }, t('lessons.course_stars', { stars: earned, total })),
    el('ol', { class: 'lesson-list' }, ...items),
  );
}

// ---------------------------------------------------------------- one lesson

const board = new BoardView($('board'), { caption: $('caption'), onPick: (pit) => here.phase === 'play' && chooser.pick(pit) });
const chooser = new MoveChooser({ box: $('chooser'), board, play: (move) => send(move) });

const reduced = typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
const speed = $('speed');

/** Where the learner is: the lesson, the step, this try's plies, and what the page waits for. */
const here = {
  course: null,
  lesson: null,
  index: 0,
  step: null,
  plies: [],
  earlier: 0, // learner moves of the failed tries of this step (they count for the stars)
  hints: 0,
  legal: [],
  phase: 'loading', // loading | play | busy | done | failed
  opened: 0, // bumps on every step opened: answers for an older step are dropped
};

function setPhase(phase) {
  here.phase = phase;
  lessonBox.dataset.state = phase;
}

function feedback(html, kind = '') {
  const f = $('feedback');
  f.innerHTML = html;
  f.className = kind;
}

/** The learner's side: the side to move of the step's position. */
const learner = () => parsePosition(here.step.position)?.side || 'S';

/** The pits a goal names (docs/learn.md "Goals"): the pit the step is about. */
function goalPits(goal) {
  if (!goal) return [];
  if (goal.kind === 'all') return goal.goals.flatMap(goalPits);
  return goal.pit ? [goal.pit] : [];
}

/** The goal in words (HTML: Bao's words in <span lang="sw">), in the game's own terms. */
function goalHtml(goal, variant) {
  const kim = variant === 'kimasai';
  const kete = variant === 'kete';
  switch (goal.kind) {
    case 'capture':
      if (goal.pit) return kim ? tHtml('lessons.goal_raid_pit', { pit: goal.pit }) : tHtml('lessons.goal_capture_pit', { pit: goal.pit });
      if (goal.min_seeds) return kim ? tHtml('lessons.goal_raid_cows', { n: goal.min_seeds }) : tHtml('lessons.goal_capture_seeds', { n: goal.min_seeds });
      return kim ? tHtml('lessons.goal_raid') : tHtml('lessons.goal_capture');
    case 'captures':
      return kim ? tHtml('lessons.goal_raids', { n: goal.min }) : tHtml('lessons.goal_captures', { n: goal.min });
    case 'last_seed':
      return kim ? tHtml('lessons.goal_last_cow', { pit: goal.pit }) : tHtml('lessons.goal_last_seed', { pit: goal.pit });
    case 'keep_house':
      return kete ? tHtml('lessons.goal_keep_kuu') : tHtml('lessons.goal_keep_house');
    case 'safari':
      return tHtml('lessons.goal_safari');
    case 'tax':
      return kete ? tHtml('lessons.goal_tax_kuu') : tHtml('lessons.goal_tax');
    case 'bring_in':
      if (kim) return goal.pit ? tHtml('lessons.goal_reserve_pit', { pit: goal.pit }) : tHtml('lessons.goal_reserve');
      return goal.pit ? tHtml('lessons.goal_bring_in_pit', { pit: goal.pit }) : tHtml('lessons.goal_bring_in');
    case 'hand_empty':
      return kim ? tHtml('lessons.goal_reserve_empty') : tHtml('lessons.goal_hand_empty');
    case 'relay':
      return tHtml('lessons.goal_relay', { n: goal.min_laps });
    case 'block':
      return tHtml('lessons.goal_block', { pit: goal.pit });
    case 'threaten':
      return goal.pit ? tHtml('lessons.goal_threaten_pit', { pit: goal.pit }) : tHtml('lessons.goal_threaten');
    case 'win':
      return tHtml('lessons.goal_win');
    case 'survive':
      return tHtml('lessons.goal_survive');
    case 'all':
      return goal.goals.map((g) => goalHtml(g, variant)).join(' ');
    default:
      return '';
  }
}

/** What a move that missed the goal did, in words (the rules' facts of the `learn` answer). */
function missedHtml(goal, facts, variant) {
  const kim = variant === 'kimasai';
  const kinds = goal.kind === 'all' ? goal.goals.map((g) => g.kind) : [goal.kind];
  const out = [];
  if (kinds.includes('last_seed') && facts.last) out.push(kim ? tHtml('lessons.missed_last_cow', { pit: facts.last }) : tHtml('lessons.missed_last_seed', { pit: facts.last }));
  if (kinds.includes('capture')) {
    if (!facts.captures) out.push(kim ? tHtml('lessons.missed_no_raid') : tHtml('lessons.missed_nothing'));
    else out.push(kim ? tn('lessons.missed_cows', facts.seeds) : tn('lessons.missed_seeds', facts.seeds));
  }
  if (kinds.includes('captures')) out.push(kim ? tn('lessons.missed_raids', facts.captures) : tn('lessons.missed_captures', facts.captures));
  if (kinds.includes('relay')) out.push(tn('lessons.missed_laps', facts.laps));
  return out.join(' ');
}

function failureHtml(failed) {
  switch (failed) {
    case 'game_over':
      return tHtml('lessons.failed_game_over');
    case 'off_script':
      return tHtml('lessons.failed_off_script');
    case 'too_long':
      return tHtml('lessons.failed_too_long');
    default:
      return ''; // no_reply: the step had to be done with this move
  }
}

function renderChooser() {
  if (here.phase !== 'play' || !here.legal.length) {
    chooser.clear();
    return;
  }
  // In namua (seeds in hand) the letter of a capture names the kichwa it enters at (KIS-4.2).
  const p = parsePosition(board.svg?.getAttribute('data-position'));
  const namua = !!p && p.variant !== 'kimasai' && p.hands[p.side] > 0;
  chooser.offer(here.legal, { side: learner(), namua });
}

/** The marks of the steps: a link each, with the stars earned. */
function renderStepMarks() {
  const v = here.course.variant;
  const p = lessonProgress(v, here.lesson.id);
  $('step-marks').replaceChildren(
    ...here.lesson.steps.map((_, i) => {
      const stars = Number(p.stars[i]) || 0;
      const label = stars ? t('lessons.step_mark_stars', { n: i + 1, stars }) : t('lessons.step_mark', { n: i + 1 });
      const a = el(
        'a',
        {
          href: `/learn/${v}/${here.lesson.id}?step=${i + 1}`,
          class: stars ? 'earned' : null,
          'aria-current': i === here.index ? 'step' : null,
          'data-step': i,
          onclick: (e) => {
            e.preventDefault();
            openStep(i);
          },
        },
        el('span', { 'aria-hidden': 'true' }, stars ? `${i + 1} ${'★'.repeat(stars)}` : String(i + 1)),
        el('span', { class: 'visually-hidden' }, label),
      );
      return el('li', {}, a);
    }),
  );
}

/**
 * Opens step `i` of the lesson; `retry`: a new try of the same step (its moves still count);
 * `next`: reached with "Next step" (the page then shows the new step from its top).
 */
async function openStep(i, { retry = false, next = false } = {}) {
  const gen = ++here.opened;
  board.skip(); // a move still being sown finishes at once; its answer is dropped (gen)
  const step = here.lesson.steps[i];
  if (!retry) here.earlier = 0;
  here.index = i;
  here.step = step;
  here.plies = [];
  here.hints = retry ? here.hints : 0;
  here.legal = [];
  setPhase('loading');
  chooser.cancel(true);
  chooser.clear();
  const url = new URL(location.href);
  url.searchParams.set('step', String(i + 1));
  history.replaceState(null, '', url.pathname + url.search);
  const v = here.course.variant;
  $('step-count').textContent = t('lessons.step_of', { n: i + 1, total: here.lesson.steps.length });
  $('teach').innerHTML = step.text; // catalog text (learn.json), markup for Bao's words
  $('goal').innerHTML = goalHtml(step.goal, v);
  $('par').textContent = tn('lessons.par', step.par);
  $('stars').hidden = true;
  $('retry').hidden = true;
  $('next').hidden = true;
  $('next-lesson').hidden = true;
  $('hint').hidden = false;
  if (!retry) {
    $('hint-text').hidden = true;
    $('hint-text').textContent = '';
    $('hint').textContent = step.hints.length ? t('lessons.hint') : t('lessons.show_me');
  }
  feedback('');
  // The last move's words belong to the board as it was.
  board.say('');
  renderStepMarks();
  let svg;
  let legal;
  try {
    [svg, legal] = await Promise.all([
      engine({ op: 'svg', variant: v, rules: '-', position: step.position }),
      engine({ op: 'legal', variant: v, rules: '-', position: step.position }),
    ]);
  } catch (err) {
    if (gen === here.opened) notify(pageStatus, t('lessons.engine_failed', { error: err.message || String(err) }), 'error');
    return;
  }
  if (gen !== here.opened) return;
  board.over = false;
  board.flipped = learner() === 'N';
  board.setSvg(svg);
  board.setPosition(step.position);
  markPits();
  here.legal = legal;
  lessonBox.dataset.step = String(i);
  setPhase('play');
  renderChooser();
  showStepTop(next);
}

/**
 * A step must be seen whole when it starts: its instruction, its goal and the board. After
 * "Next step" (whose button was under the board) the page goes up to the new step: its count
 * and instruction at the top, or the instruction alone where the count would push the board
 * off the screen. When a step opens otherwise, the page moves only if the board would end
 * below the screen. Focus goes to the instruction after "Next step", so that it is read first.
 */
function showStepTop(next) {
  const count = $('step-count').getBoundingClientRect().top;
  const teach = $('teach').getBoundingClientRect().top;
  const bottom = $('board').getBoundingClientRect().bottom;
  if (next || count < 0 || bottom > window.innerHeight) {
    const top = bottom - count + 4 <= window.innerHeight ? count - 4 : teach - 4;
    window.scrollTo({ top: Math.max(0, window.scrollY + top), behavior: 'instant' });
  }
  if (next) $('teach').focus({ preventScroll: true });
}

/** The pit the step teaches, ringed; after "Show me", the pit to play. */
function markPits(shown = null) {
  for (const g of board.container.querySelectorAll('g.pit.taught, g.pit.shown')) g.classList.remove('taught', 'shown');
  for (const pit of goalPits(here.step.goal)) board.pit(pit)?.classList.add('taught');
  if (shown) board.pit(shown)?.classList.add('shown');
}

/** The learner's move `move`: checked by the rules in the engine worker, then shown. */
async function send(move) {
  if (here.phase !== 'play') return;
  const gen = here.opened;
  setPhase('busy');
  chooser.wait(move);
  here.plies.push(move);
  let a;
  try {
    a = await engine({ op: 'learn', step: here.step, moves: here.plies, earlier: here.earlier });
  } catch (err) {
    if (gen !== here.opened) return;
    here.plies.pop();
    feedback('');
    notify(pageStatus, t('lessons.engine_failed', { error: err.message || String(err) }), 'error');
    setPhase('play');
    renderChooser();
    return;
  }
  if (gen !== here.opened) return;
  $('skip').disabled = false;
  await board.animate(a.played.events, a.played.by, a.played.position);
  if (gen !== here.opened) return;
  board.setPosition(a.played.position, a.played.move);
  markPits();
  if (a.done) {
    $('skip').disabled = true;
    return finishStep(a);
  }
  if (a.reply) {
    here.plies.push(a.reply.move);
    feedback(tHtml('lessons.answer', { move: a.reply.move }));
    await board.animate(a.reply.events, a.reply.by, a.reply.position);
    if (gen !== here.opened) return;
    board.setPosition(a.reply.position, a.reply.move);
    markPits();
  }
  $('skip').disabled = true;
  if (a.failed) {
    here.earlier += a.moves;
    const why = [tHtml('lessons.missed'), missedHtml(here.step.goal, a.facts, here.course.variant), failureHtml(a.failed), tHtml('lessons.press_try_again')];
    feedback(why.filter(Boolean).join(' '), 'bad');
    $('retry').hidden = false;
    setPhase('failed');
    chooser.clear();
    $('retry').focus();
    return;
  }
  here.legal = a.legal;
  setPhase('play');
  renderChooser();
}

function finishStep(a) {
  const v = here.course.variant;
  const lesson = here.lesson;
  const p = recordStep(v, lesson.id, here.index, a.stars, lesson.steps.length);
  feedback(tn('lessons.stars_earned', a.stars), 'good');
  const s = $('stars');
  s.textContent = starMarks(a.stars);
  s.setAttribute('role', 'img');
  s.setAttribute('aria-label', t('lessons.stars_label', { n: a.stars }));
  s.dataset.stars = String(a.stars);
  s.hidden = false;
  $('hint').hidden = true;
  renderStepMarks();
  const last = here.index + 1 >= lesson.steps.length;
  if (!last) {
    $('next').hidden = false;
    setPhase('done');
    chooser.clear();
    $('next').focus();
    return;
  }
  // The lesson's last step: its stars, then the next lesson (or the list at the course's end).
  const total = lessonStars(p, lesson.steps.length);
  const at = here.course.lessons.findIndex((l) => l.id === lesson.id);
  const next = here.course.lessons[at + 1];
  const words = [tHtml('lessons.lesson_complete', { stars: total, total: 3 * lesson.steps.length })];
  const link = $('next-lesson');
  if (next) {
    link.href = `/learn/${v}/${next.id}`;
    link.textContent = t('lessons.next_lesson');
  } else {
    link.href = '/learn';
    link.textContent = t('lessons.back');
    words.push(tHtml('lessons.course_complete'));
  }
  feedback(`${tn('lessons.stars_earned', a.stars)} ${words.join(' ')}`, 'good');
  link.hidden = false;
  setPhase('done');
  lessonBox.dataset.lessonDone = 'true';
  chooser.clear();
  link.focus();
}

function showHint() {
  const step = here.step;
  if (!step) return;
  const box = $('hint-text');
  if (here.hints < step.hints.length) {
    box.innerHTML = step.hints[here.hints]; // catalog text (learn.json)
    here.hints += 1;
    box.hidden = false;
    if (here.hints >= step.hints.length) $('hint').textContent = t('lessons.show_me');
    return;
  }
  // No hint left: point at the pit of the solution's next move of this try.
  const mine = Math.ceil(here.plies.length / 2);
  const move = (step.solutions[0] || '').split(/\s+/)[mine];
  if (!move) return;
  const pit = move.slice(0, 2);
  markPits(pit);
  box.textContent = t('lessons.show_pit', { pit });
  box.hidden = false;
}

async function showLesson(variant, lessonId, wantedStep) {
  lessonBox.hidden = false;
  let course;
  try {
    course = await loadCourse(variant);
  } catch (err) {
    notify(pageStatus, t('lessons.load_failed', { error: errorText(err) }), 'error');
    return;
  }
  const lesson = course.lessons.find((l) => l.id === lessonId);
  if (!lesson) {
    notify(pageStatus, t('lessons.load_failed', { error: t('errors.not_found') }), 'error');
    return;
  }
  here.course = course;
  here.lesson = lesson;
  $('lesson-title').innerHTML = lesson.title;
  $('course-name').textContent = VARIANT_TITLES[variant];
  document.title = `${$('lesson-title').textContent} · ${t('lessons.title')} · bao`;
  document.body.dataset.learnView = 'lesson';
  // The first step without stars, unless the address names one.
  const p = lessonProgress(variant, lessonId);
  let i = wantedStep !== null ? wantedStep : lesson.steps.findIndex((_, k) => !(p.stars[k] > 0));
  if (!(i >= 0 && i < lesson.steps.length)) i = 0;
  await openStep(i);
}

// Lessons sow slower than games (the game's "normal" is 250 ms a seed), so that a beginner can
// follow each seed; its own setting, kept apart from the game page's.
speed.value = String(pref('learnSpeed', reduced ? 0 : 450));
if (!speed.value) speed.value = '450';
board.delay = Number(speed.value);
speed.addEventListener('change', () => {
  board.delay = Number(speed.value);
  setPref('learnSpeed', board.delay);
});
$('skip').addEventListener('click', () => board.skip());
$('hint').addEventListener('click', showHint);
$('retry').addEventListener('click', () => openStep(here.index, { retry: true }));
$('next').addEventListener('click', () => openStep(here.index + 1, { next: true }));
$('restart').addEventListener('click', () => {
  if (!here.lesson) return;
  resetLesson(here.course.variant, here.lesson.id);
  delete lessonBox.dataset.lessonDone;
  openStep(0);
});

// /learn/{variant}/{lesson}: a lesson; anything else (/learn): the courses.
const parts = location.pathname.split('/').filter(Boolean);
if (parts[0] === 'learn' && VARIANTS.includes(parts[1]) && parts[2]) {
  const n = Number(new URLSearchParams(location.search).get('step'));
  showLesson(parts[1], decodeURIComponent(parts[2]), Number.isInteger(n) && n >= 1 ? n - 1 : null);
} else {
  showCourses();
}
