// Texts in the reader's language. Full guide: docs/i18n.md.
//
// How to use it:
//   import { t, tHtml, tn, lang } from './i18n.js';
//   el.textContent = t('play.rematch_offered_by', { name: 'Asha' });  // plain text, {name} filled in
//   el.innerHTML = tHtml('game.house_standing');              // keeps <span lang="sw">…</span>
//   t.textContent = tn('game.seeds', 5, { n: 5 });            // key "game.seeds.one" / ".other"
//   if (lang === 'sw') …                                      // 'en' or 'sw'
//
// - Keys live in web/i18n/en/AREA.json and web/i18n/sw/AREA.json (both, always). Each helper
//   writes only its own AREA files. Write keys literally (t('play.x'), never t('play.' + y)),
//   so that the tests can check every key is used and every used key exists.
// - Catalog text may hold a little markup (<span lang="sw">nyumba</span>, <em>, <strong>,
//   <code>): t() strips it for textContent/titles/aria-labels; tHtml() keeps it and escapes
//   the parameters, for innerHTML.
// - t() is synchronous: the server puts this page's catalog inline in the page
//   (<script type="application/json" id="bao-i18n">), so no request is made. Keys of the
//   "rules" area are for templates only and are not in it.
// - A missing key shows the key itself (and a console warning), never a crash.

const EMPTY = { lang: 'en', messages: {} };

function readCatalog() {
  if (typeof document === 'undefined') return EMPTY; // a worker: no page, no catalog
  const el = document.getElementById('bao-i18n');
  if (!el) return EMPTY;
  try {
    const data = JSON.parse(el.textContent);
    return data && typeof data.messages === 'object' ? data : EMPTY;
  } catch (e) {
    console.warn('i18n: the page catalog is not valid JSON', e);
    return EMPTY;
  }
}

const catalog = readCatalog();

/** The page's language: 'en' or 'sw'. */
export const lang = catalog.lang === 'sw' ? 'sw' : 'en';

/** Whether the main pointer is a finger (the page says "tap" rather than "click"). */
export const touch =
  typeof matchMedia === 'function' && matchMedia('(pointer: coarse)').matches;

const warned = new Set();

function raw(key) {
  const text = catalog.messages[key];
  if (typeof text === 'string') return text;
  if (!warned.has(key)) {
    warned.add(key);
    console.warn(`i18n: no message "${key}" in the ${lang} catalog`);
  }
  return key;
}

const ENTITIES = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&nbsp;': '\u00a0' };

function stripMarkup(text) {
  return text.replace(/<[^>]*>/g, '').replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (m) => ENTITIES[m]);
}

export function escapeHtml(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}

function fill(text, params, esc) {
  if (!params) return text;
  return text.replace(/\{([A-Za-z0-9_]+)\}/g, (m, name) =>
    Object.prototype.hasOwnProperty.call(params, name) ? esc(params[name]) : m);
}

/** The message `key` as plain text, with `{name}` replaced by `params.name`. */
export function t(key, params) {
  return fill(stripMarkup(raw(key)), params, String);
}

/** The message `key` as HTML (its markup kept, the parameters escaped), for innerHTML. */
export function tHtml(key, params) {
  return fill(raw(key), params, escapeHtml);
}

const plural = (() => {
  try {
    return new Intl.PluralRules(lang);
  } catch {
    return { select: (n) => (n === 1 ? 'one' : 'other') };
  }
})();

/** A count: message `key.one` or `key.other` (by the language's plural rule) as plain text. */
export function tn(key, n, params) {
  const form = plural.select(n) === 'one' ? 'one' : 'other';
  return t(`${key}.${form}`, { n, ...params });
}

// The language switcher (base.html) keeps the rest of the address: ?lang=sw on a page that
// has its own query (a replay link, a game) must not lose it.
if (typeof document !== 'undefined') {
  for (const a of document.querySelectorAll('.lang-switch a[data-lang]')) {
    const url = new URL(location.href);
    url.searchParams.set('lang', a.dataset.lang);
    a.href = url.pathname + url.search + url.hash;
  }
}
