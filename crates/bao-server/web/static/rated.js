// Rated play (docs/api.md "Ratings"): the "Rated game" choice of the home page's form, shown
// only to a signed-in player starting an online game against a person, and on the game page
// the "Rated" tag and, at the end, each player's rating change (+12 / −12) in words, from the
// GameState's `rated` and `rating_change`. home.js and game.js call the functions exported
// here; everything else stays in this module.

import { $, api, el, SIDE_NAMES } from './app.js';
import { t, tn } from './i18n.js';
import { onAccount } from './account.js';
import { changeText } from './rating-text.js';

// ---------- home page: the "Start a game" form ----------

/** Adds the "Rated game" choice to the form; it shows itself when it applies. */
export function addRatedOption(form) {
  const box = el('input', { type: 'checkbox', id: 'rated', name: 'rated', 'aria-describedby': 'rated-help' });
  const row = el(
    'div',
    { id: 'rated-row', class: 'rated-row', hidden: true },
    el('label', { class: 'check' }, box, ' ', t('players.rated_label')),
    el('p', { class: 'muted small', id: 'rated-help' }, t('players.rated_help')),
  );
  const cards = form.querySelector('input[name="opponent"]')?.closest('fieldset');
  if (cards) cards.append(row);
  else form.append(row);
  let signedIn = false;
  const update = () => {
    const opponent = form.querySelector('input[name="opponent"]:checked')?.value;
    // Online, person against person: not the computer, not pass and play on one screen.
    row.hidden = !(signedIn && opponent === 'human');
  };
  form.addEventListener('change', update);
  // A signed-in player is called by the account's name unless another is typed.
  const nameInput = form.querySelector('#name');
  onAccount((name) => {
    signedIn = !!name;
    if (name && nameInput && !nameInput.value) nameInput.value = name;
    update();
  });
}

/** The form's rated choice, to merge into the create request. */
export function ratedOption(form) {
  const row = form.querySelector('#rated-row');
  return row && !row.hidden && form.querySelector('#rated')?.checked ? { rated: true } : {};
}

// ---------- game page ----------

/** Whose change a line tells: "you", or the side and the player's name. */
function whoText(s, side) {
  const name = s.accounts?.[side]?.username || s.players?.[side]?.name;
  return name ? `${SIDE_NAMES[side]} (${name})` : SIDE_NAMES[side];
}

function changeLine(s, side, n) {
  const v = Math.round(Number(n) || 0);
  const you = s.you === side;
  const who = whoText(s, side);
  let words;
  if (v > 0) words = you ? tn('players.change_you_gain', v, { n: v }) : tn('players.change_gain', v, { n: v, who });
  else if (v < 0) words = you ? tn('players.change_you_lose', -v, { n: -v }) : tn('players.change_lose', -v, { n: -v, who });
  else words = you ? t('players.change_you_none') : t('players.change_none', { who });
  return el('li', { 'data-side': side, 'data-change': String(v) }, el('strong', { class: 'rating-change' }, changeText(v)), ' ', words);
}

let waitingFor = null; // the game whose rating changes are being asked for
let rendered = null;

/** Asks for the state again a few times when a rated game ended before its ratings were written. */
async function askAgain(s) {
  if (waitingFor === s.id) return;
  waitingFor = s.id;
  for (const wait of [500, 1000, 2000, 4000, 8000, 15000]) {
    await new Promise((r) => setTimeout(r, wait));
    if (rendered?.id !== s.id || rendered.rating_change) break;
    try {
      const again = await api(`/api/games/${encodeURIComponent(s.id)}`);
      if (again.rating_change) {
        renderRated({ ...rendered, rating_change: again.rating_change });
        break;
      }
    } catch {
      /* asked again after the next wait */
    }
  }
  waitingFor = null;
}

/** The "Rated" tag, the invite's note and, at the end, the rating changes of GameState `s`. */
export function renderRated(s) {
  rendered = s;
  let tag = $('rated-tag');
  if (!tag && s.rated) {
    tag = el('span', { class: 'tag', id: 'rated-tag' }, t('players.rated_tag'));
    ($('match-tag') || $('game-title'))?.after(tag);
  }
  if (tag) tag.hidden = !s.rated;

  const invite = $('invite');
  let note = $('rated-invite-note');
  if (!note && invite && s.rated) {
    note = el('p', { class: 'small', id: 'rated-invite-note' }, t('players.rated_invite_note'));
    invite.querySelector('h2')?.after(note);
  }
  if (note) note.hidden = !s.rated;

  const result = $('result');
  let box = $('rating-changes');
  const over = s.rated && s.result && s.result !== '-';
  if (!box && result && over) {
    box = el(
      'div',
      { id: 'rating-changes', class: 'rating-changes' },
      el('h2', { class: 'small-heading' }, t('players.changes_heading')),
      el('ul', { id: 'rating-change-list' }),
      el('p', { class: 'small muted', id: 'rating-change-wait' }, t('players.changes_wait')),
    );
    result.querySelector('#result-text')?.after(box);
  }
  if (!box) return;
  box.hidden = !over;
  if (!over) return;
  const rc = s.rating_change;
  const ready = rc && typeof rc === 'object' && (typeof rc.S === 'number' || typeof rc.N === 'number');
  $('rating-change-wait').hidden = !!ready;
  $('rating-change-list').replaceChildren(...(ready ? ['S', 'N'].filter((x) => typeof rc[x] === 'number').map((x) => changeLine(s, x, rc[x])) : []));
  box.dataset.state = ready ? 'ready' : 'waiting';
  if (!ready) askAgain(s);
}
