// Home page: start a game (variant, rule options, opponent, seats, match) and list games to
// watch: one small page of each list, then kept up to date from the lobby socket.

import { api, el, notify, setPref, VARIANT_TITLES } from './app.js';
import { addStartOptions, startOptions } from './play.js';

const BLURB = {
  kiswahili: 'Zanzibar Bao, the classic: houses, two stages, takasia.',
  kete: 'The Lamu game: like Zanzibar Bao with a few local rules.',
  kimasai: 'The Maasai game: one direction, no house, fast raids.',
};

// `match` is chosen with its own control (single game or best of three), so it is not
// listed among the rule options.
const HIDDEN_OPTIONS = new Set(['match']);

const form = document.getElementById('new-game');
addStartOptions(form);
const status = document.getElementById('form-status');
let variants = [];

function currentVariant() {
  const v = form.querySelector('input[name="variant"]:checked');
  return variants.find((x) => x.id === (v ? v.value : 'kiswahili')) || variants[0];
}

function renderVariants() {
  const box = document.getElementById('variants');
  box.replaceChildren(
    ...variants.map((v, i) =>
      el(
        'label',
        { class: 'choice-card' },
        el('input', { type: 'radio', name: 'variant', value: v.id, checked: i === 0, onchange: renderOptions }),
        el(
          'span',
          { class: 'card' },
          el('strong', {}, v.title || VARIANT_TITLES[v.id] || v.id),
          BLURB[v.id] || '',
          ' ',
          el('a', { href: `/rules/${v.id}`, class: 'small' }, 'Rules'),
        ),
      ),
    ),
  );
  renderOptions();
}

function renderOptions() {
  const v = currentVariant();
  const box = document.getElementById('options');
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
          placeholder: none ? 'none (no limit)' : null,
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
          values.map((val) => el('option', { value: val, selected: val === def }, val === def ? `${val} (default)` : val)),
        );
      }
      const help = `${o.help || ''}${range ? ` Default: ${def}.` : ''}`;
      const row = el('div', { class: 'option' }, el('label', { for: id }, o.name), control, el('p', { class: 'help', id: `${id}-help` }, help));
      const changed = () => {
        row.classList.toggle('changed', optionValue(control) !== def);
        updateSummary();
      };
      control.addEventListener('change', changed);
      control.addEventListener('input', changed);
      return row;
    });
  box.replaceChildren(...(rows.length ? rows : [el('p', { class: 'muted' }, 'This game has no rule options.')]));
  const match = (v.options || []).find((o) => o.name === 'match');
  if (match) document.getElementById('match').value = String(match.default);
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
  document.getElementById('options-summary').textContent = r === '-' ? '(all defaults)' : `(${r.split(',').length} changed: ${r})`;
}

document.getElementById('reset-options').addEventListener('click', renderOptions);

const level = document.getElementById('level');
level.addEventListener('input', () => {
  document.getElementById('level-value').textContent = level.value;
});
for (const r of form.querySelectorAll('input[name="opponent"]')) {
  r.addEventListener('change', () => {
    const computer = form.querySelector('input[name="opponent"]:checked').value === 'computer';
    document.getElementById('level-row').hidden = !computer;
    document.getElementById('level-help').hidden = !computer;
  });
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
    side: document.getElementById('side').value,
    match: document.getElementById('match').value,
  };
  Object.assign(body, startOptions(form));
  const start = document.getElementById('start').value.trim();
  if (start) body.start = start;
  const name = document.getElementById('name').value.trim();
  if (name) body.name = name;
  setPref('name', name);
  const button = document.getElementById('start-button');
  button.disabled = true;
  notify(status, 'Starting the game…');
  try {
    const game = await api('/api/games', { method: 'POST', body });
    location.assign(game.url || `/g/${game.id}`);
  } catch (err) {
    notify(status, err.message, 'error');
    if (err.category === 'bad_position') document.getElementById('start-box').open = true;
    if (err.category === 'bad_rules') document.getElementById('options-box').open = true;
    button.disabled = false;
  }
});

function gameItem(g, live) {
  const players = g.players || {};
  const name = (p) => (p ? p.name || (p.kind === 'computer' ? `Computer (level ${p.level ?? '?'})` : 'Guest') : '—');
  const title = `${name(players.S)} v ${name(players.N)}`;
  const result = g.result && g.result !== '-' ? (g.result === 'draw' ? 'drawn' : `${g.result === 'S' ? 'South' : 'North'} won`) : null;
  return el(
    'li',
    {},
    el(
      'div',
      {},
      el('div', {}, title),
      el('div', { class: 'meta' }, `${VARIANT_TITLES[g.variant] || g.variant} · ${g.ply} ${g.ply === 1 ? 'move' : 'moves'}${result ? ` · ${result}` : ''}`),
    ),
    live
      ? el('a', { class: 'button', href: `/g/${g.id}`, 'aria-label': `Watch ${title}` }, 'Watch')
      : el('a', { class: 'button', href: `/replay?game=${encodeURIComponent(g.id)}`, 'aria-label': `Replay ${title}` }, 'Replay'),
  );
}

/** Games shown per list: one small page of the paginated list API. */
const PAGE = 12;
const lists = {
  live: { id: 'live-games', live: true, games: [], empty: 'No games are being played right now.' },
  finished: { id: 'finished-games', live: false, games: [], empty: 'No finished games yet.' },
};

function drawList(status) {
  const l = lists[status];
  const list = document.getElementById(l.id);
  list.replaceChildren(...(l.games.length ? l.games.map((g) => gameItem(g, l.live)) : [el('li', { class: 'muted' }, l.empty)]));
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
      document.getElementById(lists[status].id).replaceChildren(el('li', { class: 'muted' }, `The list is not available: ${err.message}`));
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
 * at most once a second. While it is down the lists are loaded again now and then.
 */
let lobbyRetry = 0;
let fallback = null;
function connectLobby() {
  const proto = location.protocol === 'https:' ? 'wss' : 'ws';
  let ws;
  try {
    ws = new WebSocket(`${proto}://${location.host}/api/lobby/ws`);
  } catch {
    return startFallback();
  }
  let ping = null;
  ws.addEventListener('open', () => {
    lobbyRetry = 0;
    clearInterval(fallback);
    fallback = null;
    // Loaded after the socket is open, so no change falls between the two.
    loadGames();
    ping = setInterval(() => ws.readyState === 1 && ws.send(JSON.stringify({ type: 'ping' })), 25000);
  });
  ws.addEventListener('message', (e) => {
    let msg;
    try {
      msg = JSON.parse(e.data);
    } catch {
      return;
    }
    if (msg.type === 'games' && Array.isArray(msg.games)) applyBatch(msg.games);
    else if (msg.type === 'reload') loadGames();
  });
  ws.addEventListener('close', () => {
    clearInterval(ping);
    startFallback();
    lobbyRetry += 1;
    setTimeout(connectLobby, Math.min(30000, 1000 * 2 ** Math.min(lobbyRetry, 5)));
  });
}

function startFallback() {
  if (fallback) return;
  loadGames();
  fallback = setInterval(() => {
    if (document.visibilityState === 'visible') loadGames();
  }, 30000);
}

async function init() {
  try {
    variants = await api('/api/variants');
  } catch (err) {
    notify(status, `The games could not be loaded: ${err.message}`, 'error');
    variants = Object.entries(VARIANT_TITLES).map(([id, title]) => ({ id, title, options: [] }));
  }
  renderVariants();
  connectLobby();
}

init();
