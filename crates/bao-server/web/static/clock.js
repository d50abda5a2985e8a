// Clocks on the game page (docs/api.md "Clocks"): both sides' time, counted down in the page from the
// server's figures (GameState.clock and the move frames' `clock`). The server alone decides a
// loss on time; the page only shows it.

import { el } from './app.js';
import { t } from './i18n.js';

let box = null;
let shown = null; // {clock, at, over}: the server's figures and when the page got them
let timer = null;

const sideName = (side) => (side === 'S' ? t('play.side_S') : t('play.side_N'));

/** `m:ss`, `h:mm:ss`, tenths under ten seconds, days for correspondence clocks. */
export function formatClock(ms) {
  const left = Math.max(0, Math.floor(ms));
  const day = 24 * 3600 * 1000;
  const two = (n) => String(n).padStart(2, '0');
  let rest = left;
  const days = Math.floor(rest / day);
  rest -= days * day;
  const h = Math.floor(rest / 3600000);
  const m = Math.floor((rest % 3600000) / 60000);
  const s = Math.floor((rest % 60000) / 1000);
  let text;
  if (h > 0 || days > 0) text = `${h}:${two(m)}:${two(s)}`;
  else if (left < 10000) text = `${m}:${two(s)}.${Math.floor((rest % 1000) / 100)}`;
  else text = `${m}:${two(s)}`;
  return days > 0 ? t('play.clock_days', { n: days, time: text }) : text;
}

/**
 * The two clock faces: in the game page's clock slots (`#clock-slot-S`, `#clock-slot-N`, in
 * the players' bars, so that each clock sits with its player and follows the board when it
 * is turned), or else together in a box after `anchor`.
 */
function ensureBox(anchor) {
  if (box) return box;
  const face = (side) =>
    el(
      'div',
      { class: 'clock', id: `clock-${side}`, 'data-side': side, role: 'timer', 'aria-label': t('play.clock_label', { side: sideName(side) }) },
      el('span', { class: 'clock-side' }, sideName(side)),
      el('span', { class: 'clock-time' }, ''),
    );
  const faces = [face('N'), face('S')];
  const slots = faces.map((f) => document.getElementById(`clock-slot-${f.dataset.side}`));
  if (slots.every(Boolean)) {
    faces.forEach((f, i) => slots[i].append(f));
    box = { faces, set hidden(h) { for (const f of faces) f.hidden = h; } };
  } else {
    box = el('div', { class: 'clocks', id: 'clocks' }, ...faces);
    box.faces = faces;
    anchor.after(box);
  }
  return box;
}

function tick() {
  if (!shown || !box) return;
  const { clock, at, over } = shown;
  const elapsed = performance.now() - at;
  for (const side of ['S', 'N']) {
    const running = !over && clock.running === side;
    const left = clock[side] - (running ? elapsed : 0);
    const face = box.faces.find((f) => f.dataset.side === side);
    face.querySelector('.clock-time').textContent = formatClock(left);
    face.classList.toggle('running', running);
    face.classList.toggle('low', running && left < 10000);
    face.classList.toggle('out', left <= 0);
    face.dataset.ms = String(Math.max(0, Math.round(left)));
  }
  if (!shown.clock.running || over) stop();
}

function stop() {
  clearInterval(timer);
  timer = null;
}

/** Shows the clocks of GameState `s` after `anchor` (hidden when the game has none). */
export function renderClock(s, anchor) {
  if (!s.clock) {
    if (box) box.hidden = true;
    stop();
    shown = null;
    return;
  }
  ensureBox(anchor).hidden = false;
  const over = s.result !== '-';
  // A new figure from the server replaces the local count-down.
  if (!shown || shown.clock !== s.clock || shown.over !== over) {
    shown = { clock: s.clock, at: performance.now(), over };
  }
  tick();
  if (!over && s.clock.running && !timer) timer = setInterval(tick, 100);
}
