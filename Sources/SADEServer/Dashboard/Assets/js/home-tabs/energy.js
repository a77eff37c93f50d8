// The flat's energy: what it used and what its generators made, per hour, day or
// month of the chosen period (REQUEST_ENERGY_DATA), and the balance.

import { barChart } from '../chart.js';
import { PERIODS, kwh } from '../home-ui.js';
import { h, replace, toast } from '../ui.js';

export async function render(view, context) {
  const { bus } = context;
  let period = PERIODS[0];
  const chart = h('section', { class: 'chart', id: 'energy-chart' });
  const totals = h('dl', { class: 'facts', id: 'energy-totals' });
  const buttons = PERIODS.map((p) => h('button', {
    type: 'button', class: 'secondary period', 'aria-pressed': String(p === period), dataset: { period: p.id },
    onclick: () => { period = p; buttons.forEach((b) => b.setAttribute('aria-pressed', String(b.dataset.period === p.id))); draw().catch((e) => toast(e.message, 'warning')); },
  }, p.label));
  let requests = 0;
  const draw = async () => {
    const mine = ++requests;
    const end = new Date(), start = new Date(end - period.seconds * 1000);
    const data = await bus.request('REQUEST_ENERGY_DATA', { start, end, value: period.energy });
    if (mine !== requests) return;
    const sum = (rows) => rows.reduce((a, r) => a + r[1], 0);
    const consumed = sum(data.consumers), generated = sum(data.generators);
    replace(totals,
      h('dt', {}, 'Used'), h('dd', { class: 'consumed' }, kwh(consumed)),
      h('dt', {}, 'Generated'), h('dd', { class: 'generated' }, kwh(generated)),
      h('dt', {}, 'Balance'), h('dd', { class: 'balance-value' }, kwh(generated - consumed, true)));
    replace(chart, h('h3', {}, `Used and generated per ${data.period} (kWh)`),
      barChart({
        label: 'Energy', unit: 'kWh', series: [
          { label: 'used', className: 'consumed', points: data.consumers },
          { label: 'generated', className: 'generated', points: data.generators },
        ],
      }),
      h('p', { class: 'legend muted' }, h('span', { class: 'key consumed' }, 'used'), h('span', { class: 'key generated' }, 'generated')));
  };
  view.replaceChildren(h('div', { class: 'toolbar' }, h('span', { role: 'group', 'aria-label': 'Period', class: 'toolbar' }, buttons)), totals, chart);
  await draw();
  return null;
}
