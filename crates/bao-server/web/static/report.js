// "Report NAME": a small form a signed-in player opens on another player's profile or after a
// game against them; it sends `POST /api/reports` (docs/api.md "Fair play") and says in words
// that the moderators have it. Also the words for a moderator's action, which /mod and the
// account page share.

import { api, el, errorText, notify } from './app.js';
import { t } from './i18n.js';

let made = 0;

/** The report button and its form for `username` (and the game `game`, if any). */
export function reportBox(username, game = null) {
  const n = ++made;
  const ids = { form: `report-form-${n}`, reason: `report-reason-${n}`, help: `report-help-${n}` };
  const status = el('p', { class: 'status', role: 'status', hidden: true, 'data-report-status': '' });
  const reason = el('textarea', { id: ids.reason, rows: '3', maxlength: '500', required: true, 'aria-describedby': ids.help });
  const send = el('button', { type: 'submit', class: 'primary', 'data-report-send': '' }, t('fairplay.send'));
  const form = el(
    'form',
    { id: ids.form, class: 'report-form', hidden: true, novalidate: true },
    el('p', { class: 'small', id: ids.help }, t('fairplay.report_intro', { name: username })),
    el('div', { class: 'field' }, el('label', { for: ids.reason }, t('fairplay.reason_label')), reason),
    el('p', {}, send),
  );
  const open = el(
    'button',
    { type: 'button', 'aria-expanded': 'false', 'aria-controls': ids.form, 'data-report-open': '' },
    t('fairplay.report_button', { name: username }),
  );
  open.addEventListener('click', () => {
    form.hidden = !form.hidden;
    open.setAttribute('aria-expanded', String(!form.hidden));
    if (!form.hidden) reason.focus();
  });
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    if (!reason.value.trim()) {
      notify(status, t('fairplay.err_reason'), 'error');
      reason.focus();
      return;
    }
    send.disabled = true;
    try {
      const body = { username, reason: reason.value };
      if (game) body.game = game;
      const r = await api('/api/reports', { method: 'POST', body });
      const again = r.already === true;
      form.hidden = true;
      open.hidden = true;
      notify(status, again ? t('fairplay.already', { name: username }) : t('fairplay.sent', { name: username }));
    } catch (err) {
      notify(status, errorText(err), 'error');
    } finally {
      send.disabled = false;
    }
  });
  return el('div', { class: 'report-box', 'data-report': username }, open, form, status);
}

/** What a moderator did, in words (keys written out for the catalog check). */
export function actionWord(a) {
  const words = {
    warn: () => t('fairplay.action_warn'),
    mark: () => t('fairplay.action_mark'),
    unmark: () => t('fairplay.action_unmark'),
    close: () => t('fairplay.action_close'),
  };
  return (words[a] || words.warn)();
}
