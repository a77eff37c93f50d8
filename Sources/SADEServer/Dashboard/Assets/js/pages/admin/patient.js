// One patient's administration: the stay (admit, move, discharge), the details and
// care flags (respirator, SpO2 scale 2), the patient's own typical ranges, and the
// device tokens of their monitors (a new token's secret is shown once).

import { api, v1, seg } from '../../api.js';
import { h, replace, field, check, errorBox, busy, options, toast, confirmButton, when, VITALS } from '../../ui.js';
import { SEXES, BLOOD_TYPES } from './patients.js';

export async function render(container, id) {
  const [detail, sectors] = await Promise.all([api(v1(`patients/${seg(id)}`)), api(v1('sectors'))]);
  let patient = detail.overview.patient;
  const heading = h('h2', {});
  const stay = h('section', { class: 'card', id: 'patient-stay' });
  const details = h('section', { class: 'card', id: 'patient-details' });
  const ranges = h('section', { class: 'card', id: 'patient-thresholds' });
  const devices = h('section', { class: 'card', id: 'patient-devices' });
  container.replaceChildren(
    h('p', {}, h('a', { href: '#/admin/patients' }, '← All patients'), ' · ', h('a', { href: `#/patients/${seg(id)}` }, 'Open the monitor')),
    heading, h('div', { class: 'columns' }, stay, details), ranges, devices);

  const changed = (next) => { patient = next; drawHeading(); drawStay(); };
  const drawHeading = () => replace(heading, patient.name, ' ', h('span', { class: 'muted' }, `(${patient.id})`));
  const drawStay = () => replace(stay, stayPanel(patient, sectors, changed));
  drawHeading();
  drawStay();
  replace(details, detailsForm(patient, changed));
  await Promise.all([drawRanges(ranges, id), drawDevices(devices, id)]);
}

function stayPanel(patient, sectors, changed) {
  const sectorName = Object.fromEntries(sectors.map((s) => [s.id, s.name]));
  const sector = h('select', { name: 'stay-sector', required: true }, options(sectors.map((s) => [s.id, s.name]), patient.sector || sectors[0]?.id));
  const bed = h('input', { name: 'stay-bed', value: patient.bed || '', maxlength: 64, autocomplete: 'off' });
  const submit = h('button', { type: 'submit', id: 'stay-submit' }, patient.sector ? 'Move' : 'Admit');
  const error = errorBox();
  const form = h('form', { class: 'form-row' }, field('Sector', sector), field('Bed', bed), h('div', { class: 'field action' }, submit));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const next = await busy(submit, error, () => api(v1(`patients/${seg(patient.id)}/admit`), {
      method: 'POST', body: { sector: sector.value, bed: bed.value.trim() },
    }));
    if (!next) return;
    toast(`${next.name} is in ${sectorName[next.sector] || next.sector}${next.bed ? `, bed ${next.bed}` : ''}.`);
    changed(next);
    document.getElementById('stay-submit')?.focus();
  });
  const discharge = patient.sector ? confirmButton('Discharge', {
    question: `Discharge ${patient.name}?`, confirm: 'Yes, discharge', props: { id: 'discharge' },
    action: async () => {
      const next = await api(v1(`patients/${seg(patient.id)}/discharge`), { method: 'POST' });
      toast(`${next.name} discharged.`);
      changed(next);
      document.getElementById('stay-submit')?.focus();
    },
  }) : null;
  return [
    h('h3', {}, 'Stay'),
    h('p', { id: 'stay-now' }, patient.sector
      ? ['In ', h('strong', {}, sectorName[patient.sector] || patient.sector), patient.bed ? `, bed ${patient.bed}` : ', no bed']
      : 'Not admitted.'),
    h('p', { class: 'muted' }, patient.sector ? 'Move to another sector or bed:' : 'Admit to a sector:'),
    form, error, discharge,
  ];
}

function detailsForm(patient, changed) {
  const name = h('input', { name: 'detail-name', value: patient.name, required: true, maxlength: 200 });
  const birth = h('input', { name: 'detail-birth', type: 'date', value: patient.dateOfBirth ? patient.dateOfBirth.slice(0, 10) : '' });
  const sex = h('select', { name: 'detail-sex' }, options(SEXES, patient.sex));
  const blood = h('select', { name: 'detail-blood' }, options(BLOOD_TYPES, patient.bloodType));
  const respirator = check('On a respirator', { name: 'onRespirator', checked: patient.onRespirator });
  const scale2 = check('SpO₂ scale 2 (target 88–92 %, for hypercapnic respiratory failure)', { name: 'usesSpO2Scale2', checked: patient.usesSpO2Scale2 });
  const submit = h('button', { type: 'submit', id: 'details-submit' }, 'Save details');
  const error = errorBox();
  const form = h('form', {},
    h('h3', {}, 'Details and care'),
    h('div', { class: 'form-row' }, field('Name', name), field('Date of birth', birth)),
    h('div', { class: 'form-row' }, field('Sex', sex), field('Blood type', blood)),
    h('div', { class: 'checks' }, respirator, scale2), error, submit);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const next = await busy(submit, error, () => api(v1(`patients/${seg(patient.id)}`), {
      method: 'PUT',
      body: {
        name: name.value.trim(), dateOfBirth: birth.value, sex: sex.value, bloodType: blood.value,
        onRespirator: respirator.querySelector('input').checked, usesSpO2Scale2: scale2.querySelector('input').checked,
      },
    }));
    if (!next) return;
    toast(`${next.name}'s details saved.`);
    changed(next);
  });
  return form;
}

/** The own ranges as a table of lower/upper inputs; empty means the standard range. */
async function drawRanges(section, id) {
  const thresholds = await api(v1(`patients/${seg(id)}/thresholds`));
  // SADE's vital signs, then any the server's application registered: every own range
  // is shown, and sent back, so saving the form never drops one.
  const known = new Set(VITALS.map((v) => v.type));
  const registered = Object.keys({ ...thresholds.effective, ...thresholds.overrides }).filter((type) => !known.has(type)).sort()
    .map((type) => ({ type, label: type, unit: (thresholds.overrides[type] || thresholds.effective[type])?.unit || '' }));
  const rows = [...VITALS, ...registered].map((vital) => {
    const own = thresholds.overrides[vital.type];
    const effective = thresholds.effective[vital.type];
    const unit = (own || effective)?.unit || vital.unit;  // what the server reads and writes, e.g. degC
    const input = (bound) => h('input', {
      type: 'number', step: 'any', inputMode: 'decimal', name: `${vital.type}-${bound}`, class: 'bound',
      value: own ? String(own[bound]) : '', 'aria-label': `${vital.label}, ${bound === 'lower' ? 'lowest' : 'highest'} typical value (${vital.unit})`,
      placeholder: effective ? String(effective[bound]) : '',
    });
    return { vital, unit, lower: input('lower'), upper: input('upper'), effective, own };
  });
  const submit = h('button', { type: 'submit', id: 'thresholds-submit' }, 'Save ranges');
  const error = errorBox();
  const form = h('form', { id: 'thresholds-form' },
    h('table', { class: 'responsive thresholds' },
      h('thead', {}, h('tr', {}, ['Vital sign', 'Own lower', 'Own upper', 'Judged by'].map((c) => h('th', { scope: 'col' }, c)))),
      h('tbody', {}, rows.map((r) => h('tr', { dataset: { type: r.vital.type } },
        h('th', { scope: 'row' }, `${r.vital.label} (${r.vital.unit})`),
        h('td', { 'data-label': 'Own lower' }, r.lower), h('td', { 'data-label': 'Own upper' }, r.upper),
        h('td', { 'data-label': 'Judged by', class: 'effective' },
          r.effective ? `${r.effective.lower}–${r.effective.upper}${r.own ? ' (own)' : ' (standard)'}` : '–'))))),
    error, submit);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const body = {};
    for (const r of rows) {
      const [lower, upper] = [r.lower.value.trim(), r.upper.value.trim()];
      if (!lower && !upper) continue;
      if (!lower || !upper) { showHalf(error, r); return; }
      body[r.vital.type] = { lower: Number(lower), upper: Number(upper), unit: r.unit };
    }
    const saved = await busy(submit, error, () => api(v1(`patients/${seg(id)}/thresholds`), { method: 'PUT', body }));
    if (!saved) return;
    toast('Typical ranges saved.');
    await drawRanges(section, id);
    section.querySelector('#thresholds-submit').focus();
  });
  replace(section, h('h3', {}, 'Typical ranges'),
    h('p', { class: 'muted' }, 'Readings outside a range raise an anomaly. Leave both bounds empty to use the standard range.'), form);
}

function showHalf(error, row) {
  error.hidden = false;
  error.textContent = `${row.vital.label}: give both the lower and the upper value, or neither.`;
  (row.lower.value.trim() ? row.upper : row.lower).focus();
}

/** The device tokens, revoking, and issuing one whose secret is shown only now. */
async function drawDevices(section, id, issued = null) {
  const tokens = await api(v1(`patients/${seg(id)}/devices`));
  const label = h('input', { name: 'device-label', maxlength: 200, autocomplete: 'off', placeholder: 'e.g. bedside monitor' });
  const submit = h('button', { type: 'submit', id: 'issue-token' }, 'Issue token');
  const error = errorBox();
  const form = h('form', { class: 'form-row', id: 'issue-form' }, field('Device label', label), h('div', { class: 'field action' }, submit));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const answer = await busy(submit, error, () => api(v1(`patients/${seg(id)}/devices`), {
      method: 'POST', body: label.value.trim() ? { label: label.value.trim() } : {},
    }));
    if (!answer) return;
    await drawDevices(section, id, answer);
    section.querySelector('#device-secret')?.focus();
  });
  replace(section,
    h('h3', {}, 'Device tokens'),
    h('p', { class: 'muted' }, 'A monitor sends its token as a bearer token and may then only write this patient\'s readings.'),
    issued ? secretBox(issued) : null,
    tokens.length
      ? h('table', { class: 'responsive', id: 'device-tokens' },
        h('thead', {}, h('tr', {}, ['Device', 'Issued', 'State', ''].map((c) => h('th', { scope: 'col' }, c)))),
        h('tbody', {}, tokens.map((t) => h('tr', { dataset: { token: t.id } },
          h('td', { 'data-label': 'Device' }, t.label), h('td', { 'data-label': 'Issued' }, when(t.createdAt)),
          h('td', { 'data-label': 'State', class: 'token-state' }, t.revokedAt ? `revoked ${when(t.revokedAt)}` : 'active'),
          h('td', {}, t.revokedAt ? null : confirmButton('Revoke', {
            question: `Revoke "${t.label}"?`, confirm: 'Yes, revoke', props: { class: 'secondary revoke' },
            action: async () => {
              await api(v1(`patients/${seg(id)}/devices/${seg(t.id)}`), { method: 'DELETE' });
              toast(`Token of ${t.label} revoked.`);
              await drawDevices(section, id);
              section.querySelector('#issue-token').focus();
            },
          }))))))
      : h('p', { class: 'muted' }, 'No device tokens yet.'),
    form, error);
}

function secretBox(issued) {
  const secret = h('code', { id: 'device-secret', tabindex: -1 }, issued.secret);
  const copy = h('button', { type: 'button', class: 'secondary small' }, 'Copy');
  copy.addEventListener('click', async () => {
    try { await navigator.clipboard.writeText(issued.secret); toast('Token copied.'); } catch {
      getSelection().selectAllChildren(secret);
      toast('Select and copy the token by hand (Ctrl+C).', 'warning');
    }
  });
  return h('div', { class: 'secret', role: 'status' },
    h('p', {}, h('strong', {}, `Token for ${issued.token.label}`), ': copy it now, it will not be shown again.'),
    h('p', { class: 'secret-value' }, secret, ' ', copy));
}
