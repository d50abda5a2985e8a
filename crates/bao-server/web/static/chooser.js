// Choosing a move on the board, for the game page and the puzzles page alike. The player taps
// a legal pit; where that pit has several legal moves, the chooser asks in up to two steps:
// the letter (the direction of sowing, or the kichwa a namua capture enters at: NOT-1,
// KIS-4.2), then whether to stop in the house or go on safari (KIS-7.5). A pit with one move
// is played at once, or after a confirmation when the page asks for one. Texts: `choose.*`.
//
// Every button that plays a move at once carries `data-move`; the direction or kichwa buttons
// carry `data-letter`, stop or safari `data-choice`, the confirmation `data-confirm`.

import { el, uniq } from './app.js';
import { t, touch } from './i18n.js';

export class MoveChooser {
  /**
   * `box`: the element the questions are shown in; `board`: the BoardView (legal pits are
   * marked on it, and its orientation points the arrows); `play(move)`: plays a canonical
   * move; `confirmForced()`: whether a pit with only one way to play waits for a click.
   */
  constructor({ box, board, play, confirmForced = () => false }) {
    this.box = box;
    this.board = board;
    this.play = play;
    this.confirmForced = confirmForced;
    this.turn = null; // {legal, side, namua}: what is offered now
    this.sel = null; // the move being chosen: {pit, letter?, plus?, forced}
    document.addEventListener('keydown', (e) => {
      if (e.key === 'Escape' && this.sel) this.cancel();
    });
  }

  /**
   * Offers `legal` (GameState.legal entries, or legalFromText of canonical moves) to the
   * player of `side`; `namua`: the letter of a capture names the entry kichwa. An empty list
   * offers nothing (the marks go, a pit being chosen is kept for the next offer).
   */
  offer(legal, { side, namua = false }) {
    this.turn = { legal: legal || [], side, namua };
    this.render();
  }

  /** Nothing to choose now (an animation, a move on its way): no marks, no questions. */
  clear() {
    this.turn = null;
    this.sel = null;
    this.render();
  }

  /** A legal pit was tapped. */
  pick(pit) {
    this.sel = { pit, forced: false };
    this.render();
  }

  /** Forgets the pit being chosen (Cancel, Escape, a new game); `quiet`: no redraw. */
  cancel(quiet = false) {
    this.sel = null;
    if (!quiet) this.render();
  }

  /** Shows that `move` is on its way (the marks go until the next offer). */
  wait(move) {
    this.turn = null;
    this.sel = null;
    this.board.clearMarks();
    this.box.replaceChildren(el('span', { class: 'muted' }, t('choose.playing', { move })));
  }

  /** Which way a letter points on the screen, for the side whose pit it is. */
  arrow(letter, side) {
    const bottom = this.board.flipped ? 'N' : 'S';
    const left = letter === 'L' ? side === bottom : side !== bottom;
    return left ? '←' : '→';
  }

  /** Draws the current step again (after a change of orientation, say). */
  render() {
    const { box, board } = this;
    const legal = this.turn ? this.turn.legal : [];
    if (!legal.length) {
      board.clearMarks();
      box.replaceChildren();
      return;
    }
    const { side, namua } = this.turn;
    const sel = this.sel;
    const pits = uniq(legal.map((c) => c.pit));
    board.markLegal(pits, sel?.pit);
    if (!sel || !pits.includes(sel.pit)) {
      this.sel = null;
      box.replaceChildren(el('span', { class: 'prompt' }, touch ? t('choose.tap_pit') : t('choose.click_pit')), el('span', { class: 'muted' }, pits.join(' ')));
      return;
    }
    let cands = legal.filter((c) => c.pit === sel.pit);
    const cancel = el('button', { type: 'button', onclick: () => this.cancel() }, t('choose.cancel'));
    // Step 1: the letter (direction, or entry kichwa of a namua capture).
    if (sel.letter === undefined) {
      const letters = uniq(cands.map((c) => c.letter));
      if (letters.length > 1) {
        const buttons = letters.map((l) => {
          const same = cands.filter((x) => x.letter === l);
          const c = same[0];
          const row = sel.pit[0];
          const kichwa = `${side === 'S' ? 'A' : 'a'}${l === 'L' ? 1 : 8}`;
          const dir = `${this.arrow(l, side)} ${l}`;
          const text = namua && !c.takasa ? t('choose.enter_at', { dir, kichwa }) : t('choose.sow_towards', { dir, pit: `${row}${l === 'L' ? 1 : 8}` });
          // A letter with one move plays it (no confirmation: the letter was chosen by hand).
          const move = same.length === 1 ? c.move : null;
          return el('button', { type: 'button', class: 'primary', 'data-letter': l, 'data-move': move, onclick: () => { sel.letter = l; this.render(); } }, text);
        });
        const q = namua && !cands[0].takasa ? t('choose.which_kichwa', { pit: sel.pit }) : t('choose.which_way', { pit: sel.pit });
        box.replaceChildren(el('span', { class: 'prompt' }, q), ...(this.arrow('L', side) === '→' ? buttons.reverse() : buttons), cancel);
        buttons[0].focus();
        return;
      }
      sel.letter = letters[0];
      sel.forced = true;
    }
    cands = cands.filter((c) => c.letter === sel.letter);
    // Step 2: stop in the house or go on safari (KIS-7.5), only where both exist.
    if (sel.plus === undefined) {
      const kinds = uniq(cands.map((c) => !!c.safari));
      if (kinds.length > 1) {
        const stop = cands.find((c) => !c.safari);
        const go = cands.find((c) => c.safari);
        const b1 = el('button', { type: 'button', class: 'primary', 'data-choice': 'stop', 'data-move': stop.move, onclick: () => this.play(stop.move) }, t('choose.stop_in_house', { move: stop.move }));
        const b2 = el('button', { type: 'button', class: 'primary', 'data-choice': 'safari', 'data-move': go.move, onclick: () => this.play(go.move) }, t('choose.safari', { move: go.move }));
        box.replaceChildren(el('span', { class: 'prompt' }, t('choose.reach_house')), b1, b2, cancel);
        b1.focus();
        return;
      }
      sel.plus = kinds[0];
    }
    const move = cands[0];
    if (!move) {
      this.sel = null;
      this.render();
      return;
    }
    if (sel.forced && this.confirmForced()) {
      const b = el('button', { type: 'button', class: 'primary', 'data-confirm': move.move, 'data-move': move.move, onclick: () => this.play(move.move) }, t('choose.play_move', { move: move.move }));
      box.replaceChildren(el('span', { class: 'prompt' }, t('choose.only_one_way')), b, cancel);
      b.focus();
      return;
    }
    this.play(move.move);
  }
}
