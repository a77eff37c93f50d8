// One device of a flat: its latest value, live; its history as a chart (day, week,
// month, year, from the hourly statistics) and as a list; an actuator's control —
// switch, dimmer slider, shades position — sent as call_service over the home event
// bus, showing the state the device confirmed.

import { api, v1, seg, session } from '../api.js';
import { trendChart } from '../chart.js';
import { stateText, batteryState, valueText } from '../floorplan.js';
import { actuatorControl } from '../actuator.js';
import { HomeBus } from '../homebus.js';
import { PERIODS, periodPicker, busState, favourites } from '../home-ui.js';
import { h, replace, when, toast } from '../ui.js';

export async function render(main, [flatID, deviceID]) {
  const flat = await api(v1(`homes/${seg(flatID)}`));
  const device = flat.devices.find((d) => String(d.id) === String(deviceID));
  if (!device) throw new Error(`${flat.name} has no device ${deviceID}.`);
  const bus = new HomeBus({ flat: flat.id });
  try {
    return await show(main, flat, device, bus);
  } catch (error) {
    bus.close();  // the page failed: its live connection must not outlive it
    throw error;
  }
}

async function show(main, flat, device, bus) {
  const room = flat.rooms.find((r) => r.id === device.room_id);
  let state = null;
  let period = PERIODS[0];
  let showState = () => {};
  let drawHistory = async () => {};
  // Subscribed before the first fetch: a value that arrives meanwhile is not missed.
  let redraw = null;
  bus.on('state_changed', (event) => {
    if (event.data.entity_id !== device.entity_id) return;
    state = event.data.new_state;
    showState();
    // The history follows a moment later, once per burst of values.
    if (!redraw) redraw = setTimeout(() => { redraw = null; drawHistory().catch(() => {}); }, 1000);
  });
  const states = await bus.command('get_states', { flat_id: flat.id });
  state = states.find((s) => s.attributes.device_id === device.id) || state;

  const value = h('span', { class: 'value', id: 'device-value', 'aria-live': 'polite' });
  const meta = h('p', { class: 'muted', id: 'device-meta' });
  const status = h('p', { class: 'muted', id: 'actuator-status', role: 'status' });
  const chart = h('section', { class: 'chart', id: 'device-chart' });
  const history = h('tbody', {});
  const control = h('div', { class: 'actuator', id: 'actuator' });
  const favourite = h('button', { type: 'button', class: 'secondary star', id: 'favourite' });
  const starred = favourites(flat.id);
  const showFavourite = () => {
    favourite.setAttribute('aria-pressed', String(starred.has(device.id)));
    favourite.textContent = starred.has(device.id) ? '★ Favourite' : '☆ Add to favourites';
  };
  favourite.addEventListener('click', () => { starred.toggle(device.id); showFavourite(); });

  showState = () => {
    value.textContent = stateText(device, state);
    value.dataset.state = state?.state ?? 'unknown';
    const battery = state?.attributes?.battery_level;
    replace(meta, `${room?.name || ''} · ${device.kind} · `, state?.last_updated ? `updated ${when(state.last_updated)}` : 'no data yet',
      battery !== undefined ? h('span', { class: `battery-${batteryState(battery)}` }, ` · battery ${battery} %`) : null);
    actuator?.update(state);
  };

  // A relative only looks: no controls.
  const actuator = device.actuator && session.get().user.role !== 'relative'
    ? actuatorControl(device, bus, { status, onConfirmed: (confirmed) => { state = confirmed; showState(); } })
    : null;
  if (actuator) control.append(actuator.element); else control.hidden = true;

  let requests = 0;
  drawHistory = async () => {
    const mine = ++requests;
    const to = new Date(), from = new Date(to - period.seconds * 1000);
    const span = { start_time: from.toISOString(), end_time: to.toISOString(), flat_id: flat.id };
    const [statistics, events] = await Promise.all([
      bus.command('recorder/statistics_during_period', { ...span, statistic_ids: [device.entity_id], period: period.statistic }),
      bus.request('REQUEST_MESSAGES_FOR_SENSOR', { deviceId: device.id, start: from, end: to, flat_id: flat.id }),
    ]);
    if (mine !== requests) return;
    const detection = device.category === 'detection';
    const buckets = (statistics[device.entity_id] || []).map((row) => {
      const value = detection ? row.sum : row.mean;
      return { start: new Date(row.start).toISOString(), end: new Date(row.end).toISOString(), count: 1, average: value, minimum: detection ? value : row.min, maximum: detection ? value : row.max };
    });
    const unit = detection ? 'activations' : device.unit || '';
    replace(chart, h('h3', {}, detection ? `Activations per ${period.statistic}` : `${device.name} (${unit || 'value'}), mean and range per ${period.statistic}`),
      trendChart({ label: device.name, unit, digits: detection || device.unit === '%' ? 0 : 1, buckets, band: null, from, to }));
    const rows = events.slice().reverse();
    replace(history, rows.length ? rows.slice(0, 200).map((row) => h('tr', {},
      h('td', { 'data-label': 'Time' }, when(new Date(row.time).toISOString())),
      h('td', { 'data-label': 'Value', class: 'value' }, valueText(device, row.value)),
      h('td', { 'data-label': 'Battery' }, row.battery === null || row.battery === undefined ? '–' : `${row.battery} %`)))
      : h('tr', {}, h('td', { colspan: 3, class: 'muted' }, 'No events in this period.')));
    history.closest('table').dataset.rows = String(rows.length);
  };

  main.replaceChildren(
    h('div', { class: 'toolbar' }, h('h1', { tabindex: -1 }, device.name), favourite, busState(bus), h('a', { href: `#/homes/${flat.id}` }, `${flat.name}: floor plan`)),
    h('div', { class: 'tile device-now' }, h('div', { class: 'label' }, 'Now'), value, meta),
    control, status,
    h('div', { class: 'toolbar' }, periodPicker('History period', (p) => { period = p; return drawHistory(); })),
    chart,
    h('h2', {}, 'History'),
    h('table', { class: 'responsive history', id: 'device-history' },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Time'), h('th', { scope: 'col' }, 'Value'), h('th', { scope: 'col' }, 'Battery'))), history));
  showFavourite();
  showState();
  await drawHistory();

  bus.onResync(async () => {
    try {
      const fresh = await bus.command('get_states', { flat_id: flat.id });
      state = fresh.find((s) => s.attributes.device_id === device.id) || state;
      showState();
      await drawHistory();
    } catch (error) { toast(`Not brought up to date: ${error.message}`, 'warning'); }
  });
  return () => { clearTimeout(redraw); bus.close(); };
}
