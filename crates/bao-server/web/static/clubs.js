// The club list (/clubs): finding clubs by name or place, a page at a time, and the form that
// makes one. Also the words for a refused club request that the club page (club.js) shares.
// Data: GET/POST /api/clubs (docs/api.md "Clubs").

import { $, api, el, errorText, notify } from './app.js';
import { t } from './i18n.js';
import { onAccount, profileUrl } from './account.js';

/** The sentence for a refused club request. */
export function clubError(err) {
  switch (err && err.category) {
    case 'not_signed_in':
      return t('clubs.err_signin');
    case 'no_such_club':
      return t('clubs.missing');
    case 'not_club_leader':
      return t('clubs.err_not_leader');
    case 'banned_from_club':
      return t('clubs.err_banned');
    case 'last_leader':
      return t('clubs.err_last_leader');
    case 'club_busy':
      return t('clubs.err_busy');
    case 'not_club_member':
      return t('clubs.err_not_member');
    case 'too_many_clubs':
      return t('clubs.err_too_many');
    case 'rate_limited':
      return t('clubs.err_announce_limit');
    case 'conflict':
      return t('clubs.err_name_taken');
    default:
      return errorText(err);
  }
}

/** "12 members" in the page's language. */
export function membersText(n) {
  return Number(n) === 1 ? t('clubs.members_one') : t('clubs.members_count', { n: n ?? 0 });
}

function card(c) {
  const facts = [c.place, membersText(c.members), c.open ? t('clubs.open_tag') : t('clubs.closed_tag')];
  return el(
    'li',
    { class: 't-card', 'data-id': c.id },
    el('a', { class: 't-name', href: `/club/${encodeURIComponent(c.id)}` }, c.name),
    el('p', { class: 'meta' }, facts.filter(Boolean).join(' · ')),
    c.leader ? el('p', { class: 'meta' }, t('clubs.led_by'), ' ', el('a', { href: profileUrl(c.leader) }, c.leader)) : null,
  );
}

const PAGE = 20;

function listPage() {
  const box = $('clubs');
  const section = $('found');
  const list = $('club-list');
  const more = $('club-more');
  let cursor = null;
  let query = new URLSearchParams(location.search).get('q') || '';
  $('club-q').value = query;
  const load = async (first) => {
    section.dataset.state = 'loading';
    more.disabled = true;
    try {
      const q = new URLSearchParams({ q: query, limit: String(PAGE) });
      if (!first && cursor) q.set('cursor', cursor);
      const r = await api(`/api/clubs?${q}`);
      const items = Array.isArray(r?.clubs) ? r.clubs : [];
      if (first) list.replaceChildren();
      list.append(...items.map(card));
      cursor = r?.next ?? null;
      more.hidden = !cursor;
      $('club-empty').hidden = list.children.length > 0;
      section.dataset.state = 'ready';
      box.dataset.state = 'ready';
    } catch (err) {
      notify($('page-status'), t('clubs.list_unavailable', { error: errorText(err) }), 'error');
      section.dataset.state = 'error';
      box.dataset.state = 'error';
    } finally {
      more.disabled = false;
    }
  };
  more.addEventListener('click', () => load(false));
  $('club-search').addEventListener('submit', (e) => {
    e.preventDefault();
    query = $('club-q').value.trim();
    const url = new URL(location.href);
    if (query) url.searchParams.set('q', query);
    else url.searchParams.delete('q');
    history.replaceState(null, '', url);
    load(true);
  });
  load(true);

  const form = $('new-form');
  onAccount((name) => {
    $('new-signin').hidden = !!name;
    form.hidden = !name;
  });
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const status = $('new-status');
    notify(status, '');
    const name = $('c-name');
    const nameText = name.value.trim().replace(/\s+/g, ' ');
    const err = $('c-name-err');
    if (nameText.length < 1 || nameText.length > 60) {
      name.setAttribute('aria-invalid', 'true');
      err.textContent = t('clubs.err_name');
      err.hidden = false;
      name.focus();
      return;
    }
    name.removeAttribute('aria-invalid');
    err.hidden = true;
    const button = $('new-submit');
    button.disabled = true;
    try {
      const r = await api('/api/clubs', {
        method: 'POST',
        body: {
          name: nameText,
          place: $('c-place').value.trim(),
          description: $('c-description').value,
          open: form.querySelector('input[name="joining"]:checked')?.value !== 'closed',
        },
      });
      location.assign(r.url || `/club/${encodeURIComponent(r.id)}`);
    } catch (e2) {
      notify(status, t('clubs.create_failed', { error: clubError(e2) }), 'error');
      button.disabled = false;
    }
  });
}

if ($('clubs')) listPage();
