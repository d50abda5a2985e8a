// Games against the computer played in the browser (docs/api.md "Offline"): the game page's
// "game source" for ids `local-…`. The browser engine (engine-worker.js, the server's rules
// and levels in WebAssembly) decides everything; the game is kept in IndexedDB
// (offline-store.js) and shown by the unchanged game page from GameStates shaped like the
// server's (docs/api.md), so the same board, animation and move list serve both.

import { engine } from './offline-engine.js';
import { saveGame, getGame, listGames } from './offline-store.js';
import { t } from './i18n.js';
import { otherSide } from './app.js';

const PREFIX = 'local-';

/** Whether a game id names a game kept in this browser. */
export const isLocal = (id) => typeof id === 'string' && id.startsWith(PREFIX);

/** A new id: the prefix (never made by the server: its ids have no `-`) and 12 random letters. */
function newId() {
  const a = 'abcdefghijkmnpqrstuvwxyz23456789';
  const r = crypto.getRandomValues(new Uint8Array(12));
  return PREFIX + Array.from(r, (x) => a[x % a.length]).join('');
}

const randomSeed = () => crypto.getRandomValues(new Uint32Array(1))[0];

/** The rules part of an engine request for a stored game. */
const spec = (g) => ({ variant: g.variant, rules: g.rules || '-' });

/**
 * Starts a game against the browser engine and returns its id. `side` is `S`, `N` or
 * `random`; `start` an optional start position. Throws when the engine refuses the rules
 * or the position (its sentence says what is wrong).
 */
export async function startLocalGame({ variant, rules = '-', level = 3, side = 'random', name = '', start = null }) {
  const you = side === 'S' || side === 'N' ? side : randomSeed() % 2 ? 'N' : 'S';
  const now = Date.now();
  const game = {
    id: newId(),
    variant,
    rules: rules || '-',
    start: start || null,
    moves: [],
    you,
    level: Math.max(1, Math.min(8, Number(level) || 3)),
    name: name || '',
    created: now,
    updated: now,
    result: null,
    termination: null,
  };
  // The engine checks the rules and the start position before anything is stored.
  await engine({ op: 'game', ...spec(game), start: game.start, moves: [] });
  await saveGame(game);
  return game.id;
}

/** The sentence of a result the rules did not reach (the server's forced_text). */
function forcedText(result, termination) {
  const names = { S: 'South', N: 'North' };
  if (termination === 'resignation' && names[result]) return `${names[otherSide(result)]} resigned: ${names[result]} has won`;
  return names[result] ? `${names[result]} has won (${termination})` : `drawn (${termination})`;
}

/**
 * GameState's `ending` (docs/api.md, "Endings") of a stored game: the result the player or the
 * record set (`forced`, with its NOT-6.2 termination), else the engine's end event (CLI-5:
 * `win S front_row`, `draw repetition`).
 */
function localEnding(g, v, forced) {
  if (forced) {
    const winner = g.result === 'S' || g.result === 'N' ? g.result : null;
    if (!g.termination || g.termination === 'rules') return null;
    return { reason: g.termination === 'abandoned' && g.result === '-' ? 'closed' : g.termination, winner };
  }
  const [kind, a, b] = (v.end || '').split(' ');
  if (kind === 'win') return { reason: b, winner: a };
  if (kind === 'draw') return { reason: a, winner: null };
  return null;
}

/** The GameState (docs/api.md) of a stored game, from the engine's view of its moves. */
export async function localState(g) {
  const v = await engine({ op: 'game', ...spec(g), start: g.start, moves: g.moves });
  const forced = !!g.result && v.result === '-';
  const result = forced ? g.result : v.result;
  const computer = { kind: 'computer', name: `Computer (level ${g.level})`, level: g.level, connected: true };
  const person = { kind: 'human', name: g.name || '', level: null, connected: true };
  // A record read with no network (the replay page): its players by name, nobody moves.
  const named = (name) => ({ kind: 'human', name: name || '?', level: null, connected: true });
  const players = g.imported ? { S: named(g.south), N: named(g.north) } : { S: g.you === 'S' ? person : computer, N: g.you === 'N' ? person : computer };
  const over = result !== '-';
  return {
    id: g.id,
    variant: v.variant,
    rules: v.rules,
    start: v.start,
    position: v.position,
    ply: v.ply,
    side_to_move: v.side_to_move,
    result,
    result_text: forced ? forcedText(g.result, g.termination) : v.result_text,
    ending: localEnding(g, v, forced),
    termination: forced ? g.termination : null,
    read_only: !!g.imported,
    players,
    you: g.imported ? null : g.you,
    invite: null,
    match: {
      format: 'single_game',
      game_no: 1,
      wins: { S: result === 'S' ? 1 : 0, N: result === 'N' ? 1 : 0 },
      over,
      winner: over ? result : null,
      games: over ? [{ game_no: 1, result, result_text: null, ending: localEnding(g, v, forced), south: '', north: '' }] : [],
    },
    stage: v.stage,
    block: v.block,
    must: v.must,
    moves: v.moves,
    legal: forced || g.imported ? [] : v.legal,
    svg: null,
    updated: g.updated,
  };
}

/** The record (NOT-6) of a stored game, as text. */
export function localRecord(g) {
  const computer = `bao level ${g.level}`;
  const me = g.name || '?';
  return engine({
    op: 'record',
    ...spec(g),
    start: g.start,
    moves: g.moves,
    south: g.imported ? g.south : g.you === 'S' ? me : computer,
    north: g.imported ? g.north : g.you === 'N' ? me : computer,
    date_ms: g.created,
    result: g.result || null,
    termination: g.termination || null,
  });
}

/** Saves a stored game's record as a file (`bao-local-….txt`, as the server names its own). */
export async function downloadRecord(g) {
  const text = await localRecord(g);
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  a.download = `bao-${g.id}.txt`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 60000);
}

export { listGames };

/**
 * The game source of the game page for a local game id, or null for a server game: the shape
 * of server-game.js's serverSource (its comment lists the methods). state() answers the
 * GameState; play(), resign() change it; subscribe() brings every later state (the computer's
 * moves); svg() draws a board; recordLink() makes a link download the record. The server's
 * own features (joining, takeback, hint, rematch, review) are not offered here.
 */
export function localSource(id) {
  if (!isLocal(id)) return null;
  let game = null;
  let listener = null;
  let thinking = false;

  async function load() {
    if (!game) game = await getGame(id);
    if (!game) {
      const e = new Error(t('offline.not_found'));
      e.status = 404;
      throw e;
    }
    return game;
  }

  async function save() {
    game.updated = Date.now();
    await saveGame(game);
  }

  /** The state after a change; a game that has just ended keeps its result for the home page's list. */
  async function after() {
    const s = await localState(game);
    if (s.result !== '-' && game.last_result !== s.result) {
      game.last_result = s.result;
      await saveGame(game);
    }
    return s;
  }

  /**
   * Lets the computer move when it is its turn (decided from the stored game, not from a
   * state that may be old); every new state goes to the listener.
   */
  async function computer() {
    if (thinking || !game || game.imported) return;
    thinking = true;
    let moved = false;
    try {
      const s = await localState(game);
      if (s.result !== '-' || s.side_to_move === game.you || !s.legal.length) return;
      const n = game.moves.length;
      // The moves too, so that the computer sees a draw by repetition coming (BRD-7.5).
      const c = await engine({
        op: 'choose', ...spec(game), position: s.position, level: game.level, seed: randomSeed(),
        start: game.start, moves: game.moves,
      });
      if (!c.move || game.result || game.moves.length !== n) return;
      game.moves.push(c.move);
      await save();
      moved = true;
    } finally {
      thinking = false;
    }
    if (!moved) return;
    const next = await after();
    if (listener) listener(next);
    await computer();
  }
  const think = () => computer().catch((e) => console.warn('bao: the computer could not move', e));

  return {
    can: { join: false, takeback: false, hint: false, rematch: false, review: false },
    async state() {
      const s = await localState(await load());
      // The computer's turn (it plays South, or a reload came while it was thinking).
      setTimeout(think, 0);
      return s;
    },
    subscribe(h) {
      listener = h && h.state;
      // No socket: the moves come from the engine on this device.
      if (h && h.connection) h.connection('browser', {}, null);
    },
    async play(move, ply) {
      await load();
      const before = await localState(game);
      if (before.result !== '-' || game.imported) throw new Error(t('offline.game_over'));
      if (ply !== undefined && ply !== before.ply) throw new Error(t('offline.stale_move'));
      if (before.side_to_move !== game.you) throw new Error(t('offline.not_your_turn'));
      // The engine refuses an illegal move with its own sentence.
      await engine({ op: 'game', ...spec(game), start: game.start, moves: [...game.moves, move] });
      game.moves.push(move);
      await save();
      const s = await after();
      if (listener) listener(s);
      think();
      return s;
    },
    async resign() {
      await load();
      const s = await localState(game);
      if (s.result !== '-') return s;
      game.result = otherSide(game.you);
      game.termination = 'resignation';
      await save();
      return after();
    },
    svg(s) {
      return engine({ op: 'svg', variant: s.variant, rules: s.rules, position: s.position });
    },
    recordLink(a) {
      a.onclick = (e) => {
        e.preventDefault();
        load().then(downloadRecord);
      };
    },
  };
}

/** The GameState of the stored game `id` (the replay page); throws when there is none. */
export async function localGameState(id) {
  const g = await getGame(id);
  if (!g) throw new Error(t('offline.not_found'));
  return localState(g);
}

/** A board picture drawn by the browser engine (as /api/render/svg draws it). */
export function localSvg(variant, rules, position, last) {
  return engine({ op: 'svg', variant, rules: rules || '-', position, last: last || null });
}

/** Downloads the record of the stored game `id`. */
export async function downloadLocalRecord(id) {
  const g = await getGame(id);
  if (g) await downloadRecord(g);
}

/**
 * Keeps a record file (NOT-6, one game) in this browser after the browser engine has checked
 * it by replay (NOT-6.4): the replay page's upload when the server cannot be reached.
 * Returns the new game's id; throws the engine's sentence for a bad record.
 */
export async function importLocalRecord(text) {
  const r = await engine({ op: 'parse_record', text });
  const now = Date.now();
  const game = {
    id: newId(),
    imported: true,
    variant: r.variant,
    rules: r.rules,
    start: r.start,
    moves: r.moves,
    you: null,
    level: null,
    name: '',
    south: r.south,
    north: r.north,
    created: now,
    updated: now,
    result: r.result === '-' ? null : r.result,
    termination: r.termination,
    last_result: r.result,
  };
  await saveGame(game);
  return game.id;
}
