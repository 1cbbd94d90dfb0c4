/* global self, caches, fetch, Response, Headers, URL */
/*
 * The web apps' service worker (one file for both services; each registers it on its own origin).
 * It keeps the last state this device saw, so that opening the app with no connection to the home
 * PC shows that state, marked as such, instead of a browser error page:
 *   - pages (navigations): network first; a copy of the page is kept; offline → the kept copy
 *     (the page's own path, else the app's start page: all pages are the same single-page app);
 *   - /assets/* (hashed, never change): cache first;
 *   - GET /api/* JSON reads: network first; each answer is kept; offline → the kept answer with an
 *     `x-offline-copy` header saying when it was saved (the pages show "Offline: last state from …").
 * Writes (POST, PUT, DELETE), exports, reads with an owner's session and the live event stream
 * always go to the network and are never kept.
 */
const CACHE = 'last-state-v1';
const MAX_API_BYTES = 2_000_000;

self.addEventListener('install', () => {
  self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const key of await caches.keys()) if (key !== CACHE) await caches.delete(key);
      await self.clients.claim();
    })(),
  );
});

async function keep(request, response) {
  const cache = await caches.open(CACHE);
  await cache.put(request, response);
}

async function pageFirstFromNetwork(event) {
  const request = event.request;
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) event.waitUntil(cache.put(new URL(request.url).pathname, response.clone()).catch(() => undefined));
    return response;
  } catch (err) {
    const kept = (await cache.match(new URL(request.url).pathname)) ?? (await cache.match('/'));
    if (kept) return kept;
    throw err;
  }
}

async function assetFromCache(request) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(request);
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}


/** Keeps a JSON answer (up to MAX_API_BYTES) with the time it was saved. */
async function keepApiCopy(request, copy) {
  const type = copy.headers.get('content-type') ?? '';
  const size = Number(copy.headers.get('content-length') ?? 0);
  if (!type.includes('application/json') || size > MAX_API_BYTES) return;
  const body = await copy.arrayBuffer();
  if (body.byteLength > MAX_API_BYTES) return;
  const headers = new Headers(copy.headers);
  headers.set('x-saved-at', new Date().toISOString());
  await keep(request, new Response(body, { status: 200, headers }));
}

async function apiFirstFromNetwork(event) {
  const request = event.request;
  try {
    const response = await fetch(request);
    // The page gets its answer at once; the copy is read alongside it (awaiting it first would stall
    // a large body: a cloned body is read no faster than its twin).
    if (response.ok) event.waitUntil(keepApiCopy(request, response.clone()).catch(() => undefined));
    return response;
  } catch (err) {
    const kept = await (await caches.open(CACHE)).match(request);
    if (!kept) throw err;
    const headers = new Headers(kept.headers);
    headers.set('x-offline-copy', kept.headers.get('x-saved-at') ?? '');
    return new Response(await kept.arrayBuffer(), { status: 200, headers });
  }
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === 'navigate') return event.respondWith(pageFirstFromNetwork(event));
  if (url.pathname.startsWith('/assets/') || url.pathname.startsWith('/icons/')) return event.respondWith(assetFromCache(request));
  // An owner's unlocked read (a Bearer session) may carry addresses the locked page hides: never kept.
  if (url.pathname.startsWith('/api/') && !url.pathname.includes('/export') && !request.headers.has('authorization') && request.headers.get('accept')?.includes('application/json')) {
    return event.respondWith(apiFirstFromNetwork(event));
  }
});
