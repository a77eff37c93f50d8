// Pieces the home pages share: the traffic light, the message classes, the periods
// of the charts and the flat's sub-pages.

import { h, toast } from './ui.js';

/** alarm (an open alarm), warning (an open warning), fine. */
export function lightOf(summary) {
  return summary.open_alarms > 0 ? 'alarm' : summary.open_warnings > 0 ? 'warning' : 'fine';
}

/** The traffic light, in colour and in words. */
export function trafficLight(light, detail) {
  const words = { alarm: 'Alarm', warning: 'Warning', fine: 'Fine' }[light];
  return h('span', { class: `light light-${light}`, dataset: { light }, title: detail || words },
    h('span', { class: 'lamp', 'aria-hidden': 'true' }), words);
}

/** The room types a plan may use. */
export const ROOM_TYPES = ['hall', 'kitchen', 'livingRoom', 'bedroom', 'bathroom', 'other'];

/** The device kinds a plan may use, by category. */
export const DEVICE_KINDS = {
  detection: ['motion', 'contact', 'windowHandle', 'propertyExit', 'switch', 'usage', 'dosage', 'enuresis', 'smoke', 'gas', 'water', 'fall'],
  metering: ['temperature', 'brightness', 'power', 'energy', 'current', 'voltage', 'powerGeneration', 'energyGeneration', 'currentGeneration', 'voltageGeneration'],
  actuator: ['switchActuator', 'dimmer', 'shades'],
};

/** Periods: a device's chart covers the last `seconds` in buckets of `statistic`; the
 * energy pages the current calendar period of the flat (REQUEST_ENERGY_DATA's value
 * `bucket`: 1 day, 2 week from Monday, 3 month, 4 year) in buckets of `chart` (0 hour,
 * 1 day, 3 month), so that every bucket lies inside it. */
export const PERIODS = [
  { id: 'day', label: 'Day', now: 'Today', seconds: 86400, statistic: 'hour', bucket: 1, chart: 0 },
  { id: 'week', label: 'Week', now: 'This week', seconds: 7 * 86400, statistic: 'hour', bucket: 2, chart: 1 },
  { id: 'month', label: 'Month', now: 'This month', seconds: 30 * 86400, statistic: 'day', bucket: 3, chart: 1 },
  { id: 'year', label: 'Year', now: 'This year', seconds: 365 * 86400, statistic: 'week', bucket: 4, chart: 3 },
];

/** The flat's energy so far in the current `period` of its calendar: { start, consumed, generated } in kWh. */
export async function energyNow(bus, period) {
  const end = new Date();
  const data = await bus.request('REQUEST_ENERGY_DATA', { start: new Date(end.getTime() - 1000), end, value: period.bucket });
  const last = (rows) => (rows.length ? rows[rows.length - 1][1] : 0);
  return { start: new Date(data.consumers.length ? data.consumers[data.consumers.length - 1][0] : end), consumed: last(data.consumers), generated: last(data.generators) };
}

/**
 * The Day / Week / Month / Year buttons in a labelled group: `onChoose(period)` runs
 * when one is pressed (errors toasted). Returns the group.
 */
export function periodPicker(label, onChoose, { selected = PERIODS[0], text = (p) => p.label } = {}) {
  const buttons = PERIODS.map((p) => h('button', {
    type: 'button', class: 'secondary period', 'aria-pressed': String(p === selected), dataset: { period: p.id },
    onclick: () => {
      buttons.forEach((b) => b.setAttribute('aria-pressed', String(b.dataset.period === p.id)));
      Promise.resolve(onChoose(p)).catch((error) => toast(error.message, 'warning'));
    },
  }, text(p)));
  return h('span', { role: 'group', 'aria-label': label, class: 'toolbar' }, buttons);
}

/** A line that says when the live connection to the homes is down (empty while it is up). */
export function busState(bus) {
  const line = h('span', { class: 'bus-state', id: 'bus-state', role: 'status' });
  bus.onState((state) => { line.dataset.state = state; line.textContent = state === 'open' ? '' : '○ reconnecting…'; });
  return line;
}

/** The tabs of a flat's pages. */
const STAFF = ['admin', 'doctor', 'nurse', 'patient'];
/** (A relative sees the floor plan and the messages only.) */
export const FLAT_TABS = [
  { id: '', label: 'Floor plan' }, { id: 'devices', label: 'Devices', roles: STAFF }, { id: 'messages', label: 'Messages' },
  { id: 'energy', label: 'Energy', roles: STAFF }, { id: 'batteries', label: 'Batteries', roles: STAFF },
  { id: 'activity', label: 'Activity', roles: STAFF }, { id: 'settings', label: 'Settings', roles: ['admin'] },
];

/** The sub-navigation of a flat, the current tab marked. */
export function flatTabs(flat, current, role) {
  return h('nav', { class: 'subnav', 'aria-label': `${flat.name} pages` },
    FLAT_TABS.filter((t) => !t.roles || t.roles.includes(role)).map((t) => h('a', {
      href: `#/homes/${flat.id}${t.id ? `/${t.id}` : ''}`, 'aria-current': t.id === current ? 'page' : false, dataset: { tab: t.id || 'plan' },
    }, t.label)));
}

/** The thesis's message classes: how each shows. */
export const MESSAGE_CLASSES = {
  alarm: 'Alarm: must be confirmed', warning: 'Warning', information: 'Information: fades after a while', silent: 'Silent: only in the log',
};

/** Kilowatt hours, signed: "+1.2 kWh". */
export function kwh(value, signed = false) {
  if (value === undefined || value === null || Number.isNaN(value)) return '–';
  const text = Math.abs(value).toLocaleString([], { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  return `${signed ? (value < 0 ? '−' : '+') : value < 0 ? '−' : ''}${text} kWh`;
}

/** The user's favourite devices of a flat, kept in this browser. */
export function favourites(flatID) {
  const key = `sade.favourites.${flatID}`;
  const read = () => { try { return new Set(JSON.parse(localStorage.getItem(key)) || []); } catch { return new Set(); } };
  return {
    has: (device) => read().has(device),
    toggle(device) {
      const set = read();
      if (set.has(device)) set.delete(device); else set.add(device);
      localStorage.setItem(key, JSON.stringify([...set]));
      return set.has(device);
    },
  };
}
