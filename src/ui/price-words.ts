// The words "Read price" says (ui/ReadPrice.tsx), loaded when it is first pressed: the price, the 24 h change and the
// time it was recorded, said first not to be live when it is not (lib/price-reading.ts decides which).
import { t } from '@lingui/core/macro';
import { coinList } from '../api-contract/markets.ts';
import { formatAmount, formatClock, formatTime } from '../lib/format.ts';
import { offlineData, offlineSince } from '../lib/offline.ts';
import { priceReading } from '../lib/price-reading.ts';
import { priceStream, prices } from '../lib/prices.ts';

/** What to say of the coin `code`'s price against USDT now, in the app's language: one or two sentences. */
export function priceWords(code: string): string {
  const reading = priceReading(prices.quotes[code], {
    online: offlineData.online,
    cachedSince: offlineSince(offlineData, [coinList.path]),
    stream: priceStream.status,
  });
  if (reading.kind === 'none') return t`No price for ${code} yet.`;
  const { quote } = reading;
  const pair = `${quote.code}/USDT`;
  const price = formatAmount(quote.price, quote.price_decimals);
  const change = formatAmount(quote.change_24h.replace(/^-/, ''), 2);
  const at = formatTime(quote.at);
  const figures = quote.change_24h.startsWith('-')
    ? t`${pair} ${price}, down ${change}% in 24 hours, recorded at ${at}.`
    : t`${pair} ${price}, up ${change}% in 24 hours, recorded at ${at}.`;
  if (reading.kind === 'offline') {
    const time = formatClock(reading.since);
    return `${t`Offline, as of ${time}: this is the last price known.`} ${figures}`;
  }
  if (reading.kind === 'paused')
    return `${t`The market data is unavailable: this is the last recorded price.`} ${figures}`;
  if (reading.kind === 'stale') return `${t`Not live: this is the last price received.`} ${figures}`;
  return figures;
}
