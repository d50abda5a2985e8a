// The tournament list (/tournaments) and the form that makes one (/tournaments/new); also the
// words for a tournament's format, clock and status that the tournament page (tournament.js)
// shares. Data: GET/POST /api/tournaments (docs/api.md "Tournaments").

import { $, api, el, errorText, notify, VARIANT_TITLES } from './app.js';
import { t, lang } from './i18n.js';
import { onAccount, profileUrl } from './account.js';
import { tiebreakExplain, tiebreakName } from './tiebreaks.js';

/** The format in words: "Swiss, 5 rounds". */
export function formatText(f) {
  if (!f || typeof f !== 'object') return '';
  if (f.kind === 'round_robin') return f.double ? t('tournaments.format_double') : t('tournaments.format_round_robin');
  if (f.kind === 'swiss') return t('tournaments.format_swiss_rounds', { n: f.rounds });
  if (f.kind === 'knockout') return f.third_place ? t('tournaments.format_knockout_third') : t('tournaments.format_knockout');
  return String(f.kind || '');
}

/** The clock in words: "5 min + 3 s a move" or "2 days a move". */
export function clockText(c) {
  if (!c || typeof c !== 'object') return '';
  if (c.days_per_move) {
    const n = Number(c.days_per_move);
    return n === 1 ? t('tournaments.clock_one_day') : t('tournaments.clock_days', { n });
  }
  const min = Math.round((Number(c.initial_ms) || 0) / 6000) / 10;
  const sec = Math.round((Number(c.increment_ms) || 0) / 100) / 10;
  return t('tournaments.clock_live', { min, sec });
}

/** The status in words. */
export function statusText(s) {
  switch (s) {
    case 'open':
      return t('tournaments.status_open');
    case 'running':
      return t('tournaments.status_running');
    case 'paused':
      return t('tournaments.status_paused');
    case 'finished':
      return t('tournaments.status_finished');
    case 'cancelled':
      return t('tournaments.status_cancelled');
    default:
      return String(s || '');
  }
}

/** A tie-break's name and explanation in the page's language (static/tiebreaks.js). */
export function tiebreakText(tb) {
  return [tiebreakName(tb, t), tiebreakExplain(tb, t)];
}

/** A moment (ms since the epoch) in the page's language: "5 December 2026, 18:00". */
export function timeText(ms) {
  const d = new Date(Number(ms));
  if (!ms || Number.isNaN(d.getTime())) return '';
  try {
    return d.toLocaleString(lang === 'sw' ? 'sw-TZ' : 'en-GB', { day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit' });
  } catch {
    return d.toISOString().slice(0, 16).replace('T', ' ');
  }
}

/** The sentence for a refused tournament request: the catalog's words for the tournament refusals. */
export function tournamentError(err) {
  switch (err && err.category) {
    case 'needs_code':
      return t('tournaments.err_needs_code');
    case 'full':
      return t('tournaments.err_full');
    case 'started':
      return t('tournaments.err_started');
    case 'not_signed_in':
      return t('tournaments.err_signin');
    case 'too_few_players':
      return t('tournaments.err_start_two');
    case 'not_organiser':
      return t('tournaments.err_not_organiser');
    case 'wrong_status':
    case 'over':
      return t('tournaments.err_wrong_status');
    case 'not_registered':
      return t('tournaments.err_not_registered');
    case 'no_such_tournament':
      return t('tournaments.missing');
    default:
      return err && err.status === 401 ? t('tournaments.err_signin') : errorText(err);
  }
}

// ---------- /tournaments ----------

const PAGE = 10;

function card(x) {
  const facts = [
    VARIANT_TITLES[x.variant] || x.variant,
    formatText(x.format),
    clockText(x.clock),
    t('tournaments.players_count', { n: x.players ?? 0, max: x.max_players ?? '?' }),
  ];
  const when =
    x.status === 'open'
      ? x.starts_at
        ? t('tournaments.starts_at', { time: timeText(x.starts_at) })
        : t('tournaments.starts_by_organiser')
      : '';
  return el(
    'li',
    { class: 't-card', 'data-id': x.id, 'data-status': x.status },
    el('a', { class: 't-name', href: `/t/${encodeURIComponent(x.id)}` }, x.name),
    ' ',
    el('span', { class: x.status === 'running' ? 'tag live' : 'tag' }, statusText(x.status)),
    ' ',
    x.rated ? el('span', { class: 'tag' }, t('tournaments.rated_tag')) : null,
    el('p', { class: 'meta' }, facts.filter(Boolean).join(' · ')),
    el(
      'p',
      { class: 'meta' },
      x.organiser ? [t('tournaments.organised_by'), ' ', el('a', { href: profileUrl(x.organiser) }, x.organiser)] : null,
      when ? (x.organiser ? ' · ' : '') + when : null,
    ),
  );
}

function listPage() {
  const box = $('tournaments');
  const status = $('page-status');
  onAccount((name) => {
    $('create-link').hidden = !name;
    $('create-signin').hidden = !!name;
  });
  let pending = 0;
  let failed = false;
  const done = () => {
    if (--pending === 0) box.dataset.state = failed ? 'error' : 'ready';
  };
  for (const part of ['running', 'upcoming', 'finished']) {
    let cursor = null;
    const list = $(`list-${part}`);
    const more = $(`more-${part}`);
    const load = async (first) => {
      const section = $(`part-${part}`);
      section.dataset.state = 'loading';
      more.disabled = true;
      try {
        const q = new URLSearchParams({ status: part, limit: String(PAGE) });
        if (!first && cursor) q.set('cursor', cursor);
        const r = await api(`/api/tournaments?${q}`);
        const items = Array.isArray(r?.tournaments) ? r.tournaments : [];
        list.append(...items.map(card));
        cursor = r?.next ?? null;
        more.hidden = !cursor;
        $(`empty-${part}`).hidden = list.children.length > 0;
        section.dataset.state = 'ready';
      } catch (err) {
        failed = true;
        notify(status, t('tournaments.list_unavailable', { error: errorText(err) }), 'error');
        section.dataset.state = 'error';
      } finally {
        more.disabled = false;
      }
    };
    more.addEventListener('click', () => load(false));
    pending += 1;
    load(true).finally(done);
  }
}

// ---------- /tournaments/new ----------

/** Shows `text` under the field `input` (or clears it), linked by aria-describedby. */
function fieldError(input, text) {
  const p = $(`${input.id}-err`);
  if (text) input.setAttribute('aria-invalid', 'true');
  else input.removeAttribute('aria-invalid');
  if (p) {
    p.textContent = text || '';
    p.hidden = !text;
  }
  return !text;
}

/** The request body of the form, or null after showing what to fix. */
function readForm(form) {
  const name = $('t-name');
  const rounds = $('t-rounds');
  const max = $('t-max');
  const starts = $('t-starts');
  const kind = form.querySelector('input[name="format"]:checked')?.value || 'round_robin';
  const errors = [];
  const nameText = name.value.trim().replace(/\s+/g, ' ');
  if (!fieldError(name, nameText.length < 1 || nameText.length > 80 ? t('tournaments.err_name') : '')) errors.push(name);
  let format;
  if (kind === 'swiss') {
    const n = Number(rounds.value);
    if (!fieldError(rounds, Number.isInteger(n) && n >= 1 && n <= 20 ? '' : t('tournaments.err_rounds'))) errors.push(rounds);
    format = { kind: 'swiss', rounds: n };
  } else {
    fieldError(rounds, '');
    format =
      kind === 'knockout'
        ? { kind: 'knockout', third_place: $('t-third').checked }
        : { kind: 'round_robin', double: kind === 'double_round_robin' };
  }
  const m = Number(max.value);
  let maxText = Number.isInteger(m) && m >= 2 && m <= 256 ? '' : t('tournaments.err_max');
  // A round robin of more than 20 players would take too many rounds (the server refuses it too).
  if (!maxText && format.kind === 'round_robin' && m > 20) maxText = t('tournaments.err_max_round_robin');
  if (!fieldError(max, maxText)) errors.push(max);
  let startsAt = null;
  if (form.querySelector('input[name="start"]:checked')?.value === 'at') {
    const when = starts.value ? new Date(starts.value).getTime() : NaN;
    let text = '';
    if (Number.isNaN(when)) text = t('tournaments.err_start_missing');
    else if (when < Date.now() + 60000) text = t('tournaments.err_start_past');
    if (!fieldError(starts, text)) errors.push(starts);
    startsAt = when;
  } else {
    fieldError(starts, '');
  }
  const teams = $('t-teams').checked;
  const boards = Number($('t-boards').value);
  if (teams) {
    if (!fieldError($('t-boards'), Number.isInteger(boards) && boards >= 2 && boards <= 16 ? '' : t('tournaments.f_boards_err'))) errors.push($('t-boards'));
  } else {
    fieldError($('t-boards'), '');
  }
  const c = $('t-clock').value;
  const clock = c.startsWith('d')
    ? { days_per_move: Number(c.slice(1)) }
    : { initial_ms: Number(c.split('+')[0]), increment_ms: Number(c.split('+')[1]) };
  if (errors.length) {
    notify($('new-status'), t('tournaments.err_fix', { n: errors.length }), 'error');
    errors[0].focus();
    return null;
  }
  return {
    name: nameText,
    variant: $('t-variant').value,
    format,
    clock,
    rated: $('t-rated').checked,
    bye_points: Number($('t-bye').value),
    // A team match's boards have their clocks: no forfeit time of the tournament's.
    forfeit_after_ms: clock.days_per_move || teams ? null : Number($('t-forfeit').value),
    ...(teams ? { teams: { boards } } : {}),
    // Only its members may join (a team tournament's entrants are clubs: never one club's).
    ...(!teams && $('t-club').value ? { club: $('t-club').value } : {}),
    starts_at: startsAt,
    max_players: m,
    private: $('t-private').checked,
  };
}

function newPage() {
  const form = $('new-form');
  const status = $('new-status');
  // The clubs the player leads or administers, for a club-only tournament.
  let leads = [];
  const sync = () => {
    const kind = form.querySelector('input[name="format"]:checked')?.value;
    $('swiss-box').hidden = kind !== 'swiss';
    $('knockout-box').hidden = kind !== 'knockout';
    $('start-box').hidden = form.querySelector('input[name="start"]:checked')?.value !== 'at';
    $('teams-box').hidden = !$('t-teams').checked;
    $('forfeit-box').hidden = $('t-clock').value.startsWith('d') || $('t-teams').checked;
    $('club-box').hidden = leads.length === 0 || $('t-teams').checked;
  };
  form.addEventListener('change', sync);
  sync();
  onAccount(async (name) => {
    $('new-signin').hidden = !!name;
    form.hidden = !name;
    leads = [];
    if (name) {
      try {
        const user = await api(`/api/users/${encodeURIComponent(name)}`);
        leads = (user.clubs || []).filter((c) => c.role === 'leader' || c.role === 'admin');
      } catch {
        // Without the profile the tournament is open to everyone, as before the choice.
      }
    }
    const pick = $('t-club');
    const chosen = pick.value;
    pick.replaceChildren(
      el('option', { value: '' }, t('tournaments.f_club_everyone')),
      ...leads.map((c) => el('option', { value: c.id }, t('tournaments.f_club_members', { club: c.name }))),
    );
    if (leads.some((c) => c.id === chosen)) pick.value = chosen;
    // Read (tests wait for it): how many clubs the choice offers.
    $('tournament-new').dataset.clubs = String(leads.length);
    sync();
  });
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    notify(status, '');
    const body = readForm(form);
    if (!body) return;
    const button = $('create-submit');
    button.disabled = true;
    try {
      const r = await api('/api/tournaments', { method: 'POST', body });
      const url = r.url || `/t/${encodeURIComponent(r.id)}`;
      // The organiser sees a private tournament's code on its page, to pass on.
      location.assign(r.code ? `${url}?code=${encodeURIComponent(r.code)}` : url);
    } catch (err) {
      notify(status, t('tournaments.create_failed', { error: tournamentError(err) }), 'error');
      button.disabled = false;
    }
  });
}

if ($('tournaments')) listPage();
if ($('tournament-new')) newPage();
