// iMobile's issue track inside the server: register an issue on behalf of an employee,
// see whom their agent asked, who refused and why, who took it (or whom it e-mailed),
// answer when you are the employee asked (Take it / Can't; admins may answer for them),
// and, for admins, who is in the office and the assignee's result.

import { api, v1, seg, session } from '../api.js';
import { h, replace, toast, field, errorBox, busy, options, check, when } from '../ui.js';

const PRIORITIES = ['critical', 'high', 'medium', 'low'];
const POLL_MS = 1000;

export async function render(main) {
  const user = session.get().user;
  const isAdmin = user.role === 'admin';
  // The employee asked answers (their account's username or staff id is their id), or an admin for them.
  const mayAnswer = (employee) => isAdmin || user.username === employee || user.staffID === employee;
  let company = await api(v1('company'));
  let issues = await api(v1('issues'));
  const names = () => Object.fromEntries(company.employees.map((e) => [e.id, e.name]));
  const name = (id) => names()[id] || id;

  const table = h('div', { id: 'issue-list' });
  const people = h('div', { id: 'employees' });
  let timer = null;
  let gone = false;

  // Only the latest reload is shown: an older one still on its way (a poll, say) must
  // not bring back a list without the issue just registered.
  let reloads = 0;
  const reload = async () => {
    const reloading = ++reloads;
    const [freshCompany, freshIssues] = await Promise.all([api(v1('company')), api(v1('issues'))]);
    if (reloading !== reloads || gone) return;
    // Unchanged: not drawn again, so that a button about to be pressed (Take it) stays put.
    if (JSON.stringify([freshCompany, freshIssues]) === JSON.stringify([company, issues])) return;
    [company, issues] = [freshCompany, freshIssues];
    draw();
  };
  // While a round runs, ask again every second: it ends within the agents' (and the people's) deadlines.
  const poll = () => {
    clearTimeout(timer);
    if (gone || !issues.some((i) => i.round && (i.round.state === 'running' || i.round.state === 'asking'))) return;
    timer = setTimeout(() => reload().then(poll).catch(() => poll()), POLL_MS);
  };
  const draw = () => {
    replace(table, issues.length ? issueTable(issues, name, isAdmin, mayAnswer, () => reload().then(poll)) : h('p', { class: 'muted' }, 'No issues yet.'));
    replace(people, employeeTable(company, isAdmin, reload));
  };

  main.replaceChildren(
    h('h1', { tabindex: -1 }, 'Issue track'),
    h('p', { class: 'muted' }, `${company.name || 'The company'}: each employee's agent publishes their services in the directory. `
      + 'A critical issue, or a high one due within two days, is offered to the agents offering its service (Contract Net); '
      + 'the employee whose agent the rules choose is asked on their phone and here (Take it / Can\'t) and decides; '
      + 'when nobody takes it, everyone offering the service is e-mailed.'),
    h('div', { class: 'columns' }, registerForm(company, async (issue) => {
      reloads++;  // whatever reload is on its way predates this issue
      issues.unshift(issue);
      draw();
      poll();
    }), h('section', { class: 'card', 'aria-labelledby': 'employees-title' }, h('h2', { id: 'employees-title' }, 'Employees'), people)),
    h('h2', {}, 'Issues'),
    table);
  draw();
  poll();
  return () => { gone = true; clearTimeout(timer); };
}

function registerForm(company, registered) {
  const tomorrow = new Date(Date.now() + 24 * 3600 * 1000);
  const local = new Date(tomorrow.getTime() - tomorrow.getTimezoneOffset() * 60000).toISOString().slice(0, 16);
  const title = h('input', { name: 'title', required: true, maxlength: 200, autocomplete: 'off' });
  const description = h('textarea', { name: 'description', rows: 3, maxlength: 4000 });
  const priority = h('select', { name: 'priority' }, options(PRIORITIES.map((p) => [p, p]), 'critical'));
  const deadline = h('input', { name: 'deadline', type: 'datetime-local', required: true, value: local });
  const service = h('select', { name: 'service', required: true }, options(company.services.map((s) => [s.name, s.name])));
  const reporter = h('select', { name: 'reporter', required: true }, options(company.employees.map((e) => [e.id, e.name])));
  const submit = h('button', { type: 'submit', id: 'register-issue' }, 'Register issue');
  const box = errorBox();
  const form = h('form', { class: 'card', id: 'issue-form', 'aria-labelledby': 'register-title' },
    h('h2', { id: 'register-title' }, 'Register an issue'),
    field('Title', title), field('Description', description),
    h('div', { class: 'form-row' }, field('Priority', priority), field('Deadline', deadline)),
    h('div', { class: 'form-row' }, field('Service', service), field('Registered by', reporter, 'Their agent hands the issue on.')),
    box, submit);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    busy(submit, box, async () => {
      const due = new Date(deadline.value);
      if (Number.isNaN(due.getTime())) throw new Error('Deadline: enter a date and time.');
      const issue = await api(v1('issues'), { method: 'POST', body: {
        title: title.value, description: description.value, priority: priority.value,
        deadline: due.toISOString(), service: service.value, reporter: reporter.value,
      } });
      toast(`Issue #${issue.id} registered.`);
      title.value = '';
      description.value = '';
      await registered(issue);
      title.focus();
    });
  });
  return form;
}

function employeeTable(company, isAdmin, changed) {
  return h('table', {},
    h('thead', {}, h('tr', {}, h('th', {}, 'Name'), h('th', {}, 'Services'), h('th', {}, 'In the office'))),
    h('tbody', {}, company.employees.map((e) => {
      const presence = isAdmin ? check('connected', { checked: e.connected, 'aria-label': `${e.name} is in the office`, dataset: { employee: e.id } }) : (e.connected ? 'yes' : 'no (not connected)');
      if (isAdmin) {
        const box = presence.querySelector('input');
        box.addEventListener('change', async () => {
          box.disabled = true;
          try { await api(v1(`company/employees/${seg(e.id)}/connection`), { method: 'PUT', body: { connected: box.checked } }); await changed(); }
          catch (error) { toast(error.message, 'alarm'); box.checked = !box.checked; box.disabled = false; }
        });
      }
      return h('tr', { class: e.connected ? '' : 'away', dataset: { employee: e.id } },
        h('td', {}, e.name, h('br'), h('small', { class: 'muted' }, `${e.email} · ${e.phone}`)),
        h('td', {}, e.services.join(', ') || '–'),
        h('td', {}, presence));
    })));
}

function issueTable(issues, name, isAdmin, mayAnswer, changed) {
  return h('table', { class: 'issues' },
    h('thead', {}, h('tr', {}, ['#', 'Issue', 'Priority', 'Service', 'Due', 'Status', 'Who took it'].map((t) => h('th', { scope: 'col' }, t)))),
    h('tbody', {}, issues.map((issue) => h('tr', { dataset: { issue: String(issue.id), status: issue.status } },
      h('td', { class: 'num' }, String(issue.id)),
      h('td', {}, h('strong', {}, issue.title), issue.description ? h('br') : null, issue.description ? h('small', { class: 'muted' }, issue.description) : null,
        h('br'), h('small', { class: 'muted' }, `registered by ${name(issue.reporter)}`)),
      h('td', {}, h('span', { class: `priority priority-${issue.priority}` }, issue.priority)),
      h('td', {}, issue.service),
      h('td', {}, when(issue.deadline)),
      h('td', { class: 'status' }, issue.status, issue.resolutionNote ? h('br') : null, issue.resolutionNote ? h('small', {}, issue.resolutionNote) : null),
      h('td', { class: 'outcome' }, roundSummary(issue, name, mayAnswer, changed), isAdmin && issue.status === 'in-progress' ? resolutionForm(issue, name, changed) : null)))));
}

/** Whom the reporter's agent asked, their answers, and how the round ended. */
function roundSummary(issue, name, mayAnswer, changed) {
  const round = issue.round;
  if (!round) return issue.assignee ? h('span', {}, `${name(issue.assignee)}`) : h('span', { class: 'muted' }, '–');
  if (round.state === 'running') return h('span', { class: 'running', role: 'status' }, 'asking colleagues…');
  if (round.state === 'asking') return questionBox(issue, round.question, name, mayAnswer(round.question.employee), changed);
  const lines = [];
  if (round.asked.length) lines.push(`asked ${round.asked.map(name).join(', ')}`);
  round.refusals.forEach((r) => lines.push(`${name(r.employee)} refused: ${r.reason}`));
  (round.declined || []).forEach((d) => lines.push(`${name(d.employee)} ${d.reason === 'decline' ? "can't take it" : 'did not answer in time'}`));
  round.unreachable.forEach((id) => lines.push(`${name(id)} did not answer`));
  let result;
  switch (round.outcome) {
    case 'taken': result = h('strong', { class: 'taken-by' }, `taken by ${name(round.takenBy)}`); break;
    case 'emailed': result = h('strong', { class: 'emailed' }, `nobody took it: e-mailed ${round.emailedTo.join(', ') || 'nobody (no addresses)'}`
      + ` (${round.emailDelivery}${round.reason ? `: ${round.reason}` : ''})`); break;
    case 'not-offered': result = h('span', {}, `not offered: ${round.reason}`); break;
    default: result = h('span', {}, `${round.outcome}${round.reason ? `: ${round.reason}` : ''}`);
  }
  return h('div', {}, result, lines.length ? h('ul', { class: 'round-answers' }, lines.map((l) => h('li', {}, l))) : null);
}

/** The question open to the employee the rules chose, with Take it / Can't for them (or an admin). */
function questionBox(issue, question, name, answers, changed) {
  const until = new Date(question.deadline).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  const box = errorBox();
  const answer = (take) => {
    const button = h('button', { type: 'button', class: take ? 'small take' : 'small secondary decline' }, take ? 'Take it' : "Can't");
    button.addEventListener('click', () => busy(button, box, async () => {
      await api(v1(`issues/${seg(issue.id)}/answer`), { method: 'POST', body: { take } });
      toast(take ? `Issue #${issue.id} is ${name(question.employee)}'s.` : `Issue #${issue.id} goes to the next colleague.`);
      await changed();
    }));
    return button;
  };
  return h('div', { class: 'question', dataset: { employee: question.employee } },
    h('span', { class: 'running asking', role: 'status' }, `asking ${name(question.employee)}: take it? (until ${until})`),
    answers ? h('div', { class: 'answer' }, answer(true), ' ', answer(false), box) : null);
}

/** Reports the assignee's result on their behalf (admins). */
function resolutionForm(issue, name, changed) {
  const note = h('input', { name: 'note', maxlength: 4000, placeholder: 'Note', 'aria-label': `Note on issue ${issue.id}` });
  const box = errorBox();
  const report = (solved) => {
    const button = h('button', { type: 'button', class: solved ? 'small' : 'small secondary' }, solved ? 'Solved' : 'Not solved');
    button.addEventListener('click', () => busy(button, box, async () => {
      await api(v1(`issues/${seg(issue.id)}/resolution`), { method: 'POST', body: { solved, note: note.value } });
      toast(`${name(issue.assignee)} reported issue #${issue.id} ${solved ? 'solved' : 'not solved'}.`);
      await changed();
    }));
    return button;
  };
  return h('div', { class: 'resolution' }, h('small', {}, `Report ${name(issue.assignee)}'s result:`), note, ' ', report(true), ' ', report(false), box);
}
