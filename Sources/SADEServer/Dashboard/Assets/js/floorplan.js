// A flat's floor plan as SVG: rooms from their polygons (metres), doors on the walls,
// device icons at their positions coloured by state, battery rings (yellow weak, red
// empty), the resident's current and previous room; zoom and pan by buttons, wheel,
// drag and keys. The same drawing, smaller and without devices, is a flat's tile.

const SVG = 'http://www.w3.org/2000/svg';
const SCALE = 100;  // SVG units per metre

/** An SVG element: s('rect', { x: 1 }, child…). Listeners are props starting with "on". */
export function s(tag, props = {}, ...children) {
  const element = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') element.addEventListener(key.slice(2), value);
    else if (key === 'dataset') Object.assign(element.dataset, value);
    else element.setAttribute(key, value === true ? '' : value);
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

/** Battery thresholds, as the server's BatteryState: at most 20 % weak, at most 5 % empty. */
export function batteryState(percent) {
  if (percent === undefined || percent === null) return null;
  return percent <= 5 ? 'empty' : percent <= 20 ? 'weak' : 'ok';
}

/** The one or two letters on a device's icon, by kind. */
const GLYPHS = {
  motion: 'M', contact: 'D', windowHandle: 'W', propertyExit: 'X', switch: 'S', usage: 'U', dosage: 'P', enuresis: 'B',
  bedOccupancy: 'B', smoke: 'F', gas: 'G', water: 'H₂O', fall: '!', temperature: '°', humidity: '%', brightness: 'L',
  power: 'W', energy: 'kWh', voltage: 'V', powerGeneration: 'PV', energyGeneration: 'PV', switchActuator: 'I/O', dimmer: '☀', shades: '▤',
};
export function glyph(kind) { return GLYPHS[kind] || kind.slice(0, 1).toUpperCase(); }

/** Kinds whose "on" is a hazard: shown as an alarm. */
export const HAZARDS = new Set(['smoke', 'gas', 'water', 'fall']);

/** The colour class of a device's state. */
export function stateClass(device, state) {
  if (!state || state.state === 'unknown') return 'state-unknown';
  if (device.category === 'metering') return 'state-value';
  const on = state.state === 'on' || state.state === 'open' || (device.category === 'actuator' && Number(state.state) > 0);
  if (on && HAZARDS.has(device.kind)) return 'state-alarm';
  return on ? 'state-on' : 'state-off';
}

/** A state in words, with the unit: "on", "21.5 °C", "40 %". */
export function stateText(device, state) {
  if (!state || state.state === 'unknown') return 'no data';
  if (device.kind === 'dimmer' && state.attributes?.brightness !== undefined) return state.state === 'off' ? 'off' : `${Math.round(state.attributes.brightness / 2.55)} %`;
  if (device.kind === 'shades' && state.attributes?.current_position !== undefined) return `${state.attributes.current_position} % open`;
  const number = Number(state.state);
  if (!Number.isNaN(number) && state.state !== '') {
    const digits = Math.abs(number) < 10 && number % 1 !== 0 ? 1 : 0;
    return `${number.toLocaleString([], { maximumFractionDigits: Math.max(digits, 1) })}${device.unit ? ` ${device.unit}` : ''}`;
  }
  return state.state;
}

/** A recorded value in words: on/off (or open/closed) for detections and switches, a
 * percentage for dimmers and shades, the number with its unit for meters. */
export function valueText(device, value) {
  if (value === undefined || value === null) return 'no data';
  if (device.kind === 'dimmer') return value > 0 ? `${Math.round(value)} %` : 'off';
  if (device.kind === 'shades') return `${Math.round(value)} % open`;
  if (device.category === 'detection' || device.kind === 'switchActuator') {
    const open = ['contact', 'windowHandle'].includes(device.kind);
    return value >= 0.5 ? (open ? 'open' : 'on') : (open ? 'closed' : 'off');
  }
  return `${Number(value).toLocaleString([], { maximumFractionDigits: 1 })}${device.unit ? ` ${device.unit}` : ''}`;
}

function bounds(flat) {
  const points = flat.rooms.flatMap((r) => r.polygon);
  if (!points.length) return { x: 0, y: 0, width: 1, height: 1 };
  const xs = points.map((p) => p[0]), ys = points.map((p) => p[1]);
  const x = Math.min(...xs), y = Math.min(...ys);
  return { x, y, width: Math.max(...xs) - x || 1, height: Math.max(...ys) - y || 1 };
}

/** The centre of a polygon's corners (good enough for the plans' convex rooms). */
export function centre(polygon) {
  const n = polygon.length || 1;
  return [polygon.reduce((a, p) => a + p[0], 0) / n, polygon.reduce((a, p) => a + p[1], 0) / n];
}

/** A door as a short segment along the nearest wall of its room. */
function doorSegment(room, door) {
  let best = null;
  const corners = room.polygon;
  for (let i = 0; i < corners.length; i += 1) {
    const [ax, ay] = corners[i], [bx, by] = corners[(i + 1) % corners.length];
    const dx = bx - ax, dy = by - ay, length = Math.hypot(dx, dy) || 1;
    const t = Math.max(0, Math.min(1, ((door.x - ax) * dx + (door.y - ay) * dy) / (length * length)));
    const distance = Math.hypot(ax + t * dx - door.x, ay + t * dy - door.y);
    if (!best || distance < best.distance) best = { distance, ux: dx / length, uy: dy / length };
  }
  const half = (door.width || 0.9) / 2;
  return best ? [door.x - best.ux * half, door.y - best.uy * half, door.x + best.ux * half, door.y + best.uy * half] : null;
}

/**
 * Draws `flat` into a new SVG. Options: `mini` (rooms and occupancy only), `states`
 * (device id → Home Assistant state), `occupancy` ({room_id, previous_room_id}),
 * `onDevice(device)` and `onRoom(room)` for clicks and Enter, `visible(device)` to
 * filter icons. Returns { svg, update(states, occupancy), setVisible(fn), zoom(factor), reset() }.
 */
export function floorPlan(flat, { mini = false, states = {}, occupancy = null, onDevice, onRoom, visible = () => true } = {}) {
  const box = bounds(flat);
  const margin = 0.3;
  const home = { x: (box.x - margin) * SCALE, y: (box.y - margin) * SCALE, width: (box.width + 2 * margin) * SCALE, height: (box.height + 2 * margin) * SCALE };
  let view = { ...home };
  let justDragged = false;  // a drag that ends on a room is not a click on it
  const svg = s('svg', {
    class: `floor-plan${mini ? ' mini' : ''}`, role: mini ? 'img' : 'group',
    'aria-label': mini ? `Floor plan of ${flat.name}: ${flat.rooms.map((r) => r.name).join(', ')}` : `Floor plan of ${flat.name}`,
    dataset: { flat: flat.id },
  });
  const roomLayer = s('g', { class: 'rooms' });
  const doorLayer = s('g', { class: 'doors', 'aria-hidden': 'true' });
  const markerLayer = s('g', { class: 'markers', 'aria-hidden': 'true' });
  const deviceLayer = s('g', { class: 'devices' });
  svg.append(roomLayer, doorLayer, markerLayer, deviceLayer);
  const showView = () => svg.setAttribute('viewBox', `${view.x} ${view.y} ${view.width} ${view.height}`);
  showView();

  const roomShapes = new Map();
  for (const room of flat.rooms) {
    const points = room.polygon.map((p) => `${p[0] * SCALE},${p[1] * SCALE}`).join(' ');
    const [cx, cy] = centre(room.polygon);
    const shape = s('g', {
      class: `room room-${room.type}`, dataset: { room: room.id },
      tabindex: mini || !onRoom ? null : 0, role: mini || !onRoom ? null : 'button', 'aria-label': mini ? null : `${room.name}: show its values`,
      onclick: onRoom ? () => { if (!justDragged) onRoom(room); } : null,
      onkeydown: onRoom ? (event) => { if (event.key === 'Enter' || event.key === ' ') { event.preventDefault(); onRoom(room); } } : null,
    }, s('polygon', { points }), s('text', { x: cx * SCALE, y: (cy - (mini ? 0 : 0.15)) * SCALE, class: 'room-name', 'text-anchor': 'middle' }, room.name));
    roomShapes.set(room.id, shape);
    roomLayer.append(shape);
    for (const door of room.doors || []) {
      const segment = doorSegment(room, door);
      if (segment) doorLayer.append(s('line', { x1: segment[0] * SCALE, y1: segment[1] * SCALE, x2: segment[2] * SCALE, y2: segment[3] * SCALE, class: 'door' }));
    }
  }

  const icons = new Map();
  if (!mini) {
    for (const device of flat.devices) {
      const icon = s('g', {
        class: 'device', transform: `translate(${device.x * SCALE} ${device.y * SCALE})`, tabindex: 0, role: 'link',
        dataset: { device: device.id, kind: device.kind, category: device.category },
        onclick: onDevice ? (event) => { event.stopPropagation(); onDevice(device); } : null,
        onkeydown: onDevice ? (event) => { if (event.key === 'Enter') { event.preventDefault(); event.stopPropagation(); onDevice(device); } } : null,
      });
      icons.set(device.id, icon);
      deviceLayer.append(icon);
    }
  }

  const drawIcon = (device, state) => {
    const icon = icons.get(device.id);
    if (!icon) return;
    const battery = batteryState(state?.attributes?.battery_level);
    const cls = stateClass(device, state);
    icon.setAttribute('class', `device ${cls}${battery && battery !== 'ok' ? ` battery-${battery}` : ''}`);
    icon.dataset.state = state ? state.state : 'unknown';
    icon.dataset.battery = battery || '';
    const label = `${device.name}: ${stateText(device, state)}${battery && battery !== 'ok' ? `, battery ${battery} (${state.attributes.battery_level} %)` : ''}`;
    icon.setAttribute('aria-label', label);
    const text = glyph(device.kind);
    icon.replaceChildren(
      s('title', {}, label),
      battery && battery !== 'ok' ? s('circle', { r: 21, class: 'battery-ring' }) : null,
      s('circle', { r: 15, class: 'icon' }),
      s('text', { class: 'glyph', 'text-anchor': 'middle', y: 5, 'font-size': text.length > 2 ? 10 : 14 }, text));
  };

  const drawOccupancy = (current) => {
    for (const shape of roomShapes.values()) shape.classList.remove('occupied', 'previous');
    markerLayer.replaceChildren();
    svg.dataset.occupied = current?.room_id ?? '';
    svg.dataset.previous = current?.previous_room_id ?? '';
    if (!current) return;
    const previous = flat.rooms.find((r) => r.id === current.previous_room_id);
    if (previous) {
      roomShapes.get(previous.id)?.classList.add('previous');
      const [px, py] = centre(previous.polygon);  // the thesis's faded person: where the resident was before
      markerLayer.append(s('g', { class: 'resident was-here', transform: `translate(${px * SCALE} ${(py + (mini ? 0.35 : 0.3)) * SCALE})` },
        s('circle', { r: mini ? 22 : 16 }), s('title', {}, `The resident was in the ${previous.name.toLowerCase()} before`)));
    }
    const room = flat.rooms.find((r) => r.id === current.room_id);
    if (!room) return;
    roomShapes.get(room.id)?.classList.add('occupied');
    const [cx, cy] = centre(room.polygon);
    markerLayer.append(s('g', { class: 'resident', transform: `translate(${cx * SCALE} ${(cy + (mini ? 0.35 : 0.3)) * SCALE})` },
      s('circle', { r: mini ? 22 : 16 }), s('title', {}, `The resident is in the ${room.name.toLowerCase()}`)));
  };

  let filter = visible;
  const applyFilter = () => { for (const device of flat.devices) icons.get(device.id)?.toggleAttribute('hidden', !filter(device)); };

  const update = (newStates = states, newOccupancy = occupancy) => {
    states = newStates;
    occupancy = newOccupancy;
    for (const device of flat.devices) drawIcon(device, states[device.id]);
    drawOccupancy(occupancy);
    applyFilter();
  };
  update();

  const zoom = (factor, cx = view.x + view.width / 2, cy = view.y + view.height / 2) => {
    const width = Math.min(home.width * 2, Math.max(home.width / 8, view.width / factor));
    const height = width * (home.height / home.width);
    view = { x: cx - (cx - view.x) * (width / view.width), y: cy - (cy - view.y) * (height / view.height), width, height };
    showView();
    svg.dataset.zoom = (home.width / view.width).toFixed(2);
  };
  const pan = (dx, dy) => { view = { ...view, x: view.x + dx * view.width, y: view.y + dy * view.height }; showView(); };
  const reset = () => { view = { ...home }; showView(); svg.dataset.zoom = '1.00'; };
  svg.dataset.zoom = '1.00';

  if (!mini) {
    // Wheel zooms at the pointer; dragging pans (pointer events work for touch too).
    const toPlan = (event) => {
      const rect = svg.getBoundingClientRect();
      return [view.x + ((event.clientX - rect.left) / rect.width) * view.width, view.y + ((event.clientY - rect.top) / rect.height) * view.height];
    };
    // The wheel zooms with Ctrl (or ⌘, or a touchpad's pinch) held; alone it scrolls the page.
    svg.addEventListener('wheel', (event) => {
      if (!event.ctrlKey && !event.metaKey) return;
      event.preventDefault();
      zoom(event.deltaY < 0 ? 1.2 : 1 / 1.2, ...toPlan(event));
    }, { passive: false });
    let drag = null;
    svg.addEventListener('pointerdown', (event) => {
      justDragged = false;
      if (event.target === svg || event.target.closest('.room')) drag = { x: event.clientX, y: event.clientY, moved: false };
    });
    svg.addEventListener('pointermove', (event) => {
      if (!drag) return;
      const rect = svg.getBoundingClientRect();
      const dx = event.clientX - drag.x, dy = event.clientY - drag.y;
      if (!drag.moved && Math.hypot(dx, dy) < 4) return;
      drag.moved = true;
      pan(-dx / rect.width, -dy / rect.height);
      drag.x = event.clientX; drag.y = event.clientY;
    });
    const stop = () => { justDragged = Boolean(drag?.moved); drag = null; };
    svg.addEventListener('pointerup', stop);
    svg.addEventListener('pointerleave', () => { drag = null; });
  }

  return {
    svg, update, zoom, pan, reset,
    setVisible(fn) { filter = fn; applyFilter(); },
  };
}
