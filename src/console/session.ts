// The operator's session in this tab: the token (kept in sessionStorage, so a reload keeps it and
// closing the tab ends it here), who is signed in, and the notice the sign-in page shows after the
// server ended the session (idle 30 minutes, disabled, signed in elsewhere).
import { proxy } from 'valtio';
import type { OperatorView } from '../api-contract/console.ts';

const TOKEN_KEY = 'coinvest.console.token';

export const consoleSession = proxy({
  token: sessionStorage.getItem(TOKEN_KEY),
  operator: null as OperatorView | null,
  /** Why the operator is back at the sign-in page (the server's msg), shown there once. */
  notice: '',
});

export function startSession(token: string, operator: OperatorView): void {
  sessionStorage.setItem(TOKEN_KEY, token);
  Object.assign(consoleSession, { token, operator, notice: '' });
}

export function endSession(notice = ''): void {
  sessionStorage.removeItem(TOKEN_KEY);
  Object.assign(consoleSession, { token: null, operator: null, notice });
}
