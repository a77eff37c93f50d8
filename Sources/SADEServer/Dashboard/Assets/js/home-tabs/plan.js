// The live floor plan: device icons coloured by state, battery rings, where the
// resident is and was; zoom and pan; favourites and a filter by device type; a room's
// popover with its last values, battery, temperature, last movement and activity.

import { actuatorControl } from '../actuator.js';
import { floorPlan, stateText, batteryState } from '../floorplan.js';
import { h, replace, ago, when, keepFocus } from '../ui.js';

export function render(view, context) {
  const { flat } = context;
  const filter = h('select', { id: 'device-filter', 'aria-label': 'Show devices' });
  const kinds = [...new Set(flat.devices.map((d) => d.kind))].sort();
  filter.append(
    h('option', { value: 'all' }, 'All devices'), h('option', { value: 'favourites' }, 'Favourites'),
    ...['detection', 'metering', 'actuator'].map((c) => h('option', { value: `category:${c}` }, { detection: 'Sensors that detect', metering: 'Meters', actuator: 'Actuators' }[c])),
    ...kinds.map((k) => h('option', { value: `kind:${k}` }, k)));
  const panel = h('section', { class: 'card room-panel', id: 'room-panel', hidden: true, tabindex: -1, 'aria-labelledby': 'room-panel-title' });
  let openRoom = null;
  // The open room's actuator controls, kept across redraws so that a slider being moved keeps its place.
  let controls = new Map();
  const controlOf = (device) => {
    if (!controls.has(device.id)) controls.set(device.id, actuatorControl(device, context.bus, { compact: true }));
    return controls.get(device.id);
  };

  const visible = (device) => {
    const value = filter.value;
    if (value === 'all') return true;
    if (value === 'favourites') return context.favourites.has(device.id);
    const [what, name] = value.split(':');
    return what === 'category' ? device.category === name : device.kind === name;
  };
  const plan = floorPlan(flat, {
    states: context.states, occupancy: context.occupancy, visible,
    onDevice: (device) => { if (context.role !== 'relative') location.hash = `#/homes/${flat.id}/devices/${device.id}`; },
    onRoom: (room) => { if (openRoom?.id !== room.id) controls = new Map(); openRoom = room; showRoom(); panel.focus(); },
  });
  filter.addEventListener('change', () => plan.setVisible(visible));

  const showRoom = () => keepFocus(panel, drawRoom);
  const drawRoom = () => {
    if (!openRoom) { panel.hidden = true; return; }
    const room = openRoom;
    const devices = flat.devices.filter((d) => d.room_id === room.id);
    const stateOf = (d) => context.states[d.id];
    const temperature = devices.find((d) => d.kind === 'temperature');
    const batteries = devices.filter((d) => stateOf(d)?.attributes?.battery_level !== undefined);
    const lowest = batteries.sort((a, b) => stateOf(a).attributes.battery_level - stateOf(b).attributes.battery_level)[0];
    const activity = context.rooms?.[room.id];
    const here = context.occupancy?.room_id === room.id;
    panel.hidden = false;
    panel.dataset.room = room.id;
    replace(panel,
      h('div', { class: 'toolbar' }, h('h2', { id: 'room-panel-title' }, room.name),
        h('button', { type: 'button', class: 'secondary small', id: 'close-room', onclick: () => { openRoom = null; panel.hidden = true; plan.svg.querySelector(`[data-room="${room.id}"]`)?.focus(); } }, 'Close')),
      h('dl', { class: 'facts' },
        h('dt', {}, 'Resident'), h('dd', { class: 'room-occupied' }, here ? 'here now' : context.occupancy?.previous_room_id === room.id ? 'was here before' : 'not here'),
        h('dt', {}, 'Temperature'), h('dd', { class: 'room-temperature' }, temperature ? stateText(temperature, stateOf(temperature)) : 'no sensor'),
        h('dt', {}, 'Last movement'), h('dd', { class: 'room-last-motion' }, activity?.lastMotion ? `${ago((Date.now() - activity.lastMotion) / 1000)} (${when(new Date(activity.lastMotion).toISOString())})` : 'none in 24 h'),
        h('dt', {}, 'Activity'), h('dd', { class: 'room-activity' }, `${activity?.count ?? 0} activations in 24 h`),
        h('dt', {}, 'Battery'), h('dd', { class: 'room-battery' }, lowest ? `lowest ${stateOf(lowest).attributes.battery_level} % (${lowest.name})` : 'no battery devices')),
      h('table', { class: 'room-values' },
        h('thead', {}, h('tr', {}, ['★', 'Device', 'Value', 'Battery', 'Updated'].map((c) => h('th', { scope: 'col' }, c)))),
        h('tbody', {}, devices.map((d) => {
          const state = stateOf(d);
          const battery = state?.attributes?.battery_level;
          const favourite = context.favourites.has(d.id);
          const control = d.actuator && context.role !== 'relative' ? controlOf(d) : null;  // a relative only looks
          control?.update(state);
          return h('tr', { dataset: { device: d.id } },
            h('td', {}, h('button', {
              type: 'button', class: 'star secondary small', 'aria-pressed': String(favourite), 'aria-label': `Favourite: ${d.name}`,
              onclick: () => { context.favourites.toggle(d.id); plan.setVisible(visible); showRoom(); },
            }, favourite ? '★' : '☆')),
            h('td', {}, h('a', { href: `#/homes/${flat.id}/devices/${d.id}` }, d.name)),
            h('td', { class: 'value' }, control ? [control.element, control.status] : stateText(d, state)),
            h('td', { class: `battery-${batteryState(battery) || 'none'}` }, battery === undefined ? '–' : `${battery} %`),
            h('td', {}, state?.last_updated ? when(state.last_updated) : '–'));
        }))));
  };

  view.replaceChildren(
    h('div', { class: 'toolbar plan-tools' },
      h('span', { role: 'group', 'aria-label': 'Zoom', class: 'toolbar' },
        h('button', { type: 'button', class: 'secondary small', id: 'zoom-in', 'aria-label': 'Zoom in', onclick: () => plan.zoom(1.25) }, '+'),
        h('button', { type: 'button', class: 'secondary small', id: 'zoom-out', 'aria-label': 'Zoom out', onclick: () => plan.zoom(0.8) }, '−'),
        h('button', { type: 'button', class: 'secondary small', id: 'zoom-reset', onclick: () => plan.reset() }, 'Fit')),
      filter,
      h('span', { class: 'legend muted', 'aria-hidden': 'true' },
        h('span', { class: 'key state-on' }, 'on'), h('span', { class: 'key state-off' }, 'off'), h('span', { class: 'key state-alarm' }, 'hazard'),
        h('span', { class: 'key battery-weak' }, 'battery weak'), h('span', { class: 'key battery-empty' }, 'battery empty'),
        h('span', { class: 'key resident-key' }, 'resident'), h('span', { class: 'key was-here-key' }, 'was before'))),
    h('div', { class: 'plan-layout' },
      h('div', { class: 'plan-frame', tabindex: 0, 'aria-label': 'Floor plan: arrows pan, + and − zoom', id: 'plan-frame',
        onkeydown: (event) => {
          const moves = { ArrowLeft: [-0.1, 0], ArrowRight: [0.1, 0], ArrowUp: [0, -0.1], ArrowDown: [0, 0.1] };
          if (event.target !== event.currentTarget) return;
          if (moves[event.key]) { event.preventDefault(); plan.pan(...moves[event.key]); }
          else if (event.key === '+' || event.key === '=') plan.zoom(1.25);
          else if (event.key === '-') plan.zoom(0.8);
        } }, plan.svg),
      panel));

  const stop = context.onStates(() => { plan.update(context.states, context.occupancy); showRoom(); });
  return stop;
}
