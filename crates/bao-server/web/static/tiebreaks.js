// The tie-breaks of GET /api/tournaments/{id} ("tiebreaks": [{"key", ...}], the keys of
// each standing's "tiebreaks") in the reader's language: the catalog keys of
// web/i18n/{en,sw}/tournaments.json for each key the server sends (docs/api.md, "Tournaments").

const KEYS = {
  DE: ['tournaments.tb_de', 'tournaments.tb_de_explain', 'tournaments.tb_de_abbr'],
  SB: ['tournaments.tb_sb', 'tournaments.tb_sb_explain', 'tournaments.tb_sb_abbr'],
  BH: ['tournaments.tb_bh', 'tournaments.tb_bh_explain', 'tournaments.tb_bh_abbr'],
  'BH-C1': ['tournaments.tb_bh_c1', 'tournaments.tb_bh_c1_explain', 'tournaments.tb_bh_c1_abbr'],
  Place: ['tournaments.tb_place', 'tournaments.tb_place_explain', 'tournaments.tb_place_abbr'],
  Seed: ['tournaments.tb_seed', 'tournaments.tb_seed_explain', 'tournaments.tb_seed_abbr'],
  BP: ['tournaments.tb_bp', 'tournaments.tb_bp_explain', 'tournaments.tb_bp_abbr'],
};

/** The name of tie-break `key` through `t` (i18n.js); the server's English for an unknown key. */
export function tiebreakName(tb, t) {
  const k = KEYS[tb?.key];
  return k ? t(k[0]) : String(tb?.name ?? tb?.key ?? '');
}

/** What tie-break `key` means, through `t`; the server's English for an unknown key. */
export function tiebreakExplain(tb, t) {
  const k = KEYS[tb?.key];
  return k ? t(k[1]) : String(tb?.explain ?? '');
}

/**
 * The short column header of tie-break `key` in the reader's language (a crosstable column is
 * narrow); pages give it the full name as its title and accessible name.
 */
export function tiebreakAbbr(tb, t) {
  const k = KEYS[tb?.key];
  return k ? t(k[2]) : String(tb?.key ?? '');
}
