// A range of amounts as plain text, for where no element can stand (a field's placeholder). Apart from AmountRange, so
// the pages that show a range as elements (the lock-up list, a tab's first route) do not carry it.
import { t } from '@lingui/core/macro';
import { isolate } from '../api-contract/visible-text.ts';
import { formatMoney } from '../lib/format.ts';
import { currentLocale, isRightToLeft } from '../lib/i18n.ts';

/** Right-to-left and left-to-right isolates (Unicode's bidi controls): what is inside lays out in that direction. */
const RLI = '\u2067';
const LRI = '\u2066';
const PDI = '\u2069';

/**
 * "100.00 – 50,000.00" (`min` and `max`, decimal strings, written with 2 to 8 decimals) as plain text: the same words
 * as AmountRange, each amount in a first-strong isolate (digits: left to right) and the whole in an isolate of the
 * page's direction, so it reads from its minimum on the right in Arabic even inside a left-to-right amount field.
 */
export function amountRangeText(min: string, max: string): string {
  const from = isolate(formatMoney(min));
  const to = isolate(formatMoney(max));
  return `${isRightToLeft(currentLocale()) ? RLI : LRI}${t`${from} – ${to}`}${PDI}`;
}
