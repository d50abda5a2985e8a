// The arena list (/arenas) and the form that makes one; also the words for an arena's clock,
// status and time that the arena page (arena.js) shares. Data: GET/POST /api/arenas
// (docs/api.md "Arenas").

import { $, api, el, errorText, notify, VARIANT_TITLES } from './app.js';
import { t, lang } from './i18n.js';
import { onAccount } from './account.js';

/** The clock in words: "3 min + 2 s a move". */
export function clockText(c) {
  if (!c || typeof c !== 'object') return '';
  const min = Math.round((Number(c.initial_ms) || 0) / 6000) / 10;
  const sec = Math.round((Number(c.increment_ms) || 0) / 100) / 10;
  return t('arenas.clock_live', { min, sec });
}

/** The status in words. */
export function statusText(s) {
  if (s === 'upcoming') return t('arenas.status_upcoming');
  if (s === 'running') return t('arenas.status_running');
  if (s === 'finished') return t('arenas.status_finished');
  return String(s || '');
}

/** A moment (ms since the epoch) in the reader's language and local time. */
export function timeText(ms) {
  const d = new Date(Number(ms));
  if (!ms || Number.isNaN(d.getTime())) return '';
  try {
    return d.toLocaleString(lang === 'sw' ? 'sw-TZ' : 'en-GB', { day: 'numeric', month: 'long', hour: '2-digit', minute: '2-digit' });
  } catch {
    return d.toISOString().slice(0, 16).replace('T', ' ');
  }
}

/** The sentence for a refused arena request. */
export function arenaError(err) {
  if (err && err.status === 401) return t('arenas.err_signin');
  switch (err && err.category) {
    case 'over':
      return t('arenas.err_over');
    case 'not_registered':
      return t('arenas.err_not_joined');
    case 'conflict':
      return t('arenas.err_berserk_late');
    case 'forbidden':
      return t('arenas.err_berserk_off');
    default:
      return t('arenas.err_other', { error: errorText(err) });
  }
}

function card(x) {
  const when =
    x.status === 'upcoming'
      ? t('arenas.card_starts', { time: timeText(x.starts_at) })
      : x.status === 'running'
        ? t('arenas.card_ends', { time: timeText(x.ends_at) })
        : t('arenas.card_ended', { time: timeText(x.ends_at) });
  const facts = [VARIANT_TITLES[x.variant] || x.variant, clockText(x.clock), t('arenas.players_count', { n: x.players ?? 0 }), when];
  return el(
    'li',
    { class: 't-card', 'data-id': x.id, 'data-status': x.status },
    el('a', { class: 't-name', href: `/a/${encodeURIComponent(x.id)}` }, x.name),
    ' ',
    el('span', { class: x.status === 'running' ? 'tag live' : 'tag' }, statusText(x.status)),
    x.battle ? [' ', el('span', { class: 'tag battle' }, t('arenas.battle_tag'))] : null,
    el('p', { class: 'meta' }, facts.filter(Boolean).join(' · ')),
    x.battle ? el('p', { class: 'meta battle-clubs' }, t('arenas.battle_clubs', { clubs: x.battle.clubs.map((c) => c.name).join(', ') })) : null,
  );
}

async function loadLists() {
  const box = $('arenas');
  let failed = false;
  await Promise.all(
    ['running', 'upcoming', 'finished'].map(async (part) => {
      try {
        const d = await api(`/api/arenas?status=${part}`);
        const list = d.arenas || [];
        $(`list-${part}`).replaceChildren(...list.map(card));
        $(`empty-${part}`).hidden = list.length > 0;
      } catch (err) {
        failed = true;
        notify($('page-status'), t('arenas.list_unavailable', { error: errorText(err) }), 'error');
      }
    }),
  );
  box.dataset.state = failed ? 'error' : 'ready';
}

function showErr(id, text) {
  const p = $(`${id}-err`);
  p.textContent = text || '';
  p.hidden = !text;
  $(id).setAttribute('aria-invalid', text ? 'true' : 'false');
  return !text;
}

/** The clubs chosen for a team battle (docs/api.md "Team battles"): id -> name. */
const chosen = new Map();

function drawChosen() {
  $('b-chosen').replaceChildren(
    ...[...chosen].map(([cid, name]) =>
      el(
        'li',
        { 'data-club': cid },
        el('span', { class: 'b-name' }, name),
        el('button', { type: 'button', 'data-act': 'remove', 'aria-label': t('arenas.f_battle_remove', { name }), onclick: () => { chosen.delete(cid); drawChosen(); } }, '×'),
      ),
    ),
  );
  $('b-chosen-h').hidden = chosen.size === 0;
  // A refusal of too few (or too many) clubs goes once the choice fits.
  if (chosen.size >= 2 && chosen.size <= 10) showErr('b-q', '');
}

async function findClubs() {
  const q = $('b-q').value.trim();
  const r = await api(`/api/clubs?q=${encodeURIComponent(q.toLowerCase())}&limit=10`);
  const found = (r.clubs || []).filter((c) => !chosen.has(c.id));
  $('b-none').hidden = found.length > 0;
  $('b-found').replaceChildren(
    ...found.map((c) =>
      el(
        'li',
        { 'data-club': c.id },
        el('span', { class: 'b-name' }, c.place ? `${c.name} · ${c.place}` : c.name),
        el('button', { type: 'button', 'data-act': 'add', onclick: (e) => { chosen.set(c.id, c.name); e.currentTarget.closest('li').remove(); drawChosen(); } }, t('arenas.f_battle_add', { name: c.name })),
      ),
    ),
  );
}

/** The sentence for a refused battle (the API's answers, docs/api.md "Team battles"). */
function battleError(err) {
  if (err?.status === 403) return t('arenas.err_battle_lead');
  if (err?.status === 404) return t('arenas.err_battle_club_missing');
  if (err?.status === 400 && /leaders/.test(err.message || '')) return t('arenas.err_battle_leaders');
  if (err?.status === 400 && /clubs/.test(err.message || '')) return t('arenas.err_battle_clubs');
  return arenaError(err);
}

function form() {
  const f = $('create-form');
  drawChosen();
  $('a-battle').addEventListener('change', () => {
    $('battle-box').hidden = !$('a-battle').checked;
  });
  $('b-search').addEventListener('click', () => findClubs().catch((err) => notify($('create-status'), arenaError(err), 'error')));
  $('b-q').addEventListener('keydown', (e) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      $('b-search').click();
    }
  });
  onAccount((name) => {
    f.hidden = !name;
    $('create-signin').hidden = !!name;
  });
  for (const r of f.querySelectorAll('input[name="start"]')) {
    r.addEventListener('change', () => {
      $('start-box').hidden = f.start.value !== 'later';
    });
  }
  f.addEventListener('submit', async (e) => {
    e.preventDefault();
    const name = $('a-name').value.trim();
    const minutes = Number($('a-minutes').value);
    let startsAt = null;
    if (f.start.value === 'later') startsAt = new Date($('a-start').value).getTime();
    const ok = [
      showErr('a-name', name && name.length <= 80 ? '' : t('arenas.err_name')),
      showErr('a-minutes', Number.isInteger(minutes) && minutes >= 10 && minutes <= 720 ? '' : t('arenas.err_minutes')),
      showErr('a-start', startsAt === null || (Number.isFinite(startsAt) && startsAt > Date.now()) ? '' : t('arenas.err_start_at')),
    ].every(Boolean);
    const battle = $('a-battle').checked;
    const leaders = Number($('b-leaders').value);
    const battleOk = !battle || [
      showErr('b-q', chosen.size >= 2 && chosen.size <= 10 ? '' : t('arenas.err_battle_clubs')),
      showErr('b-leaders', Number.isInteger(leaders) && leaders >= 1 && leaders <= 20 ? '' : t('arenas.err_battle_leaders')),
    ].every(Boolean);
    if (!battle) {
      showErr('b-q', '');
      showErr('b-leaders', '');
    }
    if (!ok || !battleOk) {
      (f.querySelector('[aria-invalid="true"]') || $('b-q')).focus();
      return;
    }
    const [initial, increment] = $('a-clock').value.split('+').map(Number);
    const button = $('create-button');
    button.disabled = true;
    try {
      const made = await api('/api/arenas', {
        method: 'POST',
        body: {
          name,
          variant: $('a-variant').value,
          clock: { initial_ms: initial, increment_ms: increment },
          minutes,
          starts_at: startsAt,
          berserk: $('a-berserk').checked,
          rated: $('a-rated').checked,
          ...(battle ? { battle: { clubs: [...chosen.keys()], leaders } } : {}),
        },
      });
      location.href = made.url;
    } catch (err) {
      notify($('create-status'), battle ? battleError(err) : arenaError(err), 'error');
    } finally {
      button.disabled = false;
    }
  });
}

if ($('arenas')) {
  form();
  loadLists();
}
