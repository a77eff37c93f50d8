// Hospitals and their sectors: the list, a new hospital, a new sector with the mailing
// list that is e-mailed when nobody on duty takes an alert.

import { api, v1 } from '../../api.js';
import { h, replace, field, errorBox, busy, options, toast } from '../../ui.js';

/** E-mail addresses typed one per line or separated by commas. */
function addresses(text) { return text.split(/[\s,;]+/).map((a) => a.trim()).filter(Boolean); }

const ID_HINT = 'Letters, digits and . _ - (it cannot change later).';

export async function render(container) {
  const list = h('div', { id: 'hospital-list' });
  const hospitalForm = newHospitalForm(() => load());
  const sectorForm = newSectorForm(() => load());
  container.replaceChildren(
    h('h2', {}, 'Hospitals and sectors'), list,
    h('div', { class: 'columns' }, hospitalForm.element, sectorForm.element));

  async function load() {
    const [hospitals, sectors] = await Promise.all([api(v1('hospitals')), api(v1('sectors'))]);
    sectorForm.hospitals(hospitals);
    replace(list, hospitals.length ? hospitals.map((hospital) => hospitalCard(hospital, sectors.filter((s) => s.hospital === hospital.id)))
      : h('p', { class: 'muted' }, 'No hospitals yet: register the first one below.'));
  }
  await load();
}

function hospitalCard(hospital, sectors) {
  return h('section', { class: 'card', dataset: { hospital: hospital.id } },
    h('h3', {}, hospital.name, ' ', h('span', { class: 'muted' }, `(${hospital.id})`)),
    hospital.address ? h('p', { class: 'muted' }, hospital.address) : null,
    sectors.length
      ? h('table', { class: 'responsive sectors' },
        h('caption', { class: 'visually-hidden' }, `Sectors of ${hospital.name}`),
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Sector'), h('th', { scope: 'col' }, 'Identifier'), h('th', { scope: 'col' }, 'Mailing list'))),
        h('tbody', {}, sectors.map((s) => h('tr', { dataset: { sector: s.id } },
          h('td', { 'data-label': 'Sector' }, s.name), h('td', { 'data-label': 'Identifier' }, s.id),
          h('td', { 'data-label': 'Mailing list', class: 'mailing-list' }, s.mailingList.length ? s.mailingList.join(', ') : h('span', { class: 'muted' }, 'none'))))))
      : h('p', { class: 'muted' }, 'No sectors yet.'));
}

function newHospitalForm(saved) {
  const id = h('input', { name: 'hospital-id', required: true, pattern: '[A-Za-z0-9._\\-]+', maxlength: 64 });
  const name = h('input', { name: 'hospital-name', required: true, maxlength: 200 });
  const address = h('input', { name: 'hospital-address', autocomplete: 'street-address' });
  const submit = h('button', { type: 'submit' }, 'Register hospital');
  const error = errorBox();
  const form = h('form', { class: 'card', id: 'new-hospital' },
    h('h3', {}, 'New hospital'), field('Identifier', id, ID_HINT), field('Name', name), field('Address (optional)', address), error, submit);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const done = await busy(submit, error, () =>
      api(v1('hospitals'), { method: 'POST', body: { id: id.value.trim(), name: name.value.trim(), address: address.value.trim() } }));
    if (!done) return;
    toast(`Hospital ${done.name} registered.`);
    form.reset();
    await saved();
  });
  return { element: form };
}

function newSectorForm(saved) {
  const hospital = h('select', { name: 'sector-hospital', required: true });
  const id = h('input', { name: 'sector-id', required: true, pattern: '[A-Za-z0-9._\\-]+', maxlength: 64 });
  const name = h('input', { name: 'sector-name', required: true, maxlength: 200 });
  const mailingList = h('textarea', { name: 'sector-mailing-list', rows: 3 });
  const submit = h('button', { type: 'submit' }, 'Register sector');
  const error = errorBox();
  const form = h('form', { class: 'card', id: 'new-sector' },
    h('h3', {}, 'New sector'), field('Hospital', hospital), field('Identifier', id, ID_HINT), field('Name', name),
    field('Mailing list', mailingList, 'E-mailed when nobody on duty takes an alert: addresses separated by commas or new lines.'),
    error, submit);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const done = await busy(submit, error, () => api(v1('sectors'), {
      method: 'POST', body: { id: id.value.trim(), hospital: hospital.value, name: name.value.trim(), mailingList: addresses(mailingList.value) },
    }));
    if (!done) return;
    toast(`Sector ${done.name} registered.`);
    const chosen = hospital.value;
    form.reset();
    hospital.value = chosen;
    await saved();
  });
  return {
    element: form,
    hospitals(list) {
      const chosen = hospital.value;
      replace(hospital, options(list.map((x) => [x.id, x.name]), chosen || list[0]?.id));
      submit.disabled = !list.length;
    },
  };
}
