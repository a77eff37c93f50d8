// Live events: one Server-Sent Events stream per session (`/api/v1/events`), shared by
// the pages, and the alert notifications — a toast, the browser's Notification API
// (when the user allowed it) and a tone for alarms.

import { api, session, v1 } from './api.js';
import { toast } from './ui.js';

const EVENT_TYPES = ['samples', 'news2', 'alert', 'acknowledged', 'escalated'];
const listeners = new Set();
let source = null;
let state = 'closed';
let everOpened = false;
let failures = 0;
let retry = null;
let attempts = 0;
const stateListeners = new Set();

/** Starts the stream for the logged-in user (patients and devices have none): a
 * one-time ticket first (the token never goes in the URL, where logs keep it), then the
 * stream. A ticket opens one stream: whatever breaks it, a new ticket opens the next. */
export async function connect() {
  disconnect();
  const current = session.get();
  if (!current || !['admin', 'doctor', 'nurse', 'relative'].includes(current.user.role)) return;
  const attempt = ++attempts;  // a later connect or disconnect supersedes this one
  let ticket;
  try {
    ticket = (await api(v1('events/tickets'), { method: 'POST' })).ticket;
  } catch {
    if (attempt === attempts && session.get()) retryLater();
    return;
  }
  if (attempt !== attempts) return;
  const stream = new EventSource(v1(`events?ticket=${encodeURIComponent(ticket)}`));
  source = stream;
  stream.onopen = () => {
    // Events sent while the stream was down are not replayed: pages fetch afresh.
    if (state !== 'open' && everOpened) listeners.forEach((listener) => listener({ type: 'resync' }));
    everOpened = true;
    failures = 0;
    setState('open');
  };
  stream.onerror = () => {
    stream.close();
    if (source !== stream) return;  // closed or replaced meanwhile
    source = null;
    // The server ends the stream when the session expires; then there is nothing to resume.
    if (!session.get()) { disconnect(); window.dispatchEvent(new CustomEvent('sade:expired')); return; }
    retryLater();
  };
  for (const type of EVENT_TYPES) {
    stream.addEventListener(type, (message) => {
      let event;
      try { event = JSON.parse(message.data); } catch { return; }
      if (type === 'alert') announce(event);
      listeners.forEach((listener) => listener(event));
    });
  }
}

/** Opens the stream again after a pause: short at first, then longer (at most 30 s). */
function retryLater() {
  setState(failures === 0 ? 'reconnecting' : 'offline');
  retry = setTimeout(connect, Math.min(30000, 500 * 2 ** failures));
  failures += 1;
}

/** Closes the stream (at logout). */
export function disconnect() {
  attempts += 1;  // a ticket still on its way opens nothing
  clearTimeout(retry);
  if (source) source.close();
  source = null;
  setState('closed');
}

/** Calls `listener(event)` for every live event until the returned function is called;
 * `{type: 'resync'}` means events may have been missed (the stream was down). */
export function subscribe(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Calls `listener(state)` — open, reconnecting, offline, closed — when the stream's state changes. */
export function onStateChange(listener) {
  stateListeners.add(listener);
  listener(state);
  return () => stateListeners.delete(listener);
}

function setState(next) {
  state = next;
  stateListeners.forEach((listener) => listener(state));
}

/** Whether desktop notifications are allowed, refused or not asked yet. */
export function notificationPermission() {
  return 'Notification' in window ? Notification.permission : 'unsupported';
}

/** Asks the browser for permission to show desktop notifications. */
export async function requestNotifications() {
  if (!('Notification' in window)) return 'unsupported';
  return Notification.requestPermission();
}

/** Tells the user of a new alert: toast, desktop notification, tone for alarms. */
function announce(alert) {
  if (alert.severity === 'silent') return;
  const text = `${alert.title} — ${alert.patient}`;
  toast(text, alert.severity === 'alarm' ? 'alarm' : alert.severity === 'warning' ? 'warning' : 'info', 10000);
  if (notificationPermission() === 'granted') {
    try { new Notification(`SADE: ${alert.title}`, { body: alert.message, tag: alert.id }); } catch { /* not in this context */ }
  }
  if (alert.severity === 'alarm') playAlarmTone();
  window.dispatchEvent(new CustomEvent('sade:alert', { detail: alert }));
}

let audio = null;
/** The page's one AudioContext, made on first use; null where Web Audio is missing. */
function audioContext() {
  if (!audio) { try { audio = new AudioContext(); } catch { return null; } }
  return audio;
}

/** Whether the alarm tone can sound: running, suspended (no click or key yet), or unavailable. */
export function audioState() { return audio ? audio.state : 'unavailable'; }

// Browsers keep an AudioContext made without a user gesture suspended, and alarms come
// from the event stream, never from a gesture: the first click or key press of the
// session makes (or resumes) the context, so that later alarms really sound.
function unlockAudio() {
  const context = audioContext();
  if (!context) return;
  const done = () => {
    if (context.state !== 'running') return;
    window.removeEventListener('pointerdown', unlockAudio, true);
    window.removeEventListener('keydown', unlockAudio, true);
  };
  if (context.state === 'suspended') context.resume().then(done, () => {}); else done();
}
window.addEventListener('pointerdown', unlockAudio, true);
window.addEventListener('keydown', unlockAudio, true);

/** Three short beeps (880 Hz), made with Web Audio: no sound file needed. */
export function playAlarmTone() {
  const context = audioContext();
  if (!context) return;
  try {
    if (context.state === 'suspended') context.resume().catch(() => {});  // works once the user has interacted
    const start = context.currentTime;
    for (let i = 0; i < 3; i += 1) {
      const tone = context.createOscillator();
      const gain = context.createGain();
      tone.frequency.value = 880;
      gain.gain.setValueAtTime(0.2, start + i * 0.3);
      gain.gain.setValueAtTime(0, start + i * 0.3 + 0.18);
      tone.connect(gain).connect(context.destination);
      tone.start(start + i * 0.3);
      tone.stop(start + i * 0.3 + 0.2);
    }
    document.body.dataset.lastTone = String(Date.now());
  } catch { /* audio unavailable */ }
}
