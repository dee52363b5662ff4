// Caches the static shell only (CSS, JS, icons); pages and scores always come from the server.
const SHELL = "shell-v4";
const FILES = ["/static/app.css", "/static/boot.js", "/static/app.js", "/static/offline.js", "/static/vendor/htmx-2.0.11.min.js", "/static/icons/icon.svg"];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(SHELL).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
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
