// Pieces the Introspector and the Sniffer share: the platform chooser, event streams
// opened with one-time tickets, and ACL messages shown the same way on both pages.

import { api, v1 } from './api.js';
import { h } from './ui.js';

/** The FIPA performatives (fipa00037), the common ones first as the send form offers them. */
export const PERFORMATIVES = [
  'request', 'inform', 'query-if', 'query-ref', 'cfp', 'subscribe', 'propose', 'accept-proposal', 'reject-proposal',
  'agree', 'refuse', 'failure', 'not-understood', 'cancel', 'confirm', 'disconfirm', 'inform-if', 'inform-ref',
  'request-when', 'request-whenever', 'propagate', 'proxy',
];

/** Performatives by what they do in a conversation: the diagram colours them so. */
const FAMILIES = {
  ask: ['request', 'query-if', 'query-ref', 'subscribe', 'request-when', 'request-whenever'],
  negotiate: ['cfp', 'propose'],
  accept: ['agree', 'accept-proposal'],
  inform: ['inform', 'inform-if', 'inform-ref', 'confirm'],
  negative: ['refuse', 'reject-proposal', 'failure', 'not-understood', 'disconfirm', 'cancel'],
};

/** The families with the words the legend uses. */
export const FAMILY_LABELS = [
  ['ask', 'requests and queries'], ['negotiate', 'calls and proposals'], ['accept', 'agreements'],
  ['inform', 'results'], ['negative', 'refusals and failures'], ['other', 'other'],
];

/** ask, negotiate, accept, inform, negative or other. */
export function familyOf(performative) {
  return Object.keys(FAMILIES).find((family) => FAMILIES[family].includes(performative)) || 'other';
}

/** An agent's name on its own platform: `local@<platform>` loses the suffix, others stay whole. */
export function localName(full, platformName) {
  if (!full) return '(unknown)';
  const suffix = `@${platformName}`;
  return full.endsWith(suffix) ? full.slice(0, -suffix.length) : full;
}

/** A conversation id shortened for a label: ids share their beginnings (`batch-`,
 * `AlertAgent-1-`), so the end is kept. */
export function shortID(id) { return !id || id.length <= 12 ? id || '' : `…${id.slice(-7)}`; }

/** A time with milliseconds ("14:03:27.125"): messages and cycles come many a second. */
export function clock(iso) {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit', fractionalSecondDigits: 3, hour12: false });
}

/** A status word as a coloured pill (agent state, goal or plan status). */
export function pill(word, kind = 'status') {
  return h('span', { class: `pill pill-${String(word).replace(/[^a-z-]/gi, '')}`, dataset: { [kind]: word } }, word);
}

/** The performative as a badge in its family's colour. */
export function performativeBadge(performative) {
  return h('span', { class: `performative family-${familyOf(performative)}` }, performative);
}

/**
 * The head of a page about one platform's agents: its title, the platforms to choose
 * from (`hrefOf(platform)` is each link's address) and `intro`. Returns the platform
 * the URL names (the first without one), or null after saying there is none.
 */
export async function platformPage(main, { title, intro, platformID, hrefOf }) {
  const platforms = await api(v1('platforms'));
  const platform = platformID ? platforms.find((p) => p.id === platformID) : platforms[0];
  main.replaceChildren(
    h('div', { class: 'toolbar' }, h('h1', { tabindex: -1 }, title), platformChoice(platforms, platform, hrefOf)),
    h('p', { class: 'muted intro' }, intro));
  if (!platform) {
    main.append(h('p', { class: 'form-error', role: 'alert' }, platformID ? `There is no platform “${platformID}” on this server.` : 'No platforms run on this server.'));
  }
  return platform || null;
}

/**
 * The platforms as links (`#platform-choice`): `hrefOf(platform)` is each link's
 * address; the current one is marked for screen readers too.
 */
function platformChoice(platforms, current, hrefOf) {
  return h('nav', { id: 'platform-choice', class: 'platform-choice', 'aria-label': 'Platforms' },
    platforms.map((p) => h('a', { href: hrefOf(p), dataset: { platform: p.id }, title: p.description || null, 'aria-current': p.id === current?.id ? 'page' : false },
      h('span', { class: 'platform-name' }, p.name),
      h('span', { class: 'platform-count' }, `${p.agents} agent${p.agents === 1 ? '' : 's'}`))));
}

/**
 * One ACL message as a card (`.acl-message`): its performative, who sent it to whom,
 * the conversation, and the message in the FIPA string form. `label` says what it is
 * ("sent", "reply 1").
 */
export function messageCard(message, platformName, label) {
  const name = (full) => localName(full, platformName);
  return h('article', { class: `acl-message family-${familyOf(message.performative)}`, dataset: { performative: message.performative } },
    h('header', {},
      label ? h('span', { class: 'message-label' }, label) : null,
      performativeBadge(message.performative),
      h('span', { class: 'route' }, `${message.sender ? name(message.sender) : '(unknown)'} → ${(message.receivers || []).map(name).join(', ') || '–'}`),
      h('time', { datetime: message.at, class: 'muted' }, clock(message.at))),
    h('pre', { class: 'fipa' }, message.fipa || message.content || ''));
}

/** The message's fields as a definition list, the FIPA parameters' names. */
export function messageFacts(message, platformName) {
  const name = (full) => localName(full, platformName);
  const rows = [
    ['performative', message.performative], ['sender', message.sender ? name(message.sender) : '(unknown)'],
    ['receivers', (message.receivers || []).map(name).join(', ')], ['conversation-id', message.conversationId],
    ['protocol', message.protocol], ['reply-with', message.replyWith], ['in-reply-to', message.inReplyTo],
    ['ontology', message.ontology], ['language', message.language], ['time', clock(message.at)],
  ].filter(([, value]) => value);
  return h('dl', { class: 'facts' }, rows.map(([term, value]) => [h('dt', {}, term), h('dd', { dataset: { term } }, value)]));
}

/**
 * Opens a Server-Sent Events stream at `path` with a one-time ticket, as live.js does;
 * each (re)connection needs a fresh ticket, so a broken stream is closed and opened
 * again after a pause (0.5 s, doubling up to 30 s). `handlers` maps event types to
 * functions of the decoded JSON; `onOpen` runs at every (re)opening, when events may
 * have been missed; `onState` hears open, reconnecting, offline, closed and
 * `failed` (with the error). An EventSource cannot see why a stream broke: after a
 * break, `probe` (a path) is asked with `api()`, and a 401, 403 or 404 there ends the
 * stream for good (`failed`) instead of retrying forever — the agent stopped, the
 * platform went, the caller lost the right.
 * Returns the function that closes the stream for good.
 */
export function ticketedStream(path, handlers, { onOpen, onState, probe } = {}) {
  let source = null;
  let closed = false;
  let failures = 0;
  let retry = null;
  let steady = null;
  let attempts = 0;
  const fail = (error) => {
    closed = true;
    onState?.('failed', error);
  };
  const gone = (error) => [401, 403, 404].includes(error?.status);
  const later = async () => {
    if (probe) {
      try { await api(probe); } catch (error) { if (gone(error)) { if (!closed) fail(error); return; } }
      if (closed) return;
    }
    onState?.(failures === 0 ? 'reconnecting' : 'offline');
    retry = setTimeout(open, Math.min(30000, 500 * 2 ** failures));
    failures += 1;
  };
  async function open() {
    const attempt = ++attempts;
    let ticket;
    try {
      ticket = (await api(v1('events/tickets'), { method: 'POST' })).ticket;
    } catch (error) {
      if (!closed && attempt === attempts) { if (gone(error)) fail(error); else later(); }
      return;
    }
    if (closed || attempt !== attempts) return;
    const stream = new EventSource(`${path}${path.includes('?') ? '&' : '?'}ticket=${encodeURIComponent(ticket)}`);
    source = stream;
    // The pause grows again unless the stream stays up: a stream closed at once by a
    // proxy would otherwise be reopened every half second.
    stream.onopen = () => { onState?.('open'); onOpen?.(); steady = setTimeout(() => { failures = 0; }, 10000); };
    stream.onerror = () => {
      stream.close();
      clearTimeout(steady);
      if (closed || source !== stream) return;
      source = null;
      later();
    };
    for (const [type, handler] of Object.entries(handlers)) {
      stream.addEventListener(type, (event) => {
        let data;
        try { data = JSON.parse(event.data); } catch { return; }
        handler(data);
      });
    }
  }
  open();
  return () => {
    closed = true;
    attempts += 1;
    clearTimeout(retry);
    clearTimeout(steady);
    if (source) source.close();
    source = null;
    onState?.('closed');
  };
}
