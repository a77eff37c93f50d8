// Every battery-powered device, emptiest first, with its state in words and colour.

import { batteryState } from '../floorplan.js';
import { h, replace, when, keepFocus } from '../ui.js';

export function render(view, context) {
  const { flat } = context;
  const rooms = Object.fromEntries(flat.rooms.map((r) => [r.id, r.name]));
  const body = h('tbody', {});
  const draw = () => keepFocus(body, () => {
    const charge = (d) => context.states[d.id]?.attributes?.battery_level;
    const devices = flat.devices.filter((d) => d.battery_powered)
      .sort((a, b) => (charge(a) ?? 101) - (charge(b) ?? 101) || a.name.localeCompare(b.name));
    replace(body, devices.length ? devices.map((device) => {
      const percent = charge(device);
      const state = batteryState(percent) || 'unknown';
      return h('tr', { class: `battery-row battery-${state}`, dataset: { device: device.id, charge: percent ?? '' } },
        h('td', { 'data-label': 'Device' }, h('a', { href: `#/homes/${flat.id}/devices/${device.id}` }, device.name)),
        h('td', { 'data-label': 'Room' }, rooms[device.room_id]),
        h('td', { 'data-label': 'Charge', class: 'num' },
          percent === undefined ? 'not reported' : h('span', { class: 'meter', role: 'meter', 'aria-valuenow': percent, 'aria-valuemin': 0, 'aria-valuemax': 100, 'aria-label': `${device.name} battery` },
            h('span', { class: 'meter-fill', style: { width: `${percent}%` } }), ` ${percent} %`)),
        h('td', { 'data-label': 'State' }, { ok: 'fine', weak: 'weak: replace soon', empty: 'empty: replace now', unknown: '–' }[state]),
        h('td', { 'data-label': 'Reported' }, context.states[device.id]?.last_updated ? when(context.states[device.id].last_updated) : '–'));
    }) : h('tr', {}, h('td', { colspan: 5, class: 'muted' }, 'No battery-powered devices.')));
  });
  view.replaceChildren(h('table', { class: 'responsive batteries', id: 'battery-list' },
    h('caption', { class: 'visually-hidden' }, 'Battery-powered devices, emptiest first'),
    h('thead', {}, h('tr', {}, ['Device', 'Room', 'Charge', 'State', 'Reported'].map((c) => h('th', { scope: 'col' }, c)))),
    body));
  draw();
  return context.onStates(draw);
}
