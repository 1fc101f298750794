// The service worker: keeps the client shell (page, styles, scripts, catalogues, icons) in a
// cache so that the app starts from the home screen even on a bad connection. Network first:
// online, every file comes fresh from the server (and refreshes the cache); offline, the
// cached copy answers. The game itself (WebSocket, /api/) always goes to the network.

const CACHE = "tischrunde-shell-v4";
const SHELL = [
  "/",
  "/index.html",
  "/manifest.json",
  "/favicon.svg",
  "/css/app.css",
  "/icons/icon.svg",
  "/icons/icon-192.png",
  "/icons/icon-512.png",
  "/i18n/de.json",
  "/i18n/en.json",
  "/js/analysis.js",
  "/js/app.js",
  "/js/cards.js",
  "/js/games.js",
  "/js/hints.js",
  "/js/i18n.js",
  "/js/lobby.js",
  "/js/model.js",
  "/js/names.js",
  "/js/net.js",
  "/js/profile.js",
  "/js/replay.js",
  "/js/skat-list.js",
  "/js/skat-replay.js",
  "/js/skat-words.js",
  "/js/skat.js",
  "/js/social.js",
  "/js/sound.js",
  "/js/storage.js",
  "/js/table.js",
  "/js/tichu-replay.js",
  "/js/tichu.js",
  "/js/tournaments.js",
  "/js/ui.js",
];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  const path = url.pathname === "/" ? "/" : url.pathname;
  if (event.request.method !== "GET" || url.origin !== location.origin || !SHELL.includes(path)) return;
  event.respondWith(fetch(event.request)
    .then((response) => {
      if (response.ok) {
        const copy = response.clone();
        caches.open(CACHE).then((cache) => cache.put(event.request, copy));
      }
      return response;
    })
    .catch(() => caches.match(event.request, { ignoreSearch: true })));
});
