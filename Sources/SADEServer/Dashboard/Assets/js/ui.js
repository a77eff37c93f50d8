// Small DOM and formatting helpers shared by the pages. No framework: `h` builds
// elements, the rest formats clinical values the same way everywhere.

/**
 * Creates an element: h('a', { href: '#/x', class: 'link' }, 'text', child…).
 * Properties starting with "on" become listeners; `dataset`, `style` objects are merged;
 * `false`/`null` children are skipped.
 */
export function h(tag, props = {}, ...children) {
  const element = document.createElementNS(
    SVG_TAGS.has(tag) ? 'http://www.w3.org/2000/svg' : 'http://www.w3.org/1999/xhtml', tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') element.addEventListener(key.slice(2), value);
    else if (key === 'dataset') Object.assign(element.dataset, value);
    else if (key === 'style' && typeof value === 'object') Object.assign(element.style, value);
    else if (key in element && !SVG_TAGS.has(tag) && key !== 'list' && key !== 'form') element[key] = value;
    else element.setAttribute(key === 'className' ? 'class' : key, value === true ? '' : value);
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

const SVG_TAGS = new Set(['svg', 'g', 'path', 'rect', 'line', 'polyline', 'circle', 'text', 'title', 'desc']);

/** Replaces an element's children. */
export function replace(element, ...children) {
  element.replaceChildren();
  for (const child of children.flat(Infinity)) if (child) element.append(child);
}

/** The vital signs the dashboard shows, in display order. */
export const VITALS = [
  { type: 'heartRate', label: 'Heart rate', short: 'HR', unit: 'bpm', digits: 0, news: 'pulse' },
  { type: 'oxygenSaturation', label: 'SpO₂', short: 'SpO₂', unit: '%', digits: 0, news: 'oxygenSaturation' },
  { type: 'respiratoryRate', label: 'Respiratory rate', short: 'RR', unit: '/min', digits: 0, news: 'respirationRate' },
  { type: 'bodyTemperature', label: 'Temperature', short: 'Temp', unit: '°C', digits: 1, news: 'temperature' },
  { type: 'bloodPressureSystolic', label: 'Systolic BP', short: 'Sys', unit: 'mmHg', digits: 0, news: 'systolicBloodPressure' },
  { type: 'bloodPressureDiastolic', label: 'Diastolic BP', short: 'Dia', unit: 'mmHg', digits: 0 },
];

/** NEWS2 parameters in the RCP chart's order, with their labels. */
export const NEWS2_PARAMETERS = [
  ['respirationRate', 'Respiration rate'], ['oxygenSaturation', 'SpO₂'], ['airOrOxygen', 'Air or oxygen'],
  ['systolicBloodPressure', 'Systolic BP'], ['pulse', 'Pulse'], ['consciousness', 'Consciousness'],
  ['temperature', 'Temperature'],
];

/** A number with a fixed count of decimals, or an en dash when missing. */
export function number(value, digits = 0) {
  return value === undefined || value === null || Number.isNaN(value) ? '–' : Number(value).toFixed(digits);
}

/** A reading of `vitals[type]` formatted for display. */
export function reading(vitals, type) {
  const vital = VITALS.find((v) => v.type === type);
  return number(vitals?.[type]?.value, vital ? vital.digits : 0);
}

/** "12 s ago", "5 min ago", "3 h ago", "2 d ago". */
export function ago(seconds) {
  if (seconds === undefined || seconds === null) return 'no data';
  if (seconds < 60) return `${Math.max(0, Math.round(seconds))} s ago`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min ago`;
  if (seconds < 86400) return `${Math.round(seconds / 3600)} h ago`;
  return `${Math.round(seconds / 86400)} d ago`;
}

/** How far this browser's clock is ahead of the server's, in milliseconds. */
let serverClockOffset = 0;

/** Learns the server's clock from overviews (`lastReadingAt` + `secondsSinceLastReading`
 * is the server's now), so ages do not depend on this computer's clock. */
export function learnServerClock(overviews) {
  const known = overviews.find((o) => o.lastReadingAt && typeof o.secondsSinceLastReading === 'number');
  if (known) serverClockOffset = Date.now() - (Date.parse(known.lastReadingAt) + known.secondsSinceLastReading * 1000);
}

/** Seconds since an ISO date, on the server's clock. */
export function secondsSince(iso) { return iso ? (Date.now() - serverClockOffset - Date.parse(iso)) / 1000 : null; }

/** The types whose readings count as "last reading" (the server's rule). */
const READING_TYPES = new Set([...VITALS.map((v) => v.type), 'consciousnessLevel', 'supplementalOxygen']);

/** Takes a live observation into an overview: only if newer than what it shows. */
export function applyObservation(overview, o) {
  if (!READING_TYPES.has(o.type)) return;
  const time = o.end || o.start;
  const current = overview.vitals[o.type];
  if (!current || Date.parse(time) >= Date.parse(current.time)) overview.vitals[o.type] = { value: o.value, unit: o.unit, time };
  if (!overview.lastReadingAt || Date.parse(time) > Date.parse(overview.lastReadingAt)) overview.lastReadingAt = time;
}

const BAND_RANK = { high: 3, medium: 2, 'low-medium': 1, low: 0 };
/** The server's order: NEWS2 band, then total, then open alerts, then name. */
export function riskierFirst(a, b) {
  const key = (p) => [p.news2 ? BAND_RANK[p.news2.band] ?? 0 : -1, p.news2 ? p.news2.total : -1, p.openAlerts];
  const left = key(a), right = key(b);
  for (let i = 0; i < left.length; i += 1) if (left[i] !== right[i]) return right[i] - left[i];
  return a.patient.name.localeCompare(b.patient.name);
}

/** A local date and time, short. */
export function when(iso) {
  return iso ? new Date(iso).toLocaleString([], { dateStyle: 'short', timeStyle: 'medium' }) : '–';
}

/** Readings older than this are stale (the monitors post every few seconds). */
export const STALE_SECONDS = 60;

/** The NEWS2 badge: total and band, coloured by the RCP response band. */
export function news2Badge(score) {
  if (!score) return h('span', { class: 'news2 band-none', title: 'No NEWS2: not enough data' }, '–');
  const label = { low: 'low', 'low-medium': 'low–medium', medium: 'medium', high: 'high' }[score.band] || score.band;
  const zero = score.total === 0 ? ' band-zero' : '';
  return h('span', { class: `news2 band-${score.band}${zero}`, title: `NEWS2 ${score.total}, ${label} risk${score.redFlag ? ', a parameter scored 3' : ''}` },
    String(score.total), h('span', { class: 'band-label' }, ` ${label}`), score.redFlag ? h('span', { class: 'red-flag', 'aria-label': 'red flag' }, ' ▲') : null);
}

/** The colour class of a NEWS2 sub-score (0–3). */
export function subscoreClass(score) { return score === undefined ? '' : `sub-${score}`; }

/** A short, polite message shown at the top right and read out by screen readers. */
export function toast(message, kind = 'info', timeout = 6000) {
  const box = document.getElementById('toasts');
  const item = h('div', { class: `toast toast-${kind}`, role: kind === 'alarm' ? 'alert' : null }, message);
  box.append(item);
  setTimeout(() => item.remove(), timeout);
}

/** Offers `text` as a file download. */
export function download(filename, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = h('a', { href: url, download: filename, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

/** A labelled form field; `input` is the control. */
export function field(label, input, hint) {
  if (!input.id) input.id = `f-${Math.random().toString(36).slice(2, 9)}`;
  return h('div', { class: 'field' }, h('label', { for: input.id }, label), input, hint ? h('small', {}, hint) : null);
}

/** A message area for a form's errors (role=alert so it is announced). */
export function errorBox() { return h('p', { class: 'form-error', role: 'alert', hidden: true }); }

/** Shows an error in an errorBox, or hides it with null. */
export function showError(box, error) {
  box.hidden = !error;
  box.textContent = error ? (error.message || String(error)) : '';
}

/** Runs an async form action with its button disabled and errors shown in `box`. */
export async function busy(button, box, action) {
  button.disabled = true;
  showError(box, null);
  try { return await action(); } catch (error) { showError(box, error); return undefined; } finally { button.disabled = false; }
}

/** A check box with its label after it: check('On respirator', { name: 'respirator', checked: true }). */
export function check(label, props = {}) {
  const input = h('input', { type: 'checkbox', ...props });
  return h('label', { class: 'check' }, input, ` ${label}`);
}

/** `<option>`s for a select: `items` are [value, label] pairs; `selected` is a value. */
export function options(items, selected) {
  return items.map(([value, label]) => h('option', { value, selected: value === selected }, label));
}

/**
 * A button that asks before acting: a click shows "question [confirm] [Cancel]" in its
 * place, with the focus on the confirming button; `action` runs on confirmation.
 * Errors are toasted and the button comes back.
 */
export function confirmButton(label, { question, confirm, className = 'secondary', action, props = {} }) {
  const holder = h('span', { class: 'confirm' });
  const button = h('button', { type: 'button', class: className, ...props }, label);
  const ask = () => {
    const yes = h('button', { type: 'button', class: 'danger confirm-yes' }, confirm);
    const no = h('button', { type: 'button', class: 'secondary confirm-no' }, 'Cancel');
    no.addEventListener('click', () => { replace(holder, button); button.focus(); });
    yes.addEventListener('click', async () => {
      yes.disabled = true; no.disabled = true;
      try { await action(); replace(holder, button); } catch (error) { toast(error.message, 'alarm'); replace(holder, button); button.focus(); }
    });
    replace(holder, h('span', { class: 'question' }, question), ' ', yes, ' ', no);
    yes.focus();
  };
  button.addEventListener('click', ask);
  holder.append(button);
  return holder;
}

/**
 * Runs `draw()`, which rebuilds `container`'s children, and puts the focus back where it
 * was: on the element with the same id, or on the same kind of control in the row with
 * the same `data-<key>` — so that live updates do not throw keyboard users out.
 */
export function keepFocus(container, draw, key = 'device') {
  const active = document.activeElement;
  if (!active || !container.contains(active) || active === container) { draw(); return; }
  const id = active.id;
  const row = active.closest(`[data-${key}]`)?.getAttribute(`data-${key}`);
  const kind = `${active.tagName}.${active.getAttribute('class') || ''}`;
  draw();
  if (id && document.getElementById(id)) { document.getElementById(id).focus({ preventScroll: true }); return; }
  const again = row === undefined ? null : container.querySelector(`[data-${key}="${CSS.escape(row)}"]`);
  const same = again && [...again.querySelectorAll(active.tagName)].find((e) => `${e.tagName}.${e.getAttribute('class') || ''}` === kind);
  (same || again?.querySelector('a, button'))?.focus({ preventScroll: true });
}

/** Whole-number thousands separators and a unit, or an en dash: "1,234 m". */
export function amount(value, unit = '', digits = 0) {
  if (value === undefined || value === null || Number.isNaN(value)) return '–';
  const text = Number(value).toLocaleString([], { minimumFractionDigits: digits, maximumFractionDigits: digits });
  return unit ? `${text} ${unit}` : text;
}
