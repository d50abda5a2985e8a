// One WebSocket that stays up (docs/api.md "WebSocket"): the game page and the home page's lobby both use
// it. It keeps the connection alive with pings, reconnects with jittered exponential
// back-off (1 s, 2 s, 4 s ... capped at 30 s, each a random 50-100 % of that, so that a
// thousand pages dropped together by a server restart do not all come back in the same
// millisecond), and reconnects at once when the tab becomes visible again or the browser
// comes back online. The server sends the whole state on every connect (docs/api.md), so a
// reconnect is also a resync.

import { el } from './app.js';
import { t } from './i18n.js';

/** Longest wait between two attempts (ms). */
export const MAX_BACKOFF = 30000;
/** First wait after a drop (ms). */
export const FIRST_BACKOFF = 1000;
/** A ping every PING ms; no message at all for DEAD ms means the socket is dead. */
const PING = 25000;
const DEAD = 60000;
/** After a wake-up (tab visible, online) the server has this long to answer a ping. */
const WAKE_CHECK = 5000;
/** After this many failed attempts in a row the page says "Connection lost". */
const LOST_AFTER = 3;

/** The wait before attempt `n` (1-based): min(cap, first * 2^(n-1)), times 50-100 %. */
export function backoff(n, random = Math.random) {
  const base = Math.min(MAX_BACKOFF, FIRST_BACKOFF * 2 ** Math.max(0, Math.min(n - 1, 15)));
  return Math.round(base * (0.5 + 0.5 * random()));
}

/**
 * Opens `path` (e.g. `/api/lobby/ws`) on this page's host and keeps it open.
 *
 * Callbacks: `onOpen(send)` after every (re)connect; `onMessage(msg, send)` for every JSON
 * message except `pong`; `onStatus(status, info)` whenever the connection changes, with
 * status one of `connecting`, `open`, `reconnecting` (dropped, trying again; `info.retryIn`
 * ms), `lost` (offline, or several attempts failed; still retrying), `closed` (stopped).
 * `onResume(send)` when the tab comes back to the front while the socket is open (a chance to
 * ask for a resync).
 *
 * Returns `{send, reconnect, close, status}`.
 */
export function keepSocket(path, { onOpen, onMessage, onStatus, onResume } = {}) {
  let ws = null;
  let status = 'closed';
  let attempts = 0; // failed attempts since the last open socket
  let timer = null; // the next attempt
  let pinger = null;
  let lastHeard = 0;
  let wakeTimer = null;
  let stopped = false;

  const url = () => `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${path}`;
  const setStatus = (s, info = {}) => {
    status = s;
    if (onStatus) onStatus(s, info);
  };
  const send = (obj) => {
    if (ws && ws.readyState === WebSocket.OPEN) {
      ws.send(JSON.stringify(obj));
      return true;
    }
    return false;
  };

  function schedule() {
    if (stopped || timer) return;
    attempts += 1;
    const wait = backoff(attempts);
    const offline = navigator.onLine === false;
    setStatus(offline || attempts > LOST_AFTER ? 'lost' : 'reconnecting', { retryIn: wait, attempts, offline });
    // Offline: no attempt until the browser says it is online again (the `online` event).
    if (offline) return;
    timer = setTimeout(() => {
      timer = null;
      open();
    }, wait);
  }

  function drop(sock) {
    // A socket that is closed by us or the network: forget it and try again later.
    if (sock !== ws) return;
    ws = null;
    clearInterval(pinger);
    pinger = null;
    clearTimeout(wakeTimer);
    wakeTimer = null;
    try {
      sock.close();
    } catch {
      /* already closed */
    }
    schedule();
  }

  function open() {
    if (stopped) return;
    clearTimeout(timer);
    timer = null;
    if (ws) return;
    if (status !== 'reconnecting' && status !== 'lost') setStatus('connecting');
    let sock;
    try {
      sock = new WebSocket(url());
    } catch {
      schedule();
      return;
    }
    ws = sock;
    sock.addEventListener('open', () => {
      if (sock !== ws) return;
      attempts = 0;
      lastHeard = Date.now();
      setStatus('open');
      pinger = setInterval(() => {
        if (Date.now() - lastHeard > DEAD) drop(sock);
        else send({ type: 'ping' });
      }, PING);
      if (onOpen) onOpen(send);
    });
    sock.addEventListener('message', (e) => {
      if (sock !== ws) return;
      lastHeard = Date.now();
      clearTimeout(wakeTimer);
      wakeTimer = null;
      let msg;
      try {
        msg = JSON.parse(e.data);
      } catch {
        return;
      }
      if (msg && msg.type !== 'pong' && onMessage) onMessage(msg, send);
    });
    sock.addEventListener('close', () => drop(sock));
  }

  /** Reconnects now, forgetting the back-off (after a wake-up, or a click). */
  function reconnect() {
    if (stopped) return;
    attempts = 0;
    clearTimeout(timer);
    timer = null;
    if (ws) {
      const old = ws;
      ws = null;
      clearInterval(pinger);
      try {
        old.close();
      } catch {
        /* ignore */
      }
    }
    open();
  }

  /** The tab is back in front or the network is back: check the socket, or reconnect. */
  function wake() {
    if (stopped) return;
    if (ws && ws.readyState === WebSocket.OPEN) {
      // A phone that slept may hold a socket the server has long closed: it must answer a
      // ping within a few seconds or it is replaced.
      const sock = ws;
      send({ type: 'ping' });
      clearTimeout(wakeTimer);
      wakeTimer = setTimeout(() => {
        wakeTimer = null;
        if (sock === ws) drop(sock);
      }, WAKE_CHECK);
      if (onResume) onResume(send);
    } else if (!ws || ws.readyState !== WebSocket.CONNECTING) {
      reconnect();
    }
  }

  const onVisible = () => {
    if (document.visibilityState === 'visible') wake();
  };
  const onOffline = () => {
    // No network: the socket cannot carry anything; say so now rather than after the
    // keep-alive gives up.
    if (ws) drop(ws);
    else setStatus('lost', { offline: true, attempts });
  };
  document.addEventListener('visibilitychange', onVisible);
  window.addEventListener('online', wake);
  window.addEventListener('offline', onOffline);

  function close() {
    stopped = true;
    clearTimeout(timer);
    clearInterval(pinger);
    clearTimeout(wakeTimer);
    document.removeEventListener('visibilitychange', onVisible);
    window.removeEventListener('online', wake);
    window.removeEventListener('offline', onOffline);
    if (ws) {
      const s = ws;
      ws = null;
      s.close();
    }
    setStatus('closed');
  }

  open();
  return { send, reconnect, close, status: () => status };
}

/**
 * Shows a socket's status in `box` (a small text under the game or the lists) and sets
 * `box.dataset.connection` to the status. `reconnect` (optional) adds a "Reconnect now" button
 * while the connection is lost; `words.open` / `words.lost` replace the default texts, and
 * `words[status]` gives the text of a status of the page's own (the game page's `browser`).
 */
export function showConnection(box, status, info = {}, reconnect = null, words = {}) {
  if (!box) return;
  box.dataset.connection = status;
  // Heard by screen readers when it changes ("Connection lost", "Live").
  if (!box.hasAttribute('aria-live')) box.setAttribute('aria-live', 'polite');
  const secs = Math.max(1, Math.round((info.retryIn || 0) / 1000));
  let text;
  switch (status) {
    case 'open':
      text = words.open || t('mine.conn_open');
      break;
    case 'connecting':
      text = t('mine.conn_connecting');
      break;
    case 'reconnecting':
      text = t('mine.conn_reconnecting');
      break;
    case 'lost':
      text = info.offline ? t('mine.conn_offline') : words.lost || t('mine.conn_lost', { seconds: secs });
      break;
    default:
      text = words[status] || '';
  }
  const parts = [text];
  if (status === 'lost' && reconnect && !info.offline) {
    parts.push(' ', el('button', { type: 'button', class: 'link-button', onclick: reconnect }, t('mine.conn_retry')));
  }
  box.replaceChildren(...parts);
}
