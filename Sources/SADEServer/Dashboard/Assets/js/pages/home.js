// One flat: the header (name, resident, traffic light, the energy balance rotating
// through day, week, month and year) and its tabs — floor plan, devices, messages,
// energy, batteries, activity, settings. The device states are fetched once over the
// home event bus and kept live from its state_changed events; the tabs share them.

import { api, v1, seg, session } from '../api.js';
import { HomeBus } from '../homebus.js';
import { playAlarmTone } from '../live.js';
import { flatTabs, lightOf, trafficLight, kwh, PERIODS, energyNow, busState, favourites } from '../home-ui.js';
import { h, replace, toast } from '../ui.js';

const TABS = { '': 'plan', devices: 'devices', messages: 'messages', energy: 'energy', batteries: 'batteries', activity: 'activity', settings: 'settings' };

export async function render(main, [id, tab = '']) {
  if (!(tab in TABS)) { location.replace(`#/homes/${id}`); return null; }
  const role = session.get().user.role;
  if (tab === 'settings' && role !== 'admin') { location.replace(`#/homes/${id}`); return null; }
  if (role === 'relative' && !['', 'messages'].includes(tab || '')) { location.replace(`#/homes/${id}`); return null; }
  const flat = await api(v1(`homes/${seg(id)}`));
  const bus = new HomeBus({ flat: flat.id });
  try {
    return await show(main, flat, bus, tab, role);
  } catch (error) {
    bus.close();  // the page failed: its live connection must not outlive it
    throw error;
  }
}

async function show(main, flat, bus, tab, role) {
  // Subscribed before anything is fetched: nothing that happens meanwhile is missed.
  // A new alarm is announced with a toast and the tone; alarms that come together
  // (a gateway's batch) make one toast. Warnings show in the light and the messages.
  const announced = new Set();
  let arriving = [];
  let announcing = null;
  let showLight = async () => {};
  const announce = () => {
    announcing = null;
    const batch = arriving;
    arriving = [];
    if (!batch.length) return;
    toast(batch.length === 1 ? `${batch[0].title}: ${batch[0].text}` : `${batch.length} new alarms: ${batch.map((m) => m.title).join('; ')}`, 'alarm', 10000);
    playAlarmTone();
  };
  const stopMessages = bus.on('home_message', (event) => {
    showLight().catch(() => {});
    const message = event.data.message;
    if (message.state !== 'open' || message.class !== 'alarm' || announced.has(message.id)) return;
    announced.add(message.id);
    arriving.push(message);
    if (!announcing) announcing = setTimeout(announce, 300);
  });
  const context = await flatContext(flat, bus, role);

  const light = h('span', { id: 'flat-light' });
  const balance = h('button', { type: 'button', class: 'secondary balance', id: 'energy-balance', title: 'Energy balance: next period', hidden: role === 'relative' });
  const content = h('div', { id: 'flat-content' });
  main.replaceChildren(
    h('div', { class: 'toolbar' },
      h('h1', { tabindex: -1 }, flat.name), light,
      h('span', { class: 'muted', id: 'flat-resident' }, flat.resident ? `Resident: ${context.residentName || flat.resident}` : 'No resident'),
      balance, busState(bus), h('a', { href: '#/homes' }, 'All homes')),
    flatTabs(flat, tab, role), content);

  const drawLight = (summary) => { if (summary) replace(light, trafficLight(lightOf(summary))); };
  showLight = async () => drawLight((await api(v1('homes'))).find((s) => s.id === flat.id));

  // The balance (generated minus used) of today, this week, this month and this year
  // rotates every 6 s; a click moves it on at once.
  let shown = 0;
  const balances = {};
  const showBalance = () => {
    const period = PERIODS[shown];
    const b = balances[period.id];
    balance.dataset.period = period.id;
    balance.textContent = b ? `${period.now}: ${kwh(b.generated - b.consumed, true)}` : `${period.now}: …`;
    balance.setAttribute('aria-label', b ? `Energy ${period.now.toLowerCase()}: ${kwh(b.consumed)} used, ${kwh(b.generated)} generated` : 'Energy balance');
  };
  const loadBalances = async () => {
    for (const period of PERIODS) balances[period.id] = await energyNow(bus, period);
    showBalance();
  };
  balance.addEventListener('click', () => { shown = (shown + 1) % PERIODS.length; showBalance(); });
  const rotation = setInterval(() => { if (document.activeElement !== balance) { shown = (shown + 1) % PERIODS.length; showBalance(); } }, 6000);

  showBalance();
  drawLight(context.summary);
  if (role !== 'relative') await loadBalances().catch((error) => toast(`Energy balance: ${error.message}`, 'warning'));
  const module = await import(`../home-tabs/${TABS[tab]}.js`);
  const done = await module.render(content, context);
  bus.onResync(() => { context.refresh().catch(() => {}); showLight().catch(() => {}); });
  return () => { clearInterval(rotation); clearTimeout(announcing); stopMessages(); if (done) done(); bus.close(); };
}

/**
 * What the tabs share: the flat, the bus, the user's role, the device states (by device
 * id, Home Assistant's state objects) kept live, and `onStates(listener)` for changes.
 */
export async function flatContext(flat, bus, role) {
  const listeners = new Set();
  const context = {
    flat, bus, role, states: {}, occupancy: null, residentName: null,
    onStates(listener) { listeners.add(listener); return () => listeners.delete(listener); },
    async refresh() {
      const states = await bus.command('get_states', { flat_id: flat.id });
      context.states = Object.fromEntries(states.map((s) => [s.attributes.device_id, s]));
      const motion = await bus.request('REQUEST_LATEST_MOTION', { flat_id: flat.id });
      context.occupancy = motion.occupancy ? { room_id: motion.occupancy.roomId, previous_room_id: motion.occupancy.previousRoomId } : null;
      context.rooms = Object.fromEntries(motion.rooms.map((r) => [r.roomId, r]));
      listeners.forEach((listener) => listener(null));
    },
    favourites: favourites(flat.id),
  };
  bus.on('state_changed', (event) => {
    const state = event.data.new_state;
    const device = state.attributes.device_id;
    context.states[device] = state;
    const item = flat.devices.find((d) => d.id === device);
    const room = item && context.rooms?.[item.room_id];
    if (room && item.resident_activity && state.state === 'on') { room.count += 1; room.lastMotion = Date.parse(state.last_updated); }
    listeners.forEach((listener) => listener(device));
  });
  bus.on('occupancy_changed', (event) => {
    context.occupancy = { room_id: event.data.room_id, previous_room_id: event.data.previous_room_id };
    listeners.forEach((listener) => listener(null));
  });
  context.summary = (await api(v1('homes'))).find((s) => s.id === flat.id) || null;
  context.residentName = context.summary?.resident_name || null;
  await context.refresh();
  return context;
}
