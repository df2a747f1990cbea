// The service worker: after one visit, the page opens and runs offline.
//
// What it keeps, in one cache: the page itself, and the files the running
// page loaded (its script, its WebAssembly, its style sheet), which the page
// lists once its own module has started (the first chart's module before
// it), with the search workers' script and module
// and "Take it home"'s module, which it will load only once the search or
// the section opens.
//
// How it stays current. Trunk names every built file after a hash of its
// content, so a name always stands for the same bytes: those are answered
// from the cache first, and can never be stale. The page keeps its name
// from build to build, so it is asked of the network first, and the cache
// answers only when the network cannot (offline, or a server error).
//
// The update path: a new build is served; the next visit online gets its
// page from the network, and that page names new files, which the cache
// does not hold, so they come from the network and are kept. Once the new
// page has started, it lists what it loaded, and everything else in the
// cache (the old build's files) is deleted. This file does not change
// between builds. When the way it caches changes, VERSION goes up: the
// browser installs the changed worker beside the old one, and on
// activation it deletes every cache of an older version.

const VERSION = 1;
const PREFIX = 'retry-playground-';
const CACHE = PREFIX + VERSION;
// The page, under one key whatever its query: every link is the same file.
const PAGE = new URL('./', self.location).href;
// Trunk's content hash in a file name: `name-0123456789abcdef.js`,
// `name-0123456789abcdef_bg.wasm`.
const HASHED = /-[0-9a-f]{16}(_bg)?\.[a-z]+$/;
// Most files a page may ask to keep: the playground asks for about a dozen.
const MOST_FILES = 64;

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches.open(CACHE)
      .then((cache) => cache.add(PAGE))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names
        .filter((name) => name.startsWith(PREFIX) && name !== CACHE)
        .map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin || url.href === self.location.href) {
    return;
  }
  if (request.mode === 'navigate') {
    event.respondWith(networkFirst(request, PAGE));
  } else if (HASHED.test(url.pathname)) {
    event.respondWith(cacheFirst(request));
  } else {
    event.respondWith(networkFirst(request, url.origin + url.pathname));
  }
});

async function cacheFirst(request) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(request.url);
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok) await cache.put(request.url, response.clone());
  return response;
}

async function networkFirst(request, key) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) {
      await cache.put(key, response.clone());
      return response;
    }
    return (await cache.match(key)) || response;
  } catch (offline) {
    const kept = await cache.match(key);
    if (kept) return kept;
    throw offline;
  }
}

// The page, once started, lists the files it loaded: those are kept
// (fetched through the browser's own cache, which just loaded them, when
// the worker did not see them go by), everything else is deleted.
self.addEventListener('message', (event) => {
  const files = event.data && Array.isArray(event.data.keep) ? event.data.keep.slice(0, MOST_FILES) : null;
  if (!files) return;
  const keep = new Set([PAGE]);
  for (const name of files) {
    let url;
    try { url = new URL(String(name)); } catch { continue; }
    if (url.origin === self.location.origin && url.href !== self.location.href) keep.add(url.origin + url.pathname);
  }
  event.waitUntil(caches.open(CACHE).then(async (cache) => {
    await Promise.all([...keep].map(async (url) => {
      if (await cache.match(url)) return;
      try {
        const response = await fetch(url, { cache: 'force-cache' });
        if (response.ok) await cache.put(url, response);
      } catch {
        // Offline now: the file is fetched and kept on its next use.
      }
    }));
    for (const request of await cache.keys()) {
      if (!keep.has(request.url)) await cache.delete(request);
    }
  }));
});
