// One patient as on a bedside monitor: large live values, trend charts of the last
// hour, day or week with the patient's typical ranges, the NEWS2 breakdown, the
// patient's alerts, and exports as CSV and FHIR.

import { api, v1, seg, session } from '../api.js';
import { trendChart } from '../chart.js';
import { subscribe } from '../live.js';
import {
  h, replace, VITALS, NEWS2_PARAMETERS, number, news2Badge, subscoreClass, ago, secondsSince, STALE_SECONDS, download, toast,
  applyObservation, learnServerClock,
} from '../ui.js';
import { alertItem } from './alerts.js';

/** The periods a chart can show, and the bucket that keeps each under 200 points. */
const PERIODS = [
  { id: '1h', label: '1 h', seconds: 3600, bucket: '1m' },
  { id: '24h', label: '24 h', seconds: 86400, bucket: '15m' },
  { id: '7d', label: '7 d', seconds: 7 * 86400, bucket: '1h' },
];
const ACVPU = ['Alert', 'Confusion', 'Voice', 'Pain', 'Unresponsive'];

export async function render(main, [id]) {
  // A relative sees the latest vital signs, NEWS2 and alerts: no history, no export.
  const latestOnly = session.get().user.role === 'relative';
  const detail = await api(v1(`patients/${seg(id)}`));
  let overview = detail.overview;
  learnServerClock([overview]);
  const patient = overview.patient;
  let period = PERIODS[0];
  const values = h('div', { class: 'monitor-values', id: 'live-values', 'aria-live': 'off' });
  const charts = h('div', { class: 'charts', id: 'charts' });
  const news2 = h('div', { id: 'news2' });
  const alerts = h('ul', { class: 'alert-list', id: 'patient-alerts' });
  const age = h('span', { class: 'muted', id: 'reading-age' });
  const periodButtons = PERIODS.map((p) => h('button', {
    type: 'button', class: 'secondary period', 'aria-pressed': String(p === period), dataset: { period: p.id },
    onclick: () => {
      period = p;
      periodButtons.forEach((b) => b.setAttribute('aria-pressed', String(b.dataset.period === p.id)));
      drawCharts().catch((error) => toast(`Charts not updated: ${error.message}`, 'warning'));
    },
  }, p.label));

  main.replaceChildren(
    h('div', { class: 'toolbar' },
      h('h1', { tabindex: -1 }, patient.name),
      h('span', { class: 'muted' }, `${patient.id} · ${patient.sector || 'not admitted'}${patient.bed ? ` · bed ${patient.bed}` : ''}${overview.onRespirator ? ' · respirator' : ''}`),
      age),
    latestOnly ? h('div', { class: 'toolbar' }, h('a', { href: '#/patients' }, 'All patients')) : h('div', { class: 'toolbar' },
      h('span', { role: 'group', 'aria-label': 'Chart period', class: 'toolbar' }, periodButtons),
      h('button', { type: 'button', class: 'secondary', id: 'export-csv', onclick: () => exportCSV(patient, period) }, 'Export CSV'),
      h('button', { type: 'button', class: 'secondary', id: 'export-fhir', onclick: () => exportFHIR(patient, period) }, 'Export FHIR'),
      h('a', { href: '#/patients' }, 'All patients')),
    values, charts,
    h('div', { class: 'charts' },
      h('section', { class: 'card' }, h('h2', {}, 'NEWS2'), news2),
      h('section', { class: 'card' }, h('h2', {}, 'Alerts'), alerts)));

  const drawValues = () => {
    const sub = overview.news2 ? overview.news2.subscores : {};
    replace(values,
      VITALS.map((vital) => {
        const r = overview.vitals[vital.type];
        const range = detail.thresholds[vital.type];
        const low = r && range && r.value < range[0], high = r && range && r.value > range[1];
        return h('div', { class: `vital${low || high ? ' out-of-range' : ''}`, dataset: { type: vital.type } },
          h('div', { class: 'label' }, vital.label, sub[vital.news] ? ` · NEWS ${sub[vital.news]}` : ''),
          h('span', { class: 'value' }, number(r?.value, vital.digits)), h('span', { class: 'unit' }, vital.unit),
          low || high ? h('span', { class: 'range-flag' }, high ? ' ▲ high' : ' ▼ low') : null);
      }),
      h('div', { class: 'vital', dataset: { type: 'consciousness' } }, h('div', { class: 'label' }, 'Consciousness'),
        h('span', { class: 'value' }, overview.vitals.consciousnessLevel ? ACVPU[overview.vitals.consciousnessLevel.value] ?? '–' : '–')),
      h('div', { class: 'vital', dataset: { type: 'oxygen' } }, h('div', { class: 'label' }, 'Supplemental O₂'),
        h('span', { class: 'value' }, overview.vitals.supplementalOxygen ? (overview.vitals.supplementalOxygen.value ? 'Yes' : 'No') : '–')));
    replace(news2, news2Table(overview.news2));
  };
  const tickAge = () => {
    const seconds = secondsSince(overview.lastReadingAt);
    age.textContent = `last reading ${ago(seconds)}`;
    age.classList.toggle('form-error', seconds === null || seconds > STALE_SECONDS);
  };

  let drawing = null;
  let requests = 0;
  const drawCharts = async () => {
    if (latestOnly) return;
    const mine = ++requests;
    const to = new Date(), from = new Date(to.getTime() - period.seconds * 1000);
    const types = VITALS.map((v) => v.type).join(',');
    const series = await api(v1(`patients/${seg(id)}/observations?type=${types}&bucket=${period.bucket}&from=${from.toISOString()}&to=${to.toISOString()}`));
    if (mine !== requests) return; // a later period (or update) was asked for meanwhile
    replace(charts, VITALS.map((vital) => {
      const data = series.find((s) => s.type === vital.type) || { buckets: [] };
      return h('section', { class: 'chart', dataset: { type: vital.type } },
        h('h3', {}, `${vital.label} (${vital.unit})`),
        trendChart({ label: vital.label, unit: vital.unit, digits: vital.digits, buckets: data.buckets, band: detail.thresholds[vital.type] || null, from, to }));
    }));
  };
  const redrawCharts = () => { if (!drawing) drawing = setTimeout(() => { drawing = null; drawCharts().catch(() => {}); }, 1000); };
  const loadAlerts = async () => {
    const list = await api(v1(`alerts?status=all&patient=${seg(id)}`));
    replace(alerts, list.length ? list.slice(0, 20).map((a) => alertItem(a, loadAlerts)) : h('li', { class: 'muted' }, 'No alerts.'));
  };

  drawValues();
  tickAge();
  await Promise.all([drawCharts(), loadAlerts()]);

  const unsubscribe = subscribe((event) => {
    if (event.type === 'resync') { redrawCharts(); loadAlerts().catch(() => {}); return; }
    if (event.patient !== id) return;
    if (event.type === 'samples') {
      for (const o of event.observations) applyObservation(overview, o);
      drawValues();
      tickAge();
      redrawCharts();
    } else if (event.type === 'news2') {
      overview = { ...overview, news2: event.score };
      drawValues();
    } else {
      loadAlerts().catch(() => {});
    }
  });
  const ticker = setInterval(tickAge, 1000);
  const refresher = setInterval(redrawCharts, 60000);
  return () => { unsubscribe(); clearInterval(ticker); clearInterval(refresher); clearTimeout(drawing); };
}

function news2Table(score) {
  if (!score) return h('p', { class: 'muted' }, 'Not enough recent readings for a NEWS2 score.');
  const observed = score.observations || {};
  const shown = {
    respirationRate: observed.respirationRate, oxygenSaturation: observed.oxygenSaturation !== undefined ? `${observed.oxygenSaturation} % (scale ${observed.spO2Scale})` : undefined,
    airOrOxygen: observed.onSupplementalOxygen === undefined ? undefined : observed.onSupplementalOxygen ? 'oxygen' : 'air',
    systolicBloodPressure: observed.systolicBloodPressure, pulse: observed.pulse,
    consciousness: observed.consciousness === undefined ? undefined : ACVPU[observed.consciousness], temperature: observed.temperature,
  };
  return h('div', {},
    h('p', {}, 'Total ', news2Badge(score)),
    h('table', { class: 'news2-table' },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Parameter'), h('th', { scope: 'col' }, 'Reading'), h('th', { scope: 'col', class: 'num' }, 'Score'))),
      h('tbody', {}, NEWS2_PARAMETERS.map(([key, label]) => h('tr', {},
        h('th', { scope: 'row' }, label), h('td', {}, shown[key] ?? 'missing'),
        h('td', { class: `num ${subscoreClass(score.subscores[key])}` }, score.subscores[key] ?? '–'))))));
}

/** Every sample of the period, newest first, fetched page by page (the API returns at
 * most 10,000 per request). */
async function samplesOf(patient, from, to) {
  const pages = [];
  let end = to;
  for (;;) {
    const page = await api(v1(`patients/${seg(patient.id)}/observations?from=${from.toISOString()}&to=${end.toISOString()}&limit=10000`));
    const fresh = pages.length ? page.filter((s) => !pages.at(-1).some((seen) => seen.id === s.id)) : page;
    pages.push(fresh);
    if (page.length < 10000 || !fresh.length) return pages.flat();
    end = new Date(page.at(-1).start);
  }
}

/** A CSV cell: quoted when needed; text that a spreadsheet would run as a formula is
 * prefixed with an apostrophe. */
export function csvCell(value) {
  let text = value === undefined || value === null ? '' : String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

async function exportCSV(patient, period) {
  const to = new Date(), from = new Date(to.getTime() - period.seconds * 1000);
  try {
    const samples = await samplesOf(patient, from, to);
    const lines = [['patient', 'type', 'value', 'unit', 'start', 'end', 'device'].join(',')]
      .concat(samples.slice().reverse().map((s) => [patient.id, s.type, s.value, s.unit, s.start, s.end, s.device].map(csvCell).join(',')));
    download(`${patient.id}-vital-signs-${period.id}.csv`, `${lines.join('\r\n')}\r\n`, 'text/csv');
    toast(`Exported ${samples.length} readings as CSV.`);
  } catch (error) { toast(`Export failed: ${error.message}`, 'alarm'); }
}

async function exportFHIR(patient, period) {
  const to = new Date(), from = new Date(to.getTime() - period.seconds * 1000);
  try {
    const bundle = await api(v1(`patients/${seg(patient.id)}/fhir?from=${from.toISOString()}&to=${to.toISOString()}`));
    download(`${patient.id}-fhir-bundle.json`, JSON.stringify(bundle, null, 2), 'application/fhir+json');
    toast(`Exported a FHIR Bundle of ${(bundle.entry || []).length} resources.`);
  } catch (error) { toast(`Export failed: ${error.message}`, 'alarm'); }
}
