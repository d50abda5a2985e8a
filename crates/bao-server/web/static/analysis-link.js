// Links to the analysis board (/analysis, static/analysis.js) from the pages that show a game
// or a position: the position, the moves played from it as the main line, the move shown.

/**
 * The address of the analysis board for `position` (NOT-3, or null for the variant's start)
 * under `rules` (OPT-1), with `moves` (canonical) as the main line and `at` the move shown.
 */
export function analysisUrl({ variant, rules = '-', position = null, moves = [], at = null }) {
  const q = new URLSearchParams();
  q.set('variant', variant || (position || '').split(' ')[0] || 'kiswahili');
  if (rules && rules !== '-') q.set('rules', rules);
  if (position && position !== variant) q.set('position', position);
  if (moves && moves.length) q.set('moves', moves.join(','));
  if (at !== null && moves && at < moves.length) q.set('at', String(at));
  return `/analysis?${q}`;
}
