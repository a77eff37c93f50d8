// Not built yet.
import { h } from '../ui.js';

export function render(main) {
  main.replaceChildren(h('h1', {}, 'Coming soon'));
}
