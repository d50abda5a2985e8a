// The moderators' page (/mod, and /mod?user=NAME for one account): the open reports, the
// accounts whose rated games follow the engine more closely than those of players of their
// strength, and one account's figures, games, reports and actions with the form that acts.
// Data: GET /api/mod/queue, GET /api/mod/users/{name}, POST /api/mod/users/{name}/action
// (docs/api.md "Fair play").

import { $, api, el, errorText, notify, VARIANT_TITLES } from './app.js';
import { t } from './i18n.js';
import { dateText, profileUrl } from './account.js';
import { actionWord } from './report.js';

const box = $('mod');
const status = $('page-status');
const user = new URLSearchParams(location.search).get('user');

const pct = (x) => String(Math.round(Number(x) * 100));
const seeds = (cp) => (Number(cp) / 100).toFixed(1);
const userUrl = (name) => `/mod?user=${encodeURIComponent(name)}`;

function figures(v) {
  const variant = VARIANT_TITLES[v.variant] || v.variant;
  if (!v.verdict || !v.norm) {
    return el('p', {}, t('fairplay.figures_few', { variant, games: (v.games || []).length || v.verdict?.games || 0 }));
  }
  const text = t('fairplay.figures', {
    variant,
    games: v.verdict.games,
    share: pct(v.verdict.top_share),
    moves: v.verdict.moves,
    norm_share: pct(v.norm.top_share),
    loss: seeds(v.verdict.average_loss),
    norm_loss: seeds(v.norm.average_loss),
  });
  return el('p', { 'data-variant': v.variant }, text, v.verdict.stands_out ? ` ${t('fairplay.stands_out')}` : '');
}

function reportItem(r, withLink) {
  return el(
    'li',
    { 'data-report': r.id },
    t('fairplay.report_line', { reporter: r.reporter, name: r.username, reason: r.reason }),
    ' ',
    el('span', { class: 'muted small' }, dateText(r.at)),
    r.game ? [' ', el('a', { href: `/g/${encodeURIComponent(r.game)}` }, t('fairplay.report_game'))] : '',
    withLink ? [' ', el('a', { href: userUrl(r.username), 'data-open-user': r.username }, t('fairplay.open_account', { name: r.username }))] : '',
  );
}

async function queue() {
  const q = await api('/api/mod/queue');
  const reports = q.reports || [];
  $('report-list').replaceChildren(
    ...(reports.length ? reports.map((r) => reportItem(r, true)) : [el('li', { class: 'muted' }, t('fairplay.reports_empty'))]),
  );
  const out = q.standing_out || [];
  $('out-list').replaceChildren(
    ...(out.length
      ? out.map((v) =>
          el('li', { 'data-user': v.username }, el('a', { href: userUrl(v.username) }, v.username), ' ', figures(v)),
        )
      : [el('li', { class: 'muted' }, t('fairplay.out_empty'))]),
  );
  $('mod-queue').hidden = false;
}


async function account(name) {
  const u = await api(`/api/mod/users/${encodeURIComponent(name)}`);
  $('user-name').replaceChildren(el('a', { href: profileUrl(u.username) }, u.username));
  $('user-marked').hidden = !u.marked;
  const parts = [];
  for (const v of u.variants || []) {
    parts.push(figures(v));
    parts.push(
      el(
        'ul',
        { class: 'fp-list', 'aria-label': t('fairplay.games_heading') },
        ...(v.games || []).map((g) =>
          el(
            'li',
            {},
            el('a', { href: `/g/${encodeURIComponent(g.game)}` }, dateText(g.at)),
            ': ',
            t('fairplay.game_line', { share: g.moves ? pct(g.top / g.moves) : '0', moves: g.moves, loss: seeds(g.average_loss), rating: g.rating }),
          ),
        ),
      ),
    );
  }
  $('user-figures').replaceChildren(...(parts.length ? parts : [el('p', { class: 'muted' }, t('fairplay.no_games'))]));
  const reports = u.reports || [];
  $('user-reports').replaceChildren(
    ...(reports.length ? reports.map((r) => reportItem(r, false)) : [el('li', { class: 'muted' }, t('fairplay.reports_empty'))]),
  );
  const actions = u.actions || [];
  $('user-actions').replaceChildren(
    ...(actions.length
      ? actions.map((a) =>
          el('li', { 'data-action': a.action }, t('fairplay.action_line', { date: dateText(a.at), moderator: a.moderator, action: actionWord(a.action), reason: a.reason })),
        )
      : [el('li', { class: 'muted' }, t('fairplay.actions_empty'))]),
  );
  $('mod-user').hidden = false;
  return u;
}

function actForm(name) {
  const form = $('act-form');
  const st = $('act-status');
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const reason = $('act-reason').value;
    if (!reason.trim()) {
      notify(st, t('fairplay.err_reason'), 'error');
      $('act-reason').focus();
      return;
    }
    const action = form.querySelector('input[name=action]:checked').value;
    $('act-submit').disabled = true;
    try {
      const r = await api(`/api/mod/users/${encodeURIComponent(name)}/action`, { method: 'POST', body: { action, reason } });
      let text;
      if ((action === 'mark' || action === 'unmark') && !r.changed) text = t('fairplay.done_nothing');
      else if (action === 'mark') text = t('fairplay.done_mark', { n: r.refunds, points: r.points });
      else if (action === 'close') text = t('fairplay.done_close', { n: r.closed });
      else if (action === 'unmark') text = t('fairplay.done_unmark');
      else text = t('fairplay.done_warn');
      $('act-reason').value = '';
      await account(name);
      notify(st, text);
      box.dataset.acted = action;
    } catch (err) {
      notify(st, errorText(err), 'error');
    } finally {
      $('act-submit').disabled = false;
    }
  });
}

async function init() {
  try {
    if (user) {
      await account(user);
      actForm(user);
    } else {
      await queue();
    }
    box.dataset.state = 'ready';
  } catch (err) {
    box.dataset.state = 'error';
    if (err.status === 401) notify(status, t('fairplay.mod_signin'), 'error');
    else if (err.category === 'not_moderator') notify(status, t('fairplay.mod_not_moderator'), 'error');
    else notify(status, errorText(err), 'error');
  } finally {
    $('mod-loading').hidden = true;
  }
}

init();
