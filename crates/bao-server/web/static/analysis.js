// The analysis board (/analysis, docs/api.md "Pages"): any position, moves for both sides in a
// tree of variations, the browser engine's evaluation and best line for the node shown, a
// position editor checked by the rules, and the whole board in the address so that a link
// opens it again. Everything runs in the browser (crates/bao-wasm in Web Workers), so the page
// works with no network once it has been visited.
//
// Address: /analysis?variant=V&rules=R&position=P&moves=M1,M2,...&at=K | &line=M1,M2,...
// `moves` is the main line from `position`; `at` the move of the main line shown, or `line`
// the moves from `position` to a node in a variation.

import { $, api, el, errorText, notify, parsePosition, capturedBy, describeEvents, copyText, SIDE_NAMES, VARIANT_TITLES, STAGE_TEXT, otherSide } from './app.js';
import { t } from './i18n.js';
import { BoardView } from './board.js';
import { MoveChooser } from './chooser.js';
import { engine } from './offline-engine.js';

/** The most moves a link may hold: more is cut (a game is far shorter). */
const MAX_LINK_MOVES = 1000;
/** The deepest iteration the page asks the engine for. */
const MAX_DEPTH = 30;
/** The longest one iteration may take: the page stops deepening at the first one cut short. */
const ITERATION_MS = 20000;

const status = $('page-status');
const board = new BoardView($('board'), { caption: $('caption'), onPick: pickPit });
const chooser = new MoveChooser({ box: $('chooser'), board, play: (mv) => play(mv) });

let variant = 'kiswahili';
let rules = '-';
let root = null; // {id, position, result, children, depth: 0}
let cur = null; // the node shown
let nextId = 1;
const nodes = new Map();
let gen = 0; // changes with every node shown: answers for an older node are dropped
let busy = false; // a move is on its way or animating
let anim = null; // the promise of the animation running, if any
let editing = false;

// ---------------------------------------------------------------- the tree

function newNode(parent, m) {
  const n = { id: nextId++, parent, children: [], depth: parent ? parent.depth + 1 : 0, move: m?.move ?? null, by: m?.by ?? null, events: m?.events ?? [], position: m?.position, result: m?.result ?? '-' };
  nodes.set(n.id, n);
  return n;
}

function setRoot(position, result) {
  nodes.clear();
  root = newNode(null, { position, result });
  cur = root;
}

/** The moves from the root to `n`. */
function pathOf(n) {
  const out = [];
  for (let x = n; x && x.parent; x = x.parent) out.unshift(x.move);
  return out;
}

function mainLine() {
  const out = [];
  for (let n = root; n.children.length; n = n.children[0]) out.push(n.children[0]);
  return out;
}

/** The first node of the variation `n` is in (n itself, or an ancestor), or null on the main line. */
function variationStart(n) {
  let a = n;
  while (a.parent && a.parent.children[0] === a) a = a.parent;
  return a.parent ? a : null;
}

/** The child of `n` reached by `move`, made with the rules when it is new. */
async function child(n, move) {
  const known = n.children.find((c) => c.move === move);
  if (known) return known;
  const m = await engine({ op: 'apply', variant, rules, position: n.position, move });
  const c = newNode(n, m);
  n.children.push(c);
  return c;
}

// ---------------------------------------------------------------- showing a node

const rootSide = () => parsePosition(root.position)?.side || 'S';

/** The move number of a node's move (NOT-6.3), counted from the root's side to move. */
function moveNo(n) {
  const k = n.depth - 1 + (rootSide() === 'N' ? 1 : 0);
  return Math.floor(k / 2) + 1;
}

async function go(n, { animate = false } = {}) {
  // While the editor is open the board shows the position being edited.
  if (!n || editing) return;
  const mine = ++gen;
  // A move still being drawn seed by seed is finished first, so that it cannot change the
  // board after this node is drawn.
  if (anim) {
    board.skip();
    await anim.catch(() => {});
    if (mine !== gen) return;
  }
  const from = cur;
  cur = n;
  analyst.stop();
  $('server-line').textContent = '';
  delete $('server-line').dataset.best;
  chooser.clear();
  board.over = n.result !== '-';
  if (animate && from === n.parent && $('animate').checked && n.events.length) {
    busy = true;
    anim = board.animate(n.events, n.by, n.position);
    try {
      await anim;
    } finally {
      busy = false;
      anim = null;
    }
    if (mine !== gen) return;
  }
  board.setPosition(n.position, n.move);
  board.container.dataset.node = String(n.id);
  update();
  offer(n, mine);
  analyst.start(n);
}

async function offer(n, mine) {
  if (editing || n.result !== '-') return;
  let legal;
  try {
    legal = await engine({ op: 'legal', variant, rules, position: n.position });
  } catch (err) {
    notify(status, t('analysis.engine_failed', { error: err.message }), 'error');
    return;
  }
  if (mine !== gen || editing) return;
  const p = parsePosition(n.position);
  chooser.offer(legal, { side: p.side, namua: variant !== 'kimasai' && p.hands[p.side] > 0 });
}

async function play(move) {
  if (busy || !cur) return;
  busy = true;
  chooser.wait(move);
  let c;
  try {
    c = await child(cur, move);
  } catch (err) {
    busy = false;
    notify(status, t('analysis.move_refused', { move, error: err.message }), 'error');
    return go(cur);
  }
  busy = false;
  notify(status, '');
  renderTree();
  await go(c, { animate: true });
}

function pickPit(pit) {
  if (editing) return selectPit(pit);
  chooser.pick(pit);
}

function update() {
  const n = cur;
  const p = parsePosition(n.position);
  if (!n.parent) {
    $('node-headline').textContent = t('analysis.start_headline');
    $('node-detail').textContent = p ? `${t('game.to_move', { side: SIDE_NAMES[p.side] })}.` : '';
  } else {
    $('node-headline').textContent = t('replay.step_headline', { n: n.depth, who: SIDE_NAMES[n.by], move: n.move });
    let detail = describeEvents(n.events, n.by);
    if (n.result === 'draw') detail += ` ${t('analysis.result_draw')}`;
    else if (n.result !== '-') detail += ` ${t('game.wins', { side: SIDE_NAMES[n.result] })}.`;
    $('node-detail').textContent = detail;
  }
  $('first').disabled = $('prev').disabled = !n.parent;
  $('next').disabled = $('last').disabled = !n.children.length;
  $('delete').disabled = !n.parent;
  $('promote').disabled = !variationStart(n);
  $('position-text').value = n.position;
  for (const b of document.querySelectorAll('#tree .mv')) {
    const on = Number(b.dataset.node) === n.id;
    b.classList.toggle('current', on);
    if (on) b.setAttribute('aria-current', 'step');
    else b.removeAttribute('aria-current');
  }
  const c = document.querySelector('#tree .mv.current');
  if (c) c.scrollIntoView({ block: 'nearest' });
  writeUrl();
}

function moveButton(n, number) {
  const no = moveNo(n);
  const label = n.by === 'S' ? `${no}.` : number ? `${no}…` : null;
  const caps = capturedBy(n.events);
  return [
    label ? el('span', { class: 'no' }, label) : null,
    label ? ' ' : null,
    el('button', { type: 'button', class: 'mv', 'data-node': n.id, 'data-move': n.move, title: describeEvents(n.events, n.by), onclick: () => go(n) }, n.move),
    caps ? el('span', { class: 'cap' }, `×${caps}`) : null,
    ' ',
  ].filter((x) => x !== null);
}

/** Appends the line that goes on from `n` to `box`: each main move, then its alternatives. */
function renderLine(n, box, numberFirst) {
  let number = numberFirst;
  let run = el('span', { class: 'run' });
  box.append(run);
  for (let x = n; x.children.length; x = x.children[0]) {
    const [main, ...others] = x.children;
    run.append(...moveButton(main, number));
    number = false;
    if (!others.length) continue;
    for (const v of others) {
      const vb = el('div', { class: 'variation' });
      const head = el('span', { class: 'run' }, ...moveButton(v, true));
      vb.append(head);
      renderLine(v, vb, false);
      box.append(vb);
    }
    run = el('span', { class: 'run' });
    box.append(run);
    number = true;
  }
}

function renderTree() {
  const box = $('tree');
  if (!root.children.length) {
    box.replaceChildren(el('p', { class: 'muted small' }, t('analysis.tree_empty')));
  } else {
    const main = el('div', { class: 'line' });
    renderLine(root, main, true);
    box.replaceChildren(main);
  }
  if (cur) update();
}

// ---------------------------------------------------------------- the address

function writeUrl() {
  const q = new URLSearchParams();
  q.set('variant', variant);
  if (rules !== '-') q.set('rules', rules);
  if (root.position !== startText[variantKey()]) q.set('position', root.position);
  const main = mainLine();
  if (main.length) q.set('moves', main.map((n) => n.move).join(','));
  const k = main.indexOf(cur);
  if (cur !== root && k < 0) q.set('line', pathOf(cur).join(','));
  else if (k + 1 < main.length) q.set('at', String(k + 1));
  history.replaceState(null, '', `/analysis?${q}`);
}

const startText = {};
const variantKey = () => `${variant} ${rules}`;

const list = (s) => (s ? s.split(',').map((x) => x.trim()).filter(Boolean).slice(0, MAX_LINK_MOVES) : []);

/** Opens the board the address describes (or the start position). */
async function readUrl() {
  const q = new URLSearchParams(location.search);
  const v = q.get('variant');
  variant = VARIANT_TITLES[v] ? v : 'kiswahili';
  rules = q.get('rules') || '-';
  let checked;
  try {
    checked = await engine({ op: 'validate', variant, rules, position: variant });
  } catch (err) {
    notify(status, t('analysis.bad_link', { error: err.message }), 'error');
    rules = '-';
    checked = await engine({ op: 'validate', variant, rules, position: variant });
  }
  startText[variantKey()] = checked.position;
  const asked = q.get('position');
  if (asked) {
    const c = await engine({ op: 'validate', variant, rules, position: asked });
    if (c.valid) checked = c;
    else notify(status, t('analysis.bad_link', { error: problemText(c.problem, variant) }), 'error');
  }
  await drawFresh(checked.position);
  setRoot(checked.position, checked.result);
  // The main line, as far as its moves are legal.
  let n = root;
  for (const m of list(q.get('moves'))) {
    try {
      n = await child(n, m);
    } catch (err) {
      notify(status, t('analysis.bad_link', { error: err.message }), 'error');
      break;
    }
  }
  let target = root;
  if (q.get('line')) {
    target = root;
    for (const m of list(q.get('line'))) {
      try {
        target = await child(target, m);
      } catch (err) {
        notify(status, t('analysis.bad_link', { error: err.message }), 'error');
        break;
      }
    }
  } else {
    const main = mainLine();
    const at = q.has('at') ? Number(q.get('at')) : main.length;
    target = at >= 1 && main.length ? main[Math.min(at, main.length) - 1] : root;
  }
  renderTree();
  await go(target);
  syncEditorChoices();
}

/** A new board picture for the variant (the renderer in the browser engine). */
async function drawFresh(position) {
  const svg = await engine({ op: 'svg', variant, rules, position });
  board.setSvg(svg);
  board.setFlipped($('flip').checked);
}

// ---------------------------------------------------------------- the engine

/**
 * The engine's evaluation of the node shown: searches of depth 1, 2, 3, ... in a worker of
 * its own (engine-worker.js), each shown when it ends; a new node or the toggle stops it (the
 * worker of a search under way is ended, so the next node does not wait for it).
 */
class Analyst {
  constructor() {
    this.worker = null;
    this.gen = 0;
    this.inflight = false;
  }

  #post(request) {
    if (!this.worker) this.worker = new Worker(new URL('./engine-worker.js', import.meta.url), { type: 'module' });
    return new Promise((resolve, reject) => {
      this.worker.onmessage = (e) => {
        const { ok, error } = e.data || {};
        if (error !== undefined) reject(new Error(error));
        else resolve(ok);
      };
      this.worker.onerror = (e) => reject(new Error(e.message || t('offline.engine_failed')));
      this.worker.postMessage({ id: 1, ...request });
    });
  }

  stop() {
    this.gen += 1;
    if (this.inflight && this.worker) {
      this.worker.terminate();
      this.worker = null;
    }
    this.inflight = false;
  }

  start(n) {
    this.stop();
    const box = $('engine');
    delete box.dataset.depth;
    delete box.dataset.best;
    $('engine-eval').textContent = '';
    $('engine-line').textContent = '';
    $('engine-depth').textContent = '';
    if (!$('engine-on').checked || editing) {
      $('engine-eval').textContent = $('engine-on').checked ? '' : t('analysis.engine_off');
      return;
    }
    if (n.result !== '-') {
      $('engine-eval').textContent = n.result === 'draw' ? t('analysis.result_draw') : `${t('game.wins', { side: SIDE_NAMES[n.result] })}.`;
      return;
    }
    $('engine-depth').textContent = t('analysis.thinking');
    this.#deepen(this.gen, n, 1);
  }

  async #deepen(mine, n, depth) {
    this.inflight = true;
    let r;
    try {
      r = await this.#post({ op: 'search', variant, rules, position: n.position, depth, time_ms: ITERATION_MS });
    } catch (err) {
      if (mine !== this.gen) return;
      this.inflight = false;
      $('engine-depth').textContent = t('analysis.engine_failed', { error: err.message });
      return;
    }
    if (mine !== this.gen) return;
    this.inflight = false;
    show(n, r);
    if (r.best && r.depth >= depth && depth < MAX_DEPTH && !(r.score_kind !== 'cp' && r.score <= depth)) this.#deepen(mine, n, depth + 1);
  }
}
const analyst = new Analyst();

/** The engine's answer in words: who is better (from South's side), the line, the depth. */
function show(n, r) {
  const p = parsePosition(n.position);
  const stm = p.side;
  let text;
  if (r.score_kind === 'win') text = t('analysis.eval_wins', { side: SIDE_NAMES[stm], n: r.score });
  else if (r.score_kind === 'loss') text = t('analysis.eval_wins', { side: SIDE_NAMES[otherSide(stm)], n: r.score });
  else {
    const south = (stm === 'S' ? r.score : -r.score) / 100;
    const sign = south > 0 ? '+' : south < 0 ? '−' : '±';
    const n1 = Math.abs(south).toFixed(1);
    if (Math.abs(south) < 0.5) text = t('analysis.eval_even', { score: `${sign}${n1}` });
    else text = t('analysis.eval_ahead', { side: SIDE_NAMES[south > 0 ? 'S' : 'N'], n: n1, score: `${sign}${n1}` });
  }
  $('engine-eval').textContent = text;
  $('engine-line').textContent = r.line.length ? t('analysis.best_line', { line: r.line.join(' ') }) : '';
  $('engine-depth').textContent = t('analysis.depth', { depth: r.depth, nodes: r.nodes.toLocaleString() });
  const box = $('engine');
  box.dataset.depth = String(r.depth);
  box.dataset.best = r.best || '';
}

// ---------------------------------------------------------------- the position editor

/** The words for a position the rules refused (bao-wasm `Problem`), from the catalogs. */
const PROBLEM = {
  syntax: () => t('analysis.err_syntax'),
  variant: () => t('analysis.err_variant'),
  board: () => t('analysis.err_board'),
  side: () => t('analysis.err_side'),
  hands: () => t('analysis.err_hands'),
  ply: () => t('analysis.err_ply'),
  total: (p, v) => t('analysis.err_total', { total: p.total, variant: VARIANT_TITLES[v] || v }),
  front_rows_empty: () => t('analysis.err_front_rows_empty'),
  house_empty: (p) => t('analysis.err_house_empty', { side: SIDE_NAMES[p.side], pit: p.pit }),
  duty_rule: () => t('analysis.err_duty_rule'),
  duty_needs_house: (p) => t('analysis.err_duty_needs_house', { side: SIDE_NAMES[p.side] }),
  block_rule: () => t('analysis.err_block_rule'),
  block_hands: () => t('analysis.err_block_hands'),
  block_pit: (p) => t('analysis.err_block_pit', { pit: p.pit, side: SIDE_NAMES[p.side] }),
  block_empty: (p) => t('analysis.err_block_empty', { pit: p.pit }),
  block_house: (p) => t('analysis.err_block_house', { pit: p.pit }),
  block_capture: (p) => t('analysis.err_block_capture', { side: SIDE_NAMES[p.side] }),
  must_rule: () => t('analysis.err_must_rule'),
  must_hands: () => t('analysis.err_must_hands'),
  must_pit: (p) => t('analysis.err_must_pit', { pit: p.pit, side: SIDE_NAMES[p.side] }),
  nointro_rule: () => t('analysis.err_nointro_rule'),
  nointro_reserve: (p) => t('analysis.err_nointro_reserve', { side: SIDE_NAMES[p.side] }),
  flag_variant: (p) => t('analysis.err_flag_variant', { flag: p.flag }),
  flag_unknown: (p) => t('analysis.err_flag_unknown', { flag: p.flag }),
  flag_twice: (p) => t('analysis.err_flag_twice', { flag: p.flag }),
  flags: (p) => t('analysis.err_flags', { detail: p.detail }),
};

/** The words for problem `p` of a position of variant `v`. */
function problemText(p, v) {
  if (!p) return '';
  const f = PROBLEM[p.code] || PROBLEM[p.kind];
  return f ? f(p, v) : p.detail;
}

const ROWS = {
  b: [8, 7, 6, 5, 4, 3, 2, 1].map((k) => `b${k}`),
  a: [8, 7, 6, 5, 4, 3, 2, 1].map((k) => `a${k}`),
  A: [1, 2, 3, 4, 5, 6, 7, 8].map((k) => `A${k}`),
  B: [1, 2, 3, 4, 5, 6, 7, 8].map((k) => `B${k}`),
};
const ALL_PITS = [...ROWS.b, ...ROWS.a, ...ROWS.A, ...ROWS.B];

/** The position being edited, as fields. */
let draft = null;
let selected = null; // the pit being edited
let checking = 0;
let draftValid = false;

function draftFrom(text, v) {
  const p = parsePosition(text);
  if (!p) return null;
  const flag = (name) => (p.flags.find((x) => x.startsWith(`${name}:`)) || '').slice(name.length + 1) || '';
  return {
    variant: v,
    pits: { ...p.pits },
    hands: { ...p.hands },
    side: p.side === 'N' ? 'N' : 'S',
    ply: p.ply,
    house: { S: p.flags.includes('house:S'), N: p.flags.includes('house:N') },
    duty: { S: p.flags.includes('duty:S'), N: p.flags.includes('duty:N') },
    block: flag('block'),
    must: flag('must'),
    nointro: p.flags.includes('nointro'),
  };
}

/** The draft as a position text (NOT-3), flags in NOT-3.4's order. */
function draftText(d) {
  const n = (x) => (Number.isFinite(x) && x >= 0 ? Math.floor(x) : 0);
  const rows = ['b', 'a', 'A', 'B'].map((r) => ROWS[r].map((pit) => n(d.pits[pit])).join(',')).join('/');
  const flags = [];
  for (const s of ['S', 'N']) if (d.house[s]) flags.push(`house:${s}`);
  for (const s of ['S', 'N']) if (d.duty[s]) flags.push(`duty:${s}`);
  if (d.block) flags.push(`block:${d.block}`);
  if (d.must) flags.push(`must:${d.must}`);
  if (d.nointro) flags.push('nointro');
  return `${d.variant} ${rows} ${d.side} ${n(d.hands.S)}/${n(d.hands.N)} ${flags.length ? flags.join(',') : '-'} ${n(d.ply)}`;
}

function edRules() {
  const parts = [];
  for (const c of document.querySelectorAll('#ed-options [data-option]')) {
    const v = c.value.trim() === '' && c.dataset.none ? 'none' : c.value.trim();
    if (v !== c.dataset.default) parts.push(`${c.dataset.option}=${v}`);
  }
  return parts.length ? parts.join(',') : '-';
}

let variantsList = null;

async function loadVariants() {
  if (variantsList) return variantsList;
  try {
    variantsList = await api('/api/variants');
  } catch {
    variantsList = [];
  }
  return variantsList;
}

/** The rule options of the draft's variant (the home page's choices), set to `current`. */
async function renderOptions(current) {
  const list = await loadVariants();
  const v = list.find((x) => x.id === draft.variant);
  const set = new Map((current && current !== '-' ? current.split(',') : []).map((kv) => kv.split('=')));
  const box = $('ed-options');
  if (!v) {
    box.replaceChildren(el('p', { class: 'muted small' }, t('analysis.options_unavailable')));
    return;
  }
  const rows = (v.options || [])
    .filter((o) => o.name !== 'match')
    .map((o) => {
      const id = `ed-opt-${o.name}`;
      const def = String(o.default);
      const values = (o.values && o.values.length ? o.values : [def]).map(String);
      const range = values.find((x) => /^\d+\.\.\d*$/.test(x));
      const value = set.get(o.name) ?? def;
      let control;
      if (range) {
        const [min, max] = range.split('..');
        const none = values.includes('none');
        control = el('input', { type: 'number', id, min, max: max || null, step: 1, inputmode: 'numeric', value: value === 'none' ? '' : value, 'data-option': o.name, 'data-default': def, 'data-none': none ? 'true' : null });
      } else {
        if (!values.includes(def)) values.unshift(def);
        control = el('select', { id, 'data-option': o.name, 'data-default': def }, values.map((x) => el('option', { value: x, selected: x === value }, x === def ? t('home.option_default_value', { value: x }) : x)));
      }
      control.addEventListener('change', changed);
      return el('div', { class: 'option' }, el('label', { for: id }, o.name), control);
    });
  box.replaceChildren(...(rows.length ? rows : [el('p', { class: 'muted' }, t('home.no_options'))]));
  optionsSummary();
}

function optionsSummary() {
  const r = edRules();
  $('ed-options-summary').textContent = r === '-' ? t('home.options_all_default') : r;
}

function fillSelect(select, pits, value) {
  select.replaceChildren(el('option', { value: '' }, t('analysis.none')), ...pits.map((p) => el('option', { value: p, selected: p === value }, p)));
  select.value = pits.includes(value) ? value : '';
}

/** The editor's controls from the draft. */
function syncEditorChoices() {
  if (!draft) draft = draftFrom(cur.position, variant);
  const d = draft;
  $('ed-variant').value = d.variant;
  const kim = d.variant === 'kimasai';
  for (const x of document.querySelectorAll('#editor .bao-only')) x.hidden = kim;
  for (const x of document.querySelectorAll('#editor .kete-only')) x.hidden = d.variant !== 'kete';
  for (const x of document.querySelectorAll('#editor .kimasai-only')) x.hidden = !kim;
  $('ed-hand-S-label').textContent = kim ? t('game.board_reserve_south') : t('game.board_hand_south');
  $('ed-hand-N-label').textContent = kim ? t('game.board_reserve_north') : t('game.board_hand_north');
  $('ed-hand-S').value = String(d.hands.S);
  $('ed-hand-N').value = String(d.hands.N);
  $('ed-side').value = d.side;
  $('ed-ply').value = String(d.ply);
  for (const s of ['S', 'N']) {
    $(`ed-house-${s}`).checked = d.house[s];
    $(`ed-duty-${s}`).checked = d.duty[s];
  }
  $('ed-nointro').checked = d.nointro;
  const front = (s) => (s === 'S' ? ROWS.A : [...ROWS.a].reverse());
  fillSelect($('ed-block'), front(d.side), d.block);
  fillSelect($('ed-must'), front(otherSide(d.side)), d.must);
  const sel = $('ed-pit-seeds');
  sel.disabled = !selected;
  $('ed-minus').disabled = $('ed-plus').disabled = !selected;
  $('ed-pit-label').textContent = selected ? t('analysis.pit_selected', { pit: selected }) : t('analysis.pit_none');
  if (selected) sel.value = String(d.pits[selected] ?? 0);
  else sel.value = '';
}

/** The draft changed: its text, the board, and the rules' verdict. */
async function changed() {
  optionsSummary();
  const text = draftText(draft);
  $('ed-text').value = text;
  await check(text);
}

async function check(text) {
  const mine = ++checking;
  const r = edRules();
  const total = Object.values(draft.pits).reduce((a, b) => a + (Number(b) || 0), 0) + (Number(draft.hands.S) || 0) + (Number(draft.hands.N) || 0);
  $('ed-total').textContent = t('analysis.total', { n: total });
  if (parsePosition(text)?.variant === board.svg?.getAttribute('data-variant')) board.setPosition(text);
  markEditable();
  let c;
  try {
    c = await engine({ op: 'validate', variant: draft.variant, rules: r, position: text });
  } catch (err) {
    c = { valid: false, problem: { kind: 'rules', code: 'rules', detail: err.message } };
  }
  if (mine !== checking) return;
  draftValid = c.valid;
  $('ed-apply').disabled = !c.valid;
  const box = $('ed-error');
  if (c.valid) {
    notify(box, '');
    $('ed-stage').textContent = STAGE_TEXT[c.stage] ? t('analysis.stage', { stage: STAGE_TEXT[c.stage][0] }) : '';
    $('editor').dataset.valid = 'true';
  } else {
    notify(box, c.problem.code === 'rules' ? t('analysis.err_rules', { detail: c.problem.detail }) : problemText(c.problem, draft.variant), 'error');
    $('editor').dataset.valid = 'false';
  }
}

/** In the editor every pit is a button that chooses it. */
function markEditable() {
  if (!editing) return;
  board.markLegal(ALL_PITS.filter((p) => board.pit(p)), selected);
  for (const g of board.container.querySelectorAll('g.pit.legal')) {
    const b = g.querySelector(':scope > .hit') || g;
    b.setAttribute('aria-label', t('analysis.pit_edit_label', { pit: g.dataset.pit, n: draft.pits[g.dataset.pit] ?? 0 }));
  }
}

function selectPit(pit) {
  selected = pit;
  syncEditorChoices();
  markEditable();
  $('ed-pit-seeds').focus();
}

function setSeeds(n) {
  if (!selected) return;
  draft.pits[selected] = Math.max(0, Math.min(64, Number.isFinite(n) ? Math.floor(n) : 0));
  $('ed-pit-seeds').value = String(draft.pits[selected]);
  changed();
}

async function openEditor() {
  editing = true;
  analyst.start(cur); // stops, and says nothing while editing
  chooser.clear();
  for (const id of ['first', 'prev', 'next', 'last', 'promote', 'delete']) $(id).disabled = true;
  draft = draftFrom(cur.position, variant);
  selected = null;
  await renderOptions(rules);
  syncEditorChoices();
  changed();
}

function closeEditor() {
  editing = false;
  selected = null;
  board.clearMarks();
  if (cur) {
    drawFresh(cur.position).then(() => go(cur));
  }
}

$('editor-box').addEventListener('toggle', () => {
  if ($('editor-box').open) openEditor();
  else if (editing) closeEditor();
});

$('ed-variant').addEventListener('change', async () => {
  const v = $('ed-variant').value;
  const start = await engine({ op: 'validate', variant: v, rules: '-', position: v });
  draft = draftFrom(start.position, v);
  selected = null;
  await drawOf(v, start.position);
  await renderOptions('-');
  syncEditorChoices();
  changed();
});

async function drawOf(v, position) {
  const svg = await engine({ op: 'svg', variant: v, rules: '-', position });
  board.setSvg(svg);
  board.setFlipped($('flip').checked);
}

$('ed-pit-seeds').addEventListener('input', () => setSeeds(Number($('ed-pit-seeds').value)));
$('ed-minus').addEventListener('click', () => selected && setSeeds((draft.pits[selected] || 0) - 1));
$('ed-plus').addEventListener('click', () => selected && setSeeds((draft.pits[selected] || 0) + 1));
for (const s of ['S', 'N']) {
  $(`ed-hand-${s}`).addEventListener('input', () => {
    draft.hands[s] = Math.max(0, Math.min(64, Math.floor(Number($(`ed-hand-${s}`).value)) || 0));
    changed();
  });
  $(`ed-house-${s}`).addEventListener('change', () => {
    draft.house[s] = $(`ed-house-${s}`).checked;
    changed();
  });
  $(`ed-duty-${s}`).addEventListener('change', () => {
    draft.duty[s] = $(`ed-duty-${s}`).checked;
    changed();
  });
}
$('ed-side').addEventListener('change', () => {
  draft.side = $('ed-side').value;
  // The block is a pit of the side to move, the must pit one of the other side (NOT-3.4).
  draft.block = '';
  draft.must = '';
  syncEditorChoices();
  changed();
});
$('ed-ply').addEventListener('input', () => {
  draft.ply = Math.max(0, Math.floor(Number($('ed-ply').value)) || 0);
  changed();
});
$('ed-block').addEventListener('change', () => {
  draft.block = $('ed-block').value;
  changed();
});
$('ed-must').addEventListener('change', () => {
  draft.must = $('ed-must').value;
  changed();
});
$('ed-nointro').addEventListener('change', () => {
  draft.nointro = $('ed-nointro').checked;
  changed();
});
$('ed-text').addEventListener('input', () => {
  const text = $('ed-text').value;
  const v = parsePosition(text)?.variant;
  const d = v && VARIANT_TITLES[v] ? draftFrom(text, v) : null;
  if (d && d.variant === draft.variant) {
    draft = d;
    syncEditorChoices();
  }
  check(text);
});
$('ed-start').addEventListener('click', async () => {
  const start = await engine({ op: 'validate', variant: draft.variant, rules: edRules(), position: draft.variant });
  if (start.valid) draft = draftFrom(start.position, draft.variant);
  selected = null;
  syncEditorChoices();
  changed();
});
$('ed-clear').addEventListener('click', () => {
  for (const p of ALL_PITS) draft.pits[p] = 0;
  draft.hands = { S: 0, N: 0 };
  draft.house = { S: false, N: false };
  draft.duty = { S: false, N: false };
  draft.block = '';
  draft.must = '';
  draft.nointro = false;
  syncEditorChoices();
  changed();
});
$('ed-apply').addEventListener('click', async () => {
  const r = edRules();
  const c = await engine({ op: 'validate', variant: draft.variant, rules: r, position: $('ed-text').value });
  if (!c.valid) return;
  variant = draft.variant;
  rules = r;
  if (!startText[variantKey()]) startText[variantKey()] = (await engine({ op: 'validate', variant, rules, position: variant })).position;
  setRoot(c.position, c.result);
  editing = false;
  selected = null;
  $('editor-box').open = false;
  await drawFresh(c.position);
  renderTree();
  await go(root);
  notify(status, t('analysis.position_set'));
});

// ---------------------------------------------------------------- buttons and keys

function back() {
  if (cur?.parent) go(cur.parent);
}
function forward() {
  if (cur?.children.length) go(cur.children[0], { animate: true });
}
$('first').addEventListener('click', () => go(root));
$('prev').addEventListener('click', back);
$('next').addEventListener('click', forward);
$('last').addEventListener('click', () => {
  let n = cur;
  while (n.children.length) n = n.children[0];
  go(n);
});
$('delete').addEventListener('click', () => {
  const n = cur;
  if (!n.parent) return;
  n.parent.children.splice(n.parent.children.indexOf(n), 1);
  const parent = n.parent;
  cur = parent;
  renderTree();
  go(parent);
});
$('promote').addEventListener('click', () => {
  const a = variationStart(cur);
  if (!a) return;
  const sibs = a.parent.children;
  sibs.splice(sibs.indexOf(a), 1);
  sibs.unshift(a);
  renderTree();
});
$('flip').addEventListener('change', () => {
  board.setFlipped($('flip').checked);
  chooser.render();
});
$('server-ask').addEventListener('click', async () => {
  const n = cur;
  const out = $('server-line');
  out.textContent = t('analysis.thinking');
  try {
    const r = await api('/api/analysis', { method: 'POST', body: { variant, rules, position: n.position } });
    if (n !== cur) return;
    out.textContent = t('analysis.server_result', { best: r.best, line: r.line.join(' '), depth: r.depth });
    out.dataset.best = r.best;
  } catch (err) {
    if (n === cur) out.textContent = t('analysis.server_failed', { error: errorText(err) });
  }
});
$('engine-on').addEventListener('change', () => cur && analyst.start(cur));
// A page out of sight does not keep the engine (and a phone's battery) busy.
document.addEventListener('visibilitychange', () => {
  if (!cur || editing) return;
  if (document.hidden) analyst.stop();
  else analyst.start(cur);
});
document.addEventListener('keydown', (e) => {
  if (!cur || editing || e.target.closest('input, textarea, select')) return;
  if (e.key === 'ArrowRight') forward();
  else if (e.key === 'ArrowLeft') back();
  else if (e.key === 'Home') go(root);
  else if (e.key === 'End') $('last').click();
  else return;
  e.preventDefault();
});
$('copy-position').addEventListener('click', async () => {
  const ok = await copyText(cur.position, $('position-text'));
  $('copy-note').textContent = ok ? t('analysis.copied_position') : t('analysis.copy_failed');
});
$('copy-link').addEventListener('click', async () => {
  const ok = await copyText(location.href);
  $('copy-note').textContent = ok ? t('analysis.copied_link') : t('analysis.copy_failed');
});
document.addEventListener('keydown', (e) => {
  if (e.key === 'Escape' && busy) board.skip();
});

readUrl().catch((err) => notify(status, t('analysis.engine_failed', { error: err.message }), 'error'));
