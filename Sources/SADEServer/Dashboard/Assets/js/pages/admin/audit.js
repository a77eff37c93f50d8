// Audit trail: whether the chain of entries is intact (GET /audit/verification), and
// the entries, newest first, found by who, which patient, what kind and when; "Older
// entries" reads the next page (`before` = the last page's `next`).

import { api, v1, seg } from '../../api.js';
import { h, replace, field, errorBox, showError, busy, options, when } from '../../ui.js';

/** The kinds of entry the API knows, with their labels. */
const ACTIONS = [['read', 'Read'], ['change', 'Change'], ['export', 'Export'], ['erase', 'Erase'], ['login', 'Login'],
  ['login-failed', 'Failed login'], ['access-change', 'Access change']];
const ACTION_LABELS = Object.fromEntries(ACTIONS);
const COLUMNS = ['Time', 'Actor', 'Action', 'Patient', 'Operation', 'Status', 'Address', 'Detail'];

export async function render(container) {
  const chain = h('p', { class: 'chain-state', id: 'audit-chain', role: 'status' });
  const recheck = h('button', { type: 'button', class: 'secondary small', id: 'check-chain' }, 'Check again');
  const body = h('tbody', {});
  const count = h('p', { class: 'muted', id: 'audit-count', role: 'status' });
  const error = errorBox();
  const older = h('button', { type: 'button', class: 'secondary', id: 'older-entries', hidden: true }, 'Older entries');
  const filter = filterForm();
  container.replaceChildren(
    h('div', { class: 'toolbar' }, h('h2', { id: 'audit-heading' }, 'Audit trail'), recheck),
    h('p', { class: 'muted' }, 'Every call of the API, answered or refused: who, what, which patient, when and from where. '
      + 'Each entry holds the hash of the one before, so a changed or removed entry breaks the chain.'),
    chain, filter.element, error, count,
    h('table', { class: 'responsive', id: 'audit-entries', 'aria-labelledby': 'audit-heading' },
      h('thead', {}, h('tr', {}, COLUMNS.map((c) => h('th', { scope: 'col' }, c)))), body),
    older);

  let query = {};
  let next = null;
  let shown = 0;
  /** Reads a page: the first of `query` (replacing the rows), or the one before `next`. */
  async function load(more = false) {
    const parameters = new URLSearchParams(query);
    if (more) parameters.set('before', String(next));
    const page = await api(v1(`audit?${parameters}`));
    const rows = page.entries.map(entryRow);
    if (more) body.append(...rows);
    else replace(body, rows.length ? rows : h('tr', {}, h('td', { colspan: COLUMNS.length, class: 'muted' }, 'No entries match.')));
    shown = (more ? shown : 0) + page.entries.length;
    next = page.next ?? null;
    older.hidden = next === null;
    count.textContent = `${shown} ${shown === 1 ? 'entry' : 'entries'}${next === null ? '' : ', older ones not shown yet'}.`;
  }
  /** Checks the whole chain and says what it found. */
  async function verify() {
    replace(chain, 'Checking the chain…');
    chain.classList.remove('intact', 'broken');
    try {
      const check = await api(v1('audit/verification'));
      const entries = `${check.entries} ${check.entries === 1 ? 'entry' : 'entries'} checked`;
      chain.classList.add(check.intact ? 'intact' : 'broken');
      replace(chain, check.intact
        ? `The chain is intact: ${entries}, up to entry ${check.headSequence}.`
        : `The chain is broken at entry ${check.firstBroken}: ${check.reason}. ${entries}.`);
    } catch (failure) { replace(chain, `The chain could not be checked: ${failure.message}`); }
  }

  filter.onSubmit((submit, values) => busy(submit, error, () => { query = values; return load(); }));
  older.addEventListener('click', async () => {
    const first = body.children.length;
    await busy(older, error, () => load(true));
    // On the last page the button hides: the focus goes to the first row it brought, or
    // to the heading when the page was empty.
    if (!older.hidden) return;
    const target = body.children[first] || container.querySelector('#audit-heading');
    target.tabIndex = -1;
    target.focus();
  });
  recheck.addEventListener('click', async () => { recheck.disabled = true; await verify(); recheck.disabled = false; });

  try { await load(); } catch (failure) { showError(error, failure); }
  verify();  // the whole chain is read: the entries show meanwhile
}

function entryRow(entry) {
  const refused = entry.status >= 400;
  return h('tr', { dataset: { sequence: String(entry.sequence), action: entry.action } },
    h('td', { 'data-label': 'Time' }, h('time', { datetime: entry.at }, when(entry.at)), h('div', { class: 'muted' }, `#${entry.sequence}`)),
    h('td', { 'data-label': 'Actor', class: 'audit-actor' }, entry.actor ? h('span', { class: 'actor' }, entry.actor) : h('span', { class: 'muted' }, 'anonymous'),
      entry.role ? h('div', { class: 'muted role' }, entry.role) : null),
    h('td', { 'data-label': 'Action', class: 'audit-action' }, ACTION_LABELS[entry.action] || entry.action),
    h('td', { 'data-label': 'Patient' }, entry.patient ? h('a', { href: `#/admin/patients/${seg(entry.patient)}` }, entry.patient) : '–'),
    h('td', { 'data-label': 'Operation', class: 'audit-target' }, h('code', {}, entry.target)),
    h('td', { 'data-label': 'Status', class: refused ? 'audit-status refused' : 'audit-status' }, String(entry.status)),
    h('td', { 'data-label': 'Address' }, entry.address || '–'),
    h('td', { 'data-label': 'Detail' }, entry.detail || '–'));
}

/** The filters: every one optional; the times are this browser's local times. */
function filterForm() {
  const actor = h('input', { name: 'audit-actor', maxlength: 200, autocomplete: 'off' });
  const patient = h('input', { name: 'audit-patient', maxlength: 200, autocomplete: 'off' });
  const action = h('select', { name: 'audit-action' }, options([['', 'Any'], ...ACTIONS], ''));
  const since = h('input', { name: 'audit-since', type: 'datetime-local', step: 1 });
  const until = h('input', { name: 'audit-until', type: 'datetime-local', step: 1 });
  const submit = h('button', { type: 'submit', id: 'audit-filter-submit' }, 'Show entries');
  const clear = h('button', { type: 'reset', class: 'secondary' }, 'Clear');
  const form = h('form', { class: 'card', id: 'audit-filter', 'aria-labelledby': 'audit-filter-heading' },
    h('h3', { id: 'audit-filter-heading' }, 'Find entries'),
    h('div', { class: 'form-row' }, field('User name', actor, 'Upper or lower case alike.'), field('Patient identifier', patient),
      field('Action', action)),
    h('div', { class: 'form-row' }, field('From', since), field('Before', until)),
    submit, ' ', clear);
  return {
    element: form,
    onSubmit(handler) {
      const send = () => {
        const values = {};
        if (actor.value.trim()) values.actor = actor.value.trim();
        if (patient.value.trim()) values.patient = patient.value.trim();
        if (action.value) values.action = action.value;
        for (const [key, input] of [['since', since], ['until', until]]) {
          if (input.value) values[key] = new Date(input.value).toISOString();
        }
        return handler(submit, values);
      };
      form.addEventListener('submit', (event) => { event.preventDefault(); send(); });
      // Cleared, the form shows every entry again.
      form.addEventListener('reset', () => setTimeout(send));
    },
  };
}
