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
    el('p', { class: 'headline', id: 'play-local', hidden: true }),
    el('label', { class: 'small', id: 'play-turn-board-row', hidden: true }, turnBoard, ' ', t('play.local_turn_board')),
    el(
      'p',
      { class: 'row' },
      el('button', { type: 'button', id: 'play-takeback', hidden: true }, t('play.takeback')),
      el('button', { type: 'button', id: 'play-hint', hidden: true }, t('play.hint')),
    ),
    // The rematch: an offer the other player accepts or declines (docs/api.md "Play: rematch").
    el(
      'div',
      { class: 'rematch-box', id: 'play-rematch-box', hidden: true },
      el('p', { id: 'play-rematch-text', 'aria-live': 'polite' }),
      el('p', { class: 'small muted', id: 'play-rematch-time', hidden: true }),
      el(
        'p',
        { class: 'row' },
        el('button', { type: 'button', class: 'primary', id: 'play-rematch', hidden: true }, t('play.rematch')),
        el('button', { type: 'button', id: 'play-rematch-decline', hidden: true }, t('play.rematch_decline')),
        el('button', { type: 'button', id: 'play-rematch-cancel', hidden: true }, t('play.rematch_cancel')),
        el('a', { class: 'button', id: 'play-rematch-open', hidden: true, href: '#' }, t('play.rematch_open')),
      ),
    ),
    el('p', { class: 'small', id: 'play-note', 'aria-live': 'polite' }),
  );
  // Right after the result box: a rematch offer is read with the game's end.
  const result = $('result');
  if (result) result.after(panel);
  else if (actions) actions.before(panel);
  else document.querySelector('main')?.append(panel);
  // Whose move it is in pass and play belongs next to the turn banner, where the eye is; so
  // does the rematch once the game is over: under the banner that tells the result, inside
  // a phone's first screen (the result box below the board has the longer story).
  const turn = $('turn');
  if (turn) turn.after($('play-local'), $('play-rematch-box'));
  $('play-takeback').addEventListener('click', takeback);
  $('play-hint').addEventListener('click', hint);
  $('play-rematch').addEventListener('click', rematch);
  $('play-rematch-decline').addEventListener('click', () => rematchAnswer('rematchDecline'));
  $('play-rematch-cancel').addEventListener('click', () => rematchAnswer('rematchCancel'));
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
  // The loss on time is told by the banner and the result box (static/words.js): no note here.
  renderClock(s, $('turn'));
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
  renderRematch(s, can);
  const note = $('play-note');
  if (changedGame && note.dataset.kind === 'hint') note.textContent = '';
  if (note.textContent === '') delete note.dataset.kind;
}

// ---------- the rematch: an offer, answered by the other player ----------

let offerSeen = null; // {key, at}: when the page got the standing offer's expires_in_ms
let offerTimer = null;
let asked = false; // this page's player offered (or accepted) the rematch
let lastStatus = null; // the rematch box's status at the last render
let going = false; // on the way to the new game
let leaving = false; // the page was sent to the new game (once: a second navigation aborts the first)

/** The rematch as it stands for this page: GameState's, with a lapsed offer dropped. */
function rematchNow(s) {
  const r = s.rematch;
  if (!r || r.status !== 'offered') return r || null;
  const key = `${s.id} ${r.by} ${r.expires_in_ms}`;
  if (!offerSeen || offerSeen.key !== key) offerSeen = { key, at: performance.now() };
  const left = r.expires_in_ms - (performance.now() - offerSeen.at);
  return left > 0 ? { ...r, left } : null;
}

function renderRematch(s, can) {
  const box = $('play-rematch-box');
  const player = can.rematch && s.match?.over && !s.read_only && !!s.you;
  const r = rematchNow(s);
  clearTimeout(offerTimer);
  const show = (id, on) => {
    $(id).hidden = !on;
  };
  box.hidden = !(player || (r && r.status === 'made'));
  const them = s.you ? s.players?.[otherSide(s.you)] : null;
  const name = them?.name || t('play.rematch_opponent');
  const mine = r && s.you && (r.by === s.you || s.local);
  let text = '';
  show('play-rematch-time', false);
  if (r && r.status === 'made') {
    // Accepted while this page's offer waited (or after it asked): the new game opens by
    // itself. Asking once more answers the made game with this player's seat cookie for it.
    if (player && !going && (asked || lastStatus === 'offered-mine')) {
      going = true;
      rematch();
      return;
    }
    text = player ? t('play.rematch_made') : t('play.rematch_made_watch');
  } else if (r && r.status === 'offered' && mine) {
    text = t('play.rematch_waiting_for', { name });
    $('play-rematch-time').textContent = t('play.rematch_time_left', { s: Math.ceil(r.left / 1000) });
    show('play-rematch-time', true);
  } else if (r && r.status === 'offered') {
    text = t('play.rematch_offered_by', { name });
  } else if (r && r.status === 'declined') {
    text = mine ? t('play.rematch_declined_them', { name }) : t('play.rematch_declined_you');
  }
  $('play-rematch-text').textContent = text;
  $('play-rematch-text').hidden = !text;
  const offered = r && r.status === 'offered';
  // Ask (or accept what the other offered); not while one's own offer waits or was declined.
  show('play-rematch', player && !(r && (r.status === 'made' || (mine && (offered || r.status === 'declined')))));
  $('play-rematch').textContent = offered && !mine ? t('play.rematch_accept') : t('play.rematch');
  show('play-rematch-decline', player && offered && !mine);
  show('play-rematch-cancel', player && offered && mine);
  show('play-rematch-open', !!(r && r.status === 'made'));
  if (r && r.status === 'made') $('play-rematch-open').href = `/g/${encodeURIComponent(r.id)}`;
  box.dataset.status = r ? `${r.status}-${mine ? 'mine' : 'theirs'}` : 'none';
  lastStatus = box.dataset.status;
  // An offer lapses by time in the page too (its player leaving is told by the server); the
  // count shown goes down every second meanwhile.
  if (offered && current === s) offerTimer = setTimeout(() => renderRematch(s, can), Math.min(1000, r.left + 50));
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
    asked = true;
    const r = await ctx.source.rematch(s);
    // Made (against the computer, an offer accepted): go; offered: the state says so.
    if (r.id) {
      // The accept's answer and the state message telling "made" can both lead here.
      if (!leaving) location.assign(r.url || `/g/${r.id}`);
      leaving = true;
    } else ctx.onState(await ctx.source.state());
  } catch (err) {
    asked = false;
    notify(ctx.pageStatus, errorText(err), 'error');
  }
}

/** Declines the other player's offer, or withdraws one's own (`what`: the source's call). */
async function rematchAnswer(what) {
  if (!current) return;
  try {
    await ctx.source[what](current);
    if (what === 'rematchCancel') asked = false;
    ctx.onState(await ctx.source.state());
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
