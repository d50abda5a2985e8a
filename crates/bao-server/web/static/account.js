// The account of this browser (docs/api.md "Accounts") and the account menu in every page's
// header (templates/base.html). The session cookie is HttpOnly, so the page cannot read it:
// the name is kept in localStorage (`bao.account`) so that the menu is drawn at once, and
// `GET /api/account` confirms it. A browser not remembered as signed in does not ask.
// Signed out the header shows "Log in" / "Sign up"; signed in, the name (a link to the
// profile) and a small menu: profile, settings, log out.

import { api, el } from './app.js';
import { t } from './i18n.js';

const KEY = 'bao.account';
const listeners = new Set();

/** The remembered state: {username} signed in, {username: null} signed out, null unknown. */
function remembered() {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) || 'null');
    return v && typeof v === 'object' && (typeof v.username === 'string' || v.username === null) ? v : null;
  } catch {
    return null;
  }
}

function remember(username) {
  try {
    localStorage.setItem(KEY, JSON.stringify({ username, at: Date.now() }));
  } catch {
    /* private mode: the server is asked on every page */
  }
}

let current = remembered()?.username ?? null;

/** The signed-in name, or null. */
export function accountName() {
  return current;
}

/** Calls `f(name|null)` now and whenever the account changes (this tab or another). */
export function onAccount(f) {
  listeners.add(f);
  f(current);
  return () => listeners.delete(f);
}

/** Sets the account this browser is signed in as (null: signed out) and redraws. */
export function setAccount(username) {
  remember(username || null);
  changed(username || null);
}

function changed(name) {
  current = name;
  drawMenu();
  for (const f of listeners) f(current);
}

/** A path on this site to return to after logging in (never another site's address). */
export function safeNext(next) {
  return typeof next === 'string' && /^\/(?![/\\])/.test(next) && !next.startsWith('/account') ? next : null;
}

/** Where the account pages go after a login, a signup or a recovery: `?next=` or home. */
export function nextPath() {
  return safeNext(new URLSearchParams(location.search).get('next')) || '/';
}

/** The profile address of `name`. */
export const profileUrl = (name) => `/@/${encodeURIComponent(name)}`;

/** A day (ms since the epoch) in the page's language: "4 December 2026". */
export function dateText(ms) {
  const d = new Date(Number(ms));
  if (Number.isNaN(d.getTime())) return '';
  try {
    return d.toLocaleDateString(document.documentElement.lang === 'sw' ? 'sw-TZ' : 'en-GB', { year: 'numeric', month: 'long', day: 'numeric' });
  } catch {
    return d.toISOString().slice(0, 10);
  }
}

/** Ends this browser's session (the server's and the remembered name). */
export async function logout() {
  // An empty JSON body: the edge takes no POST without one (docs/api.md "Cross-site requests").
  await api('/api/account/logout', { method: 'POST', body: {} });
  setAccount(null);
}

/** Asks the server who this browser is signed in as; resolves to the name or null. */
export async function refreshAccount() {
  try {
    const me = await api('/api/account');
    setAccount(me.username);
  } catch (err) {
    if (err.status === 401) setAccount(null);
    // Anything else (offline, a busy server): keep what was remembered.
  }
  return current;
}

// ---------- the menu in the header ----------

let menuSeq = 0;

function drawMenu() {
  const box = document.getElementById('account-menu');
  if (!box) return;
  const here = location.pathname + location.search;
  const back = safeNext(here) ? `?next=${encodeURIComponent(here)}` : '';
  if (!current) {
    box.dataset.state = 'out';
    const page = location.pathname;
    box.replaceChildren(
      el('a', { href: `/account/login${back}`, id: 'account-login', 'aria-current': page === '/account/login' ? 'page' : null }, t('account.nav_login')),
      el('a', { href: `/account/signup${back}`, id: 'account-signup', 'aria-current': page === '/account/signup' ? 'page' : null }, t('account.nav_signup')),
    );
    return;
  }
  box.dataset.state = 'in';
  const id = `account-menu-list-${++menuSeq}`;
  const toggle = el(
    'button',
    { type: 'button', class: 'account-toggle', id: 'account-toggle', 'aria-expanded': 'false', 'aria-controls': id },
    el('span', { class: 'visually-hidden' }, t('account.menu_open')),
    el('span', { 'aria-hidden': 'true' }, '▾'),
  );
  const list = el(
    'ul',
    { class: 'account-list', id, hidden: true },
    el('li', {}, el('a', { href: profileUrl(current) }, t('account.menu_profile'))),
    el('li', {}, el('a', { href: '/account' }, t('account.menu_settings'))),
    el(
      'li',
      {},
      el(
        'button',
        {
          type: 'button',
          id: 'account-logout',
          onclick: async () => {
            try {
              await logout();
              if (location.pathname === '/account') location.reload();
            } catch {
              /* the server is out of reach: still signed in */
            }
          },
        },
        t('account.menu_logout'),
      ),
    ),
  );
  const open = (yes) => {
    list.hidden = !yes;
    toggle.setAttribute('aria-expanded', String(yes));
  };
  toggle.addEventListener('click', () => open(list.hidden));
  const name = el(
    'a',
    { href: profileUrl(current), class: 'account-name', id: 'account-name', 'aria-current': location.pathname === profileUrl(current) ? 'page' : null },
    current,
  );
  const wrap = el('span', { class: 'account-in' }, name, toggle, list);
  wrap.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && !list.hidden) {
      open(false);
      toggle.focus();
    }
  });
  // Tabbing on past the menu closes it. (A tap that focuses nothing, as in Safari, leaves
  // relatedTarget empty: the click outside closes it then, below.)
  wrap.addEventListener('focusout', (e) => {
    if (e.relatedTarget && !wrap.contains(e.relatedTarget)) open(false);
  });
  box.replaceChildren(wrap);
}

document.addEventListener('click', (e) => {
  const box = document.getElementById('account-menu');
  const list = box?.querySelector('.account-list');
  if (list && !list.hidden && !box.contains(e.target)) {
    list.hidden = true;
    box.querySelector('.account-toggle')?.setAttribute('aria-expanded', 'false');
  }
});

// Another tab logged in or out.
window.addEventListener('storage', (e) => {
  if (e.key === KEY) changed(remembered()?.username ?? null);
});

drawMenu();
// Only a browser remembered as signed in asks whether its session still lives: a login on
// this browser goes through the account pages, which remember it, so the others are signed
// out and need not ask (nor get a 401 on every page, which browsers log as an error).
if (remembered()?.username) refreshAccount();
