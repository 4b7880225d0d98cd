// Wells loitering log service worker: the field form opens with no signal, or
// with a signal too weak to be worth waiting for.
//
// The server fills in RELEASE (server/src/release.rs): a digest of the app's
// files, which it serves under /pkg/RELEASE/ only. Both caches bear the release
// in their names, so a phone never pairs one build's page with another build's
// WASM. A new release is a new worker: it fills its own caches (the on-demand
// pages' WASM of a split build too, so a page the phone has opened before opens
// again with no signal), then drops every older one.
//
// This release's files (/pkg/RELEASE/) come from the cache first: their names
// change with their contents. Pages and the other files are fetched from the
// network first (a signal means fresh data); an answer that takes longer than
// NETWORK_WAIT_MS gives way to the cached copy, and still lands in the cache for
// next time. Reports are not
// stored here: the page keeps them in localStorage and its outbox sends them
// when the signal returns.
const RELEASE = '__RELEASE__';
const FILES_CACHE = `wells-files-${RELEASE}`;
const PAGES_CACHE = `wells-pages-${RELEASE}`;
const NETWORK_WAIT_MS = 3000;
// The officer's pages kept for no signal (other roles work at a desk).
const PAGES = ['/field/new', '/field/reports', '/field/gathering', '/'];
// The split build's loader and on-demand pages (none in a build that does not split).
const SPLIT_FILES = '__SPLIT_FILES__';
const APP_FILES = ['wells.js', 'wells.wasm', 'wells.css', ...SPLIT_FILES].map((f) => `/pkg/${RELEASE}/${f}`);
const FILES = /^\/(pkg\/|scan\/|vendor\/|favicon\.svg$|icon-[\w-]+\.png$|manifest\.webmanifest$)/;
// The licence scanner (app/src/components/camera.rs): the page loads it on the
// first "Scan licence"; the worker keeps it beforehand, once an officer's page
// runs with a signal, so the camera reads a licence with no signal too. Not at
// install: a megabyte more would make a weak signal's install fail.
const SCANNER = ['/scan/licence.js', '/vendor/zxing-wasm-3.1.8/reader.js', '/vendor/zxing-wasm-3.1.8/zxing_reader.wasm'];

// If this release's files cannot all be fetched (a weak signal), the install
// fails and the browser keeps the release the phone has, caches and all, and
// tries again at a later page load: a new worker never takes over half-saved.
self.addEventListener('install', (event) => {
  event.waitUntil(
    Promise.all([
      caches.open(FILES_CACHE).then((cache) =>
        cache.addAll([...APP_FILES, '/manifest.webmanifest', '/icon-192.png']),
      ),
      keepPages(),
    ]).then(() => self.skipWaiting()),
  );
});

// This release's officer pages, as the signed-in user sees them (a page asked
// for while signed out is not kept): the saved page and the saved WASM are one
// build. At install, and once an officer's page is seen signed in (so the form
// opens with no signal even if the officer never opened it online).
function keepPages(only = PAGES) {
  return caches.open(PAGES_CACHE).then((cache) =>
    Promise.all(
      only.map((path) =>
        fetch(path)
          .then((response) => (keepable(response, true) ? cache.put(path, response) : undefined))
          .catch(() => undefined),
      ),
    ),
  );
}

async function keepMissingPages() {
  const cache = await caches.open(PAGES_CACHE);
  const saved = await Promise.all(PAGES.map((path) => cache.match(path)));
  await Promise.all([keepPages(PAGES.filter((_, i) => !saved[i])), keepScanner()]);
}

async function keepScanner() {
  const cache = await caches.open(FILES_CACHE);
  await Promise.all(
    SCANNER.map(async (path) => {
      if (await cache.match(path)) return;
      const response = await fetch(path).catch(() => undefined);
      if (response && keepable(response, false)) await cache.put(path, response);
    }),
  );
}

// An officer's page, once running, says so: its own load may have come before
// this worker took control of it (the first visit), so nothing was saved then.
self.addEventListener('message', (event) => {
  if (event.data === 'keep-pages') event.waitUntil(keepMissingPages());
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) =>
        Promise.all(
          keys
            .filter((k) => k.startsWith('wells-') && k !== FILES_CACHE && k !== PAGES_CACHE)
            .map((k) => caches.delete(k)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

// Only whole, direct answers: never a redirect. A page only as made for a
// signed-in user (the server marks it, app/src/auth/session.rs), never the
// "Sign in to continue" page a signed-out request gets.
const keepable = (response, isPage) =>
  response.ok && !response.redirected && response.type === 'basic' &&
  (!isPage || response.headers.get('x-wells-signed-in') === '1');
const offline = () =>
  new Response('<!doctype html><html lang="en"><title>Offline</title><p>No signal, and this page is not saved on the phone yet.</p></html>', {
    status: 503,
    headers: { 'Content-Type': 'text/html; charset=utf-8' },
  });

// Called while the fetch event is dispatched, so `waitUntil` may extend it.
function networkFirst(event, cacheName, isPage) {
  const request = event.request;
  const network = fetch(request).then((response) => {
    if (keepable(response, isPage)) {
      const copy = response.clone();
      event.waitUntil(
        caches.open(cacheName).then(async (cache) => {
          await cache.put(request, copy);
          // A signed-in officer's page: save the officer's other pages too.
          if (isPage && new URL(request.url).pathname.startsWith('/field/')) await keepMissingPages();
        }),
      );
    }
    return response;
  });
  // The network's answer is kept even when the cached copy answered first.
  event.waitUntil(network.catch(() => undefined));
  const saved = () => caches.open(cacheName).then((cache) => cache.match(request, { ignoreSearch: isPage }));
  let timer;
  const late = new Promise((resolve) => {
    timer = setTimeout(resolve, NETWORK_WAIT_MS, null);
  });
  return Promise.race([network, late])
    // Slower than NETWORK_WAIT_MS: the cached copy, or else keep waiting.
    .then(async (first) => first || (await saved()) || network)
    .catch(async () => (await saved()) || offline())
    .finally(() => clearTimeout(timer));
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || url.pathname.startsWith('/api/')) return;
  const isPage = request.mode === 'navigate' && PAGES.includes(url.pathname);
  if (!isPage && !FILES.test(url.pathname)) return;
  // Another release's file: a page opened before a new release asked for one of
  // its on-demand pages, which the server no longer holds. Its answer (404) would
  // stop the app, so the page is reloaded as this release instead.
  if (url.pathname.startsWith('/pkg/') && !url.pathname.startsWith(`/pkg/${RELEASE}/`)) {
    event.respondWith(
      fetch(request).then((response) => {
        if (response.status === 404 && event.clientId) {
          event.waitUntil(
            self.clients.get(event.clientId).then((page) => page && page.navigate(page.url)),
          );
        }
        return response;
      }),
    );
    return;
  }
  // This release's files never change under their names, nor does a vendored
  // decoder under its version: the saved copy answers at once, with no signal as
  // with one bar (an on-demand page opens instantly; a scan starts without
  // fetching a megabyte again).
  if (url.pathname.startsWith(`/pkg/${RELEASE}/`) || url.pathname.startsWith('/vendor/')) {
    event.respondWith(
      caches.open(FILES_CACHE)
        .then((cache) => cache.match(request))
        .then((saved) => saved || networkFirst(event, FILES_CACHE, false)),
    );
    return;
  }
  event.respondWith(networkFirst(event, isPage ? PAGES_CACHE : FILES_CACHE, isPage));
});
