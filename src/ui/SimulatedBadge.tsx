// Prices from the simulated feed are always labelled as such.
import { Trans, useLingui } from '@lingui/react/macro';

export function SimulatedBadge() {
  const { t } = useLingui();
  return (
    <span className="simulated-badge" title={t`Prices come from a simulated feed, not from a real market.`}>
      <Trans>Simulated</Trans>
    </span>
  );
}
