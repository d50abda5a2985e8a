// Fair play on the account settings page (/account): what moderators decided about this
// account, with their reasons, and for a moderator the link to /mod.
// Data: GET /api/fair-play/mine (docs/api.md "Fair play").

import { $, api, el } from './app.js';
import { t } from './i18n.js';
import { dateText, onAccount } from './account.js';
import { actionWord } from './report.js';

async function init() {
  let r;
  try {
    r = await api('/api/fair-play/mine');
  } catch {
    return; // signed out, or no server behind: the settings page says the rest
  }
  const actions = r.actions || [];
  if (!actions.length && !r.marked && !r.moderator) return;
  const section = el(
    'section',
    { class: 'panel settings-section', id: 'fairplay-section', 'aria-labelledby': 'fairplay-title' },
    el('h2', { id: 'fairplay-title' }, t('fairplay.notice_heading')),
  );
  if (r.moderator) section.append(el('p', {}, el('a', { href: '/mod', id: 'mod-link' }, t('fairplay.mod_link'))));
  if (r.marked) section.append(el('p', { class: 'status', id: 'fairplay-marked' }, t('fairplay.notice_marked')));
  if (actions.length) {
    section.append(
      el('p', { class: 'small muted' }, t('fairplay.notice_help')),
      el(
        'ul',
        { class: 'fp-list', id: 'fairplay-actions' },
        ...actions.map((a) =>
          el('li', { 'data-action': a.action }, t('fairplay.notice_line', { date: dateText(a.at), action: actionWord(a.action), reason: a.reason })),
        ),
      ),
    );
  }
  const after = $('settings-profile')?.parentElement;
  if (after) after.after(section);
  else $('settings')?.append(section);
}

// Once the page knows who is signed in (a first visit learns it from the server).
let asked = false;
onAccount((name) => {
  if (name && !asked && $('settings')) {
    asked = true;
    init();
  }
});
