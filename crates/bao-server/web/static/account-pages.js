// The account pages (docs/api.md "Accounts"): /account/signup, /account/login,
// /account/recover and /account (settings). Each page's template says which form it holds
// (`#account-page[data-form]`). Inputs are checked here first, with the server's rules in
// words (a name of 3-20 letters, digits, _ and -; a password of at least 8 characters); the
// server's refusals are put in words from the catalog by their category.
// Signup and login claim this browser's seats (static/seats.js), so its games follow the account.

import { $, api, copyText, errorText, notify } from './app.js';
import { t, tn } from './i18n.js';
import { seats } from './seats.js';
import { accountName, dateText, nextPath, onAccount, profileUrl, setAccount, logout } from './account.js';

const NAME = /^[A-Za-z0-9_-]+$/;
const NAME_MIN = 3;
const NAME_MAX = 20;
const PASSWORD_MIN = 8;
const PASSWORD_MAX = 200;
/** The server takes at most 50 seats in a claim (docs/api.md "Claiming seats"). */
const MAX_CLAIMS = 50;
/** Recovery codes: 20 letters and digits once dashes and spaces are dropped. */
const CODE_CHARS = 20;

/** What is wrong with a new name, in words, or null. */
export function nameProblem(name) {
  if (!name) return t('account.err_name_missing');
  if (!NAME.test(name)) return t('account.err_name_chars');
  if (name.length < NAME_MIN) return t('account.err_name_short');
  if (name.length > NAME_MAX) return t('account.err_name_long');
  return null;
}

/** What is wrong with a new password, in words, or null. */
export function passwordProblem(password) {
  const n = [...password].length;
  if (n < PASSWORD_MIN) return t('account.err_password_short');
  if (n > PASSWORD_MAX) return t('account.err_password_long');
  return null;
}

/**
 * The words for a refusal of an account call: the category (docs/api.md "Accounts") in the
 * page's language; `what` says which secret a bad_credentials is about.
 */
export function accountError(err, { what = 'password', name = '' } = {}) {
  switch (err?.category) {
    case 'bad_credentials':
      if (what === 'code') return t('account.err_bad_code');
      if (what === 'own') return t('account.err_wrong_password');
      return t('account.err_bad_credentials');
    case 'name_taken':
      return t('account.err_name_taken', { name });
    case 'rate_limited':
      return err.retryAfter ? tn('account.err_rate_limited', err.retryAfter, { n: err.retryAfter }) : t('account.err_rate_limited_soon');
    case 'busy':
      // The server's password checks are queued, and the queue was full (docs/api.md "Accounts").
      return err.retryAfter ? tn('account.err_busy', err.retryAfter, { n: err.retryAfter }) : t('account.err_busy_soon');
    case 'not_signed_in':
      return t('account.err_not_signed_in');
    case 'bad_request': {
      // The server's sentence says which rule was broken; each has its words here.
      const m = err.message || '';
      if (/kept for the server/.test(m)) return t('account.err_name_reserved');
      if (/a name has/.test(m)) return t('account.err_name_chars');
      if (/a password has/.test(m)) return t('account.err_password_rule');
      return errorText(err);
    }
    default:
      return errorText(err);
  }
}

/** Marks the field `input` as wrong (or right again), with the status region as its description. */
function mark(input, bad) {
  if (!input) return;
  if (bad) input.setAttribute('aria-invalid', 'true');
  else input.removeAttribute('aria-invalid');
}

function fail(status, text, input) {
  notify(status, text, 'error');
  mark(input, true);
  input?.focus();
}

/** The seats this browser holds, as the claim of a signup or login. */
function claims() {
  return seats()
    .slice(0, MAX_CLAIMS)
    .map(({ id, token }) => ({ id, token }));
}

/** "Show the password" for every password field of the page. */
function showPasswords() {
  const box = $('show-password');
  if (!box) return;
  box.addEventListener('change', () => {
    for (const p of document.querySelectorAll('input[type="password"], input[data-password]')) {
      p.dataset.password = '1';
      p.type = box.checked ? 'text' : 'password';
    }
  });
}

/** Shows the recovery code once, large, with a copy button; the form goes away. */
function showCode(code, welcome) {
  $('account-form').hidden = true;
  $('code-welcome').textContent = welcome;
  $('recovery-code').textContent = code;
  $('code-continue').href = nextPath();
  const box = $('code-box');
  box.hidden = false;
  $('copy-code').addEventListener('click', async () => {
    const ok = await copyText(code);
    $('copy-done').textContent = ok ? t('account.code_copied') : t('account.code_copy_failed');
  });
  $('code-title').focus();
}

/** Runs `f` with the submit button disabled and a "working" note. */
async function busy(button, status, f) {
  button.disabled = true;
  notify(status, t('account.working'));
  try {
    await f();
  } finally {
    button.disabled = false;
  }
}

function signupPage() {
  const form = $('account-form');
  const status = $('form-status');
  const user = $('username');
  const pass = $('password');
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const username = user.value.trim();
    mark(user, false);
    mark(pass, false);
    const bad = nameProblem(username);
    if (bad) return fail(status, bad, user);
    const weak = passwordProblem(pass.value);
    if (weak) return fail(status, weak, pass);
    busy($('submit'), status, async () => {
      try {
        const r = await api('/api/account/signup', { method: 'POST', body: { username, password: pass.value, seats: claims() } });
        setAccount(r.username);
        notify(status, '');
        showCode(r.recovery_code, t('account.welcome', { name: r.username }));
      } catch (err) {
        const aboutName = err.category === 'name_taken' || (err.category === 'bad_request' && /name/.test(err.message || ''));
        const field = aboutName ? user : err.category === 'bad_request' ? pass : null;
        fail(status, accountError(err, { name: username }), field);
      }
    });
  });
}

function loginPage() {
  const form = $('account-form');
  const status = $('form-status');
  const user = $('username');
  const pass = $('password');
  onAccount((name) => {
    const note = $('signed-in-note');
    note.hidden = !name;
    if (name) note.textContent = t('account.already_signed_in', { name });
  });
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const username = user.value.trim();
    mark(user, false);
    mark(pass, false);
    if (!username) return fail(status, t('account.err_name_missing'), user);
    if (!pass.value) return fail(status, t('account.err_password_missing'), pass);
    busy($('submit'), status, async () => {
      try {
        const r = await api('/api/account/login', { method: 'POST', body: { username, password: pass.value, seats: claims() } });
        setAccount(r.username);
        notify(status, t('account.welcome', { name: r.username }));
        location.assign(nextPath());
      } catch (err) {
        fail(status, accountError(err), err.category === 'bad_credentials' ? pass : null);
      }
    });
  });
}

function recoverPage() {
  const form = $('account-form');
  const status = $('form-status');
  const user = $('username');
  const code = $('code');
  const pass = $('password');
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const username = user.value.trim();
    for (const f of [user, code, pass]) mark(f, false);
    if (!username) return fail(status, t('account.err_name_missing'), user);
    if (code.value.replace(/[^A-Za-z0-9]/g, '').length !== CODE_CHARS) return fail(status, t('account.err_code_shape'), code);
    const weak = passwordProblem(pass.value);
    if (weak) return fail(status, weak, pass);
    busy($('submit'), status, async () => {
      try {
        const r = await api('/api/account/recover', {
          method: 'POST',
          body: { username, recovery_code: code.value.trim(), new_password: pass.value },
        });
        setAccount(r.username);
        notify(status, '');
        showCode(r.recovery_code, t('account.recovered', { name: r.username }));
      } catch (err) {
        fail(status, accountError(err, { what: 'code' }), err.category === 'bad_credentials' ? code : null);
      }
    });
  });
}

async function settingsPage() {
  const pageStatus = $('page-status');
  let me = null;
  const show = () => {
    $('settings-loading').hidden = true;
    $('settings-out').hidden = !!me;
    $('settings').hidden = !me;
    $('account-page').dataset.state = me ? 'in' : 'out';
    if (!me) return;
    $('settings-who').textContent = t('account.settings_who', { name: me.username, date: dateText(me.created) });
    $('settings-profile').href = profileUrl(me.username);
    $('password-username').value = me.username;
    $('delete-username').value = me.username;
  };
  try {
    me = await api('/api/account');
    setAccount(me.username);
  } catch (err) {
    if (err.status === 401) setAccount(null);
    else notify(pageStatus, errorText(err), 'error');
  }
  show();
  onAccount((name) => {
    if (!name && me) {
      me = null;
      show();
    }
  });

  const pw = $('password-form');
  pw.addEventListener('submit', (e) => {
    e.preventDefault();
    const status = $('password-status');
    const old = $('old-password');
    const neu = $('new-password');
    mark(old, false);
    mark(neu, false);
    if (!old.value) return fail(status, t('account.err_password_missing'), old);
    const weak = passwordProblem(neu.value);
    if (weak) return fail(status, weak, neu);
    busy($('password-submit'), status, async () => {
      try {
        await api('/api/account/password', { method: 'POST', body: { old: old.value, new: neu.value } });
        old.value = '';
        neu.value = '';
        notify(status, t('account.password_changed'));
      } catch (err) {
        fail(status, accountError(err, { what: 'own' }), err.category === 'bad_credentials' ? old : null);
      }
    });
  });

  const sessions = $('sessions-status');
  $('logout').addEventListener('click', async () => {
    try {
      await logout();
      notify(pageStatus, t('account.logged_out'));
    } catch (err) {
      notify(sessions, errorText(err), 'error');
    }
  });
  $('logout-all').addEventListener('click', async () => {
    try {
      await api('/api/account/logout-all', { method: 'POST', body: {} });
      setAccount(null);
      notify(pageStatus, t('account.logged_out_everywhere'));
    } catch (err) {
      notify(sessions, accountError(err), 'error');
    }
  });

  $('delete-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const status = $('delete-status');
    const pass = $('delete-password');
    mark(pass, false);
    if (!pass.value) return fail(status, t('account.err_password_missing'), pass);
    if (!confirm(t('account.delete_confirm', { name: me?.username || accountName() || '' }))) return;
    busy($('delete-submit'), status, async () => {
      try {
        await api('/api/account', { method: 'DELETE', body: { password: pass.value } });
        setAccount(null);
        notify(pageStatus, t('account.deleted'));
      } catch (err) {
        fail(status, accountError(err, { what: 'own' }), err.category === 'bad_credentials' ? pass : null);
      }
    });
  });
}

const page = $('account-page')?.dataset.form;
showPasswords();
if (page === 'signup') signupPage();
else if (page === 'login') loginPage();
else if (page === 'recover') recoverPage();
else if (page === 'settings') settingsPage();
