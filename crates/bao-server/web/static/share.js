// Sharing an invite: the phone's share sheet (`navigator.share`) where the
// browser has one, else copying the link.

import { copyText, el } from './app.js';
import { t } from './i18n.js';

/** Whether this browser can open a share sheet for a link. */
export function canShare(url) {
  if (typeof navigator.share !== 'function') return false;
  try {
    return typeof navigator.canShare !== 'function' || navigator.canShare({ url });
  } catch {
    return false;
  }
}

/**
 * Shares `url` (the share sheet, or a copy when there is none or it fails); `input` is the
 * text box holding the link (selected when even copying fails). Returns `shared`, `copied`,
 * `cancelled` or `failed`.
 */
export async function shareLink(url, input, { title = 'bao', text = '' } = {}) {
  if (canShare(url)) {
    try {
      await navigator.share({ title, text, url });
      return 'shared';
    } catch (err) {
      // The player closed the sheet: nothing to do. Any other refusal: copy instead.
      if (err && err.name === 'AbortError') return 'cancelled';
    }
  }
  return (await copyText(url, input)) ? 'copied' : 'failed';
}

/**
 * A "Share link" button for the invite box: put before the copy button. It is there only
 * where a share sheet exists (the copy button does the rest); `done` shows what happened.
 */
export function shareButton(getUrl, input, done) {
  const b = el('button', { type: 'button', id: 'share-invite', class: 'primary' }, t('mine.share'));
  b.hidden = !canShare(location.href);
  b.addEventListener('click', async () => {
    const r = await shareLink(getUrl(), input, { title: t('mine.share_title'), text: t('mine.share_text') });
    if (done) done.textContent = r === 'shared' ? t('mine.shared') : r === 'copied' ? t('mine.copied') : r === 'failed' ? t('mine.copy_failed') : '';
  });
  return b;
}
