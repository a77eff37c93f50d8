// An admin makes a flat: its details and its rooms and devices, from a JSON floor plan
// or drawn by coordinates (metres) room by room, with a live preview of the plan.

import { api, v1 } from '../api.js';
import { floorPlan } from '../floorplan.js';
import { ROOM_TYPES, DEVICE_KINDS } from '../home-ui.js';
import { h, replace, field, errorBox, busy, toast, options } from '../ui.js';
import { flatFields } from '../home-tabs/settings.js';

const EXAMPLE = {
  rooms: [
    { name: 'Hall', type: 'hall', polygon: [[0, 0], [3, 0], [3, 3], [0, 3]], doors: [{ x: 0, y: 1.5 }],
      devices: [{ name: 'Hall motion', kind: 'motion', x: 1.5, y: 1.5, battery_powered: true }, { name: 'Entrance door', kind: 'contact', x: 0.1, y: 1.5, battery_powered: true }] },
    { name: 'Kitchen', type: 'kitchen', polygon: [[3, 0], [6, 0], [6, 3], [3, 3]], doors: [{ x: 3, y: 1.5 }],
      devices: [{ name: 'Kitchen motion', kind: 'motion', x: 4.5, y: 1.5, battery_powered: true }, { name: 'Kitchen smoke', kind: 'smoke', x: 4.5, y: 0.5, battery_powered: true }] },
  ],
};

/** "1,2 3,4" → [[1,2],[3,4]]; throws naming the bad point. */
function points(text, what) {
  return text.trim().split(/\s+/).filter(Boolean).map((pair) => {
    const xy = pair.split(',').map(Number);
    if (xy.length !== 2 || xy.some(Number.isNaN)) throw new Error(`${what}: “${pair}” is not x,y in metres`);
    return xy;
  });
}

export function render(main) {
  const details = flatFields({});
  const errors = errorBox();
  const create = h('button', { type: 'submit', id: 'create-flat' }, 'Create the flat');
  const preview = h('div', { class: 'plan-preview', id: 'plan-preview' });
  const json = h('textarea', { id: 'plan-json', rows: 16, spellcheck: false }, JSON.stringify(EXAMPLE, null, 2));
  const roomList = h('div', { id: 'room-editors' });
  let mode = 'json';

  const roomEditor = (room = { name: '', type: 'other', polygon: [], doors: [], devices: [] }) => {
    const name = h('input', { class: 'room-name-input', value: room.name, required: true });
    const type = h('select', { class: 'room-type' }, options(ROOM_TYPES.map((t) => [t, t]), room.type));
    const corners = h('input', { class: 'room-corners', value: room.polygon.map((p) => p.join(',')).join(' '), placeholder: '0,0 3,0 3,3 0,3' });
    const doors = h('input', { class: 'room-doors', value: (room.doors || []).map((d) => `${d.x},${d.y}`).join(' '), placeholder: '0,1.5' });
    const devices = h('textarea', {
      class: 'room-devices', rows: 3, placeholder: 'Kitchen motion, motion, 4.5, 1.5, battery',
    }, (room.devices || []).map((d) => `${d.name}, ${d.kind}, ${d.x}, ${d.y}${d.battery_powered ? ', battery' : ''}`).join('\n'));
    const box = h('fieldset', { class: 'room-editor' }, h('legend', {}, 'Room'),
      h('div', { class: 'form-row' }, field('Name', name), field('Type', type)),
      field('Corners (x,y in metres)', corners), field('Doors (x,y on a wall)', doors),
      field('Devices: name, kind, x, y[, battery] — a line each', devices, `Kinds: ${Object.values(DEVICE_KINDS).flat().join(', ')}`),
      h('button', { type: 'button', class: 'secondary small', onclick: () => { box.remove(); drawPreview(); } }, 'Remove room'));
    box.read = () => ({
      name: name.value.trim(), type: type.value, polygon: points(corners.value, `${name.value || 'room'} corners`),
      doors: points(doors.value, `${name.value || 'room'} doors`).map(([x, y]) => ({ x, y })),
      devices: devices.value.split('\n').map((l) => l.trim()).filter(Boolean).map((line) => {
        const [deviceName, kind, x, y, battery] = line.split(',').map((p) => p.trim());
        if (!deviceName || !kind || Number.isNaN(Number(x)) || Number.isNaN(Number(y)) || x === undefined || y === undefined) {
          throw new Error(`${name.value || 'room'}: “${line}” is not name, kind, x, y`);
        }
        return { name: deviceName, kind, x: Number(x), y: Number(y), battery_powered: battery === 'battery' };
      }),
    });
    box.addEventListener('input', drawPreview);
    return box;
  };

  const rooms = () => {
    if (mode === 'json') {
      let plan;
      try { plan = JSON.parse(json.value); } catch (error) { throw new Error(`The plan is not valid JSON: ${error.message}`); }
      if (!plan || !Array.isArray(plan.rooms)) throw new Error('The plan needs "rooms": a list of rooms.');
      return plan.rooms;
    }
    return [...roomList.querySelectorAll('.room-editor')].map((box) => box.read());
  };
  function drawPreview() {
    try {
      const list = rooms();
      let id = 0;
      const flat = {
        id: 0, name: details.name.value || 'New flat',
        rooms: list.map((r, index) => ({ id: index + 1, name: r.name || `Room ${index + 1}`, type: r.type || 'other', polygon: r.polygon || [], doors: r.doors || [] })),
        devices: list.flatMap((r, index) => (r.devices || []).map((d) => ({ id: (id += 1), room_id: index + 1, name: d.name, kind: d.kind, category: '', x: d.x, y: d.y }))),
      };
      replace(preview, floorPlan(flat).svg);
      preview.dataset.rooms = String(flat.rooms.length);
    } catch (error) {
      replace(preview, h('p', { class: 'muted' }, error.message));
      preview.dataset.rooms = '0';
    }
  }
  const modes = [['json', 'JSON floor plan'], ['draw', 'Draw by coordinates']].map(([id, label]) => h('button', {
    type: 'button', role: 'tab', 'aria-selected': String(id === mode), dataset: { mode: id },
    onclick: () => {
      try {
        if (id === 'draw' && mode === 'json') replace(roomList, rooms().map(roomEditor));
        if (id === 'json' && mode === 'draw') json.value = JSON.stringify({ rooms: rooms() }, null, 2);
      } catch (error) { toast(error.message, 'warning'); return; }
      mode = id;
      modes.forEach((b) => b.setAttribute('aria-selected', String(b.dataset.mode === id)));
      json.closest('.field').hidden = id !== 'json';
      drawArea.hidden = id !== 'draw';
      drawPreview();
    },
  }, label));
  const drawArea = h('div', { hidden: true }, roomList,
    h('button', { type: 'button', class: 'secondary', id: 'add-room', onclick: () => { roomList.append(roomEditor()); drawPreview(); } }, 'Add a room'));
  json.addEventListener('input', drawPreview);
  details.name.addEventListener('input', drawPreview);

  main.replaceChildren(
    h('div', { class: 'toolbar' }, h('h1', { tabindex: -1 }, 'New flat'), h('a', { href: '#/homes' }, 'All homes')),
    h('form', { id: 'new-flat-form', onsubmit: async (event) => {
      event.preventDefault();
      await busy(create, errors, async () => {
        const flat = await api(v1('homes'), { method: 'POST', body: { ...details.read(), rooms: rooms() } });
        toast(`${flat.name} created with ${flat.rooms.length} rooms and ${flat.devices.length} devices.`);
        location.hash = `#/homes/${flat.id}`;
      });
    } },
    h('div', { class: 'columns' },
      h('section', { class: 'card' }, h('h2', {}, 'Flat'), details.fields),
      h('section', { class: 'card' }, h('h2', {}, 'Rooms and devices'),
        h('div', { role: 'tablist', 'aria-label': 'How to give the plan' }, modes),
        field('Floor plan (JSON, metres)', json, 'rooms: name, type, polygon [[x, y]…], doors [{x, y}], devices [{name, kind, x, y, battery_powered}]'),
        drawArea,
        h('h3', {}, 'Preview'), preview)),
    errors, create));
  drawPreview();
  return null;
}
