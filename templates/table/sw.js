/* The table pages' service worker. Browsers run it only over HTTPS or on localhost; on a plain-HTTP
 * venue network the page must already be open (its waiting hands live in localStorage either way).
 * A table page is fetched from the network when it answers, else opened as last seen; the page a
 * phone first opens, loaded before this worker ran, asks to be kept (a "keep" message). */
"use strict";
const CACHE = "spades-table-v1";
const ASSETS = {{ assets|safe }};

// Each URL fetched and kept on its own: one missing must not stop the rest from being kept.
function keep(cache, urls) {
  return Promise.all(urls.map((url) => cache.add(url).catch(() => undefined)));
}

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => keep(cache, ASSETS)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

// A page that loaded without this worker: it is fetched again and kept, with any asset that the
// install could not keep, so that a reload with no network opens it from the first visit on.
self.addEventListener("message", (event) => {
  const page = event.data && event.data.keep;
  if (typeof page !== "string" || new URL(page).origin !== self.location.origin) return;
  event.waitUntil(caches.open(CACHE).then((cache) =>
    Promise.all(ASSETS.map((url) => cache.match(url))).then((hits) =>
      keep(cache, [page, ...ASSETS.filter((url, i) => !hits[i])]))));
});

function offlinePage() {
  const html = "<!doctype html><meta name=viewport content='width=device-width'><title>Offline</title>" +
    "<p style='font:18px system-ui;padding:16px'>No network, and this table page was not opened on this " +
    "phone before. Open the table link again when the network is back.</p>";
  return new Response(html, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).then((response) => {
      if (response.ok) {
        const copy = response.clone();
        caches.open(CACHE).then((cache) => cache.put(request, copy));
      }
      return response;
    }).catch(() => caches.match(request).then((hit) => hit || offlinePage())));
  } else if (ASSETS.includes(url.pathname)) {
    // The kept copy at once; a fresh one is fetched behind it for next time.
    event.respondWith(caches.open(CACHE).then((cache) => cache.match(request).then((hit) => {
      const fresh = fetch(request).then((response) => {
        if (response.ok) cache.put(request, response.clone());
        return response;
      }).catch(() => hit || Response.error());
      return hit || fresh;
    })));
  }
});
