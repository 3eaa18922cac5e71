// The texts of the time-out panel the order forms show while a time-out lasts (ui/TimeoutPanel.tsx). They belong to
// this area's part of the catalog, so the order pages' own texts do not grow by them: the panel loads this part
// when it shows, and names them by these ids (ui/TimeoutPanel.tsx TIMEOUT_TEXT; tests/unit/protection.test.tsx keeps
// the two in step).
import { msg } from '@lingui/core/macro';

export const TIMEOUT_TEXTS = {
  until: msg({
    id: 'timeout.until',
    message: 'You are taking a time-out until {date} ({days, plural, one {in # day} other {in # days}}).',
  }),
  orders: msg({
    id: 'timeout.orders',
    message:
      'No option, contract, lock-up or liquidity order and no blind box draw is accepted until then. Withdrawals remain possible.',
  }),
  settings: msg({ id: 'timeout.settings', message: 'Limits and time-out' }),
};
