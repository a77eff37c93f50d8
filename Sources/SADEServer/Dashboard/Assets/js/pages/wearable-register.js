// Registration for the wearable thesis's users (POST /Api/User/register): they become
// a "User" — a patient with a record of their own — in "No Project", and are logged in
// straight away with the same account (the dashboard's /api/v1 login), landing on
// their data. Their watch or ESP32 logs in with the same user name and password.

import { api, login, session } from '../api.js';
import { loggedIn, homeOf } from '../app.js';
import { h, field, errorBox, busy, toast } from '../ui.js';

export function render(main) {
  const current = session.get();
  if (current) { location.replace(homeOf(current.user.role)); return; }
  const username = h('input', { name: 'username', autocomplete: 'username', required: true, maxlength: 64, autofocus: true });
  const name = h('input', { name: 'name', autocomplete: 'name', maxlength: 200 });
  const location_ = h('input', { name: 'location', autocomplete: 'address-level2', maxlength: 200 });
  const password = h('input', { name: 'password', type: 'password', autocomplete: 'new-password', required: true, minlength: 8 });
  const repeat = h('input', { name: 'password-again', type: 'password', autocomplete: 'new-password', required: true, minlength: 8 });
  const submit = h('button', { type: 'submit', id: 'register-submit' }, 'Register');
  const error = errorBox();
  const form = h('form', { class: 'card', id: 'register-form' },
    field('User name', username, 'Letters, digits and . _ @ -. Your watch logs in with it too.'),
    field('Full name (optional)', name), field('Location (optional)', location_),
    field('Password', password, 'At least 8 characters.'), field('Password again', repeat),
    error, submit);
  repeat.addEventListener('input', () => repeat.setCustomValidity(''));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (repeat.value !== password.value) {
      repeat.setCustomValidity('The passwords differ.');
      repeat.reportValidity();
      return;
    }
    const body = { username: username.value.trim(), password: password.value };
    if (name.value.trim()) body.name = name.value.trim();
    if (location_.value.trim()) body.location = location_.value.trim();
    const user = await busy(submit, error, async () => {
      await api('/Api/User/register', { method: 'POST', body, auth: false });
      return login(body.username, body.password);
    });
    if (!user) return;
    toast(`Welcome, ${user.name}. Your devices can now post data as ${user.username}.`);
    loggedIn(user);
  });
  main.replaceChildren(h('section', { class: 'login' },
    h('h1', {}, 'Register for wearable monitoring'),
    h('p', { class: 'muted' }, 'For users of the SADE watch and ESP32 apps: see your heart rate, steps and the places you went.'),
    form,
    h('p', { class: 'muted' }, 'Already registered? ', h('a', { href: '#/login' }, 'Log in'), '.')));
}
