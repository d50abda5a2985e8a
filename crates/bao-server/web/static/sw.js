// The service worker (served at /sw.js, scope /): after one visit the site loads with no
// network, and a game against the computer can be played in the browser (docs/api.md "Offline").
//
// * Versioned files (`/static/NAME?v=HASH`, never changing) are cache-first; the server
//   writes the list of every one of them into PRECACHE below when it serves this file, so a
//   new server version is a new service worker, which fetches the new files and drops the
//   old cache.
// * Pages, two read-only answers of the home page (the variants and its picture), the
//   lessons of /learn (GET /api/learn/{variant}?lang=) and the puzzle packs of /puzzles
//   (GET /api/puzzles/pack?variant=, played by static/puzzles-offline.js) are network-first,
//   kept as the fallback for when the network is gone. A game page of a game kept in the browser (/g/local-…)
//   falls back to the cached game page, a lesson (/learn/{variant}/{lesson}) to /learn.
// * Everything else (the API, sockets) is left alone: it goes to the network as if there were
//   no service worker, so online pages behave and time exactly as before.

const PRECACHE = '__BAO_PRECACHE__';
const VERSION = '__BAO_VERSION__';
const CACHE = `bao-${VERSION}`;
/** Pages fetched at install time, so that they work offline even if never opened. */
const PAGES = ['/', '/replay', '/rules/kiswahili', '/rules/kete', '/rules/kimasai', '/g/local', '/learn', '/analysis', '/puzzles'];
/** The lessons of Jifunze / Learn in both languages (static/learn.js asks for exactly these). */
const LESSONS = ['kiswahili', 'kete', 'kimasai'].flatMap((v) => ['en', 'sw'].map((l) => `/api/learn/${v}?lang=${l}`));
/** Each game's offline puzzle pack (static/puzzles-offline.js asks for exactly these). */
const PACKS = ['kiswahili', 'kete', 'kimasai'].map((v) => `/api/puzzles/pack?variant=${v}`);
/** Read-only API answers kept for offline use: the home page's options and its picture, the
 * lessons, the puzzle packs. */
const keepApi = (url, request) =>
  url.pathname === '/api/variants' ||
  url.pathname === '/api/puzzles/pack' ||
  (url.pathname === '/api/render/svg' && request.destination === 'image') ||
  /^\/api\/learn\/[a-z]+$/.test(url.pathname);

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      // Pages one by one: a page the server cannot give now is fetched on a later visit.
      await cache.addAll(PRECACHE);
      await Promise.all(
        [...PAGES, ...LESSONS, ...PACKS, '/api/variants', '/api/render/svg?position=kiswahili'].map((u) =>
          fetch(u, { credentials: 'same-origin' })
            .then((r) => (r.ok ? cache.put(u, r) : null))
            .catch(() => null),
        ),
      );
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const key of await caches.keys()) if (key.startsWith('bao-') && key !== CACHE) await caches.delete(key);
      await self.clients.claim();
    })(),
  );
});

async function cacheFirst(request) {
  const hit = await caches.match(request);
  if (hit) return hit;
  const res = await fetch(request);
  if (res.ok) (await caches.open(CACHE)).put(request, res.clone());
  return res;
}

async function networkFirst(request, url) {
  try {
    const res = await fetch(request);
    if (res.ok) (await caches.open(CACHE)).put(request, res.clone());
    return res;
  } catch (err) {
    // A page's own address first (/puzzles?lang=sw is kept in Swahili), then any of its queries.
    const hit =
      (await caches.match(request)) || (request.mode === 'navigate' && (await caches.match(request, { ignoreSearch: true })));
    if (hit) return hit;
    if (request.mode === 'navigate') {
      const page = url.pathname.startsWith('/g/')
        ? '/g/local'
        : url.pathname.startsWith('/learn/')
          ? '/learn'
          : url.pathname.startsWith('/rules/')
            ? null
            : '/';
      const fallback = page && (await caches.match(page));
      if (fallback) return fallback;
    }
    throw err;
  }
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith('/static/') && url.searchParams.has('v')) {
    event.respondWith(cacheFirst(request));
  } else if (request.mode === 'navigate' || keepApi(url, request)) {
    event.respondWith(networkFirst(request, url));
  }
});

// ---------- Web Push (docs/api.md "Web Push"; static/push.js subscribes) ----------
// The server's payload is {"title", "body", "url", "tag"}, already in the player's language.
// A push always shows a notification (browsers require it of `userVisibleOnly`); the tag
// makes a newer "your move" of one game replace the older one.

self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { body: event.data ? event.data.text() : '' };
  }
  const url = typeof data.url === 'string' && data.url.startsWith('/') ? data.url : '/';
  event.waitUntil(
    self.registration.showNotification(data.title || 'bao', {
      body: data.body || '',
      tag: data.tag || undefined,
      data: { url },
      icon: '/static/icon-192.png',
      badge: '/static/icon-192.png',
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = new URL((event.notification.data && event.notification.data.url) || '/', self.location.origin);
  event.waitUntil(
    (async () => {
      const tabs = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      // A tab already on that page (the game) is brought forward rather than opening another.
      const open = tabs.find((c) => new URL(c.url).pathname === url.pathname);
      if (open) return open.focus();
      return self.clients.openWindow(url.href);
    })(),
  );
});
