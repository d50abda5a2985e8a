// The leaderboard (/leaderboard?variant=V): rank, name (a link to the profile), rating and
// games of the best-rated players of one game; the tabs choose the game.
// Data: GET /api/leaderboard?variant=V (docs/api.md "Ratings").

import { $, api, el, errorText, notify, VARIANT_TITLES } from './app.js';
import { t } from './i18n.js';
import { accountName, profileUrl } from './account.js';
import { ratingNode } from './rating-text.js';

const VARIANTS = ['kiswahili', 'kete', 'kimasai'];
const box = $('leaderboard');
const status = $('page-status');

function chosen() {
  const v = new URLSearchParams(location.search).get('variant');
  return VARIANTS.includes(v) ? v : 'kiswahili';
}

function row(p) {
  const me = accountName() && accountName().toLowerCase() === String(p.username).toLowerCase();
  return el(
    'tr',
    { 'data-player': p.username, class: me ? 'me' : null },
    el('td', { class: 'num' }, String(p.rank)),
    el('td', {}, el('a', { href: profileUrl(p.username) }, p.username), me ? ` ${t('players.you')}` : ''),
    el('td', { class: 'num' }, ratingNode(p, el, t)),
    el('td', { class: 'num' }, String(p.games ?? 0)),
  );
}

let seq = 0;
async function load(variant) {
  const mine = ++seq;
  box.dataset.state = 'loading';
  for (const a of document.querySelectorAll('#variant-tabs a')) {
    if (a.dataset.variant === variant) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  const title = VARIANT_TITLES[variant];
  $('board-caption').textContent = t('players.leaderboard_caption', { variant: title });
  notify(status, '');
  try {
    const answer = await api(`/api/leaderboard?variant=${encodeURIComponent(variant)}`);
    if (mine !== seq) return;
    const players = Array.isArray(answer?.players) ? answer.players : [];
    $('board-rows').replaceChildren(...players.map(row));
    $('board-table').hidden = players.length === 0;
    $('board-empty').hidden = players.length > 0;
    $('board-empty').textContent = t('players.leaderboard_empty', { variant: title });
    box.dataset.state = 'ready';
  } catch (err) {
    if (mine !== seq) return;
    $('board-table').hidden = true;
    $('board-empty').hidden = true;
    notify(status, t('players.leaderboard_unavailable', { error: errorText(err) }), 'error');
    box.dataset.state = 'error';
  }
}

for (const a of document.querySelectorAll('#variant-tabs a')) {
  a.addEventListener('click', (e) => {
    if (e.metaKey || e.ctrlKey || e.shiftKey || e.button) return;
    e.preventDefault();
    history.pushState(null, '', a.href);
    load(a.dataset.variant);
  });
}
window.addEventListener('popstate', () => load(chosen()));
load(chosen());
