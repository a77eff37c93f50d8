// Pieces the home pages share: the traffic light, the message classes, the periods
// of the charts and the flat's sub-pages.

import { h } from './ui.js';

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
  detection: ['motion', 'contact', 'windowHandle', 'propertyExit', 'switchSensor', 'usage', 'dosage', 'enuresis', 'smoke', 'gas', 'water', 'fall'],
  metering: ['temperature', 'brightness', 'power', 'energy', 'current', 'voltage', 'powerGeneration', 'energyGeneration', 'currentGeneration', 'voltageGeneration'],
  actuator: ['switchActuator', 'dimmer', 'shades'],
};

/** Chart periods: the span shown, the statistics period of a device's buckets, and the
 * energy buckets (REQUEST_ENERGY_DATA's value: 0 hour … 4 year) of the chart and of the
 * balance (small buckets: a bucket reaches back to its own start, e.g. the month's first day). */
export const PERIODS = [
  { id: 'day', label: 'Day', seconds: 86400, statistic: 'hour', energy: 0, balance: 0 },
  { id: 'week', label: 'Week', seconds: 7 * 86400, statistic: 'hour', energy: 1, balance: 1 },
  { id: 'month', label: 'Month', seconds: 30 * 86400, statistic: 'day', energy: 1, balance: 1 },
  { id: 'year', label: 'Year', seconds: 365 * 86400, statistic: 'week', energy: 3, balance: 1 },
];

/** The tabs of a flat's pages. */
export const FLAT_TABS = [
  { id: '', label: 'Floor plan' }, { id: 'devices', label: 'Devices' }, { id: 'messages', label: 'Messages' },
  { id: 'energy', label: 'Energy' }, { id: 'batteries', label: 'Batteries' }, { id: 'activity', label: 'Activity' },
  { id: 'settings', label: 'Settings', roles: ['admin'] },
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
