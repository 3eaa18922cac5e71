// "Read price": a screen reader hears a coin's price when its user asks, once, instead of every tick of the price
// stream (no price on screen sits in a live region). Pressed, it puts the price, the 24 h change and the time it was
// recorded into a polite status line, saying first when the price is not live (offline, stream down, coin halted).
// The words load on the first press (ui/price-words.ts): the price screens' first load stays as it was.
import { useState } from 'react';
import { useLingui } from '@lingui/react/macro';

/** The button and its status line for the coin `code` (e.g. "BTC"), priced in USDT. */
export function ReadPrice({ code }: { code: string }) {
  const { t } = useLingui();
  // A count with the words: the same words asked twice are a new line, read again.
  const [said, setSaid] = useState<{ count: number; words: string } | null>(null);
  const read = () =>
    void import('./price-words.ts').then(({ priceWords }) => {
      const words = priceWords(code);
      setSaid((last) => ({ count: (last?.count ?? 0) + 1, words }));
    });
  return (
    <>
      <button type="button" className="link-button read-price" onClick={read}>
        {t`Read price`}
      </button>
      <p className="visually-hidden" role="status">
        {said && <span key={said.count}>{said.words}</span>}
      </p>
    </>
  );
}
