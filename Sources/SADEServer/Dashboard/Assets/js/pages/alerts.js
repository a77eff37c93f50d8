// The live alert feed: severity styling, who the Contract Net gave each alert to, its
// escalation history, acknowledgement; desktop notifications and the alarm tone.

import { api, v1, seg, session } from '../api.js';
import { subscribe, notificationPermission, requestNotifications, playAlarmTone } from '../live.js';
import { h, replace, when, toast } from '../ui.js';

let staffNames = {};

export async function render(main) {
  // Who took each alert, by name — for staff; a relative (who may not list staff) sees ids.
  const staff = session.get().user.role === 'relative' ? [] : await api(v1('staff')).catch(() => []);
  staffNames = Object.fromEntries(staff.map((s) => [s.id, s.name]));
  let filter = 'open';
  let alerts = await api(v1('alerts?status=all'));
  const list = h('ul', { class: 'alert-list', id: 'alert-feed' });  // new alerts are announced by their toast
  const filters = ['open', 'all'].map((f) => h('button', {
    type: 'button', class: 'secondary', 'aria-pressed': String(f === filter),
    onclick: () => { filter = f; filters.forEach((b) => b.setAttribute('aria-pressed', String(b.textContent.toLowerCase().startsWith(f)))); draw(); },
  }, f === 'open' ? 'Open' : 'All'));
  const permission = h('button', { type: 'button', class: 'secondary', id: 'enable-notifications' });
  const showPermission = () => {
    const state = notificationPermission();
    permission.textContent = state === 'granted' ? 'Desktop notifications on' : state === 'denied' ? 'Desktop notifications blocked' : 'Enable desktop notifications';
    permission.disabled = state !== 'default';
  };
  permission.addEventListener('click', async () => { await requestNotifications(); showPermission(); });
  showPermission();

  main.replaceChildren(
    h('div', { class: 'toolbar' }, h('h1', { tabindex: -1 }, 'Alerts'), h('span', { role: 'group', 'aria-label': 'Show', class: 'toolbar' }, filters),
      permission, h('button', { type: 'button', class: 'secondary', id: 'test-tone', onclick: playAlarmTone }, 'Test alarm sound')),
    list);

  const reload = async () => { alerts = await api(v1('alerts?status=all')); draw(); };
  const draw = () => {
    const shown = alerts.filter((a) => filter === 'all' || !a.acknowledgedAt);
    replace(list, shown.length ? shown.map((a) => alertItem(a, reload)) : h('li', { class: 'muted' }, filter === 'open' ? 'No open alerts.' : 'No alerts.'));
  };
  draw();
  const unsubscribe = subscribe((event) => {
    if (event.type === 'resync') { reload().catch(() => {}); return; }
    if (!['alert', 'acknowledged', 'escalated'].includes(event.type)) return;
    const { type, ...alert } = event;
    const index = alerts.findIndex((a) => a.id === alert.id);
    if (index >= 0) alerts[index] = alert; else alerts.unshift(alert);
    draw();
  });
  return unsubscribe;
}

/** One alert as a list item, with an Acknowledge button while it is open. */
export function alertItem(alert, onChange) {
  const current = session.get();
  const canAcknowledge = current && ['doctor', 'nurse'].includes(current.user.role) && !alert.acknowledgedAt;
  const acknowledge = h('button', { type: 'button', class: 'acknowledge' }, 'Acknowledge');
  acknowledge.addEventListener('click', async () => {
    acknowledge.disabled = true;
    try {
      await api(v1(`alerts/${seg(alert.id)}/acknowledge`), { method: 'POST' });
      toast('Alert acknowledged.');
      await onChange();
    } catch (error) { toast(error.message, 'alarm'); acknowledge.disabled = false; }
  });
  const name = (id) => staffNames[id] ? `${staffNames[id]} (${id})` : id;
  return h('li', { class: `alert-item severity-${alert.severity}${alert.acknowledgedAt ? ' acknowledged' : ''}`, dataset: { alert: alert.id, patient: alert.patient } },
    h('header', {},
      h('span', { class: 'severity' }, alert.severity),
      h('h3', {}, alert.title),
      h('a', { href: `#/patients/${encodeURIComponent(alert.patient)}` }, alert.patient)),
    h('p', {}, alert.message),
    h('p', { class: 'muted' }, `Raised ${when(alert.raisedAt)} · `,
      alert.assignee ? `assigned to ${name(alert.assignee)}` : 'nobody accepted it (e-mailed to the sector)',
      alert.acknowledgedAt ? h('strong', { class: 'ack-state' }, ` · acknowledged by ${name(alert.acknowledgedBy)} at ${when(alert.acknowledgedAt)}`) : h('strong', { class: 'ack-state' }, ' · open')),
    alert.escalations && alert.escalations.length
      ? h('ol', { class: 'escalations', 'aria-label': 'Escalation history', start: 0 }, alert.escalations.map((e) =>
        h('li', {}, `${when(e.at)}: ${e.step === 0 ? 'sent to' : `escalated (step ${e.step}) to`} ${e.recipients.join(', ')}`)))
      : null,
    canAcknowledge ? acknowledge : null);
}
