// attnscope's service worker: keeps the page's own files (html, js, wasm,
// css) so that, after one visit, the page opens and computes offline. The
// model files are not kept here: the page's worker keeps them in Cache
// Storage itself (src/worker/fetch.rs), and they pass through untouched.
//
// The build (scripts/sw-manifest.mjs, a trunk hook) writes in the list of
// files (and of those kept at first use) and a version made from their
// contents. A new deployment is a new version: it caches its own files,
// and once it takes over, the caches of older versions are deleted.
// Requests go to the network first and to the cache only when the network
// fails, so a page online always gets the deployment that is live, never a
// stale mix of two builds.

const VERSION = '__VERSION__';
const FILES = __FILES__;
// Files kept the first time the page fetches them (the worker with the
// extras, which the page starts only when needed), not at install.
const LAZY = __LAZY__;
const PREFIX = 'attnscope-page-';
const CACHE = PREFIX + VERSION;

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // Past the browser's HTTP cache: exactly this deployment's bytes.
    await cache.addAll(FILES.map((f) => new Request(f, { cache: 'reload' })));
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

// Where this worker lives: the page's files are relative to it.
const BASE = new URL('./', self.location).href;

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || !request.url.startsWith(BASE)) return;
  const path = new URL(request.url).pathname.slice(new URL(BASE).pathname.length);
  if (path.startsWith('models/')) return;
  event.respondWith((async () => {
    try {
      const response = await fetch(request);
      if (response.ok && LAZY.includes(path)) {
        const copy = response.clone();
        event.waitUntil(caches.open(CACHE).then((cache) => cache.put(request, copy)));
      }
      return response;
    } catch (offline) {
      const cache = await caches.open(CACHE);
      // Any address of the page (its state is in the query) is the page.
      const hit = request.mode === 'navigate'
        ? await cache.match('./')
        : await cache.match(request, { ignoreSearch: true });
      if (hit) return hit;
      throw offline;
    }
  })());
});
