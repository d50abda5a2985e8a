// Game page (/g/{id}): play or watch a game live. The game source's GameState is the only
// truth: the server's (server-game.js: whole once, then small versioned socket messages,
// docs/api.md "WebSocket") or, for a game kept in this browser, the browser engine's
// (offline-game.js). Both have one shape, so this page has one path; what only one source
// offers (joining by invite, takeback, hint, rematch, review) it declares in `source.can`.
// A move is animated from its event lines, then the board is set to the move's position.

import {
  $,
  otherSide,
  el,
  notify,
  parsePosition,
  numberMoves,
  capturedBy,
  describeEvents,
  pref,
  setPref,
  copyText,
  errorText,
  VARIANT_TITLES,
  SIDE_NAMES,
  STAGE_TEXT,
} from './app.js';
import { t, tn, touch } from './i18n.js';
import { BoardView } from './board.js';
import { MoveChooser } from './chooser.js';
import { reviewLink } from './review.js';
import { analysisUrl } from './analysis-link.js';
import { reportBox } from './report.js';
import { localSource, isLocal } from './offline-game.js';
import { pushSwitch } from './push.js';
import { serverSource } from './server-game.js';
import { showConnection } from './socket.js';
import { turnIs, alertSettings } from './alerts.js';
import { shareButton } from './share.js';
import { renderPlay } from './play.js';
import { renderRated } from './rated.js';
import { endingSentence, matchScore, resultHeadline, rulesInWords } from './words.js';

const gameId = decodeURIComponent(location.pathname.split('/')[2] || '');
const pageStatus = $('page-status');
// A game kept in this browser (`local-…`) is played against the browser engine, not the server.
const source = localSource(gameId) || serverSource(gameId);

let latest = null; // newest GameState received (or built from the socket's messages)
let shown = null; // GameState whose position the board shows
let busy = false; // an animation is running
let sending = false;
let flipChoice = null; // the viewer's own choice of orientation, once made

/** Seeds off the board: "in hand", or Kimasai's reserve (akiba), one word everywhere. */
const handText = (variant, n) => (variant === 'kimasai' ? tn('game.reserve_count', n) : tn('game.hand_count', n));

const board = new BoardView($('board'), {
  caption: $('caption'),
  rowsOnly: true, // the bars show the hands, the banner the turn
  onPick: pickPit,
  // The players' panel counts along with the board during an animation (one count).
  onHandCount: (side, n) => {
    const e = document.querySelector(`#players [data-hand="${side}"]`);
    if (e && shown) e.textContent = handText(shown.variant, n);
  },
});
const chooser = new MoveChooser({ box: $('chooser'), board, play: send, confirmForced: () => confirmForced.checked });

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
  chooser.cancel();
});
$('flip').addEventListener('change', () => {
  flipChoice = $('flip').checked;
  board.setFlipped(flipChoice);
  placeBars();
  chooser.render(); // the arrows of the direction buttons
});

// ---------- state pipeline ----------
const seq = (s) => [s.match ? s.match.game_no : 1, s.ply];
function sameGame(a, b) {
  return a && b && seq(a)[0] === seq(b)[0] && a.start === b.start;
}

let drawnSvg = null; // the server picture the board was last built from
let fetchingPicture = false;

/** Draws the board from the source's picture when no state brought one. */
async function fetchPicture(s) {
  if (fetchingPicture) return;
  fetchingPicture = true;
  try {
    const text = await source.svg(s);
    if (!text || drawnSvg) return; // a state with a picture came first
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
  // A stale answer; but a newer state at a lower ply is a takeback (docs/api.md, takeback).
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
        chooser.clear();
        showPlaying(m);
        const ok = await board.animate(m.events, m.by, m.position);
        board.container.dataset.animCheck = ok ? 'ok' : 'mismatch';
        $('skip').disabled = true;
        announce(`${t('game.played', { who: SIDE_NAMES[m.by], move: m.move })} ${describeEvents(m.events, m.by)}`);
        if (board.delay > 0) await new Promise((r) => setTimeout(r, 1500));
      }
      if (shown && sameGame(shown, s) && s.ply > shown.ply) {
        // Animate the moves not yet shown, one after another, from their events.
        const pending = (s.moves || []).filter((m) => m.ply > shown.ply).sort((a, b) => a.ply - b.ply);
        $('skip').disabled = false;
        chooser.clear();
        for (const m of pending) {
          showPlaying(m);
          const ok = await board.animate(m.events, m.by, m.position);
          board.container.dataset.animCheck = ok ? 'ok' : 'mismatch';
          if (!ok) console.warn(`bao: animation of ${m.move} does not match the server's position`);
          board.container.dataset.animatedPly = String(m.ply);
          announce(`${t('game.played', { who: SIDE_NAMES[m.by], move: m.move })} ${describeEvents(m.events, m.by)}`);
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

/** The banner while a move is being animated. */
function showPlaying(m) {
  $('turn').classList.remove('your-turn', 'over');
  $('turn-headline').textContent = t('game.plays', { who: SIDE_NAMES[m.by], move: m.move });
  $('turn-detail').textContent = t('game.skip_hint');
  $('all-moves').hidden = true;
  board.clearMarks();
}

// ---------- rendering ----------
function render(s) {
  const first = !shown;
  const newGame = !shown || !sameGame(shown, s);
  if (!first && newGame && s.match && shown.match && s.match.game_no > shown.match.game_no) {
    const prev = (s.match.games || []).find((g) => g.game_no === shown.match.game_no);
    const side = s.you ? ` ${t('game.you_now_play', { side: SIDE_NAMES[s.you] })}` : '';
    const over = prev && prev.result !== '-'
      ? t('game.match_game_over_because', { n: shown.match.game_no, why: endingSentence(prev.ending, prev.result) })
      : t('game.match_game_over', { n: shown.match.game_no });
    notify(pageStatus, `${over} ${t('game.match_game_begins', { n: s.match.game_no })}${side}`);
  }
  shown = s;
  if (newGame) chooser.cancel(true);
  const v = VARIANT_TITLES[s.variant] || s.variant;
  document.title = t('game.doc_title', { variant: v, id: s.id });
  $('game-title').textContent = v;
  $('rules-link').href = `/rules/${s.variant}`;
  const rulesTag = $('rules-tag');
  // The match format has its own tag; the rules tag lists the other options changed.
  const opts = rulesInWords(s.rules, { skip: ['match'] });
  rulesTag.hidden = opts.length === 0;
  rulesTag.textContent = t('game.rules_tag', { list: opts.join('; ') });
  rulesTag.title = t('game.rules_tag_title');
  const m = s.match;
  const matchTag = $('match-tag');
  matchTag.hidden = !m || m.format !== 'best_of_three';
  if (m) matchTag.textContent = t('game.match_tag', { n: m.game_no, south: m.wins?.S ?? 0, north: m.wins?.N ?? 0 });

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
  board.over = s.result !== '-';
  board.setPosition(s.position, lastMove);
  board.container.dataset.ply = String(s.ply);
  board.container.dataset.position = s.position;
  if (first) board.container.dataset.animCheck = 'none';

  renderEvent(s);
  renderBanner(s);
  renderPlayers(s);
  renderFlags(s);
  renderMoves(s);
  renderInvite(s);
  renderResult(s);
  if (source.can.review) reviewLink($('result'), s);
  renderMatch(s);
  renderChooser(s);
  mineHooks(s);
  $('record-link').hidden = s.result !== '-';
  $('resign').hidden = !(s.you && s.result === '-');
  source.recordLink($('record-link'), s);
  source.recordLink($('record-link2'), s);
  $('replay-link').href = `/replay?game=${encodeURIComponent(s.id)}`;
  $('analyse-link').href = analysisUrl({ variant: s.variant, rules: s.rules, position: s.start, moves: (s.moves || []).map((m) => m.move) });
  renderPlay(s, { board, onState, pageStatus, source });
  renderRated(s);
  // Last: pass and play may have turned the board (play.js), and the clocks are made there.
  placeBars();
}

// ---------- turn alerts, share (static/alerts.js, static/share.js) ----------
const alertsBox = alertSettings();
alertsBox.hidden = true;
$('connection').before(alertsBox);
$('copy-invite').before(shareButton(() => $('invite-link').value, $('invite-link'), $('copy-done')), ' ');
// Web Push (static/push.js): a player of a game on the server, not a game in this browser.
let pushBox = null;
function pushHook(s) {
  const player = !!s.you && !s.read_only && s.result === '-' && !isLocal(s.id);
  if (player && !pushBox) {
    pushBox = pushSwitch({ game: s.id });
    alertsBox.after(pushBox);
  }
  if (pushBox) pushBox.hidden = !player;
}
function mineHooks(s) {
  pushHook(s);
  alertsBox.hidden = !s.you || s.read_only;
  const them = s.you ? otherSide(s.you) : null;
  const other = them ? s.players?.[them] : null;
  turnIs(s.id, myTurn(s), {
    text: t('mine.alert_title'),
    body: t('mine.alert_body', { name: other ? playerLabel(other, them) : '?' }),
    url: location.pathname,
  });
}

const myTurn = (s) => s.you && s.result === '-' && s.side_to_move === s.you && (s.legal || []).length > 0;

function playerLabel(p, side) {
  if (!p) return t('game.open_seat');
  if (p.kind === 'computer') return t('common.computer_level', { level: p.level ?? '?' });
  return p.name || (side === 'S' ? t('game.south_player') : t('game.north_player'));
}

function renderBanner(s) {
  const turn = $('turn');
  const head = $('turn-headline');
  const detail = $('turn-detail');
  turn.classList.remove('your-turn', 'over');
  detail.classList.remove('hint');
  // The stage is the game's while it goes on; a finished game has none left to tell.
  const st = s.result === '-' ? STAGE_TEXT[s.stage] : null;
  // The name, then its explanation (which a phone leaves out for room: the rules explain it).
  $('stage').replaceChildren(...(st ? [el('span', { class: 'stage-name' }, st[0]), el('span', { class: 'stage-help' }, `: ${st[1]}`)] : []));
  $('stage').title = st ? st[1] : '';
  if (s.read_only && s.result === '-') {
    head.textContent = t('game.uploaded_title');
    detail.textContent = t('game.uploaded_detail');
    return;
  }
  if (s.result !== '-') {
    turn.classList.add('over');
    head.textContent = resultHeadline(s);
    detail.textContent = endingSentence(s.ending, s.result);
    return;
  }
  const mover = SIDE_NAMES[s.side_to_move];
  const other = s.players?.[s.side_to_move];
  if (myTurn(s)) {
    turn.classList.add('your-turn');
    head.textContent = t('game.your_move', { side: mover });
    detail.textContent = s.invite
      ? t('game.your_move_no_opponent')
      : touch ? t('game.tap_pit') : t('game.click_pit');
    // The chooser under the board says the same; a phone keeps the room for the board.
    detail.classList.toggle('hint', !s.invite);
  } else if (s.you && s.invite) {
    head.textContent = t('game.waiting_join');
    detail.textContent = t('game.send_invite');
  } else if (s.you) {
    head.textContent = other?.kind === 'computer' ? t('game.computer_thinking') : t('game.waiting_for', { who: playerLabel(other, s.side_to_move), side: mover });
    detail.textContent = '';
  } else {
    head.textContent = t('game.to_move', { side: mover });
    detail.textContent = t('game.watching');
  }
}

/**
 * The players' bars around the board (templates/game.html): each with the name, the side,
 * the seeds in hand and whether the player is connected; the clock (static/clock.js) sits in
 * the bar's clock slot. Which bar is above the board is [placeBars]'s business.
 */
function renderPlayers(s) {
  const pos = parsePosition(s.position);
  for (const side of ['N', 'S']) {
    const bar = $(`player-${side}`);
    const p = s.players?.[side];
    const toMove = s.result === '-' && s.side_to_move === side;
    bar.classList.toggle('to-move', toMove);
    const person = p && p.kind !== 'computer';
    bar.querySelector('.who-box').replaceChildren(
      el(
        'div',
        { class: 'who-line' },
        person ? el('span', { class: `dot${p.connected ? ' on' : ''}`, 'aria-hidden': 'true' }) : null,
        el('span', { class: 'who' }, playerLabel(p, side)),
        s.you === side ? [' ', el('span', { class: 'you' }, t('game.you'))] : null,
        // Offline is said in words beside the name; online is the green dot (and words for
        // screen readers), so that the bar keeps to two lines on a phone.
        person && !p.connected ? [' ', el('span', { class: 'away' }, t('game.offline'))] : null,
      ),
      el(
        'div',
        { class: 'meta' },
        el('span', { class: `side ${side}` }, SIDE_NAMES[side]),
        ' · ',
        el('span', { class: 'hand', 'data-hand': side }, pos ? handText(s.variant, pos.hands[side]) : ''),
        person && p.connected ? el('span', { class: 'visually-hidden' }, ` · ${t('game.online')}`) : null,
        toMove ? el('span', { class: 'visually-hidden' }, ` · ${t('game.to_move_badge')}`) : null,
      ),
    );
  }
}

/**
 * The opponent's bar above the board and the player's own below it, as the board is turned:
 * South's below unless the board shows North's side at the bottom (flip, playing North, pass
 * and play turning the board). The clocks live in the bars, so they follow too.
 */
function placeBars() {
  const bottom = board.flipped ? 'N' : 'S';
  const top = $(`player-${otherSide(bottom)}`);
  const below = $(`player-${bottom}`);
  const b = $('board');
  if (b.previousElementSibling !== top) b.before(top);
  if (b.nextElementSibling !== below) b.after(below);
}

/**
 * The event the game belongs to (GameState `event`): its name and round, a link back. A
 * phone cuts a long name short, never the round.
 */
function renderEvent(s) {
  const e = s.event;
  const a = $('event-link');
  a.hidden = !e;
  if (!e) return;
  const names = {
    tournament: () => t('game.event_tournament_name', { name: e.name }),
    arena: () => t('arenas.event_name', { name: e.name }),
    // A team match's board: the clubs, and the board where a tournament says its round.
    team_match: () => t('teams.event_name', { name: e.name }),
  };
  const round = e.kind === 'team_match' ? t('teams.event_board', { n: e.round }) : t('game.event_round', { round: e.round });
  a.replaceChildren(
    el('span', { class: 'event-name' }, names[e.kind] ? names[e.kind]() : e.name),
    e.round != null ? el('span', { class: 'event-round' }, `\u00a0· ${round}`) : '',
  );
  a.href = e.url;
}

function renderFlags(s) {
  const pos = parsePosition(s.position);
  const notes = [];
  const mover = SIDE_NAMES[s.side_to_move];
  if (s.block && s.result === '-') {
    const word = s.variant === 'kete' ? 'Hizi zetu' : 'Takasia';
    notes.push(t('game.flag_block', { word, side: mover, pit: s.block }));
  }
  if (s.must && s.result === '-') notes.push(t('game.flag_must', { side: mover, pit: s.must }));
  if (pos && s.variant !== 'kimasai') {
    // Sentences, never the raw flags (house:S, duty:N) of the position string.
    const house = s.variant === 'kete' ? 'kuu' : 'nyumba';
    const owns = (x) => pos.flags.includes(`house:${x}`);
    const mine = s.you && owns(s.you);
    if (owns('S') && owns('N')) notes.push(t('game.flag_houses_both', { house }));
    else if (!owns('S') && !owns('N')) notes.push(t('game.flag_houses_none', { house }));
    else if (s.you) notes.push(mine ? t('game.flag_house_yours_only', { house }) : t('game.flag_house_theirs_only', { house }));
    else notes.push(t('game.flag_house_one', { house, side: SIDE_NAMES[owns('S') ? 'S' : 'N'] }));
    for (const x of ['S', 'N']) if (pos.flags.includes(`duty:${x}`)) notes.push(t('game.flag_duty', { side: SIDE_NAMES[x] }));
  }
  $('flags').replaceChildren(
    ...notes.map((note, i) => el('p', { class: i < (s.block ? 1 : 0) + (s.must ? 1 : 0) && s.result === '-' ? 'flag-note' : 'small muted' }, note)),
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
      n ? el('span', { class: 'cap', 'aria-label': t('game.captured_n', { n }) }, `×${n}`) : null,
    );
  };
  const table = el(
    'table',
    {},
    el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, '#'), el('th', { scope: 'col' }, SIDE_NAMES.S), el('th', { scope: 'col' }, SIDE_NAMES.N))),
    el('tbody', {}, rows.map((r) => el('tr', {}, el('td', { class: 'no' }, `${r.no}.`), cell(r.S), cell(r.N)))),
  );
  const box = $('moves');
  box.replaceChildren(moves.length ? table : el('p', { class: 'muted small', style: 'padding:0.5rem' }, t('game.no_moves')));
  box.scrollTop = box.scrollHeight;
  const last = moves[moves.length - 1];
  $('last-move').textContent = last ? t('game.last_move', { move: last.move, what: describeEvents(last.events, last.by) }) : '';
}

function renderInvite(s) {
  const box = $('invite');
  box.hidden = !s.invite;
  if (s.invite) $('invite-link').value = `${location.origin}/g/${encodeURIComponent(s.id)}?invite=${encodeURIComponent(s.invite)}`;
}
$('copy-invite').addEventListener('click', async () => {
  const ok = await copyText($('invite-link').value, $('invite-link'));
  $('copy-done').textContent = ok ? t('game.copied') : t('game.copy_by_hand');
});
$('copy-position').addEventListener('click', async () => {
  if (!shown) return;
  const ok = await copyText(shown.position);
  notify(pageStatus, ok ? t('game.position_copied') : shown.position);
  setTimeout(() => notify(pageStatus, ''), 2500);
});

function renderResult(s) {
  const box = $('result');
  box.hidden = s.result === '-' && !s.read_only;
  if (box.hidden) return;
  if (s.result === '-') {
    $('result-headline').textContent = t('game.unfinished');
    $('result-text').textContent = t('game.unfinished_detail');
    return;
  }
  $('result-headline').textContent = resultHeadline(s);
  $('result-text').textContent = `${endingSentence(s.ending, s.result)} ${matchScore(s.match)}`.trim();
  // A rated game's player may report the other account to the moderators
  // (docs/api.md "Fair play"); made once per page.
  const other = s.you && s.accounts && s.accounts[s.you === 'S' ? 'N' : 'S'];
  if (other && other.username && !box.querySelector('.report-box')) box.append(reportBox(other.username, s.id));
}

function renderMatch(s) {
  const m = s.match;
  const box = $('match');
  box.hidden = !m || m.format !== 'best_of_three';
  if (box.hidden) return;
  const games = m.games || [];
  const rows = games.map((g) => {
    const who = g.result === 'S' ? g.south : g.result === 'N' ? g.north : null;
    const res = g.result === 'draw' ? t('game.match_row_drawn') : who ? t('game.match_row_won', { who }) : t('game.match_row_unfinished');
    return el(
      'li',
      {},
      `${t('game.match_row', { n: g.game_no, south: g.south, north: g.north, result: res })} `,
      el('a', { href: `/replay?game=${encodeURIComponent(s.id)}&game_no=${g.game_no}` }, t('game.replay')),
    );
  });
  if (!m.over) rows.push(el('li', {}, t('game.match_row_in_progress', { n: m.game_no })));
  $('match-games').replaceChildren(...rows);
  let over = t('game.match_rule');
  if (m.over && m.winner === 'draw') over = t('game.match_drawn');
  else if (m.over && m.winner) over = t('game.match_won', { side: SIDE_NAMES[m.winner] });
  else if (m.over) over = t('game.match_over');
  $('match-note').textContent = over;
}

// ---------- choosing a move (static/chooser.js) ----------
function pickPit(pit) {
  if (!shown || !myTurn(shown) || sending) return;
  chooser.pick(pit);
}

function renderChooser(s) {
  const legal = myTurn(s) && !board.animating && !sending ? s.legal || [] : [];
  $('all-moves').hidden = legal.length === 0;
  $('all-moves-list').replaceChildren(...legal.map((c) => el('button', { type: 'button', 'data-move': c.move, onclick: () => send(c.move) }, c.move)));
  chooser.offer(legal, { side: s.side_to_move, namua: s.stage === 'namua' || s.stage === 'nemo', house: s.variant === 'kete' ? 'kuu' : 'nyumba' });
}

async function send(move) {
  if (!shown || sending) return;
  const s = shown;
  sending = true;
  chooser.wait(move);
  try {
    // The move's state comes through the subscription (for the server: the socket, or one
    // request when the socket is down).
    await source.play(move, s.ply);
    if (pageStatus.dataset.kind === 'error') notify(pageStatus, ''); // an earlier refusal no longer applies
  } catch (err) {
    notify(pageStatus, errorText(err), 'error');
  } finally {
    sending = false;
  }
  // Frames that came while the move was on its way were drawn without a chooser.
  if (shown && !board.animating) renderChooser(shown);
}

$('resign').addEventListener('click', async () => {
  if (!shown || !confirm(t('game.resign_confirm'))) return;
  try {
    onState(await source.resign(shown));
  } catch (err) {
    notify(pageStatus, errorText(err), 'error');
  }
});

function announce(text) {
  $('announce').textContent = text;
}

// ---------- the game source ----------
function showMissing() {
  notify(pageStatus, t('game.not_found'), 'error');
  $('turn-headline').textContent = t('game.not_found_title');
}

async function refresh() {
  try {
    onState(await source.state());
    return true;
  } catch (err) {
    if (err.status === 404) {
      showMissing();
      return 'missing';
    }
    return false;
  }
}

/** Every later state, and the connection's status, from the source. */
function connect() {
  source.subscribe({
    state: onState,
    current: () => latest,
    error: (err) => notify(pageStatus, errorText(err), 'error'),
    missing: showMissing,
    connection(status, info, reconnect) {
      // The game page words "live" and "lost" its own way (the server source polls while
      // its socket is down); a game in this browser has no connection at all.
      showConnection($('connection'), status, info, reconnect, {
        open: t('game.conn_live'),
        lost: t('game.conn_lost'),
        browser: t('offline.connection'),
      });
    },
  });
}

async function init() {
  if (!gameId) {
    notify(pageStatus, t('game.no_game_named'), 'error');
    return;
  }
  const params = new URLSearchParams(location.search);
  const invite = params.get('invite');
  if (invite) {
    if (source.can.join) {
      try {
        await source.join(invite, pref('name', ''));
        notify(pageStatus, t('game.joined'));
        setTimeout(() => notify(pageStatus, ''), 4000);
      } catch (err) {
        // Joining needs an account only for a rated game: say so in those words.
        const words =
          err.category === 'conflict' ? t('game.seat_taken') : err.category === 'not_signed_in' ? t('players.err_rated_needs_account') : errorText(err);
        notify(pageStatus, words, 'error');
      }
    }
    history.replaceState(null, '', location.pathname);
  }
  if ((await refresh()) !== 'missing') connect();
}

init();
