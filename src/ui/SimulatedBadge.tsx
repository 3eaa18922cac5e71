// Prices from the simulated feed are always labelled as such; a seeded simulator (a replay, whose
// prices whoever knows the seed can compute) says that too. Renders nothing for real-market prices.
import { Trans, useLingui } from '@lingui/react/macro';
import type { PriceSource } from '../contract/markets.ts';

export function SimulatedBadge({ source }: { source: Partial<PriceSource> | null | undefined }) {
  const { t } = useLingui();
  if (!source?.simulated) return null;
  return source.seeded ? (
    <span className="simulated-badge" title={t`Prices replay a simulated feed from a fixed seed: they can be known in advance. For tests only.`}>
      <Trans>Simulated · replay</Trans>
    </span>
  ) : (
    <span className="simulated-badge" title={t`Prices come from a simulated feed, not from a real market.`}>
      <Trans>Simulated</Trans>
    </span>
  );
}
