// One arena (/a/{id}): the countdown, Join / Pause, "Your game" one tap away, berserk, the
// standings with the fire and berserk marks in words, the winners at the end; in a team battle
// the clubs' ranking with each club's best players, and the club to join for. Data:
// GET /api/arenas/{id} (docs/api.md "Arenas") once as the player socket
// (`/api/play/ws?arena=ID`, docs/api.md "The player socket", "Live updates and live
// standings") opens (also after a reconnect), then the socket's `standings` (the first 100,
// the podium, the count) and `standings_you` (the player's own row, wherever it ranks, and
// game) at each change: the page does not ask again. No polling; the countdown ticks on the
// page from the server's `now`.

import { $, api, el, errorText, notify, VARIANT_TITLES } from './app.js';
import { t } from './i18n.js';
import { accountName, onAccount, profileUrl } from './account.js';
import { arenaError, clockText, statusText, timeText } from './arenas.js';
import { keepSocket } from './socket.js';

const box = $('arena');
const id = decodeURIComponent(location.pathname.split('/')[2] || '');
const apiBase = `/api/arenas/${encodeURIComponent(id)}`;

let data = null;
/** Server time minus this browser's time (ms), from the last read. */
let skew = 0;
const same = (a, b) => typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase();
const isMe = (name) => same(name, accountName());

/** "1:05:09", "4:32", "0:07". */
function span(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

function countdown() {
  if (!data) return;
  const now = Date.now() + skew;
  let text;
  if (data.status === 'finished') text = t('arenas.countdown_over');
  else if (data.status === 'upcoming') text = t('arenas.countdown_start', { time: span(data.starts_at - now) });
  else text = t('arenas.countdown_end', { time: span(data.ends_at - now) });
  $('a-countdown').textContent = text;
}
setInterval(countdown, 1000);

function fact(term, ...value) {
  return el('div', {}, el('dt', {}, term), el('dd', {}, ...value));
}

/** The viewer's current game as listed, with their side. */
function myGame(d) {
  const g = (d.games || []).find((x) => x.game === d.you?.game);
  if (!g) return null;
  return { ...g, side: isMe(g.S) ? 'S' : 'N' };
}

/** The club choice before joining a team battle (docs/api.md "Team battles"): asked only of
 * a member of several of its clubs; a member of none is told who may join. */
function drawClubChoice(d, signedIn, over) {
  const you = d.you || {};
  const mayJoinFor = d.battle ? you.clubs || [] : [];
  const outsider = !!d.battle && signedIn && !you.joined && mayJoinFor.length === 0;
  const pick = !!d.battle && signedIn && !over && !you.joined && mayJoinFor.length > 1;
  $('club-pick').hidden = !pick;
  const select = $('club-select');
  const ids = mayJoinFor.map((c) => c.id).join(' ');
  if (pick && select.dataset.ids !== ids) {
    const was = select.value;
    select.replaceChildren(...mayJoinFor.map((c) => el('option', { value: c.id }, c.name)));
    if (mayJoinFor.some((c) => c.id === was)) select.value = was;
    select.dataset.ids = ids;
  }
  $('members-only').hidden = !outsider || over;
  if (outsider) $('members-only').textContent = t('arenas.members_only', { clubs: d.battle.clubs.map((c) => c.name).join(', ') });
  return outsider;
}

function drawActions(d) {
  const signedIn = !!accountName();
  const over = d.status === 'finished';
  const you = d.you || {};
  const outsider = drawClubChoice(d, signedIn, over);
  $('join-button').hidden = over || !signedIn || (you.joined && !you.paused) || outsider;
  $('join-button').textContent = you.paused ? t('arenas.join_again') : t('arenas.join');
  $('join-signin').hidden = over || signedIn;
  $('join-signin').href = `/account/login?next=${encodeURIComponent(location.pathname)}`;
  $('pause-button').hidden = over || !you.joined || you.paused;
  const game = you.game;
  $('your-game').hidden = !game;
  if (game) $('your-game').href = `/g/${encodeURIComponent(game)}`;
  const mine = myGame(d);
  const berserked = mine && mine.berserk?.[mine.side];
  $('berserk-button').hidden = !d.berserk || !mine || berserked;
  let say = '';
  if (berserked) say = t('arenas.berserk_done');
  else if (game) say = t('arenas.you_playing');
  else if (you.joined && you.paused) say = t('arenas.you_paused');
  else if (you.joined && d.status === 'upcoming') say = t('arenas.you_waiting_start');
  else if (you.joined && d.status === 'running') say = t('arenas.you_waiting');
  if (you.joined && you.club) say = `${say} ${t('arenas.you_club', { club: you.club.name })}`.trim();
  const p = $('you-status');
  if (p.textContent !== say) p.textContent = say;
  p.hidden = !say;
  box.dataset.joined = String(!!you.joined);
  box.dataset.paused = String(!!you.paused);
  box.dataset.game = game || '';
}

/** Rows the table shows at most: the socket sends the first 100. */
const SHOWN = 100;

function drawStandings(d) {
  const rows = (d.standings || []).slice(0, SHOWN);
  $('standings-empty').hidden = rows.length > 0;
  $('standings-box').hidden = rows.length === 0;
  $('standings-rows').replaceChildren(
    ...rows.map((s) => {
      const marks = [];
      if (s.fire) marks.push(el('span', { class: 'a-mark fire' }, t('arenas.on_fire')));
      if (s.berserk) marks.push(el('span', { class: 'a-mark' }, t('arenas.berserk_mark', { n: s.berserk })));
      if (s.playing) marks.push(el('span', { class: 'a-mark' }, t('arenas.playing_mark')));
      if (s.paused) marks.push(el('span', { class: 'a-mark' }, t('arenas.paused_mark')));
      const sheet = (s.sheet || []).length ? (s.sheet || []).join(' ') : t('arenas.no_games');
      return el(
        'tr',
        { class: isMe(s.username) ? 'me' : '', 'data-player': s.username, 'data-score': String(s.score) },
        el('td', {}, String(s.rank)),
        el(
          'th',
          { scope: 'row', class: 't-player' },
          el('a', { href: profileUrl(s.username) }, s.username),
          ...marks,
          // The points of each game, on a line of their own: a phone has no room for a column.
          el('span', { class: 'small a-sheet-line' }, `${t('arenas.col_sheet')}: `, el('span', { class: 'a-sheet' }, sheet)),
          s.club ? el('span', { class: 'small a-sheet-line a-club-line' }, t('arenas.club_of', { club: s.club.name })) : null,
        ),
        el('td', { class: 'pts' }, String(s.score)),
      );
    }),
  );
  // The player's own place when it is below the rows shown.
  const mine = d.myRow;
  const below = !!mine && !rows.some((s) => isMe(s.username));
  $('your-place').hidden = !below;
  if (below) $('your-place').textContent = t('arenas.your_place', { rank: mine.rank, points: mine.score });
  const more = Number(d.players ?? rows.length) - rows.length;
  $('standings-more').hidden = more <= 0;
  if (more > 0) $('standings-more').textContent = t('arenas.standings_more', { n: more });
  const podium = $('podium-part');
  podium.hidden = d.status !== 'finished' || rows.length === 0;
  $('podium').replaceChildren(
    ...(d.podium || rows.slice(0, 3)).map((s, i) => el('li', {}, t('arenas.podium_place', { n: i + 1, name: s.username, points: s.score }))),
  );
}

/** A team battle's clubs, ranked, each with its players counted and its best players named. */
function drawBattle(d) {
  const b = d.battle;
  $('battle-part').hidden = !b;
  box.dataset.battle = String(!!b);
  if (!b) return;
  $('battle-about').textContent = t('arenas.battle_about', { n: b.leaders });
  const mine = d.you?.club?.id;
  $('battle-clubs').replaceChildren(
    ...b.clubs.map((c) =>
      el(
        'li',
        { class: c.id === mine ? 'mine' : '', 'data-club': c.id, 'data-rank': String(c.rank), 'data-score': String(c.score) },
        el('p', { class: 'a-club-place' }, t('arenas.battle_place', { rank: c.rank, name: c.name, points: c.score })),
        el('p', { class: 'small' }, c.players ? t('arenas.battle_players', { n: c.players }) : t('arenas.battle_no_players')),
        c.leaders.length
          ? el(
              'p',
              { class: 'small a-club-leaders' },
              t('arenas.battle_leaders', { list: c.leaders.map((l) => t('arenas.battle_leader', { name: l.username, points: l.score })).join(', ') }),
            )
          : null,
      ),
    ),
  );
}

function draw(d) {
  data = d;
  skew = Number(d.now) - Date.now() || 0;
  document.title = t('arenas.doc_title', { name: d.name });
  $('a-title').textContent = d.name;
  box.dataset.status = d.status;
  const yesNo = (x) => (x ? t('arenas.yes') : t('arenas.no'));
  const facts = [
    fact(t('arenas.fact_status'), el('span', { class: d.status === 'running' ? 'tag live' : 'tag' }, statusText(d.status))),
    fact(t('arenas.fact_game'), VARIANT_TITLES[d.variant] || d.variant || ''),
    fact(t('arenas.fact_clock'), clockText(d.clock)),
    fact(t('arenas.fact_length'), t('arenas.length_minutes', { n: Math.round((d.ends_at - d.starts_at) / 60000) }), ' · ', timeText(d.starts_at)),
    fact(t('arenas.fact_players'), String(d.players ?? (d.standings || []).length)),
    fact(t('arenas.fact_rated'), yesNo(d.rated)),
    fact(t('arenas.fact_berserk'), yesNo(d.berserk)),
  ];
  if (d.repeat) facts.push(fact(t('arenas.fact_repeat'), d.repeat === 'daily' ? t('calendar.daily') : t('calendar.weekly')));
  $('a-facts').replaceChildren(...facts);
  // A club's leaders stop its series here (docs/api.md "Arenas"); the operators with the CLI.
  $('series-part').hidden = !d.you?.may_stop_series && !stoppedHere;
  $('stop-series').hidden = stoppedHere || !$('stop-confirm').hidden;
  $('legend-berserk').hidden = !d.berserk;
  drawActions(d);
  drawBattle(d);
  drawStandings(d);
  countdown();
  $('a-loading').hidden = true;
  $('a-body').hidden = false;
  box.dataset.state = 'ready';
}

let seq = 0;
let lastText = '';
async function load() {
  const mine = ++seq;
  try {
    const d = await api(apiBase);
    if (mine !== seq) return;
    notify($('page-status'), '');
    const { now, ...rest } = d;
    const text = JSON.stringify(rest);
    if (text === lastText) return;
    lastText = text;
    d.myRow = (d.standings || []).find((s) => isMe(s.username)) || null;
    d.players = (d.standings || []).length;
    draw(d);
  } catch (err) {
    if (mine !== seq) return;
    if (err.status === 404) {
      box.dataset.state = 'missing';
      $('a-loading').hidden = true;
      $('a-body').hidden = true;
      $('a-title').textContent = t('arenas.missing_title');
      notify($('page-status'), t('arenas.missing'), 'error');
      return;
    }
    notify($('page-status'), t('arenas.page_unavailable', { error: errorText(err) }), 'error');
    if (!data) box.dataset.state = 'error';
  }
}

// The player socket tells the page when the arena changed: `arena` once it is open (what
// changed while it was closed), then at every change. Closed once the arena is over.
let socket = null;
/** Whether this connection brought standings: then `arena` messages need no reading. */
let live = false;

/** The socket's standings (docs/api.md "Live updates and live standings") into the view. */
function fromStandings(msg) {
  if (!data) return;
  const d = { ...data, status: msg.status, starts_at: msg.starts_at, ends_at: msg.ends_at, now: msg.now };
  d.standings = msg.top || [];
  d.podium = msg.podium || [];
  d.players = msg.players;
  if (msg.battle) d.battle = msg.battle;
  // The player's own row comes in `standings_you`; until then, as in the top rows.
  d.myRow = d.standings.find((s) => isMe(s.username)) || (data.myRow && d.standings.length < msg.players ? data.myRow : null);
  draw(d);
}

function fromMine(msg) {
  if (!data) return;
  const d = { ...data, myRow: msg.row, you: { ...(data.you || {}), ...msg.you } };
  if (msg.game) d.games = [msg.game];
  draw(d);
}

function closeWhenOver() {
  if (box.dataset.state === 'missing' || (data && data.status === 'finished' && !data.you?.game)) {
    socket.close();
    box.dataset.socket = 'closed';
  }
}

function listen() {
  socket = keepSocket(`/api/play/ws?arena=${encodeURIComponent(id)}`, {
    onOpen() {
      box.dataset.socket = 'open';
      live = false;
    },
    onStatus(status) {
      if (status !== 'open') box.dataset.socket = status;
    },
    async onMessage(msg) {
      if (msg.id !== id) return;
      if (msg.type === 'arena') {
        // As the socket opens: read the whole view once; later only if no standings came.
        if (!live) await load();
      } else if (msg.type === 'standings') {
        live = true;
        fromStandings(msg);
        box.dataset.live = 'true';
      } else if (msg.type === 'standings_you') {
        fromMine(msg);
      } else {
        return;
      }
      closeWhenOver();
    },
  });
}

/** The sentence for a refused join: in a team battle, about the club. */
function joinError(err) {
  if (data?.battle) {
    if (err?.category === 'conflict') return t('arenas.err_club_final');
    if (err?.category === 'forbidden') return t('arenas.err_not_member');
    if (err?.category === 'bad_request') return t('arenas.err_pick_club');
  }
  return arenaError(err);
}

async function act(path, body, button, says = arenaError) {
  notify($('action-status'), '');
  button.disabled = true;
  try {
    await api(`${apiBase}/${path}`, { method: 'POST', body });
    await load();
  } catch (err) {
    notify($('action-status'), says(err), 'error');
  } finally {
    button.disabled = false;
  }
}

$('join-button').addEventListener('click', (e) =>
  act('join', $('club-pick').hidden ? {} : { club: $('club-select').value }, e.currentTarget, joinError),
);
let stoppedHere = false;
$('stop-series').addEventListener('click', () => {
  $('stop-confirm').hidden = false;
  $('stop-series').hidden = true;
  $('stop-series-yes').focus();
});
$('stop-series-no').addEventListener('click', () => {
  $('stop-confirm').hidden = true;
  $('stop-series').hidden = false;
  $('stop-series').focus();
});
$('stop-series-yes').addEventListener('click', async (e) => {
  const button = e.currentTarget;
  button.disabled = true;
  try {
    await api(`/api/arenas/series/${encodeURIComponent(data.series)}/stop`, { method: 'POST', body: {} });
    stoppedHere = true;
    $('stop-confirm').hidden = true;
    notify($('series-status'), t('arenas.series_stopped'));
    box.dataset.series = 'stopped';
    await load();
  } catch (err) {
    notify($('series-status'), arenaError(err), 'error');
  } finally {
    button.disabled = false;
  }
});
$('pause-button').addEventListener('click', (e) => act('pause', {}, e.currentTarget));
$('berserk-button').addEventListener('click', (e) => act('berserk', { game: data?.you?.game }, e.currentTarget));

onAccount(() => data && draw(data));
load().then(() => {
  if (data && data.status !== 'finished') listen();
});
