// Web Push (docs/api.md "Web Push"): the switch "Notify me when it is my move" on the account
// settings page and on a player's game page. The browser's permission is asked only when the
// player turns the switch on; the service worker (/sw.js) then gets the server's pushes and
// shows them even with every bao tab closed. Off unsubscribes the browser and tells the server.
//
// On a game page the switch also names that game's seat (the server checks it with the seat
// cookie or the session), so a guest is told of their move in every game they open with the
// switch on.

import { api, el, errorText } from './app.js';
import { t, lang } from './i18n.js';

/** Whether this browser can get pushes from this page at all. */
export function pushSupported() {
  return (
    window.isSecureContext &&
    'serviceWorker' in navigator &&
    'PushManager' in window &&
    typeof Notification === 'function'
  );
}

/** base64url (the server's key) as the bytes `applicationServerKey` takes. */
function keyBytes(b64) {
  const s = b64.replace(/-/g, '+').replace(/_/g, '/');
  const bin = atob(s + '='.repeat((4 - (s.length % 4)) % 4));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

/** The service worker's registration (registered here too: the page may be the first visit). */
async function registration() {
  await navigator.serviceWorker.register('/sw.js', { scope: '/' });
  return navigator.serviceWorker.ready;
}

/** This browser's subscription, if it has one. */
async function current() {
  const reg = await navigator.serviceWorker.getRegistration('/');
  return reg ? reg.pushManager.getSubscription() : null;
}

/** Tells the server about `sub` (for the session's account and `game`'s seat, if any). */
function tellServer(sub, game) {
  const body = { subscription: sub.toJSON(), lang };
  if (game) body.seats = [{ game }];
  return api('/api/push/subscribe', { method: 'POST', body });
}

/**
 * The switch: a checkbox with its state in words below it. `game`: the game page's id (the
 * player's seat is added to the subscription); none on the account page.
 */
export function pushSwitch({ game = null } = {}) {
  const id = game ? 'push-switch-game' : 'push-switch';
  const input = el('input', { type: 'checkbox', id, role: 'switch' });
  const state = el('p', { class: 'small muted push-state', id: `${id}-state`, role: 'status' });
  input.setAttribute('aria-describedby', state.id);
  const box = el('div', { class: 'push-switch' }, el('label', { for: id }, input, ' ', t('push.switch_label')), state);
  const texts = {
    on: () => t('push.state_on'),
    off: () => t('push.state_off'),
    denied: () => t('push.state_denied'),
    unsupported: () => t('push.state_unsupported'),
    working: () => t('push.state_working'),
  };
  const show = (kind, on = input.checked) => {
    input.checked = on;
    state.textContent = texts[kind]();
    box.dataset.state = kind;
  };
  const failed = (err) => {
    input.checked = false;
    state.textContent = t('push.state_failed', { error: err && err.category ? errorText(err) : String((err && err.message) || err) });
    box.dataset.state = 'failed';
  };

  async function turnOn() {
    input.disabled = true;
    show('working', true);
    try {
      let p = Notification.permission;
      if (p === 'default') p = await Notification.requestPermission();
      if (p !== 'granted') return show(p === 'denied' ? 'denied' : 'off', false);
      const reg = await registration();
      let sub = await reg.pushManager.getSubscription();
      if (!sub) {
        const { key } = await api('/api/push/key');
        sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
      }
      await tellServer(sub, game);
      show('on', true);
    } catch (err) {
      failed(err);
    } finally {
      input.disabled = false;
    }
  }

  async function turnOff() {
    input.disabled = true;
    show('working', false);
    try {
      const sub = await current();
      if (sub) {
        await api('/api/push/subscribe', { method: 'DELETE', body: { endpoint: sub.endpoint } });
        await sub.unsubscribe();
      }
      show('off', false);
    } catch (err) {
      failed(err);
    } finally {
      input.disabled = false;
    }
  }

  input.addEventListener('change', () => (input.checked ? turnOn() : turnOff()));

  (async () => {
    if (!pushSupported()) {
      input.disabled = true;
      return show('unsupported', false);
    }
    if (Notification.permission === 'denied') {
      input.disabled = true;
      return show('denied', false);
    }
    try {
      const sub = Notification.permission === 'granted' ? await current() : null;
      if (!sub) return show('off', false);
      show('on', true);
      // Already on in this browser: this game's seat joins the subscription (the server
      // keeps one row per browser, so this is the same subscription again).
      if (game) await tellServer(sub, game);
    } catch (err) {
      failed(err);
    }
  })();
  return box;
}
