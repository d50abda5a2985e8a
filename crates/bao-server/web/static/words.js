// Words for what the server says in codes, for every page (docs/i18n.md, "Words, not codes"):
// how a game ended (GameState `ending`, docs/api.md "Endings"), the match format and score, and
// the rule options with their values (docs/spec/options.md, OPT-2). Pages never show the codes.

import { t } from './i18n.js';

const side = (s) => (s === 'S' ? t('common.south') : s === 'N' ? t('common.north') : '');
const other = (s) => (s === 'S' ? 'N' : 'S');

/** The sentence of each ending with a winner, keyed by reason. */
const WON = {
  front_row: (p) => t('words.end_front_row', p),
  no_moves: (p) => t('words.end_no_moves', p),
  never_ending: (p) => t('words.end_never_ending_loss', p),
  resignation: (p) => t('words.end_resignation', p),
  time: (p) => t('words.end_time', p),
  abandoned: (p) => t('words.end_abandoned', p),
  forfeit: (p) => t('words.end_forfeit', p),
  agreement: (p) => t('words.end_agreement_won', p),
  adjudication: (p) => t('words.end_adjudication_won', p),
};

/** The sentence of each ending without a winner. */
const DRAWN = {
  never_ending: () => t('words.end_never_ending_draw'),
  repetition: () => t('words.end_repetition'),
  max_plies: () => t('words.end_max_plies'),
  agreement: () => t('words.end_agreement_drawn'),
  adjudication: () => t('words.end_adjudication_drawn'),
  closed: () => t('words.end_closed'),
};

/**
 * How a game ended, as a sentence: `ending` is GameState's `{reason, winner}`; `result` ('S',
 * 'N', 'draw', '-') words a game without one (an ending this page does not know yet).
 */
export function endingSentence(ending, result) {
  const winner = ending ? ending.winner : result === 'S' || result === 'N' ? result : null;
  if (ending && winner && WON[ending.reason]) return WON[ending.reason]({ winner: side(winner), loser: side(other(winner)) });
  if (ending && !winner && DRAWN[ending.reason]) return DRAWN[ending.reason]();
  if (winner) return t('words.end_won', { winner: side(winner) });
  if (result === 'draw' || (ending && !winner)) return t('words.end_drawn');
  return '';
}

/** The headline of a finished game: the player's win or loss, or the winner for a spectator. */
export function resultHeadline(s) {
  if (s.result === 'draw') return t('game.drawn');
  const w = side(s.result);
  if (s.you) return s.you === s.result ? t('game.you_win', { side: w }) : t('game.you_lose', { side: w });
  return t('game.wins', { side: w });
}

/** The match line under a finished game of a best-of-three match (BRD-8): the score. */
export function matchScore(m) {
  if (!m || m.format !== 'best_of_three') return '';
  const score = { south: m.wins?.S ?? 0, north: m.wins?.N ?? 0 };
  return m.over ? t('game.match_score_over', score) : t('game.match_score', score);
}

/** A match format (BRD-8, option `match`) in words. */
export function matchFormatName(format) {
  if (format === 'best_of_three') return t('words.val_match_best_of_three');
  if (format === 'single_game') return t('words.val_match_single_game');
  return format;
}

/** Each rule option's name (OPT-2). */
const OPTION_NAMES = {
  house_lost_at: () => t('words.opt_house_lost_at'),
  house_functional_min: () => t('words.opt_house_functional_min'),
  lone_house_tax: () => t('words.opt_lone_house_tax'),
  namua_singletons: () => t('words.opt_namua_singletons'),
  mtaji_house_stop: () => t('words.opt_mtaji_house_stop'),
  takasia: () => t('words.opt_takasia'),
  takasia_excludes_singletons: () => t('words.opt_takasia_excludes_singletons'),
  takasia_house_protection: () => t('words.opt_takasia_house_protection'),
  takasia_house_first_lap_exception: () => t('words.opt_takasia_house_first_lap_exception'),
  blocker_must_capture: () => t('words.opt_blocker_must_capture'),
  first_takasa_from_kuu: () => t('words.opt_first_takasa_from_kuu'),
  front_row_empty: () => t('words.opt_front_row_empty'),
  never_ending: () => t('words.opt_never_ending'),
  repetition: () => t('words.opt_repetition'),
  max_plies: () => t('words.opt_max_plies'),
  match: () => t('words.opt_match'),
  intro_pits: () => t('words.opt_intro_pits'),
  no_intro: () => t('words.opt_no_intro'),
  capture_compulsory: () => t('words.opt_capture_compulsory'),
};

/** What each rule option changes (OPT-2), one sentence. */
const OPTION_HELP = {
  house_lost_at: () => t('home.opt_house_lost_at'),
  house_functional_min: () => t('home.opt_house_functional_min'),
  lone_house_tax: () => t('home.opt_lone_house_tax'),
  namua_singletons: () => t('home.opt_namua_singletons'),
  mtaji_house_stop: () => t('home.opt_mtaji_house_stop'),
  takasia: () => t('home.opt_takasia'),
  takasia_excludes_singletons: () => t('home.opt_takasia_excludes_singletons'),
  takasia_house_protection: () => t('home.opt_takasia_house_protection'),
  takasia_house_first_lap_exception: () => t('home.opt_takasia_house_first_lap_exception'),
  blocker_must_capture: () => t('home.opt_blocker_must_capture'),
  first_takasa_from_kuu: () => t('home.opt_first_takasa_from_kuu'),
  front_row_empty: () => t('home.opt_front_row_empty'),
  never_ending: () => t('home.opt_never_ending'),
  repetition: () => t('home.opt_repetition'),
  max_plies: () => t('home.opt_max_plies'),
  match: () => t('home.match_help'),
  intro_pits: () => t('home.opt_intro_pits'),
  no_intro: () => t('home.opt_no_intro'),
  capture_compulsory: () => t('home.opt_capture_compulsory'),
};

/** Each value of each option (OPT-2), keyed `name=value`; numbers are worded below. */
const OPTION_VALUES = {
  'house_lost_at=emptied_or_captured': () => t('words.val_house_lost_at_emptied_or_captured'),
  'house_lost_at=first_mtaji_capture': () => t('words.val_house_lost_at_first_mtaji_capture'),
  'house_lost_at=end_of_namua': () => t('words.val_house_lost_at_end_of_namua'),
  'lone_house_tax=functional': () => t('words.val_lone_house_tax_functional'),
  'lone_house_tax=keep_min': () => t('words.val_lone_house_tax_keep_min'),
  'namua_singletons=functional_house': () => t('words.val_namua_singletons_functional_house'),
  'namua_singletons=owned_house': () => t('words.val_namua_singletons_owned_house'),
  'mtaji_house_stop=false': () => t('words.val_mtaji_house_stop_false'),
  'mtaji_house_stop=true': () => t('words.val_mtaji_house_stop_true'),
  'takasia=true': () => t('words.val_takasia_true'),
  'takasia=false': () => t('words.val_takasia_false'),
  'takasia_excludes_singletons=false': () => t('words.val_takasia_excludes_singletons_false'),
  'takasia_excludes_singletons=true': () => t('words.val_takasia_excludes_singletons_true'),
  'takasia_house_protection=owned': () => t('words.val_takasia_house_protection_owned'),
  'takasia_house_protection=functional': () => t('words.val_takasia_house_protection_functional'),
  'takasia_house_first_lap_exception=true': () => t('words.val_takasia_house_first_lap_exception_true'),
  'takasia_house_first_lap_exception=false': () => t('words.val_takasia_house_first_lap_exception_false'),
  'blocker_must_capture=off': () => t('words.val_blocker_must_capture_off'),
  'blocker_must_capture=first_capture': () => t('words.val_blocker_must_capture_first_capture'),
  'blocker_must_capture=any_capture': () => t('words.val_blocker_must_capture_any_capture'),
  'first_takasa_from_kuu=true': () => t('words.val_first_takasa_from_kuu_true'),
  'first_takasa_from_kuu=false': () => t('words.val_first_takasa_from_kuu_false'),
  'front_row_empty=end_of_move': () => t('words.val_front_row_empty_end_of_move'),
  'front_row_empty=illegal': () => t('words.val_front_row_empty_illegal'),
  'never_ending=illegal': () => t('words.val_never_ending_illegal'),
  'never_ending=draw': () => t('words.val_never_ending_draw'),
  'never_ending=mover_loses': () => t('words.val_never_ending_mover_loses'),
  'repetition=threefold_draw': () => t('words.val_repetition_threefold_draw'),
  'repetition=none': () => t('words.val_repetition_none'),
  'max_plies=none': () => t('words.val_max_plies_none'),
  'match=best_of_three': () => t('words.val_match_best_of_three'),
  'match=single_game': () => t('words.val_match_single_game'),
  'intro_pits=any': () => t('words.val_intro_pits_any'),
  'intro_pits=front_only': () => t('words.val_intro_pits_front_only'),
  'no_intro=game_first_move': () => t('words.val_no_intro_game_first_move'),
  'no_intro=each_first_move': () => t('words.val_no_intro_each_first_move'),
  'no_intro=never': () => t('words.val_no_intro_never'),
  'capture_compulsory=false': () => t('words.val_capture_compulsory_false'),
  'capture_compulsory=true': () => t('words.val_capture_compulsory_true'),
};

/** A rule option's name in words (an unknown one stays as it is). */
export function optionName(name) {
  return OPTION_NAMES[name] ? OPTION_NAMES[name]() : name;
}

/** What a rule option changes, one sentence ('' for an unknown one). */
export function optionHelp(name) {
  return OPTION_HELP[name] ? OPTION_HELP[name]() : '';
}

/** A value of a rule option in words: `optionValue('never_ending', 'mover_loses')`. */
export function optionValue(name, value) {
  const v = String(value);
  const known = OPTION_VALUES[`${name}=${v}`];
  if (known) return known();
  if (/^\d+$/.test(v) && name === 'house_functional_min') return t('words.val_house_functional_min_n', { n: v });
  if (/^\d+$/.test(v) && name === 'max_plies') return t('words.val_max_plies_n', { n: v });
  return v;
}

/**
 * An option string (OPT-1, `name=value,...` or `-`) in words: one "name: value" per option it
 * sets, in its order; `skip` leaves out names shown elsewhere (the match format has its own tag).
 */
export function rulesInWords(rules, { skip = [] } = {}) {
  if (!rules || rules === '-') return [];
  return rules
    .split(',')
    .map((item) => item.split('='))
    .filter(([name, value]) => name && value !== undefined && !skip.includes(name))
    .map(([name, value]) => t('words.option_is', { option: optionName(name), value: optionValue(name, value) }));
}
