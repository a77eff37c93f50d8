// The wearable thesis's data items as the pages show them: a reading's table cells and
// its GPS position.

import { h, amount } from './ui.js';

/** The cells of a data item's reading, shared by "my data" and the admin's project data. */
export function readingCells(item) {
  const measured = (value, unit, digits = 0) => (value ? amount(value, unit, digits) : h('span', { class: 'muted' }, '–'));
  return [
    h('td', { 'data-label': 'Heart rate', class: 'num' }, measured(item.heartBpm, 'bpm')),
    h('td', { 'data-label': 'Steps', class: 'num' }, measured(item.steps)),
    h('td', { 'data-label': 'Distance', class: 'num' }, measured(item.distance, 'm')),
    h('td', { 'data-label': 'Temperature', class: 'num' }, measured(item.temperature, '°C', 1)),
    h('td', { 'data-label': 'Position', class: 'gps' }, item.gpsCoordinates || h('span', { class: 'muted' }, '–')),
    h('td', { 'data-label': 'Device' }, item.device || '–'),
  ];
}

/** The latitude and longitude of an item's "<latitude> <longitude>" text, or null. */
export function position(item) {
  const words = (item.gpsCoordinates || '').trim().split(/\s+/);
  if (words.length !== 2) return null;
  const [lat, lon] = words.map(Number);
  return Number.isFinite(lat) && Number.isFinite(lon) && Math.abs(lat) <= 90 && Math.abs(lon) <= 180 ? { lat, lon } : null;
}
