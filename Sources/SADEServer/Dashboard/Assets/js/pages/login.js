// Login for everyone: clinicians and admins see patients, wearable users their data.

import { login, session } from '../api.js';
import { loggedIn, homeOf } from '../app.js';
import { h, field, errorBox, busy } from '../ui.js';

export function render(main) {
  const current = session.get();
  if (current) { location.replace(homeOf(current.user.role)); return; }
  const username = h('input', { name: 'username', autocomplete: 'username', required: true, autofocus: true });
  const password = h('input', { name: 'password', type: 'password', autocomplete: 'current-password', required: true });
  const submit = h('button', { type: 'submit', id: 'login-submit' }, 'Log in');
  const error = errorBox();
  const form = h('form', { class: 'card', id: 'login-form' },
    field('User name', username), field('Password', password), error, submit);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const user = await busy(submit, error, () => login(username.value.trim(), password.value));
    if (user) loggedIn(user);
  });
  main.replaceChildren(h('section', { class: 'login' },
    h('h1', {}, 'SADE remote patient monitoring'), form,
    h('p', { class: 'muted' }, 'Wearable user without an account? ', h('a', { href: '#/register' }, 'Register'), '.')));
}
