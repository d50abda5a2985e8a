// Games played in the browser against the browser engine, kept in IndexedDB (docs/api.md
// "Offline"): they survive a reload and a closed tab, with or without network.
//
// One object store `games`, key `id` (`local-…`), value:
// {id, variant, rules, start|null, moves: [canonical move], you: 'S'|'N', level, name,
//  created, updated (ms since the epoch), result|null and termination|null for a resignation,
//  last_result once the game is over (for the home page's list)}.

import { t } from './i18n.js';

const DB = 'bao-offline';
const STORE = 'games';

let opened = null;

function open() {
  if (!opened) {
    opened = new Promise((resolve, reject) => {
      const req = indexedDB.open(DB, 1);
      req.onupgradeneeded = () => {
        const db = req.result;
        if (!db.objectStoreNames.contains(STORE)) db.createObjectStore(STORE, { keyPath: 'id' });
      };
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
      req.onblocked = () => reject(new Error(t('offline.store_busy')));
    });
    opened.catch(() => {
      opened = null;
    });
  }
  return opened;
}

async function run(mode, f) {
  const db = await open();
  return new Promise((resolve, reject) => {
    const tx = db.transaction(STORE, mode);
    const req = f(tx.objectStore(STORE));
    tx.oncomplete = () => resolve(req ? req.result : undefined);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error || new Error(t('offline.store_refused')));
  });
}

/** Writes a game (a new one or a changed one). */
export const saveGame = (game) => run('readwrite', (s) => s.put(game));
/** The game with this id, or undefined. */
export const getGame = (id) => run('readonly', (s) => s.get(id));
/** Deletes a game. */
export const deleteGame = (id) => run('readwrite', (s) => s.delete(id));
/** Every game, the most recently played first. */
export async function listGames() {
  const all = (await run('readonly', (s) => s.getAll())) || [];
  return all.sort((a, b) => (b.updated || 0) - (a.updated || 0));
}
