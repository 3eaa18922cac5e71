// The sign-in history: the account's sign-ins and failed attempts of the last 90 days, newest first, a page at a time.
import { proxy } from 'valtio/vanilla';
import { subscribeKey } from 'valtio/vanilla/utils';
import { loginHistory, type LoginRecord } from '../../api-contract/login-history.ts';
import { api } from '../../lib/api.ts';
import { currentLocale, intlLocale } from '../../lib/i18n.ts';
import { cursorLoader, emptyCursorList } from '../../lib/paged-list.ts';
import { session } from '../../lib/session.ts';

export const loginHistoryState = proxy(emptyCursorList<LoginRecord>());

const history = cursorLoader(
  () => loginHistoryState,
  (cursor, loading) => api(loginHistory, { cursor }, { loading }),
);
/** Reads the head of the history (new rows on top); `{ more: true }` adds the next page. */
export const loadLoginHistory = history.load;

/** The country of an ISO 3166 code in the app's language ('Thailand'); the code itself when Intl has no name. */
export function countryName(code: string): string {
  try {
    return new Intl.DisplayNames([intlLocale(currentLocale())], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}

// Another session (logout, another user) must never see this history.
subscribeKey(session, 'token', () => {
  history.cancel();
  Object.assign(loginHistoryState, emptyCursorList<LoginRecord>());
});
