// How ratings read on every page (profile, leaderboard, the game page's rating changes).

/** bao-rating's Config::provisional_deviation: a deviation above it is provisional. */
const PROVISIONAL_RD = 110;

/** Whether a rating is provisional: as the answer says, or (the leaderboard) by its deviation. */
export function isProvisional(r) {
  if (typeof r?.provisional === 'boolean') return r.provisional;
  return typeof r?.rd === 'number' && r.rd > PROVISIONAL_RD;
}

/** A rating as shown: whole points, "1523?" while provisional (too few games to be sure). */
export function ratingText(r) {
  if (!r || typeof r.rating !== 'number') return '—';
  const n = Math.round(r.rating);
  return isProvisional(r) ? `${n}?` : String(n);
}

/** A signed change of rating points: "+12", "−12", "±0". */
export function changeText(n) {
  const v = Math.round(Number(n) || 0);
  return v > 0 ? `+${v}` : v < 0 ? `−${-v}` : '±0';
}

/**
 * A rating for the page: "1523?" to the eye, "1523, provisional" to a screen reader (a bare
 * question mark says nothing when read out).
 */
export function ratingNode(r, el, t) {
  const text = ratingText(r);
  if (!isProvisional(r) || text === '—') return el('span', { class: 'rating-value' }, text);
  return el(
    'span',
    { class: 'rating-value' },
    el('span', { 'aria-hidden': 'true' }, text),
    el('span', { class: 'visually-hidden' }, t('players.provisional_label', { rating: text.replace('?', '') })),
  );
}
