// "Post a reading": the wearable thesis's iPhone companion, where the user types a heart
// rate (and, if they like, steps and temperature) and sends it as their phone
// (POST /Api/DataItem, as the watch and the ESP32 do). Made for a phone's width.

import { api } from '../api.js';
import { h, field, errorBox, busy, toast } from '../ui.js';

export function render(main) {
  const heart = h('input', { name: 'heart-rate', type: 'number', inputmode: 'numeric', min: 20, max: 250, step: 1, required: true, autofocus: true });
  const steps = h('input', { name: 'steps', type: 'number', inputmode: 'numeric', min: 0, max: 200000, step: 1 });
  const temperature = h('input', { name: 'temperature', type: 'number', inputmode: 'decimal', min: 30, max: 45, step: 0.1 });
  const submit = h('button', { type: 'submit', id: 'post-reading-submit' }, 'Send');
  const error = errorBox();
  const form = h('form', { class: 'card', id: 'post-reading-form' },
    field('Heart rate (bpm)', heart, 'Count your pulse for 30 seconds and double it, or read it from a monitor.'),
    field('Steps (optional)', steps), field('Temperature in °C (optional)', temperature),
    error, submit);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const body = { heartBpm: Number(heart.value), device: 'Phone (web)' };
    if (steps.value !== '') body.steps = Number(steps.value);
    if (temperature.value !== '') body.temperature = Number(temperature.value);
    const item = await busy(submit, error, () => api('/Api/DataItem', { method: 'POST', body }));
    if (!item) return;
    toast(`Sent: ${body.heartBpm} bpm.`);
    form.reset();
    heart.focus();
  });
  main.replaceChildren(h('section', { class: 'login' },
    h('h1', { tabindex: -1 }, 'Post a reading'),
    h('p', { class: 'muted' }, 'What you send here joins what your watch sends, in ', h('a', { href: '#/my-data' }, 'My data'), '.'),
    form));
}
