// The game page's source for a game kept by the server (docs/api.md "JSON API" and
// "WebSocket"). It has the shape of the browser's own source (offline-game.js, localSource), so
// that game.js has one path for both:
//
// * `state()` answers the whole GameState (an error with `status` 404 when there is no game);
// * `subscribe(h)` brings every later state to `h.state(s, move?)` (here: the socket's move
//   frames, applied to `h.current()`, the newest state the page holds; polling while the
//   socket is down), the connection's status to `h.connection(status, info, reconnect)`, a
//   refusal sent on the socket to `h.error(err)`, a game that has gone to `h.missing()`;
// * `play(move, ply)` plays a move (its state comes through subscribe), `resign(s)` answers the
//   state after resigning; `svg(s)` draws the board; `recordLink(a, s)` makes a link download
//   the record;
// * `can` lists the features only some sources have, each with its method: `join(invite,
//   name)`, `takeback(s)`, `hint(s)`, `rematch(s)`, `rematchDecline()`, `rematchCancel()`, and
//   `review` (the replay page's review).

import { api, legalFromText } from './app.js';
import { keepSocket } from './socket.js';
import { saveSeat } from './seats.js';
import { framePatch } from './play.js';

/** How often the page asks for the state while the socket is down (ms). */
const POLL_MS = 3000;

export function serverSource(id) {
  const path = `/api/games/${encodeURIComponent(id)}`;
  let h = {};
  let socket = null;
  let pollTimer = null;

  const emit = (s, move = null) => h.state && h.state(s, move);
  const live = () => socket && socket.status() === 'open';

  /** Asks for the whole state (polling, or after a move with no socket to bring it). */
  async function poll() {
    try {
      emit(await api(path));
    } catch (err) {
      if (err.status === 404 && h.missing) h.missing();
    }
  }
  function startPolling() {
    if (!pollTimer) pollTimer = setInterval(poll, POLL_MS);
  }
  function stopPolling() {
    clearInterval(pollTimer);
    pollTimer = null;
  }

  /**
   * A move frame: the newest state plus what the move changed. Returns false when the frame
   * does not follow that state (a gap: the caller asks for the whole state).
   */
  function applyMove(msg) {
    const base = h.current && h.current();
    const ev = msg.move;
    if (!base || !ev) return false;
    if (ev.ply <= base.ply) return true; // already known (an HTTP answer came first)
    if (ev.ply !== base.ply + 1) return false;
    const over = ev.result !== '-';
    const s = {
      ...base,
      position: ev.position,
      ply: ev.ply,
      side_to_move: msg.side_to_move,
      result: ev.result,
      result_text: over ? (msg.result_text ?? null) : null,
      ending: over ? (msg.ending ?? null) : null,
      termination: null,
      stage: msg.stage,
      block: msg.block ?? null,
      must: msg.must ?? null,
      legal: (msg.legal || []).map(legalFromText),
      moves: [...(base.moves || []), ev],
      match: msg.match || base.match,
      updated: msg.updated,
    };
    Object.assign(s, framePatch(base, msg));
    emit(s, ev);
    return true;
  }

  /** Who is connected changed. */
  function applyPresence(connected) {
    const base = h.current && h.current();
    if (!base || !connected) return;
    const players = { ...base.players };
    for (const side of ['S', 'N']) if (players[side]) players[side] = { ...players[side], connected: !!connected[side] };
    emit({ ...base, players });
  }

  /** The game's socket (static/socket.js: keep-alive, back-off, reconnect on wake-up). */
  function connect() {
    let version = null; // `v` of the last message applied; null until the first state
    let syncing = false;
    const resync = (send) => {
      if (syncing) return;
      syncing = true;
      version = null;
      send({ type: 'sync' });
    };
    socket = keepSocket(`${path}/ws`, {
      onOpen() {
        // The server sends the whole state on connect: a reconnect is a resync.
        version = null;
        syncing = false;
      },
      onResume: resync,
      onStatus(status, info) {
        if (h.connection) h.connection(status, info, () => socket && socket.reconnect());
        if (status === 'open') stopPolling();
        else if (status === 'reconnecting' || status === 'lost') startPolling();
      },
      onMessage(msg, send) {
        if (msg.type === 'error') {
          if (h.error) h.error({ category: msg.error, message: msg.message });
          return;
        }
        if (msg.type === 'state') {
          syncing = false;
          version = msg.v;
          emit(msg.state);
          return;
        }
        if (typeof msg.v !== 'number' || version === null) return; // waiting for a state
        if (msg.v <= version) return; // sent before the state we have
        if (msg.v !== version + 1) return resync(send); // missed something
        version = msg.v;
        if (msg.type === 'move' && !applyMove(msg)) resync(send);
        else if (msg.type === 'presence') applyPresence(msg.connected);
      },
    });
  }

  return {
    can: { join: true, takeback: true, hint: true, rematch: true, review: true },
    state: () => api(path),
    subscribe(handlers) {
      h = handlers || {};
      connect();
    },
    async play(move, ply) {
      try {
        return await api(`${path}/moves`, { method: 'POST', body: { move, ply } });
      } finally {
        // The live socket brings the move to everyone, us included; without it, ask.
        if (!live()) await poll();
      }
    },
    resign(s) {
      // The game and ply it is meant for: a resignation that crosses the move that ends the
      // game is refused (409) instead of landing on the next game of the match.
      const body = { game_no: s.match ? s.match.game_no : 1, ply: s.ply };
      return api(`${path}/resign`, { method: 'POST', body });
    },
    async svg(s) {
      const q = new URLSearchParams({ position: s.position, rules: s.rules || '-' });
      const r = await fetch(`/api/render/svg?${q}`);
      return r.ok ? r.text() : null;
    },
    recordLink(a) {
      a.href = `${path}/record`;
    },
    async join(invite, name) {
      const body = { invite };
      if (name) body.name = name;
      const seat = await api(`${path}/join`, { method: 'POST', body });
      saveSeat({ id, token: seat.token, side: seat.seat, name: name || null });
      return seat;
    },
    takeback(s) {
      const body = { game_no: s.match ? s.match.game_no : 1, ply: s.ply };
      return api(`${path}/takeback`, { method: 'POST', body });
    },
    hint() {
      return api(`${path}/hint`);
    },
    /** Offers a rematch, or accepts the other player's standing offer (docs/api.md "Play: rematch"). */
    rematch() {
      return api(`${path}/rematch`, { method: 'POST', body: {} });
    },
    rematchDecline() {
      return api(`${path}/rematch/decline`, { method: 'POST', body: {} });
    },
    rematchCancel() {
      return api(`${path}/rematch/cancel`, { method: 'POST', body: {} });
    },
  };
}
