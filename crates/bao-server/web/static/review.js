// Game review on the replay page (docs/api.md "Review"): asks the server for the
// engine's review of a finished game, then shows an evaluation graph (click a point to go to
// that move), the best move on the board at each step, the marks in the move list and a
// summary per player. Also the "Review this game" link of the game page.
//
// Once a review is made, the mistakes (`?` and `??`) of a player become exercises: the board
// goes to the position before the move, the player looks for a better one on the board, and
// the server judges it as the review judges moves (POST .../review/try): a move that loses
// less than an inaccuracy counts as found, and the engine's line can be shown after.
//
// While a review is queued or made, its progress comes on the game's socket
// (`/api/games/{id}/ws`, `review` messages, docs/api.md "Review"); the review is read once each
// time the socket (re)opens and once made. No polling.
//
// The replay page calls: attach() once, setGame() when a game is shown, showStep() after the
// board is drawn. Nothing happens at import.

import { api, el, errorText, parsePosition } from './app.js';
import { t } from './i18n.js';
import { MoveChooser } from './chooser.js';
import { engine } from './offline-engine.js';
import { seatOf } from './seats.js';
import { keepSocket } from './socket.js';

const SVG = 'http://www.w3.org/2000/svg';
/** Evaluations beyond this many centi-seeds are drawn at the edge of the graph. */
const GRAPH_CAP = 1500;
const MARK_CLASS = { '?!': 'inaccuracy', '?': 'mistake', '??': 'blunder' };

// The review's own look (style.css belongs to the page layout; this module brings its own).
const STYLE = `
.review-graph { margin: 0.6rem 0 0; }
.review-graph-svg { width: 100%; height: auto; display: block; background: #f7f1e6; border-radius: 6px; }
.review-graph-svg .upper-half { fill: #ece3d2; }
.review-graph-svg .axis { stroke: #9a8a70; stroke-width: 1; }
.review-graph-svg .area { fill: rgba(42, 122, 42, 0.18); }
.review-graph-svg .curve { fill: none; stroke: #2a5a2a; stroke-width: 2; }
.review-graph-svg .cursor { stroke: #1565c0; stroke-width: 2; }
.review-graph-svg .point { fill: #2a5a2a; cursor: pointer; }
.review-graph-svg .point.inaccuracy { fill: #d8a300; }
.review-graph-svg .point.mistake { fill: #e06c00; }
.review-graph-svg .point.blunder { fill: #c62828; }
.review-graph-svg .point:focus { outline: none; stroke: #1565c0; stroke-width: 3; }
.review-mark { font-weight: bold; margin-left: 0.15rem; }
.review-mark.inaccuracy { color: #8a6a00; }
.review-mark.mistake { color: #b35300; }
.review-mark.blunder { color: #c62828; }
.review-best .hole { stroke: #1565c0 !important; stroke-width: 5 !important; }
table.review-summary { border-collapse: collapse; width: 100%; }
table.review-summary th, table.review-summary td { padding: 0.2rem 0.4rem; text-align: right; }
table.review-summary th[scope="row"] { text-align: left; }
.review-practice { margin-top: 0.8rem; border-top: 1px solid #e0d6c4; padding-top: 0.6rem; }
.review-practice .verdict.good { color: #1f6b1f; font-weight: bold; }
.review-practice .verdict.bad { color: #8f2a00; font-weight: bold; }
`;

const sideName = (s) => (s === 'N' ? t('review.north') : t('review.south'));
const seeds = (cp) => (cp / 100).toFixed(1);

/** `cp 85` / `win 3` / `loss 4` (the mover's score) in words. */
function scoreWords(score) {
  const [kind, n] = String(score).split(' ');
  if (kind === 'win') return t('review.score_win', { n });
  if (kind === 'loss') return t('review.score_loss', { n });
  const cp = Number(n);
  return t('review.score_seeds', { seeds: `${cp > 0 ? '+' : ''}${seeds(cp)}` });
}

function markWord(mark) {
  if (mark === '?!') return t('review.mark_inaccuracy');
  if (mark === '?') return t('review.mark_mistake');
  if (mark === '??') return t('review.mark_blunder');
  return '';
}

/** The pit a move is played from (`A6R*` -> `A6`, `b1L` -> `b1`, kimasai `A1` -> `A1`). */
function pitOf(move) {
  const m = /^([AaBb][1-8])/.exec(move || '');
  return m ? m[1] : null;
}

export class ReviewPanel {
  /**
   * @param {object} o
   * @param {HTMLElement} o.board the board container (its SVG is redrawn at each step)
   * @param {HTMLElement} o.aside where the review panel goes
   * @param {Element|null} o.before the panel goes before this child of `aside` (or last)
   * @param {HTMLElement} o.graphParent where the evaluation graph goes (appended)
   * @param {(step: number) => void} o.go moves the replay to a step
   * @param {object|null} o.view the replay's BoardView (the practice picks moves on it)
   */
  constructor({ board, aside, before = null, graphParent, go, view = null }) {
    this.board = board;
    this.go = go;
    this.view = view;
    this.practice = new Practice(this);
    this.game = null;
    this.gameNo = 1;
    this.review = null; // the "done" answer
    this.step = 0;
    this.polling = 0; // generation of the review followed; a new game stops the old one
    this.socket = null; // the game's socket while a review is on its way
    this.status = el('p', { class: 'small', id: 'review-status', 'aria-live': 'polite' });
    this.button = el('button', { type: 'button', id: 'review-start', class: 'primary', onclick: () => this.start() }, t('review.start'));
    this.here = el('p', { class: 'small', id: 'review-here' });
    this.summary = el('div', { id: 'review-summary' });
    this.panel = el(
      'section',
      { class: 'panel', id: 'review-panel', 'aria-labelledby': 'review-title' },
      el('h2', { id: 'review-title', style: 'margin-top:0' }, t('review.title')),
      el('p', {}, this.button),
      this.status,
      this.here,
      this.summary,
      this.practice.box,
    );
    this.panel.hidden = true;
    aside.insertBefore(this.panel, before);
    this.graph = el('figure', { id: 'review-graph', class: 'review-graph' });
    this.graph.hidden = true;
    graphParent.append(this.graph);
    if (!document.getElementById('review-style')) document.head.append(el('style', { id: 'review-style' }, STYLE));
  }

  /** A new game is shown; `autostart` asks for its review at once (the game page's link). */
  setGame(game, gameNo, autostart = false) {
    this.game = game;
    this.gameNo = gameNo || 1;
    this.review = null;
    this.polling += 1;
    this.unlisten();
    this.graph.hidden = true;
    this.graph.replaceChildren();
    this.summary.replaceChildren();
    this.practice.reset();
    this.here.textContent = '';
    this.status.textContent = '';
    this.panel.hidden = false;
    const finished = game.result !== '-';
    this.button.hidden = !finished;
    if (!finished) {
      this.status.textContent = t('review.unfinished');
      return;
    }
    // A review already made (or on its way) is shown without a click.
    const gen = this.polling;
    api(this.url())
      .then((r) => {
        if (gen !== this.polling) return;
        if (r.state === 'none') {
          if (autostart) this.start();
        } else this.follow(r);
      })
      .catch(() => {});
  }

  url() {
    return `/api/games/${encodeURIComponent(this.game.id)}/review?game_no=${this.gameNo}`;
  }

  async start() {
    if (!this.game) return;
    this.button.disabled = true;
    try {
      const r = await api(`/api/games/${encodeURIComponent(this.game.id)}/review`, {
        method: 'POST',
        body: { game_no: this.gameNo },
      });
      this.follow(r);
    } catch (err) {
      this.button.disabled = false;
      this.status.dataset.kind = 'error';
      this.status.textContent = err.status === 503 ? t('review.busy') : t('review.failed');
    }
  }

  /** Shows a state, then follows the review on the game's socket until it is made. */
  follow(r) {
    const gen = ++this.polling;
    delete this.status.dataset.kind;
    if (this.showProgress(r)) this.unlisten();
    else this.listen(gen);
  }

  /** Shows state `r` (a review's body, or a `review` message's progress); true when nothing
   * more will come. */
  showProgress(r) {
    if (r.state === 'done') {
      this.show(r);
      return true;
    }
    if (r.state === 'none') {
      this.button.disabled = false;
      this.status.textContent = '';
      return true;
    }
    if (r.state === 'failed') {
      this.button.disabled = false;
      this.status.dataset.kind = 'error';
      this.status.textContent = t('review.failed');
      return true;
    }
    this.button.disabled = true;
    this.status.textContent =
      r.state === 'queued' ? t('review.queued', { ahead: r.ahead }) : t('review.running', { done: r.done, total: r.total });
    return false;
  }

  /** Opens the game's socket: its first `state` (the socket listens from then on) and a made
   * or failed review bring a read of the review; `running` and `queued` are shown as they come. */
  listen(gen) {
    if (this.socket) return;
    this.panel.dataset.socket = 'connecting';
    this.socket = keepSocket(`/api/games/${encodeURIComponent(this.game.id)}/ws`, {
      onMessage: (msg) => {
        if (gen !== this.polling) return;
        if (msg.type === 'state') {
          this.panel.dataset.socket = 'open';
          this.refresh(gen);
        } else if (msg.type === 'review' && msg.game_no === this.gameNo) {
          const p = msg.progress;
          if (p.state === 'done' || p.state === 'failed') this.refresh(gen);
          else this.showProgress(p);
        }
      },
    });
  }

  unlisten() {
    if (!this.socket) return;
    this.socket.close();
    this.socket = null;
    delete this.panel.dataset.socket;
  }

  /** Reads the review once and shows it. */
  async refresh(gen) {
    let r;
    try {
      r = await api(this.url());
    } catch {
      if (gen !== this.polling) return;
      this.status.dataset.kind = 'error';
      this.status.textContent = t('review.failed');
      this.button.disabled = false;
      this.unlisten();
      return;
    }
    if (gen !== this.polling) return;
    if (this.showProgress(r)) this.unlisten();
  }

  show(r) {
    this.review = r;
    this.button.hidden = true;
    this.status.textContent = t('review.done');
    this.panel.dataset.state = 'done';
    this.drawGraph();
    this.drawSummary();
    this.markMoves();
    this.showStep(this.step);
    this.practice.offer(new URLSearchParams(location.search).has('practice'));
  }

  drawSummary() {
    const s = this.review.summary;
    const row = (side) =>
      el(
        'tr',
        {},
        el('th', { scope: 'row' }, sideName(side)),
        el('td', {}, seeds(s[side].average_loss)),
        el('td', {}, String(s[side].inaccuracies)),
        el('td', {}, String(s[side].mistakes)),
        el('td', {}, String(s[side].blunders)),
      );
    this.summary.replaceChildren(
      el(
        'table',
        { class: 'review-summary' },
        el(
          'thead',
          {},
          el(
            'tr',
            {},
            el('th', { scope: 'col' }, el('span', { class: 'visually-hidden' }, t('review.col_side'))),
            el('th', { scope: 'col' }, t('review.col_average')),
            el('th', { scope: 'col', title: t('review.mark_inaccuracy') }, '?!'),
            el('th', { scope: 'col', title: t('review.mark_mistake') }, '?'),
            el('th', { scope: 'col', title: t('review.mark_blunder') }, '??'),
          ),
        ),
        el('tbody', {}, row('S'), row('N')),
      ),
      el('p', { class: 'small muted' }, t('review.summary_note')),
    );
  }

  /** The marks after the moves of the move list (the list is redrawn with each game). */
  markMoves() {
    if (!this.review) return;
    for (const p of this.review.plies) {
      const b = document.querySelector(`#moves .mv[data-step="${p.ply}"]`);
      if (!b || p.mark === '-') continue;
      const old = b.parentElement.querySelector('.review-mark');
      if (old) old.remove();
      b.after(el('span', { class: `review-mark ${MARK_CLASS[p.mark]}`, title: markWord(p.mark) }, p.mark));
    }
  }

  drawGraph() {
    const plies = this.review.plies;
    const n = plies.length;
    const W = 600;
    const H = 160;
    const pad = 8;
    const x = (i) => pad + (n ? (i * (W - 2 * pad)) / n : 0);
    const y = (v) => H / 2 - (Math.max(-GRAPH_CAP, Math.min(GRAPH_CAP, v)) / GRAPH_CAP) * (H / 2 - pad);
    const pts = [[0, 0], ...plies.map((p) => [p.ply, p.eval])];
    const svg = document.createElementNS(SVG, 'svg');
    svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
    svg.setAttribute('class', 'review-graph-svg');
    svg.setAttribute('role', 'group');
    svg.setAttribute('aria-label', t('review.graph_label'));
    const add = (tag, attrs, parent = svg) => {
      const e = document.createElementNS(SVG, tag);
      for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
      parent.append(e);
      return e;
    };
    add('rect', { x: 0, y: 0, width: W, height: H / 2, class: 'upper-half' });
    add('line', { x1: 0, y1: H / 2, x2: W, y2: H / 2, class: 'axis' });
    const line = pts.map(([i, v]) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
    add('polygon', { points: `${x(0)},${H / 2} ${line} ${x(n)},${H / 2}`, class: 'area' });
    add('polyline', { points: line, class: 'curve' });
    this.cursor = add('line', { x1: 0, y1: 0, x2: 0, y2: H, class: 'cursor' });
    for (const p of plies) {
      const c = add('circle', {
        cx: x(p.ply).toFixed(1),
        cy: y(p.eval).toFixed(1),
        r: p.mark === '-' ? 3 : 6,
        class: `point ${MARK_CLASS[p.mark] || 'good'}`,
        tabindex: 0,
        role: 'button',
        'data-step': p.ply,
        'aria-label': t('review.graph_point', { n: p.ply, move: p.move, mark: markWord(p.mark) }).trim(),
      });
      add('title', {}, c).textContent = `${p.ply}. ${p.move} ${p.mark === '-' ? '' : p.mark}`;
      c.addEventListener('click', () => this.go(p.ply));
      c.addEventListener('keydown', (e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          this.go(p.ply);
        }
      });
    }
    this.graph.replaceChildren(svg, el('figcaption', { class: 'small muted' }, t('review.graph_label')));
    this.graph.hidden = false;
  }

  /** The board shows step `step` (moves applied): mark the best move of the next ply. */
  showStep(step) {
    this.step = step;
    if (!this.review) return;
    const plies = this.review.plies;
    if (this.cursor) {
      const n = plies.length;
      const W = 600;
      const pad = 8;
      const cx = pad + (n ? (step * (W - 2 * pad)) / n : 0);
      this.cursor.setAttribute('x1', cx.toFixed(1));
      this.cursor.setAttribute('x2', cx.toFixed(1));
    }
    for (const old of this.board.querySelectorAll('.review-best')) old.classList.remove('review-best');
    // While a mistake is being practised the best move is the answer: not shown.
    if (this.practice.active) {
      this.here.textContent = '';
      delete this.board.dataset.best;
      return;
    }
    const next = plies[step];
    if (!next) {
      this.here.textContent = t('review.at_end');
      delete this.board.dataset.best;
      return;
    }
    this.board.dataset.best = next.best;
    const pit = pitOf(next.best);
    const g = pit && this.board.querySelector(`svg [data-pit="${pit}"]`);
    if (g) g.classList.add('review-best');
    const who = sideName(next.side);
    let played;
    if (next.move === next.best || next.loss === 0) played = t('review.played_best', { side: who, move: next.move });
    else if (next.loss === 'win') played = t('review.played_threw_win', { side: who, move: next.move });
    else if (next.loss === 'loss') played = t('review.played_into_loss', { side: who, move: next.move });
    else played = t('review.played_loss', { side: who, move: next.move, seeds: seeds(next.loss) });
    const mark = next.mark === '-' ? '' : ` (${markWord(next.mark)} ${next.mark})`;
    this.here.textContent = `${t('review.best_here', { best: next.best, score: scoreWords(next.score) })} ${played}${mark}`;
  }
}

/**
 * Practice at the mistakes of a reviewed game: each `?` or `??` of the chosen side becomes
 * "find a better move". Moves are chosen on the replay's board with the game's own chooser;
 * the legal moves come from the browser engine (the rules in WebAssembly), the judgement
 * from the server's engine.
 */
class Practice {
  constructor(panel) {
    this.panel = panel;
    this.list = [];
    this.index = 0;
    this.found = new Set();
    this.side = 'both';
    this.active = false;
    this.box = el('div', { class: 'review-practice', id: 'review-practice' });
    this.box.hidden = true;
    this.chooserBox = el('div', { id: 'practice-chooser', class: 'chooser' });
    this.chooser = null;
  }

  reset() {
    this.stop();
    delete this.box.dataset.state;
    this.list = [];
    this.found = new Set();
    this.box.hidden = true;
    this.box.replaceChildren();
  }

  /** The mistakes of the side chosen, in the order they were made. */
  mistakes() {
    const plies = this.panel.review?.plies || [];
    return plies.filter((p) => (p.mark === '?' || p.mark === '??') && (this.side === 'both' || p.side === this.side));
  }

  /** After a review: the practice's invitation (or its start when the address asks for it). */
  offer(autostart) {
    const game = this.panel.game;
    const mine = game && seatOf(game.id);
    // A player who holds a seat of this game practises their own side's mistakes.
    if (mine && (mine.side === 'S' || mine.side === 'N')) this.side = mine.side;
    const all = (this.panel.review?.plies || []).filter((p) => p.mark === '?' || p.mark === '??');
    this.box.hidden = false;
    if (!all.length) {
      this.box.replaceChildren(el('p', { class: 'small muted', id: 'practice-none' }, t('review.practice_none')));
      return;
    }
    const choose = el(
      'select',
      { id: 'practice-side', onchange: (e) => { this.side = e.target.value; this.offer(false); } },
      ...['both', 'S', 'N'].map((v) => {
        const o = el('option', { value: v }, v === 'both' ? t('review.practice_both') : sideName(v));
        if (v === this.side) o.selected = true;
        return o;
      }),
    );
    const n = this.mistakes().length;
    this.box.replaceChildren(
      el('h3', { style: 'margin:0 0 0.3rem' }, t('review.practice_title')),
      el('p', { class: 'small' }, el('label', { for: 'practice-side' }, t('review.practice_whose')), ' ', choose),
      el('p', { class: 'small', id: 'practice-count' }, t('review.practice_count', { n })),
      el('p', {}, el('button', { type: 'button', id: 'practice-start', class: 'primary', disabled: n === 0 ? '' : null, onclick: () => this.open(0) }, t('review.practice_start'))),
    );
    if (autostart && n) this.open(0);
  }

  stop() {
    this.active = false;
    if (this.panel.view) this.panel.view.onPick = null;
    if (this.chooser) this.chooser.clear();
  }

  /** Exercise `i`: the board before the mistake, and the question. */
  async open(i) {
    this.list = this.mistakes();
    if (!this.list.length) return;
    this.index = Math.max(0, Math.min(i, this.list.length - 1));
    const p = this.list[this.index];
    this.active = true;
    this.box.dataset.state = 'pick';
    delete this.box.dataset.ready;
    const status = el('p', { id: 'practice-status', 'aria-live': 'polite' });
    const reveal = el('p', { class: 'small', id: 'practice-reveal' });
    const nav = el(
      'p',
      { class: 'row' },
      el('button', { type: 'button', id: 'practice-show', onclick: () => this.show(reveal, p) }, t('review.practice_show')),
      el('button', { type: 'button', id: 'practice-next', class: 'primary', onclick: () => this.next() }, this.index + 1 < this.list.length ? t('review.practice_next') : t('review.practice_finish')),
    );
    this.box.replaceChildren(
      el('h3', { style: 'margin:0 0 0.3rem' }, t('review.practice_of', { k: this.index + 1, n: this.list.length })),
      el('p', { id: 'practice-task' }, t('review.practice_task', { n: p.ply, side: sideName(p.side), move: p.move, mark: markWord(p.mark) })),
      this.chooserBox,
      status,
      reveal,
      nav,
    );
    this.status = status;
    await this.panel.go(p.ply - 1);
    // On a phone the panel is below the board: the board is where the move is chosen.
    if (this.index > 0 || new URLSearchParams(location.search).has('practice')) this.panel.board.scrollIntoView({ block: 'start', behavior: 'smooth' });
    await this.offerMoves(p);
  }

  /** The legal moves of the position before the mistake, offered on the board. */
  async offerMoves(p) {
    const game = this.panel.game;
    const view = this.panel.view;
    if (!view) return;
    if (!this.chooser) {
      this.chooser = new MoveChooser({ box: this.chooserBox, board: view, play: (move) => this.judge(move) });
    }
    view.onPick = (pit) => this.active && this.chooser.pick(pit);
    const before = p.ply === 1 ? game.start : game.moves[p.ply - 2].position;
    try {
      const legal = await engine({ op: 'legal', variant: game.variant, rules: game.rules || '-', position: before });
      if (!this.active || this.list[this.index] !== p) return;
      this.legal = legal;
      // In namua (seeds in hand) the letter of a capture names the kichwa it enters at (KIS-4.2).
      const pos = parsePosition(before);
      const namua = !!pos && pos.variant !== 'kimasai' && pos.hands[pos.side] > 0;
      this.chooser.offer(legal, { side: p.side, namua });
      if (this.box.dataset.state !== 'bad') this.status.textContent = t('review.practice_pick');
      this.box.dataset.ready = String(p.ply);
    } catch (err) {
      this.status.textContent = errorText(err);
    }
  }

  /** The server's judgement of `move` in place of the mistake. */
  async judge(move) {
    const p = this.list[this.index];
    const game = this.panel.game;
    this.chooser.wait(move);
    delete this.box.dataset.ready;
    this.box.dataset.state = 'judging';
    this.status.textContent = t('review.practice_judging');
    delete this.status.dataset.kind;
    try {
      const r = await api(`/api/games/${encodeURIComponent(game.id)}/review/try`, {
        method: 'POST',
        body: { game_no: this.panel.gameNo, ply: p.ply, move },
      });
      if (this.list[this.index] !== p) return;
      if (r.good) {
        this.found.add(p.ply);
        this.status.replaceChildren(el('span', { class: 'verdict good' }, t('review.practice_good', { move })), ' ', t('review.best_here', { best: r.best, score: scoreWords(r.score) }));
        this.box.dataset.state = 'good';
        this.chooser.clear();
      } else {
        const cost = r.loss === 'win' ? t('review.practice_lets_win_go') : r.loss === 'loss' ? t('review.practice_loses') : t('review.practice_cost', { seeds: seeds(r.loss) });
        this.status.replaceChildren(el('span', { class: 'verdict bad' }, t('review.practice_not_yet', { move })), ' ', cost);
        this.box.dataset.state = 'bad';
        await this.offerMoves(p);
      }
    } catch (err) {
      this.status.dataset.kind = 'error';
      this.status.textContent = errorText(err);
      await this.offerMoves(p);
    }
  }

  /** The engine's move and line for the exercise. */
  show(box, p) {
    box.textContent = `${t('review.best_here', { best: p.best, score: scoreWords(p.score) })} ${t('review.practice_line', { line: p.pv.slice(0, 6).join(' ') })}`;
  }

  next() {
    if (this.index + 1 < this.list.length) {
      this.open(this.index + 1);
      return;
    }
    this.stop();
    const n = this.list.length;
    this.box.dataset.state = 'done';
    this.box.replaceChildren(
      el('p', { id: 'practice-done' }, t('review.practice_done', { found: this.found.size, n })),
      el('p', {}, el('button', { type: 'button', onclick: () => this.offer(false) }, t('review.practice_again'))),
    );
  }
}

/**
 * The game page's "Review this game" link in `box` (the result panel): shown for a finished
 * game, it opens the replay page, which asks for the review at once.
 */
export function reviewLink(box, s) {
  if (!box) return;
  let a = box.querySelector('#review-link');
  if (!a) {
    a = el('a', { class: 'button', id: 'review-link' }, t('review.start'));
    const row = box.querySelector('.row') || box;
    row.append(' ', a);
  }
  const gameNo = s.match?.game_no ?? 1;
  a.href = `/replay?game=${encodeURIComponent(s.id)}&game_no=${gameNo}&review=1`;
  a.hidden = s.result === '-';
}
