// Turn alerts: when it becomes the player's move while the tab is hidden, the
// title gets a mark ("(•) Your move – bao"), the favicon gets a dot, a short sound plays if
// the player turned it on (made with WebAudio, no file), and a system notification appears if
// the player asked for it (permission is asked only after a click on "Tell me when it is my
// move"). Title and favicon come back when the tab is visible again.

import { el, pref, setPref } from './app.js';
import { t } from './i18n.js';

const MARK = '(•) ';
let active = false; // the title and favicon show an alert
let baseTitle = null;
let iconLink = null;
let iconHref = null;
let audio = null; // AudioContext, made on a click (browsers allow sound only after one)
const last = new Map(); // key -> was it the player's move at the last call

/** The dotted favicon: the site's board icon with a red dot in its corner. */
const DOT_ICON =
  'data:image/svg+xml,' +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect x="1" y="5" width="30" height="22" rx="4" fill="#8b5a2b"/>' +
      '<g fill="#3b2414"><circle cx="8" cy="11" r="3"/><circle cx="16" cy="11" r="3"/><circle cx="8" cy="21" r="3"/><circle cx="16" cy="21" r="3"/></g>' +
      '<circle cx="24" cy="10" r="8" fill="#d62828" stroke="#fff" stroke-width="2"/></svg>',
  );

/** Notification permission as the page sees it: granted, denied, default or unsupported. */
export function permission() {
  return typeof Notification === 'function' ? Notification.permission : 'unsupported';
}

/** The player's settings. */
export const settings = {
  get notify() {
    return !!pref('alertNotify', false) && permission() === 'granted';
  },
  get sound() {
    return !!pref('alertSound', false);
  },
};

// The page may set its own title while an alert shows (the game page does on every move):
// keep the mark in front of whatever it sets.
const titleWatch = new MutationObserver(() => {
  if (active && !document.title.startsWith(MARK)) {
    baseTitle = document.title;
    document.title = MARK + document.title;
  }
});

function showAlert(text) {
  if (!active) {
    baseTitle = document.title;
    iconLink = document.querySelector('link[rel~="icon"]');
    iconHref = iconLink ? iconLink.getAttribute('href') : null;
  }
  active = true;
  document.title = `${MARK}${text} – bao`;
  if (iconLink) iconLink.setAttribute('href', DOT_ICON);
  const titleEl = document.querySelector('title');
  if (titleEl) titleWatch.observe(titleEl, { childList: true, characterData: true, subtree: true });
  document.documentElement.dataset.turnAlert = 'on';
}

/** Takes the mark off the title and the dot off the favicon. */
export function clearAlert() {
  if (!active) return;
  active = false;
  titleWatch.disconnect();
  if (baseTitle !== null) document.title = baseTitle;
  if (iconLink && iconHref !== null) iconLink.setAttribute('href', iconHref);
  document.documentElement.dataset.turnAlert = 'off';
}

document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible') clearAlert();
});

/** Two short rising tones. */
function beep() {
  try {
    const ctx = audio || new AudioContext();
    audio = ctx;
    if (ctx.state === 'suspended') ctx.resume();
    const now = ctx.currentTime;
    [660, 880].forEach((f, i) => {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = 'sine';
      osc.frequency.value = f;
      const t0 = now + i * 0.16;
      gain.gain.setValueAtTime(0.0001, t0);
      gain.gain.exponentialRampToValueAtTime(0.25, t0 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, t0 + 0.14);
      osc.connect(gain).connect(ctx.destination);
      osc.start(t0);
      osc.stop(t0 + 0.15);
    });
    document.documentElement.dataset.turnSound = String(Number(document.documentElement.dataset.turnSound || 0) + 1);
  } catch {
    /* no WebAudio: the title and favicon still tell */
  }
}

/**
 * Tells the page whether it is the player's move in `key` (a game id). When it becomes the
 * player's move (it was not at the last call) while the tab is hidden, the alert goes off:
 * `text` in the title and the notification, `body` in the notification, `url` opened by a
 * click on it. The first call for a key only sets what "before" was.
 */
export function turnIs(key, yourMove, { text = t('mine.alert_title'), body = '', url = null } = {}) {
  const before = last.get(key);
  last.set(key, !!yourMove);
  if (!yourMove || before !== false) return false;
  if (document.visibilityState === 'visible') return false;
  showAlert(text);
  if (settings.sound) beep();
  if (settings.notify) {
    try {
      const n = new Notification(text, { body, tag: `bao-${key}`, icon: '/static/favicon.svg' });
      n.onclick = () => {
        window.focus();
        if (url && location.pathname + location.search !== url) location.assign(url);
        n.close();
      };
    } catch {
      /* a browser that allows notifications only from a service worker: title and favicon tell */
    }
  }
  return true;
}

/**
 * The settings box: "Tell me when it is my move" (asks for permission on the click) and
 * "Play a sound". Returns the element to put in the page.
 */
export function alertSettings() {
  const status = el('span', { class: 'small muted', 'aria-live': 'polite', id: 'alert-status' });
  const notifyBtn = el('button', { type: 'button', id: 'alert-notify' });
  const sound = el('input', { type: 'checkbox', id: 'alert-sound' });
  sound.checked = settings.sound;
  const draw = () => {
    const p = permission();
    const on = settings.notify;
    notifyBtn.textContent = on ? t('mine.notify_off') : t('mine.notify_on');
    notifyBtn.setAttribute('aria-pressed', String(on));
    notifyBtn.disabled = p === 'unsupported' || p === 'denied';
    status.textContent =
      p === 'unsupported' ? t('mine.notify_unsupported') : p === 'denied' ? t('mine.notify_denied') : on ? t('mine.notify_ready') : '';
  };
  notifyBtn.addEventListener('click', async () => {
    if (settings.notify) {
      setPref('alertNotify', false);
      return draw();
    }
    let p = permission();
    if (p === 'default') {
      try {
        p = await Notification.requestPermission();
      } catch {
        p = permission();
      }
    }
    setPref('alertNotify', p === 'granted');
    draw();
  });
  sound.addEventListener('change', () => {
    setPref('alertSound', sound.checked);
    // Made on this click, so the browser lets it play later.
    if (sound.checked) {
      try {
        audio = audio || new AudioContext();
      } catch {
        /* no WebAudio */
      }
    }
  });
  draw();
  return el(
    'div',
    { class: 'turn-alerts', id: 'turn-alerts' },
    el('p', { class: 'row' }, notifyBtn, status),
    el('label', {}, sound, ' ', t('mine.sound')),
    el('p', { class: 'small muted' }, t('mine.alerts_help')),
  );
}
