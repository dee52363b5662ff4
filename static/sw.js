// Caches the static shell (CSS, JS, icons) and the start page; pages and scores come from the server,
// and only when the network is gone does a page opened from the home screen fall back to the start page.
const SHELL = "shell-v5";
const START = "/";
const FILES = ["/static/app.css", "/static/boot.js", "/static/app.js", "/static/offline.js", "/static/vendor/htmx-2.0.11.min.js", "/static/icons/icon.svg"];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(SHELL).then((cache) => cache.addAll([...FILES, START])).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== SHELL).map((k) => caches.delete(k))))
      .then(() => self.clients.claim())
  );
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.mode === "navigate" && event.request.method === "GET" && url.origin === location.origin) {
    // Online: the page from the network, as always (the start page's copy refreshed on the way).
    // Offline: the app opens on its start page instead of the browser's error.
    event.respondWith(
      fetch(event.request)
        .then((response) => {
          if (response.ok && url.pathname === START) {
            const copy = response.clone();
            caches.open(SHELL).then((cache) => cache.put(START, copy));
          }
          return response;
        })
        .catch(() => caches.open(SHELL).then((cache) => cache.match(START)).then((hit) => hit || Response.error()))
    );
    return;
  }
  if (event.request.method !== "GET" || url.origin !== location.origin || !url.pathname.startsWith("/static/")) {
    return; // pages, polls and forms go to the network untouched
  }
  event.respondWith(
    caches.open(SHELL).then((cache) =>
      cache.match(event.request).then((hit) => {
        const fresh = fetch(event.request).then((response) => {
          if (response.ok) cache.put(event.request, response.clone());
          return response;
        });
        return hit || fresh;
      })
    )
  );
});
