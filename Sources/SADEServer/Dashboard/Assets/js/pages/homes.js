// The flats overview (iHomer's start view): a tile per flat the user cares for, with a
// mini floor plan where the resident is, a traffic light, the resident, the last
// activity and the activity condition — live over the home event bus.

import { api, v1, seg, session } from '../api.js';
import { floorPlan } from '../floorplan.js';
import { HomeBus } from '../homebus.js';
import { lightOf, trafficLight } from '../home-ui.js';
import { h, replace, ago, secondsSince, toast } from '../ui.js';

export async function render(main) {
  const role = session.get().user.role;
  let summaries = await api(v1('homes'));
  const plans = new Map(await Promise.all(summaries.map(async (s) => [s.id, await api(v1(`homes/${seg(s.id)}`))])));
  const bus = new HomeBus();
  const tiles = h('ul', { class: 'flat-tiles', id: 'flats' });
  const minis = new Map();

  main.replaceChildren(
    h('div', { class: 'toolbar' },
      h('h1', { tabindex: -1 }, 'Homes'),
      h('span', { class: 'muted', id: 'flat-count' }),
      role === 'admin' ? h('a', { class: 'button', href: '#/homes/new', id: 'new-flat' }, 'New flat') : null),
    tiles);

  const draw = () => {
    main.querySelector('#flat-count').textContent = `${summaries.length} flat${summaries.length === 1 ? '' : 's'}`;
    if (!summaries.length) {
      replace(tiles, h('li', { class: 'muted' }, role === 'admin' ? 'No flats yet: make one with “New flat”.' : 'No flats are in your care.'));
      return;
    }
    replace(tiles, summaries.map((summary) => {
      const plan = plans.get(summary.id);
      if (!minis.has(summary.id) && plan) minis.set(summary.id, floorPlan(plan, { mini: true }));
      const light = lightOf(summary);
      const detail = [summary.open_alarms && `${summary.open_alarms} open alarm${summary.open_alarms === 1 ? '' : 's'}`,
        summary.open_warnings && `${summary.open_warnings} open warning${summary.open_warnings === 1 ? '' : 's'}`].filter(Boolean).join(', ') || 'Nothing open';
      return h('li', { class: `flat-tile light-${light}`, dataset: { flat: summary.id, light } },
        h('a', { class: 'tile-link', href: `#/homes/${summary.id}` },
          minis.get(summary.id)?.svg ?? null,
          h('span', { class: 'tile-head' }, h('strong', { class: 'flat-name' }, summary.name), trafficLight(light, detail))),
        h('dl', { class: 'facts tile-facts' },
          h('dt', {}, 'Resident'), h('dd', { class: 'resident-name' }, summary.resident_name || summary.resident || 'none'),
          h('dt', {}, 'Last activity'), h('dd', { class: 'last-activity', dataset: { at: summary.last_activity || '' } }, summary.last_activity ? ago(secondsSince(summary.last_activity)) : 'none yet'),
          h('dt', {}, 'Activity'), h('dd', { class: `condition condition-${summary.condition}` }, summary.condition === 'inactive' ? 'Inactive' : 'Normal'),
          h('dt', {}, 'Open'), h('dd', { class: 'open-count' }, detail)));
    }));
  };

  const occupancyOf = async (id) => {
    const motion = await bus.request('REQUEST_LATEST_MOTION', { flat_id: id });
    return motion.occupancy ? { room_id: motion.occupancy.roomId, previous_room_id: motion.occupancy.previousRoomId } : null;
  };
  const showOccupancy = async () => {
    for (const summary of summaries) {
      const mini = minis.get(summary.id);
      if (mini) mini.update({}, await occupancyOf(summary.id));
    }
  };

  let reloading = null;
  const reload = () => {
    if (reloading) return;
    reloading = setTimeout(async () => {
      reloading = null;
      try { summaries = await api(v1('homes')); draw(); } catch (error) { toast(`Homes not updated: ${error.message}`, 'warning'); }
    }, 500);
  };

  draw();
  bus.on('home_message', reload);
  bus.on('state_changed', (event) => {
    // A resident's doing moves the tile's "last activity" (the flats list is read again, once per burst).
    const state = event.data.new_state;
    const device = plans.get(event.data.flat_id)?.devices.find((d) => d.id === state.attributes.device_id);
    if (device?.resident_activity && ['on', 'open'].includes(state.state)) reload();
  });
  bus.on('occupancy_changed', (event) => {
    minis.get(event.data.flat_id)?.update({}, { room_id: event.data.room_id, previous_room_id: event.data.previous_room_id });
  });
  bus.onResync(() => { reload(); showOccupancy().catch(() => {}); });
  await showOccupancy().catch(() => {});
  const ticker = setInterval(() => {
    for (const cell of tiles.querySelectorAll('.last-activity[data-at]')) if (cell.dataset.at) cell.textContent = ago(secondsSince(cell.dataset.at));
  }, 5000);
  return () => { bus.close(); clearInterval(ticker); clearTimeout(reloading); };
}
