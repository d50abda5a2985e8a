// Words for team matches shared by the match page (team-match.js) and the club page's list
// of its matches (club.js): docs/api.md "Team matches".

import { t } from './i18n.js';

/** Board points: "1", "1½", "½". */
export function points(x) {
  const n = Number(x) || 0;
  const whole = Math.floor(n);
  const half = n - whole >= 0.5 ? '½' : '';
  return whole === 0 && half ? half : `${whole}${half}`;
}

/** A match's status in words. */
export function matchStatusText(s) {
  switch (s) {
    case 'proposed':
      return t('teams.status_proposed');
    case 'accepted':
      return t('teams.status_accepted');
    case 'running':
      return t('teams.status_running');
    case 'finished':
      return t('teams.status_finished');
    case 'declined':
      return t('teams.status_declined');
    default:
      return String(s || '');
  }
}

