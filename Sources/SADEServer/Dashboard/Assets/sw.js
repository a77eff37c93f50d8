// The dashboard's service worker: the app shell cached so that the app opens offline,
// and push notifications shown on the lock screen with their actions, answered from
// there without opening the app.
//
// Only the shell (the page, its scripts, styles and icons) is ever cached: answers of
// the API, which hold health data, go to the network and nowhere else.

const SHELL = 'sade-shell-v1';
const PRECACHE = [
  '/', '/manifest.webmanifest', '/assets/css/app.css', '/assets/icon.svg', '/assets/icons/icon-192.png',
  '/assets/js/app.js', '/assets/js/api.js', '/assets/js/live.js', '/assets/js/ui.js', '/assets/js/push.js',
  '/assets/js/pages/login.js', '/assets/js/pages/patients.js', '/assets/js/pages/alerts.js',
];

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(SHELL).then((cache) => cache.addAll(PRECACHE)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((name) => name !== SHELL).map((name) => caches.delete(name))))
    .then(() => self.clients.claim()));
});

/** Whether a request is for the shell (cacheable), never for the API. */
function isShell(url) {
  return url.origin === self.location.origin
    && (url.pathname === '/' || url.pathname === '/index.html' || url.pathname === '/manifest.webmanifest'
      || url.pathname.startsWith('/assets/'));
}

// The shell: the network first (the server's newest files), the cache when offline.
self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || !isShell(url)) return;  // the API: the network only
  event.respondWith((async () => {
    const cache = await caches.open(SHELL);
    try {
      const response = await fetch(request);
      if (response.ok) await cache.put(request, response.clone());
      return response;
    } catch (error) {
      const cached = await cache.match(request, { ignoreSearch: true })
        || (request.mode === 'navigate' ? await cache.match('/') : undefined);
      if (cached) return cached;
      throw error;
    }
  })());
});

// A push: the lock screen's notification, with the notice's actions. A newer push with
// the same tag (a newer state of the same alert) replaces the older one.
self.addEventListener('push', (event) => {
  let message;
  try { message = event.data.json(); } catch { message = { title: 'SADE', body: event.data ? event.data.text() : '' }; }
  const actions = (message.actions || []).map(({ action, title }) => ({ action, title }));
  event.waitUntil(self.registration.showNotification(message.title || 'SADE', {
    body: message.body || '',
    tag: message.tag,
    renotify: Boolean(message.tag),
    requireInteraction: message.severity === 'alarm',
    icon: '/assets/icons/icon-192.png',
    badge: '/assets/icons/icon-192.png',
    timestamp: message.createdAt ? Date.parse(message.createdAt) : Date.now(),
    actions,
    data: { notice: message.notice, url: message.url || '/', actions: message.actions || [] },
  }));
});

// A tap on the notification opens the app; a tap on an action with a token answers it
// with one request (the token is the credential) and shows what happened.
self.addEventListener('notificationclick', (event) => {
  const notification = event.notification;
  const data = notification.data || {};
  const chosen = (data.actions || []).find((a) => a.action === event.action);
  const again = { body: notification.body, tag: notification.tag, icon: notification.icon, badge: notification.badge,
    requireInteraction: notification.requireInteraction, actions: notification.actions, data };
  notification.close();
  if (!chosen || !chosen.token) {
    event.waitUntil(openApp(data.url || '/'));
    return;
  }
  event.waitUntil((async () => {
    let outcome;
    let done = false;
    try {
      const response = await fetch('/api/v1/push/actions', {
        method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ token: chosen.token }),
      });
      const answer = await response.json().catch(() => ({}));
      done = response.ok;
      outcome = done ? answer.message : (answer.error && answer.error.message) || `HTTP ${response.status}`;
    } catch {
      outcome = 'The server cannot be reached: open the app to answer.';
    }
    if (done) {
      await self.registration.showNotification(notification.title, {
        body: outcome, tag: notification.tag, icon: '/assets/icons/icon-192.png', data: { url: data.url || '/' },
      });
    } else {
      // Not answered: the notification comes back as it was, buttons and all, with why.
      await self.registration.showNotification(notification.title, { ...again, body: `${outcome}\n${again.body}` });
    }
  })());
});

async function openApp(url) {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  for (const client of windows) {
    if ('focus' in client) { await client.focus(); if ('navigate' in client) await client.navigate(url); return; }
  }
  await self.clients.openWindow(url);
}

// Logging out: forget everything the worker holds and every notification shown.
self.addEventListener('message', (event) => {
  if (!event.data || event.data.type !== 'logout') return;
  event.waitUntil((async () => {
    for (const name of await caches.keys()) await caches.delete(name);
    for (const notification of await self.registration.getNotifications()) notification.close();
  })());
});
