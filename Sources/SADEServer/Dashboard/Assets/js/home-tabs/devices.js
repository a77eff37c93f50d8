// Every device of the flat with its state, battery and last change, live; a star marks
// the user's favourites (shown first, and a filter of the floor plan).

import { stateText, batteryState } from '../floorplan.js';
import { h, replace, when, keepFocus } from '../ui.js';

export function render(view, context) {
  const { flat } = context;
  const body = h('tbody', {});
  const rooms = Object.fromEntries(flat.rooms.map((r) => [r.id, r.name]));
  const draw = () => keepFocus(body, () => {
    const devices = flat.devices.slice().sort((a, b) =>
      Number(context.favourites.has(b.id)) - Number(context.favourites.has(a.id)) || rooms[a.room_id].localeCompare(rooms[b.room_id]) || a.name.localeCompare(b.name));
    replace(body, devices.map((device) => {
      const state = context.states[device.id];
      const favourite = context.favourites.has(device.id);
      const battery = state?.attributes?.battery_level;
      return h('tr', { dataset: { device: device.id, state: state?.state ?? 'unknown' } },
        h('td', {}, h('button', {
          type: 'button', class: 'star secondary small', 'aria-pressed': String(favourite), 'aria-label': `Favourite: ${device.name}`,
          onclick: () => { context.favourites.toggle(device.id); draw(); },
        }, favourite ? '★' : '☆')),
        h('td', { 'data-label': 'Device' }, h('a', { href: `#/homes/${flat.id}/devices/${device.id}` }, device.name)),
        h('td', { 'data-label': 'Room' }, rooms[device.room_id]),
        h('td', { 'data-label': 'Kind' }, device.kind),
        h('td', { 'data-label': 'State', class: 'value' }, stateText(device, state)),
        h('td', { 'data-label': 'Battery', class: `battery-${batteryState(battery) || 'none'}` }, battery === undefined ? '–' : `${battery} %`),
        h('td', { 'data-label': 'Changed' }, state?.last_changed ? when(state.last_changed) : '–'));
    }));
  });
  view.replaceChildren(h('table', { class: 'responsive devices', id: 'device-list' },
    h('caption', { class: 'visually-hidden' }, `Devices of ${flat.name}`),
    h('thead', {}, h('tr', {}, ['★', 'Device', 'Room', 'Kind', 'State', 'Battery', 'Changed'].map((c) => h('th', { scope: 'col' }, c)))),
    body));
  draw();
  return context.onStates(draw);
}
