// The Web Push switch of the account settings page (templates/account.html; static/push.js):
// on, this browser is told of the account's moves, games and challenges.

import { $ } from './app.js';
import { pushSwitch } from './push.js';

$('push-settings').append(pushSwitch());
