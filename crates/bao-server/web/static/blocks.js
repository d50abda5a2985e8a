// The blocked players on the account settings page (/account): the list from `GET
// /api/blocks`, each with Unblock (`DELETE /api/blocks/{name}`). Blocking happens on a
// profile (static/profile.js). docs/api.md "Finding an opponent".

import { $, api, el, errorText, notify } from './app.js';
import { t } from './i18n.js';
import { accountName, profileUrl } from './account.js';

const section = el(
  'section',
  { class: 'panel settings-section', id: 'blocked-section', 'aria-labelledby': 'blocked-title', 'data-state': 'loading' },
  el('h2', { id: 'blocked-title' }, t('lobby.blocked_title')),
  el('p', {}, t('lobby.blocked_help')),
  el('ul', { class: 'game-list', id: 'blocked-list' }, el('li', { class: 'muted' }, t('common.loading'))),
  el('p', { class: 'status', id: 'blocked-status', role: 'status', hidden: true }),
);

function draw(names) {
  const list = $('blocked-list');
  list.replaceChildren(
    ...(names.length
      ? names.map((name) =>
          el(
            'li',
            { 'data-name': name },
            el('a', { href: profileUrl(name) }, name),
            el(
              'button',
              {
                type: 'button',
                'aria-label': t('lobby.unblock_label', { name }),
                onclick: async (e) => {
                  e.currentTarget.disabled = true;
                  try {
                    await api(`/api/blocks/${encodeURIComponent(name)}`, { method: 'DELETE', body: {} });
                    notify($('blocked-status'), t('lobby.unblock_done', { name }));
                    draw(names.filter((n) => n !== name));
                  } catch (err) {
                    e.currentTarget.disabled = false;
                    notify($('blocked-status'), errorText(err), 'error');
                  }
                },
              },
              t('lobby.unblock'),
            ),
          ),
        )
      : [el('li', { class: 'muted' }, t('lobby.blocked_empty'))]),
  );
  section.dataset.state = 'ready';
}

async function init() {
  let r;
  try {
    r = await api('/api/blocks');
  } catch {
    return; // signed out (401), or no server behind: the settings page says the rest
  }
  const before = $('delete-form');
  if (before) before.before(section);
  else $('settings')?.append(section);
  draw(Array.isArray(r.blocked) ? r.blocked : []);
}

// Only a browser signed in asks (a signed-out one would get a 401 the browser logs as an error).
if ($('settings') && accountName()) init();
