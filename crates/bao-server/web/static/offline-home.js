// The home page's offline parts (docs/api.md "Offline"): "play in this browser" for games against
// the computer (chosen, or automatic when the network is gone), and the list of the games
// kept in this browser: continue, replay, download the record.

import { $, el, notify, VARIANT_TITLES } from './app.js';
import { t } from './i18n.js';
import { startLocalGame, listGames, downloadLocalRecord } from './offline-game.js';

/** The "play in this browser" choice, shown with the computer's level. */
function addChoice() {
  const row = $('level-help');
  if (!row || $('play-here')) return;
  const box = el(
    'div',
    { class: 'offline-choice', id: 'play-here-row' },
    el('label', {}, el('input', { type: 'checkbox', id: 'play-here', name: 'play_here' }), ' ', t('offline.play_here')),
    el('p', { class: 'muted small', id: 'play-here-help' }, t('offline.play_here_help')),
  );
  row.after(box);
  // Only games against the computer can be played in the browser.
  const sync = () => {
    const computer = document.querySelector('input[name="opponent"]:checked')?.value === 'computer';
    box.hidden = !computer;
  };
  for (const r of document.querySelectorAll('input[name="opponent"]')) r.addEventListener('change', sync);
  sync();
}

/** Shows that the network is gone (and hides it again when it comes back). */
function showNetwork() {
  const note = $('offline-note');
  if (note) note.hidden = navigator.onLine !== false;
}

/**
 * Starts the game of the home page's request `body` in this browser when that is asked for
 * (`choice`: the form's box, when ticked), or when `failed` (the server could not be reached)
 * or the browser knows it is offline, for a game against the computer. Returns true when it
 * took the game; on a refusal `button` can be pressed again.
 */
export async function offlineStart(body, status, failed = false, { choice = true, button = $('start-button') } = {}) {
  if (!body.opponent || body.opponent.kind !== 'computer') return false;
  const chosen = choice && !!$('play-here')?.checked;
  if (!chosen && !failed && navigator.onLine !== false) return false;
  notify(status, chosen ? t('offline.starting') : t('offline.no_network_start'));
  try {
    const id = await startLocalGame({
      variant: body.variant,
      rules: body.rules,
      level: body.opponent.level,
      side: body.side,
      name: body.name || '',
      start: body.start || null,
    });
    location.assign(`/g/${id}`);
  } catch (err) {
    notify(status, t('offline.start_failed', { error: err.message }), 'error');
    if (button) button.disabled = false;
  }
  return true;
}

function resultWords(g, state) {
  if (!state || state === '-') return t('offline.in_progress');
  if (state === 'draw') return t('offline.result_draw');
  return state === g.you ? t('offline.result_won') : t('offline.result_lost');
}

/** The list of games kept in this browser. */
export async function drawLocalGames() {
  const aside = document.querySelector('aside.stack');
  if (!aside) return;
  let panel = $('local-panel');
  if (!panel) {
    panel = el(
      'section',
      { class: 'panel', id: 'local-panel', 'aria-labelledby': 'local-title' },
      el('h2', { id: 'local-title' }, t('offline.list_title')),
      el('p', { class: 'status', id: 'offline-note', hidden: true }, t('offline.you_are_offline')),
      el('ul', { class: 'game-list', id: 'local-games' }),
    );
    aside.prepend(panel);
  }
  showNetwork();
  let games = [];
  try {
    games = await listGames();
  } catch (err) {
    $('local-games').replaceChildren(el('li', { class: 'muted' }, t('offline.store_failed', { error: err.message })));
    return;
  }
  // Games against the computer; records read on the replay page are not listed here.
  const items = games.filter((g) => !g.imported).slice(0, 20).map((g) => {
    // The result as stored: the engine is not asked here, so the list is instant.
    const result = g.result || g.last_result || '-';
    const meta = t('offline.item', {
      variant: VARIANT_TITLES[g.variant] || g.variant,
      level: g.level,
      moves: g.moves.length,
      result: resultWords(g, result),
    });
    return el(
      'li',
      { 'data-local-game': g.id },
      el('div', {}, el('div', {}, new Date(g.updated || g.created).toLocaleString()), el('div', { class: 'meta' }, meta)),
      el(
        'span',
        { class: 'actions' },
        el('a', { class: 'button', href: `/g/${g.id}` }, result === '-' ? t('offline.continue') : t('offline.open')),
        ' ',
        el('a', { class: 'button', href: `/replay?game=${encodeURIComponent(g.id)}` }, t('offline.replay')),
        ' ',
        el('button', { type: 'button', 'data-download': g.id, onclick: () => downloadLocalRecord(g.id) }, t('offline.download')),
      ),
    );
  });
  $('local-games').replaceChildren(...(items.length ? items : [el('li', { class: 'muted' }, t('offline.list_empty'))]));
}

addChoice();
drawLocalGames();
window.addEventListener('online', showNetwork);
window.addEventListener('offline', showNetwork);
