// Administration (admins only): one heading, a sub-navigation and the chosen section,
// each in its own module under pages/admin/. `#/admin/<section>[/<id>]`: the id opens
// one record of the section (a patient, a project).

import { h } from '../ui.js';

const SECTIONS = [
  { id: 'hospitals', label: 'Hospitals & sectors', module: './admin/hospitals.js' },
  { id: 'staff', label: 'Staff', module: './admin/staff.js' },
  { id: 'patients', label: 'Patients', module: './admin/patients.js', record: './admin/patient.js' },
  { id: 'projects', label: 'Wearable projects', module: './admin/projects.js', record: './admin/project.js' },
  { id: 'audit', label: 'Audit trail', module: './admin/audit.js' },
];

export async function render(main, [sectionID, recordID]) {
  const section = SECTIONS.find((s) => s.id === sectionID) || SECTIONS[0];
  const body = h('div', { class: 'admin-section', id: `admin-${section.id}` });
  main.replaceChildren(
    h('h1', { tabindex: -1 }, recordID && section.record ? `Admin: ${section.label.toLowerCase()}` : 'Admin'),
    h('nav', { class: 'subnav', 'aria-label': 'Administration' }, SECTIONS.map((s) =>
      h('a', { href: `#/admin/${s.id}`, 'aria-current': s === section ? 'page' : false }, s.label))),
    body);
  const module = await import(recordID && section.record ? section.record : section.module);
  return module.render(body, recordID);
}
