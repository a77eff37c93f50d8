// The flat's messages in the thesis's classes (Table 6.1), live: information fades
// once its time is up, warnings in yellow, alarms in red until a person confirms them
// (which stops the reminders to the carers), silent ones only in the log.

import { api, v1, seg } from '../api.js';
import { MESSAGE_CLASSES } from '../home-ui.js';
import { h, replace, when, toast, keepFocus } from '../ui.js';

export async function render(view, context) {
  const { flat, bus, role } = context;
  let messages = [];
  let draw = () => {};
  const escalations = new Map();
  // Subscribed before the list is fetched: a message raised meanwhile is not missed.
  const upsert = (message) => {
    const index = messages.findIndex((m) => m.id === message.id);
    if (index >= 0) messages[index] = message; else messages.unshift(message);
    loadEscalation(message).finally(draw);
  };
  const stop = bus.on('home_message', (event) => upsert(event.data.message));
  // Where each warning's and alarm's notification of the carers stands, from the server.
  const loadEscalation = async (message) => {
    if (!['alarm', 'warning'].includes(message.class) || message.state === 'logged') return;
    try {
      const one = await api(v1(`homes/${seg(flat.id)}/messages/${seg(message.id)}`));
      if (one.escalation) escalations.set(one.id, one.escalation); else escalations.delete(one.id);
    } catch { /* shown without it */ }
  };
  const load = async () => {
    const fetched = await api(v1(`homes/${seg(flat.id)}/messages?state=all`));
    const known = new Set(fetched.map((m) => m.id));
    messages = [...messages.filter((m) => !known.has(m.id)), ...fetched].sort((a, b) => b.id - a.id);
    await Promise.all(messages.filter((m) => m.state === 'open').map(loadEscalation));
  };
  await load();
  let filter = 'current';
  const list = h('ul', { class: 'alert-list home-messages', id: 'home-messages' });
  const filters = [['current', 'Current'], ['log', 'Log']].map(([id, label]) => h('button', {
    type: 'button', class: 'secondary', 'aria-pressed': String(id === filter), dataset: { filter: id },
    onclick: () => { filter = id; filters.forEach((b) => b.setAttribute('aria-pressed', String(b.dataset.filter === id))); draw(); },
  }, label));

  const fading = (m) => m.class === 'information' && m.state === 'open' && m.expires_at;
  const current = (m) => m.state === 'open' && m.class !== 'silent' && !(m.expires_at && Date.parse(m.expires_at) <= Date.now());

  const confirm = async (message, button) => {
    button.disabled = true;
    try {
      await api(v1(`homes/${seg(flat.id)}/messages/${seg(message.id)}/confirm`), { method: 'POST' });
      const confirmed = await api(v1(`homes/${seg(flat.id)}/messages/${seg(message.id)}`));
      escalations.set(confirmed.id, confirmed.escalation);
      upsert(confirmed);
      toast('Message confirmed: the reminders to the carers stop.');
      view.querySelector('#home-messages')?.focus();
    } catch (error) { toast(error.message, 'alarm'); button.disabled = false; }
  };

  const item = (message) => {
    const escalation = escalations.get(message.id);
    const left = message.expires_at ? (Date.parse(message.expires_at) - Date.now()) / 1000 : null;
    const confirmable = message.state === 'open' && ['alarm', 'warning'].includes(message.class) && role !== 'patient' && role !== 'relative';
    return h('li', {
      class: `alert-item severity-${message.class} state-${message.state}${fading(message) && left < 120 ? ' fading' : ''}`,
      dataset: { message: message.id, class: message.class, state: message.state, key: message.key },
    },
    h('header', {}, h('span', { class: 'severity', title: MESSAGE_CLASSES[message.class] }, message.class), h('h3', {}, message.title)),
    h('p', {}, message.text),
    h('p', { class: 'muted' }, `Raised ${when(message.raised_at)}`,
      message.state === 'confirmed' ? h('strong', { class: 'ack-state' }, ` · confirmed by ${message.confirmed_by} at ${when(message.confirmed_at)}`) : null,
      message.state === 'expired' ? ' · expired' : null,
      message.state === 'open' && message.class === 'alarm' ? h('strong', { class: 'ack-state' }, ' · open until someone confirms it') : null,
      message.state === 'open' && message.expires_at && message.class !== 'alarm' ? ` · until ${when(message.expires_at)}` : null),
    escalation ? h('p', { class: 'escalation-state', dataset: { escalating: String(escalation.escalating) } },
      `${escalation.steps.length} notification${escalation.steps.length === 1 ? '' : 's'} of the carers sent; `,
      escalation.escalating ? 'reminded every 5 minutes until someone confirms' : 'no more reminders') : null,
    confirmable ? h('button', { type: 'button', class: message.class === 'alarm' ? 'danger confirm-message' : 'confirm-message', onclick: (event) => confirm(message, event.currentTarget) },
      message.class === 'alarm' ? 'Confirm alarm' : 'Confirm') : null);
  };

  draw = () => keepFocus(list, () => {
    const shown = messages.filter((m) => filter === 'log' || current(m));
    replace(list, shown.length ? shown.map(item) : h('li', { class: 'muted' }, filter === 'log' ? 'No messages yet.' : 'Nothing needs attention.'));
  }, 'message');

  view.replaceChildren(
    h('div', { class: 'toolbar' }, h('span', { role: 'group', 'aria-label': 'Show', class: 'toolbar' }, filters),
      h('span', { class: 'muted' }, 'Alarms stay until confirmed; information fades after 15 minutes; silent messages are only in the log.')),
    list);
  list.tabIndex = -1;
  draw();
  bus.onResync(() => load().then(draw, (error) => toast(`Messages not brought up to date: ${error.message}`, 'warning')));
  // Information fades and goes when its time is up: redrawn only when that changes what shows.
  const look = () => messages.filter((m) => filter === 'log' || current(m))
    .map((m) => `${m.id}${fading(m) && Date.parse(m.expires_at) - Date.now() < 120000 ? 'f' : ''}`).join(',');
  let seen = look();
  const ticker = setInterval(() => { const now = look(); if (now !== seen) { seen = now; draw(); } }, 5000);
  return () => { stop(); clearInterval(ticker); };
}
