// Replay page: upload a game record (NOT-6) or open ?game={id}, then step through it.
// Boards come from the shared renderer; stepping forward animates the move's events.

import { $, api, el, errorText, notify, parsePosition, numberMoves, capturedBy, describeEvents, pref, playerName, setPref, renderUrl, VARIANT_TITLES, SIDE_NAMES } from './app.js';
import { t } from './i18n.js';
import { endingSentence, rulesInWords } from './words.js';
import { BoardView } from './board.js';
import { ReviewPanel } from './review.js';
import { isLocal, localGameState, localSvg, downloadLocalRecord, importLocalRecord } from './offline-game.js';
import { analysisUrl } from './analysis-link.js';

const status = $('page-status');
const board = new BoardView($('board'), { caption: $('caption') });
const svgCache = new Map();
// The engine's review (static/review.js): graph under the board, panel beside the moves.
const review = new ReviewPanel({ board: $('board'), aside: document.querySelector('#viewer aside'), before: $('another').parentElement, graphParent: document.querySelector('#viewer > section'), go: (i) => go(i), view: board });

let game = null; // GameState of the game being replayed
let step = 0; // number of moves applied, as drawn
let target = 0; // the step the viewer is heading for (clicks during an animation add up)
let driving = null; // the promise of the running drive(), or null
let playing = false;

const speed = $('speed');
speed.value = String(pref('speed', 250));
if (!speed.value) speed.value = '250';
board.delay = Number(speed.value);
speed.addEventListener('change', () => {
  board.delay = Number(speed.value);
  setPref('speed', board.delay);
});
$('flip').addEventListener('change', () => board.setFlipped($('flip').checked));

async function svgFor(i) {
  const position = i === 0 ? game.start : game.moves[i - 1].position;
  const last = i === 0 ? null : game.moves[i - 1].move;
  const url = renderUrl(position, game.rules, last);
  // A game kept in this browser is drawn by the browser engine (it may be offline).
  if (!svgCache.has(url) && isLocal(game.id)) svgCache.set(url, await localSvg(game.variant, game.rules, position, last));
  if (!svgCache.has(url)) {
    const res = await fetch(url);
    if (!res.ok) throw new Error(t('replay.board_failed', { status: res.status }));
    svgCache.set(url, await res.text());
  }
  return svgCache.get(url);
}

async function show(i) {
  step = Math.max(0, Math.min(i, game.moves.length));
  board.say('');
  try {
    board.setSvg(await svgFor(step));
  } catch (err) {
    notify(status, errorText(err), 'error');
  }
  board.container.dataset.step = String(step);
  update();
}

/**
 * Moves the board to `target`: one step forward is animated, any other change is drawn at
 * once. Clicks while it runs only change `target`, so the loop ends where the clicks say.
 */
function drive() {
  if (driving) return driving;
  driving = (async () => {
    try {
      while (step !== target) {
        if (target > step + 1) await show(target - 1); // a jump, then the last move animated
        if (target !== step + 1) {
          await show(target);
          continue;
        }
        const m = game.moves[step];
        $('skip').disabled = false;
        // While a move is drawn seed by seed the board is at no step: data-step comes back when
        // show() has drawn the next one (a test or a script must not see the old step meanwhile).
        delete board.container.dataset.step;
        await board.animate(m.events, m.by, m.position);
        $('skip').disabled = true;
        const caption = $('caption').textContent;
        await show(step + 1);
        board.say(caption);
      }
    } finally {
      $('skip').disabled = true;
      driving = null;
    }
  })();
  return driving;
}

/**
 * Heads for step `i`: a running animation is finished at once, then the board steps on from
 * there (5 clicks on Next are 5 moves, however fast they come).
 */
function go(i) {
  if (!game) return Promise.resolve();
  target = Math.max(0, Math.min(i, game.moves.length));
  board.skip();
  updateButtons();
  return drive();
}

function updateButtons() {
  const n = game.moves.length;
  $('first').disabled = $('prev').disabled = target === 0;
  $('next').disabled = $('last').disabled = target === n;
}

function update() {
  const n = game.moves.length;
  const pos = parsePosition(step === 0 ? game.start : game.moves[step - 1].position);
  $('pos').textContent = `${step} / ${n}`;
  $('analyse-link').href = analysisUrl({ variant: game.variant, rules: game.rules, position: game.start, moves: game.moves.map((m) => m.move), at: step });
  $('scrub').max = String(n);
  $('scrub').value = String(step);
  updateButtons();
  if (step === 0) {
    $('step-headline').textContent = t('replay.start_position');
    $('step-detail').textContent = pos ? `${t('game.to_move', { side: SIDE_NAMES[pos.side] })}.` : '';
  } else {
    const m = game.moves[step - 1];
    $('step-headline').textContent = t('replay.step_headline', { n: step, who: SIDE_NAMES[m.by], move: m.move });
    let detail = describeEvents(m.events, m.by);
    if (step === n && game.result !== '-') detail += ` ${endingSentence(game.ending, game.result)}`;
    $('step-detail').textContent = detail;
  }
  for (const b of document.querySelectorAll('#moves .mv')) {
    const current = Number(b.dataset.step) === step;
    b.classList.toggle('current', current);
    if (current) b.setAttribute('aria-current', 'step');
    else b.removeAttribute('aria-current');
  }
  const cur = document.querySelector('#moves .mv.current');
  if (cur) cur.scrollIntoView({ block: 'nearest' });
  review.showStep(step);
}

function renderGame() {
  const v = VARIANT_TITLES[game.variant] || game.variant;
  $('replay-title').textContent = t('replay.title_of', { variant: v });
  document.title = t('replay.doc_title', { variant: v });
  $('game-name').textContent = game.match && game.match.format === 'best_of_three' ? t('replay.match_game', { variant: v, n: game.match.game_no }) : v;
  const name = (p, side) => (p ? (p.kind === 'computer' || p.name ? playerName(p) : SIDE_NAMES[side]) : '?');
  let result = t('replay.result_unfinished');
  if (game.result === 'draw') result = t('replay.result_draw');
  else if (game.result === 'S' || game.result === 'N') result = t('game.wins', { side: SIDE_NAMES[game.result] });
  const facts = [
    [SIDE_NAMES.S, name(game.players?.S, 'S')],
    [SIDE_NAMES.N, name(game.players?.N, 'N')],
    [t('replay.fact_rules'), rulesInWords(game.rules).join('; ') || t('replay.rules_default')],
    [t('replay.fact_moves'), String(game.moves.length)],
    [t('replay.fact_result'), result],
  ];
  $('facts').replaceChildren(...facts.flatMap(([k, val]) => [el('dt', {}, k), el('dd', {}, val)]));
  const how = endingSentence(game.ending, game.result);
  if (how) $('facts').append(el('dt', {}, t('replay.fact_how')), el('dd', {}, how));
  $('record-link').href = `/api/games/${encodeURIComponent(game.id)}/record`;
  $('record-link').onclick = isLocal(game.id) ? (e) => (e.preventDefault(), downloadLocalRecord(game.id)) : null;
  $('game-link').href = `/g/${encodeURIComponent(game.id)}`;
  const start = parsePosition(game.start);
  const rows = numberMoves(game.moves, start ? start.side : 'S');
  const cell = (c) => {
    if (!c) return el('td', {});
    const n = capturedBy(c.move.events);
    return el(
      'td',
      {},
      el('button', { type: 'button', class: 'mv', 'data-step': c.index + 1, title: describeEvents(c.move.events, c.move.by), onclick: () => go(c.index + 1) }, c.move.move),
      n ? el('span', { class: 'cap' }, `×${n}`) : null,
    );
  };
  $('moves').replaceChildren(
    el(
      'table',
      {},
      el('thead', {}, el('tr', {}, el('th', {}, '#'), el('th', {}, SIDE_NAMES.S), el('th', {}, SIDE_NAMES.N))),
      el('tbody', {}, rows.map((r) => el('tr', {}, el('td', { class: 'no' }, `${r.no}.`), cell(r.S), cell(r.N)))),
    ),
  );
  $('upload').hidden = true;
  $('viewer').hidden = false;
}

async function load(id, at, gameNo) {
  try {
    game = isLocal(id) ? await localGameState(id) : await api(`/api/games/${encodeURIComponent(id)}${gameNo ? `?game_no=${encodeURIComponent(gameNo)}` : ''}`);
  } catch (err) {
    notify(status, errorText(err), 'error');
    return;
  }
  notify(status, '');
  svgCache.clear();
  renderGame();
  await show(at ?? 0);
  target = step;
  updateButtons();
  // After the first drawing: a review already made may start the practice at once, which
  // moves the board (static/review.js), and must not be undone by this load.
  review.setGame(game, Number(gameNo) || game.match?.game_no || 1, new URLSearchParams(location.search).has('review'));
}

$('first').addEventListener('click', () => go(0));
$('last').addEventListener('click', () => go(game.moves.length));
$('prev').addEventListener('click', () => go(target - 1));
$('next').addEventListener('click', () => go(target + 1));
$('skip').addEventListener('click', () => board.skip());
$('scrub').addEventListener('input', () => go(Number($('scrub').value)));
$('play').addEventListener('click', async () => {
  if (playing) {
    playing = false;
    return;
  }
  playing = true;
  $('play').textContent = t('replay.pause');
  if (target >= game.moves.length) await go(0);
  while (playing && target < game.moves.length) {
    await go(target + 1);
    if (playing) await new Promise((r) => setTimeout(r, Math.max(300, board.delay * 3)));
  }
  playing = false;
  $('play').textContent = t('replay.play');
});
document.addEventListener('keydown', (e) => {
  if (!game || $('viewer').hidden || e.target.closest('input, textarea, select')) return;
  if (e.key === 'ArrowRight') go(target + 1);
  else if (e.key === 'ArrowLeft') go(target - 1);
  else if (e.key === 'Home') go(0);
  else if (e.key === 'End') go(game.moves.length);
  else if (e.key === 'Escape') board.skip();
  else return;
  e.preventDefault();
});
$('another').addEventListener('click', () => {
  playing = false;
  $('viewer').hidden = true;
  $('upload').hidden = false;
  history.replaceState(null, '', '/replay');
});

$('record-file').addEventListener('change', async () => {
  const f = $('record-file').files[0];
  if (!f) return;
  if (f.size > 1024 * 1024) {
    notify(status, t('replay.file_too_large'), 'error');
    return;
  }
  $('record-text').value = await f.text();
});

$('upload-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const text = $('record-text').value;
  if (!text.trim()) {
    notify(status, t('replay.nothing_to_check'), 'error');
    return;
  }
  notify(status, t('replay.checking'));
  try {
    const r = await api('/api/records', { method: 'POST', body: text, raw: true });
    history.replaceState(null, '', `/replay?game=${encodeURIComponent(r.id)}`);
    await load(r.id, 0);
  } catch (err) {
    // No server: the browser engine checks the record and keeps it in this browser.
    if (err.status === 0) {
      try {
        const id = await importLocalRecord(text);
        history.replaceState(null, '', `/replay?game=${encodeURIComponent(id)}`);
        return await load(id, 0);
      } catch (e) {
        return notify(status, t('offline.record_refused', { error: e.message }), 'error');
      }
    }
    notify(status, t('replay.not_accepted', { error: errorText(err) }), 'error');
  }
});

const params = new URLSearchParams(location.search);
if (params.get('game')) load(params.get('game'), params.has('step') ? Number(params.get('step')) : 0, params.get('game_no'));
