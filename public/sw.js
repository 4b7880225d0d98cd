// Wells loitering log service worker: the field form opens with no signal.
//
// Pages and the app's files are fetched from the network first (so a signal means
// fresh code and data); every successful answer for a cached path is kept, and is
// served when the network is gone. Reports are not stored here: the page keeps
// them in localStorage and its outbox sends them when the signal returns.
const CACHE = 'wells-pages-v1';
const PAGES = ['/field/new', '/field/reports', '/'];
const FILES = /^\/(pkg\/|favicon\.svg$|icon-\d+\.png$|manifest\.webmanifest$)/;

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches.open(CACHE)
      .then((cache) => cache.addAll(['/pkg/wells.js', '/pkg/wells.wasm', '/pkg/wells.css', '/manifest.webmanifest']))
      .catch(() => undefined)
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

function keep(request, response) {
  // Only whole, direct answers: never a redirect to the sign-in page.
  if (response.ok && !response.redirected && response.type === 'basic') {
    const copy = response.clone();
    caches.open(CACHE).then((cache) => cache.put(request, copy));
  }
  return response;
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || url.pathname.startsWith('/api/')) return;
  const isPage = request.mode === 'navigate' && PAGES.includes(url.pathname);
  if (!isPage && !FILES.test(url.pathname)) return;
  event.respondWith(
    fetch(request)
      .then((response) => keep(request, response))
      .catch(() =>
        caches.match(request, { ignoreSearch: isPage }).then(
          (cached) =>
            cached ||
            new Response('<!doctype html><title>Offline</title><p>No signal, and this page is not saved on the phone yet.</p>', {
              status: 503,
              headers: { 'Content-Type': 'text/html; charset=utf-8' },
            }),
        ),
      ),
  );
});
