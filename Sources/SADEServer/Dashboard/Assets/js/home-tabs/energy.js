// The flat's energy in the current day, week, month or year of its calendar: what it
// used and what its generators made, per hour, day or month (REQUEST_ENERGY_DATA), and
// the balance.

import { barChart } from '../chart.js';
import { PERIODS, kwh, periodPicker, energyNow } from '../home-ui.js';
import { h, replace } from '../ui.js';

const BUCKET_NAMES = ['hour', 'day', 'week', 'month', 'year'];

export async function render(view, context) {
  const { bus } = context;
  let period = PERIODS[0];
  const chart = h('section', { class: 'chart', id: 'energy-chart' });
  const totals = h('dl', { class: 'facts', id: 'energy-totals' });
  let requests = 0;
  const draw = async () => {
    const mine = ++requests;
    const now = await energyNow(bus, period);
    const data = await bus.request('REQUEST_ENERGY_DATA', { start: now.start, end: new Date(), value: period.chart });
    if (mine !== requests) return;
    replace(totals,
      h('dt', {}, 'Used'), h('dd', { class: 'consumed' }, kwh(now.consumed)),
      h('dt', {}, 'Generated'), h('dd', { class: 'generated' }, kwh(now.generated)),
      h('dt', {}, 'Balance'), h('dd', { class: 'balance-value' }, kwh(now.generated - now.consumed, true)));
    chart.dataset.period = period.id;
    replace(chart, h('h3', {}, `${period.now}: used and generated per ${BUCKET_NAMES[period.chart]} (kWh)`),
      barChart({
        label: `Energy ${period.now.toLowerCase()}`, unit: 'kWh', series: [
          { label: 'used', className: 'consumed', points: data.consumers },
          { label: 'generated', className: 'generated', points: data.generators },
        ],
      }),
      h('p', { class: 'legend muted' }, h('span', { class: 'key consumed' }, 'used'), h('span', { class: 'key generated' }, 'generated')));
  };
  view.replaceChildren(h('div', { class: 'toolbar' }, periodPicker('Period', (p) => { period = p; return draw(); }, { text: (p) => p.now })), totals, chart);
  await draw();
  return null;
}
