// The home event bus from the browser: a WebSocket shaped like Home Assistant's (an
// auth phase, numbered commands answered by results, event subscriptions), the same
// API any other client of the homes uses. It reconnects with back-off, subscribes
// again, and tells the page to fetch afresh (`onResync`), since events sent while it
// was down are not replayed.

import { session } from './api.js';

/** A failed command: the bus's error code and message. */
export class BusError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

export class HomeBus {
  /** A bus for the flats the user may see, or only `flat` when given. */
  constructor({ flat } = {}) {
    this.flat = flat;
    this.nextID = 1;
    this.pending = new Map();      // command id → { resolve, reject }
    this.listeners = new Map();    // event type → Set of listeners
    this.resyncListeners = new Set();
    this.stateListeners = new Set();
    this.failures = 0;
    this.closed = false;
    this.everOpened = false;
    this.ready = null;
    this.connect();
  }

  connect() {
    const current = session.get();
    if (!current || this.closed) return;
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const query = this.flat ? `?flat_id=${encodeURIComponent(this.flat)}` : '';
    const socket = new WebSocket(`${scheme}://${location.host}/api/v1/home/websocket${query}`);
    this.socket = socket;
    this.ready = new Promise((resolve, reject) => {
      socket.onmessage = (message) => {
        let data;
        try { data = JSON.parse(message.data); } catch { return; }
        if (data.type === 'auth_required') socket.send(JSON.stringify({ type: 'auth', access_token: current.token }));
        else if (data.type === 'auth_ok') { this.opened(); resolve(); }
        else if (data.type === 'auth_invalid') { reject(new BusError('unauthorized', data.message)); this.close(); window.dispatchEvent(new CustomEvent('sade:expired')); }
        else this.received(data);
      };
      socket.onclose = () => {
        if (this.closed) return;
        reject(new BusError('closed', 'The live connection to the homes closed.'));
        this.failAll();
        this.setState('reconnecting');
        this.retry = setTimeout(() => this.connect(), Math.min(30000, 500 * 2 ** this.failures));
        this.failures += 1;
      };
    });
    this.ready.catch(() => {});  // a failed first connection is retried; commands report it
  }

  opened() {
    this.failures = 0;
    this.nextID = 1;  // ids count per connection
    for (const type of this.listeners.keys()) this.sendSubscribe(type);
    this.setState('open');
    if (this.everOpened) this.resyncListeners.forEach((listener) => listener());
    this.everOpened = true;
  }

  received(data) {
    if (data.type === 'result' || data.type === 'pong') {
      const waiting = this.pending.get(data.id);
      if (!waiting) return;
      this.pending.delete(data.id);
      if (data.type === 'pong' || data.success) waiting.resolve(data.result ?? null);
      else waiting.reject(new BusError(data.error?.code || 'error', data.error?.message || 'The command failed.'));
    } else if (data.type === 'event' && data.event) {
      (this.listeners.get(data.event.event_type) || []).forEach((listener) => listener(data.event));
    }
  }

  failAll() {
    for (const waiting of this.pending.values()) waiting.reject(new BusError('closed', 'The live connection closed before the answer came.'));
    this.pending.clear();
  }

  /** Sends a command and resolves with its result (rejects with BusError). */
  async command(type, fields = {}) {
    await this.ready;
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) throw new BusError('closed', 'The live connection to the homes is not open.');
    const id = this.nextID++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.socket.send(JSON.stringify({ id, type, ...fields }));
    });
  }

  /** One of the thesis's requests (`REQUEST_…`), dates as Date objects. */
  request(name, { start, end, ...fields } = {}) {
    const dates = {};
    if (start) dates.startDate = start.getTime();
    if (end) dates.endDate = end.getTime();
    return this.command('homer/request', { request: name, ...dates, ...fields });
  }

  /** Calls `listener(event)` for each bus event of `type` until the returned function is called. */
  on(type, listener) {
    if (!this.listeners.has(type)) {
      this.listeners.set(type, new Set());
      if (this.socket && this.socket.readyState === WebSocket.OPEN && this.state === 'open') this.sendSubscribe(type);
    }
    this.listeners.get(type).add(listener);
    return () => this.listeners.get(type)?.delete(listener);
  }

  sendSubscribe(type) {
    const id = this.nextID++;
    this.pending.set(id, { resolve: () => {}, reject: () => {} });
    this.socket.send(JSON.stringify({ id, type: 'subscribe_events', event_type: type }));
  }

  /** Calls `listener()` after a reconnection: events may have been missed. */
  onResync(listener) { this.resyncListeners.add(listener); }

  /** Calls `listener(state)` — open, reconnecting — when the connection changes. */
  onState(listener) { this.stateListeners.add(listener); }

  setState(state) {
    this.state = state;
    this.stateListeners.forEach((listener) => listener(state));
  }

  /** Closes the connection for good (the page is left): answers still awaited are
   * dropped, not failed, so that a page already left shows no error. */
  close() {
    this.closed = true;
    clearTimeout(this.retry);
    this.pending.clear();
    if (this.socket) this.socket.close();
  }
}
