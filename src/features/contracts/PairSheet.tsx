// Choosing the pair to trade: a bottom sheet with a search field (code or name) and every pair
// with its live price and 24 h change.
import { useState } from 'react';
import { useSnapshot } from 'valtio';
import { useLiveSnapshot } from '../../lib/live-snapshot.ts';
import { Trans, useLingui } from '@lingui/react/macro';
import { formatAmount, formatPrice } from '../../lib/format.ts';
import { prices } from '../../lib/prices.ts';
import { SearchIcon } from '../../ui/icons.tsx';
import { Empty } from '../../ui/lists.tsx';
import { useKeyboardFocus } from '../../ui/keyboard-focus-load.ts';
import { contractsState } from './contracts-store.ts';

interface PairSheetProps {
  current: string;
  onChoose: (code: string) => void;
  onClose: () => void;
}

export function PairSheet({ current, onChoose, onClose }: PairSheetProps) {
  const { t } = useLingui();
  const { pairs } = useSnapshot(contractsState);
  const { quotes } = useLiveSnapshot(prices);
  const [query, setQuery] = useState('');
  useKeyboardFocus();
  const wanted = query.trim().toLowerCase();
  const shown = pairs.filter(
    (pair) => !wanted || pair.code.toLowerCase().includes(wanted) || pair.name.toLowerCase().includes(wanted),
  );
  return (
    <div className="sheet-backdrop" onClick={onClose} data-dismiss>
      <div
        tabIndex={-1}
        className="sheet ct-sheet"
        role="dialog"
        aria-modal="true"
        aria-label={t`Choose a pair`}
        onClick={(event) => event.stopPropagation()}
      >
        <h2>
          <Trans>Choose a pair</Trans>
        </h2>
        <label className="ct-search">
          <SearchIcon />
          <input
            type="search"
            value={query}
            onChange={(event) => setQuery(event.target.value)}
            placeholder={t`Search coin`}
            aria-label={t`Search coin`}
            autoFocus
          />
        </label>
        <ul className="ct-pair-list" role="listbox" aria-label={t`Pairs`}>
          {shown.map((pair) => {
            const quote = quotes[pair.code];
            const rising = !quote?.change_24h.startsWith('-');
            return (
              <li key={pair.code}>
                <button
                  type="button"
                  role="option"
                  aria-selected={pair.code === current}
                  className="ct-pair-row"
                  onClick={() => onChoose(pair.code)}
                >
                  <span className="ct-pair-name">
                    <span dir="ltr">
                      <strong>{pair.code}</strong>
                      <span className="muted">/USDT</span>
                    </span>
                    <bdi className="muted">{pair.name}</bdi>
                  </span>
                  <span className="opt-num">{quote ? formatPrice(quote.price, quote.price_decimals) : '—'}</span>
                  <span className={`opt-num ct-pair-change ${quote ? (rising ? 'up' : 'down') : ''}`}>
                    {quote ? `${rising ? '+' : ''}${formatAmount(quote.change_24h, 2)}%` : '—'}
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
        {shown.length === 0 && (
          <Empty>
            <Trans>No pair matches your search</Trans>
          </Empty>
        )}
      </div>
    </div>
  );
}
