// A player's profile (/@/NAME): name, member since, the rating of each game (a question mark
// when provisional), won/drawn/lost, a rating graph per game drawn as inline SVG from the
// history, and the player's recent games, a page at a time ("More games").
// Data: GET /api/users/{name} and GET /api/users/{name}/games (docs/api.md "Ratings").

import { $, api, el, errorText, notify, VARIANT_TITLES } from './app.js';
import { t, tn } from './i18n.js';
import { accountName, dateText } from './account.js';
import { challengeForm, lobbyError } from './challenge-form.js';
import { changeText, ratingNode } from './rating-text.js';
import { reportBox } from './report.js';

const VARIANTS = ['kiswahili', 'kete', 'kimasai'];
const SVG = 'http://www.w3.org/2000/svg';
const PAGE = 20;
/** Every player's first rating in every game (bao-rating's default, docs/api.md "Ratings"). */
const START_RATING = 1500;

const name = decodeURIComponent(location.pathname.replace(/^\/@\//, '').split('/')[0] || '');
const box = $('profile');
const status = $('page-status');

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) node.setAttribute(k, String(v));
  for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

/**
 * The rating graph of one game: the rating after each rated game, left to right, as an SVG
 * path; role img with the summary sentence as its name, and the same sentence under it.
 */
export function ratingGraph(variant, points, games) {
  const title = VARIANT_TITLES[variant] || variant;
  const id = `graph-${variant}`;
  const played = (points || []).filter((p) => p && typeof p.rating === 'number');
  if (played.length === 0) return el('div', { class: 'graph', 'data-variant': variant }, el('h3', {}, title), el('p', {}, t('players.graph_empty', { variant: title })));
  // The history holds the rating after each game (the last 200); when it holds every game,
  // the line starts where every player starts (docs/api.md "Ratings": 1500).
  const list = played.length === games ? [{ rating: START_RATING }, ...played] : played;
  const ratings = list.map((p) => Math.round(p.rating));
  const lo = Math.min(...ratings);
  const hi = Math.max(...ratings);
  const summary = tn('players.graph_summary', played.length, {
    variant: title,
    first: ratings[0],
    last: ratings[ratings.length - 1],
    n: played.length,
    max: hi,
    min: lo,
  });
  const W = 600;
  const H = 180;
  const left = 58;
  const right = 12;
  const top = 12;
  const bottom = 16;
  // Some room above and below, and never a flat scale of zero height.
  const span = Math.max(hi - lo, 20);
  const y0 = lo - span * 0.1;
  const y1 = hi + span * 0.1;
  const x = (i) => (list.length === 1 ? left + (W - left - right) / 2 : left + (i * (W - left - right)) / (list.length - 1));
  const y = (r) => top + ((y1 - r) * (H - top - bottom)) / (y1 - y0);
  const d = ratings.map((r, i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)},${y(r).toFixed(1)}`).join(' ');
  const picture = svg(
    'svg',
    { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-labelledby': `${id}-text`, focusable: 'false' },
    svg('line', { class: 'grid', x1: left, x2: W - right, y1: y(hi), y2: y(hi) }),
    svg('line', { class: 'grid', x1: left, x2: W - right, y1: y(lo), y2: y(lo) }),
    svg('text', { class: 'axis', x: 4, y: y(hi) + 4 }, hi),
    svg('text', { class: 'axis', x: 4, y: y(lo) + 4 }, lo),
    svg('path', { class: 'line', d }),
    ...(list.length <= 40 ? ratings.map((r, i) => svg('circle', { class: 'dot', cx: x(i).toFixed(1), cy: y(r).toFixed(1), r: 3 })) : []),
  );
  return el('div', { class: 'graph', 'data-variant': variant, id }, el('h3', {}, title), picture, el('p', { id: `${id}-text` }, summary));
}

function drawRatings(user) {
  const ratings = user.ratings || {};
  $('ratings').replaceChildren(
    ...VARIANTS.map((v) => {
      const r = ratings[v];
      const games = r?.games || 0;
      return el(
        'li',
        { 'data-variant': v },
        el('span', { class: 'variant' }, VARIANT_TITLES[v]),
        el('span', { class: 'rating' }, ratingNode(r, el, t)),
        el('span', { class: 'games' }, games ? tn('players.rated_games', games, { n: games }) : t('players.no_rated_games')),
      );
    }),
  );
}

/** The clubs the player belongs to, each a link to its page (docs/api.md "Clubs"). */
function drawClubs(user) {
  const clubs = Array.isArray(user.clubs) ? user.clubs : [];
  const roles = { leader: t('clubs.role_leader'), admin: t('clubs.role_admin'), member: t('clubs.role_member') };
  $('profile-clubs').replaceChildren(
    ...clubs.map((c) => el('li', {}, el('a', { href: `/club/${encodeURIComponent(c.id)}` }, c.name), ` (${roles[c.role] || roles.member})`)),
  );
  $('clubs-box').hidden = clubs.length === 0;
}

function drawResults(user) {
  const r = user.results || {};
  const cell = (label, n) => el('div', {}, el('dt', {}, label), el('dd', {}, String(n ?? 0)));
  $('results').replaceChildren(cell(t('players.won'), r.won), cell(t('players.drawn'), r.drawn), cell(t('players.lost'), r.lost));
}

function drawGraphs(user) {
  const history = user.history || {};
  // Games never played rated have no graph; with none at all, one sentence says so.
  const played = VARIANTS.filter((v) => (history[v] || []).length > 0);
  $('graphs').replaceChildren(...(played.length ? played.map((v) => ratingGraph(v, history[v], user.ratings?.[v]?.games)) : [el('p', { class: 'muted' }, t('players.no_graphs'))]));
}

/** An opponent's name from the games list (a name, or {kind, name, level}). */
function opponentText(o) {
  if (!o) return t('players.no_opponent');
  if (typeof o === 'string') return o;
  if (o.kind === 'computer') return t('common.computer_level', { level: o.level ?? '?' });
  return o.name || o.username || t('common.guest');
}

const RESULT = {
  won: () => t('players.result_won'),
  drawn: () => t('players.result_drawn'),
  lost: () => t('players.result_lost'),
  playing: () => t('players.result_playing'),
};

function gameItem(g) {
  const variant = VARIANT_TITLES[g.variant] || g.variant;
  const vs = t('players.game_versus', { opponent: opponentText(g.opponent) });
  const result = RESULT[g.result] ? RESULT[g.result]() : '';
  // The player's own change: a number, or the game's {"S": n, "N": n} read at the player's side.
  const rc = g.rating_change && typeof g.rating_change === 'object' ? g.rating_change[g.side] : g.rating_change;
  const change = g.rated && typeof rc === 'number' ? changeText(rc) : null;
  const when = g.ended ? dateText(g.ended) : '';
  return el(
    'li',
    { 'data-game': g.id },
    el(
      'div',
      {},
      el('a', { href: `/g/${encodeURIComponent(g.id)}` }, `${variant}: ${vs}`),
      el(
        'div',
        { class: 'meta' },
        el('span', { class: g.result }, result),
        change ? ` (${change})` : '',
        el('span', { class: 'tag' }, g.rated ? t('players.rated_tag') : t('players.casual_tag')),
        when ? ` · ${when}` : '',
      ),
    ),
  );
}

let cursor = null;
let loading = false;
async function loadGames(first) {
  if (loading) return;
  loading = true;
  const more = $('more-games');
  more.disabled = true;
  try {
    const q = new URLSearchParams({ limit: String(PAGE) });
    if (!first && cursor) q.set('cursor', cursor);
    const page = await api(`/api/users/${encodeURIComponent(name)}/games?${q}`);
    const games = Array.isArray(page) ? page : page.games || page.items || [];
    cursor = Array.isArray(page) ? null : page.next || null;
    const list = $('recent-games');
    if (first) list.replaceChildren();
    list.append(...games.map(gameItem));
    if (!list.children.length) list.append(el('li', { class: 'muted' }, t('players.no_games')));
    more.hidden = !cursor;
  } catch (err) {
    notify(status, t('players.games_unavailable', { error: errorText(err) }), 'error');
  } finally {
    more.disabled = false;
    loading = false;
  }
}

function missing() {
  box.dataset.state = 'missing';
  $('profile-loading').hidden = true;
  $('profile-name').textContent = t('players.not_found_title');
  document.title = `${t('players.not_found_title')} · bao`;
  notify(status, t('players.not_found', { name }), 'error');
  $('profile-missing').hidden = false;
}

/**
 * "Challenge" (the small form of static/challenge-form.js, `POST /api/challenges`) and
 * "Block" / "Unblock" (`/api/blocks`) on another player's profile; a signed-out visitor gets a
 * link to sign in (docs/api.md "Finding an opponent").
 */
async function actions(who) {
  const box = el('section', { class: 'profile-actions', id: 'profile-actions', 'aria-label': t('lobby.challenge_title', { name: who }) });
  $('member-since').after(box);
  if (!accountName()) {
    const back = encodeURIComponent(location.pathname);
    box.append(el('p', {}, el('a', { href: `/account/login?next=${back}`, id: 'challenge-sign-in' }, t('lobby.sign_in_to_challenge', { name: who }))));
    return;
  }
  let blocked = false;
  const note = el('p', { class: 'small muted', id: 'blocked-note', hidden: true }, t('lobby.blocked_note', { name: who }));
  const status = el('p', { class: 'status', id: 'profile-action-status', role: 'status', hidden: true });
  const open = el('button', { type: 'button', class: 'primary', id: 'challenge-open', 'aria-expanded': 'false', 'aria-controls': 'challenge-form' }, t('lobby.challenge_button'));
  const block = el('button', { type: 'button', id: 'block-toggle' }, t('lobby.block'));
  const form = challengeForm({
    id: 'challenge-form',
    submitText: t('lobby.challenge_submit'),
    onSubmit: async (terms) => {
      await api('/api/challenges', { method: 'POST', body: { to: who, rules: '-', ...terms } });
      show(false);
      notify(status, t('lobby.challenge_sent', { name: who }));
    },
  });
  form.rated(true);
  form.form.hidden = true;
  const show = (yes) => {
    form.form.hidden = !yes;
    open.setAttribute('aria-expanded', String(yes));
    if (yes) form.form.querySelector('select')?.focus();
  };
  open.addEventListener('click', () => show(form.form.hidden));
  const draw = () => {
    block.textContent = blocked ? t('lobby.unblock') : t('lobby.block');
    note.hidden = !blocked;
    box.dataset.blocked = String(blocked);
  };
  block.addEventListener('click', async () => {
    block.disabled = true;
    try {
      if (blocked) await api(`/api/blocks/${encodeURIComponent(who)}`, { method: 'DELETE', body: {} });
      else await api('/api/blocks', { method: 'POST', body: { username: who } });
      blocked = !blocked;
      draw();
      notify(status, blocked ? t('lobby.block_done', { name: who }) : t('lobby.unblock_done', { name: who }));
    } catch (err) {
      notify(status, lobbyError(err), 'error');
    } finally {
      block.disabled = false;
    }
  });
  box.append(el('p', { class: 'row' }, open, block), note, form.form, status, reportBox(who));
  try {
    const r = await api('/api/blocks');
    blocked = (r.blocked || []).some((n) => String(n).toLowerCase() === who.toLowerCase());
  } catch {
    /* shown as not blocked; the server refuses what it must */
  }
  draw();
  box.dataset.state = 'ready';
}

async function init() {
  if (!/^[A-Za-z0-9_-]{1,40}$/.test(name)) return missing();
  let user;
  try {
    user = await api(`/api/users/${encodeURIComponent(name)}`);
  } catch (err) {
    if (err.status === 404) return missing();
    box.dataset.state = 'error';
    $('profile-loading').hidden = true;
    notify(status, t('players.profile_unavailable', { error: errorText(err) }), 'error');
    return;
  }
  const mine = accountName() && accountName().toLowerCase() === String(user.username).toLowerCase();
  $('profile-name').textContent = mine ? t('players.profile_heading_you', { name: user.username }) : user.username;
  document.title = t('players.doc_title', { name: user.username });
  $('member-since').textContent = t('players.member_since', { date: dateText(user.created) });
  if (!mine) actions(user.username);
  drawClubs(user);
  drawRatings(user);
  drawResults(user);
  drawGraphs(user);
  $('profile-loading').hidden = true;
  $('profile-body').hidden = false;
  $('more-games').addEventListener('click', () => loadGames(false));
  await loadGames(true);
  box.dataset.state = 'ready';
}

init();
