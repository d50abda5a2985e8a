// One club's page (/club/{id}): what it is, its leaders, joining (at once or by a request),
// leaving, the requests its leaders and admins answer, announcements (members read them;
// leaders and admins write them), its members with their roles (leaders manage them) and its
// tournaments and team matches; a leader proposes a team match against another club. Data:
// /api/clubs/{id}... (docs/api.md "Clubs") and /api/team-matches?club=ID; the page reads the
// club again after each change and when the player socket (`?club=ID`) says it changed.

import { $, api, el, notify, VARIANT_TITLES } from './app.js';
import { t } from './i18n.js';
import { onAccount, profileUrl, accountName } from './account.js';
import { clubError, membersText } from './clubs.js';
import { statusText, timeText } from './tournaments.js';
import { matchStatusText, points } from './teams.js';
import { keepSocket } from './socket.js';

const id = decodeURIComponent(location.pathname.split('/')[2] || '');
const box = $('club');
const status = $('club-status');
let club = null;
let signedIn = false;

const base = `/api/clubs/${encodeURIComponent(id)}`;

function roleText(role) {
  switch (role) {
    case 'leader':
      return t('clubs.role_leader');
    case 'admin':
      return t('clubs.role_admin');
    default:
      return t('clubs.role_member');
  }
}

/** Runs a change, says what went wrong if it did, and reads the club again. */
async function change(path, body, done) {
  notify(status, '');
  try {
    await api(`${base}/${path}`, { method: 'POST', body: body || {} });
    if (done) notify(status, done, 'info');
  } catch (err) {
    notify(status, clubError(err), 'error');
  }
  await load();
}

function ratingsText(ratings) {
  const parts = [];
  for (const [variant, r] of Object.entries(ratings || {})) {
    parts.push(`${VARIANT_TITLES[variant] || variant} ${r.rating}${r.provisional ? '?' : ''}`);
  }
  return parts.join(' · ');
}

/** The actions a leader (or admin) has on a member's row. */
function manage(m) {
  const me = club.you.role;
  if (!me || me === 'member' || m.username.toLowerCase() === (accountName() || '').toLowerCase()) return null;
  const buttons = [];
  if (me === 'leader') {
    const make = { leader: t('clubs.make_leader'), admin: t('clubs.make_admin'), member: t('clubs.make_member') };
    for (const role of ['leader', 'admin', 'member']) {
      if (role === m.role) continue;
      buttons.push(
        el('button', { type: 'button', 'data-role': role, onclick: () => change('role', { username: m.username, role }, t('clubs.done_role', { name: m.username, role: roleText(role) })) }, make[role]),
      );
    }
  }
  if (me === 'leader' || m.role === 'member') {
    buttons.push(el('button', { type: 'button', class: 'danger', 'data-act': 'remove', onclick: () => change('remove', { username: m.username, ban: false }, t('clubs.done_removed', { name: m.username })) }, t('clubs.remove')));
    buttons.push(el('button', { type: 'button', class: 'danger', 'data-act': 'ban', onclick: () => change('remove', { username: m.username, ban: true }, t('clubs.done_banned', { name: m.username })) }, t('clubs.remove_ban')));
  }
  if (!buttons.length) return null;
  return el('details', { class: 'c-manage' }, el('summary', {}, t('clubs.manage', { name: m.username })), el('div', { class: 'acts' }, buttons));
}

function memberItem(m) {
  const ratings = ratingsText(m.ratings);
  return el(
    'li',
    { 'data-name': m.username, 'data-role': m.role },
    el('a', { class: 'who', href: profileUrl(m.username) }, m.username),
    el('span', { class: 'tag' }, roleText(m.role)),
    ratings ? el('span', { class: 'meta' }, ratings) : null,
    manage(m),
  );
}

let cursor = null;
async function loadMembers(first) {
  const section = $('members-box');
  const list = $('member-list');
  const more = $('members-more');
  section.dataset.state = 'loading';
  more.disabled = true;
  try {
    const q = new URLSearchParams({ limit: '50' });
    if (!first && cursor) q.set('cursor', cursor);
    const r = await api(`${base}/members?${q}`);
    if (first) list.replaceChildren();
    list.append(...(r.members || []).map(memberItem));
    cursor = r.next ?? null;
    more.hidden = !cursor;
    section.dataset.state = 'ready';
  } catch (err) {
    notify(status, clubError(err), 'error');
    section.dataset.state = 'error';
  } finally {
    more.disabled = false;
  }
}

async function loadRequests() {
  const show = club.you.role === 'leader' || club.you.role === 'admin';
  $('requests-box').hidden = !show;
  if (!show) return;
  const r = await api(`${base}/requests`);
  const list = $('request-list');
  list.replaceChildren(
    ...(r.requests || []).map((q) =>
      el(
        'li',
        { 'data-name': q.username },
        el('a', { class: 'who', href: profileUrl(q.username) }, q.username),
        el('span', { class: 'meta' }, timeText(q.asked)),
        el(
          'span',
          { class: 'acts' },
          el('button', { type: 'button', class: 'primary', 'data-act': 'accept', 'aria-label': t('clubs.accept_name', { name: q.username }), onclick: () => change(`requests/${encodeURIComponent(q.username)}/accept`, {}, t('clubs.done_accepted', { name: q.username })) }, t('clubs.accept')),
          el('button', { type: 'button', 'data-act': 'decline', 'aria-label': t('clubs.decline_name', { name: q.username }), onclick: () => change(`requests/${encodeURIComponent(q.username)}/decline`, {}, t('clubs.done_declined', { name: q.username })) }, t('clubs.decline')),
        ),
      ),
    ),
  );
  $('requests-empty').hidden = list.children.length > 0;
}

function drawNews() {
  const member = club.you.member;
  $('news-box').hidden = !member;
  if (!member) return;
  $('announce-form').hidden = !(club.you.role === 'leader' || club.you.role === 'admin');
  const list = $('news-list');
  list.replaceChildren(
    ...(club.announcements || []).map((a) =>
      el('li', {}, el('p', { class: 'text' }, a.text), el('p', { class: 'meta' }, t('clubs.news_by', { name: a.by, time: timeText(a.at) }))),
    ),
  );
  $('news-empty').hidden = list.children.length > 0;
}

function drawYou() {
  const you = club.you;
  const join = $('join-button');
  const leave = $('leave-button');
  const text = $('you-text');
  $('club-signin').hidden = signedIn;
  join.hidden = true;
  leave.hidden = true;
  text.hidden = true;
  if (!signedIn) return;
  text.hidden = false;
  if (you.banned) {
    text.textContent = t('clubs.you_banned');
  } else if (you.member) {
    text.textContent = t('clubs.you_are', { role: roleText(you.role) });
    leave.hidden = false;
    leave.textContent = t('clubs.leave');
    leave.dataset.act = 'leave';
  } else if (you.requested) {
    text.textContent = t('clubs.you_requested');
    leave.hidden = false;
    leave.textContent = t('clubs.withdraw');
    leave.dataset.act = 'withdraw';
  } else {
    text.hidden = true;
    join.hidden = false;
    join.textContent = club.open ? t('clubs.join') : t('clubs.ask');
  }
}

/** A dissolved club says so and offers nothing to do; a leader may dissolve a live one. */
function drawDissolved() {
  const gone = club.dissolved != null;
  const note = $('club-dissolved');
  note.hidden = !gone;
  note.textContent = gone ? t('clubs.dissolved', { time: timeText(club.dissolved) }) : '';
  $('club-actions').hidden = gone;
  // Nobody joins, leads or belongs to it any more.
  for (const fact of ['club-joining', 'club-leaders', 'club-count']) $(fact).parentElement.hidden = gone;
  $('members-box').hidden = gone;
  $('dissolve-box').hidden = gone || club.you.role !== 'leader';
}

async function dissolve(e) {
  e.preventDefault();
  const input = $('dissolve-name');
  if (input.value.trim().toLowerCase() !== club.name.toLowerCase()) {
    notify(status, t('clubs.dissolve_wrong_name', { name: club.name }), 'error');
    input.focus();
    return;
  }
  const button = $('dissolve-submit');
  button.disabled = true;
  notify(status, '');
  try {
    await api(`${base}/dissolve`, { method: 'POST', body: { name: input.value } });
    notify(status, t('clubs.done_dissolved'), 'info');
    input.value = '';
  } catch (err) {
    notify(status, err.status === 400 ? t('clubs.err_dissolve_name') : clubError(err), 'error');
  }
  button.disabled = false;
  await load();
}

function drawTournaments() {
  const list = $('club-tournaments');
  list.replaceChildren(
    ...(club.tournaments || []).map((x) =>
      el(
        'li',
        { class: 't-card' },
        el('a', { class: 't-name', href: x.url || `/t/${encodeURIComponent(x.id)}` }, x.name),
        ' ',
        el('span', { class: 'tag' }, statusText(x.status)),
        el('p', { class: 'meta' }, [VARIANT_TITLES[x.variant] || x.variant, t('tournaments.players_count', { n: x.players ?? 0, max: x.max_players ?? '?' })].join(' · ')),
      ),
    ),
  );
  $('tournaments-empty').hidden = list.children.length > 0;
}

/** The club's team matches: running, coming, then past (docs/api.md "Team matches"). */
async function loadMatches() {
  const section = $('matches-box');
  const r = await api(`/api/team-matches?club=${encodeURIComponent(id)}`);
  const list = $('club-matches');
  list.replaceChildren(
    ...(r.matches || []).map((m) => {
      const home = m.home.name || t('teams.unknown_club');
      const away = m.away.name || t('teams.unknown_club');
      const started = m.status === 'running' || m.status === 'finished';
      return el(
        'li',
        { class: 't-card', 'data-status': m.status, 'data-id': m.id },
        el('a', { class: 't-name', href: m.url }, t('teams.match_line', { home, away })),
        started ? el('span', { class: 'tag' }, t('teams.match_score', { hs: points(m.score.home), as: points(m.score.away) })) : null,
        el('p', { class: 'meta' }, t('teams.match_when', { status: matchStatusText(m.status), time: timeText(m.starts_at) })),
      );
    }),
  );
  $('matches-empty').hidden = list.children.length > 0;
  section.dataset.state = 'ready';
  $('propose-box').hidden = club.you.role !== 'leader';
}

let opponent = null;
async function searchOpponents() {
  const q = new URLSearchParams({ q: $('opp-q').value.trim(), limit: '10' });
  const r = await api(`/api/clubs?${q}`);
  const others = (r.clubs || []).filter((c) => c.id !== id);
  $('opp-list').replaceChildren(
    ...others.map((c) =>
      el(
        'li',
        { 'data-id': c.id },
        el('span', { class: 'who' }, c.name),
        c.place ? el('span', { class: 'meta' }, c.place) : null,
        el('span', { class: 'acts' }, el('button', { type: 'button', 'data-act': 'pick', onclick: () => pickOpponent(c) }, t('teams.propose_pick', { club: c.name }))),
      ),
    ),
  );
  $('opp-none').hidden = others.length > 0;
}

function pickOpponent(c) {
  opponent = c;
  $('opp-list').replaceChildren();
  $('opp-picked').hidden = false;
  $('opp-picked').textContent = t('teams.propose_picked', { club: c.name });
}

async function propose(e) {
  e.preventDefault();
  notify(status, '');
  if (!opponent) {
    notify(status, t('teams.err_pick_club'), 'error');
    $('opp-q').focus();
    return;
  }
  const boards = Number($('p-boards').value);
  if (!(boards >= 2 && boards <= 16)) {
    notify(status, t('teams.err_boards'), 'error');
    $('p-boards').focus();
    return;
  }
  const start = new Date($('p-start').value).getTime();
  if (!(start > Date.now())) {
    notify(status, t('teams.err_start'), 'error');
    $('p-start').focus();
    return;
  }
  const button = $('propose-submit');
  button.disabled = true;
  try {
    const r = await api('/api/team-matches', {
      method: 'POST',
      body: {
        home: id,
        away: opponent.id,
        boards,
        variant: $('p-variant').value,
        clock: { initial_ms: Math.round(Number($('p-minutes').value) * 60000), increment_ms: Math.round(Number($('p-increment').value) * 1000) },
        rated: $('p-rated').checked,
        starts_at: start,
      },
    });
    location.assign(r.url);
  } catch (err) {
    notify(status, clubError(err), 'error');
    button.disabled = false;
  }
}

async function load() {
  try {
    club = await api(base);
  } catch (err) {
    $('club-loading').hidden = true;
    if (err.status === 404) {
      box.dataset.state = 'missing';
      $('club-name').textContent = t('clubs.missing_title');
      $('club-missing').hidden = false;
      return;
    }
    box.dataset.state = 'error';
    notify(status, clubError(err), 'error');
    return;
  }
  $('club-name').textContent = club.name;
  document.title = t('clubs.doc_title', { name: club.name });
  $('club-place').hidden = !club.place;
  $('club-place').textContent = club.place ? t('clubs.meets_in', { place: club.place }) : '';
  $('club-description').hidden = !club.description;
  $('club-description').textContent = club.description || '';
  $('club-count').textContent = membersText(club.members);
  $('club-joining').textContent = club.open ? t('clubs.open_tag') : t('clubs.closed_tag');
  $('club-leaders').replaceChildren(...(club.leaders || []).flatMap((n, i) => [i ? ', ' : '', el('a', { href: profileUrl(n) }, n)]));
  drawYou();
  drawNews();
  drawTournaments();
  drawDissolved();
  $('club-loading').hidden = true;
  $('club-body').hidden = false;
  try {
    await Promise.all([loadRequests(), loadMembers(true), loadMatches()]);
  } catch (err) {
    notify(status, clubError(err), 'error');
  }
  box.dataset.state = club.dissolved ? 'dissolved' : 'ready';
  box.dataset.you = club.you.role || (club.you.requested ? 'requested' : 'none');
}

function init() {
  if (!/^[a-z0-9]{10}$/.test(id)) {
    box.dataset.state = 'missing';
    $('club-loading').hidden = true;
    $('club-name').textContent = t('clubs.missing_title');
    $('club-missing').hidden = false;
    return;
  }
  $('join-button').addEventListener('click', () =>
    change('join', {}, club && club.open ? t('clubs.done_joined') : t('clubs.done_asked')),
  );
  $('leave-button').addEventListener('click', () => change('leave', {}, null));
  $('members-more').addEventListener('click', () => loadMembers(false));
  $('announce-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    const text = $('announce-text');
    if (!text.value.trim()) {
      text.focus();
      return;
    }
    const button = $('announce-submit');
    button.disabled = true;
    await change('announce', { text: text.value }, t('clubs.done_announced'));
    if (status.dataset.kind !== 'error') text.value = '';
    button.disabled = false;
  });
  $('opp-search').addEventListener('click', () => searchOpponents().catch((err) => notify(status, clubError(err), 'error')));
  $('opp-q').addEventListener('keydown', (e) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      $('opp-search').click();
    }
  });
  $('propose-form').addEventListener('submit', propose);
  $('dissolve-form').addEventListener('submit', dissolve);
  // An hour ahead, in the reader's local time, as the start to change.
  const soon = new Date(Date.now() + 3600 * 1000);
  soon.setMinutes(0, 0, 0);
  const pad = (n) => String(n).padStart(2, '0');
  $('p-start').value = `${soon.getFullYear()}-${pad(soon.getMonth() + 1)}-${pad(soon.getDate())}T${pad(soon.getHours())}:00`;
  let started = false;
  onAccount((name) => {
    signedIn = !!name;
    if (!started) {
      started = true;
      // The player socket says `club` once it is open, then at every change the page shows.
      keepSocket(`/api/play/ws?club=${encodeURIComponent(id)}`, {
        onOpen() {
          box.dataset.socket = 'open';
        },
        onStatus(s) {
          if (s !== 'open') box.dataset.socket = s;
        },
        onMessage(msg) {
          if (msg.type === 'club' && msg.id === id) load();
        },
      });
    } else if (club) {
      drawYou();
    }
  });
}

init();
