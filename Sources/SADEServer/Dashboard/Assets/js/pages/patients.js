// The worker's patients, the riskiest first, updated live from the event stream:
// latest vital signs (cells coloured by their NEWS2 sub-score), NEWS2 with its band,
// how old the last reading is (stale rows stand out), open alerts.

import { api, v1 } from '../api.js';
import { subscribe } from '../live.js';
import { h, replace, VITALS, reading, news2Badge, ago, secondsSince, STALE_SECONDS, subscoreClass } from '../ui.js';

export async function render(main) {
  const sectors = await api(v1('sectors')).catch(() => []);
  const sectorName = Object.fromEntries(sectors.map((s) => [s.id, s.name]));
  let patients = await api(v1('patients'));
  const body = h('tbody', {});
  const count = h('p', { class: 'muted', id: 'patient-count' });
  main.replaceChildren(
    h('div', { class: 'toolbar' }, h('h1', {}, 'Patients'), count),
    h('p', { class: 'muted', id: 'patients-order' }, 'The riskiest first: highest NEWS2, then most open alerts. Updated live.'),
    h('table', { class: 'responsive', id: 'patients', 'aria-describedby': 'patients-order' },
      h('thead', {}, h('tr', {},
        h('th', { scope: 'col' }, 'Patient'), h('th', { scope: 'col' }, 'Sector / bed'),
        VITALS.filter((v) => v.type !== 'bloodPressureDiastolic').map((v) =>
          h('th', { scope: 'col', class: 'num', title: v.label }, v.short === 'Sys' ? 'BP' : v.short)),
        h('th', { scope: 'col' }, 'NEWS2'), h('th', { scope: 'col' }, 'Last reading'), h('th', { scope: 'col', class: 'num' }, 'Open alerts'))),
      body));

  const draw = () => {
    // Keep keyboard focus on the same patient's link across redraws.
    const focused = document.activeElement;
    const focusedRow = body.contains(focused) ? focused.closest('tr').dataset.patient : null;
    const focusedClass = focusedRow ? focused.className : null;
    patients.sort(riskierFirst);
    replace(body, patients.map((p) => row(p, sectorName)));
    if (focusedRow) {
      const again = [...body.querySelectorAll('tr')].find((tr) => tr.dataset.patient === focusedRow);
      again?.querySelector(focusedClass ? `a.${focusedClass}` : 'a')?.focus();
    }
    count.textContent = `${patients.length} patient${patients.length === 1 ? '' : 's'}`;
  };
  draw();

  let refetch = null;
  const reload = () => {
    clearTimeout(refetch);
    refetch = setTimeout(async () => { patients = await api(v1('patients')).catch(() => patients); draw(); }, 500);
  };
  const unsubscribe = subscribe((event) => {
    const patient = patients.find((p) => p.patient.id === event.patient);
    if (!patient) { if (event.type === 'alert') reload(); return; }
    if (event.type === 'samples') {
      for (const o of event.observations) {
        if (VITALS.some((v) => v.type === o.type)) patient.vitals[o.type] = { value: o.value, unit: o.unit, time: o.start };
        if (!patient.lastReadingAt || o.start > patient.lastReadingAt) patient.lastReadingAt = o.start;
      }
    } else if (event.type === 'news2') {
      patient.news2 = event.score;
    } else {
      reload();
      return;
    }
    draw();
  });
  // Ages tick every second; a full refresh every 30 s picks up admissions and discharges.
  const ticker = setInterval(() => {
    for (const tr of body.rows) {
      const overview = patients.find((p) => p.patient.id === tr.dataset.patient);
      const age = secondsSince(overview?.lastReadingAt);
      const stale = age === null || age > STALE_SECONDS;
      tr.classList.toggle('stale', stale);
      tr.querySelector('td.age').textContent = `${ago(age)}${stale ? ' (stale)' : ''}`;
    }
  }, 1000);
  const refresher = setInterval(reload, 30000);
  return () => { unsubscribe(); clearInterval(ticker); clearInterval(refresher); clearTimeout(refetch); };
}

function riskierFirst(a, b) {
  const left = [a.news2 ? a.news2.total : -1, a.openAlerts];
  const right = [b.news2 ? b.news2.total : -1, b.openAlerts];
  if (left[0] !== right[0]) return right[0] - left[0];
  if (left[1] !== right[1]) return right[1] - left[1];
  return a.patient.name.localeCompare(b.patient.name);
}

function row(overview, sectorName) {
  const p = overview.patient;
  const age = secondsSince(overview.lastReadingAt);
  const stale = age === null || age > STALE_SECONDS;
  const sub = overview.news2 ? overview.news2.subscores : {};
  const cell = (vital) => {
    const value = vital.type === 'bloodPressureSystolic'
      ? `${reading(overview.vitals, 'bloodPressureSystolic')}/${reading(overview.vitals, 'bloodPressureDiastolic')}`
      : reading(overview.vitals, vital.type);
    const label = vital.type === 'bloodPressureSystolic' ? 'Blood pressure' : vital.label;
    return h('td', { class: `num ${subscoreClass(sub[vital.news])}`, 'data-label': label, 'data-type': vital.type }, value);
  };
  return h('tr', { class: stale ? 'stale' : '', 'data-patient': p.id, 'data-sector': p.sector || '' },
    h('td', { 'data-label': 'Patient' }, h('a', { href: `#/patients/${encodeURIComponent(p.id)}`, class: 'patient-link' }, p.name),
      h('div', { class: 'muted' }, p.id, overview.onRespirator ? ' · respirator' : '')),
    h('td', { 'data-label': 'Sector / bed' }, sectorName[p.sector] || p.sector || 'not admitted', p.bed ? ` · ${p.bed}` : ''),
    VITALS.filter((v) => v.type !== 'bloodPressureDiastolic').map(cell),
    h('td', { 'data-label': 'NEWS2' }, news2Badge(overview.news2)),
    h('td', { class: 'age', 'data-label': 'Last reading' }, ago(age), stale ? ' (stale)' : ''),
    h('td', { class: 'num', 'data-label': 'Open alerts' }, overview.openAlerts ? h('a', { href: '#/alerts', class: 'open-alerts' }, String(overview.openAlerts)) : '0'));
}
