// The puzzle dashboard (/puzzles/dashboard): in one game, the player's puzzle rating and its
// history, the puzzles solved and the best streak, and the success by theme with the weakest
// first, so that they see what to drill. Data: GET /api/puzzles/dashboard?variant=V
// (docs/api.md "Puzzles"). Signed-in players only: a guest's progress stays in the browser.

import { $, api, el, errorText, notify } from './app.js';
import { t } from './i18n.js';
import { onAccount } from './account.js';

const box = $('dashboard');
const VARIANTS = ['kiswahili', 'kete', 'kimasai'];

/** A theme's name in words (the same names as the puzzles page's chooser). */
function themeName(name) {
  const names = {
    capture_chain: t('puzzles.theme_capture_chain'),
    takasa: t('puzzles.theme_takasa'),
    nyumba_kept: t('puzzles.theme_nyumba_kept'),
    nyumba_taxed: t('puzzles.theme_nyumba_taxed'),
    nyumba_lost: t('puzzles.theme_nyumba_lost'),
    kichwa_capture: t('puzzles.theme_kichwa_capture'),
    kimbi_capture: t('puzzles.theme_kimbi_capture'),
    relay_sowing: t('puzzles.theme_relay_sowing'),
    takasia: t('puzzles.theme_takasia'),
    kuu: t('puzzles.theme_kuu'),
    raid: t('puzzles.theme_raid'),
    endgame: t('puzzles.theme_endgame'),
    mate_in_1: t('puzzles.theme_mate_in_1'),
    mate_in_2: t('puzzles.theme_mate_in_2'),
    mate_in_3: t('puzzles.theme_mate_in_3'),
    mate_in_4: t('puzzles.theme_mate_in_4'),
  };
  if (names[name]) return names[name];
  const m = /^mate_in_(\d+)$/.exec(name);
  return m ? t('puzzles.dash_theme_mate_in_n', { n: m[1] }) : name;
}

function themeRow(r) {
  const weak = r.percent < 50;
  return el(
    'li',
    { class: weak ? 'weak' : '', 'data-theme': r.theme },
    el('p', { class: 'd-name' }, themeName(r.theme)),
    el('p', { class: 'd-line' }, t('puzzles.dash_theme_line', { solved: r.solved, tried: r.attempts, percent: r.percent })),
    el('div', { class: 'd-bar', 'aria-hidden': 'true' }, el('span', { style: `width: ${r.percent}%` })),
  );
}

/** The rating history as a line, and in words for everyone (the picture is its image). */
function drawHistory(points) {
  const line = $('history-line');
  const text = $('history-text');
  $('history-chart').hidden = points.length < 2;
  if (points.length === 0) {
    line.setAttribute('points', '');
    text.textContent = t('puzzles.dash_history_none');
    return;
  }
  const ratings = points.map((p) => p.rating);
  const lo = Math.min(...ratings);
  const hi = Math.max(...ratings);
  const span = Math.max(hi - lo, 1);
  const step = points.length > 1 ? 100 / (points.length - 1) : 0;
  line.setAttribute('points', ratings.map((r, i) => `${(i * step).toFixed(2)},${(95 - ((r - lo) / span) * 90).toFixed(2)}`).join(' '));
  text.textContent = t('puzzles.dash_history_text', { n: points.length, first: ratings[0], last: ratings[ratings.length - 1], low: lo, high: hi });
}

async function load() {
  const variant = $('variant').value;
  notify($('page-status'), '');
  box.dataset.state = 'loading';
  let d;
  try {
    d = await api(`/api/puzzles/dashboard?variant=${encodeURIComponent(variant)}`);
  } catch (err) {
    if (err.status === 401) {
      box.dataset.state = 'signed-out';
      $('signed-out').hidden = false;
      $('dash-body').hidden = true;
      return;
    }
    box.dataset.state = 'error';
    notify($('page-status'), t('puzzles.dash_unavailable', { error: errorText(err) }), 'error');
    return;
  }
  $('signed-out').hidden = true;
  $('d-rating').textContent = d.rating ? (d.rating.provisional ? t('puzzles.dash_rating_provisional', { rating: d.rating.rating }) : String(d.rating.rating)) : t('puzzles.dash_rating_none');
  $('d-solved').textContent = t('puzzles.dash_solved_of', { solved: d.solved, tried: d.attempts });
  $('d-best').textContent = String(d.best_streak);
  $('d-empty').hidden = d.attempts > 0;
  $('themes-box').hidden = d.themes.length === 0;
  $('themes').replaceChildren(...d.themes.map(themeRow));
  $('history-box').hidden = d.history.length === 0;
  drawHistory(d.history);
  $('dash-body').hidden = false;
  box.dataset.state = 'ready';
  box.dataset.variant = variant;
}

function init() {
  const asked = new URLSearchParams(location.search).get('variant');
  if (VARIANTS.includes(asked)) $('variant').value = asked;
  $('variant').addEventListener('change', () => {
    const u = new URL(location.href);
    u.searchParams.set('variant', $('variant').value);
    history.replaceState(null, '', u);
    load();
  });
  let started = false;
  onAccount(() => {
    // The account is known once the page asked; read again when it changes.
    if (!started) started = true;
    load();
  });
}

init();
