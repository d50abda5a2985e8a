// The puzzles page (/puzzles, docs/api.md "Puzzles"): choose a game, solve its puzzles move by
// move on the board. Each move is checked by the server (the rules crate) against the proven
// line, whose opponent answers are then played; progress is remembered in localStorage.
// Signed in, the first try of each puzzle is rated (POST .../attempt): the page says how the
// player's puzzle rating moved; a theme chooser and a streak (easy to hard, one miss ends it;
// a guest's streak is kept in localStorage) pick the next puzzle through /next and /streak.
// When the server cannot be reached, the page plays the service worker's saved pack instead
// (static/puzzles-offline.js): the same board and verdicts, nothing rated.

import { $, api, el, errorText, notify, renderUrl, legalFromText, parsePosition, otherSide } from './app.js';
import { BoardView } from './board.js';
import { MoveChooser } from './chooser.js';
import { t, tHtml, tn } from './i18n.js';
import { analysisUrl } from './analysis-link.js';

const STORE = 'bao.puzzles.solved';
const board = new BoardView($('board'), { caption: $('caption'), onPick: pickPit });
const chooser = new MoveChooser({ box: $('chooser'), board, play: send });
const pageStatus = $('page-status');

let list = []; // the variant's puzzles
let puzzle = null; // the puzzle shown (GET /api/puzzles/{id})
let ply = 0; // the solver's turn in the line
let legal = []; // the solver's legal moves now
let position = null; // the position the solver plays from now
let busy = false;
// Answers may come back in another order than asked: only the newest open() and the newest
// loadVariant() apply theirs, and a list that comes after the player opened a puzzle does
// not open its first puzzle over it.
let opening = 0;
let loading = 0;
let done = false;
let tried = []; // the solver's moves tried on this puzzle since it was opened
let attemptSent = false; // this opening's attempt was sent (or needs none)
let missed = false; // a wrong move was tried on this puzzle
let streakEnded = null; // the streak this puzzle's miss ended (streak mode), else null
const GUEST_STREAK = 'bao.puzzles.streak';
let offline = null; // static/puzzles-offline.js once the network has failed

/** Whether `err` is the network's failure (not an answer of the server). */
const noNetwork = (err) => !!err && err.category === 'network';

/** Turns to the saved pack: true when the page can go on offline. */
async function goOffline() {
  if (!offline) {
    try {
      offline = await import('./puzzles-offline.js');
    } catch {
      return false;
    }
    document.body.dataset.puzzlesOffline = 'true';
    $('offline-note').hidden = false;
    $('ratings').textContent = '';
    $('streak').textContent = '';
  }
  return true;
}

/** Whether the player is signed in (the puzzle's answer carries their rating). */
const signedIn = () => !!(puzzle && puzzle.player);
const theme = () => $('theme').value;
const streakMode = () => $('streak-mode').checked;

function guestStreak() {
  try {
    const s = JSON.parse(localStorage.getItem(GUEST_STREAK) || '{}');
    return { streak: Number(s.streak) || 0, best: Number(s.best) || 0 };
  } catch {
    return { streak: 0, best: 0 };
  }
}

function setGuestStreak(s) {
  try {
    localStorage.setItem(GUEST_STREAK, JSON.stringify(s));
  } catch {
    // Private mode: the streak lasts for this page only.
  }
}

/** The ratings line and the streak line. */
function renderRatings() {
  if (!puzzle || offline) return;
  const r = $('ratings');
  r.textContent = signedIn()
    ? t('puzzles.ratings_signed_in', { mine: puzzle.player.rating, puzzle: puzzle.rating })
    : t('puzzles.ratings_guest', { puzzle: puzzle.rating });
  const st = signedIn() ? { streak: puzzle.player.streak, best: puzzle.player.best_streak } : guestStreak();
  $('streak').textContent =
    streakEnded === null
      ? t('puzzles.streak_line', { n: st.streak, best: st.best })
      : streakEnded === 0
        ? t('puzzles.streak_missed_first', { best: st.best })
        : t('puzzles.streak_ended', { n: streakEnded, best: st.best });
  $('streak').dataset.streak = String(st.streak);
  $('streak').dataset.best = String(st.best);
  $('streak').dataset.ended = streakEnded === null ? '' : 'yes';
}

/** The first try's verdict: rated for an account (the server judges the moves), counted in
 * the browser's streak for a guest. */
async function sendAttempt(solved) {
  if (attemptSent || !puzzle) return;
  attemptSent = true;
  if (offline) return; // not rated nor counted: the page says ratings wait for the network
  const id = puzzle.id;
  if (!signedIn()) {
    if (streakMode()) {
      const s = guestStreak();
      const streak = solved ? s.streak + 1 : 0;
      if (!solved) streakEnded = s.streak;
      setGuestStreak({ streak, best: Math.max(s.best, streak) });
      renderRatings();
    }
    return;
  }
  let r;
  try {
    r = await api(`/api/puzzles/${encodeURIComponent(id)}/attempt`, {
      method: 'POST',
      body: { moves: tried, solved, streak: streakMode() },
    });
  } catch (err) {
    notify(pageStatus, t('puzzles.attempt_failed', { error: errorText(err) }), 'error');
    return;
  }
  if (!puzzle || puzzle.id !== id) return;
  if (streakMode() && !solved) streakEnded = puzzle.player.streak;
  puzzle.player = { ...puzzle.player, rating: r.rating.after, streak: r.streak, best_streak: r.best_streak };
  puzzle.rating = r.puzzle_rating;
  const change = r.rating.after - r.rating.before;
  const c = $('rating-change');
  if (!r.rated) c.textContent = t('puzzles.rating_unrated', { rating: r.rating.after });
  else if (change > 0) c.textContent = t('puzzles.rating_up', { change, rating: r.rating.after });
  else if (change < 0) c.textContent = t('puzzles.rating_down', { change: -change, rating: r.rating.after });
  else c.textContent = t('puzzles.rating_same', { rating: r.rating.after });
  c.dataset.change = String(change);
  c.hidden = false;
  renderRatings();
  document.body.dataset.puzzleAttempt = id;
}

function solvedSet() {
  try {
    return new Set(JSON.parse(localStorage.getItem(STORE) || '[]'));
  } catch {
    return new Set();
  }
}

function markSolved(id) {
  const s = solvedSet();
  s.add(id);
  try {
    localStorage.setItem(STORE, JSON.stringify([...s]));
  } catch {
    // Private mode: progress lasts for this page only.
  }
}

function feedback(text, kind = '') {
  const f = $('feedback');
  f.textContent = text;
  f.className = kind;
}

function renderList() {
  const solved = solvedSet();
  const n = list.filter((p) => solved.has(p.id)).length;
  $('progress').textContent = t('puzzles.progress', { solved: n, total: list.length });
  $('list').replaceChildren(
    ...list.map((p, i) => {
      const isSolved = solved.has(p.id);
      const b = el(
        'button',
        {
          type: 'button',
          class: isSolved ? 'solved' : null,
          'data-id': p.id,
          'aria-current': puzzle && puzzle.id === p.id ? 'true' : null,
          'aria-label': isSolved ? `${i + 1} (${t('puzzles.solved_mark')})` : String(i + 1),
          onclick: () => open(p.id),
        },
        isSolved ? `${i + 1} ✓` : String(i + 1),
      );
      return el('li', {}, b);
    }),
  );
}

function goalHtml(goal, moves) {
  if (goal.kind === 'win') {
    return tn('puzzles.goal_win_in', (moves.length + 1) / 2);
  }
  if (goal.kind === 'seeds') return t('puzzles.goal_seeds', { n: goal.n });
  return tHtml('puzzles.goal_save_house');
}

async function open(id) {
  const gen = ++opening;
  busy = true;
  let next;
  let svg;
  try {
    if (offline) {
      next = await offline.puzzle(id);
      svg = await offline.svg(next.position);
    } else {
      next = await api(`/api/puzzles/${encodeURIComponent(id)}`);
      svg = await (await fetch(renderUrl(next.position))).text();
    }
  } catch (err) {
    if (gen !== opening) return;
    if (!offline && (noNetwork(err) || err instanceof TypeError) && (await goOffline())) {
      busy = false;
      if (gen === opening) open(id);
      return;
    }
    notify(pageStatus, t('puzzles.load_failed', { error: errorText(err) }), 'error');
    busy = false;
    return;
  }
  if (gen !== opening) return; // another puzzle was asked for meanwhile
  puzzle = next;
  const url = new URL(location.href);
  url.searchParams.set('id', id);
  history.replaceState(null, '', url);
  ply = 0;
  tried = [];
  missed = false;
  streakEnded = null;
  // Each opening's first verdict is sent: the server rates an account's first try of a
  // puzzle only and says so of the later ones.
  attemptSent = false;
  $('rating-change').hidden = true;
  delete document.body.dataset.puzzleAttempt;
  renderRatings();
  legal = puzzle.legal || [];
  position = puzzle.position;
  done = false;
  chooser.cancel(true);
  const side = puzzle.position.split(' ')[2] || 'S';
  // The solver at the bottom of the board.
  board.flipped = side === 'N';
  board.setSvg(svg);
  board.setPosition(puzzle.position);
  analyseLink();
  const index = list.findIndex((p) => p.id === puzzle.id);
  const goal = $('goal');
  if (puzzle.goal.kind === 'save_house') goal.innerHTML = goalHtml(puzzle.goal, puzzle.moves);
  else goal.textContent = goalHtml(puzzle.goal, puzzle.moves);
  $('detail').textContent = `${t('puzzles.number', { n: index + 1, total: list.length })} · ${side === 'N' ? t('puzzles.you_play_north') : t('puzzles.you_play_south')}`;
  $('solution').hidden = true;
  feedback('');
  busy = false;
  renderList();
  renderChooser();
  document.body.dataset.puzzleOpen = puzzle.id;
}

function pickPit(pit) {
  if (busy || done) return;
  chooser.pick(pit);
}

/** The pits to play, then (static/chooser.js) the way to play the pit tapped. */
function renderChooser() {
  if (busy || done || !legal.length) {
    chooser.clear();
    return;
  }
  // In namua (seeds in hand, NOT-3) the letter of a capture names the kichwa it enters at.
  const p = parsePosition(position);
  const namua = !!p && p.variant !== 'kimasai' && p.hands[p.side] > 0;
  chooser.offer(legal.map(legalFromText), { side: solverSide(), namua });
}

function solverSide() {
  return puzzle.position.split(' ')[2] || 'S';
}

async function send(move) {
  if (busy || done) return;
  const gen = opening; // the puzzle this move is for
  busy = true;
  renderChooser();
  feedback(t('puzzles.checking', { move }));
  let r;
  try {
    r = offline
      ? await offline.check(puzzle, ply, move, position)
      : await api(`/api/puzzles/${encodeURIComponent(puzzle.id)}/check`, { method: 'POST', body: { ply, move } });
  } catch (err) {
    if (gen !== opening) return;
    feedback(offline ? t('puzzles.offline_bad_move', { move }) : errorText(err), 'bad');
    busy = false;
    renderChooser();
    return;
  }
  if (gen !== opening) return; // another puzzle was opened meanwhile
  tried.push(r.move);
  if (r.verdict !== 'correct') {
    missed = true;
    feedback(t('puzzles.wrong'), 'bad'); // in words: players do not read notation
    sendAttempt(false);
    busy = false;
    renderChooser();
    return;
  }
  const me = solverSide();
  const them = otherSide(me);
  feedback(t('puzzles.correct', { move: r.move }), 'good');
  if (!(await board.animate(r.events, me, r.position))) board.setPosition(r.position, r.move);
  else board.setPosition(r.position, r.move);
  if (r.reply) {
    feedback(t('puzzles.reply', { move: r.move, reply: r.reply }), 'good');
    if (!(await board.animate(r.reply_events, them, r.reply_position))) board.setPosition(r.reply_position, r.reply);
    else board.setPosition(r.reply_position, r.reply);
  }
  if (gen !== opening) return;
  if (r.solved) {
    done = true;
    markSolved(puzzle.id);
    if (!missed) sendAttempt(true);
    feedback(t('puzzles.solved', { move: r.move }), 'good');
    document.body.dataset.puzzleSolved = puzzle.id;
    renderList();
    busy = false;
    renderChooser();
    $('next').focus();
    return;
  }
  ply += 2;
  legal = r.legal || [];
  position = r.reply_position || r.position;
  busy = false;
  analyseLink();
  renderChooser();
}

/** The analysis board at the position the solver is to play. */
function analyseLink() {
  if (!puzzle || !position) return;
  $('analyse-link').href = analysisUrl({ variant: position.split(' ')[0], rules: puzzle.rules || '-', position });
}

/** The next puzzle from the server: the streak's, or near the player's rating (signed in),
 * or of the chosen theme; `null` when the page's own list order serves (a guest, no theme). */
async function serverNext() {
  if (offline) return offline.nextOf(list, puzzle && puzzle.id, theme(), solvedSet());
  const v = $('variant').value;
  const th = theme() ? `&theme=${encodeURIComponent(theme())}` : '';
  if (streakMode() && signedIn()) {
    const s = await api(`/api/puzzles/streak?variant=${v}${th}`);
    return s.next ? s.next.id : null;
  }
  if (!signedIn() && !th) return null;
  const after = puzzle ? `&after=${encodeURIComponent(puzzle.id)}` : '';
  return (await api(`/api/puzzles/next?variant=${v}${th}${after}`)).id;
}

async function goNext() {
  let id = null;
  try {
    id = await serverNext();
  } catch (err) {
    notify(pageStatus, t('puzzles.load_failed', { error: errorText(err) }), 'error');
    return;
  }
  if (!id) id = nextId();
  if (id) open(id);
}

function nextId() {
  if (!list.length) return null;
  const solved = solvedSet();
  const at = Math.max(0, list.findIndex((p) => puzzle && p.id === puzzle.id));
  for (let k = 1; k <= list.length; k++) {
    const p = list[(at + k) % list.length];
    if (!solved.has(p.id)) return p.id;
  }
  return list[(at + 1) % list.length].id;
}

async function loadVariant(variant, wanted) {
  const gen = ++loading;
  const opened = opening;
  let next;
  try {
    next = offline ? await offline.list(variant) : await api(`/api/puzzles?variant=${encodeURIComponent(variant)}`);
  } catch (err) {
    if (!offline && noNetwork(err) && gen === loading && (await goOffline())) {
      if (gen === loading) loadVariant(variant, wanted);
      return;
    }
    if (gen === loading) {
      const text = offline ? t('puzzles.offline_no_pack') : t('puzzles.load_failed', { error: errorText(err) });
      notify(pageStatus, text, 'error');
    }
    return;
  }
  if (gen !== loading) return; // another game was chosen meanwhile
  list = next;
  try {
    localStorage.setItem('bao.puzzles.variant', variant);
  } catch {
    // Not remembered.
  }
  if (!list.length) {
    puzzle = null;
    renderList();
    feedback(t('puzzles.none'));
    return;
  }
  if (opening !== opened) {
    renderList(); // the player opened a puzzle while the list was on its way
    return;
  }
  const solved = solvedSet();
  const first = list.find((p) => p.id === wanted) || list.find((p) => !solved.has(p.id)) || list[0];
  await open(first.id);
}

$('variant').addEventListener('change', (e) => loadVariant(e.target.value, null));
$('next').addEventListener('click', () => {
  if (!attemptSent && tried.length) sendAttempt(false);
  goNext();
});
$('theme').addEventListener('change', () => goNext());
$('streak-mode').addEventListener('change', () => goNext());
$('retry').addEventListener('click', () => puzzle && open(puzzle.id));
$('show').addEventListener('click', () => {
  if (!puzzle) return;
  // Seeing the solution before solving it is a miss.
  if (!done) sendAttempt(false);
  const s = $('solution');
  s.textContent = t('puzzles.solution', { moves: puzzle.moves.join(' ') });
  s.hidden = false;
});

const params = new URLSearchParams(location.search);
const wantedId = params.get('id');
let variant = params.get('variant') || (wantedId ? wantedId.split('-')[0] : null);
if (!variant) {
  try {
    variant = localStorage.getItem('bao.puzzles.variant');
  } catch {
    variant = null;
  }
}
if (!['kiswahili', 'kete', 'kimasai'].includes(variant)) variant = 'kiswahili';
$('variant').value = variant;
loadVariant(variant, wantedId);
