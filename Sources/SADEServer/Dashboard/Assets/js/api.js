// Talking to the server: the session kept for this browser tab, JSON requests with the
// bearer token, and typed errors from the API's {"error": {"code", "message"}} shape.

const SESSION_KEY = 'sade.session';

/** An answer other than 2xx: the HTTP status, the API's error code and its message. */
export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** The logged-in user and token, kept in sessionStorage (gone when the tab closes). */
export const session = {
  get() {
    try {
      const saved = JSON.parse(sessionStorage.getItem(SESSION_KEY));
      if (!saved || !saved.token) return null;
      if (saved.expiresAt && Date.parse(saved.expiresAt) <= Date.now()) return null;
      return saved;
    } catch { return null; }
  },
  set(value) { sessionStorage.setItem(SESSION_KEY, JSON.stringify(value)); },
  clear() { sessionStorage.removeItem(SESSION_KEY); },
};

/** Listeners told when a request comes back 401 (the token expired or was revoked). */
const unauthorizedListeners = new Set();
export function onUnauthorized(listener) { unauthorizedListeners.add(listener); }

/**
 * Sends a request and decodes the JSON answer. `body` is sent as JSON; `text: true`
 * returns the raw text instead; `token` is sent instead of the session's (a logout's
 * last requests). Throws ApiError for non-2xx answers.
 */
export async function api(path, { method = 'GET', body, text = false, auth = true, token } = {}) {
  const headers = { Accept: 'application/json' };
  const current = session.get();
  if (auth && (token || current)) headers.Authorization = `Bearer ${token || current.token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (error) {
    window.dispatchEvent(new CustomEvent('sade:offline'));
    throw new ApiError(0, 'network', 'The server cannot be reached. Check the connection and try again.');
  }
  if (response.ok) connected();
  if (response.status === 401 && auth && current) unauthorizedListeners.forEach((listener) => listener());
  if (!response.ok) throw await errorOf(response);
  if (response.status === 204) return null;
  if (text) return response.text();
  const type = response.headers.get('Content-Type') || '';
  return type.includes('json') ? response.json() : response.text();
}

const UPDATED_KEY = 'sade.lastUpdated';

/** The server answered: remember when (only the time: no answer is kept), and say so. */
function connected() {
  localStorage.setItem(UPDATED_KEY, new Date().toISOString());
  window.dispatchEvent(new CustomEvent('sade:online'));
}

/** When the server last answered this browser, if ever. */
export function lastUpdated() {
  const saved = localStorage.getItem(UPDATED_KEY);
  return saved ? new Date(saved) : null;
}

async function errorOf(response) {
  let code = `http-${response.status}`;
  let message = response.statusText || `HTTP ${response.status}`;
  try {
    const body = await response.json();
    if (body && body.error) { code = body.error.code || code; message = body.error.message || message; }
    else if (body && body.message) { message = body.message; }
  } catch { /* not JSON */ }
  if (response.status === 429) {
    const wait = response.headers.get('Retry-After');
    message = `Too many requests${wait ? `; try again in ${wait} s` : ''}.`;
  }
  return new ApiError(response.status, code, message);
}

/** Logs in with the monitoring API and keeps the session. */
export async function login(username, password) {
  const answer = await api('/api/v1/auth/login', { method: 'POST', body: { username, password }, auth: false });
  session.set({ token: answer.token, expiresAt: answer.expiresAt, user: answer.user });
  return answer.user;
}

/** `/api/v1` plus a path. */
export const v1 = (path) => `/api/v1/${path}`;

/** A path segment, percent-encoded. */
export const seg = (value) => encodeURIComponent(value);
