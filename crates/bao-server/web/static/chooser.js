// Choosing a move on the board, for the game page, the puzzles, learn, analysis and review
// pages alike. The player taps a legal pit; where that pit has several legal moves, the
// chooser asks in up to two steps: the letter (the direction of sowing, or the kichwa a namua
// capture enters at: NOT-1.2, KIS-4.2), then whether to stop in the house or go on safari
// (KIS-7.5). A pit with one move is played at once, or after a confirmation when the page asks
// for one. Every question and button says in words what the choice does (which way the seeds
// go, from which kichwa, stop or safari), never the move's notation. Texts: `choose.*`.
//
// Every button that plays a move at once carries `data-move`; the direction or kichwa buttons
// carry `data-letter`, stop or safari `data-choice`, the confirmation `data-confirm`.

import { el, uniq } from './app.js';
import { t, tn, touch } from './i18n.js';

/**
 * Whether the first lap of a move with `letter` from `pit` goes clockwise round the mover's
 * two rows (BRD-4.1: L is ring -1 from a front pit, +1 from a back pit; ring +1 is clockwise
 * as the board is drawn, from either side, since turning the board keeps the sense of turning).
 */
export function clockwise(pit, letter) {
  const front = pit[0] === 'A' || pit[0] === 'a';
  return front ? letter === 'R' : letter === 'L';
}

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
    this.turn = null; // {legal, side, namua, house}: what is offered now
    this.sel = null; // the move being chosen: {pit, letter?, plus?, forced}
    document.addEventListener('keydown', (e) => {
      if (e.key === 'Escape' && this.sel) this.cancel();
    });
  }

  /**
   * Offers `legal` (GameState.legal entries, or legalFromText of canonical moves) to the
   * player of `side`; `namua`: the letter of a capture names the entry kichwa; `house`: the
   * house's name in the words of the variant (nyumba, or kete's kuu). An empty list offers
   * nothing (the marks go, a pit being chosen is kept for the next offer).
   */
  offer(legal, { side, namua = false, house = 'nyumba' }) {
    this.turn = { legal: legal || [], side, namua, house };
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

  /** Shows that a move is on its way (the marks go until the next offer). */
  wait() {
    this.turn = null;
    this.sel = null;
    this.board.clearMarks();
    this.box.replaceChildren(el('span', { class: 'muted' }, t('choose.sending')));
  }

  /** Which way a letter points on the screen, for the side whose pit it is. */
  arrow(letter, side) {
    const bottom = this.board.flipped ? 'N' : 'S';
    const left = letter === 'L' ? side === bottom : side !== bottom;
    return left ? '←' : '→';
  }

  /**
   * What playing `letter` from the selected pit does, in words: the kichwa a namua capture's
   * seeds are sown from, or the way the seeds go (left or right on the screen, as the arrow
   * shows) with, under it, whether that goes clockwise. A list of nodes for a button.
   */
  letterText(c, letter) {
    const { side, namua } = this.turn;
    const left = this.arrow(letter, side) === '←';
    if (namua && !c.takasa) return [left ? t('choose.kichwa_left') : t('choose.kichwa_right')];
    const way = clockwise(c.pit, letter) ? t('choose.clockwise') : t('choose.anticlockwise');
    return [el('span', { class: 'way' }, left ? t('choose.sow_left') : t('choose.sow_right')), ' ', el('span', { class: 'turning' }, `(${way})`)];
  }

  /** A button's content: an arrow for the eye only, then the words. */
  label(letter, words) {
    const text = el('span', { class: 'words' }, ...words);
    if (!letter) return [text];
    return [el('span', { class: 'arrow', 'aria-hidden': 'true' }, this.arrow(letter, this.turn.side)), ' ', text];
  }

  /** Focuses a button of the chooser without scrolling the page to it (the board stays put). */
  focus(b) {
    try {
      b.focus({ preventScroll: true });
    } catch {
      b.focus();
    }
  }

  /** Draws the current step again (after a change of orientation, say). */
  render() {
    const { box, board } = this;
    const legal = this.turn ? this.turn.legal : [];
    if (!legal.length) {
      board.clearMarks();
      box.replaceChildren();
      delete box.dataset.step;
      return;
    }
    const { namua, house } = this.turn;
    const sel = this.sel;
    const pits = uniq(legal.map((c) => c.pit));
    board.markLegal(pits, sel?.pit);
    if (!sel || !pits.includes(sel.pit)) {
      this.sel = null;
      box.dataset.step = 'pit';
      box.replaceChildren(el('span', { class: 'prompt' }, touch ? tn('choose.tap_one_of', pits.length) : tn('choose.click_one_of', pits.length)));
      return;
    }
    let cands = legal.filter((c) => c.pit === sel.pit);
    // Cancel comes beside the question, before the choices: the choices get a row of their own.
    const cancel = el('button', { type: 'button', class: 'cancel', onclick: () => this.cancel() }, t('choose.cancel'));
    // Step 1: the letter (direction, or entry kichwa of a namua capture).
    if (sel.letter === undefined) {
      const letters = uniq(cands.map((c) => c.letter));
      if (letters.length > 1) {
        const buttons = letters.map((l) => {
          const same = cands.filter((x) => x.letter === l);
          const c = same[0];
          // A letter with one move plays it (no confirmation: the letter was chosen by hand).
          const move = same.length === 1 ? c.move : null;
          return el('button', { type: 'button', class: 'primary', 'data-letter': l, 'data-move': move, onclick: () => { sel.letter = l; this.render(); } }, ...this.label(l, this.letterText(c, l)));
        });
        const first = cands[0];
        let q;
        if (namua && !first.takasa) q = t('choose.q_kichwa');
        else if (first.takasa) q = t('choose.q_way_takasa');
        else q = t('choose.q_way_capture');
        box.dataset.step = 'letter';
        box.replaceChildren(el('span', { class: 'prompt' }, q), cancel, ...(this.arrow('L', this.turn.side) === '→' ? buttons.reverse() : buttons));
        this.focus(buttons[0]);
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
        const b1 = el('button', { type: 'button', class: 'primary', 'data-choice': 'stop', 'data-move': stop.move, onclick: () => this.play(stop.move) }, t('choose.stop_house', { house }));
        const b2 = el('button', { type: 'button', class: 'primary', 'data-choice': 'safari', 'data-move': go.move, onclick: () => this.play(go.move) }, t('choose.go_safari', { house }));
        box.dataset.step = 'house';
        box.replaceChildren(el('span', { class: 'prompt' }, t('choose.q_house', { house })), cancel, b1, b2);
        this.focus(b1);
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
      // The one way to play this pit, said as the questions above would have said it.
      const text = move.letter ? this.letterText(move, move.letter) : [t('choose.play_pit')];
      if (move.safari) text.push(' ', el('span', { class: 'turning' }, t('choose.then_safari', { house })));
      const b = el('button', { type: 'button', class: 'primary', 'data-confirm': move.move, 'data-move': move.move, onclick: () => this.play(move.move) }, ...this.label(move.letter, text));
      box.dataset.step = 'confirm';
      box.replaceChildren(el('span', { class: 'prompt' }, t('choose.only_one_way')), cancel, b);
      this.focus(b);
      return;
    }
    this.play(move.move);
  }
}
