// One team match (/m/{id}): the two clubs, the status in words, the start in the reader's
// local time with a countdown, the boards (players, the game one tap away, each result in
// words), the score and the winner; accept / decline for a leader of the away club while it
// is proposed; the lineup editor for a side's leaders and admins before the start; the
// player's own board's game. Data: GET /api/team-matches/{id} (docs/api.md "Team matches"),
// asked again when the player socket (`?team_match=ID`) says it changed. No polling.

import { $, api, el, errorText, notify, VARIANT_TITLES } from './app.js';
import { t } from './i18n.js';
import { onAccount, profileUrl } from './account.js';
import { clockText, timeText } from './tournaments.js';
import { keepSocket } from './socket.js';
import { matchStatusText, points } from './teams.js';

const box = $('match');
const id = decodeURIComponent(location.pathname.split('/')[2] || '');
const apiBase = `/api/team-matches/${encodeURIComponent(id)}`;

let data = null;
/** Server time minus this browser's time (ms), from the last read. */
let skew = 0;

/** "1:05:09", "4:32", "0:07". */
function span(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** A refused team-match request in words. */
function matchError(err) {
  switch (err && err.category) {
    case 'not_club_leader':
      return t('teams.err_not_leader');
    case 'not_club_member':
      return t('teams.err_not_member');
    case 'conflict':
      return t('teams.err_conflict');
    case 'not_signed_in':
      return t('teams.err_signin');
    default:
      return errorText(err);
  }
}

const clubName = (side) => data?.[side]?.name || t('teams.unknown_club');

function countdown() {
  const p = $('m-countdown');
  if (!data || !['proposed', 'accepted'].includes(data.status)) {
    p.hidden = true;
    return;
  }
  const left = data.starts_at - (Date.now() + skew);
  p.hidden = false;
  p.textContent = left > 0 ? t('teams.countdown', { time: span(left) }) : t('teams.countdown_due');
}
setInterval(countdown, 1000);

function resultText(b) {
  if (b.result === 'draw') return t('teams.result_draw');
  if (b.result === 'home' || b.result === 'away') {
    const club = clubName(b.result);
    return b.game ? t('teams.result_won', { name: b[b.result], club }) : t('teams.result_forfeit', { club });
  }
  if (data.status === 'running' && b.game) return t('teams.result_playing');
  if (data.status === 'running' || data.status === 'finished') return t('teams.result_none');
  return '';
}

function boardItem(b) {
  const who = (name) => (name ? el('a', { href: profileUrl(name) }, name) : el('span', {}, t('teams.nobody')));
  const mine = data.you?.board === b.no;
  const res = resultText(b);
  return el(
    'li',
    { 'data-no': String(b.no), 'data-result': b.result || '', 'data-game': b.game || '' },
    el('span', { class: 'no' }, t('teams.board_no', { n: b.no })),
    el('span', { class: 'pair' }, who(b.home), ` (${clubName('home')}) – `, who(b.away), ` (${clubName('away')})`),
    res ? el('span', { class: 'res' }, res) : null,
    b.game ? el('a', { class: mine ? 'button primary' : 'button', href: `/g/${encodeURIComponent(b.game)}` }, mine ? t('teams.your_game') : t('teams.watch_game', { n: b.no })) : null,
  );
}

/** The side the viewer names the players of, if any: `home` first for a leader of both. */
function lineupSide(d) {
  if (!d.you || !['proposed', 'accepted'].includes(d.status)) return null;
  if (d.starts_at <= Date.now() + skew) return null;
  const may = (r) => r === 'leader' || r === 'admin';
  if (may(d.you.home)) return 'home';
  if (may(d.you.away)) return 'away';
  return null;
}

let lineupKey = '';
let members = [];
async function drawLineup(d) {
  const side = lineupSide(d);
  $('lineup-box').hidden = !side;
  if (!side) {
    lineupKey = '';
    return;
  }
  const named = d.boards.map((b) => b[side] || '');
  const key = `${side}:${d.boards.length}:${named.join(',')}`;
  if (key === lineupKey) return;
  if (!lineupKey.startsWith(`${side}:`)) {
    members = [];
    let cursor = null;
    for (let i = 0; i < 10; i++) {
      const q = new URLSearchParams({ limit: '50' });
      if (cursor) q.set('cursor', cursor);
      const r = await api(`/api/clubs/${encodeURIComponent(d[side].id)}/members?${q}`);
      members.push(...(r.members || []).map((m) => m.username));
      cursor = r.next;
      if (!cursor) break;
    }
  }
  lineupKey = key;
  $('h-lineup').textContent = t('teams.lineup_heading_club', { club: clubName(side) });
  const fields = d.boards.map((b, i) => {
    const sel = el(
      'select',
      { id: `lineup-${b.no}`, 'data-no': String(b.no) },
      el('option', { value: '' }, t('teams.lineup_nobody')),
      ...members.map((n) => el('option', { value: n }, n)),
    );
    sel.value = members.includes(named[i]) ? named[i] : '';
    return el('div', { class: 'field' }, el('label', { for: `lineup-${b.no}` }, t('teams.board_no', { n: b.no })), sel);
  });
  $('lineup-fields').replaceChildren(...fields);
}

function draw(d) {
  box.dataset.status = d.status;
  const home = d.home.name || t('teams.unknown_club');
  const away = d.away.name || t('teams.unknown_club');
  $('m-title').textContent = t('teams.title', { home, away });
  document.title = t('teams.doc_title', { home, away });
  $('m-clubs').replaceChildren(
    el('a', { href: `/club/${encodeURIComponent(d.home.id)}`, id: 'home-club' }, home),
    el('span', {}, t('teams.versus')),
    el('a', { href: `/club/${encodeURIComponent(d.away.id)}`, id: 'away-club' }, away),
  );
  $('m-state').textContent = matchStatusText(d.status);
  $('m-start').textContent = timeText(d.starts_at);
  $('m-terms').textContent = [VARIANT_TITLES[d.variant] || d.variant, clockText(d.clock), d.rated ? t('teams.rated') : t('teams.casual')].filter(Boolean).join(' · ');
  $('m-board-count').textContent = t('teams.boards_count', { n: d.boards.length });
  const started = d.status === 'running' || d.status === 'finished';
  $('m-score').hidden = !started;
  $('m-score').textContent = t('teams.score', { home, away, hs: points(d.score.home), as: points(d.score.away) });
  const w = $('m-winner');
  w.hidden = !d.winner;
  w.textContent = d.winner === 'draw' ? t('teams.winner_draw') : d.winner ? t('teams.winner', { club: d.winner === 'home' ? home : away }) : '';
  w.dataset.winner = d.winner || '';
  $('boards').replaceChildren(...d.boards.map(boardItem));
  const anyRecord = d.boards.some((b) => b.game && b.result);
  $('records-link').hidden = !anyRecord;
  $('records-link').href = d.records || `${apiBase}/records`;
  const mine = d.you?.game;
  $('my-game').hidden = !mine;
  if (mine) $('my-game').href = `/g/${encodeURIComponent(mine)}`;
  const answer = d.status === 'proposed' && d.you?.away === 'leader';
  $('accept-button').hidden = !answer;
  $('decline-button').hidden = !answer;
  countdown();
}

async function load() {
  let d;
  try {
    d = await api(apiBase);
  } catch (err) {
    $('m-loading').hidden = true;
    if (err.status === 404) {
      box.dataset.state = 'missing';
      $('m-title').textContent = t('teams.missing_title');
      $('m-missing').hidden = false;
      return;
    }
    box.dataset.state = 'error';
    notify($('m-status-line'), matchError(err), 'error');
    return;
  }
  data = d;
  skew = (Number(d.now) || Date.now()) - Date.now();
  draw(d);
  $('m-loading').hidden = true;
  $('m-body').hidden = false;
  try {
    await drawLineup(d);
  } catch (err) {
    notify($('lineup-status'), matchError(err), 'error');
  }
  box.dataset.state = 'ready';
  box.dataset.lineup = $('lineup-box').hidden ? 'none' : lineupSide(d);
}

async function act(path, body, button, region) {
  notify(region, '');
  button.disabled = true;
  try {
    await api(`${apiBase}/${path}`, { method: 'POST', body });
    await load();
    return true;
  } catch (err) {
    notify(region, matchError(err), 'error');
    return false;
  } finally {
    button.disabled = false;
  }
}

$('accept-button').addEventListener('click', (e) => act('accept', {}, e.currentTarget, $('action-status')));
$('decline-button').addEventListener('click', (e) => act('decline', {}, e.currentTarget, $('action-status')));
$('lineup-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const status = $('lineup-status');
  const picked = [...$('lineup-fields').querySelectorAll('select')].map((s) => s.value);
  while (picked.length && !picked[picked.length - 1]) picked.pop();
  if (picked.some((p) => !p)) {
    notify(status, t('teams.err_lineup_gap'), 'error');
    return;
  }
  if (new Set(picked).size !== picked.length) {
    notify(status, t('teams.err_lineup_twice'), 'error');
    return;
  }
  const side = lineupSide(data);
  if (!side) return;
  const both = ['leader', 'admin'].includes(data.you?.home) && ['leader', 'admin'].includes(data.you?.away);
  lineupKey = '';
  if (await act('lineup', both ? { players: picked, side } : { players: picked }, $('lineup-submit'), status)) {
    notify(status, t('teams.lineup_saved'), 'info');
  }
});

// The player socket tells the page when the match changed: `team_match` once it is open
// (what changed while it was closed), then at every change.
function listen() {
  const socket = keepSocket(`/api/play/ws?team_match=${encodeURIComponent(id)}`, {
    onOpen() {
      box.dataset.socket = 'open';
    },
    onStatus(s) {
      if (s !== 'open') box.dataset.socket = s;
    },
    async onMessage(msg) {
      if (msg.type !== 'team_match' || msg.id !== id) return;
      await load();
      if (data && ['finished', 'declined'].includes(data.status)) {
        socket.close();
        box.dataset.socket = 'closed';
      }
    },
  });
}

if (!/^[a-z0-9]{10}$/.test(id)) {
  box.dataset.state = 'missing';
  $('m-loading').hidden = true;
  $('m-title').textContent = t('teams.missing_title');
  $('m-missing').hidden = false;
} else {
  let started = false;
  onAccount(() => {
    if (!started) {
      started = true;
      load().then(() => {
        if (data && !['finished', 'declined'].includes(data.status)) listen();
      });
    } else {
      load();
    }
  });
}
