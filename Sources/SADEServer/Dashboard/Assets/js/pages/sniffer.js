// The Sniffer (after JADE's), for admins: the ACL messages the chosen agents send and
// receive, live, as a sequence diagram — a lane per agent, an arrow per message and
// receiver, coloured by what the performative does. Filters by conversation and
// performative, the full message on a click, export in the FIPA string form.
//
// Each arrow is drawn once, relative to its row; filtering or dropping old messages
// only moves rows (a transform) and hides arrows, so a busy platform stays cheap.

import { api, v1, seg } from '../api.js';
import {
  FAMILY_LABELS, clock, familyOf, localName, messageFacts, platformPage, shortID, ticketedStream,
} from '../agent-ui.js';
import { h, replace, errorBox, showError, download, toast } from '../ui.js';

const CAP = 500;          // messages kept; the oldest go first
const GUTTER = 84;        // the time column
const LANE_W = 128;
const HEAD_H = 40;
const TOP = HEAD_H + 26;  // the first row's line
const ROW_H = 30;
const NO_CONVERSATION = '(none)';

export async function render(main, [platformID]) {
  const platform = await platformPage(main, {
    title: 'Sniffer', platformID, hrefOf: (p) => `#/sniffer/${seg(p.id)}`,
    intro: 'The messages the chosen agents send and receive, live, as a sequence diagram. '
      + 'Choose an arrow to read its message; filter by conversation to follow one protocol through.',
  });
  if (!platform) return null;
  const agents = await api(v1(`platforms/${seg(platform.id)}/agents`));
  const diagram = sequenceDiagram(platform);
  const controls = sniffControls(agents, diagram);
  main.append(controls.element, h('div', { class: 'sniffer-layout' }, diagram.element, diagram.detail));
  return controls.stop;
}

/** The agents to sniff, "all agents", and the start/stop button. */
function sniffControls(agents, diagram) {
  const all = h('input', { type: 'checkbox', id: 'sniff-all', name: 'sniff-all' });
  const boxes = agents.map((a) => h('input', { type: 'checkbox', name: 'sniff-agent', value: a.name }));
  const start = h('button', { type: 'button', id: 'sniff-start' }, 'Start sniffing');
  const state = h('span', { class: 'muted', id: 'sniff-state', role: 'status' }, 'Not sniffing.');
  const box = errorBox();
  let close = null;
  let restart = null;

  const chosen = () => (all.checked ? null : boxes.filter((b) => b.checked).map((b) => b.value));
  const begin = () => {
    const names = chosen();
    if (names && !names.length) { end(); showError(box, new Error('Choose at least one agent, or all agents.')); return; }
    showError(box, null);
    if (close) close();
    diagram.addLanes(names || []);
    const query = names ? `?agents=${names.map(encodeURIComponent).join(',')}` : '';
    const who = names ? `${names.length} agent${names.length === 1 ? '' : 's'}` : 'all agents';
    close = ticketedStream(v1(`platforms/${seg(diagram.platform.id)}/messages${query}`), { message: diagram.add }, {
      probe: v1(`platforms/${seg(diagram.platform.id)}/agents`),
      onState: (s, error) => {
        if (s === 'failed') {  // the platform went or the right to watch it: say why, stop
          end();
          showError(box, error);
          return;
        }
        state.dataset.state = s;
        state.textContent = { open: `● Sniffing ${who}.`, reconnecting: 'Reconnecting…', offline: 'Offline, retrying…' }[s] || state.textContent;
      },
    });
    start.textContent = 'Stop sniffing';
    start.classList.add('danger');
  };
  const end = () => {
    clearTimeout(restart);
    if (close) close();
    close = null;
    start.textContent = 'Start sniffing';
    start.classList.remove('danger');
    state.dataset.state = 'closed';
    state.textContent = 'Not sniffing.';
  };
  start.addEventListener('click', () => (close ? end() : begin()));
  // A different choice while sniffing opens the stream again, for the new agents.
  const changed = () => {
    boxes.forEach((b) => { b.disabled = all.checked; });
    if (!close) return;
    clearTimeout(restart);
    restart = setTimeout(begin, 300);
  };
  all.addEventListener('change', changed);
  boxes.forEach((b) => b.addEventListener('change', changed));

  const element = h('section', { class: 'card sniff-controls', 'aria-labelledby': 'sniff-title' },
    h('fieldset', { id: 'sniff-agents' },
      h('legend', { id: 'sniff-title' }, 'Agents to sniff'),
      h('label', { class: 'check sniff-all' }, all, ' All agents, also those started later'),
      h('div', { class: 'sniff-checks' }, boxes.map((b) => h('label', { class: 'check' }, b, ` ${b.value}`)))),
    box,
    h('div', { class: 'toolbar' }, start, state));
  return { element, stop: end };
}

/** The live sequence diagram, its filters, export and the chosen message's detail. */
function sequenceDiagram(platform) {
  const entries = [];          // { message, seq, nodes: [g.arrow], conversation }
  const lanes = [];            // lane names, left to right
  const conversations = new Map();  // id → label
  const conversationCounts = new Map();  // id → messages of it still held
  const performatives = new Set();
  let seq = 0;
  let selected = null;

  const svg = h('svg', { id: 'sequence', class: 'sequence', role: 'group', 'aria-label': 'Sequence diagram of the sniffed messages' });
  const laneGroup = h('g', { class: 'lanes' });
  const arrowGroup = h('g', { class: 'arrows' });
  // The lane names stay in sight while the rows scroll: a copy of the heads follows the scroll.
  const stickyHeads = h('g', {});
  const stickyBack = h('rect', { class: 'sticky-back', x: 0, y: 0, height: HEAD_H + 2 });
  const sticky = h('g', { class: 'sticky-heads', 'aria-hidden': 'true' }, stickyBack, stickyHeads);
  const empty = h('text', { class: 'empty', x: GUTTER, y: TOP + 10 }, 'No messages yet: choose agents and start sniffing.');
  svg.append(laneGroup, arrowGroup, empty, sticky);
  const frame = h('div', { class: 'sequence-frame', tabindex: 0, role: 'region', 'aria-label': 'Sequence diagram (scrolls)' }, svg);
  frame.addEventListener('scroll', () => {
    sticky.setAttribute('transform', `translate(0, ${frame.scrollTop})`);
    sticky.classList.toggle('shown', frame.scrollTop > HEAD_H / 2);
  });

  const conversationFilter = h('select', { id: 'filter-conversation', name: 'filter-conversation' });
  const performativeFilter = h('select', { id: 'filter-performative', name: 'filter-performative' });
  const exportButton = h('button', { type: 'button', class: 'secondary', id: 'export' }, 'Export');
  const clearButton = h('button', { type: 'button', class: 'secondary', id: 'clear' }, 'Clear');
  const count = h('span', { class: 'muted', id: 'sniff-count' });
  const detail = h('section', { class: 'card message-detail', id: 'message-detail', 'aria-labelledby': 'detail-title' });

  const laneX = (name) => GUTTER + lanes.indexOf(name) * LANE_W + LANE_W / 2;
  const laneOf = (full) => localName(full, platform.name);
  const shown = (entry) => (!conversationFilter.value || entry.conversation === conversationFilter.value)
    && (!performativeFilter.value || entry.message.performative === performativeFilter.value);

  function addLane(name) {
    if (lanes.includes(name)) return;
    lanes.push(name);
    const x = laneX(name);
    const head = () => h('g', { class: 'lane-head' },
      h('rect', { x: x - LANE_W / 2 + 4, y: 6, width: LANE_W - 8, height: HEAD_H - 10, rx: 5 }),
      h('text', { x, y: 6 + (HEAD_H - 10) / 2 + 4, 'text-anchor': 'middle' }, name.length > 20 ? `${name.slice(0, 19)}…` : name),
      h('title', {}, name));
    laneGroup.append(h('g', { class: 'lane', dataset: { agent: name } }, h('line', { class: 'lane-line', x1: x, x2: x, y1: HEAD_H - 4, y2: HEAD_H }), head()));
    stickyHeads.append(head());
  }

  /** An arrow from sender to one receiver, drawn at y = 0 (the row moves it). The
   * arrows of one message share their row and its clickable band `[left, right]`. */
  function arrow(entry, from, to, index, repeat, [left, right]) {
    const m = entry.message;
    const family = familyOf(m.performative);
    const x1 = laneX(from);
    const x2 = laneX(to);
    const label = `${m.performative}${m.conversationId ? ` (${shortID(m.conversationId)})` : ''}`;
    const parts = [];
    if (from === to) {  // to itself: a loop on the right of its lane
      parts.push(h('path', { class: 'shaft', d: `M ${x1} -8 h 26 v 14 h -22` }),
        h('path', { class: 'head', d: `M ${x1} 6 l 8 -4.5 v 9 z` }),
        h('text', { class: 'label', x: x1 + 31, y: -1 }, label));
    } else {
      const dir = Math.sign(x2 - x1);
      parts.push(h('circle', { class: 'tail', cx: x1, cy: 0, r: 2.5 }),
        h('line', { class: 'shaft', x1, y1: 0, x2: x2 - dir * 8, y2: 0 }),
        h('path', { class: 'head', d: `M ${x2} 0 l ${-dir * 10} -5 v 10 z` }),
        h('text', { class: 'label', x: x1 + dir * 7, y: -6, 'text-anchor': dir > 0 ? 'start' : 'end' }, label));
    }
    if (index === 0) parts.push(h('text', { class: 'time', x: 8, y: 4 }, clock(m.at)));
    parts.unshift(h('rect', { class: 'hit', x: left - 6, y: -ROW_H / 2 - 2, width: right - left + 12, height: ROW_H }));
    return h('g', {
      class: `arrow family-${family}${repeat ? ' repeat' : ''}${index === 0 ? ' first' : ''}`, tabindex: -1, role: 'button',
      'aria-label': `${m.performative} from ${from} to ${to}${m.conversationId ? `, conversation ${m.conversationId}` : ''}, at ${clock(m.at)}`,
      dataset: { performative: m.performative, conversation: m.conversationId || '', sender: from, receiver: to, message: String(entry.seq) },
    }, parts, h('title', {}, `${label}: ${from} → ${to}`));
  }

  // One Tab stop for the whole diagram (a roving tabindex): the current message's first
  // arrow; ↑ ↓ Home End move between the messages shown.
  let current = null;
  function makeCurrent(node, focus = false) {
    if (current && current !== node) current.setAttribute('tabindex', '-1');
    current = node;
    if (!node) return;
    node.setAttribute('tabindex', '0');
    if (focus) node.focus();
  }
  const firstsShown = () => [...arrowGroup.querySelectorAll('g.arrow.first:not([hidden])')];
  /** Keeps the Tab stop on an arrow that is there and shown (else the newest shown). */
  function keepCurrent() {
    if (current && current.isConnected && !current.hasAttribute('hidden')) return;
    const firsts = firstsShown();
    makeCurrent(firsts[firsts.length - 1] || null);
  }

  /** Places the shown rows one under the other and sizes the drawing. */
  function layout() {
    let row = 0;
    for (const entry of entries) {
      const visible = shown(entry);
      const y = TOP + row * ROW_H;
      const transform = `translate(0, ${y})`;
      for (const node of entry.nodes) {
        node.toggleAttribute('hidden', !visible);
        if (visible && node.getAttribute('transform') !== transform) node.setAttribute('transform', transform);
      }
      if (visible) row += 1;
    }
    const height = Math.max(TOP + row * ROW_H + 10, 180);
    const width = GUTTER + Math.max(lanes.length, 1) * LANE_W + 12;
    svg.setAttribute('width', width);
    svg.setAttribute('height', height);
    svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
    stickyBack.setAttribute('width', width);
    for (const line of laneGroup.querySelectorAll('.lane-line')) line.setAttribute('y2', height);
    empty.toggleAttribute('hidden', row > 0 || entries.length > 0);
    keepCurrent();
    count.textContent = entries.length === 0 ? '' : row === entries.length
      ? `${entries.length} message${entries.length === 1 ? '' : 's'}` : `${row} of ${entries.length} messages shown`;
    return row;
  }

  /** Rebuilds a filter's options from what was seen, keeping the choice. */
  function fillFilter(select, items, allLabel) {
    const value = select.value;
    replace(select, h('option', { value: '' }, allLabel), items.map(([v, label, title]) => h('option', { value: v, title }, label)));
    select.value = items.some(([v]) => v === value) ? value : '';
  }
  const fillConversations = () => fillFilter(conversationFilter, [...conversations].map(([id, label]) => [id, label, id]), 'All conversations');
  const fillPerformatives = () => fillFilter(performativeFilter, [...performatives].sort().map((p) => [p, p]), 'All performatives');

  function add(data) {
    // The contract's data is the message; a wrapped one ({at, message}) is taken too.
    const message = data && data.performative === undefined && data.message ? data.message : data;
    if (!message || !message.performative) return;
    const follow = frame.scrollTop + frame.clientHeight >= frame.scrollHeight - ROW_H * 2;
    const from = laneOf(message.sender);
    const receivers = (message.receivers || []).map(laneOf);
    [from, ...receivers].forEach(addLane);
    const conversation = message.conversationId || NO_CONVERSATION;
    const entry = { message, seq: ++seq, conversation, nodes: [] };
    const sides = new Set();
    const xs = [from, ...receivers].map(laneX);
    const band = [Math.min(...xs), Math.max(...xs) + (receivers.includes(from) ? LANE_W / 2 : 0)];
    (receivers.length ? receivers : [from]).forEach((to, index) => {
      const side = Math.sign(laneX(to) - laneX(from));
      entry.nodes.push(arrow(entry, from, to, index, sides.has(side) && side !== 0, band));
      sides.add(side);
    });
    arrowGroup.append(...entry.nodes);
    entries.push(entry);
    conversationCounts.set(conversation, (conversationCounts.get(conversation) || 0) + 1);
    if (!conversations.has(conversation)) {
      conversations.set(conversation, conversation === NO_CONVERSATION ? 'No conversation id'
        : `${shortID(conversation)} · ${message.performative} from ${from}`);
      fillConversations();
    }
    if (!performatives.has(message.performative)) { performatives.add(message.performative); fillPerformatives(); }
    let dropped = false;
    let forgotten = false;
    while (entries.length > CAP) {
      const old = entries.shift();
      if (old.nodes.includes(document.activeElement)) frame.focus();  // focus does not fall to the page
      old.nodes.forEach((n) => n.remove());
      if (old === selected) dropped = true;
      // A conversation whose messages are all gone leaves the filter (the list stays bounded).
      const left = conversationCounts.get(old.conversation) - 1;
      if (left > 0) conversationCounts.set(old.conversation, left);
      else if (old.conversation !== conversationFilter.value) {
        conversationCounts.delete(old.conversation);
        conversations.delete(old.conversation);
        forgotten = true;
      } else conversationCounts.set(old.conversation, 0);
    }
    if (forgotten) fillConversations();
    if (dropped) select(null);
    layout();
    if (follow) frame.scrollTop = frame.scrollHeight;
  }

  function select(entry) {
    for (const node of arrowGroup.querySelectorAll('g.arrow.selected')) node.classList.remove('selected');
    selected = entry;
    if (!entry) {
      replace(detail, h('h2', { id: 'detail-title' }, 'Message'), h('p', { class: 'muted' }, 'Choose an arrow (or focus it and press Enter) to read its message.'));
      return;
    }
    entry.nodes.forEach((n) => n.classList.add('selected'));
    const m = entry.message;
    const only = h('button', { type: 'button', class: 'secondary small', id: 'only-conversation' }, 'Only this conversation');
    only.addEventListener('click', () => { conversationFilter.value = entry.conversation; layout(); });
    replace(detail,
      h('h2', { id: 'detail-title' }, 'Message ', h('span', { class: `performative family-${familyOf(m.performative)}` }, m.performative)),
      messageFacts(m, platform.name),
      h('pre', { class: 'fipa' }, m.fipa || ''),
      entry.conversation !== NO_CONVERSATION ? only : null);
  }
  select(null);

  const pick = (event) => {
    const node = event.target.closest && event.target.closest('g.arrow');
    if (!node) return;
    const entry = entries.find((e) => String(e.seq) === node.dataset.message);
    if (entry) select(entry);
  };
  svg.addEventListener('click', pick);
  svg.addEventListener('keydown', (event) => {
    const node = event.target.closest && event.target.closest('g.arrow');
    if (!node) return;
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      pick(event);
      return;
    }
    const firsts = firstsShown();
    const at = firsts.findIndex((f) => f.dataset.message === node.dataset.message);
    const next = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: firsts.length - 1 }[event.key];
    if (next === undefined || !firsts[next]) return;
    event.preventDefault();
    makeCurrent(firsts[next], true);
  });
  svg.addEventListener('focusin', (event) => {
    const node = event.target.closest && event.target.closest('g.arrow');
    if (node && node !== current) makeCurrent(node);
  });
  conversationFilter.addEventListener('change', layout);
  performativeFilter.addEventListener('change', layout);
  exportButton.addEventListener('click', () => {
    const chosen = entries.filter(shown);
    if (!chosen.length) { toast('No messages shown: nothing to export.', 'warning'); return; }
    download('conversation.acl', `${chosen.map((e) => e.message.fipa).join('\n\n')}\n`, 'text/plain');
  });
  let chosenLanes = [];
  clearButton.addEventListener('click', () => {
    entries.splice(0).forEach((e) => e.nodes.forEach((n) => n.remove()));
    lanes.splice(0);
    replace(laneGroup);
    replace(stickyHeads);
    conversations.clear();
    conversationCounts.clear();
    performatives.clear();
    fillConversations();
    fillPerformatives();
    chosenLanes.forEach(addLane);
    select(null);
    layout();
  });
  fillConversations();
  fillPerformatives();
  layout();

  const labelled = (text, control) => h('label', { class: 'inline-field' }, h('span', {}, text), control);
  const element = h('section', { class: 'card diagram-card', 'aria-labelledby': 'diagram-title' },
    h('div', { class: 'toolbar' }, h('h2', { id: 'diagram-title' }, 'Messages'), count),
    h('div', { class: 'toolbar filters' },
      labelled('Conversation', conversationFilter), labelled('Performative', performativeFilter), exportButton, clearButton),
    h('ul', { class: 'family-legend', 'aria-label': 'Colours' }, FAMILY_LABELS.map(([family, words]) => h('li', { class: `family-${family}` }, words))),
    frame);

  return {
    element, detail, platform, add,
    /** Lanes for the chosen agents, first and in the list's order. */
    addLanes(names) { chosenLanes = names; names.forEach(addLane); layout(); },
  };
}
