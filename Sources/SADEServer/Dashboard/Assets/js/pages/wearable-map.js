// The position map: the user's GPS points drawn offline as SVG on a plain grid of
// latitude and longitude (no map tiles, nothing fetched from elsewhere) — the track in
// time order, each point with its time as a tooltip, the start and the latest point
// marked, a scale bar; the same points as a table for keyboards and screen readers.

import { api } from '../api.js';
import { ticks } from '../chart.js';
import { h, replace, when, amount } from '../ui.js';
import { position } from '../wearable.js';

const LEFT = 78, RIGHT = 16, TOP = 16, BOTTOM = 40;
/** The drawing's size: wide on a desktop, square at phone width (so labels stay legible). */
const WIDE = { W: 800, H: 520 }, NARROW = { W: 430, H: 470 };
const phone = window.matchMedia('(max-width: 700px)');
const METRES_PER_DEGREE = 111320;
/** A track is broken where the device was silent this long. */
const GAP_MS = 30 * 60 * 1000;
/** At most this many of the newest points are drawn. */
const MAX_POINTS = 2000;
const PERIODS = [
  { id: '1h', label: 'Last hour', ms: 3600e3 }, { id: '24h', label: '24 h', ms: 86400e3 },
  { id: '7d', label: '7 days', ms: 7 * 86400e3 }, { id: 'all', label: 'All', ms: Infinity },
];

export async function render(main) {
  const items = await api('/Api/DataItem');
  const located = items.map((item) => ({ item, at: Date.parse(item.sentDate), ...position(item) })).filter((p) => p.lat !== undefined);
  let period = PERIODS.at(-1);
  const figure = h('div', { class: 'map', id: 'map' });
  const note = h('p', { class: 'muted', id: 'map-note', role: 'status' });
  const table = h('details', { class: 'points-table' });
  const buttons = PERIODS.map((p) => h('button', {
    type: 'button', class: 'secondary period', 'aria-pressed': String(p === period), dataset: { period: p.id },
    onclick: () => { period = p; buttons.forEach((b) => b.setAttribute('aria-pressed', String(b.dataset.period === p.id))); draw(); },
  }, p.label));
  main.replaceChildren(
    h('div', { class: 'toolbar' }, h('h1', { tabindex: -1 }, 'Where I went'),
      h('span', { role: 'group', 'aria-label': 'Period', class: 'toolbar' }, buttons),
      h('a', { href: '#/my-data' }, 'My data')),
    note, figure, table);

  const draw = () => {
    const newest = located.length ? located.at(-1).at : 0;
    const inPeriod = located.filter((p) => newest - p.at <= period.ms);
    const points = inPeriod.slice(-MAX_POINTS);
    note.textContent = !located.length ? 'No positions yet: the watch app sends them while it runs.'
      : !points.length ? 'No positions in this period.'
        : `${points.length} position${points.length === 1 ? '' : 's'} from ${when(new Date(points[0].at).toISOString())} to ${when(new Date(points.at(-1).at).toISOString())}`
          + (inPeriod.length > points.length ? ` (the newest ${MAX_POINTS} of ${inPeriod.length})` : '') + '.';
    replace(figure, points.length ? trackMap(points, phone.matches ? NARROW : WIDE) : null);
    replace(table, points.length ? [h('summary', {}, 'The positions as a table'), pointsTable(points)] : null);
  };
  draw();
  phone.addEventListener('change', draw);
  return () => phone.removeEventListener('change', draw);
}

/** The SVG: grid, axes, scale bar, track segments, points. */
export function trackMap(points, { W, H }) {
  const lats = points.map((p) => p.lat), lons = points.map((p) => p.lon);
  const midLat = (Math.min(...lats) + Math.max(...lats)) / 2;
  const squeeze = Math.max(0.05, Math.cos((midLat * Math.PI) / 180));  // a degree of longitude is shorter away from the equator
  // At least ~100 m across, so that one point or a person standing still is not a blur.
  const minimum = 0.001;
  let [south, north] = span(Math.min(...lats), Math.max(...lats), minimum);
  let [west, east] = span(Math.min(...lons), Math.max(...lons), minimum / squeeze);
  const plotW = W - LEFT - RIGHT, plotH = H - TOP - BOTTOM;
  // One scale for both axes (in ground distance), the smaller axis widened to fill.
  const scale = Math.min(plotW / ((east - west) * squeeze), plotH / (north - south));
  [west, east] = span(west, east, plotW / scale / squeeze, true);
  [south, north] = span(south, north, plotH / scale, true);
  const x = (lon) => LEFT + (lon - west) * squeeze * scale;
  const y = (lat) => TOP + (north - lat) * scale;

  const svg = h('svg', {
    viewBox: `0 0 ${W} ${H}`, role: 'img', 'data-points': String(points.length),
    'aria-label': `Map of ${points.length} positions, latitude ${south.toFixed(4)} to ${north.toFixed(4)}, longitude ${west.toFixed(4)} to ${east.toFixed(4)}`,
  });
  svg.append(h('rect', { x: LEFT, y: TOP, width: plotW, height: plotH, class: 'frame' }));
  const latTicks = ticks(south, north, 5, 6), lonTicks = ticks(west, east, W > 600 ? 6 : 3, 6);
  for (const lat of latTicks.values) {
    svg.append(h('line', { x1: LEFT, x2: W - RIGHT, y1: y(lat), y2: y(lat), class: 'grid' }),
      h('text', { x: LEFT - 6, y: y(lat) + 4, 'text-anchor': 'end', class: 'lat-label' }, degrees(lat, latTicks.decimals, 'N', 'S')));
  }
  for (const lon of lonTicks.values) {
    svg.append(h('line', { x1: x(lon), x2: x(lon), y1: TOP, y2: H - BOTTOM, class: 'grid' }),
      h('text', { x: x(lon), y: H - BOTTOM + 16, 'text-anchor': 'middle', class: 'lon-label' }, degrees(lon, lonTicks.decimals, 'E', 'W')));
  }
  svg.append(h('text', { x: LEFT, y: H - 4, class: 'axis-title' }, 'longitude'),
    h('text', { x: 12, y: TOP + plotH / 2, class: 'axis-title', transform: `rotate(-90 12 ${TOP + plotH / 2})`, 'text-anchor': 'middle' }, 'latitude'),
    scaleBar(scale / METRES_PER_DEGREE, W, H));

  for (const run of runs(points)) {
    if (run.length > 1) svg.append(h('polyline', { points: run.map((p) => `${x(p.lon).toFixed(1)},${y(p.lat).toFixed(1)}`).join(' '), class: 'track' }));
  }
  const label = (p) => `${when(p.item.sentDate)} — ${p.lat.toFixed(5)}, ${p.lon.toFixed(5)}${p.item.heartBpm ? ` — ${p.item.heartBpm} bpm` : ''}`;
  points.forEach((p, i) => {
    const kind = i === points.length - 1 ? 'point latest' : i === 0 ? 'point start' : 'point';
    svg.append(h('circle', { cx: x(p.lon).toFixed(1), cy: y(p.lat).toFixed(1), r: kind === 'point' ? 5 : 8, class: kind, dataset: { item: String(p.item.id), time: p.item.sentDate } },
      h('title', {}, `${i === 0 ? 'Start: ' : i === points.length - 1 ? 'Latest: ' : ''}${label(p)}`)));
  });
  return svg;
}

/** [low, high] widened around its middle to at least `minimum` (exactly `minimum` when `exact`), with a margin. */
function span(low, high, minimum, exact = false) {
  const middle = (low + high) / 2;
  const width = exact ? minimum : Math.max(minimum, (high - low) * 1.15);
  return [middle - width / 2, middle + width / 2];
}

/** Consecutive points without a long silence between them. */
function runs(points) {
  const result = [];
  let run = [];
  for (const p of points) {
    if (run.length && p.at - run.at(-1).at > GAP_MS) { result.push(run); run = []; }
    run.push(p);
  }
  if (run.length) result.push(run);
  return result;
}

function degrees(value, decimals, positive, negative) {
  return `${Math.abs(value).toFixed(decimals)}° ${value >= 0 ? positive : negative}`;
}

/** A bar of a round ground distance, at the bottom right of the plot. */
function scaleBar(pixelsPerMetre, W, H) {
  const target = (W - LEFT - RIGHT) / 5 / pixelsPerMetre;
  const magnitude = 10 ** Math.floor(Math.log10(target));
  const metres = [5, 2, 1].map((m) => m * magnitude).find((m) => m <= target) || magnitude;
  const length = metres * pixelsPerMetre;
  const right = W - RIGHT - 12, bottom = H - BOTTOM - 12;
  return h('g', { class: 'scale-bar' },
    h('rect', { x: right - length - 6, y: bottom - 22, width: length + 12, height: 28, class: 'scale-back' }),
    h('line', { x1: right - length, x2: right, y1: bottom, y2: bottom }),
    h('text', { x: right - length / 2, y: bottom - 6, 'text-anchor': 'middle' }, metres >= 1000 ? `${amount(metres / 1000)} km` : `${amount(metres)} m`));
}

function pointsTable(points) {
  return h('table', { class: 'responsive', id: 'map-points' },
    h('thead', {}, h('tr', {}, ['Time', 'Latitude', 'Longitude', 'Heart rate'].map((c) => h('th', { scope: 'col' }, c)))),
    h('tbody', {}, points.slice().reverse().map((p) => h('tr', {},
      h('td', { 'data-label': 'Time' }, when(p.item.sentDate)), h('td', { 'data-label': 'Latitude', class: 'num' }, p.lat.toFixed(6)),
      h('td', { 'data-label': 'Longitude', class: 'num' }, p.lon.toFixed(6)),
      h('td', { 'data-label': 'Heart rate', class: 'num' }, p.item.heartBpm ? `${p.item.heartBpm} bpm` : '–')))));
}
