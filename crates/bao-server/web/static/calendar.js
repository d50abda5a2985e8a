// The calendar (/calendar): the coming arenas in the reader's own time and language, and
// joining one ahead. Data: GET /api/calendar, POST /api/arenas/{id}/join (docs/api.md
// "Calendar").

import { $, api, el, errorText, notify, VARIANT_TITLES } from './app.js';
import { t, lang } from './i18n.js';
import { arenaError, clockText } from './arenas.js';

/** A moment in the reader's language and time zone, with the weekday: "Friday 11 December, 19:00". */
function whenText(ms) {
  const d = new Date(Number(ms));
  if (!ms || Number.isNaN(d.getTime())) return '';
  try {
    return new Intl.DateTimeFormat(lang === 'sw' ? 'sw-TZ' : 'en-GB', {
      weekday: 'long',
      day: 'numeric',
      month: 'long',
      hour: '2-digit',
      minute: '2-digit',
    }).format(d);
  } catch {
    return d.toISOString().slice(0, 16).replace('T', ' ');
  }
}

/** What the player can do about event `e`: join, or what stops them, or that they are in. */
function action(e) {
  const box = el('p', { class: 'c-act' });
  const open = el('a', { href: e.url }, t('calendar.open'));
  if (!e.you) {
    box.append(el('a', { href: '/account/login?next=/calendar' }, t('calendar.signin')));
  } else if (e.you.joined) {
    box.append(el('span', { class: 'c-in' }, t('calendar.joined')), open);
  } else if (!e.you.may_join) {
    box.append(el('span', { class: 'muted' }, t('calendar.members_only')));
  } else {
    const b = el('button', { type: 'button', class: 'primary c-join' }, t('calendar.join'));
    b.addEventListener('click', async () => {
      b.disabled = true;
      try {
        await api(`/api/arenas/${encodeURIComponent(e.id)}/join`, { method: 'POST', body: {} });
        e.you.joined = true;
        const li = b.closest('li');
        li.dataset.joined = 'true';
        const next = action(e);
        box.replaceWith(next);
        next.querySelector('a')?.focus();
      } catch (err) {
        b.disabled = false;
        notify($('page-status'), arenaError(err), 'error');
      }
    });
    box.append(b);
  }
  return box;
}

function card(e) {
  const when =
    e.status === 'running' ? t('calendar.running', { time: whenText(e.ends_at) }) : t('calendar.starts', { time: whenText(e.starts_at) });
  const facts = [
    VARIANT_TITLES[e.variant] || e.variant,
    clockText(e.clock),
    t('calendar.length', { n: e.minutes }),
    t('calendar.players', { n: e.players ?? 0 }),
    e.rated ? t('calendar.rated') : '',
  ];
  const who = [
    e.repeat === 'daily' ? t('calendar.daily') : e.repeat === 'weekly' ? t('calendar.weekly') : '',
    e.club && e.club.name ? t('calendar.club', { name: e.club.name }) : '',
    e.organiser ? t('calendar.by', { name: e.organiser }) : t('calendar.by_site'),
  ];
  return el(
    'li',
    { class: 't-card c-event', 'data-id': e.id, 'data-status': e.status, 'data-joined': e.you && e.you.joined ? 'true' : 'false' },
    el('a', { class: 't-name', href: e.url }, e.name),
    ' ',
    e.status === 'running' ? el('span', { class: 'tag live' }, t('calendar.now')) : '',
    el('p', { class: 'c-when' }, when),
    el('p', { class: 'meta' }, facts.filter(Boolean).join(' · ')),
    el('p', { class: 'meta' }, who.filter(Boolean).join(' · ')),
    action(e),
  );
}

async function load() {
  const box = $('calendar');
  try {
    const d = await api('/api/calendar');
    const list = d.events || [];
    $('events').replaceChildren(...list.map(card));
    $('empty').hidden = list.length > 0;
    box.dataset.state = 'ready';
  } catch (err) {
    notify($('page-status'), t('calendar.unavailable', { error: errorText(err) }), 'error');
    box.dataset.state = 'error';
  }
}

if ($('calendar')) load();
