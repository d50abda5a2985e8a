// Game page (/g/{id}): play or watch a game live. The server's GameState is the only truth.
// The page gets it whole once (on connect, on resync), then keeps its own copy up to date
// from small versioned socket messages (docs/api.md, WebSocket): a move is animated from its
// event lines, then the board is set to the move's position; no picture comes per move.

import {
  api,
  el,
  notify,
  parsePosition,
  numberMoves,
  capturedBy,
  describeEvents,
  pref,
  setPref,
  copyText,
  VARIANT_TITLES,
  SIDE_NAMES,
  STAGE_TEXT,
} from './app.js';
import { BoardView } from './board.js';
import { renderPlay, framePatch } from './play.js';

const $ = (id) => document.getElementById(id);
const gameId = decodeURIComponent(location.pathname.split('/')[2] || '');
const pageStatus = $('page-status');

let latest = null; // newest GameState received (or built from the socket's messages)
let shown = null; // GameState whose position the board shows
let busy = false; // an animation is running
let sel = null; // the move being chosen: {pit, letter?, plus?, forced}
let sending = false;
let flipChoice = null; // the viewer's own choice of orientation, once made

const board = new BoardView($('board'), { caption: $('caption'), onPick: pickPit });

// ---------- settings ----------
const reduced = window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
const speed = $('speed');
speed.value = String(pref('speed', reduced ? 0 : 250));
if (!speed.value) speed.value = '250';
board.delay = Number(speed.value);
speed.addEventListener('change', () => {
  board.delay = Number(speed.value);
  setPref('speed', board.delay);
});
$('skip').addEventListener('click', () => board.skip());
const confirmForced = $('confirm-forced');
confirmForced.checked = !!pref('confirmForced', false);
confirmForced.addEventListener('change', () => {
  setPref('confirmForced', confirmForced.checked);
  sel = null;
  if (shown) renderChooser(shown);
});
$('flip').addEventListener('change', () => {
  flipChoice = $('flip').checked;
  board.setFlipped(flipChoice);
  if (shown) renderChooser(shown);
});
document.addEventListener('keydown', (e) => {
  if (e.key === 'Escape' && sel) {
    sel = null;
    renderChooser(shown);
  }
});

// ---------- state pipeline ----------
const seq = (s) => [s.match ? s.match.game_no : 1, s.ply];
function sameGame(a, b) {
  return a && b && seq(a)[0] === seq(b)[0] && a.start === b.start;
}

let drawnSvg = null; // the server picture the board was last built from
let fetchingPicture = false;

/** Draws the board from /api/render/svg when no state brought a picture. */
async function fetchPicture(s) {
  if (fetchingPicture) return;
  fetchingPicture = true;
  try {
    const q = new URLSearchParams({ position: s.position, rules: s.rules || '-' });
    const r = await fetch(`/api/render/svg?${q}`);
    if (!r.ok) return;
    const text = await r.text();
    if (drawnSvg) return; // a state with a picture came first
    drawnSvg = text;
    board.setSvg(text);
    if (shown) render(shown);
  } catch {
    /* the next state tries again */
  } finally {
    fetchingPicture = false;
  }
}
let carry = null; // the last move of a match game that has just ended (the state shows the next game)

/** Every GameState (from the socket, a POST answer or polling) goes through here. */
function onState(s, move = null) {
  if (!s || typeof s !== 'object') return;
  if (move && shown && !sameGame(shown, s) && move.ply === shown.ply + 1) carry = move;
  // A stale answer; but a newer state at a lower ply is a takeback (issue 11.5).
  if (latest && sameGame(latest, s) && s.ply < latest.ply && !(s.updated > latest.updated)) return;
  if (latest && seq(s)[0] < seq(latest)[0]) return; // an answer from an earlier game of the match
  latest = s;
  if (!busy) pump();
}

async function pump() {
  busy = true;
  try {
    for (;;) {
      const s = latest;
      if (carry && shown && !sameGame(shown, s) && carry.ply === shown.ply + 1) {
        // The move that ended a game of the match: show it before the next game's board.
        const m = carry;
        carry = null;
        $('skip').disabled = false;
        $('chooser').replaceChildren();
        showPlaying(m);
        const ok = await board.animate(m.events, m.by, m.position);
        board.container.dataset.animCheck = ok ? 'ok' : 'mismatch';
        $('skip').disabled = true;
        announce(`${SIDE_NAMES[m.by]} played ${m.move}. ${describeEvents(m.events, m.by)}`);
        if (board.delay > 0) await new Promise((r) => setTimeout(r, 1500));
      }
      if (shown && sameGame(shown, s) && s.ply > shown.ply) {
        // Animate the moves not yet shown, one after another, from their events.
        const pending = (s.moves || []).filter((m) => m.ply > shown.ply).sort((a, b) => a.ply - b.ply);
        $('skip').disabled = false;
        sel = null;
        $('chooser').replaceChildren();
        for (const m of pending) {
          showPlaying(m);
          const ok = await board.animate(m.events, m.by, m.position);
          board.container.dataset.animCheck = ok ? 'ok' : 'mismatch';
          if (!ok) console.warn(`bao: animation of ${m.move} does not match the server's position`);
          board.container.dataset.animatedPly = String(m.ply);
          announce(`${SIDE_NAMES[m.by]} played ${m.move}. ${describeEvents(m.events, m.by)}`);
          if (m !== pending[pending.length - 1] && board.delay > 0) await new Promise((r) => setTimeout(r, board.delay * 2));
        }
        $('skip').disabled = true;
      }
      render(s);
      if (latest === s) break;
    }
  } finally {
    busy = false;
  }
}

/** Text ending with a full stop, so that sentences can follow it. */
const sentence = (x) => (x && !/[.!?]$/.test(x.trim()) ? `${x.trim()}.` : x);

/** The banner while a move is being animated. */
function showPlaying(m) {
  $('turn').classList.remove('your-turn', 'over');
  $('turn-headline').textContent = `${SIDE_NAMES[m.by]} plays ${m.move}`;
  $('turn-detail').textContent = 'Use "Skip animation" to see the result at once.';
  $('all-moves').hidden = true;
  board.clearMarks();
}

// ---------- rendering ----------
function render(s) {
  const first = !shown;
  const newGame = !shown || !sameGame(shown, s);
  if (!first && newGame && s.match && shown.match && s.match.game_no > shown.match.game_no) {
    const prev = (s.match.games || []).find((g) => g.game_no === shown.match.game_no);
    const side = s.you ? ` You now play ${SIDE_NAMES[s.you]}.` : '';
    notify(pageStatus, `Game ${shown.match.game_no} is over${prev && prev.result_text ? `: ${sentence(prev.result_text)}` : '.'} Game ${s.match.game_no} begins.${side}`);
  }
  shown = s;
  if (newGame) sel = null;
  const v = VARIANT_TITLES[s.variant] || s.variant;
  document.title = `${v} · game ${s.id} · bao`;
  $('game-title').textContent = v;
  $('rules-link').href = `/rules/${s.variant}`;
  const rulesTag = $('rules-tag');
  // The match format has its own tag; the rules tag lists the other options changed.
  const opts = (s.rules || '-').split(',').filter((o) => o && o !== '-' && !o.startsWith('match='));
  rulesTag.hidden = opts.length === 0;
  rulesTag.textContent = `Rules: ${opts.join(', ')}`;
  rulesTag.title = 'Rule options that differ from the defaults';
  const m = s.match;
  const matchTag = $('match-tag');
  matchTag.hidden = !m || m.format !== 'best_of_three';
  if (m) matchTag.textContent = `Best of three · game ${m.game_no} · South ${m.wins?.S ?? 0} – North ${m.wins?.N ?? 0}`;

  if (flipChoice === null) $('flip').checked = s.you === 'N';
  board.setFlipped($('flip').checked);
  // The picture comes with an HTTP state only; after that the board follows the positions.
  // Without one yet (the first answer came from the socket), ask the renderer once.
  if (s.svg && s.svg !== drawnSvg) {
    board.setSvg(s.svg);
    drawnSvg = s.svg;
  } else if (!drawnSvg) {
    fetchPicture(s);
  }
  const lastMove = (s.moves || []).length ? s.moves[s.moves.length - 1].move : null;
  board.setPosition(s.position, lastMove);
  board.container.dataset.ply = String(s.ply);
  board.container.dataset.position = s.position;
  if (first) board.container.dataset.animCheck = 'none';

  renderBanner(s);
  renderPlayers(s);
  renderFlags(s);
  renderMoves(s);
  renderInvite(s);
  renderResult(s);
  renderMatch(s);
  renderChooser(s);
  $('record-link').hidden = s.result !== '-';
  $('resign').hidden = !(s.you && s.result === '-');
  $('record-link').href = `/api/games/${encodeURIComponent(s.id)}/record`;
  $('record-link2').href = `/api/games/${encodeURIComponent(s.id)}/record`;
  $('replay-link').href = `/replay?game=${encodeURIComponent(s.id)}`;
  renderPlay(s, { board, onState, pageStatus });
}

const myTurn = (s) => s.you && s.result === '-' && s.side_to_move === s.you && (s.legal || []).length > 0;

function playerLabel(p, side) {
  if (!p) return 'Open seat';
  if (p.kind === 'computer') return `Computer (level ${p.level ?? '?'})`;
  return p.name || `${SIDE_NAMES[side]} player`;
}

function renderBanner(s) {
  const turn = $('turn');
  const head = $('turn-headline');
  const detail = $('turn-detail');
  turn.classList.remove('your-turn', 'over');
  const st = STAGE_TEXT[s.stage];
  $('stage').textContent = st ? `${st[0]}: ${st[1]}` : '';
  $('stage').title = st ? st[1] : '';
  if (s.read_only && s.result === '-') {
    head.textContent = 'A game uploaded from a record';
    detail.textContent = 'It cannot be continued here; replay it step by step instead.';
    return;
  }
  if (s.result !== '-') {
    turn.classList.add('over');
    head.textContent = resultHeadline(s);
    detail.textContent = sentence(s.result_text || '');
    return;
  }
  const mover = SIDE_NAMES[s.side_to_move];
  const other = s.players?.[s.side_to_move];
  if (myTurn(s)) {
    turn.classList.add('your-turn');
    head.textContent = `Your move (${mover})`;
    detail.textContent = s.invite
      ? 'Your opponent has not joined yet: send them the invite link. You may already make your first move.'
      : 'Click a highlighted pit to play it.';
  } else if (s.you && s.invite) {
    head.textContent = 'Waiting for your opponent to join';
    detail.textContent = 'Send them the invite link.';
  } else if (s.you) {
    head.textContent = other?.kind === 'computer' ? 'The computer is thinking…' : `Waiting for ${playerLabel(other, s.side_to_move)} (${mover})`;
    detail.textContent = '';
  } else {
    head.textContent = `${mover} to move`;
    detail.textContent = 'You are watching this game live.';
  }
}

function resultHeadline(s) {
  if (s.result === 'draw') return 'The game is drawn';
  const w = SIDE_NAMES[s.result];
  if (s.you) return s.you === s.result ? `You win! (${w})` : `You lose: ${w} wins`;
  return `${w} wins`;
}

function renderPlayers(s) {
  const pos = parsePosition(s.position);
  const handWord = s.variant === 'kimasai' ? 'reserve' : 'in hand';
  const card = (side) => {
    const p = s.players?.[side];
    const toMove = s.result === '-' && s.side_to_move === side;
    return el(
      'div',
      { class: `player${toMove ? ' to-move' : ''}`, 'data-side': side },
      el('span', { class: `side ${side}` }, SIDE_NAMES[side]),
      el('span', { class: 'who' }, playerLabel(p, side), ' ', s.you === side ? el('span', { class: 'you' }, 'you') : null),
      el('span', { class: 'hand', 'data-hand': side }, pos ? `${pos.hands[side]} ${handWord}` : ''),
      el(
        'span',
        { class: 'badges' },
        p && p.kind !== 'computer' ? [el('span', { class: `dot${p.connected ? ' on' : ''}`, 'aria-hidden': 'true' }), p.connected ? 'online' : 'offline'] : null,
        toMove ? ' · to move' : '',
      ),
    );
  };
  $('players').replaceChildren(card('N'), card('S'));
}

function renderFlags(s) {
  const pos = parsePosition(s.position);
  const notes = [];
  const mover = SIDE_NAMES[s.side_to_move];
  if (s.block && s.result === '-') {
    const word = s.variant === 'kete' ? 'Hizi zetu' : 'Takasia';
    notes.push(`${word}: ${mover}'s ${s.block} is blocked for this move. It cannot be played, and a lap ending there stops.`);
  }
  if (s.must && s.result === '-') notes.push(`${mover} must capture ${s.must} with the first capture, if such a move exists.`);
  if (pos && s.variant !== 'kimasai') {
    const house = s.variant === 'kete' ? 'kuu' : 'nyumba';
    const owned = ['S', 'N'].filter((x) => pos.flags.includes(`house:${x}`)).map((x) => SIDE_NAMES[x]);
    notes.push(owned.length ? `House (${house}) still owned by: ${owned.join(' and ')}.` : `Both houses (${house}) are gone.`);
    for (const x of ['S', 'N']) if (pos.flags.includes(`duty:${x}`)) notes.push(`${SIDE_NAMES[x]}'s first mtaji takata must start from the kuu.`);
  }
  $('flags').replaceChildren(
    ...notes.map((t, i) => el('p', { class: i < (s.block ? 1 : 0) + (s.must ? 1 : 0) && s.result === '-' ? 'flag-note' : 'small muted' }, t)),
  );
}

function renderMoves(s) {
  const moves = s.moves || [];
  const start = parsePosition(s.start);
  const rows = numberMoves(moves, start ? start.side : 'S');
  const cell = (c) => {
    if (!c) return el('td', {}, '');
    const m = c.move;
    const n = capturedBy(m.events);
    return el(
      'td',
      { title: describeEvents(m.events, m.by) },
      el('span', { class: 'mvtext', 'data-ply': m.ply }, m.move),
      n ? el('span', { class: 'cap', 'aria-label': `captured ${n}` }, `×${n}`) : null,
    );
  };
  const table = el(
    'table',
    {},
    el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, '#'), el('th', { scope: 'col' }, 'South'), el('th', { scope: 'col' }, 'North'))),
    el('tbody', {}, rows.map((r) => el('tr', {}, el('td', { class: 'no' }, `${r.no}.`), cell(r.S), cell(r.N)))),
  );
  const box = $('moves');
  box.replaceChildren(moves.length ? table : el('p', { class: 'muted small', style: 'padding:0.5rem' }, 'No moves yet.'));
  box.scrollTop = box.scrollHeight;
  const last = moves[moves.length - 1];
  $('last-move').textContent = last ? `Last move ${last.move}: ${describeEvents(last.events, last.by)}` : '';
}

function renderInvite(s) {
  const box = $('invite');
  box.hidden = !s.invite;
  if (s.invite) $('invite-link').value = `${location.origin}/g/${encodeURIComponent(s.id)}?invite=${encodeURIComponent(s.invite)}`;
}
$('copy-invite').addEventListener('click', async () => {
  const ok = await copyText($('invite-link').value, $('invite-link'));
  $('copy-done').textContent = ok ? 'Copied!' : 'Select the link and copy it.';
});
$('copy-position').addEventListener('click', async () => {
  if (!shown) return;
  const ok = await copyText(shown.position);
  notify(pageStatus, ok ? 'Position copied.' : shown.position);
  setTimeout(() => notify(pageStatus, ''), 2500);
});

function renderResult(s) {
  const box = $('result');
  box.hidden = s.result === '-' && !s.read_only;
  if (box.hidden) return;
  if (s.result === '-') {
    $('result-headline').textContent = 'Unfinished game';
    $('result-text').textContent = 'The record ends before the game is decided.';
    return;
  }
  $('result-headline').textContent = resultHeadline(s);
  const m = s.match;
  let text = sentence(s.result_text || '');
  if (m && m.format === 'best_of_three') {
    text += ` Match: South ${m.wins?.S ?? 0}, North ${m.wins?.N ?? 0}${m.over ? ' (match over).' : '.'}`;
  }
  $('result-text').textContent = text.trim();
}

function renderMatch(s) {
  const m = s.match;
  const box = $('match');
  box.hidden = !m || m.format !== 'best_of_three';
  if (box.hidden) return;
  const games = m.games || [];
  const rows = games.map((g) => {
    const who = g.result === 'S' ? g.south : g.result === 'N' ? g.north : null;
    const res = g.result === 'draw' ? 'drawn' : who ? `${who} won` : 'unfinished';
    return el(
      'li',
      {},
      `Game ${g.game_no} (${g.south} South, ${g.north} North): ${res}. `,
      el('a', { href: `/replay?game=${encodeURIComponent(s.id)}&game_no=${g.game_no}` }, 'Replay'),
    );
  });
  if (!m.over) rows.push(el('li', {}, `Game ${m.game_no}: in progress.`));
  $('match-games').replaceChildren(...rows);
  const over = m.over ? (m.winner === 'draw' ? 'The match is drawn.' : m.winner ? `${SIDE_NAMES[m.winner]} (as seated now) wins the match.` : 'The match is over.') : 'The first to win two games wins the match; players change sides after each game.';
  $('match-note').textContent = over;
}

// ---------- choosing a move ----------
function pickPit(pit) {
  if (!shown || !myTurn(shown) || sending) return;
  sel = { pit, forced: false };
  renderChooser(shown);
}

const uniq = (xs) => [...new Set(xs)];

/** Which way a letter points on the screen, for the side whose pit it is. */
function arrow(letter, side) {
  const bottom = board.flipped ? 'N' : 'S';
  const left = letter === 'L' ? side === bottom : side !== bottom;
  return left ? '←' : '→';
}

function renderChooser(s) {
  const box = $('chooser');
  const legal = myTurn(s) && !board.animating && !sending ? s.legal || [] : [];
  const list = $('all-moves-list');
  $('all-moves').hidden = legal.length === 0;
  list.replaceChildren(...legal.map((c) => el('button', { type: 'button', 'data-move': c.move, onclick: () => send(c.move) }, c.move)));
  if (!legal.length) {
    board.clearMarks();
    box.replaceChildren();
    return;
  }
  const pits = uniq(legal.map((c) => c.pit));
  board.markLegal(pits, sel?.pit);
  if (!sel || !pits.includes(sel.pit)) {
    sel = null;
    box.replaceChildren(el('span', { class: 'prompt' }, 'Choose a pit:'), el('span', { class: 'muted' }, pits.join(' ')));
    return;
  }
  const side = s.side_to_move;
  let cands = legal.filter((c) => c.pit === sel.pit);
  const cancel = el('button', { type: 'button', onclick: () => { sel = null; renderChooser(s); } }, 'Cancel');
  const namua = s.stage === 'namua' || s.stage === 'nemo';
  // Step 1: the letter (direction, or entry kichwa of a namua capture).
  if (sel.letter === undefined) {
    const letters = uniq(cands.map((c) => c.letter));
    if (letters.length > 1) {
      const buttons = letters.map((l) => {
        const c = cands.find((x) => x.letter === l);
        const row = sel.pit[0];
        const kichwa = `${side === 'S' ? 'A' : 'a'}${l === 'L' ? 1 : 8}`;
        const text = namua && !c.takasa ? `${arrow(l, side)} ${l}: enter at ${kichwa}` : `${arrow(l, side)} ${l}: sow towards ${row}${l === 'L' ? 1 : 8}`;
        return el('button', { type: 'button', class: 'primary', 'data-letter': l, onclick: () => { sel.letter = l; renderChooser(s); } }, text);
      });
      const q = namua && !cands[0].takasa ? `Capture with ${sel.pit}: which kichwa do the seeds enter at?` : `Sow ${sel.pit} which way?`;
      box.replaceChildren(el('span', { class: 'prompt' }, q), ...(arrow('L', side) === '→' ? buttons.reverse() : buttons), cancel);
      buttons[0].focus();
      return;
    }
    sel.letter = letters[0];
    sel.forced = true;
  }
  cands = cands.filter((c) => c.letter === sel.letter);
  // Step 2: stop in the house or go on safari (KIS-7.5), only where both exist.
  if (sel.plus === undefined) {
    const kinds = uniq(cands.map((c) => !!c.safari));
    if (kinds.length > 1) {
      const stop = cands.find((c) => !c.safari);
      const go = cands.find((c) => c.safari);
      const b1 = el('button', { type: 'button', class: 'primary', 'data-choice': 'stop', onclick: () => send(stop.move) }, `Stop in the house (${stop.move})`);
      const b2 = el('button', { type: 'button', class: 'primary', 'data-choice': 'safari', onclick: () => send(go.move) }, `Safari: play the house (${go.move})`);
      box.replaceChildren(el('span', { class: 'prompt' }, 'The seeds reach your house:'), b1, b2, cancel);
      b1.focus();
      return;
    }
    sel.plus = kinds[0];
  }
  const move = cands[0];
  if (!move) {
    sel = null;
    return renderChooser(s);
  }
  if (sel.forced && confirmForced.checked) {
    const b = el('button', { type: 'button', class: 'primary', 'data-confirm': move.move, onclick: () => send(move.move) }, `Play ${move.move}`);
    box.replaceChildren(el('span', { class: 'prompt' }, 'Only one way to play this pit:'), b, cancel);
    b.focus();
    return;
  }
  send(move.move);
}

async function send(move) {
  if (!shown || sending) return;
  const s = shown;
  sending = true;
  sel = null;
  board.clearMarks();
  $('chooser').replaceChildren(el('span', { class: 'muted' }, `Playing ${move}…`));
  try {
    await api(`/api/games/${encodeURIComponent(s.id)}/moves`, { method: 'POST', body: { move, ply: s.ply } });
    if (pageStatus.dataset.kind === 'error') notify(pageStatus, ''); // an earlier refusal no longer applies
  } catch (err) {
    notify(pageStatus, err.message, 'error');
  } finally {
    sending = false;
  }
  // The live socket brings the move to everyone, us included; without it, ask.
  if (!socket || socket.readyState !== WebSocket.OPEN) await refresh();
  // Frames that came while the move was on its way were drawn without a chooser.
  if (shown && !board.animating) renderChooser(shown);
}

$('resign').addEventListener('click', async () => {
  if (!shown || !confirm('Resign this game?')) return;
  try {
    // The game and ply it is meant for: a resignation that crosses the move that ends the
    // game is refused (409) instead of landing on the next game of the match.
    const body = { game_no: shown.match ? shown.match.game_no : 1, ply: shown.ply };
    onState(await api(`/api/games/${encodeURIComponent(shown.id)}/resign`, { method: 'POST', body }));
  } catch (err) {
    notify(pageStatus, err.message, 'error');
  }
});

function announce(text) {
  $('announce').textContent = text;
}

// ---------- the socket's messages ----------
/** A legal move from its canonical text (NOT-1): `A7L*`, `a5R+`, `B2L`, kimasai `A3`. */
function legalFromText(move) {
  const letter = /[LR]/.test(move[2] || '') ? move[2] : null;
  return { move, pit: move.slice(0, 2), letter, safari: move.includes('+'), takasa: move.includes('*') };
}

/**
 * A move frame: the newest state plus what the move changed. Returns false when the frame
 * does not follow that state (a gap: the caller asks for the whole state).
 */
function applyMove(msg) {
  const base = latest;
  const ev = msg.move;
  if (!base || !ev) return false;
  if (ev.ply <= base.ply) return true; // already known (an HTTP answer came first)
  if (ev.ply !== base.ply + 1) return false;
  const over = ev.result !== '-';
  const s = {
    ...base,
    position: ev.position,
    ply: ev.ply,
    side_to_move: msg.side_to_move,
    result: ev.result,
    result_text: over ? (msg.result_text ?? null) : null,
    termination: null,
    stage: msg.stage,
    block: msg.block ?? null,
    must: msg.must ?? null,
    legal: (msg.legal || []).map(legalFromText),
    moves: [...(base.moves || []), ev],
    match: msg.match || base.match,
    updated: msg.updated,
  };
  Object.assign(s, framePatch(base, msg));
  onState(s, ev);
  return true;
}

/** Who is connected changed. */
function applyPresence(connected) {
  const base = latest;
  if (!base || !connected) return;
  const players = { ...base.players };
  for (const side of ['S', 'N']) if (players[side]) players[side] = { ...players[side], connected: !!connected[side] };
  latest = { ...base, players };
  if (!busy) pump();
}

// ---------- connection ----------
async function refresh() {
  try {
    onState(await api(`/api/games/${encodeURIComponent(gameId)}`));
    return true;
  } catch (err) {
    if (err.status === 404) {
      notify(pageStatus, 'There is no game with this link.', 'error');
      $('turn-headline').textContent = 'Game not found';
      return 'missing';
    }
    return false;
  }
}

let socket = null;
let pollTimer = null;
let retry = 0;
function setConnection(text) {
  $('connection').textContent = text;
}
function startPolling() {
  if (!pollTimer) pollTimer = setInterval(refresh, 3000);
}
function stopPolling() {
  clearInterval(pollTimer);
  pollTimer = null;
}

function connect() {
  const proto = location.protocol === 'https:' ? 'wss' : 'ws';
  let ws;
  try {
    ws = new WebSocket(`${proto}://${location.host}/api/games/${encodeURIComponent(gameId)}/ws`);
  } catch {
    startPolling();
    return;
  }
  socket = ws;
  let ping = null;
  let version = null; // `v` of the last message applied; null until the first state
  let syncing = false;
  const resync = () => {
    if (syncing) return;
    syncing = true;
    version = null;
    ws.send(JSON.stringify({ type: 'sync' }));
  };
  ws.addEventListener('open', () => {
    retry = 0;
    stopPolling();
    setConnection('Live: moves appear as they are played.');
    ping = setInterval(() => ws.readyState === 1 && ws.send(JSON.stringify({ type: 'ping' })), 25000);
  });
  ws.addEventListener('message', (e) => {
    let msg;
    try {
      msg = JSON.parse(e.data);
    } catch {
      return;
    }
    if (msg.type === 'error') return notify(pageStatus, msg.message || msg.error, 'error');
    if (msg.type === 'state') {
      syncing = false;
      version = msg.v;
      onState(msg.state);
      return;
    }
    if (typeof msg.v !== 'number' || version === null) return; // waiting for a state
    if (msg.v <= version) return; // sent before the state we have
    if (msg.v !== version + 1) return resync(); // missed something
    version = msg.v;
    if (msg.type === 'move' && !applyMove(msg)) resync();
    else if (msg.type === 'presence') applyPresence(msg.connected);
  });
  ws.addEventListener('close', () => {
    clearInterval(ping);
    if (socket !== ws) return;
    setConnection('Connection lost; checking for new moves every few seconds…');
    startPolling();
    retry += 1;
    setTimeout(connect, Math.min(15000, 1000 * 2 ** Math.min(retry, 4)));
  });
}

async function init() {
  if (!gameId) {
    notify(pageStatus, 'No game was named in the address.', 'error');
    return;
  }
  const params = new URLSearchParams(location.search);
  const invite = params.get('invite');
  if (invite) {
    try {
      const body = { invite };
      const name = pref('name', '');
      if (name) body.name = name;
      await api(`/api/games/${encodeURIComponent(gameId)}/join`, { method: 'POST', body });
      notify(pageStatus, 'You have joined the game. Good luck!');
      setTimeout(() => notify(pageStatus, ''), 4000);
    } catch (err) {
      notify(pageStatus, err.status === 409 ? 'That seat has already been taken: you are watching the game.' : err.message, 'error');
    }
    history.replaceState(null, '', location.pathname);
  }
  if ((await refresh()) !== 'missing') connect();
}

init();
