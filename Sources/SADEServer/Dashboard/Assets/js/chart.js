// Trend charts drawn as SVG: the average per bucket as a line (broken where there is
// no data), the minimum–maximum range as a shaded envelope, and the patient's typical
// range as a green band.

import { h, number } from './ui.js';

const W = 600, H = 200, LEFT = 44, RIGHT = 10, TOP = 10, BOTTOM = 26;

/**
 * A chart of `series.buckets` ({start, end, average, minimum, maximum, count}) between
 * `from` and `to` (Dates). `band` is [lower, upper] or null. The SVG carries
 * data-points (buckets with data), data-latest (the last average) and data-maximum for
 * tests, and an
 * aria-label that says the same in words.
 */
export function trendChart({ label, unit, digits = 0, buckets, band, from, to }) {
  const filled = buckets.filter((b) => b.count > 0 && b.average !== undefined);
  const latest = filled.length ? filled[filled.length - 1].average : null;
  const svg = h('svg', {
    viewBox: `0 0 ${W} ${H}`, role: 'img',
    'aria-label': filled.length
      ? `${label}: ${filled.length} periods with readings, latest average ${number(latest, digits)} ${unit}`
      : `${label}: no data in this period`,
    'data-points': String(filled.length), 'data-latest': latest === null ? '' : String(latest),
    'data-maximum': filled.length ? String(Math.max(...filled.map((b) => b.maximum ?? b.average))) : '',
  });
  const values = filled.flatMap((b) => [b.minimum ?? b.average, b.maximum ?? b.average]);
  if (band) values.push(band[0], band[1]);
  if (!filled.length) {
    svg.append(h('text', { x: W / 2, y: H / 2, 'text-anchor': 'middle', class: 'empty' }, 'No data in this period'));
    return svg;
  }
  let low = Math.min(...values), high = Math.max(...values);
  const pad = (high - low) * 0.08 || Math.max(1, Math.abs(high) * 0.05);
  low -= pad; high += pad;
  const x = (date) => LEFT + ((date - from) / (to - from)) * (W - LEFT - RIGHT);
  const y = (value) => TOP + (1 - (value - low) / (high - low)) * (H - TOP - BOTTOM);

  const { values: tickValues, decimals } = ticks(low, high, 4, digits);
  for (const tick of tickValues) {
    svg.append(h('line', { x1: LEFT, x2: W - RIGHT, y1: y(tick), y2: y(tick), class: 'grid' }),
      h('text', { x: LEFT - 4, y: y(tick) + 4, 'text-anchor': 'end' }, number(tick, decimals)));
  }
  if (band) {
    svg.append(h('rect', { x: LEFT, width: W - LEFT - RIGHT, y: y(band[1]), height: Math.max(0, y(band[0]) - y(band[1])), class: 'band' },
      h('title', {}, `Typical range ${band[0]}–${band[1]} ${unit}`)));
  }
  for (const segment of segments(buckets)) {
    const middle = (b) => new Date((Date.parse(b.start) + Date.parse(b.end)) / 2);
    const upper = segment.map((b) => `${x(middle(b)).toFixed(1)},${y(b.maximum ?? b.average).toFixed(1)}`);
    const lower = segment.slice().reverse().map((b) => `${x(middle(b)).toFixed(1)},${y(b.minimum ?? b.average).toFixed(1)}`);
    svg.append(h('path', { d: `M${upper.concat(lower).join('L')}Z`, class: 'envelope' }));
    const line = segment.map((b) => `${x(middle(b)).toFixed(1)},${y(b.average).toFixed(1)}`);
    svg.append(segment.length === 1
      ? h('circle', { cx: line[0].split(',')[0], cy: line[0].split(',')[1], r: 3, class: 'line' })
      : h('path', { d: `M${line.join('L')}`, class: 'line' }));
  }
  svg.append(h('line', { x1: LEFT, x2: LEFT, y1: TOP, y2: H - BOTTOM, class: 'axis' }),
    h('line', { x1: LEFT, x2: W - RIGHT, y1: H - BOTTOM, y2: H - BOTTOM, class: 'axis' }));
  const span = to - from;
  for (let i = 0; i <= 4; i += 1) {
    const at = new Date(from.getTime() + (span * i) / 4);
    const text = span > 2 * 86400000
      ? at.toLocaleDateString([], { month: 'short', day: 'numeric' })
      : at.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
    svg.append(h('text', { x: x(at), y: H - 8, 'text-anchor': i === 0 ? 'start' : i === 4 ? 'end' : 'middle' }, text));
  }
  return svg;
}

/** Runs of consecutive buckets with data. */
function segments(buckets) {
  const runs = [];
  let run = [];
  for (const b of buckets) {
    if (b.count > 0 && b.average !== undefined) run.push(b);
    else if (run.length) { runs.push(run); run = []; }
  }
  if (run.length) runs.push(run);
  return runs;
}

/** About `count` round tick values between low and high, never finer than the
 * value's own precision (`digits` decimals), and the decimals that label them apart. */
export function ticks(low, high, count, digits) {
  const raw = (high - low) / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = Math.max([1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) || raw, 10 ** -digits);
  const values = [];
  for (let v = Math.ceil(low / step) * step; v <= high; v += step) values.push(Number(v.toFixed(6)));
  return { values, decimals: Math.max(0, -Math.floor(Math.log10(step))) };
}

/**
 * Bars side by side per bucket: `series` is [{label, className, points: [[ms, value]…]}]
 * on the same buckets. The SVG carries data-points (buckets) and data-total-<class>.
 */
export function barChart({ label, unit, series, digits = 1 }) {
  const starts = [...new Set(series.flatMap((s) => s.points.map((p) => p[0])))].sort((a, b) => a - b);
  const totals = Object.fromEntries(series.map((s) => [`data-total-${s.className}`, String(s.points.reduce((a, p) => a + p[1], 0))]));
  const svg = h('svg', {
    viewBox: `0 0 ${W} ${H}`, role: 'img', 'data-points': String(starts.length), ...totals,
    'aria-label': starts.length
      ? `${label}: ${series.map((s) => `${s.label} ${number(s.points.reduce((a, p) => a + p[1], 0), digits)} ${unit}`).join(', ')}`
      : `${label}: no data in this period`,
  });
  if (!starts.length) {
    svg.append(h('text', { x: W / 2, y: H / 2, 'text-anchor': 'middle', class: 'empty' }, 'No data in this period'));
    return svg;
  }
  const values = series.flatMap((s) => s.points.map((p) => p[1]));
  const high = Math.max(...values, 0) * 1.08 || 1;
  const y = (value) => TOP + (1 - value / high) * (H - TOP - BOTTOM);
  const slot = (W - LEFT - RIGHT) / starts.length;
  const bar = Math.max(1, (slot * 0.8) / series.length);
  const { values: tickValues, decimals } = ticks(0, high, 4, digits);
  for (const tick of tickValues) {
    svg.append(h('line', { x1: LEFT, x2: W - RIGHT, y1: y(tick), y2: y(tick), class: 'grid' }),
      h('text', { x: LEFT - 4, y: y(tick) + 4, 'text-anchor': 'end' }, number(tick, decimals)));
  }
  series.forEach((s, index) => {
    const byStart = new Map(s.points.map((p) => [p[0], p[1]]));
    starts.forEach((start, i) => {
      const value = byStart.get(start);
      if (value === undefined) return;
      svg.append(h('rect', { x: LEFT + i * slot + slot * 0.1 + index * bar, width: bar, y: y(Math.max(0, value)), height: Math.max(0, y(0) - y(Math.max(0, value))), class: `bar ${s.className}` },
        h('title', {}, `${new Date(start).toLocaleString([], { dateStyle: 'short', timeStyle: 'short' })}: ${s.label} ${number(value, digits)} ${unit}`)));
    });
  });
  svg.append(h('line', { x1: LEFT, x2: W - RIGHT, y1: y(0), y2: y(0), class: 'axis' }));
  const labelAt = (i) => {
    const at = new Date(starts[i]);
    const span = starts[starts.length - 1] - starts[0];
    return span >= 2 * 86400000 ? at.toLocaleDateString([], { month: 'short', day: 'numeric' }) : at.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  };
  for (const i of [...new Set([0, Math.floor((starts.length - 1) / 2), starts.length - 1])]) {
    svg.append(h('text', { x: LEFT + i * slot + slot / 2, y: H - 8, 'text-anchor': 'middle' }, labelAt(i)));
  }
  return svg;
}
