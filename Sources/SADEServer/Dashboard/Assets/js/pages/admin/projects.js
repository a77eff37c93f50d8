// The wearable thesis's admin panel: its projects (project 0 is "No Project", where
// new users start), a new project, and a user assigned to a project. Each project's
// data opens on its own page (project.js).

import { api, v1, seg } from '../../api.js';
import { h, replace, field, errorBox, busy, options, toast, when } from '../../ui.js';

export async function render(container) {
  const body = h('tbody', {});
  const users = h('datalist', { id: 'wearable-usernames' });
  const projectChoice = h('select', { name: 'assign-project', required: true });
  container.replaceChildren(
    h('h2', { id: 'projects-heading' }, 'Wearable projects'),
    h('p', { class: 'muted' }, 'Users of the watch and ESP32 apps register into "No Project"; assign them to a study here.'),
    h('table', { class: 'responsive', id: 'projects', 'aria-labelledby': 'projects-heading' },
      h('thead', {}, h('tr', {}, ['Project', 'Description', 'Started', 'Created by', 'Members', 'Data'].map((c) => h('th', { scope: 'col' }, c)))), body),
    h('div', { class: 'columns' }, newProjectForm(() => load()), assignForm(users, projectChoice, () => load())),
    users);

  async function load() {
    const [projects, accounts] = await Promise.all([api('/Api/Project'), api(v1('users'))]);
    const names = Object.fromEntries(accounts.map((a) => [a.id, a.name]));
    replace(body, projects.map((p) => h('tr', { dataset: { project: String(p.id) } },
      h('td', { 'data-label': 'Project' }, h('strong', { class: 'project-name' }, p.name), h('div', { class: 'muted' }, `#${p.id}`)),
      h('td', { 'data-label': 'Description' }, p.description || '–'),
      h('td', { 'data-label': 'Started' }, when(p.startTime)),
      h('td', { 'data-label': 'Created by' }, p.adminId ? names[p.adminId] || p.adminId : '–'),
      h('td', { 'data-label': 'Members', class: 'project-members' }, members(accounts, p.id)),
      h('td', { 'data-label': 'Data' }, h('a', { href: `#/admin/projects/${seg(p.id)}`, class: 'project-data-link', 'aria-label': `Data of ${p.name}` }, 'View data')))));
    const chosen = projectChoice.value;
    replace(projectChoice, options(projects.map((p) => [String(p.id), `${p.name} (#${p.id})`]), chosen || String(projects.at(-1)?.id ?? '')));
    replace(users, accounts.filter((a) => a.role === 'patient' || a.role === 'admin').map((a) => h('option', { value: a.username }, a.name)));
  }
  await load();
}

/** The users working in project `id`, by name. */
function members(accounts, id) {
  const names = accounts.filter((a) => a.projectId === id && (a.role === 'patient' || a.role === 'admin')).map((a) => a.name);
  return names.length ? names.join(', ') : '–';
}

function newProjectForm(saved) {
  const name = h('input', { name: 'project-name', required: true, maxlength: 200, autocomplete: 'off' });
  const description = h('textarea', { name: 'project-description', rows: 2 });
  const submit = h('button', { type: 'submit', id: 'create-project' }, 'Create project');
  const error = errorBox();
  const form = h('form', { class: 'card', id: 'new-project' }, h('h3', {}, 'New project'),
    field('Name', name), field('Description (optional)', description), error, submit);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const body = { name: name.value.trim() };
    if (description.value.trim()) body.description = description.value.trim();
    const project = await busy(submit, error, () => api('/Api/Project', { method: 'POST', body }));
    if (!project) return;
    toast(`Project ${project.name} created (#${project.id}).`);
    form.reset();
    await saved();
  });
  return form;
}

function assignForm(users, projectChoice, assigned) {
  const username = h('input', { name: 'assign-username', required: true, list: users.id, autocomplete: 'off' });
  const submit = h('button', { type: 'submit', id: 'assign-user' }, 'Assign');
  const error = errorBox();
  const form = h('form', { class: 'card', id: 'assign-project' }, h('h3', {}, 'Assign a user to a project'),
    field('User name', username), field('Project', projectChoice), error, submit);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const who = username.value.trim();
    const project = projectChoice.selectedOptions[0]?.textContent;
    const done = await busy(submit, error, async () => {
      await api('/Api/Project/assign', { method: 'PUT', body: { username: who, projectId: Number(projectChoice.value) } });
      return true;
    });
    if (!done) return;
    toast(`${who} is now in ${project}.`);
    username.value = '';
    await assigned();
  });
  return form;
}
