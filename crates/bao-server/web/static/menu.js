// The compact menu of narrow screens (templates/base.html): one button shows or hides the
// site's links and the language switch. The stylesheet decides when the button is shown, so
// the header has its final layout before this script runs (no jump); this script only opens
// and closes it: the button's aria-expanded, Escape (focus back on the button), a click or
// a Tab that leaves the menu.

const header = document.querySelector('.site-header');
const toggle = document.getElementById('menu-toggle');
const menu = document.getElementById('site-menu');

function open(yes, focusButton = false) {
  header.classList.toggle('menu-open', yes);
  toggle.setAttribute('aria-expanded', String(yes));
  if (focusButton) toggle.focus();
}

if (header && toggle && menu) {
  toggle.addEventListener('click', () => {
    // A disclosure: the focus stays on the button; the links follow it in the tab order.
    open(toggle.getAttribute('aria-expanded') !== 'true');
  });
  header.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && header.classList.contains('menu-open')) open(false, true);
  });
  menu.addEventListener('focusout', (e) => {
    if (e.relatedTarget && !menu.contains(e.relatedTarget) && e.relatedTarget !== toggle) open(false);
  });
  document.addEventListener('click', (e) => {
    if (header.classList.contains('menu-open') && !menu.contains(e.target) && !toggle.contains(e.target)) open(false);
  });
}
