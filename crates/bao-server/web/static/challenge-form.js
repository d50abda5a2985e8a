// The small form of "Post a challenge" (home page, static/lobby.js) and "Challenge" (a
// profile, static/profile.js): game, clock, single game or best of three, and rated when
// signed in; plus the words for a challenge's terms and for the errors of finding an opponent
// (docs/api.md "Finding an opponent"). Texts: `lobby.*`.

import { el, errorText, VARIANT_TITLES } from './app.js';
import { t } from './i18n.js';

/** The three games, in the order they are offered. */
export const VARIANTS = ['kiswahili', 'kete', 'kimasai'];

/** The clocks offered (CLOCK of `POST /api/games`); `none` is a game without a clock. */
export const CLOCKS = {
  '5+3': { initial_ms: 300000, increment_ms: 3000 },
  '10+5': { initial_ms: 600000, increment_ms: 5000 },
  '1d': { days_per_move: 1 },
  none: null,
};

/** A clock in a few characters: "5+3", "10+5", "1 day", "No clock". */
export function clockText(clock) {
  if (!clock) return t('lobby.clock_none');
  if (clock.days_per_move) return clock.days_per_move === 1 ? t('lobby.clock_day') : t('lobby.clock_days', { n: clock.days_per_move });
  const min = Math.round((Number(clock.initial_ms) || 0) / 60000);
  const inc = Math.round((Number(clock.increment_ms) || 0) / 1000);
  return `${min}+${inc}`;
}

/** A clock said in full, for the names of buttons ("5 minutes + 3 seconds a move"). */
export function clockWords(clock) {
  const key = Object.keys(CLOCKS).find((k) => JSON.stringify(CLOCKS[k]) === JSON.stringify(clock ?? null));
  if (key === '5+3') return t('play.clock_5_3');
  if (key === '10+5') return t('play.clock_10_5');
  if (key === '1d') return t('play.clock_1_day');
  return clockText(clock);
}

/** A game's short name: "Kiswahili", "Kete", "Kimasai" (Bao terms stay as they are). */
export const variantShort = (v) => (VARIANT_TITLES[v] || v || '').replace(/^Bao la /, '');

/** The terms of a seek or a challenge in one line: "Kiswahili · 5+3 · rated · best of three". */
export function termsText(x) {
  const parts = [variantShort(x.variant), clockText(x.clock), x.rated ? t('lobby.rated') : t('lobby.casual')];
  if (x.match === 'best_of_three') parts.push(t('lobby.best_of_three_short'));
  if (x.rules && x.rules !== '-') parts.push(t('lobby.own_rules'));
  return parts.join(' · ');
}

/**
 * The sentence for an error of finding an opponent; other errors as elsewhere (errorText).
 * What was asked says why an account is needed: `pool` (quick pairing), `rated` (a rated
 * seek or challenge, or accepting a rated seek).
 */
export function lobbyError(err, { pool = false, rated = false } = {}) {
  const signIn = () => (pool ? t('lobby.err_needs_account') : rated ? t('lobby.err_rated_needs_account') : errorText(err));
  const words = {
    too_many_seeks: () => t('lobby.err_too_many_seeks'),
    seek_taken: () => t('lobby.err_seek_taken'),
    own_seek: () => t('lobby.err_own_seek'),
    blocked: () => t('lobby.err_blocked'),
    not_signed_in: signIn,
    too_many_challenges: () => t('lobby.err_too_many_challenges'),
    too_many_blocks: () => t('lobby.err_too_many_blocks'),
    no_such_user: () => t('lobby.err_no_such_user'),
    no_such_seek: () => t('lobby.err_gone'),
    no_such_challenge: () => t('lobby.err_challenge_gone'),
    challenge_gone: () => t('lobby.err_challenge_gone'),
    no_such_ticket: () => t('lobby.pool_gone'),
  }[err?.category];
  if (words) return words();
  if (err?.status === 404) return t('lobby.err_gone');
  return errorText(err);
}

let forms = 0;

/**
 * The form: `submitText` on its button; `onSubmit({variant, clock, match, rated})` is awaited
 * (a thrown error is shown under the form in words). `rated(yes)` on the returned object
 * shows or hides the "Rated" choice (signed-in players only).
 */
export function challengeForm({ id = `challenge-${++forms}`, submitText, onSubmit, variant = 'kiswahili' }) {
  const field = (name, label, control) => el('div', { class: `field field-${name}` }, el('label', { for: `${id}-${name}` }, label), control);
  const select = (name, options, value) =>
    el(
      'select',
      { id: `${id}-${name}`, name },
      options.map(([v, text]) => el('option', { value: v, selected: v === value }, text)),
    );
  const variantSelect = select('variant', VARIANTS.map((v) => [v, variantShort(v)]), variant);
  const clockSelect = select(
    'clock',
    [
      // Short, as on the "Play now" buttons: the form fits two columns on a phone.
      ['5+3', t('lobby.quick_5_3')],
      ['10+5', t('lobby.quick_10_5')],
      ['1d', t('lobby.quick_1d')],
      ['none', t('play.clock_none')],
    ],
    '10+5',
  );
  const matchSelect = select(
    'match',
    [
      ['single_game', t('home.match_single')],
      ['best_of_three', t('home.match_best_of_three')],
    ],
    'single_game',
  );
  const rated = el('input', { type: 'checkbox', id: `${id}-rated`, name: 'rated' });
  const ratedRow = el('div', { class: 'field check', hidden: true }, el('label', { for: `${id}-rated` }, rated, ' ', t('lobby.rated_label')));
  const status = el('p', { class: 'status', id: `${id}-status`, role: 'alert', hidden: true });
  const button = el('button', { type: 'submit', class: 'primary', id: `${id}-submit` }, submitText);
  const form = el(
    'form',
    { class: 'challenge-form', id, novalidate: true },
    el('div', { class: 'fields' }, field('variant', t('lobby.game_label'), variantSelect), field('clock', t('lobby.clock_label'), clockSelect), field('match', t('lobby.match_label'), matchSelect), ratedRow),
    status,
    el('p', {}, button),
  );
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    button.disabled = true;
    status.hidden = true;
    const asked = {
      variant: variantSelect.value,
      clock: CLOCKS[clockSelect.value] ?? null,
      match: matchSelect.value,
      rated: !ratedRow.hidden && rated.checked,
    };
    try {
      await onSubmit(asked);
    } catch (err) {
      status.textContent = lobbyError(err, { rated: asked.rated });
      status.dataset.kind = 'error';
      status.hidden = false;
    } finally {
      button.disabled = false;
    }
  });
  return {
    form,
    status,
    /** Shows the "Rated" choice (signed in) or hides it (a guest plays casual games only). */
    rated(yes) {
      ratedRow.hidden = !yes;
      if (!yes) rated.checked = false;
    },
    /** Shows a message under the form (`kind`: info or error). */
    say(text, kind = 'info') {
      status.textContent = text;
      status.dataset.kind = kind;
      status.hidden = !text;
    },
  };
}
