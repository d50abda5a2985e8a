// On every page: registers the service worker (static/sw.js, served at /sw.js with scope /),
// which keeps the site and the browser engine for use with no network (docs/api.md "Offline").
if ('serviceWorker' in navigator && window.isSecureContext) {
  navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch((e) => console.warn('bao: no offline use:', e));
}
