// Progress in the Jifunze / Learn lessons (docs/learn.md), kept in this browser's localStorage:
// the best stars of each step, per lesson. The course list shows it; "Start again" forgets a
// lesson's.
//
// Stored as `bao.learn.progress`: {"kiswahili/board": {"stars": {"0": 3, "1": 2}, "done": true}}
// (steps by index from 0; `done` once every step of the lesson has stars).

const KEY = 'bao.learn.progress';

/** Every lesson's progress: {"VARIANT/LESSON": {stars: {STEP: 1..3}, done}}. */
export function loadProgress() {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) || '{}');
    return v && typeof v === 'object' && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}

/** One lesson's progress: {stars: {STEP: n}, done}; empty when never started. */
export function lessonProgress(variant, lesson) {
  const p = loadProgress()[`${variant}/${lesson}`];
  return { stars: (p && typeof p.stars === 'object' && p.stars) || {}, done: !!(p && p.done) };
}

/**
 * THE place where progress is saved. Today: this browser's localStorage. Accounts plug in
 * here: when the learner is signed in, send `change` ({variant, lesson, step, stars, done}, or
 * {variant, lesson, reset: true}) to the account too. Nothing else writes progress.
 */
export function saveProgress(all, change) {
  void change; // for the account, when there is one
  try {
    localStorage.setItem(KEY, JSON.stringify(all));
  } catch {
    // Private mode or a full storage: the progress lasts for this page only.
  }
}

/** Records a step done with `stars` (the best of the tries is kept); returns the lesson's progress. */
export function recordStep(variant, lesson, step, stars, stepCount) {
  const all = loadProgress();
  const key = `${variant}/${lesson}`;
  const entry = all[key] && typeof all[key] === 'object' ? all[key] : { stars: {} };
  entry.stars = entry.stars && typeof entry.stars === 'object' ? entry.stars : {};
  entry.stars[step] = Math.max(Number(entry.stars[step]) || 0, stars);
  entry.done = Array.from({ length: stepCount }, (_, i) => entry.stars[i] > 0).every(Boolean);
  all[key] = entry;
  saveProgress(all, { variant, lesson, step, stars: entry.stars[step], done: entry.done });
  return { stars: entry.stars, done: entry.done };
}

/** Forgets a lesson's progress ("Start again"). */
export function resetLesson(variant, lesson) {
  const all = loadProgress();
  delete all[`${variant}/${lesson}`];
  saveProgress(all, { variant, lesson, reset: true });
}

/** The stars earned in a lesson, out of 3 a step. */
export function lessonStars(progress, stepCount) {
  let n = 0;
  for (let i = 0; i < stepCount; i++) n += Math.min(3, Number(progress.stars[i]) || 0);
  return n;
}
