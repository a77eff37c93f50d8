// An actuator's control — a switch's on/off button, a dimmer's or the shades' slider
// with two quick buttons — that sends `call_service` over the home event bus and shows
// the state the device confirmed. Built once and updated in place, so that live
// updates never take the keyboard focus away. The device page and a room's popover
// both use it.

import { stateText } from './floorplan.js';
import { h, toast } from './ui.js';

let made = 0;

/**
 * The control of `device` (an actuator of the flat on `bus`). `onConfirmed(state)` gets
 * the confirmed state; `status` is the element that says what is going on (one is made
 * when not given). Returns { element, status, update(state) }.
 */
export function actuatorControl(device, bus, { status = null, onConfirmed = () => {}, compact = false } = {}) {
  const key = `${device.id}-${(made += 1)}`;
  let state = null;
  const line = status || h('span', { class: 'muted actuator-status', role: 'status', dataset: { device: device.id } });
  const call = async (service, data = {}, button = null) => {
    if (button) button.disabled = true;
    line.textContent = 'Sent; waiting for the device to confirm…';
    line.dataset.phase = 'waiting';
    try {
      const result = await bus.command('call_service', {
        domain: device.entity_id.split('.')[0], service, service_data: data, target: { entity_id: device.entity_id },
      });
      update(result.state);
      onConfirmed(result.state);
      line.textContent = `Confirmed by the device: ${stateText(device, result.state)}.`;
      line.dataset.phase = 'confirmed';
    } catch (error) {
      line.textContent = `Not done: ${error.message}`;
      line.dataset.phase = 'failed';
      toast(`${device.name}: ${error.message}`, 'alarm');
    } finally { if (button) button.disabled = false; }
  };

  const position = () => (device.kind === 'shades' ? Number(state?.attributes?.current_position ?? 0)
    : state?.state === 'on' ? Math.round(Number(state?.attributes?.brightness ?? 0) / 2.55) : 0);
  let element;
  let switchButton = null, slider = null, shown = null;
  if (device.kind === 'switchActuator') {
    switchButton = h('button', { type: 'button', class: compact ? 'small switch' : 'switch', id: compact ? null : 'switch', 'aria-label': compact ? `${device.name}: switch` : null });
    switchButton.addEventListener('click', () => call(state?.state === 'on' ? 'turn_off' : 'turn_on', {}, switchButton));
    element = h('div', { class: 'actuator-control' }, compact ? null : h('h2', {}, 'Switch'), switchButton);
  } else {
    const id = compact ? `position-${key}` : 'position';
    slider = h('input', { type: 'range', min: 0, max: 100, step: 1, value: 0, id, class: 'position' });
    shown = h('output', { for: id, id: compact ? null : 'position-value', class: 'position-value' });
    slider.addEventListener('input', () => { shown.textContent = `${slider.value} %`; slider.setAttribute('aria-valuetext', `${slider.value} %`); });
    slider.addEventListener('change', () => (device.kind === 'dimmer'
      ? call('turn_on', { brightness_pct: Number(slider.value) })
      : call('set_cover_position', { position: Number(slider.value) })));
    const label = `${compact ? `${device.name}: ` : ''}${device.kind === 'dimmer' ? 'brightness' : 'shades open'}`;
    const quick = device.kind === 'dimmer' ? [['Off', 'turn_off'], ['Full', 'turn_on']] : [['Close', 'close_cover'], ['Open', 'open_cover']];
    element = h('div', { class: 'actuator-control' },
      compact ? null : h('h2', {}, device.kind === 'dimmer' ? 'Dimmer' : 'Shades'),
      h('label', { for: id, class: compact ? 'visually-hidden' : null }, label.charAt(0).toUpperCase() + label.slice(1)), ' ', slider, ' ', shown, ' ',
      quick.map(([text, service]) => h('button', {
        type: 'button', class: 'secondary small', dataset: { service }, 'aria-label': compact ? `${device.name}: ${text.toLowerCase()}` : null,
        onclick: (event) => call(service, {}, event.currentTarget),
      }, text)));
  }

  /** Shows `next` (a Home Assistant state object), leaving a slider alone while it is being moved. */
  const update = (next) => {
    state = next;
    if (switchButton) {
      const on = state?.state === 'on';
      switchButton.setAttribute('aria-pressed', String(on));
      switchButton.textContent = on ? 'Turn off' : 'Turn on';
    }
    if (slider && document.activeElement !== slider) {
      slider.value = position();
      slider.setAttribute('aria-valuetext', `${position()} %`);
      shown.textContent = `${position()} %`;
    }
  };
  update(null);
  return { element, status: line, update };
}
