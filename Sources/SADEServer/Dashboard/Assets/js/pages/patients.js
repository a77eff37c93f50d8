// The worker's patients, the riskiest first, updated live from the event stream:
// latest vital signs (cells coloured by their NEWS2 sub-score), NEWS2 with its band,
// how old the last reading is (stale rows stand out), open alerts.
//
// Rows are built once per patient and updated in place, so a live update never
// replaces the link under the user's pointer or keyboard focus.

import { api, v1, session } from '../api.js';
import { subscribe } from '../live.js';
import {
  h, replace, VITALS, reading, news2Badge, ago, secondsSince, STALE_SECONDS, subscoreClass, riskierFirst,
  applyObservation, learnServerClock,
} from '../ui.js';

const COLUMNS = VITALS.filter((v) => v.type !== 'bloodPressureDiastolic');

export async function render(main) {
  // Staff see sector names; a relative (who may not list sectors) sees their people only.
  const sectors = session.get().user.role === 'relative' ? [] : await api(v1('sectors')).catch(() => []);
  const sectorName = Object.fromEntries(sectors.map((s) => [s.id, s.name]));
  let patients = await api(v1('patients'));
  learnServerClock(patients);
  const body = h('tbody', {});
  const count = h('p', { class: 'muted', id: 'patient-count' });
  main.replaceChildren(
    h('div', { class: 'toolbar' }, h('h1', { tabindex: -1 }, 'Patients'), count),
    h('p', { class: 'muted', id: 'patients-order' }, 'The riskiest first: NEWS2 band and score, then most open alerts. Updated live.'),
    h('table', { class: 'responsive', id: 'patients', 'aria-describedby': 'patients-order' },
      h('thead', {}, h('tr', {},
        h('th', { scope: 'col' }, 'Patient'), h('th', { scope: 'col' }, 'Sector / bed'),
        COLUMNS.map((v) => h('th', { scope: 'col', class: 'num', title: v.label }, v.short === 'Sys' ? 'BP' : v.short)),
        h('th', { scope: 'col' }, 'NEWS2'), h('th', { scope: 'col' }, 'Last reading'), h('th', { scope: 'col', class: 'num' }, 'Open alerts'))),
      body));

  const rows = new Map();
  const draw = () => {
    patients.sort(riskierFirst);
    const wanted = patients.map((p) => {
      let tr = rows.get(p.patient.id);
      if (!tr) { tr = emptyRow(p); rows.set(p.patient.id, tr); }
      fill(tr, p, sectorName);
      return tr;
    });
    for (const [id, tr] of rows) if (!patients.some((p) => p.patient.id === id)) { tr.remove(); rows.delete(id); }
    // Move rows only when the order changed: moving keeps the elements (and focus).
    if (wanted.some((tr, i) => body.children[i] !== tr)) wanted.forEach((tr) => body.append(tr));
    count.textContent = `${patients.length} patient${patients.length === 1 ? '' : 's'}`;
  };
  draw();

  let refetch = null;
  const reload = () => {
    clearTimeout(refetch);
    refetch = setTimeout(async () => {
      patients = await api(v1('patients')).catch(() => patients);
      learnServerClock(patients);
      draw();
    }, 500);
  };
  let frame = null;
  const drawSoon = () => { if (!frame) frame = requestAnimationFrame(() => { frame = null; draw(); }); };
  const unsubscribe = subscribe((event) => {
    if (event.type === 'resync') { reload(); return; }
    const patient = patients.find((p) => p.patient.id === event.patient);
    if (!patient) { if (event.type === 'alert') reload(); return; }
    if (event.type === 'samples') {
      for (const o of event.observations) applyObservation(patient, o);
    } else if (event.type === 'news2') {
      patient.news2 = event.score;
    } else {
      reload();
      return;
    }
    drawSoon();
  });
  // Ages tick every second; a full refresh every 30 s picks up admissions and discharges.
  const ticker = setInterval(() => { for (const p of patients) { const tr = rows.get(p.patient.id); if (tr) fillAge(tr, p); } }, 1000);
  const refresher = setInterval(reload, 30000);
  return () => { unsubscribe(); clearInterval(ticker); clearInterval(refresher); clearTimeout(refetch); cancelAnimationFrame(frame); };
}

/** A row with its cells, filled by `fill`. */
function emptyRow(overview) {
  const p = overview.patient;
  return h('tr', { 'data-patient': p.id },
    h('td', { 'data-label': 'Patient' }, h('a', { href: `#/patients/${encodeURIComponent(p.id)}`, class: 'patient-link' }),
      h('div', { class: 'muted detail' })),
    h('td', { 'data-label': 'Sector / bed', class: 'stay' }),
    COLUMNS.map((v) => h('td', { 'data-label': v.type === 'bloodPressureSystolic' ? 'Blood pressure' : v.label, 'data-type': v.type })),
    h('td', { 'data-label': 'NEWS2', class: 'score' }),
    h('td', { class: 'age', 'data-label': 'Last reading' }),
    h('td', { class: 'num alerts', 'data-label': 'Open alerts' }));
}

function fill(tr, overview, sectorName) {
  const p = overview.patient;
  tr.dataset.sector = p.sector || '';
  const link = tr.querySelector('a.patient-link');
  if (link.textContent !== p.name) link.textContent = p.name;
  tr.querySelector('.detail').textContent = `${p.id}${overview.onRespirator ? ' · respirator' : ''}`;
  tr.querySelector('.stay').textContent = `${sectorName[p.sector] || p.sector || 'not admitted'}${p.bed ? ` · ${p.bed}` : ''}`;
  const sub = overview.news2 ? overview.news2.subscores : {};
  for (const vital of COLUMNS) {
    const cell = tr.querySelector(`td[data-type="${vital.type}"]`);
    const value = vital.type === 'bloodPressureSystolic'
      ? `${reading(overview.vitals, 'bloodPressureSystolic')}/${reading(overview.vitals, 'bloodPressureDiastolic')}`
      : reading(overview.vitals, vital.type);
    const score = sub[vital.news];
    cell.className = `num ${subscoreClass(score)}`;
    replace(cell, value, score ? h('span', { class: 'visually-hidden' }, ` (NEWS2 sub-score ${score})`) : null);
  }
  replace(tr.querySelector('.score'), news2Badge(overview.news2));
  const alerts = tr.querySelector('.alerts');
  replace(alerts, overview.openAlerts ? h('a', { href: '#/alerts', class: 'open-alerts' }, String(overview.openAlerts)) : '0');
  fillAge(tr, overview);
}

function fillAge(tr, overview) {
  const age = secondsSince(overview.lastReadingAt);
  const stale = age === null || age > STALE_SECONDS;
  tr.classList.toggle('stale', stale);
  tr.querySelector('td.age').textContent = `${ago(age)}${stale ? ' (stale)' : ''}`;
}
