// One wearable project's data: every item its users posted, newest first, with who
// posted it; "Details" shows one item with its owner as the server tells it
// (getProjectDataWithUser, the thesis's pop-up).

import { api, v1, seg } from '../../api.js';
import { h, replace, toast, when } from '../../ui.js';
import { readingCells } from '../../wearable.js';

const PAGE = 200;

export async function render(container, id) {
  const [project, items, accounts] = await Promise.all([
    api(`/Api/Project/${seg(id)}`), api(`/Api/DataItem/getProjectData/${seg(id)}`), api(v1('users'))]);
  const owners = Object.fromEntries(accounts.map((a) => [a.id, a]));
  const newest = items.slice().reverse();
  const people = new Set(items.map((i) => i.userId));
  const body = h('tbody', {});
  const more = h('button', { type: 'button', class: 'secondary', id: 'more-items' }, 'Show more');
  const dialog = itemDialog();
  let shown = 0;
  const showMore = () => {
    const next = newest.slice(shown, shown + PAGE);
    body.append(...next.map((item) => itemRow(item, owners[item.userId], dialog)));
    shown += next.length;
    more.hidden = shown >= newest.length;
  };
  more.addEventListener('click', () => { const first = shown; showMore(); body.children[first]?.querySelector('button')?.focus(); });
  container.replaceChildren(
    h('p', {}, h('a', { href: '#/admin/projects' }, '← All projects')),
    h('h2', { id: 'project-heading' }, `${project.name} `, h('span', { class: 'muted' }, `(#${project.id})`)),
    project.description ? h('p', {}, project.description) : null,
    h('p', { class: 'muted', id: 'project-summary' },
      `${items.length} data item${items.length === 1 ? '' : 's'} from ${people.size} user${people.size === 1 ? '' : 's'}; started ${when(project.startTime)}.`),
    items.length
      ? h('table', { class: 'responsive', id: 'project-data', 'aria-labelledby': 'project-heading' },
        h('thead', {}, h('tr', {}, ['Sent', 'Posted by', 'Heart rate', 'Steps', 'Distance', 'Temperature', 'Position', 'Device', '']
          .map((c) => h('th', { scope: 'col' }, c)))), body)
      : h('p', {}, 'No data yet: the project\'s users have not posted anything.'),
    more, dialog.element);
  showMore();
}

function itemRow(item, owner, dialog) {
  const details = h('button', { type: 'button', class: 'secondary small item-details', 'aria-label': `Details of item ${item.id}` }, 'Details');
  details.addEventListener('click', () => dialog.open(item.id, details));
  return h('tr', { dataset: { item: String(item.id), user: item.userId } },
    h('td', { 'data-label': 'Sent' }, when(item.sentDate)),
    h('td', { 'data-label': 'Posted by', class: 'posted-by' }, owner ? `${owner.name} (${owner.username})` : `account ${item.userId}`),
    ...readingCells(item),
    h('td', {}, details));
}

/** A modal dialog showing one item fetched with its owner's name. */
function itemDialog() {
  const content = h('div', { id: 'item-details' });
  const close = h('button', { type: 'button', class: 'secondary' }, 'Close');
  const element = h('dialog', { class: 'card', 'aria-labelledby': 'item-details-heading' }, content, close);
  let opener = null;
  close.addEventListener('click', () => element.close());
  element.addEventListener('close', () => opener?.focus());
  return {
    element,
    async open(id, from) {
      opener = from;
      try {
        const item = await api(`/Api/DataItem/getProjectDataWithUser/${seg(id)}`);
        replace(content, h('h3', { id: 'item-details-heading' }, `Data item ${item.id}`),
          h('dl', { class: 'facts' },
            [['Posted by', item.name || item.userId], ['Sent', when(item.sentDate)], ['Heart rate', item.heartBpm ? `${item.heartBpm} bpm` : '–'],
              ['Steps', item.steps || '–'], ['Distance', item.distance ? `${item.distance} m` : '–'],
              ['Temperature', item.temperature ? `${item.temperature} °C` : '–'], ['Position', item.gpsCoordinates || '–'],
              ['Device', item.device || '–']].map(([term, value]) => [h('dt', {}, term), h('dd', { dataset: { term } }, String(value))])));
        element.showModal();
        close.focus();
      } catch (error) { toast(error.message, 'alarm'); }
    },
  };
}
