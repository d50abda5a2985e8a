// The board: shows the SVG of the shared renderer (bao-render) once, then keeps it equal to
// the game's position itself (setPosition), makes legal pits clickable and animates a move
// seed by seed from its event lines (CLI-5). The server sends no picture per move.

import { parsePosition, SIDE_NAMES } from './app.js';
import { t, tn } from './i18n.js';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const SVG_NS = 'http://www.w3.org/2000/svg';

/** Pit of a side's house (nyumba/kuu), BRD-2.4. */
const housePit = (side) => (side === 'S' ? 'A5' : 'a5');

// The renderer's colours of a pit's hole (crates/bao-render, fn pit), so that a board kept
// up to date here looks exactly like one drawn by the server.
const FILL = { blocked: '#9a9a9a', owned: '#7a4a1c', plain: '#8a5a2b' };
const STROKE = { last: ['#e0b000', 4], must: ['#b02020', 3], plain: ['#5a3510', 1] };

export class BoardView {
  /**
   * @param {HTMLElement} container element that receives the inline SVG
   * @param {{caption?: HTMLElement, onPick?: (pit: string) => void}} opts
   * `rowsOnly`: the picture is cut to the board's frame (no hands, no caption under it), for
   * a page that shows the hands and the turn beside the board (the game page's bars).
   */
  constructor(container, { caption = null, onPick = null, onHandCount = null, rowsOnly = false } = {}) {
    this.container = container;
    this.caption = caption;
    this.onPick = onPick;
    // Called with (side, seeds) whenever a hand's count changes, animation steps included,
    // so that text beside the board shows the same count as the board.
    this.onHandCount = onHandCount;
    this.rowsOnly = rowsOnly;
    // A finished game: no side is to move (no turn dot, no "to move" in the caption).
    this.over = false;
    this.delay = 250;
    this.skipping = false;
    this.animating = false;
    this.flipped = false;
    container.classList.add('board-holder');
    container.addEventListener('click', (e) => this.#pick(e));
    container.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' || e.key === ' ') this.#pick(e);
    });
  }

  #pick(e) {
    const g = e.target.closest && e.target.closest('g.pit.legal');
    if (!g || !this.onPick || this.animating) return;
    e.preventDefault();
    this.onPick(g.dataset.pit);
  }

  get svg() {
    return this.container.querySelector('svg');
  }

  /** Replaces the board with SVG text from the renderer. */
  setSvg(text) {
    this.container.innerHTML = text;
    const svg = this.svg;
    if (!svg) {
      this.container.textContent = t('game.board_failed');
      return;
    }
    // A group, not an image: the legal pits inside are buttons that must stay reachable.
    svg.setAttribute('role', 'group');
    svg.removeAttribute('width');
    svg.removeAttribute('height');
    // On a phone the board goes edge to edge and its side margins are cut off, so that each
    // of the 8 pit columns is at least 44 px wide at 360 px.
    if (typeof matchMedia === 'function' && matchMedia('(max-width: 520px)').matches) {
      const vb = (svg.getAttribute('viewBox') || '').split(/\s+/).map(Number);
      if (vb.length === 4 && vb[2] > 490) svg.setAttribute('viewBox', `${(vb[2] - 490) / 2} ${vb[1]} 490 ${vb[3]}`);
    }
    if (this.rowsOnly) {
      // The frame with its border; the hands and caption above and below fall outside.
      const frame = svg.querySelector('rect.board');
      const vb = (svg.getAttribute('viewBox') || '').split(/\s+/).map(Number);
      const y = Number(frame?.getAttribute('y'));
      const h = Number(frame?.getAttribute('height'));
      if (vb.length === 4 && h > 0) svg.setAttribute('viewBox', `${vb[0]} ${y - 3} ${vb[2]} ${h + 6}`);
    }
    const pos = svg.getAttribute('data-position') || '';
    const p = parsePosition(pos);
    svg.setAttribute('aria-label', describeBoard(p));
    // The renderer leaves out the turn dot when the position decides the game.
    if (p) this.#localize(p, svg.getAttribute('data-last-move'), !svg.querySelector('circle.turn'));
    this.setFlipped(this.flipped);
  }

  /**
   * Makes the drawn board show `positionText` (NOT-3): every count, the hands, the owned
   * houses, the blocked and the must pit, the side to move, and the start pit of `lastMove`
   * (a canonical move, or null) marked. Returns false when there is no board or the text is
   * not a position.
   */
  setPosition(positionText, lastMove = null) {
    const svg = this.svg;
    const p = parsePosition(positionText);
    if (!svg || !p) return false;
    const flag = (name) => {
      const f = p.flags.find((x) => x.startsWith(`${name}:`));
      return f ? f.slice(name.length + 1) : null;
    };
    const block = flag('block');
    const must = flag('must');
    const last = lastMove ? lastMove.slice(0, 2) : null;
    for (const g of this.container.querySelectorAll('g.pit[data-pit]')) {
      const name = g.dataset.pit;
      this.setCount(g, p.pits[name] ?? 0);
      const owned = g.classList.contains('house') && p.flags.includes(`house:${g.dataset.side}`);
      g.classList.toggle('owned', owned);
      g.classList.toggle('blocked', name === block);
      g.classList.toggle('must', name === must);
      g.classList.toggle('last-move', name === last);
      const hole = g.querySelector('.hole');
      if (hole) {
        hole.setAttribute('fill', name === block ? FILL.blocked : owned ? FILL.owned : FILL.plain);
        const [color, width] = name === last ? STROKE.last : name === must ? STROKE.must : STROKE.plain;
        hole.setAttribute('stroke', color);
        hole.setAttribute('stroke-width', String(width));
      }
      this.#blockMark(g, hole, name === block);
    }
    for (const side of ['S', 'N']) {
      const h = this.hand(side);
      this.setCount(h, p.hands[side]);
      if (h) h.classList.toggle('to-move', p.side === side && !this.over);
    }
    // The renderer draws one "to move" dot, beside the mover's hand.
    const dot = svg.querySelector('circle.turn');
    const mover = this.hand(p.side);
    if (dot && mover && dot.parentNode !== mover) {
      const other = dot.parentNode;
      // The y of each hand's line of text (the count is a tspan of it; older pictures: a text).
      const y = (hand) => Number(hand.querySelector('text')?.getAttribute('y') || 0);
      const dy = y(mover) - y(other);
      dot.setAttribute('cy', String(Number(dot.getAttribute('cy')) + dy));
      mover.append(dot);
    }
    if (dot) dot.style.display = this.over ? 'none' : '';
    this.#localize(p, lastMove, this.over);
    svg.setAttribute('data-position', positionText);
    if (lastMove) svg.setAttribute('data-last-move', lastMove);
    else svg.removeAttribute('data-last-move');
    svg.setAttribute('data-side-to-move', p.side);
    svg.setAttribute('aria-label', describeBoard(p));
    return true;
  }

  /** The words drawn on the board in the page's language: hand labels, turn dot, caption. */
  #localize(p, lastMove, over) {
    const svg = this.svg;
    const title = svg.querySelector('circle.turn title');
    if (title) title.textContent = t('game.to_move', { side: SIDE_NAMES[p.side] });
    // Hand labels in the page's language; Kimasai's is the reserve (akiba), as in the text.
    for (const side of ['S', 'N']) {
      const label = this.hand(side)?.querySelector('.label');
      if (!label) continue;
      const kimasai = p.variant === 'kimasai';
      if (side === 'S') label.textContent = kimasai ? t('game.board_reserve_south') : t('game.board_hand_south');
      else label.textContent = kimasai ? t('game.board_reserve_north') : t('game.board_hand_north');
      // The count follows the label on its line (bao-render); a picture from before that
      // (an offline copy) has the count placed on its own: moved past the longer label.
      const count = this.hand(side).querySelector('text.count');
      if (count && label.tagName === 'text' && typeof label.getComputedTextLength === 'function') {
        if (!count.dataset.x) count.dataset.x = count.getAttribute('x') || '0';
        const end = Number(label.getAttribute('x') || 0) + label.getComputedTextLength() + 10;
        count.setAttribute('x', String(Math.max(Number(count.dataset.x), end)));
      }
    }
    // The caption line, a sentence as the renderer writes it (bao-render caption()): who is
    // to move (nobody once the game is over), how many moves were played, the last move.
    const caption = svg.querySelector('text.caption');
    if (caption) caption.textContent = boardCaption(p, lastMove, over);
  }

  /** Adds or removes the cross of a blocked pit (as the renderer draws it). */
  #blockMark(g, hole, on) {
    const old = g.querySelector('.block-mark');
    if (!on || !hole) {
      if (old) old.remove();
      return;
    }
    if (old) return;
    let cx;
    let cy;
    let r;
    if (hole.tagName === 'circle') {
      cx = Number(hole.getAttribute('cx'));
      cy = Number(hole.getAttribute('cy'));
      r = Number(hole.getAttribute('r'));
    } else {
      r = Number(hole.getAttribute('width')) / 2;
      cx = Number(hole.getAttribute('x')) + r;
      cy = Number(hole.getAttribute('y')) + r;
    }
    const line = document.createElementNS(SVG_NS, 'line');
    line.setAttribute('class', 'block-mark');
    for (const [k, v] of [['x1', cx - r + 6], ['y1', cy - r + 6], ['x2', cx + r - 6], ['y2', cy + r - 6]]) line.setAttribute(k, String(v));
    line.setAttribute('stroke', '#b02020');
    line.setAttribute('stroke-width', '3');
    hole.after(line);
  }

  /**
   * Shows the board turned round (North's rows at the bottom) for a player sitting North.
   * Pits and hands are moved, not rotated, so every number and name stays upright.
   */
  setFlipped(on) {
    this.flipped = !!on;
    this.container.classList.toggle('flipped', this.flipped);
    const svg = this.svg;
    if (!svg) return;
    const frame = svg.querySelector('.board');
    let mid;
    try {
      const b = frame ? frame.getBBox() : null;
      if (!b || !b.width) return;
      mid = { x: b.x + b.width / 2, y: b.y + b.height / 2 };
    } catch {
      return; // not laid out (hidden): nothing to move
    }
    for (const g of svg.querySelectorAll('g.pit')) {
      g.removeAttribute('transform');
      if (!this.flipped) continue;
      const h = (g.querySelector('.hole') || g).getBBox();
      const dx = 2 * (mid.x - (h.x + h.width / 2));
      const dy = 2 * (mid.y - (h.y + h.height / 2));
      g.setAttribute('transform', `translate(${dx} ${dy})`);
    }
    const hs = this.hand('S');
    const hn = this.hand('N');
    for (const g of [hs, hn]) if (g) g.removeAttribute('transform');
    if (this.flipped && hs && hn) {
      const d = hs.getBBox().y - hn.getBBox().y;
      hn.setAttribute('transform', `translate(0 ${d})`);
      hs.setAttribute('transform', `translate(0 ${-d})`);
    }
  }

  pit(name) {
    return this.container.querySelector(`[id="pit-${name}"]`);
  }

  hand(side) {
    return this.container.querySelector(`[id="hand-${side}"]`);
  }

  count(node) {
    return node ? Number(node.getAttribute('data-seeds')) || 0 : 0;
  }

  setCount(node, n) {
    if (!node) return;
    node.setAttribute('data-seeds', String(n));
    const c = node.querySelector('.count');
    if (c) {
      c.textContent = String(n);
      // The renderer's colours: a dim count on an empty pit (hands keep theirs).
      if (node.classList.contains('pit')) c.setAttribute('fill', n === 0 ? '#c9a77a' : '#fff8e8');
    }
    if (node.classList.contains('hand') && this.onHandCount) this.onHandCount(node.dataset.side, n);
    node.classList.toggle('empty', n === 0);
  }

  /** All pit counts and hands as drawn now: {pits: {A1: n, ...}, hands: {S, N}}. */
  counts() {
    const pits = {};
    for (const g of this.container.querySelectorAll('g.pit[data-pit]')) pits[g.dataset.pit] = this.count(g);
    return { pits, hands: { S: this.count(this.hand('S')), N: this.count(this.hand('N')) } };
  }

  /** Marks the pits that start a legal move; `selected` is the chosen pit, if any. */
  markLegal(pits, selected = null) {
    this.clearMarks();
    for (const name of pits) {
      const g = this.pit(name);
      if (!g) continue;
      g.classList.add('legal');
      const button = pitButton(g);
      button.setAttribute('tabindex', '0');
      button.setAttribute('role', 'button');
      button.setAttribute('aria-label', tn('game.pit_play_label', this.count(g), { pit: name }));
      if (name === selected) {
        g.classList.add('selected');
        button.setAttribute('aria-pressed', 'true');
      }
    }
  }

  clearMarks() {
    for (const g of this.container.querySelectorAll('g.pit.legal, g.pit.selected')) {
      g.classList.remove('legal', 'selected');
      const button = pitButton(g);
      button.removeAttribute('tabindex');
      button.removeAttribute('role');
      button.removeAttribute('aria-label');
      button.removeAttribute('aria-pressed');
    }
  }

  say(text) {
    if (this.caption) this.caption.textContent = text;
  }

  /** Finishes the running animation at once. */
  skip() {
    if (this.animating) this.skipping = true;
  }

  /**
   * Plays a move's event lines on the board (CLI-5.1 vocabulary). `by` is the mover.
   * Resolves to true when the animated counts equal `expected` (the position after the move),
   * so a wrong animation can never leave a wrong board: the caller redraws from the server.
   */
  async animate(events, by, expected) {
    const svg = this.svg;
    if (!svg) return false;
    this.animating = true;
    this.skipping = false;
    this.clearMarks();
    this.container.classList.add('animating');
    const marker = this.#marker(svg);
    let inHand = 0;
    let active = null;
    const setActive = (g) => {
      if (active) active.classList.remove('active');
      active = g;
      if (g) {
        g.classList.add('active');
        this.#moveMarker(marker, g);
      }
    };
    const wait = async (factor = 1) => {
      if (!this.skipping && this.delay > 0) await sleep(this.delay * factor);
    };
    const who = SIDE_NAMES[by] || by;
    try {
      for (const line of events || []) {
        const [kind, a, b] = line.split(' ');
        const g = a ? this.pit(a) : null;
        switch (kind) {
          case 'place': {
            this.setCount(this.hand(by), this.count(this.hand(by)) - 1);
            this.setCount(g, this.count(g) + 1);
            setActive(g);
            // Kimasai's cows come from the reserve (akiba): one word everywhere.
            if (this.svg?.getAttribute('data-variant') === 'kimasai') this.say(t('game.say_place_reserve', { who, pit: a }));
            else this.say(t('game.say_place', { who, pit: a }));
            await wait(1.5);
            break;
          }
          case 'lift':
          case 'tax': {
            const n = Number(b);
            this.setCount(g, Math.max(0, this.count(g) - n));
            inHand = n;
            setActive(g);
            this.#markerCount(marker, inHand);
            this.say(kind === 'tax' ? t('game.say_tax', { who, pit: a }) : t('game.say_lift', { who, n, pit: a }));
            await wait(1.5);
            break;
          }
          case 'capture': {
            const n = Number(b);
            this.setCount(g, Math.max(0, this.count(g) - n));
            inHand = n;
            setActive(g);
            if (g) flash(g, 'captured');
            this.#markerCount(marker, inHand);
            this.say(t('game.say_capture', { who, n, pit: a }));
            await wait(2);
            break;
          }
          case 'enter':
            setActive(g);
            this.say(t('game.say_enter', { who, pit: a }));
            await wait(1);
            break;
          case 'sow': {
            this.setCount(g, this.count(g) + 1);
            inHand = Math.max(0, inHand - 1);
            setActive(g);
            this.#markerCount(marker, inHand);
            await wait(1);
            break;
          }
          case 'safari':
            this.say(t('game.say_safari', { who }));
            await wait(2);
            break;
          case 'house-lost': {
            const h = this.pit(housePit(a));
            if (h) h.classList.remove('owned');
            this.say(t('game.say_house_lost', { who: SIDE_NAMES[a] }));
            await wait(1.5);
            break;
          }
          case 'block':
            if (g) g.classList.add('blocked');
            this.say(t('game.say_block', { pit: a }));
            await wait(1.5);
            break;
          case 'must':
            this.say(t('game.say_must', { pit: a }));
            await wait(1);
            break;
          case 'stop':
            inHand = 0;
            this.#markerCount(marker, 0);
            this.say(stopText(a, who));
            await wait(1);
            break;
          case 'win':
            this.say(t('game.say_win', { who: SIDE_NAMES[a] }));
            break;
          case 'draw':
            this.say(t('game.say_draw'));
            break;
          default:
        }
      }
    } finally {
      setActive(null);
      marker.remove();
      this.container.classList.remove('animating');
      this.animating = false;
      this.skipping = false;
    }
    return expected ? this.matches(expected) : true;
  }

  /** True when the drawn counts equal those of the position text. */
  matches(positionText) {
    const p = parsePosition(positionText);
    if (!p) return false;
    const c = this.counts();
    for (const [name, n] of Object.entries(p.pits)) if (c.pits[name] !== n) return false;
    return c.hands.S === p.hands.S && c.hands.N === p.hands.N;
  }

  #marker(svg) {
    const g = document.createElementNS(SVG_NS, 'g');
    g.setAttribute('class', 'anim-hand');
    g.setAttribute('aria-hidden', 'true');
    const c = document.createElementNS(SVG_NS, 'circle');
    c.setAttribute('r', '13');
    const t = document.createElementNS(SVG_NS, 'text');
    t.setAttribute('text-anchor', 'middle');
    t.setAttribute('dominant-baseline', 'central');
    g.append(c, t);
    g.style.opacity = '0';
    svg.append(g);
    return g;
  }

  #moveMarker(marker, g) {
    const shape = g.querySelector('.hole') || g;
    let box;
    try {
      box = shape.getBBox();
    } catch {
      return;
    }
    // Top-right corner of the pit, so the pit's own count stays readable; the pit may have
    // been moved (flipped board).
    const m = g.transform && g.transform.baseVal.consolidate();
    const x = box.x + box.width * 0.85 + (m ? m.matrix.e : 0);
    const y = box.y + box.height * 0.15 + (m ? m.matrix.f : 0);
    marker.setAttribute('transform', `translate(${x} ${y})`);
  }

  #markerCount(marker, n) {
    marker.querySelector('text').textContent = String(n);
    marker.style.opacity = n > 0 ? '1' : '0';
  }
}

/**
 * The element of a pit that is its button when the pit is playable: the pit's invisible hit
 * area (the renderer's `rect.hit`), else the pit itself. Not the whole pit: its visible count
 * and name ("2", "A6") would then be the button's text, and a name such as "Play A6 (2 seeds)"
 * would not contain them in that order (WCAG 2.5.3 "Label in Name"). Clicks and keys on it
 * reach the pit (`closest('g.pit.legal')`).
 */
function pitButton(g) {
  return g.querySelector(':scope > .hit') || g;
}

function flash(g, cls) {
  g.classList.add(cls);
  setTimeout(() => g.classList.remove(cls), 900);
}

function stopText(reason, who) {
  switch (reason) {
    case 'empty':
      return t('game.stop_empty', { who });
    case 'house':
      return t('game.stop_house', { who });
    case 'block':
      return t('game.stop_block');
    case 'front_row':
      return t('game.stop_front_row');
    case 'never_ending':
      return t('game.stop_never_ending');
    default:
      return t('game.stop_other');
  }
}

/** A text description of a position for screen readers. */
export function describeBoard(p) {
  if (!p) return t('game.board_name');
  const row = (names) => names.map((n) => `${n} ${p.pits[n]}`).join(', ');
  const r = (l) => [1, 2, 3, 4, 5, 6, 7, 8].map((k) => `${l}${k}`);
  return t('game.board_description', {
    north_back: row(r('b')),
    north_front: row(r('a')),
    south_front: row(r('A')),
    south_back: row(r('B')),
    south_hand: p.hands.S,
    north_hand: p.hands.N,
    side: SIDE_NAMES[p.side],
  });
}

/**
 * The caption under the board: "South to move · 12 moves played · last move A7L*". The
 * English text is the renderer's (bao-render), so a page and `bao svg` agree.
 */
export function boardCaption(p, lastMove, over = false) {
  const parts = [over ? t('game.caption_over') : t('game.to_move', { side: SIDE_NAMES[p.side] })];
  parts.push(tn('game.caption_plies', p.ply));
  if (lastMove) parts.push(t('game.caption_last', { move: lastMove }));
  return parts.join(' · ');
}
