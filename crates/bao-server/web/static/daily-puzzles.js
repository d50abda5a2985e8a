// The home page's puzzles of the day (docs/api.md, "Puzzles": GET /api/puzzles/daily): one a
// game, each its game's name and its goal in words, linking to the puzzle on /puzzles. The
// box stays hidden when none can be read (offline).

import { $, api, el, VARIANT_TITLES } from './app.js';
import { t, tn } from './i18n.js';

/** The goal of a puzzle in words, short. */
function goalWords(p) {
  const g = p.goal || {};
  if (g.kind === 'seeds') return t('home.daily_seeds', { n: g.n });
  if (g.kind === 'save_house') return t('home.daily_house');
  return tn('home.daily_win', Math.ceil((p.moves || []).length / 2));
}

function item(v, p) {
  const game = VARIANT_TITLES[v] || v;
  return el(
    'li',
    {},
    el('div', {}, el('div', {}, game), el('div', { class: 'meta' }, goalWords(p))),
    el(
      'a',
      { class: 'button', href: `/puzzles?id=${encodeURIComponent(p.id)}`, 'aria-label': t('home.daily_solve_label', { game }) },
      t('home.daily_solve'),
    ),
  );
}

/** Reads the three puzzles of the day and shows them. */
export async function showDailyPuzzles() {
  const box = $('daily-box');
  if (!box) return;
  const variants = Object.keys(VARIANT_TITLES);
  const found = await Promise.all(
    variants.map((v) => api(`/api/puzzles/daily?variant=${v}`).then((p) => [v, p], () => null)),
  );
  const items = found.filter(Boolean).map(([v, p]) => item(v, p));
  if (!items.length) return;
  $('daily-puzzles').replaceChildren(...items);
  box.hidden = false;
}
