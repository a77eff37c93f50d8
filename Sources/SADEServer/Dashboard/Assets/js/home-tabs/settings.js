// An admin edits a flat: its name, resident, carers, time zone and inactivity rules
// (PATCH /homes/{id}); the floor plan as JSON to copy into another flat.

import { api, v1, seg } from '../api.js';
import { h, field, errorBox, busy, toast, download } from '../ui.js';

/** The fields a flat's form shares with the new-flat page; `read()` gives the JSON. */
export function flatFields(flat = {}) {
  const name = h('input', { name: 'name', required: true, value: flat.name || '', autocomplete: 'off' });
  const resident = h('input', { name: 'resident', value: flat.resident || '', placeholder: 'patient id, e.g. resident-01' });
  const carers = h('input', { name: 'carers', value: (flat.carers || []).join(', '), placeholder: 'nurse1, nurse2' });
  const zone = h('input', { name: 'time_zone', value: flat.time_zone || 'UTC' });
  const hours = h('input', { name: 'continuous_hours', type: 'number', min: 1, max: 72, step: 'any', value: flat.inactivity?.continuous_hours ?? 12 });
  const windows = h('input', {
    name: 'windows', value: (flat.inactivity?.windows || []).map((w) => `${w.start}-${w.end}`).join(', '), placeholder: '07:00-10:00',
  });
  const fields = [
    field('Name', name), field('Resident', resident, 'The resident’s patient id in the registry.'),
    field('Carers', carers, 'Usernames, separated by commas: they see the flat and get its alarms.'),
    field('Time zone', zone, 'IANA name, e.g. Europe/Lisbon.'),
    field('Alarm after this many quiet hours', hours),
    field('Windows that must see activity', windows, 'e.g. 07:00-10:00, 12:00-14:00'),
  ];
  const read = () => {
    const body = {
      name: name.value.trim(), carers: carers.value.split(',').map((c) => c.trim()).filter(Boolean), time_zone: zone.value.trim() || 'UTC',
      inactivity: {
        continuous_hours: hours.value === '' ? null : Number(hours.value),
        windows: windows.value.split(',').map((w) => w.trim()).filter(Boolean).map((w) => { const [start, end] = w.split('-').map((t) => t.trim()); return { start, end }; }),
      },
    };
    if (resident.value.trim()) body.resident = resident.value.trim();
    return body;
  };
  return { fields, read, name };
}

export function render(view, context) {
  const { flat } = context;
  const form = flatFields(flat);
  const errors = errorBox();
  const save = h('button', { type: 'submit', id: 'save-flat' }, 'Save');
  const plan = {
    name: flat.name, rooms: flat.rooms.map((room) => ({
      name: room.name, type: room.type, polygon: room.polygon, doors: room.doors,
      devices: flat.devices.filter((d) => d.room_id === room.id).map((d) => ({ name: d.name, kind: d.kind, x: d.x, y: d.y, battery_powered: d.battery_powered })),
    })),
  };
  view.replaceChildren(
    h('form', { class: 'card', id: 'flat-settings', onsubmit: async (event) => {
      event.preventDefault();
      await busy(save, errors, async () => {
        const saved = await api(v1(`homes/${seg(flat.id)}`), { method: 'PATCH', body: form.read() });
        toast(`${saved.name} saved.`);
        location.hash = `#/homes/${saved.id}`;
      });
    } }, h('h2', {}, 'Flat'), form.fields, errors, save),
    h('section', { class: 'card' }, h('h2', {}, 'Floor plan'),
      h('p', { class: 'muted' }, `${flat.rooms.length} rooms, ${flat.devices.length} devices. The plan as JSON makes another flat like this one.`),
      h('button', { type: 'button', class: 'secondary', id: 'download-plan', onclick: () => download(`flat-${flat.id}.json`, JSON.stringify(plan, null, 2), 'application/json') }, 'Download the plan')));
  return null;
}
