// Where the prices on screen come from, wherever a price is shown: the simulated feed is always
// labelled as such (a seeded one, a replay whose prices whoever knows the seed can compute, says
// that too); the market index says how many public exchanges it is the median of (MadeOf.tsx shows an
// order's exchanges). A coin the index has halted says "Paused" instead (PausedBadge): its last price
// is not a live one.
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import type { PriceSource } from '../api-contract/markets.ts';

export function PriceSourceBadge({ source }: { source: Partial<PriceSource> | null | undefined }) {
  const { t } = useLingui();
  if (!source) return null;
  if (source.simulated)
    return source.seeded ? (
      <span
        className="simulated-badge"
        title={t`Prices replay a simulated feed from a fixed seed: they can be known in advance. For tests only.`}
      >
        <Trans>Simulated · replay</Trans>
      </span>
    ) : (
      <span className="simulated-badge" title={t`Prices come from a simulated feed, not from a real market.`}>
        <Trans>Simulated</Trans>
      </span>
    );
  const count = source.exchanges ?? 0;
  if (!count) return null;
  return (
    <span
      className="index-badge"
      title={t`Each price is the median of the public exchanges' latest prices, recorded every second.`}
    >
      <Plural value={count} one="Index · # exchange" other="Index · # exchanges" />
    </span>
  );
}

/** A halted coin: its price is the last one recorded, and nothing can be traded on it. */
export function PausedBadge() {
  const { t } = useLingui();
  return (
    <span className="paused-badge" title={t`The market data is unavailable: this is the last recorded price.`}>
      <Trans>Paused</Trans>
    </span>
  );
}
