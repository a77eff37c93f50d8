// The app on the phone: the service worker (the app opens offline), and push
// notifications for this device — subscribed with the server's VAPID key, the
// subscription kept by the server for the logged-in account, removed at logout.

import { api, v1, seg } from './api.js';

/** The service worker's registration, once registered; null where there is none. */
export const ready = ('serviceWorker' in navigator)
  ? navigator.serviceWorker.register('/sw.js', { scope: '/' }).then(() => navigator.serviceWorker.ready).catch(() => null)
  : Promise.resolve(null);

/** Whether this browser can take push notifications at all. */
export function pushSupported() {
  return 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

/** This device's push subscription, if it has one. */
export async function currentSubscription() {
  const registration = await ready;
  return registration ? registration.pushManager.getSubscription() : null;
}

/** Asks for permission, subscribes this device and tells the server; returns the server's record. */
export async function enablePush(device) {
  const registration = await ready;
  if (!registration) throw new Error('This browser has no service worker support.');
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') throw new Error('Notifications are blocked for this site in the browser\'s settings.');
  const { publicKey } = await api(v1('push/key'), { auth: false });
  let subscription = await registration.pushManager.getSubscription();
  if (subscription && !sameKey(subscription.options.applicationServerKey, publicKey)) {
    await subscription.unsubscribe();  // made with another server key: pushes to it would be refused
    subscription = null;
  }
  if (!subscription) {
    subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: bytesOf(publicKey) });
  }
  return api(v1('push/subscriptions'), { method: 'POST', body: { ...subscription.toJSON(), device } });
}

/** Unsubscribes this device, here and on the server (with `token`, or the session's). */
export async function disablePush(token) {
  const subscription = await currentSubscription();
  if (!subscription) return;
  const mine = await api(v1('push/subscriptions'), { token }).catch(() => []);
  const record = mine.find((s) => s.endpoint === subscription.endpoint);
  if (record) await api(v1(`push/subscriptions/${seg(record.id)}`), { method: 'DELETE', token }).catch(() => {});
  await subscription.unsubscribe();
}

/** At logout (with the leaving account's `token`): the device stops getting its
 * notifications, and the worker forgets what it holds. */
export async function forgetDevice(token) {
  await disablePush(token).catch(() => {});
  const registration = await ready;
  if (registration && registration.active) registration.active.postMessage({ type: 'logout' });
}

/** A short name for this device, from its browser. */
export function deviceName() {
  const agent = navigator.userAgent;
  const kind = /iPhone|Android.+Mobile/.test(agent) ? 'phone' : /iPad|Android/.test(agent) ? 'tablet' : 'computer';
  const browser = /Edg\//.test(agent) ? 'Edge' : /Chrome\//.test(agent) ? 'Chrome' : /Firefox\//.test(agent) ? 'Firefox'
    : /Safari\//.test(agent) ? 'Safari' : 'browser';
  return `${browser} on a ${kind}`;
}

function sameKey(buffer, base64url) {
  if (!buffer) return false;
  const a = new Uint8Array(buffer), b = bytesOf(base64url);
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function bytesOf(base64url) {
  const text = atob(base64url.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((base64url.length + 3) % 4));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}
