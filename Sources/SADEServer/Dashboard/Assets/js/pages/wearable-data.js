// "My data": what the logged-in user's watch or ESP32 posted (GET /Api/DataItem), the
// newest first, each item deletable (DELETE /Api/DataItem/{id}, samples included).
// New items appear as they arrive (checked every 15 s); rows are kept by item, so a
// refresh never takes away the button under the user's pointer or focus.

import { api, seg } from '../api.js';
import { h, replace, toast, when, amount, confirmButton } from '../ui.js';
import { readingCells, position } from '../wearable.js';

const PAGE = 100;
const REFRESH_MS = 15000;

export async function render(main) {
  let items = await api('/Api/DataItem');
  let limit = PAGE;
  const summary = h('div', { class: 'summary', id: 'data-summary' });
  const body = h('tbody', {});
  const table = h('table', { class: 'responsive', id: 'my-data', 'aria-labelledby': 'my-data-heading' },
    h('thead', {}, h('tr', {}, ['Sent', 'Heart rate', 'Steps', 'Distance', 'Temperature', 'Position', 'Device', '']
      .map((c) => h('th', { scope: 'col' }, c)))), body);
  const empty = h('p', { class: 'muted', id: 'no-data' }, 'Nothing yet. Log in on your watch or ESP32 with this user name: what it measures appears here.');
  const more = h('button', { type: 'button', class: 'secondary', id: 'more-items' }, 'Show older items');
  more.addEventListener('click', () => { limit += PAGE; draw(); });
  main.replaceChildren(
    h('div', { class: 'toolbar' }, h('h1', { tabindex: -1, id: 'my-data-heading' }, 'My data'),
      h('a', { href: '#/map', class: 'button secondary' }, 'Show on the map')),
    summary, empty, table, more);

  const rows = new Map();
  const rowOf = (item) => {
    let tr = rows.get(item.id);
    if (!tr) {
      tr = h('tr', { dataset: { item: String(item.id) } },
        h('td', { 'data-label': 'Sent' }, when(item.sentDate)), ...readingCells(item),
        h('td', {}, confirmButton('Delete', {
          question: 'Delete this item?', confirm: 'Yes, delete', props: { class: 'secondary delete', 'aria-label': `Delete the item sent ${when(item.sentDate)}` },
          action: () => remove(item),
        })));
      rows.set(item.id, tr);
    }
    return tr;
  };
  const draw = () => {
    const newest = items.slice().reverse().slice(0, limit);
    const wanted = newest.map(rowOf);
    for (const [id, tr] of rows) if (!newest.some((i) => i.id === id)) { tr.remove(); rows.delete(id); }
    if (wanted.some((tr, i) => body.children[i] !== tr)) wanted.forEach((tr) => body.append(tr));
    table.hidden = !items.length;
    empty.hidden = items.length > 0;
    more.hidden = items.length <= limit;
    drawSummary(summary, items);
  };
  const remove = async (item) => {
    const tr = rows.get(item.id);
    const next = tr?.nextElementSibling || tr?.previousElementSibling;
    await api(`/Api/DataItem/${seg(item.id)}`, { method: 'DELETE' });
    items = items.filter((i) => i.id !== item.id);
    draw();
    toast(`The item sent ${when(item.sentDate)} is deleted.`);
    (next?.querySelector('button.delete') || main.querySelector('h1')).focus();
  };
  draw();

  const timer = setInterval(async () => {
    try { items = await api('/Api/DataItem'); draw(); } catch { /* kept as it was; the next try may work */ }
  }, REFRESH_MS);
  return () => clearInterval(timer);
}

/** The latest values at a glance. */
function drawSummary(summary, items) {
  const last = (pick) => { for (let i = items.length - 1; i >= 0; i -= 1) if (pick(items[i])) return items[i]; return null; };
  const heart = last((i) => i.heartBpm > 0), temperature = last((i) => i.temperature > 0), steps = last((i) => i.steps > 0);
  const located = items.filter((i) => position(i)).length;
  const tile = (label, value, detail) => h('div', { class: 'tile' }, h('div', { class: 'label' }, label), h('div', { class: 'value' }, value),
    detail ? h('div', { class: 'muted' }, detail) : null);
  replace(summary,
    tile('Items', amount(items.length), items.length ? `last sent ${when(items.at(-1).sentDate)}` : null),
    tile('Heart rate', heart ? amount(heart.heartBpm, 'bpm') : '–', heart ? when(heart.sentDate) : null),
    tile('Steps', steps ? amount(steps.steps) : '–', steps ? `${amount(steps.distance, 'm')} this session` : null),
    tile('Temperature', temperature ? amount(temperature.temperature, '°C', 1) : '–', temperature ? when(temperature.sentDate) : null),
    tile('Positions', amount(located), located ? h('a', { href: '#/map' }, 'on the map') : 'no GPS data'));
}
