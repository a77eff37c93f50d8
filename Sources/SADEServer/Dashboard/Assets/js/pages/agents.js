// The Introspector (after JADE's, and Jason's mind inspector), for admins: a platform's
// agents with their state and counters, refreshed every few seconds; one agent's mind —
// beliefs, goals with their plans, behaviours, services, strategies — kept live from its
// event stream, each reasoning cycle's decisions as they happen, and a form that sends
// any agent a message and shows the answers, as JADE's DummyAgent does.

import { api, v1, seg } from '../api.js';
import {
  PERFORMATIVES, clock, localName, messageCard, performativeBadge, pill, platformPage, ticketedStream,
} from '../agent-ui.js';
import { h, replace, field, errorBox, busy, options, when } from '../ui.js';

const LIST_MS = 3000;       // the agent list's refresh
const SNAPSHOT_MS = 250;    // at most one snapshot a quarter second, however many events come
const LOG_CAP = 200;        // entries kept in the event log and the reasoning history

/** The list's counters: the API's key, the column's heading, the cell's class. */
const COUNTERS = [
  ['goals', 'Goals', 'goals'], ['intentions', 'Intentions', 'intentions'], ['behaviours', 'Behaviours', 'behaviours'],
  ['mailboxDepth', 'Mailbox', 'mailbox'], ['messagesSent', 'Sent', 'sent'], ['messagesReceived', 'Received', 'received'],
];

export async function render(main, [platformID, agentName]) {
  const platform = await platformPage(main, {
    title: 'Agents', platformID, hrefOf: (p) => `#/agents/${seg(p.id)}`,
    intro: 'The Introspector: each agent\'s state and message counters, refreshed every few seconds. '
      + 'Choose an agent to watch its beliefs, goals, plans and reasoning change as it works.',
  });
  if (!platform) return null;

  let gone = false;
  const list = agentList(platform, agentName);
  list.draw(await api(v1(`platforms/${seg(platform.id)}/agents`)));
  const mind = h('section', { class: 'card mind', id: 'mind', 'aria-labelledby': 'mind-title' });
  const logs = h('section', { class: 'card mind-logs', id: 'mind-logs', 'aria-label': agentName ? `${agentName}'s reasoning and events` : null, hidden: true });
  main.append(h('div', { class: `introspector${agentName ? ' has-agent' : ''}` },
    list.element, sendForm(platform, list.names(), agentName), mind, logs));

  let listing = false;
  const reloadList = async () => {
    if (listing) return;
    listing = true;
    try {
      const agents = await api(v1(`platforms/${seg(platform.id)}/agents`));
      if (!gone) list.draw(agents);
    } catch (error) { if (!gone) list.stale(error); } finally { listing = false; }
  };
  const watch = agentName ? await watchMind(mind, logs, platform, agentName) : (showNoAgent(mind), { refreshSoon() {}, close() {} });
  const ticker = setInterval(() => { reloadList(); watch.refreshSoon(); }, LIST_MS);
  return () => { gone = true; clearInterval(ticker); watch.close(); };
}

/** The platform's agents as a table, a row per agent updated in place (focus stays). */
function agentList(platform, selected) {
  const body = h('tbody', {});
  const state = h('p', { class: 'muted list-state', id: 'agent-list-state' });
  const rows = new Map();
  let known = [];
  const element = h('section', { class: 'card agents-card', 'aria-labelledby': 'agents-title' },
    h('div', { class: 'toolbar' }, h('h2', { id: 'agents-title' }, `Agents on ${platform.name}`), state),
    h('div', { class: 'table-frame' }, h('table', { class: 'responsive agent-list', id: 'agent-list', 'aria-labelledby': 'agents-title' },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Agent'), h('th', { scope: 'col' }, 'State'),
        COUNTERS.map(([, label]) => h('th', { scope: 'col', class: 'num' }, label)))),
      body)));
  const row = (name) => {
    const href = `#/agents/${seg(platform.id)}/${seg(name)}`;
    const link = h('a', { href, class: 'agent-link', 'aria-current': name === selected ? 'page' : false }, name);
    // The whole row answers a click; the link stays the keyboard's way in.
    return h('tr', { dataset: { agent: name }, class: name === selected ? 'selected' : '', onclick: (event) => { if (!event.target.closest('a')) location.hash = href; } },
      h('th', { scope: 'row', 'data-label': 'Agent' }, link),
      h('td', { class: 'state', 'data-label': 'State' }),
      COUNTERS.map(([, label, cls]) => h('td', { class: `num ${cls}`, 'data-label': label })));
  };
  return {
    element,
    names: () => known.map((a) => a.name),
    draw(agents) {
      known = agents;
      body.querySelector('tr:not([data-agent])')?.remove();  // "No agents", from before
      const wanted = agents.map((agent) => {
        let tr = rows.get(agent.name);
        if (!tr) { tr = row(agent.name); rows.set(agent.name, tr); }
        const cell = tr.querySelector('.state');
        if (cell.textContent !== agent.state) replace(cell, pill(agent.state, 'state'));
        tr.dataset.state = agent.state;
        for (const [key, , cls] of COUNTERS) {
          const value = String(agent[key] ?? '–');
          const td = tr.querySelector(`.${cls}`);
          if (td.textContent !== value) td.textContent = value;
        }
        return tr;
      });
      for (const [name, tr] of rows) if (!agents.some((a) => a.name === name)) { tr.remove(); rows.delete(name); }
      if (wanted.some((tr, i) => body.children[i] !== tr)) wanted.forEach((tr) => body.append(tr));
      if (!agents.length) replace(body, h('tr', {}, h('td', { colspan: 2 + COUNTERS.length, class: 'muted' }, 'No agents on this platform.')));
      state.textContent = `${agents.length} agent${agents.length === 1 ? '' : 's'} · updated ${clock(new Date().toISOString()).slice(0, 8)}`;
      state.classList.remove('form-error');
    },
    stale(error) {
      state.textContent = `Not updated: ${error.message}`;
      state.classList.add('form-error');
    },
  };
}

function showNoAgent(mind) {
  replace(mind, h('h2', { id: 'mind-title' }, 'No agent chosen'),
    h('p', { class: 'muted' }, 'Choose an agent in the list to see its beliefs, goals, plans and reasoning as they change, '
      + 'or send any agent a message with the form.'));
}

/**
 * Shows one agent's mind and keeps it live: its event stream fills the log and the
 * reasoning history (in `logs`), and every event asks for a new snapshot (at most
 * every 250 ms).
 */
async function watchMind(mind, logs, platform, name) {
  const path = v1(`platforms/${seg(platform.id)}/agents/${seg(name)}`);
  let snapshot;
  try {
    snapshot = await api(path);
  } catch (error) {
    // The list and the form stay usable; a transient failure is worth another look.
    const again = h('a', { href: location.hash, class: 'button' }, 'Try again');
    again.addEventListener('click', (event) => { event.preventDefault(); window.dispatchEvent(new HashChangeEvent('hashchange')); });
    replace(mind, h('h2', { id: 'mind-title' }, name), h('p', { class: 'form-error', role: 'alert' }, error.message),
      error.status === 404 ? null : again);
    return { refreshSoon() {}, close() {} };
  }
  const view = mindView(mind, logs, snapshot, platform);
  let closed = false;
  let timer = null;
  let fetching = false;
  let again = false;
  let last = 0;
  const refresh = async () => {
    timer = null;
    if (closed) return;
    fetching = true;
    last = Date.now();
    try {
      const fresh = await api(path);
      if (!closed) view.draw(fresh);
    } catch (error) {
      if (closed) return;
      view.problem(error.status === 404 ? `${name} is no longer on the platform.` : `Not updated: ${error.message}`);
      if (error.status === 404) stop();  // gone: no more asking every few seconds
    } finally {
      fetching = false;
      if (again && !closed) { again = false; refreshSoon(); }
    }
  };
  function refreshSoon() {
    if (closed || timer) return;
    if (fetching) { again = true; return; }
    timer = setTimeout(refresh, Math.max(0, SNAPSHOT_MS - (Date.now() - last)));
  }
  const logged = (type) => (data) => { view.log(type, data); refreshSoon(); };
  const close = ticketedStream(`${path}/events`, {
    state: logged('state'), belief: logged('belief'), goal: logged('goal'), plan: logged('plan'),
    message: logged('message'), failed: logged('failed'), behaviour: logged('behaviour'),
    reasoned: (record) => { view.reasoned(record); refreshSoon(); },
  }, {
    onOpen: refreshSoon, probe: path,
    onState: (state, error) => {
      view.live(state);
      if (state !== 'failed') return;
      view.problem(error?.status === 404 ? `${name} is no longer on the platform.` : `Not watched any more: ${error?.message}`);
      stop();
    },
  });
  function stop() { closed = true; clearTimeout(timer); close(); }
  return { refreshSoon, close: stop };
}

/** The mind's sections, built once and filled from each snapshot, and its logs. */
function mindView(mind, logs, first, platform) {
  const live = h('span', { class: 'live-dot', id: 'mind-live', dataset: { state: 'closed' } }, 'connecting…');
  const state = h('span', { class: 'mind-state' });
  const problem = h('p', { class: 'form-error', role: 'alert', hidden: true });
  const counters = h('div', { class: 'summary counters', id: 'mind-counters' });
  const goals = h('tbody', {});
  const beliefs = h('tbody', {});
  const behaviours = h('ul', { class: 'chips', id: 'behaviours' });
  const services = h('div', { id: 'services' });
  const strategies = h('div', { id: 'strategies' });
  const reasoning = h('ul', { class: 'reasoning-log', id: 'reasoning' }, emptyNote('No reasoning cycle yet: it shows as soon as one runs.'));
  const events = h('ul', { class: 'event-log', id: 'agent-events' }, emptyNote('No events yet.'));
  const scroller = (label, child) => h('div', { class: 'log-frame', tabindex: 0, role: 'region', 'aria-label': label }, child);

  replace(mind,
    h('header', { class: 'mind-head' },
      h('h2', { id: 'mind-title' }, first.name), state, live,
      h('span', { class: 'muted identifier' }, first.identifier)),
    problem, counters,
    h('h3', { id: 'goals-title' }, 'Goals and intentions'),
    h('div', { class: 'table-frame' }, h('table', { class: 'responsive goals', id: 'goals', 'aria-labelledby': 'goals-title' },
      h('thead', {}, h('tr', {}, ['Goal', 'Kind', 'Status', 'Running now', 'Plans'].map((t) => h('th', { scope: 'col' }, t)))), goals)),
    h('h3', { id: 'beliefs-title' }, 'Beliefs'),
    h('div', { class: 'table-frame beliefs-frame', tabindex: 0, role: 'region', 'aria-labelledby': 'beliefs-title' },
      h('table', { class: 'responsive beliefs', id: 'beliefs' },
        h('thead', {}, h('tr', {}, ['Belief', 'Value', 'Type', 'Expires'].map((t) => h('th', { scope: 'col' }, t)))), beliefs)),
    h('div', { class: 'mind-columns' },
      h('section', { 'aria-labelledby': 'behaviours-title' }, h('h3', { id: 'behaviours-title' }, 'Behaviours'), behaviours),
      h('section', { 'aria-labelledby': 'services-title' }, h('h3', { id: 'services-title' }, 'Services'), services)),
    h('section', { 'aria-labelledby': 'strategies-title' }, h('h3', { id: 'strategies-title' }, 'Reasoning strategies'), strategies));
  logs.hidden = false;
  replace(logs, h('div', { class: 'mind-columns logs' },
    h('section', { 'aria-labelledby': 'reasoning-title' }, h('h2', { id: 'reasoning-title' }, 'Reasoning cycles'),
      h('p', { class: 'muted hint' }, 'Newest first: why the cycle ran, the options, which goals deliberation chose or left waiting, the plans selected.'),
      scroller('Reasoning cycles', reasoning)),
    h('section', { 'aria-labelledby': 'events-title' }, h('h2', { id: 'events-title' }, 'Events'),
      h('p', { class: 'muted hint' }, 'Newest first: state, beliefs, goals, plans, messages handled, failures.'),
      scroller('Events', events))));

  // A snapshot like the one shown is not drawn again: a busy agent's tables would be
  // rebuilt four times a second, losing a selection and a screen reader's place.
  let shown = '';
  const draw = (s) => {
    const text = JSON.stringify(s);
    if (text === shown) return;
    shown = text;
    problem.hidden = true;
    replace(state, pill(s.state, 'state'));
    replace(counters, [
      ['mailbox', 'Mailbox', s.mailboxDepth, 'messages waiting'], ['sent', 'Sent', s.messagesSent, 'messages'],
      ['received', 'Received', s.messagesReceived, 'messages'], ['conversations', 'Conversations', s.conversations, 'running'],
    ].map(([key, label, value, unit]) => h('div', { class: 'tile', dataset: { counter: key } },
      h('div', { class: 'label' }, label), h('div', { class: 'value' }, String(value ?? '–')), h('div', { class: 'muted' }, unit))));
    replace(goals, (s.goals || []).length ? s.goals.map(goalRow) : h('tr', {}, h('td', { colspan: 5, class: 'muted' }, 'No goals.')));
    replace(beliefs, (s.beliefs || []).length ? s.beliefs.map(beliefRow) : h('tr', {}, h('td', { colspan: 4, class: 'muted' }, 'No beliefs.')));
    replace(behaviours, (s.behaviours || []).length ? s.behaviours.map((b) => h('li', { dataset: { behaviour: b } }, b)) : h('li', { class: 'muted none' }, 'None running.'));
    replace(services, (s.services || []).length ? h('ul', { class: 'service-list' }, s.services.map(serviceItem)) : h('p', { class: 'muted' }, 'None published.'));
    replace(strategies, facts(s.strategies || {}));
  };
  draw(first);

  const prepend = (list, item) => {
    list.querySelector('.empty-note')?.remove();
    list.prepend(item);
    while (list.children.length > LOG_CAP) list.lastElementChild.remove();
  };
  return {
    draw,
    problem(message) { problem.hidden = false; problem.textContent = message; },
    live(streamState) {
      live.dataset.state = streamState;
      live.textContent = { open: '● live', reconnecting: '○ reconnecting', offline: '○ offline, retrying', closed: '', failed: '○ not live' }[streamState] || '';
    },
    log(type, data) { prepend(events, eventItem(type, data, platform.name)); },
    reasoned(record) { prepend(reasoning, reasoningItem(record)); },
  };
}

function emptyNote(text) { return h('li', { class: 'muted empty-note' }, text); }

function goalRow(goal) {
  return h('tr', { dataset: { goal: goal.name, status: goal.status }, class: goal.isIntended ? 'intended' : '' },
    h('th', { scope: 'row', 'data-label': 'Goal' }, h('span', { class: 'goal-name' }, goal.name),
      goal.isIntended ? h('span', { class: 'intention-mark', title: 'An intention pursues this goal now' }, 'intention') : null),
    h('td', { class: 'kind', 'data-label': 'Kind' }, goal.kind),
    h('td', { class: 'status', 'data-label': 'Status', dataset: { status: goal.status } }, pill(goal.status)),
    h('td', { class: 'action', 'data-label': 'Running now' }, goal.action ? h('code', {}, goal.action) : h('span', { class: 'muted' }, '–')),
    h('td', { class: 'plans', 'data-label': 'Plans' }, (goal.plans || []).length
      ? h('ul', { class: 'plan-list' }, goal.plans.map((p) => h('li', { dataset: { plan: p.name, status: p.status } }, h('span', { class: 'plan-name' }, p.name), ' ', pill(p.status))))
      : h('span', { class: 'muted' }, 'no plans')));
}

function beliefRow(belief) {
  return h('tr', { dataset: { belief: belief.name } },
    h('th', { scope: 'row', 'data-label': 'Belief' }, belief.name),
    h('td', { class: 'value', 'data-label': 'Value' }, h('code', {}, belief.value)),
    h('td', { class: 'type', 'data-label': 'Type' }, belief.type),
    h('td', { class: 'expires', 'data-label': 'Expires' }, expiry(belief.expiresAt)));
}

/** An expiry as the API gives it: an ISO date, or seconds on the platform's clock. */
function expiry(value) {
  if (value === undefined || value === null) return h('span', { class: 'muted' }, 'never');
  if (typeof value === 'number') return `at ${value.toFixed(1)} s (platform clock)`;
  return when(value);
}

function serviceItem(service) {
  const { name, type, protocols, ...rest } = service;
  const more = Object.entries(rest).filter(([, v]) => v !== null && v !== undefined && (typeof v !== 'object' || Object.keys(v).length));
  return h('li', { dataset: { service: name } },
    h('strong', {}, name), type ? h('span', { class: 'muted' }, ` · ${type}`) : null,
    (protocols || []).length ? h('div', { class: 'chips small' }, protocols.map((p) => h('span', {}, p))) : null,
    more.length ? h('div', { class: 'muted service-more' }, more.map(([k, v]) => `${words(k)}: ${Array.isArray(v) ? v.join(', ')
      : typeof v === 'object' ? Object.entries(v).map(([a, b]) => `${a}=${b}`).join(', ') : v}`).join(' · ')) : null);
}

/** "optionGeneration" → "option generation". */
function words(key) { return key.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase(); }

/** Key–value pairs as a definition list (strategies), whatever keys come. */
function facts(pairs) {
  const entries = Object.entries(pairs);
  if (!entries.length) return h('p', { class: 'muted' }, 'None reported.');
  return h('dl', { class: 'facts strategy-facts' }, entries.map(([k, v]) => [h('dt', {}, words(k)), h('dd', { dataset: { strategy: k } }, h('code', {}, String(v)))]));
}

/** One event of the agent's stream as a log line. */
function eventItem(type, data, platformName) {
  const name = (full) => localName(full, platformName);
  let text;
  switch (type) {
    case 'state': text = ['state → ', pill(data.state, 'state')]; break;
    case 'belief': text = ['belief ', h('code', {}, data.belief), ' set, changed or removed']; break;
    case 'goal': text = [h('strong', {}, data.goal), ' → ', pill(data.status)]; break;
    case 'plan': text = [h('strong', {}, data.goal), ': plan ', h('code', {}, data.plan), ' → ', pill(data.status)]; break;
    case 'message': {
      const m = data.message || {};
      const content = m.content && m.content.length > 80 ? `${m.content.slice(0, 80)}…` : m.content;
      text = ['handled ', performativeBadge(m.performative), ` from ${m.sender ? name(m.sender) : '(unknown)'}`, content ? h('code', { class: 'content' }, ` ${content}`) : null];
      break;
    }
    case 'failed': text = [h('strong', {}, data.activity), ' failed: ', data.reason]; break;
    case 'behaviour': text = ['behaviour ', h('code', {}, data.behaviour), ' finished']; break;
    default: text = [JSON.stringify(data)];
  }
  return h('li', { class: `event event-${type}`, dataset: { event: type } },
    h('time', { datetime: data.at }, clock(data.at)), h('span', { class: 'event-type' }, type), h('span', { class: 'event-text' }, text));
}

/** One reasoning cycle: why it ran, the options, deliberation's choice, the plans selected. */
function reasoningItem(record) {
  const goals = (list, cls) => (list || []).length ? list.map((g) => h('span', { class: `goal-chip ${cls}` }, g)) : h('span', { class: 'muted' }, 'none');
  const selected = Object.entries(record.selected || {});
  const withoutPlan = record.withoutPlan || [];
  return h('li', { class: 'reasoning-record' },
    h('header', {}, h('time', { datetime: record.at }, clock(record.at)), h('span', { class: 'trigger' }, record.trigger)),
    h('dl', { class: 'cycle' },
      h('dt', {}, 'Options'), h('dd', { class: 'options' }, (record.options || []).length
        ? record.options.map((o) => h('span', { class: 'option', dataset: { goal: o.goal } }, o.goal, ' ', pill(o.status)))
        : h('span', { class: 'muted' }, 'none')),
      h('dt', {}, 'Chosen'), h('dd', { class: 'chosen' }, goals(record.chosen, 'chosen')),
      h('dt', {}, 'Left waiting'), h('dd', { class: 'not-chosen' }, goals(record.notChosen, 'waiting')),
      h('dt', {}, 'Plans selected'), h('dd', { class: 'selected' }, selected.length
        ? selected.map(([goal, plans]) => h('div', {}, h('strong', {}, goal), ' → ', plans.length ? plans.join(', ') : 'none'))
        : h('span', { class: 'muted' }, 'none')),
      withoutPlan.length ? [h('dt', {}, 'No plan for'), h('dd', { class: 'without-plan' }, goals(withoutPlan, 'failed'))] : null),
    h('details', { class: 'strategies' }, h('summary', {}, 'Strategies'), facts(record.strategies || {})));
}

/** JADE's DummyAgent: any message to any agent of the platform, and the answers. */
function sendForm(platform, names, selected) {
  const receiver = h('input', { name: 'receiver', required: true, value: selected || '', list: 'agent-names', autocomplete: 'off', maxlength: 256, spellcheck: 'false' });
  const performative = h('select', { name: 'performative' }, options(PERFORMATIVES.map((p) => [p, p]), 'request'));
  const content = h('textarea', { name: 'content', rows: 3, maxlength: 10000, spellcheck: 'false', placeholder: '(ping 42)' });
  const protocol = h('input', { name: 'protocol', autocomplete: 'off', maxlength: 200, placeholder: 'fipa-request', spellcheck: 'false' });
  const ontology = h('input', { name: 'ontology', autocomplete: 'off', maxlength: 200, spellcheck: 'false' });
  const language = h('input', { name: 'language', autocomplete: 'off', maxlength: 200, spellcheck: 'false' });
  const timeout = h('input', { name: 'timeout', type: 'number', min: 0.1, max: 10, step: 0.1, value: 3, required: true });
  const submit = h('button', { type: 'submit', id: 'send-submit' }, 'Send');
  const box = errorBox();
  const replies = h('div', { id: 'send-replies', class: 'send-replies' });
  const form = h('form', { class: 'card', id: 'send-form', 'aria-labelledby': 'send-title' },
    h('h2', { id: 'send-title' }, 'Send a message'),
    h('p', { class: 'muted hint' }, `Sent by the agent inspector:dashboard@${platform.name}; its answers are collected until the final one or the timeout.`),
    h('datalist', { id: 'agent-names' }, names.map((n) => h('option', { value: n }))),
    h('div', { class: 'form-row' }, field('Receiver', receiver), field('Performative', performative)),
    field('Content', content),
    h('details', { class: 'more-fields' }, h('summary', {}, 'Protocol, ontology, language, timeout'),
      h('div', { class: 'form-row' }, field('Protocol', protocol), field('Ontology', ontology), field('Language', language),
        field('Wait for answers (s)', timeout, '0.1 to 10'))),
    box, submit, replies);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    busy(submit, box, async () => {
      const seconds = Number(timeout.value);
      const body = { receiver: receiver.value.trim(), performative: performative.value, content: content.value, timeout: seconds };
      for (const [key, input] of [['protocol', protocol], ['ontology', ontology], ['language', language]]) {
        if (input.value.trim()) body[key] = input.value.trim();
      }
      replace(replies, h('p', { class: 'muted', role: 'status' }, `Sent; waiting up to ${seconds} s for the answers…`));
      try {
        const answer = await api(v1(`platforms/${seg(platform.id)}/messages`), { method: 'POST', body });
        const got = answer.replies || [];
        replace(replies,
          h('p', { class: 'visually-hidden', role: 'status' }, `${got.length} repl${got.length === 1 ? 'y' : 'ies'}.`),
          messageCard(answer.sent, platform.name, 'sent'),
          got.map((m, i) => messageCard(m, platform.name, got.length === 1 ? 'reply' : `reply ${i + 1}`)),
          answer.timedOut ? h('p', { class: 'timed-out' }, got.length ? `No further reply within ${seconds} s.` : `No reply within ${seconds} s.`) : null);
      } catch (error) {
        replace(replies);
        throw error;
      }
    });
  });
  return form;
}
