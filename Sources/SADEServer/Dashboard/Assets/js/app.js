// The shell: hash routes to pages, the top bar for the logged-in user, logout.
// Each page module exports `render(main, params)`, which may return a cleanup function
// called when the user leaves the page.

import { session, onUnauthorized, lastUpdated } from './api.js';
import { pushSupported, currentSubscription, enablePush, disablePush, forgetDevice, deviceName } from './push.js';
import { connect, disconnect, onStateChange } from './live.js';
import { h, replace, toast } from './ui.js';

// Each route: the hash it matches (its groups are the page's parameters), the page
// module in js/pages, and who may see it (`public`, or the roles). The NAV links show
// to the roles listed. A new page is one line in each table.
const ROUTES = [
  { pattern: /^#\/login$/, page: 'login', public: true },
  { pattern: /^#\/register$/, page: 'wearable-register', public: true },
  { pattern: /^#\/patients$/, page: 'patients', roles: ['admin', 'doctor', 'nurse', 'relative'] },
  { pattern: /^#\/patients\/([^/]+)$/, page: 'monitor', roles: ['admin', 'doctor', 'nurse', 'relative'] },
  { pattern: /^#\/alerts$/, page: 'alerts', roles: ['admin', 'doctor', 'nurse', 'relative'] },
  { pattern: /^#\/issues$/, page: 'issues', roles: ['admin', 'doctor', 'nurse'] },
  { pattern: /^#\/homes$/, page: 'homes', roles: ['admin', 'doctor', 'nurse', 'relative'] },
  { pattern: /^#\/homes\/new$/, page: 'home-new', roles: ['admin'] },
  { pattern: /^#\/homes\/(\d+)\/devices\/(\d+)$/, page: 'home-device', roles: ['admin', 'doctor', 'nurse'] },
  { pattern: /^#\/homes\/(\d+)(?:\/([a-z]+))?$/, page: 'home', roles: ['admin', 'doctor', 'nurse', 'relative'] },
  { pattern: /^#\/admin(?:\/([a-z-]+)(?:\/([^/]+))?)?$/, page: 'admin', roles: ['admin'] },
  { pattern: /^#\/agents(?:\/([^/]+)(?:\/([^/]+))?)?$/, page: 'agents', roles: ['admin'] },
  { pattern: /^#\/sniffer(?:\/([^/]+))?$/, page: 'sniffer', roles: ['admin'] },
  { pattern: /^#\/my-data$/, page: 'wearable-data', roles: ['patient', 'admin'] },
  { pattern: /^#\/map$/, page: 'wearable-map', roles: ['patient', 'admin'] },
  { pattern: /^#\/post-reading$/, page: 'wearable-post', roles: ['patient', 'admin'] },
];

const NAV = [
  { href: '#/patients', label: 'Patients', roles: ['admin', 'doctor', 'nurse', 'relative'] },
  { href: '#/alerts', label: 'Alerts', roles: ['admin', 'doctor', 'nurse', 'relative'], badge: 'alert-badge' },
  { href: '#/homes', label: 'Homes', roles: ['admin', 'doctor', 'nurse', 'relative'] },
  { href: '#/issues', label: 'Issues', roles: ['admin', 'doctor', 'nurse'] },
  { href: '#/agents', label: 'Agents', roles: ['admin'] },
  { href: '#/sniffer', label: 'Sniffer', roles: ['admin'] },
  { href: '#/admin', label: 'Admin', roles: ['admin'] },
  { href: '#/my-data', label: 'My data', roles: ['patient'] },
  { href: '#/map', label: 'Map', roles: ['patient'] },
  { href: '#/post-reading', label: 'Post reading', roles: ['patient'] },
];

let cleanup = null;
let navigations = 0;

/** The first page of a role. */
export function homeOf(role) { return role === 'patient' ? '#/my-data' : '#/patients'; }

async function route() {
  const current = session.get();
  const hash = location.hash || '#/';
  const match = ROUTES.map((r) => ({ r, m: hash.match(r.pattern) })).find((x) => x.m);
  if (!match) { location.replace(current ? homeOf(current.user.role) : '#/login'); return; }
  if (!match.r.public && !current) { location.replace('#/login'); return; }
  if (match.r.roles && !match.r.roles.includes(current.user.role)) { location.replace(homeOf(current.user.role)); return; }
  if (cleanup) { try { cleanup(); } catch { /* page already gone */ } cleanup = null; }
  const navigation = ++navigations;
  renderShell(session.get(), hash);
  const main = document.getElementById('main');
  replace(main, h('p', { class: 'loading' }, 'Loading…'));
  // The page renders into a detached view, shown only if the user has not moved on
  // meanwhile: a slow page never overwrites the one navigated to after it.
  const view = h('div', { class: 'view' });
  try {
    const module = await import(`./pages/${match.r.page}.js`);
    if (navigation !== navigations) return;
    const done = (await module.render(view, match.m.slice(1).map((p) => p && decodeURIComponent(p)))) || null;
    if (navigation !== navigations) { if (done) done(); return; }
    cleanup = done;
    replace(main, view);
    document.title = `${view.querySelector('h1')?.textContent || 'SADE'} — SADE`;
    // Focus the new page's heading (announced by screen readers), or its first field.
    (view.querySelector('[autofocus]') || view.querySelector('h1[tabindex]') || main).focus({ preventScroll: true });
  } catch (error) {
    if (navigation === navigations) replace(main, h('p', { class: 'form-error', role: 'alert' }, `This page could not be shown: ${error.message}`));
  }
}

function renderShell(current, hash) {
  const bar = document.getElementById('top-bar');
  bar.hidden = !current;
  if (!current) return;
  document.getElementById('who').textContent = `${current.user.name} (${current.user.role})`;
  const nav = document.getElementById('nav');
  replace(nav, NAV.filter((n) => n.roles.includes(current.user.role)).map((n) =>
    h('a', { href: n.href, 'aria-current': hash.startsWith(n.href) ? 'page' : false },
      n.label, n.badge ? h('span', { class: 'badge', id: n.badge, hidden: true }) : null)));
  nav.append(h('span', { class: 'live-state', id: 'live-state', title: 'Live updates' }));
  showPushState();
  if (hash.startsWith('#/alerts')) unread = 0;
  showUnread();
  showLiveState(liveState);
}

let liveState = 'closed';
function showLiveState(state) {
  liveState = state;
  const dot = document.getElementById('live-state');
  if (!dot) return;
  dot.dataset.state = state;
  dot.textContent = { open: '● live', reconnecting: '○ reconnecting', offline: '○ offline, retrying' }[state] || '';
}

let unread = 0;
function showUnread() {
  const badge = document.getElementById('alert-badge');
  if (!badge) return;
  badge.hidden = unread === 0;
  badge.textContent = String(unread);
  badge.setAttribute('aria-label', `${unread} new alert${unread === 1 ? '' : 's'}`);
}

/** The top bar's notifications button: whether this device gets the account's pushes. */
async function showPushState() {
  const button = document.getElementById('push-toggle');
  if (!pushSupported() || !session.get()) { button.hidden = true; return; }
  const on = Boolean(await currentSubscription()) && Notification.permission === 'granted';
  button.hidden = false;
  button.setAttribute('aria-pressed', String(on));
  button.textContent = on ? 'Notifications on' : 'Notifications off';
  button.title = on ? 'This device gets your alerts on its lock screen. Select to stop.' : 'Get your alerts on this device\'s lock screen.';
}

async function togglePush() {
  const button = document.getElementById('push-toggle');
  button.disabled = true;
  try {
    if (button.getAttribute('aria-pressed') === 'true') {
      await disablePush();
      toast('This device no longer gets notifications.');
    } else {
      await enablePush(deviceName());
      toast('This device gets your alerts now, also with the app closed.');
    }
  } catch (error) {
    toast(`Notifications: ${error.message}`, 'warning');
  } finally {
    button.disabled = false;
    showPushState();
  }
}

/** The offline banner: shown while the server cannot be reached, with when it last answered. */
function showOffline(offline) {
  const banner = document.getElementById('offline');
  banner.hidden = !offline;
  if (!offline) return;
  const when = lastUpdated();
  banner.textContent = when
    ? `Offline — last updated ${when.toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' })}. What you see may be out of date.`
    : 'Offline — the server cannot be reached.';
}

/** Forgets the session and goes to the login page. Only a person logging out (`explicit`)
 * stops this device's notifications: a session that merely expired keeps them coming. */
export function logout(message, { explicit = false } = {}) {
  clearTimeout(expiry);
  disconnect();
  const leaving = session.get();
  if (leaving && explicit) forgetDevice(leaving.token);
  session.clear();
  unread = 0;
  if (message) toast(message, 'warning');
  location.hash = '#/login';
}

/** Called by the login page once the session is kept. */
export function loggedIn(user) {
  connect();
  watchExpiry();
  location.hash = homeOf(user.role);
}

let expiry = null;
/** Logs out when the token expires, rather than at the next failing request. */
function watchExpiry() {
  clearTimeout(expiry);
  const current = session.get();
  if (!current || !current.expiresAt) return;
  const left = Date.parse(current.expiresAt) - Date.now();
  if (left < 2 ** 31) expiry = setTimeout(() => logout('Your session has ended; please log in again.'), Math.max(0, left));
}

document.getElementById('logout').addEventListener('click', () => logout(undefined, { explicit: true }));
document.getElementById('push-toggle').addEventListener('click', togglePush);
window.addEventListener('sade:offline', () => showOffline(true));
window.addEventListener('sade:online', () => showOffline(false));
window.addEventListener('offline', () => showOffline(true));
if (!navigator.onLine) showOffline(true);
onUnauthorized(() => logout('Your session has ended; please log in again.'));
window.addEventListener('sade:expired', () => logout('Your session has ended; please log in again.'));
window.addEventListener('hashchange', route);
window.addEventListener('sade:alert', () => {
  if (!location.hash.startsWith('#/alerts')) { unread += 1; showUnread(); }
});
onStateChange(showLiveState);
// The skip link moves focus to the content without touching the route in the hash.
document.getElementById('skip').addEventListener('click', (event) => {
  event.preventDefault();
  document.getElementById('main').focus();
});
if (session.get()) { connect(); watchExpiry(); }
route();
