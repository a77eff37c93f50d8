// Patients: every registered patient (found by name, identifier or sector), each
// opening its own administration page, and a new patient admitted to a sector and bed.

import { api, v1, seg } from '../../api.js';
import { h, replace, field, errorBox, busy, options, toast } from '../../ui.js';

/** The sexes and blood types the API knows, with their labels. */
export const SEXES = [['notSet', 'Not set'], ['female', 'Female'], ['male', 'Male'], ['other', 'Other']];
export const BLOOD_TYPES = [['notSet', 'Not set'], ['aPositive', 'A+'], ['aNegative', 'A−'], ['bPositive', 'B+'], ['bNegative', 'B−'],
  ['abPositive', 'AB+'], ['abNegative', 'AB−'], ['oPositive', 'O+'], ['oNegative', 'O−']];
/** The select value for "not admitted". */
export const NO_SECTOR = '';

export async function render(container) {
  const [overviews, sectors] = await Promise.all([api(v1('patients')), api(v1('sectors'))]);
  let patients = overviews.map((o) => o.patient).sort((a, b) => a.name.localeCompare(b.name));
  const sectorName = Object.fromEntries(sectors.map((s) => [s.id, s.name]));
  const search = h('input', { type: 'search', name: 'patient-search', autocomplete: 'off' });
  const sectorFilter = h('select', { name: 'patient-sector-filter' },
    options([['*', 'All sectors'], [NO_SECTOR, 'Not admitted'], ...sectors.map((s) => [s.id, s.name])], '*'));
  const body = h('tbody', {});
  const count = h('p', { class: 'muted', id: 'admin-patient-count', role: 'status' });
  // At phone width the list is long: a way straight to the form below it.
  const jump = h('button', { type: 'button', class: 'secondary jump', id: 'jump-to-admit' }, 'Admit a new patient');
  jump.addEventListener('click', () => { const first = container.querySelector('#admit-patient input'); first.scrollIntoView({ block: 'center' }); first.focus(); });
  container.replaceChildren(
    h('div', { class: 'toolbar' }, h('h2', {}, 'Patients'), jump),
    h('div', { class: 'form-row' }, field('Find by name or identifier', search), field('Sector', sectorFilter)),
    count,
    h('table', { class: 'responsive', id: 'admin-patients' },
      h('thead', {}, h('tr', {}, ['Patient', 'Sector / bed', 'Care', 'Monitor'].map((c) => h('th', { scope: 'col' }, c)))), body),
    admitForm(sectors, (patient) => {
      patients = patients.filter((p) => p.id !== patient.id).concat(patient).sort((a, b) => a.name.localeCompare(b.name));
      search.value = '';
      sectorFilter.value = '*';
      draw();
    }));

  const draw = () => {
    const words = search.value.trim().toLowerCase();
    const shown = patients.filter((p) => (sectorFilter.value === '*' || (p.sector || NO_SECTOR) === sectorFilter.value)
      && (!words || p.name.toLowerCase().includes(words) || p.id.toLowerCase().includes(words)));
    replace(body, shown.map((p) => h('tr', { dataset: { patient: p.id, sector: p.sector || '' } },
      h('td', { 'data-label': 'Patient' }, h('a', { href: `#/admin/patients/${seg(p.id)}`, class: 'patient-admin-link' }, p.name), h('div', { class: 'muted' }, p.id)),
      h('td', { 'data-label': 'Sector / bed', class: 'stay' }, p.sector ? `${sectorName[p.sector] || p.sector}${p.bed ? ` · ${p.bed}` : ''}` : 'not admitted'),
      h('td', { 'data-label': 'Care', class: 'care' }, care(p)),
      h('td', { 'data-label': 'Monitor' }, h('a', { href: `#/patients/${seg(p.id)}`, 'aria-label': `Monitor of ${p.name}` }, 'Monitor')))));
    count.textContent = `${shown.length} of ${patients.length} patients`;
  };
  search.addEventListener('input', draw);
  sectorFilter.addEventListener('change', draw);
  draw();
}

/** Respirator, SpO2 scale 2 and own ranges, in words. */
function care(patient) {
  const own = Object.keys(patient.thresholds || {}).length;
  const parts = [patient.onRespirator ? 'respirator' : null, patient.usesSpO2Scale2 ? 'SpO₂ scale 2' : null,
    own ? `${own} own range${own === 1 ? '' : 's'}` : null].filter(Boolean);
  return parts.length ? parts.join(' · ') : h('span', { class: 'muted' }, 'standard');
}

function admitForm(sectors, admitted) {
  const id = h('input', { name: 'patient-id', required: true, maxlength: 64, pattern: '[A-Za-z0-9._\\-]+', autocomplete: 'off' });
  const name = h('input', { name: 'patient-name', required: true, maxlength: 200, autocomplete: 'off' });
  const birth = h('input', { name: 'patient-birth', type: 'date' });
  const sex = h('select', { name: 'patient-sex' }, options(SEXES, 'notSet'));
  const sector = h('select', { name: 'patient-sector' }, options([...sectors.map((s) => [s.id, s.name]), [NO_SECTOR, 'Register only (not admitted)']], sectors[0]?.id ?? NO_SECTOR));
  const bed = h('input', { name: 'patient-bed', maxlength: 64, autocomplete: 'off' });
  const submit = h('button', { type: 'submit', id: 'admit-submit' }, 'Admit patient');
  const error = errorBox();
  sector.addEventListener('change', () => {
    bed.disabled = sector.value === NO_SECTOR;
    submit.textContent = sector.value === NO_SECTOR ? 'Register patient' : 'Admit patient';
  });
  const form = h('form', { class: 'card', id: 'admit-patient' },
    h('h3', {}, 'Admit a new patient'),
    h('div', { class: 'form-row' }, field('Identifier', id, 'Letters, digits and . _ -'), field('Name', name),
      field('Date of birth (optional)', birth), field('Sex', sex)),
    h('div', { class: 'form-row' }, field('Sector', sector), field('Bed (optional)', bed)),
    error, submit);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const body = { id: id.value.trim(), name: name.value.trim(), sex: sex.value };
    if (birth.value) body.dateOfBirth = birth.value;
    if (sector.value !== NO_SECTOR) { body.sector = sector.value; if (bed.value.trim()) body.bed = bed.value.trim(); }
    const patient = await busy(submit, error, () => api(v1('patients'), { method: 'POST', body }));
    if (!patient) return;
    toast(patient.sector ? `${patient.name} admitted.` : `${patient.name} registered.`);
    form.reset();
    sector.dispatchEvent(new Event('change'));
    admitted(patient);
  });
  return form;
}
