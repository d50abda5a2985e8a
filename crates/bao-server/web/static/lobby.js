// The lobby at the top of the home page (docs/api.md "Finding an opponent"): "Play now"
// (quick pairing for signed-in players, one button per clock), the open challenges (seeks)
// with Accept, "Post a challenge", the challenges sent to this player (Accept / Decline) and
// those it sent (Cancel). Every live event comes over the player socket (`/api/play/ws`, kept
// up by static/socket.js); when a game is made for this player the page goes to it by itself.
// Texts: `lobby.*`.

import { $, api, el, errorText, pref, VARIANT_TITLES } from './app.js';
import { keepSocket, showConnection } from './socket.js';
import { t } from './i18n.js';
import { onAccount, profileUrl } from './account.js';
import { saveSeat } from './seats.js';
import { challengeForm, CLOCKS, clockText, clockWords, lobbyError, termsText, VARIANTS } from './challenge-form.js';

const root = $('lobby');
const SEEK_KEY = 'bao.seekTokens';
const POOL_KEY = 'bao.poolTicket';
/** Guest seek tokens sent on the socket (the contract takes up to 3). */
const MAX_TOKENS = 3;
/** A waiting pool ticket is asked about this often while the player socket is not open
 *  (the open socket keeps it alive and says `paired`; docs/api.md, "The player socket"). */
const POOL_POLL_MS = 4000;

let signedIn = false;
let seeks = [];
let incoming = [];
let outgoing = [];
let socket = null;
let leaving = false;

// ---------- small stores ----------

/** The seeks this browser posted: [{id, token, at}] (a guest's proof; also its seat token). */
function seekTokens() {
  try {
    const list = JSON.parse(localStorage.getItem(SEEK_KEY) || '[]');
    return Array.isArray(list) ? list.filter((s) => s && typeof s.id === 'string' && typeof s.token === 'string') : [];
  } catch {
    return [];
  }
}
function setSeekTokens(list) {
  try {
    localStorage.setItem(SEEK_KEY, JSON.stringify(list.slice(0, MAX_TOKENS)));
  } catch {
    /* private mode: the seek lives while this page stays open */
  }
}
const tokenOf = (id) => seekTokens().find((s) => s.id === id)?.token || null;
const forgetSeek = (id) => setSeekTokens(seekTokens().filter((s) => s.id !== id));

function poolTicket() {
  try {
    const p = JSON.parse(sessionStorage.getItem(POOL_KEY) || 'null');
    return p && typeof p.ticket === 'string' ? p : null;
  } catch {
    return null;
  }
}
function setPoolTicket(p) {
  try {
    if (p) sessionStorage.setItem(POOL_KEY, JSON.stringify(p));
    else sessionStorage.removeItem(POOL_KEY);
  } catch {
    /* kept in memory below */
  }
  pool = p;
}
let pool = poolTicket();

/** Goes to a game made for this player (once: two events may announce the same game). */
function go(url, game) {
  if (leaving) return;
  leaving = true;
  root.dataset.state = 'leaving';
  location.assign(url || `/g/${encodeURIComponent(game)}`);
}

// ---------- the parts of the page ----------

const say = (box, text, kind = 'info') => {
  box.textContent = text || '';
  box.dataset.kind = kind;
  box.hidden = !text;
};

const lobbyStatus = $('lobby-status');

// Play now: the game chooser (three radio buttons) and one button per clock.
const QUICK = [
  ['5+3', () => t('lobby.quick_5_3')],
  ['10+5', () => t('lobby.quick_10_5')],
  ['1d', () => t('lobby.quick_1d')],
];

function chosenVariant() {
  return root.querySelector('input[name="lobby-variant"]:checked')?.value || 'kiswahili';
}

function drawQuick() {
  const saved = pref('lobbyVariant', 'kiswahili');
  $('lobby-variants').replaceChildren(
    ...VARIANTS.map((v) =>
      el(
        'label',
        { class: 'segment' },
        el('input', { type: 'radio', name: 'lobby-variant', value: v, checked: v === (VARIANTS.includes(saved) ? saved : 'kiswahili') }),
        el('span', {}, VARIANT_TITLES[v].replace(/^Bao la /, '')),
      ),
    ),
  );
  $('lobby-variants').addEventListener('change', () => {
    try {
      localStorage.setItem('bao.lobbyVariant', JSON.stringify(chosenVariant()));
    } catch {
      /* remembered for this page only */
    }
  });
  $('quick-buttons').replaceChildren(
    ...QUICK.map(([key, text]) =>
      el(
        'button',
        {
          type: 'button',
          class: 'primary quick',
          'data-clock': key,
          // The visible words first (WCAG 2.5.3), then the clock in full.
          'aria-label': `${text()}: ${clockWords(CLOCKS[key])}`,
          onclick: () => joinPool(key),
        },
        text(),
      ),
    ),
  );
}

// ---------- quick pairing (accounts only) ----------

let poolTimer = null;
let pollTimer = null;

function drawPool() {
  const waiting = !!pool;
  $('pool-wait').hidden = !waiting;
  for (const b of $('quick-buttons').querySelectorAll('button')) {
    b.disabled = waiting;
    b.setAttribute('aria-pressed', String(waiting && b.dataset.clock === pool.key));
  }
  root.dataset.pool = waiting ? 'waiting' : 'idle';
  clearInterval(poolTimer);
  clearTimeout(pollTimer);
  if (!waiting) return;
  $('pool-what').textContent = t('lobby.pool_looking', { game: VARIANT_TITLES[pool.variant] || pool.variant, clock: clockText(CLOCKS[pool.key]) });
  const tick = () => {
    // The ticket may be gone (paired, cancelled) before the next tick.
    if (!pool) {
      clearInterval(poolTimer);
      return;
    }
    const s = Math.max(0, Math.floor((Date.now() - pool.since) / 1000));
    $('pool-time').textContent = `(${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')})`;
  };
  tick();
  poolTimer = setInterval(tick, 1000);
  pollPool();
}

/** Asks about the ticket again later, only while the socket is not open to tell us. */
function pollPool() {
  clearTimeout(pollTimer);
  if (pool && root.dataset.socket !== 'open') pollTimer = setTimeout(checkPool, POOL_POLL_MS);
}

async function joinPool(key) {
  if (!signedIn || pool) return;
  say(lobbyStatus, '');
  const variant = chosenVariant();
  try {
    const r = await api('/api/pool', { method: 'POST', body: { variant, clock: CLOCKS[key] } });
    setPoolTicket({ ticket: r.ticket, variant, key, since: Date.now() });
    drawPool();
    $('pool-cancel').focus();
  } catch (err) {
    say(lobbyStatus, lobbyError(err, { pool: true }), 'error');
  }
}

/** Asks about the ticket: paired (go to the game), waiting (ask again later) or gone. */
async function checkPool() {
  const p = pool;
  if (!p) return;
  try {
    const r = await api(`/api/pool/${encodeURIComponent(p.ticket)}`);
    if (pool !== p) return;
    if (r.status === 'paired') return go(r.url, r.game);
    drawPool();
  } catch (err) {
    if (pool !== p) return;
    if (err.status === 404 || err.status === 401 || err.status === 403) {
      // The ticket left the pool (the page was away too long): say so, offer the buttons again.
      setPoolTicket(null);
      drawPool();
      say(lobbyStatus, t('lobby.pool_gone'), 'error');
    } else {
      pollTimer = setTimeout(checkPool, POOL_POLL_MS);
    }
  }
}

async function leavePool() {
  const p = pool;
  if (!p) return;
  // The buttons come back only once the server has let the ticket go: asked again before
  // that, it would answer with the same ticket, about to be deleted.
  $('pool-cancel').disabled = true;
  clearTimeout(pollTimer);
  try {
    await api(`/api/pool/${encodeURIComponent(p.ticket)}`, { method: 'DELETE', body: {} });
  } catch {
    /* a ticket nobody keeps alive leaves the pool by itself */
  }
  $('pool-cancel').disabled = false;
  if (pool !== p) return; // paired meanwhile: the page is on its way to the game
  setPoolTicket(null);
  drawPool();
  say(lobbyStatus, t('lobby.pool_cancelled'));
  $('quick-buttons').querySelector('button')?.focus();
}

// ---------- open challenges (seeks) ----------

function seekItem(s) {
  const terms = termsText(s);
  const who = s.rating ? `${s.by} (${s.rating})` : s.by;
  const mine = s.mine || !!tokenOf(s.id);
  const button = mine
    ? el('button', { type: 'button', class: 'seek-cancel', 'aria-label': t('lobby.seek_cancel_label', { terms }), onclick: () => cancelSeek(s.id) }, t('lobby.cancel'))
    : el('button', { type: 'button', class: 'primary seek-accept', 'aria-label': t('lobby.accept_label', { name: s.by, terms }), onclick: (e) => acceptSeek(s, e.currentTarget) }, t('lobby.accept'));
  return el(
    'li',
    { 'data-seek': s.id, class: mine ? 'mine' : null },
    el('div', { class: 'who' }, mine ? el('strong', {}, t('lobby.seek_yours')) : el('span', { class: 'name' }, who), el('div', { class: 'meta' }, terms)),
    button,
  );
}

function drawSeeks() {
  const list = $('seek-list');
  list.replaceChildren(...(seeks.length ? seeks.map(seekItem) : [el('li', { class: 'muted empty' }, t('lobby.seeks_empty'))]));
  list.dataset.state = 'ready';
  const waiting = seeks.some((s) => s.mine || tokenOf(s.id));
  $('seek-waiting').hidden = !waiting;
}

let seeksBusy = false;
let seeksAgain = false;
async function loadSeeks() {
  if (seeksBusy) {
    seeksAgain = true;
    return;
  }
  seeksBusy = true;
  do {
    seeksAgain = false;
    try {
      const r = await api('/api/seeks');
      seeks = Array.isArray(r.seeks) ? r.seeks.slice(0, 50) : [];
      drawSeeks();
    } catch (err) {
      $('seek-list').replaceChildren(el('li', { class: 'muted' }, t('lobby.seeks_unavailable', { error: errorText(err) })));
      $('seek-list').dataset.state = 'error';
    }
  } while (seeksAgain);
  seeksBusy = false;
}

async function acceptSeek(s, button) {
  button.disabled = true;
  say(lobbyStatus, t('lobby.accepting'));
  try {
    const body = signedIn ? {} : { name: pref('name', '') || t('home.default_name') };
    const r = await api(`/api/seeks/${encodeURIComponent(s.id)}/accept`, { method: 'POST', body });
    // A guest's seat: the token (the server has set the seat cookie too).
    if (r.token) saveSeat({ id: r.game, token: r.token, side: r.seat, name: body.name || null, variant: s.variant });
    go(r.url, r.game);
  } catch (err) {
    button.disabled = false;
    say(lobbyStatus, lobbyError(err, { rated: s.rated }), 'error');
    if (err.category === 'seek_taken' || err.status === 404) loadSeeks();
  }
}

async function cancelSeek(id) {
  const token = tokenOf(id);
  try {
    await api(`/api/seeks/${encodeURIComponent(id)}`, { method: 'DELETE', body: {}, headers: token ? { Authorization: `Bearer ${token}` } : {} });
    say(lobbyStatus, t('lobby.seek_cancelled'));
  } catch (err) {
    if (err.status !== 404) return say(lobbyStatus, lobbyError(err), 'error');
  }
  forgetSeek(id);
  seeks = seeks.filter((s) => s.id !== id);
  drawSeeks();
  connect();
}

/** A seek of this browser was accepted: the seat cookie (a guest's), then the game. */
async function seekAccepted(id, game, url) {
  const token = tokenOf(id);
  if (token) {
    try {
      // Sets the seat cookie bao_{game} for a guest owner (docs/api.md "Finding an opponent").
      const r = await api(`/api/seeks/${encodeURIComponent(id)}`, { headers: { Authorization: `Bearer ${token}` } });
      game = r.game || game;
      url = r.url || url;
    } catch {
      /* the token is the seat token all the same (kept below) */
    }
    if (game && !signedIn) saveSeat({ id: game, token, name: pref('name', '') || null });
    forgetSeek(id);
  }
  if (game || url) go(url, game);
}

/** On every (re)connect: the seeks of this browser that were accepted meanwhile. */
async function checkMySeeks() {
  for (const s of seekTokens()) {
    try {
      const r = await api(`/api/seeks/${encodeURIComponent(s.id)}`, { headers: { Authorization: `Bearer ${s.token}` } });
      if (r.status === 'accepted') return seekAccepted(s.id, r.game, r.url);
    } catch (err) {
      if (err.status === 404) forgetSeek(s.id);
    }
  }
}

// Post a challenge.
const post = challengeForm({
  id: 'seek-form',
  submitText: t('lobby.post_submit'),
  onSubmit: async (terms) => {
    const body = { ...terms, rules: '-' };
    if (!signedIn) body.name = pref('name', '') || t('home.default_name');
    const r = await api('/api/seeks', { method: 'POST', body });
    setSeekTokens([{ id: r.id, token: r.token, at: Date.now() }, ...seekTokens().filter((s) => s.id !== r.id)]);
    togglePost(false);
    say(lobbyStatus, t('lobby.seek_posted'));
    // A new token on the socket keeps the new seek alive.
    connect();
    loadSeeks();
  },
});
post.form.hidden = true;

function togglePost(open) {
  post.form.hidden = !open;
  $('post-seek').setAttribute('aria-expanded', String(open));
  if (open) post.form.querySelector('select')?.focus();
}

// ---------- direct challenges (accounts only) ----------

function challengeItem(c, dir) {
  const terms = termsText(c);
  const name = dir === 'in' ? c.from : c.to;
  const who = el('a', { href: profileUrl(name) }, name);
  const buttons =
    dir === 'in'
      ? [
          el('button', { type: 'button', class: 'primary', 'data-action': 'accept', 'aria-label': t('lobby.accept_label', { name, terms }), onclick: (e) => answer(c, 'accept', e.currentTarget) }, t('lobby.accept')),
          el('button', { type: 'button', 'data-action': 'decline', 'aria-label': t('lobby.decline_label', { name }), onclick: (e) => answer(c, 'decline', e.currentTarget) }, t('lobby.decline')),
        ]
      : [el('button', { type: 'button', 'data-action': 'cancel', 'aria-label': t('lobby.challenge_cancel_label', { name }), onclick: (e) => answer(c, 'cancel', e.currentTarget) }, t('lobby.cancel'))];
  return el(
    'li',
    { 'data-challenge': c.id },
    el('div', { class: 'who' }, dir === 'in' ? t('lobby.from') : t('lobby.to'), ' ', who, el('div', { class: 'meta' }, terms)),
    el('span', { class: 'row' }, ...buttons),
  );
}

/** A challenge as a row of "My games" (static/home.js): a game waiting for an answer. */
function myChallengeItem(c, dir) {
  const name = dir === 'in' ? c.from : c.to;
  const item = challengeItem(c, dir);
  item.dataset.dir = dir;
  item.querySelector('.who').replaceChildren(
    dir === 'in' ? t('lobby.mine_from') : t('lobby.mine_to'),
    ' ',
    el('a', { href: profileUrl(name) }, name),
    el('div', { class: 'meta' }, termsText(c), ' · ', dir === 'in' ? t('lobby.mine_your_answer') : t('lobby.mine_their_answer', { name })),
  );
  return item;
}

function drawChallenges() {
  rematches = rematches.filter((r) => r.until > Date.now());
  $('incoming').hidden = incoming.length === 0 && rematches.length === 0;
  $('incoming-list').replaceChildren(...rematches.map(rematchItem), ...incoming.map((c) => challengeItem(c, 'in')));
  // Both directions are also rows of "My games", where a player looks for what waits on them.
  const mine = $('my-challenges');
  if (mine) {
    mine.replaceChildren(...incoming.map((c) => myChallengeItem(c, 'in')), ...outgoing.map((c) => myChallengeItem(c, 'out')));
    document.dispatchEvent(new CustomEvent('bao:challenges'));
  }
}

async function loadChallenges() {
  if (!signedIn) {
    incoming = [];
    outgoing = [];
    return drawChallenges();
  }
  try {
    const r = await api('/api/challenges');
    incoming = r.incoming || [];
    outgoing = r.outgoing || [];
    drawChallenges();
  } catch {
    /* the next event or reconnect asks again */
  }
}

async function answer(c, what, button) {
  button.disabled = true;
  const id = encodeURIComponent(c.id);
  try {
    if (what === 'accept') {
      const r = await api(`/api/challenges/${id}/accept`, { method: 'POST', body: {} });
      return go(r.url, r.game);
    }
    if (what === 'decline') await api(`/api/challenges/${id}/decline`, { method: 'POST', body: {} });
    else await api(`/api/challenges/${id}`, { method: 'DELETE', body: {} });
    say(lobbyStatus, what === 'decline' ? t('lobby.challenge_declined_you') : t('lobby.challenge_cancelled_you'));
  } catch (err) {
    button.disabled = false;
    say(lobbyStatus, lobbyError(err), 'error');
    if (err.status !== 404) return;
  }
  incoming = incoming.filter((x) => x.id !== c.id);
  outgoing = outgoing.filter((x) => x.id !== c.id);
  drawChallenges();
}

function challengeGone(msg) {
  const out = outgoing.find((x) => x.id === msg.id);
  incoming = incoming.filter((x) => x.id !== msg.id);
  outgoing = outgoing.filter((x) => x.id !== msg.id);
  drawChallenges();
  if (!out) return;
  // Our challenge was accepted: the game is ready, go to it.
  if (msg.why === 'accepted' && (msg.url || msg.game)) return go(msg.url, msg.game);
  if (msg.why === 'declined') say(lobbyStatus, t('lobby.challenge_declined', { name: out.to }));
  else if (msg.why === 'expired') say(lobbyStatus, t('lobby.challenge_expired', { name: out.to }));
}

// ---------- rematch offers (docs/api.md "Play: rematch") ----------

let rematches = []; // {game, from, url, until}: offers made to this account in finished games
let rematchTimer = null;

function rematchItem(r) {
  const name = r.from;
  return el(
    'li',
    { 'data-rematch': r.game },
    el('div', { class: 'who' }, t('lobby.rematch_from', { name })),
    el(
      'span',
      { class: 'row' },
      el('button', { type: 'button', class: 'primary', 'data-action': 'accept', 'aria-label': t('lobby.rematch_accept_label', { name }), onclick: (e) => answerRematch(r, 'accept', e.currentTarget) }, t('lobby.accept')),
      el('button', { type: 'button', 'data-action': 'decline', 'aria-label': t('lobby.rematch_decline_label', { name }), onclick: (e) => answerRematch(r, 'decline', e.currentTarget) }, t('lobby.decline')),
    ),
  );
}

/** An offer from the player socket: shown until it lapses (its player may leave sooner: then Accept says so). */
function rematchOffered(msg) {
  if (!msg.game) return;
  rematches = rematches.filter((r) => r.game !== msg.game);
  rematches.unshift({ game: msg.game, from: msg.from, url: msg.url, until: Date.now() + (msg.expires_in_ms || 0) });
  drawChallenges();
  clearTimeout(rematchTimer);
  const next = Math.min(...rematches.map((r) => r.until));
  rematchTimer = setTimeout(drawChallenges, Math.max(0, next - Date.now()) + 50);
}

async function answerRematch(r, what, button) {
  button.disabled = true;
  const path = `/api/games/${encodeURIComponent(r.game)}/rematch`;
  try {
    if (what === 'accept') {
      const made = await api(path, { method: 'POST', body: { accept: true } });
      return go(made.url, made.id);
    }
    await api(`${path}/decline`, { method: 'POST', body: {} });
    say(lobbyStatus, t('lobby.rematch_declined_you', { name: r.from }));
  } catch (err) {
    say(lobbyStatus, lobbyError(err), 'error');
  }
  rematches = rematches.filter((x) => x.game !== r.game);
  drawChallenges();
}

// ---------- games made for this account elsewhere (a tournament round, another page) ----------

let ready = [];

function drawReady() {
  $('ready').hidden = ready.length === 0;
  $('ready-list').replaceChildren(
    ...ready.map((g) => {
      const vs = t('lobby.ready_against', { name: g.opponent });
      return el(
        'li',
        { 'data-game': g.id },
        el('div', { class: 'who' }, vs, el('div', { class: 'meta' }, g.variant)),
        el('a', { class: 'button primary', href: `/g/${encodeURIComponent(g.id)}`, 'aria-label': t('lobby.ready_play_label', { name: g.opponent }) }, t('lobby.ready_play')),
      );
    }),
  );
}

/** A game got a seat of this account: shown at the top with Play, and "My games" asks again. */
async function gameReady(id) {
  if (leaving || ready.some((g) => g.id === id)) return;
  document.dispatchEvent(new CustomEvent('bao:games'));
  let st;
  try {
    st = await api(`/api/games/${encodeURIComponent(id)}`);
  } catch {
    return;
  }
  // Only a game this browser's account plays, still going.
  if (!st.you || st.result !== '-' || st.match?.over || ready.some((g) => g.id === id)) return;
  const other = st.you === 'S' ? 'N' : 'S';
  ready.unshift({ id, opponent: st.players?.[other]?.name || t('mine.guest'), variant: VARIANT_TITLES[st.variant] || st.variant });
  ready = ready.slice(0, 5);
  drawReady();
}

// ---------- the player socket ----------

function socketPath() {
  const q = seekTokens()
    .slice(0, MAX_TOKENS)
    .map((s) => `seek=${encodeURIComponent(s.token)}`)
    .join('&');
  return `/api/play/ws${q ? `?${q}` : ''}`;
}

/** Opens the player socket, or opens it again (with other seek tokens). */
function connect() {
  if (socket) socket.close();
  socket = keepSocket(socketPath(), {
    onOpen() {
      root.dataset.socket = 'open';
      // Loaded after the socket is open, so that no change falls between the two.
      loadSeeks();
      loadChallenges();
      checkMySeeks();
      if (pool) checkPool();
    },
    onResume() {
      loadSeeks();
    },
    onMessage(msg) {
      switch (msg.type) {
        case 'seeks':
          loadSeeks();
          break;
        case 'seek_accepted':
          seekAccepted(msg.seek, msg.game, msg.url);
          break;
        case 'paired':
          setPoolTicket(null);
          go(msg.url, msg.game);
          break;
        case 'challenge':
          if (msg.challenge && !incoming.some((c) => c.id === msg.challenge.id)) {
            incoming.unshift(msg.challenge);
            drawChallenges();
          }
          break;
        case 'challenge_gone':
          challengeGone(msg);
          break;
        case 'game':
          if (msg.game) gameReady(msg.game);
          break;
        case 'rematch':
          rematchOffered(msg);
          break;
        default:
      }
    },
    onStatus(st, info) {
      if (st !== 'open') {
        root.dataset.socket = st;
        pollPool();
      }
      showConnection($('lobby-connection'), st, info, () => socket && socket.reconnect(), { open: ' ' });
    },
  });
}

// ---------- start ----------

function init() {
  drawQuick();
  $('pool-cancel').addEventListener('click', leavePool);
  $('post-seek').closest('.lobby-head').after(post.form);
  $('post-seek').setAttribute('aria-controls', 'seek-form');
  $('post-seek').addEventListener('click', () => togglePost(post.form.hidden));
  let first = true;
  onAccount((name) => {
    const was = signedIn;
    signedIn = !!name;
    root.dataset.account = signedIn ? 'in' : 'out';
    $('quick-buttons').hidden = !signedIn;
    $('lobby-variants').hidden = !signedIn;
    $('quick-guest').hidden = signedIn;
    // A guest can accept and post challenges, not pair (accounts only): the challenges come
    // first, the short note about signing in after them.
    const playNow = $('play-now-title').closest('section');
    if (signedIn) $('seeks-title').closest('section').before(playNow);
    else $('seeks-title').closest('section').after(playNow);
    post.rated(signedIn);
    if (!signedIn && pool) setPoolTicket(null);
    drawPool();
    // Signing in or out in another tab: the socket carries the other session now.
    if (!first && was !== signedIn) connect();
  });
  first = false;
  connect();
  // At once, not only once the socket is open: the lists show even where sockets fail.
  loadSeeks();
  loadChallenges();
}

if (root) init();
