// The resident's days: each day's score under the thesis's HMM against its normal band
// (best day ± σ), the routine profile's verdict and reason, a day's 24-hour activity
// strip, and the reason of the last activity alarm.

import { api, v1, seg } from '../api.js';
import { trendChart } from '../chart.js';
import { h, replace, when } from '../ui.js';

/** A 24-hour strip: one cell per hour, darker with more activations (active from 5). */
export function strip(hourly, { large = false, day = '' } = {}) {
  const active = hourly.filter((n) => n >= 5).length;
  return h('span', { class: `strip${large ? ' large' : ''}`, role: 'img', 'aria-label': `${day}: active ${active} of 24 hours`, dataset: { active } },
    hourly.map((count, hour) => h('span', {
      class: `hour level-${count === 0 ? 0 : count < 5 ? 1 : count < 20 ? 2 : 3}`, title: `${String(hour).padStart(2, '0')}:00: ${count} activation${count === 1 ? '' : 's'}`,
    }, large ? h('span', { class: 'hour-label' }, hour % 3 === 0 ? String(hour).padStart(2, '0') : '') : null)));
}

export async function render(view, context) {
  const { flat } = context;
  const answer = await api(v1(`homes/${seg(flat.id)}/activity?days=30`));
  const days = answer.days;
  const detail = h('section', { class: 'card', id: 'day-detail' });
  // Today is not over: shown, but neither scored in the chart nor judged.
  const judged = (d) => d.complete && d.score > -1e300;
  const scored = days.filter(judged);
  const band = days.find((d) => d.band)?.band || null;
  const dayStart = (d) => new Date(`${d.day}T00:00:00`);
  const buckets = days.map((d) => {
    const start = dayStart(d), end = new Date(start.getTime() + 86400000);
    const ok = judged(d);
    return { start: start.toISOString(), end: end.toISOString(), count: ok ? 1 : 0, average: ok ? d.score : undefined, minimum: ok ? d.score : undefined, maximum: ok ? d.score : undefined };
  });
  const from = days.length ? dayStart(days[0]) : new Date(), to = days.length ? new Date(dayStart(days[days.length - 1]).getTime() + 86400000) : new Date();

  const showDay = (d) => {
    detail.dataset.day = d.day;
    replace(detail,
      h('h2', {}, `${d.day}: 24 hours`),
      strip(d.hourly, { large: true, day: d.day }),
      h('dl', { class: 'facts' },
        h('dt', {}, 'Active hours'), h('dd', {}, `${d.active_hours} of 24 (an hour with 5 or more activations)`),
        h('dt', {}, 'Thesis HMM'), h('dd', {}, !d.complete ? 'judged when the day is over'
          : judged(d) ? `score ${d.score.toFixed(1)}${band ? ` (normal ${band[0].toFixed(1)} … ${band[1].toFixed(1)})` : ''}: ${d.thesis}` : `no score: ${d.thesis}`),
        h('dt', {}, 'Routine profile'), h('dd', {}, !d.complete ? 'judged when the day is over' : d.routine === 'unusual' ? `unusual: ${d.routine_reason}` : 'usual'),
        d.quiet_alarm ? [h('dt', {}, 'Learned quiet'), h('dd', {}, d.quiet_alarm)] : null));
  };

  const rows = days.slice().reverse().map((d) => h('tr', { class: d.complete ? null : 'today', dataset: { day: d.day, thesis: d.thesis, routine: d.routine } },
    h('th', { scope: 'row' }, h('button', { type: 'button', class: 'link-button', onclick: () => { showDay(d); detail.focus(); } }, d.complete ? d.day : `${d.day} (today)`)),
    h('td', { 'data-label': 'Hours' }, strip(d.hourly, { day: d.day })),
    h('td', { 'data-label': 'Active h', class: 'num' }, String(d.active_hours)),
    h('td', { 'data-label': 'Score', class: d.complete ? `num verdict-${d.thesis}` : 'num' }, judged(d) ? d.score.toFixed(1) : '–'),
    h('td', { 'data-label': 'Routine', class: d.complete ? `verdict-${d.routine}` : null },
      !d.complete ? 'so far' : d.routine === 'unusual' ? `unusual: ${d.routine_reason}` : 'usual')));
  detail.tabIndex = -1;

  view.replaceChildren(
    h('section', { class: 'card', id: 'last-activity-alarm' },
      h('h2', {}, 'Last activity alarm'),
      answer.last_alarm
        ? h('p', { class: `severity-${answer.last_alarm.class}` }, h('strong', {}, answer.last_alarm.title), `: ${answer.last_alarm.text} `,
          h('span', { class: 'muted' }, `(${when(answer.last_alarm.raised_at)}, ${answer.last_alarm.state})`))
        : h('p', { class: 'muted' }, 'No activity alarm in these 30 days.')),
    h('section', { class: 'chart', id: 'score-chart' },
      h('h3', {}, 'Each day’s score under the thesis’s HMM, with its normal band (best day ± σ)'),
      trendChart({ label: 'Day score', unit: 'log P', digits: 1, buckets, band, from, to }),
      h('p', { class: 'muted' }, `${scored.length} complete days scored; a day outside the green band is abnormal to the thesis’s model.`)),
    detail,
    h('table', { class: 'responsive activity-days', id: 'activity-days' },
      h('caption', { class: 'visually-hidden' }, 'The last 30 days, newest first'),
      h('thead', {}, h('tr', {}, ['Day', 'Activity by hour', 'Active h', 'Score', 'Routine profile'].map((c) => h('th', { scope: 'col' }, c)))),
      h('tbody', {}, rows)));
  const latest = days.filter((d) => d.complete).pop() || days[days.length - 1];
  if (latest) showDay(latest);
  return null;
}
