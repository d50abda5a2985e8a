// Home page: start a game in one tap ("Start playing": the computer, a friend) or with every
// choice (variant, rule options, opponent, seats, match), and list games to watch: one small
// page of each list, then kept up to date from the lobby socket.

import { $, otherSide, api, el, errorText, notify, playerName, pref, setPref, VARIANT_TITLES } from './app.js';
import { keepSocket, showConnection } from './socket.js';
import { seats, seatOf, saveSeat, forgetSeat, fetchMine, turnOf } from './seats.js';
import { turnIs, alertSettings } from './alerts.js';
import { t, tn } from './i18n.js';
import { offlineStart } from './offline-home.js';
import { addStartOptions, startOptions } from './play.js';
import { addRatedOption, ratedOption } from './rated.js';
import { optionHelp, optionName, optionValue as valueWords, rulesInWords } from './words.js';
import { onAccount } from './account.js';
import { showDailyPuzzles } from './daily-puzzles.js';

const BLURB = {
  kiswahili: () => t('home.blurb_kiswahili'),
  kete: () => t('home.blurb_kete'),
  kimasai: () => t('home.blurb_kimasai'),
};

// `match` is chosen with its own control (single game or best of three), so it is not
// listed among the rule options.
const HIDDEN_OPTIONS = new Set(['match']);

const form = $('new-game');
addStartOptions(form);
addRatedOption(form);
const status = $('form-status');
let variants = [];

function currentVariant() {
  const v = form.querySelector('input[name="variant"]:checked');
  return variants.find((x) => x.id === (v ? v.value : 'kiswahili')) || variants[0];
}

function renderVariants() {
  const box = $('variants');
  const wanted = variants.some((v) => v.id === rememberedVariant()) ? rememberedVariant() : variants[0]?.id;
  box.replaceChildren(
    ...variants.map((v) =>
      el(
        'label',
        { class: 'choice-card' },
        el('input', { type: 'radio', name: 'variant', value: v.id, checked: v.id === wanted, onchange: renderOptions }),
        el(
          'span',
          { class: 'card' },
          el('strong', {}, v.title || VARIANT_TITLES[v.id] || v.id),
          BLURB[v.id] ? BLURB[v.id]() : '',
          ' ',
          el('a', { href: `/rules/${v.id}`, class: 'small' }, t('home.rules_link')),
        ),
      ),
    ),
  );
  renderOptions();
}

function renderOptions() {
  const v = currentVariant();
  const box = $('options');
  if (!v) return;
  const rows = (v.options || [])
    .filter((o) => !HIDDEN_OPTIONS.has(o.name))
    .map((o) => {
      const id = `opt-${o.name}`;
      const def = String(o.default);
      const values = (o.values && o.values.length ? o.values : [def]).map(String);
      // A value like "2..64" or "1.." is a range of numbers (house_functional_min, max_plies).
      const range = values.find((x) => /^\d+\.\.\d*$/.test(x));
      let control;
      if (range) {
        const [min, max] = range.split('..');
        const none = values.includes('none');
        control = el('input', {
          type: 'number',
          id,
          name: o.name,
          min,
          max: max || null,
          step: 1,
          inputmode: 'numeric',
          value: def === 'none' ? '' : def,
          placeholder: none ? t('home.option_no_limit') : null,
          'data-option': o.name,
          'data-default': def,
          'data-none': none ? 'true' : null,
          'aria-describedby': `${id}-help`,
        });
      } else {
        if (!values.includes(def)) values.unshift(def);
        control = el(
          'select',
          { id, name: o.name, 'data-option': o.name, 'data-default': def, 'aria-describedby': `${id}-help` },
          values.map((val) => el('option', { value: val, selected: val === def }, val === def ? t('home.option_default_value', { value: valueWords(o.name, val) }) : valueWords(o.name, val))),
        );
      }
      // Words from the catalogs (static/words.js); the server's English help only for an
      // option this page does not know yet.
      const text = optionHelp(o.name) || o.help || '';
      const help = range ? `${text} ${t('home.option_default_is', { value: valueWords(o.name, def) })}` : text;
      const row = el('div', { class: 'option' }, el('label', { for: id, 'data-changed': t('home.option_changed') }, optionName(o.name)), control, el('p', { class: 'help', id: `${id}-help` }, help));
      const changed = () => {
        row.classList.toggle('changed', optionValue(control) !== def);
        updateSummary();
      };
      control.addEventListener('change', changed);
      control.addEventListener('input', changed);
      return row;
    });
  box.replaceChildren(...(rows.length ? rows : [el('p', { class: 'muted' }, t('home.no_options'))]));
  const match = (v.options || []).find((o) => o.name === 'match');
  if (match) $('match').value = String(match.default);
  updateSummary();
}

/** The option string (OPT-1): only the options changed from the variant's defaults, or "-". */
function optionValue(c) {
  const v = c.value.trim();
  if (c.dataset.none && v === '') return 'none';
  return v;
}

function rulesString() {
  const parts = [];
  for (const c of document.querySelectorAll('#options [data-option]')) {
    const v = optionValue(c);
    if (v !== c.dataset.default) parts.push(`${c.dataset.option}=${v}`);
  }
  return parts.length ? parts.join(',') : '-';
}

function updateSummary() {
  const r = rulesString();
  $('options-summary').textContent = r === '-' ? t('home.options_all_default') : t('home.options_changed', { n: r.split(',').length, list: rulesInWords(r).join('; ') });
}

$('reset-options').addEventListener('click', renderOptions);

const level = $('level');
level.addEventListener('input', () => {
  $('level-value').textContent = level.value;
});
for (const r of form.querySelectorAll('input[name="opponent"]')) {
  r.addEventListener('change', () => {
    const computer = form.querySelector('input[name="opponent"]:checked').value === 'computer';
    $('level-row').hidden = !computer;
    $('level-help').hidden = !computer;
  });
}

/**
 * Starts the game of the create request `body` and goes to it: in this browser when asked for
 * (the form's "play in this browser", `choice`) or when the network is gone, else on the
 * server. `status` says what happens; `button` is disabled meanwhile; `name` is the name the
 * player typed (kept with the seat). Returns the server's refusal (the button usable again),
 * or null when the page is on its way to the game.
 */
async function startGame(body, { status, button, choice, name }) {
  button.disabled = true;
  if (await offlineStart(body, status, false, { choice, button })) return null; // played in this browser (chosen, or offline)
  notify(status, t('home.starting'));
  try {
    const game = await api('/api/games', { method: 'POST', body });
    saveSeat({ id: game.id, token: game.token, side: game.seat, name: name || null, variant: body.variant });
    location.assign(game.url || `/g/${game.id}`);
    return null;
  } catch (err) {
    if (err.status === 0 && (await offlineStart(body, status, true, { choice, button }))) return null; // the server is out of reach
    notify(status, errorText(err), 'error');
    button.disabled = false;
    return err;
  }
}

/** The player's name as typed in the form (or last used); without one "Player" is sent. */
function playerNameOf() {
  return $('name').value.trim() || pref('name', '') || '';
}

form.addEventListener('submit', async (e) => {
  e.preventDefault();
  const v = currentVariant();
  if (!v) return;
  const opponentKind = form.querySelector('input[name="opponent"]:checked').value;
  const body = {
    variant: v.id,
    rules: rulesString(),
    opponent: opponentKind === 'computer' ? { kind: 'computer', level: Number(level.value) } : { kind: 'human' },
    side: $('side').value,
    match: $('match').value,
  };
  Object.assign(body, startOptions(form), ratedOption(form));
  const start = $('start').value.trim();
  if (start) body.start = start;
  const name = $('name').value.trim();
  // Without a name the player is called "Player" in the page's language (kept in the record).
  body.name = name || t('home.default_name');
  setPref('name', name);
  // "Start playing" offers the same game and level next time.
  setPref('variant', v.id);
  if (opponentKind === 'computer') setPref('level', Number(level.value));
  drawQuickStart();
  const err = await startGame(body, { status, button: $('start-button'), choice: true, name });
  if (err?.category === 'bad_position') $('start-box').open = true;
  if (err?.category === 'bad_rules') $('options-box').open = true;
});

// ---------- Start playing: one tap ----------

/** The computer's level of "Play the computer": the last one chosen, else an easy one. */
const QUICK_LEVEL = 2;
function rememberedVariant() {
  const v = pref('variant', 'kiswahili');
  return VARIANT_TITLES[v] ? v : 'kiswahili';
}
function quickLevel() {
  const n = Number(pref('level', QUICK_LEVEL));
  return Number.isInteger(n) && n >= 1 && n <= 8 ? n : QUICK_LEVEL;
}

function drawQuickStart() {
  $('play-computer-what').textContent = t('home.quick_computer_what', { game: VARIANT_TITLES[rememberedVariant()], level: quickLevel() });
}

/**
 * Starts a one-tap game against `opponent`: the remembered game with its default rules, one
 * game, no clock (the form has the rest); against the computer the player moves first (South).
 */
function quickStart(opponent, button) {
  const name = playerNameOf();
  const body = {
    variant: rememberedVariant(),
    rules: '-',
    opponent,
    side: opponent.kind === 'computer' ? 'S' : 'random',
    match: 'single_game',
    name: name || t('home.default_name'),
  };
  return startGame(body, { status: $('quick-status'), button, choice: false, name });
}

$('play-computer').addEventListener('click', (e) => quickStart({ kind: 'computer', level: quickLevel() }, e.currentTarget));
$('invite-friend').addEventListener('click', (e) => quickStart({ kind: 'human' }, e.currentTarget));
drawQuickStart();

/**
 * A guest's first screen starts with "Start playing"; a signed-in player's with the lobby
 * ("Play now", challenges), "Start playing" right under it.
 */
onAccount((name) => {
  const top = $('home-top');
  if (name) top.append($('start-here'));
  else top.prepend($('start-here'));
});

function gameItem(g, live) {
  const players = g.players || {};
  const title = t('home.versus', { south: playerName(players.S), north: playerName(players.N) });
  let result = null;
  if (g.result === 'draw') result = t('home.result_draw');
  else if (g.result === 'S') result = t('home.result_south_won');
  else if (g.result === 'N') result = t('home.result_north_won');
  return el(
    'li',
    {},
    el(
      'div',
      {},
      el('div', {}, title),
      el('div', { class: 'meta' }, `${VARIANT_TITLES[g.variant] || g.variant} · ${tn('home.moves', g.ply)}${result ? ` · ${result}` : ''}`),
    ),
    live
      ? el('a', { class: 'button', href: `/g/${g.id}`, 'aria-label': t('home.watch_label', { title }) }, t('home.watch'))
      : el('a', { class: 'button', href: `/replay?game=${encodeURIComponent(g.id)}`, 'aria-label': t('home.replay_label', { title }) }, t('home.replay')),
  );
}

/** Games shown per list: one small page of the paginated list API. */
const PAGE = 12;
const lists = {
  live: { id: 'live-games', live: true, games: [], empty: () => t('home.live_empty') },
  finished: { id: 'finished-games', live: false, games: [], empty: () => t('home.finished_empty') },
};

function drawList(status) {
  const l = lists[status];
  const list = $(l.id);
  list.replaceChildren(...(l.games.length ? l.games.map((g) => gameItem(g, l.live)) : [el('li', { class: 'muted' }, l.empty())]));
}

/** Loads the first page of each list once (`{"games": [...], "next": cursor}`). */
async function loadGames() {
  for (const status of Object.keys(lists)) {
    try {
      const page = await api(`/api/games?status=${status}&limit=${PAGE}`);
      // A server from before pagination answers a plain array.
      lists[status].games = (Array.isArray(page) ? page : page.games || []).slice(0, PAGE);
      drawList(status);
    } catch (err) {
      $(lists[status].id).replaceChildren(el('li', { class: 'muted' }, t('home.list_unavailable', { error: errorText(err) })));
    }
  }
}

/** A lobby batch: each changed game moves to the top of its list (newest first). */
function applyBatch(games) {
  const touched = new Set();
  for (const g of [...games].reverse()) {
    for (const [status, l] of Object.entries(lists)) {
      const before = l.games.length;
      l.games = l.games.filter((x) => x.id !== g.id);
      if (l.games.length !== before) touched.add(status);
    }
    const l = lists[g.status];
    if (!l) continue;
    l.games.unshift(g);
    l.games.length = Math.min(l.games.length, PAGE);
    touched.add(g.status);
  }
  for (const status of touched) drawList(status);
}

/**
 * Follows the lists over the lobby socket (docs/api.md, Lobby): a batch of changed games
 * at most once a second (static/socket.js keeps it up). While it is down the lists are
 * loaded again now and then.
 */
let fallback = null;
let lobby = null;
function connectLobby() {
  lobby = keepSocket('/api/lobby/ws', {
    onOpen() {
      clearInterval(fallback);
      fallback = null;
      // Loaded after the socket is open, so no change falls between the two.
      loadGames();
      refreshMine();
    },
    onResume() {
      refreshMine();
    },
    onMessage(msg) {
      if (msg.type === 'games' && Array.isArray(msg.games)) {
        applyBatch(msg.games);
        if (msg.more || msg.games.some((g) => seatOf(g.id) || mineGames.some((x) => x.id === g.id))) refreshMine();
      } else if (msg.type === 'reload') {
        loadGames();
        refreshMine();
      }
    },
    onStatus(st, info) {
      showConnection($('mine-connection'), st, info, () => lobby && lobby.reconnect());
      if (st === 'reconnecting' || st === 'lost') startFallback();
    },
  });
}

function startFallback() {
  if (fallback) return;
  loadGames();
  fallback = setInterval(() => {
    if (document.visibilityState === 'visible') {
      loadGames();
      refreshMine();
    }
  }, 30000);
}

// ---------- My games (static/seats.js, POST /api/games/mine) ----------
const mineBox = el(
  'section',
  { class: 'panel', id: 'my-games', 'aria-labelledby': 'my-games-title', hidden: true },
  el('h2', { id: 'my-games-title' }, t('mine.title')),
  // Challenges sent and received (filled by static/lobby.js): games waiting for an answer.
  el('ul', { class: 'lobby-list', id: 'my-challenges', 'aria-live': 'polite' }),
  el('ul', { class: 'game-list', id: 'my-games-list', 'aria-live': 'polite' }),
  el('p', { class: 'small muted', id: 'mine-connection' }),
  el('details', { class: 'small' }, el('summary', {}, t('mine.alerts_title')), alertSettings()),
);
// Right after the lobby (static/lobby.js) and "Start playing": a returning player comes back
// for these (on a phone the start form and the hero would push them far down).
mineBox.classList.add('my-games');
if ($('home-top')) $('home-top').after(mineBox);
else $('main')?.prepend(mineBox);

function opponentOf(g) {
  const side = otherSide(g.your_side);
  const p = g.players?.[side];
  if (g.waiting || !p) return t('mine.no_opponent');
  if (p.kind === 'computer') return t('mine.computer', { level: p.level ?? '?' });
  return p.name || t('mine.guest');
}

function turnText(g, turn) {
  if (turn === 'your') return t('mine.your_move');
  if (turn === 'their') return t('mine.their_move');
  if (turn === 'waiting') return t('mine.waiting');
  if (g.result === 'draw') return t('mine.drawn');
  if (g.result === g.your_side) return t('mine.you_won');
  if (g.result === 'S' || g.result === 'N') return t('mine.you_lost');
  return t('mine.finished');
}

function mineItem(g) {
  const turn = turnOf(g);
  const variant = VARIANT_TITLES[g.variant] || g.variant;
  // Before anyone joins there is nobody to be "against": the variant names the game.
  const vs = g.waiting ? variant : t('mine.versus', { name: opponentOf(g) });
  return el(
    'li',
    { 'data-game': g.id, 'data-turn': turn, class: turn === 'your' ? 'your-move' : null },
    el(
      'div',
      {},
      el('div', {}, vs),
      el('div', { class: 'meta' }, el('strong', { class: `turn-${turn}` }, turnText(g, turn)), g.waiting ? '' : ` · ${variant}`),
    ),
    el(
      'span',
      { class: 'row' },
      // The name starts with the visible word (WCAG 2.5.3 "Label in Name"), then says which game.
      el('a', { class: `button${turn === 'your' ? ' primary' : ''}`, href: `/g/${encodeURIComponent(g.id)}`, 'aria-label': `${turn === 'your' ? t('mine.play') : t('mine.open')}: ${vs}, ${turnText(g, turn)}` }, turn === 'your' ? t('mine.play') : t('mine.open')),
      // A finished game's mistakes become exercises once the engine has reviewed it.
      turn === 'over'
        ? el('a', { class: 'button', href: `/replay?game=${encodeURIComponent(g.id)}&review=1&practice=1`, 'aria-label': t('mine.practise_label', { name: opponentOf(g) }) }, t('mine.practise'))
        : null,
      turn === 'over'
        ? el(
            'button',
            {
              type: 'button',
              class: 'remove',
              'aria-label': t('mine.remove_label', { name: opponentOf(g) }),
              onclick: () => {
                forgetSeat(g.id);
                mineGames = mineGames.filter((x) => x.id !== g.id);
                drawMine();
              },
            },
            t('mine.remove'),
          )
        : null,
    ),
  );
}

let mineGames = [];
function drawMine() {
  const challenges = $('my-challenges').children.length;
  mineBox.hidden = mineGames.length === 0 && seats().length === 0 && challenges === 0;
  $('my-games-list').replaceChildren(
    ...(mineGames.length
      ? mineGames.map(mineItem)
      : challenges
        ? []
        : [el('li', { class: 'muted' }, mineBox.dataset.loaded ? t('mine.none') : t('mine.loading'))]),
  );
}
document.addEventListener('bao:challenges', drawMine);
// A game made for this account elsewhere (static/lobby.js): it belongs in "My games" now.
document.addEventListener('bao:games', () => refreshMine());

let mineBusy = null;
let mineAgain = false;
/** Asks the server about the seats held (one request at a time; asked again if needed). */
async function refreshMine() {
  if (mineBusy) {
    mineAgain = true;
    return mineBusy;
  }
  mineBusy = (async () => {
    do {
      mineAgain = false;
      try {
        mineGames = await fetchMine();
        mineBox.dataset.loaded = String(Date.now());
        drawMine();
        for (const g of mineGames) {
          turnIs(g.id, turnOf(g) === 'your', {
            text: t('mine.alert_title'),
            body: t('mine.alert_body', { name: opponentOf(g) }),
            url: `/g/${encodeURIComponent(g.id)}`,
          });
        }
      } catch {
        /* the next change or reconnect asks again */
      }
    } while (mineAgain);
    mineBusy = null;
  })();
  return mineBusy;
}

async function init() {
  try {
    variants = await api('/api/variants');
  } catch (err) {
    notify(status, t('home.variants_unavailable', { error: errorText(err) }), 'error');
    variants = Object.entries(VARIANT_TITLES).map(([id, title]) => ({ id, title, options: [] }));
  }
  renderVariants();
  drawMine();
  connectLobby();
  showDailyPuzzles();
}

init();
