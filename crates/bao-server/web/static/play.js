// Play features on the game page and the home page (docs/api.md "Play: clocks, rematch, pass
// and play, takeback, hint"): clocks (with clock.js), rematch, pass and play, takeback and
// hint against the computer. game.js and home.js call the few functions exported here;
// everything else stays in this module. The server's features go through the game source
// (server-game.js), and only where the source says it can.

import { $, el, errorText, notify, otherSide, pref, setPref } from './app.js';
import { t } from './i18n.js';
import { renderClock } from './clock.js';

const sideName = (side) => (side === 'S' ? t('play.side_S') : t('play.side_N'));

// ---------- game page ----------

/** What a move frame changes in the fields of this module (merged into the page's state). */
export function framePatch(base, msg) {
  return {
    clock: msg.clock ?? base.clock ?? null,
    // In pass and play the one person is always the side to move.
    you: base.local ? msg.side_to_move : base.you,
  };
}

let panel = null;
let ctx = null; // {board, onState, pageStatus, source}
let current = null;

function ensurePanel() {
  if (panel) return panel;
  const actions = document.querySelector('section[aria-label="Actions"]');
  const turnBoard = el('input', { type: 'checkbox', id: 'play-turn-board' });
  turnBoard.checked = !!pref('localTurnBoard', true);
  turnBoard.addEventListener('change', () => {
    setPref('localTurnBoard', turnBoard.checked);
    if (current) renderPlay(current, ctx);
  });
  panel = el(
    'section',
    { class: 'panel play-panel', id: 'play-panel', 'aria-label': t('play.rematch') },
    el('p', { class: 'small status', id: 'play-clock-out', hidden: true }),
    el('p', { class: 'headline', id: 'play-local', hidden: true }),
    el('label', { class: 'small', id: 'play-turn-board-row', hidden: true }, turnBoard, ' ', t('play.local_turn_board')),
    el(
      'p',
      { class: 'row' },
      el('button', { type: 'button', id: 'play-takeback', hidden: true }, t('play.takeback')),
      el('button', { type: 'button', id: 'play-hint', hidden: true }, t('play.hint')),
      el('button', { type: 'button', class: 'primary', id: 'play-rematch', hidden: true }, t('play.rematch')),
      el('a', { class: 'button', id: 'play-rematch-open', hidden: true, href: '#' }, t('play.rematch_open')),
    ),
    el('p', { class: 'small', id: 'play-note', 'aria-live': 'polite' }),
  );
  // Right after the result box: a rematch offer is read with the game's end.
  const result = $('result');
  if (result) result.after(panel);
  else if (actions) actions.before(panel);
  else document.querySelector('main')?.append(panel);
  // Whose move it is in pass and play belongs next to the turn banner, where the eye is.
  const turn = $('turn');
  if (turn) turn.after($('play-local'));
  $('play-takeback').addEventListener('click', takeback);
  $('play-hint').addEventListener('click', hint);
  $('play-rematch').addEventListener('click', rematch);
  return panel;
}

const vsComputer = (s) => !!s.you && s.players?.[otherSide(s.you)]?.kind === 'computer';

/**
 * Renders this module's parts for GameState `s`; `c` = {board, onState, pageStatus, source}.
 * Takeback, hint and rematch are offered only where the game source can (`source.can`).
 */
export function renderPlay(s, c) {
  ctx = c;
  const changedGame = current && (current.id !== s.id || current.match?.game_no !== s.match?.game_no || current.ply !== s.ply);
  current = s;
  ensurePanel();
  renderClock(s, $('turn'), $('play-clock-out'));
  const live = s.result === '-' && !s.read_only;
  const myMove = live && s.you && s.side_to_move === s.you;
  // Pass and play: say whose move it is, turn the board if asked.
  $('play-local').hidden = !(s.local && live);
  $('play-turn-board-row').hidden = !s.local;
  if (s.local) {
    $('play-local').textContent = t('play.local_turn', { side: sideName(s.side_to_move) });
    const turn = $('play-turn-board').checked && s.side_to_move === 'N';
    const flip = $('flip');
    if (flip) flip.checked = turn;
    c.board.setFlipped(turn);
  }
  const mine = (s.moves || []).some((m) => m.by === s.you);
  const can = c.source.can;
  $('play-takeback').hidden = !(can.takeback && vsComputer(s) && myMove && mine);
  $('play-hint').hidden = !(can.hint && (vsComputer(s) || s.local) && myMove);
  // Rematch: offer, waiting, or the way to the new game.
  const over = can.rematch && s.match?.over && !s.read_only && !!s.you;
  const r = s.rematch;
  $('play-rematch').hidden = !over || (r && (r.by === s.you || s.local));
  $('play-rematch').textContent = r ? t('play.rematch_accept') : t('play.rematch');
  $('play-rematch-open').hidden = !(over && r);
  if (r) $('play-rematch-open').href = `/g/${encodeURIComponent(r.id)}`;
  const note = $('play-note');
  if (over && r && !s.local) note.textContent = r.by === s.you ? t('play.rematch_waiting') : t('play.rematch_offered');
  else if (changedGame && note.dataset.kind === 'hint') note.textContent = '';
  if (note.textContent === '' ) delete note.dataset.kind;
}

async function takeback() {
  const s = current;
  if (!s) return;
  try {
    ctx.onState(await ctx.source.takeback(s));
    $('play-note').textContent = t('play.takeback_done');
  } catch (err) {
    notify(ctx.pageStatus, errorText(err), 'error');
  }
}

function scoreText(score) {
  const [kind, n] = String(score || '').split(' ');
  const v = Number(n);
  if (kind === 'win') return t('play.score_win', { n: Math.ceil(v / 2) });
  if (kind === 'loss') return t('play.score_loss', { n: Math.ceil(v / 2) });
  return t('play.score_cp', { n: (v / 100).toFixed(1) });
}

async function hint() {
  const s = current;
  if (!s) return;
  const note = $('play-note');
  note.textContent = t('play.hint_thinking');
  note.dataset.kind = 'hint';
  try {
    const h = await ctx.source.hint(s);
    note.textContent = t('play.hint_result', { move: h.move, score: scoreText(h.score) });
    note.dataset.move = h.move;
  } catch (err) {
    note.textContent = '';
    notify(ctx.pageStatus, errorText(err), 'error');
  }
}

async function rematch() {
  const s = current;
  if (!s) return;
  try {
    const r = await ctx.source.rematch(s);
    location.assign(r.url || `/g/${r.id}`);
  } catch (err) {
    notify(ctx.pageStatus, errorText(err), 'error');
  }
}

// ---------- home page: the "Start a game" form ----------

const CLOCKS = {
  none: null,
  '5+3': { initial_ms: 300000, increment_ms: 3000 },
  '10+5': { initial_ms: 600000, increment_ms: 5000 },
  '1d': { days_per_move: 1 },
};

/** Adds pass and play to the opponents and a clock choice to the form. */
export function addStartOptions(form) {
  const cards = form.querySelector('input[name="opponent"]')?.closest('.choice-cards');
  if (cards) {
    cards.append(
      el(
        'label',
        { class: 'choice-card' },
        el('input', { type: 'radio', name: 'opponent', value: 'local' }),
        el('span', { class: 'card' }, el('strong', {}, t('play.start_local')), t('play.start_local_help')),
      ),
    );
  }
  const select = el(
    'select',
    { id: 'clock', name: 'clock' },
    el('option', { value: 'none' }, t('play.clock_none')),
    el('option', { value: '5+3' }, t('play.clock_5_3')),
    el('option', { value: '10+5' }, t('play.clock_10_5')),
    el('option', { value: '1d' }, t('play.clock_1_day')),
  );
  select.value = pref('clock', 'none') in CLOCKS ? pref('clock', 'none') : 'none';
  const fieldset = el(
    'fieldset',
    { id: 'clock-fieldset' },
    el('legend', {}, t('play.start_clock')),
    el('div', { class: 'row' }, el('label', { for: 'clock' }, t('play.start_clock')), select),
    el('p', { class: 'muted small' }, t('play.start_clock_help')),
  );
  const seats = form.querySelector('#side')?.closest('fieldset');
  if (seats) seats.after(fieldset);
  else form.append(fieldset);
}

/** The form's choices of this module, to merge into the create request. */
export function startOptions(form) {
  const out = {};
  const choice = form.querySelector('#clock')?.value || 'none';
  setPref('clock', choice);
  if (CLOCKS[choice]) out.clock = CLOCKS[choice];
  const opponent = form.querySelector('input[name="opponent"]:checked')?.value;
  if (opponent === 'local') out.opponent = { kind: 'local' };
  return out;
}
