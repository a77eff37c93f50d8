// Staff: the health-care workers (their sectors and duty, changed in place), every
// account, and a new doctor's or nurse's account with their worker record.

import { api, v1, seg } from '../../api.js';
import { h, replace, field, check, errorBox, busy, options, toast } from '../../ui.js';

export async function render(container) {
  const workers = h('tbody', {});
  const accounts = h('tbody', {});
  const form = newStaffForm(() => load());
  container.replaceChildren(
    h('h2', { id: 'workers-heading' }, 'Health-care workers'),
    h('p', { class: 'muted' }, 'Alerts go to the nurses on duty in the patient\'s sectors, then to the sector\'s doctors.'),
    h('table', { class: 'responsive', id: 'workers', 'aria-labelledby': 'workers-heading' },
      h('thead', {}, h('tr', {}, ['Name', 'Role', 'Sectors', 'Duty'].map((c) => h('th', { scope: 'col' }, c)))), workers),
    form.element,
    h('h2', { id: 'accounts-heading' }, 'Accounts'),
    h('table', { class: 'responsive', id: 'accounts', 'aria-labelledby': 'accounts-heading' },
      h('thead', {}, h('tr', {}, ['User name', 'Name', 'Role', 'Linked record', 'E-mail'].map((c) => h('th', { scope: 'col' }, c)))), accounts));

  let sectors = [];
  async function load() {
    const [staff, users, allSectors] = await Promise.all([api(v1('staff')), api(v1('users')), api(v1('sectors'))]);
    sectors = allSectors;
    form.sectors(sectors);
    const names = Object.fromEntries(sectors.map((s) => [s.id, s.name]));
    replace(workers, staff.length ? staff.map((w) => workerRow(w, names)) : h('tr', {}, h('td', { colspan: 4, class: 'muted' }, 'No health-care workers yet.')));
    replace(accounts, users.map((u) => h('tr', { dataset: { user: u.username } },
      h('td', { 'data-label': 'User name' }, u.username), h('td', { 'data-label': 'Name' }, u.name),
      h('td', { 'data-label': 'Role' }, u.role),
      h('td', { 'data-label': 'Linked record' }, u.staffID ? `worker ${u.staffID}` : u.patientID ? h('a', { href: `#/admin/patients/${seg(u.patientID)}` }, `patient ${u.patientID}`) : '–'),
      h('td', { 'data-label': 'E-mail' }, u.email || '–'))));
  }

  /** A worker's row: the duty switch and the sectors editor change the record at once. */
  function workerRow(worker, names) {
    const tr = h('tr', { dataset: { worker: worker.id } });
    const put = (body) => api(v1(`staff/${seg(worker.id)}`), { method: 'PUT', body });
    const duty = check('On duty', { name: 'on-duty', class: 'duty', checked: worker.onDuty, 'aria-label': `${worker.name} on duty` });
    const box = duty.querySelector('input');
    box.addEventListener('change', async () => {
      box.disabled = true;
      try {
        Object.assign(worker, await put({ onDuty: box.checked }));
        toast(`${worker.name} is ${worker.onDuty ? 'on' : 'off'} duty.`);
      } catch (error) { toast(error.message, 'alarm'); } finally { box.checked = worker.onDuty; box.disabled = false; }
    });
    const sectorCell = h('td', { 'data-label': 'Sectors', class: 'worker-sectors' });
    const showSectors = () => {
      const edit = h('button', { type: 'button', class: 'secondary small edit-sectors', 'aria-label': `Change ${worker.name}'s sectors` }, 'Change');
      edit.addEventListener('click', () => editSectors());
      replace(sectorCell, h('span', { class: 'sector-names' }, worker.sectors.map((s) => names[s] || s).join(', ') || 'none'), ' ', edit);
    };
    const editSectors = () => {
      const boxes = sectors.map((s) => check(s.name, { name: 'sector', value: s.id, checked: worker.sectors.includes(s.id) }));
      const save = h('button', { type: 'submit', class: 'small' }, 'Save');
      const cancel = h('button', { type: 'button', class: 'secondary small', onclick: () => { showSectors(); sectorCell.querySelector('button').focus(); } }, 'Cancel');
      const error = errorBox();
      const form = h('form', { class: 'sector-editor' }, h('fieldset', {}, h('legend', {}, `Sectors of ${worker.name}`), boxes), error, save, ' ', cancel);
      form.addEventListener('submit', async (event) => {
        event.preventDefault();
        const chosen = [...form.querySelectorAll('input[name="sector"]:checked')].map((b) => b.value);
        const updated = await busy(save, error, () => put({ sectors: chosen }));
        if (!updated) return;
        Object.assign(worker, updated);
        toast(`${worker.name}'s sectors changed.`);
        showSectors();
        sectorCell.querySelector('button').focus();
      });
      replace(sectorCell, form);
      form.querySelector('input')?.focus();
    };
    showSectors();
    replace(tr, h('td', { 'data-label': 'Name' }, worker.name, h('div', { class: 'muted' }, worker.id)),
      h('td', { 'data-label': 'Role' }, worker.role), sectorCell, h('td', { 'data-label': 'Duty' }, duty));
    return tr;
  }

  await load();
}

function newStaffForm(saved) {
  const username = h('input', { name: 'staff-username', required: true, autocomplete: 'off', maxlength: 64 });
  const name = h('input', { name: 'staff-name', required: true, maxlength: 200 });
  const role = h('select', { name: 'staff-role' }, options([['nurse', 'Nurse'], ['doctor', 'Doctor']], 'nurse'));
  const password = h('input', { name: 'staff-password', type: 'password', required: true, minlength: 8, autocomplete: 'new-password' });
  const email = h('input', { name: 'staff-email', type: 'email', autocomplete: 'off' });
  const licence = h('input', { name: 'staff-licence' });
  const phone = h('input', { name: 'staff-phone', type: 'tel' });
  const sectorBoxes = h('fieldset', { class: 'sector-choice' });
  const onDuty = check('On duty now', { name: 'staff-on-duty' });
  const submit = h('button', { type: 'submit' }, 'Create account');
  const error = errorBox();
  const form = h('form', { class: 'card', id: 'new-staff' },
    h('h3', {}, 'New doctor or nurse'),
    h('div', { class: 'form-row' }, field('User name', username), field('Full name', name), field('Role', role),
      field('Password', password, 'At least 8 characters.')),
    h('div', { class: 'form-row' }, field('E-mail (optional)', email), field('Licence (optional)', licence), field('Phone (optional)', phone)),
    sectorBoxes, onDuty, error, submit);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const sectors = [...sectorBoxes.querySelectorAll('input:checked')].map((b) => b.value);
    const body = { username: username.value.trim(), name: name.value.trim(), role: role.value, password: password.value, sectors };
    for (const [key, input] of [['email', email], ['licence', licence], ['phone', phone]]) if (input.value.trim()) body[key] = input.value.trim();
    const account = await busy(submit, error, () => api(v1('users'), { method: 'POST', body }));
    if (!account) return;
    toast(`${account.name} can now log in as ${account.username}.`);
    if (onDuty.querySelector('input').checked) {
      await api(v1(`staff/${seg(account.staffID)}`), { method: 'PUT', body: { onDuty: true } })
        .catch((e) => toast(`${account.name} is not on duty yet: ${e.message}`, 'warning'));
    }
    form.reset();
    await saved();
  });
  return {
    element: form,
    sectors(list) {
      const chosen = new Set([...sectorBoxes.querySelectorAll('input:checked')].map((b) => b.value));
      replace(sectorBoxes, h('legend', {}, 'Sectors'), list.map((s) => check(s.name, { name: 'new-sector', value: s.id, checked: chosen.has(s.id) })));
    },
  };
}
