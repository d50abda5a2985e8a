// One tournament (/t/{id}): the header (name, game, format, clock, status, organiser), Join /
// Withdraw (with the code of a private one), the organiser's Start / Pause / Resume / Remove,
// "Your game" while the player has a game in the current round, then by format: a crosstable
// (round robin), a bracket (knockout), rounds and standings (Swiss), the tie-breaks explained,
// and the CSV and games-file links. Data: GET /api/tournaments/{id} (docs/api.md
// "Tournaments"), asked again when the player socket (`/api/play/ws?tournament=ID`, docs/api.md
// "The player socket") says it changed: once as the socket opens (also after a reconnect), then
// at each change. No polling.

import { $, api, el, errorText, notify, VARIANT_TITLES } from './app.js';
import { t } from './i18n.js';
import { accountName, onAccount, profileUrl } from './account.js';
import { clockText, formatText, statusText, tiebreakText, timeText, tournamentError } from './tournaments.js';
import { tiebreakAbbr } from './tiebreaks.js';
import { keepSocket } from './socket.js';

const box = $('tournament');
const id = decodeURIComponent(location.pathname.split('/')[2] || '');
const apiBase = `/api/tournaments/${encodeURIComponent(id)}`;
const codeFromLink = new URLSearchParams(location.search).get('code') || '';

let data = null;
const same = (a, b) => typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase();
const isMe = (name) => same(name, accountName());

// ---------- results ----------

/** `pairing`'s result for `player`: 1, 0.5, 0, or null while it is played. */
function scoreOf(p, player) {
  if (!p.result) return null;
  if (p.result === 'draw') return 0.5;
  const side = same(p.S, player) ? 'S' : 'N';
  return p.result === side ? 1 : 0;
}

/** The crosstable's mark for a score: 1, ½, 0; + and − for a game won or lost by forfeit. */
function mark(score, forfeit) {
  if (score === null) return '•';
  if (forfeit) return score === 1 ? '+' : '−';
  return score === 1 ? '1' : score === 0 ? '0' : '½';
}

const num = (x) => {
  const n = Number(x);
  if (!Number.isFinite(n)) return String(x ?? '');
  const whole = Math.floor(n);
  const half = Math.abs(n - whole - 0.5) < 1e-9;
  if (half) return whole === 0 ? '½' : `${whole}½`;
  return Number.isInteger(n) ? String(n) : n.toFixed(2).replace(/0$/, '');
};

/** "1–0", "½–½", "0–1" (South first), or null while the game is played. */
function resultText(p) {
  if (!p.result) return null;
  if (p.result === 'draw') return '½–½';
  return p.result === 'S' ? '1–0' : '0–1';
}

const gameUrl = (g) => `/g/${encodeURIComponent(g)}`;
const playerLink = (name) => el('a', { href: profileUrl(name) }, name);
/** A team tournament's entrant by name: a link to its club's page (docs/api.md "Team tournaments"). */
const clubLink = (d, name) => {
  const c = (d.players || []).find((p) => p.username === name);
  return c?.club ? el('a', { href: `/club/${encodeURIComponent(c.club)}` }, name) : name;
};
/** An entrant: a player's profile, or a club's page in a team tournament. */
const entrantLink = (d, name) => (d.teams ? clubLink(d, name) : playerLink(name));

function allPairings(d) {
  return (d.rounds || []).flatMap((r) => (r.pairings || []).map((p) => ({ ...p, round: r.no })));
}

/** The game of this browser's player being played in the current round, if any. */
function myGame(d) {
  if (!accountName() || d.status === 'finished' || d.status === 'cancelled') return null;
  for (const r of [...(d.rounds || [])].reverse()) {
    for (const p of r.pairings || []) {
      if (p.game && !p.result && (isMe(p.S) || isMe(p.N))) return { game: p.game, round: r.no, opponent: isMe(p.S) ? p.N : p.S };
    }
  }
  const ko = d.knockout?.rounds || [];
  for (let i = ko.length - 1; i >= 0; i--) {
    for (const m of ko[i] || []) {
      for (const g of m.games || []) {
        if (g.game && !g.result && (isMe(g.S) || isMe(g.N))) return { game: g.game, round: i + 1, opponent: isMe(g.S) ? g.N : g.S };
      }
    }
  }
  return null;
}

// ---------- the header and the buttons ----------

/** Points for a bye in words. */
function byeText(points) {
  if (points === 0.5) return t('tournaments.bye_points_half');
  if (points === 0) return t('tournaments.bye_points_zero');
  return t('tournaments.bye_points_one');
}

function teamByeText(points) {
  if (points === 0.5) return t('tournaments.team_bye_half');
  if (points === 0) return t('tournaments.team_bye_zero');
  return t('tournaments.team_bye_one');
}

function fact(term, ...value) {
  return el('div', {}, el('dt', {}, term), el('dd', {}, ...value));
}

/** Club names by id, read once from GET /api/clubs/{id} (the view names the club by id). */
const clubNames = new Map();

/** A club-only tournament: who may join, with a link to the club's page. */
function clubFact(id) {
  if (!clubNames.has(id)) {
    clubNames.set(id, null);
    api(`/api/clubs/${encodeURIComponent(id)}`)
      .then((c) => {
        clubNames.set(id, c.name);
        if (data) drawHeader(data);
      })
      .catch(() => clubNames.delete(id));
  }
  const name = clubNames.get(id);
  const href = `/club/${encodeURIComponent(id)}`;
  return name
    ? el('a', { href, id: 't-for-club' }, t('tournaments.club_members_only', { club: name }))
    : el('a', { href, id: 't-for-club' }, t('tournaments.club_members_only_unnamed'));
}

function drawHeader(d) {
  document.title = t('tournaments.doc_title', { name: d.name });
  $('t-name').textContent = d.name;
  const count = (d.players || []).filter((p) => !p.withdrawn).length;
  const roundsTotal = d.rounds_total || (d.format?.kind === 'swiss' ? d.format.rounds : null);
  const facts = [
    fact(t('tournaments.fact_status'), el('span', { class: d.status === 'running' ? 'tag live' : 'tag', id: 't-status' }, statusText(d.status))),
    fact(t('tournaments.fact_game'), VARIANT_TITLES[d.variant] || d.variant || ''),
    fact(t('tournaments.fact_format'), formatText(d.format)),
    d.teams ? fact(t('tournaments.fact_teams'), t('tournaments.teams_boards', { n: d.teams.boards })) : null,
    fact(t('tournaments.fact_clock'), clockText(d.clock)),
    fact(t('tournaments.fact_rated'), d.rated ? t('tournaments.rated_yes') : t('tournaments.rated_no')),
    d.forfeit_after_ms ? fact(t('tournaments.fact_forfeit'), t('tournaments.forfeit_after', { n: Math.round(d.forfeit_after_ms / 60000) || 1 })) : null,
    d.format?.kind === 'knockout' ? null : fact(t('tournaments.fact_bye'), d.teams ? teamByeText(d.bye_points) : byeText(d.bye_points)),
    fact(t('tournaments.fact_organiser'), d.organiser ? playerLink(d.organiser) : ''),
    d.teams
      ? fact(t('tournaments.clubs_heading'), t('tournaments.clubs_count', { n: count, max: d.max_players ?? '?' }))
      : fact(t('tournaments.fact_players'), t('tournaments.players_count', { n: count, max: d.max_players ?? '?' })),
    d.status === 'open'
      ? fact(t('tournaments.fact_start'), d.starts_at ? timeText(d.starts_at) : t('tournaments.starts_by_organiser'))
      : d.round
        ? fact(
            t('tournaments.fact_round'),
            el('span', { id: 't-round' }, roundsTotal ? t('tournaments.round_of', { n: d.round, total: roundsTotal }) : String(d.round)),
          )
        : null,
    d.private ? fact(t('tournaments.fact_private'), t('tournaments.private_yes')) : null,
    d.club ? fact(t('tournaments.fact_club'), clubFact(d.club)) : null,
  ];
  $('t-facts').replaceChildren(...facts.filter(Boolean));
  let live = '';
  if (d.status === 'paused') live = t('tournaments.paused_note');
  else if (d.status === 'finished') {
    const first = (d.standings || []).find((s) => Number(s.rank) === 1);
    const champion = d.knockout ? lastWinner(d) : first?.player;
    live = champion ? t('tournaments.finished_winner', { name: champion }) : t('tournaments.status_finished');
  }
  // A polite live region: said again only when it changes, not on every poll.
  if ($('t-live').textContent !== live) notify($('t-live'), live);
}

function lastWinner(d) {
  const rounds = d.knockout?.rounds || [];
  const final = rounds[rounds.length - 1]?.[0];
  return final?.winner || null;
}

function drawActions(d) {
  const me = accountName();
  const you = d.you || {};
  const mine = (d.players || []).find((p) => isMe(p.username));
  const active = ['open', 'running', 'paused'].includes(d.status);
  const count = (d.players || []).length;

  const g = myGame(d);
  const yours = $('your-game');
  yours.hidden = !g;
  if (g) {
    yours.href = gameUrl(g.game);
    yours.textContent = t('tournaments.your_game', { round: g.round, opponent: g.opponent || '?' });
  }

  const canJoin = d.status === 'open' && !you.joined;
  $('join-form').hidden = !(canJoin && me) || !!d.teams;
  // A team tournament: clubs, entered by their leaders and admins.
  const clubs = d.teams && me ? you.clubs || [] : [];
  const free = clubs.filter((c) => !c.entered);
  $('club-form').hidden = !(d.status === 'open' && free.length > 0);
  const pick = $('club-pick');
  if (pick.dataset.ids !== free.map((c) => c.id).join()) {
    pick.replaceChildren(...free.map((c) => el('option', { value: c.id }, c.name)));
    pick.dataset.ids = free.map((c) => c.id).join();
  }
  $('club-enter').disabled = count >= (d.max_players || Infinity);
  const entered = clubs.find((c) => c.entered && !(d.players || []).find((p) => p.club === c.id)?.withdrawn);
  const out = $('club-withdraw');
  out.hidden = !(entered && active);
  out.dataset.club = entered ? entered.id : '';
  out.textContent = entered ? t('tournaments.team_withdraw', { club: entered.name }) : '';
  $('join-code').hidden = !d.private;
  $('join-code-label').hidden = !d.private;
  $('join-code').required = !!d.private;
  if (d.private && !$('join-code').value && codeFromLink) $('join-code').value = codeFromLink;
  $('join-button').disabled = count >= (d.max_players || Infinity);
  const signin = $('join-signin');
  signin.hidden = !(canJoin && !me) || !!d.teams;
  signin.href = `/account/login?next=${encodeURIComponent(location.pathname + location.search)}`;

  $('withdraw-button').hidden = !(you.joined && active && !(mine && mine.withdrawn));
  $('start-button').hidden = !(you.organiser && d.status === 'open');
  $('pause-button').hidden = !(you.organiser && d.status === 'running');
  $('resume-button').hidden = !(you.organiser && d.status === 'paused');

  // A private tournament's code, for the organiser to pass on (it came with the creation).
  const share = $('t-share');
  share.hidden = !(you.organiser && d.private && codeFromLink && d.status === 'open');
  if (!share.hidden) {
    const link = `${location.origin}/t/${encodeURIComponent(d.id)}?code=${encodeURIComponent(codeFromLink)}`;
    share.replaceChildren(t('tournaments.share_code'), ' ', el('code', {}, codeFromLink), el('br'), t('tournaments.share_link'), ' ', el('a', { href: link }, link));
  }
}

function drawPlayers(d) {
  const players = d.players || [];
  $('h-players').textContent = d.teams ? t('tournaments.clubs_heading') : t('tournaments.players_heading');
  const organiserCan = d.you?.organiser && d.status !== 'finished' && d.status !== 'cancelled';
  $('t-players').replaceChildren(
    ...players.map((p) =>
      el(
        'li',
        { class: p.withdrawn ? 'withdrawn' : null, 'data-player': p.username },
        d.teams ? clubLink(d, p.username) : playerLink(p.username),
        p.rating ? el('span', { class: 'muted small' }, `(${p.rating})`) : null,
        isMe(p.username) ? el('span', { class: 'small' }, t('tournaments.you')) : null,
        p.withdrawn ? el('span', { class: 'small' }, t('tournaments.withdrawn')) : null,
        organiserCan && !p.withdrawn && !isMe(p.username)
          ? el(
              'button',
              {
                type: 'button',
                class: 'danger',
                'aria-label': t('tournaments.remove_label', { name: p.username }),
                onclick: () => remove(p.username),
              },
              t('tournaments.remove'),
            )
          : null,
      ),
    ),
  );
  $('players-empty').hidden = players.length > 0;
}

// ---------- round robin: the crosstable ----------

function tiebreakKeys(d) {
  const named = (d.tiebreaks || []).map((x) => x.key).filter(Boolean);
  if (named.length) return named;
  return Object.keys(d.standings?.[0]?.tiebreaks || {});
}

function tiebreakHead(d, key) {
  const tb = (d.tiebreaks || []).find((x) => x.key === key) || { key };
  const [name] = tiebreakText(tb);
  const short = tiebreakAbbr(tb, t);
  // The short header is secondary: the full name is its title and accessible name.
  return el('th', { scope: 'col', class: 'num', 'aria-label': name || null }, name && name !== short ? el('abbr', { title: name }, short) : short);
}

/** The players in the order of the standings (then by seed), with their standing row. */
function ordered(d) {
  const rows = new Map((d.standings || []).map((s) => [String(s.player).toLowerCase(), s]));
  return [...(d.players || [])]
    .map((p) => ({ ...p, standing: rows.get(String(p.username).toLowerCase()) }))
    .sort((a, b) => (a.standing?.rank ?? 1e9) - (b.standing?.rank ?? 1e9) || (a.seed ?? 0) - (b.seed ?? 0));
}

function drawCrosstable(d) {
  const players = ordered(d);
  const keys = tiebreakKeys(d);
  const games = allPairings(d);
  const head = el(
    'tr',
    {},
    el('th', { scope: 'col', class: 't-player' }, t('tournaments.col_player')),
    ...players.map((_, i) => el('th', { scope: 'col' }, String(i + 1))),
    el('th', { scope: 'col', class: 'num' }, t('tournaments.col_points')),
    ...keys.map((k) => tiebreakHead(d, k)),
  );
  const rows = players.map((p, i) =>
    el(
      'tr',
      { class: isMe(p.username) ? 'me' : null, 'data-player': p.username },
      el('th', { scope: 'row', class: 't-player' }, `${i + 1}. `, playerLink(p.username), p.withdrawn ? el('span', { class: 'small' }, t('tournaments.withdrawn')) : null),
      ...players.map((q) => {
        if (q === p) return el('td', { class: 'self' });
        const between = games.filter((g) => (same(g.S, p.username) && same(g.N, q.username)) || (same(g.N, p.username) && same(g.S, q.username)));
        return el(
          'td',
          {},
          ...between.map((g, k) => {
            const s = scoreOf(g, p.username);
            const m = mark(s, g.termination === 'forfeit');
            const label = t('tournaments.cell_label', { player: p.username, opponent: q.username, result: m });
            return [k ? ' ' : '', g.game ? el('a', { href: gameUrl(g.game), 'aria-label': label }, m) : el('span', { 'aria-label': label, role: 'img' }, m)];
          }),
        );
      }),
      el('td', { class: 'num pts' }, num(p.standing?.points ?? 0)),
      ...keys.map((k) => el('td', { class: 'num' }, num(p.standing?.tiebreaks?.[k] ?? ''))),
    ),
  );
  $('cross-box').replaceChildren(
    el('table', { class: 't-table', id: 'crosstable' }, el('caption', { class: 'visually-hidden' }, t('tournaments.crosstable_heading')), el('thead', {}, head), el('tbody', {}, ...rows)),
  );
}

// ---------- Swiss: standings and rounds ----------

function drawStandings(d) {
  const keys = tiebreakKeys(d);
  const rows = (d.standings || []).map((s) =>
    el(
      'tr',
      { class: isMe(s.player) ? 'me' : null, 'data-player': s.player },
      el('td', { class: 'num' }, String(s.rank)),
      el('th', { scope: 'row', class: 't-player' }, entrantLink(d, s.player)),
      el('td', { class: 'num pts' }, num(s.points)),
      ...keys.map((k) => el('td', { class: 'num' }, num(s.tiebreaks?.[k] ?? ''))),
    ),
  );
  $('standings-box').replaceChildren(
    el(
      'table',
      { class: 't-table', id: 'standings' },
      el('caption', { class: 'visually-hidden' }, t('tournaments.standings_heading')),
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          el('th', { scope: 'col', class: 'num' }, t('tournaments.col_rank')),
          el('th', { scope: 'col', class: 't-player' }, d.teams ? t('tournaments.col_club') : t('tournaments.col_player')),
          el('th', { scope: 'col', class: 'num' }, d.teams ? t('tournaments.col_match_points') : t('tournaments.col_points')),
          ...keys.map((k) => tiebreakHead(d, k)),
        ),
      ),
      el('tbody', {}, ...rows),
    ),
  );
}

function drawRounds(d) {
  const rounds = [...(d.rounds || [])].sort((a, b) => b.no - a.no);
  $('rounds').replaceChildren(
    ...rounds.map((r) =>
      el(
        'section',
        { class: 't-round panel', 'data-round': r.no, 'aria-labelledby': `round-${r.no}` },
        el('h3', { id: `round-${r.no}` }, t('tournaments.round_heading', { n: r.no })),
        el(
          'ul',
          { class: 't-pairings' },
          ...(r.pairings || []).map((p) => {
            if (d.teams) return teamPairing(d, p);
            const res = resultText(p);
            const mineRow = isMe(p.S) || isMe(p.N);
            return el(
              'li',
              { 'data-game': p.game || null, 'data-result': p.result || '', class: mineRow ? 'me' : null },
              el('span', { class: 'who' }, playerLink(p.S), ' – ', playerLink(p.N)),
              el(
                'span',
                { class: 'res' },
                res ? `${res}${p.termination === 'forfeit' ? ` ${t('tournaments.by_forfeit')}` : ''}` : t('tournaments.playing'),
                p.game ? [' ', el('a', { href: gameUrl(p.game) }, res ? t('tournaments.see_game') : mineRow ? t('tournaments.play_game') : t('tournaments.watch_game'))] : null,
              ),
            );
          }),
          ...(r.byes || []).map((name) => el('li', { class: isMe(name) ? 'me bye' : 'bye' }, el('span', { class: 'who' }, entrantLink(d, name)), el('span', { class: 'res' }, t('tournaments.bye')))),
        ),
      ),
    ),
  );
}

/** A team tournament's pairing: the clubs, the match's board points in words, its page. */
function teamPairing(d, p) {
  let res;
  if (p.result && p.score) {
    const score = { home: p.S, away: p.N, s: num(p.score.S), n: num(p.score.N) };
    res = p.result === 'draw' ? t('tournaments.team_drawn', score) : t('tournaments.team_won', { ...score, club: p.result === 'S' ? p.S : p.N });
  } else if (p.result) {
    res = t('tournaments.team_forfeit', { club: p.result === 'S' ? p.S : p.N });
  } else {
    res = t('tournaments.team_playing');
  }
  return el(
    'li',
    { 'data-match': p.match || null, 'data-result': p.result || '' },
    el('span', { class: 'who' }, clubLink(d, p.S), ' – ', clubLink(d, p.N)),
    el('span', { class: 'res' }, res, p.url ? [' ', el('a', { href: p.url }, t('tournaments.team_see_match'))] : null),
  );
}

// ---------- knockout: the bracket ----------

function koRoundName(i, total) {
  const fromEnd = total - 1 - i;
  if (fromEnd === 0) return t('tournaments.ko_final');
  if (fromEnd === 1) return t('tournaments.ko_semi');
  if (fromEnd === 2) return t('tournaments.ko_quarter');
  return t('tournaments.round_heading', { n: i + 1 });
}

/** One match of the bracket: both players (the winner bold), the points, its games. */
function matchBox(m, round, k) {
  const games = m.games || [];
  const pts = (name) => games.reduce((sum, g) => sum + (scoreOf(g, name) ?? 0), 0);
  const side = (name) =>
    el(
      'div',
      { class: m.winner && same(m.winner, name) ? 'side won' : 'side' },
      el('span', {}, name ? playerLink(name) : el('span', { class: 'muted' }, m.winner ? t('tournaments.ko_bye') : t('tournaments.ko_tbd'))),
      el('span', { class: 'num' }, games.some((g) => g.result) && name ? num(pts(name)) : ''),
    );
  return el(
    'div',
    { class: 't-match', 'data-match': `${round}-${k + 1}` },
    m.third_place ? el('div', { class: 'small muted' }, t('tournaments.ko_third')) : null,
    side(m.a),
    side(m.b),
    games.length
      ? el(
          'div',
          { class: 'games' },
          // A match is one server game of best of three (docs/api.md "Tournaments"); several
          // games are listed one by one.
          ...games.map((g, n) =>
            el(
              'a',
              { href: gameUrl(g.game) },
              games.length === 1
                ? g.result
                  ? t('tournaments.ko_match')
                  : t('tournaments.ko_match_playing')
                : [t('tournaments.ko_game', { n: n + 1 }), g.result ? '' : ` (${t('tournaments.playing')})`],
            ),
          ),
        )
      : null,
  );
}

function drawBracket(d) {
  const rounds = d.knockout?.rounds || [];
  $('bracket').replaceChildren(
    ...rounds.map((matches, i) =>
      el(
        'section',
        { class: 'col', 'data-round': i + 1, 'aria-labelledby': `ko-${i}` },
        el('h3', { id: `ko-${i}` }, koRoundName(i, rounds.length)),
        el('div', { class: 'matches' }, ...(matches || []).map((m, k) => matchBox(m, i + 1, k))),
      ),
    ),
  );
}

// ---------- the whole page ----------

function draw(d) {
  data = d;
  box.dataset.status = d.status;
  box.dataset.round = String(d.round || 0);
  drawHeader(d);
  drawActions(d);
  drawPlayers(d);
  const kind = d.format?.kind;
  const started = (d.rounds || []).length > 0 || (d.knockout?.rounds || []).length > 0;
  // A team tournament's standings are by match points then board points: a table, not a
  // crosstable of games; its rounds list the matches, a knockout's too.
  $('cross-part').hidden = !(kind === 'round_robin' && started && !d.teams);
  $('bracket-part').hidden = !(kind === 'knockout' && started && !d.teams);
  $('standings-part').hidden = !((kind === 'swiss' || d.teams) && (d.standings || []).length > 0);
  $('rounds-part').hidden = !((kind !== 'knockout' || d.teams) && started);
  const scrolled = ['cross-box', 'standings-box', 'bracket'].map((b) => [b, $(b).scrollLeft]);
  if (!$('cross-part').hidden) drawCrosstable(d);
  if (!$('bracket-part').hidden) drawBracket(d);
  if (!$('standings-part').hidden) drawStandings(d);
  if (!$('rounds-part').hidden) drawRounds(d);
  for (const [b, x] of scrolled) $(b).scrollLeft = x;
  const tbs = d.tiebreaks || [];
  $('legend-points').hidden = !!d.teams;
  $('legend-team-points').hidden = !d.teams;
  $('legend').hidden = !started || (kind === 'knockout' && !d.teams) || tbs.length === 0;
  $('legend-list').replaceChildren(
    ...tbs.flatMap((x) => {
      const [name, explain] = tiebreakText(x);
      const short = tiebreakAbbr(x, t);
      return [el('dt', {}, name.includes(short) ? name : `${name} (${short})`), el('dd', {}, explain)];
    }),
  );
  $('csv-link').href = `${apiBase}/standings.csv`;
  $('games-link').href = `${apiBase}/games.txt`;
  $('downloads').hidden = !started;
  $('t-loading').hidden = true;
  $('t-body').hidden = false;
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
    // Redrawn only when something changed: a redraw would move a reader's focus and the
    // tables' sideways scroll back every few seconds.
    const text = JSON.stringify(d);
    if (text === lastText) return;
    lastText = text;
    draw(d);
  } catch (err) {
    if (mine !== seq) return;
    if (err.status === 404) {
      box.dataset.state = 'missing';
      $('t-loading').hidden = true;
      $('t-body').hidden = true;
      $('t-name').textContent = t('tournaments.missing_title');
      notify($('page-status'), t('tournaments.missing'), 'error');
      return;
    }
    // A failed refresh keeps what is shown; only a first load has nothing to show.
    notify($('page-status'), t('tournaments.page_unavailable', { error: errorText(err) }), 'error');
    if (!data) box.dataset.state = 'error';
  }
}

// The player socket tells the page when the tournament changed: `tournament` once it is open
// (what changed while it was closed), then at every change. Closed once the tournament is over.
let socket = null;
function listen() {
  socket = keepSocket(`/api/play/ws?tournament=${encodeURIComponent(id)}`, {
    onOpen() {
      box.dataset.socket = 'open';
    },
    onStatus(status) {
      if (status !== 'open') box.dataset.socket = status;
    },
    async onMessage(msg) {
      if (msg.type !== 'tournament' || msg.id !== id) return;
      await load();
      const over = data && (data.status === 'finished' || data.status === 'cancelled');
      if (over || box.dataset.state === 'missing') {
        socket.close();
        box.dataset.socket = 'closed';
      }
    },
  });
}

async function act(path, body = {}, button = null) {
  const status = $('action-status');
  notify(status, '');
  if (button) button.disabled = true;
  try {
    await api(`${apiBase}/${path}`, { method: 'POST', body });
    await load();
    return true;
  } catch (err) {
    notify(status, tournamentError(err), 'error');
    return false;
  } finally {
    if (button) button.disabled = false;
  }
}

function remove(name) {
  if (!window.confirm(t('tournaments.remove_confirm', { name }))) return;
  act('remove', { username: name });
}

$('join-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const code = $('join-code').value.trim();
  if (data?.private && !code) {
    notify($('action-status'), t('tournaments.err_needs_code'), 'error');
    $('join-code').focus();
    return;
  }
  act('join', data?.private ? { code } : {}, $('join-button'));
});
$('club-form').addEventListener('submit', (e) => {
  e.preventDefault();
  act('join', { club: $('club-pick').value }, $('club-enter'));
});
$('club-withdraw').addEventListener('click', (e) => {
  if (!window.confirm(t('tournaments.team_withdraw_confirm'))) return;
  act('withdraw', { club: e.currentTarget.dataset.club }, e.currentTarget);
});
$('withdraw-button').addEventListener('click', (e) => {
  if (!window.confirm(t('tournaments.withdraw_confirm'))) return;
  act('withdraw', {}, e.currentTarget);
});
$('start-button').addEventListener('click', (e) => {
  if ((data?.players || []).filter((p) => !p.withdrawn).length < 2) {
    notify($('action-status'), t('tournaments.err_start_two'), 'error');
    return;
  }
  act('start', {}, e.currentTarget);
});
$('pause-button').addEventListener('click', (e) => act('pause', {}, e.currentTarget));
$('resume-button').addEventListener('click', (e) => act('resume', {}, e.currentTarget));

// account.js confirms a remembered name with the server; the page redraws when it changes.
onAccount(() => data && draw(data));
load().then(() => {
  const over = data && (data.status === 'finished' || data.status === 'cancelled');
  if (data && !over) listen();
});
