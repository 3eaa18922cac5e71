// The "Price colours" row of Settings: green or red for a price that rose (a fall takes the other), for quotes,
// profits and losses, and buying and selling alike; kept on this device. Until the customer chooses, the app's
// language says which (src/lib/price-colors-pick.ts). The page repaints at once; the next start paints in it from its
// first frame (the first screen's hint).
import { useSnapshot } from 'valtio';
import { Trans, useLingui } from '@lingui/react/macro';
import { choosePriceColors, priceColors, type PriceColors } from '../../lib/price-colors.ts';
import { PRICE_COLOR_CHOICES } from '../../lib/price-colors-pick.ts';
import { ChoiceCell } from '../../ui/lists.tsx';

export function PriceColorsCell() {
  const { t } = useLingui();
  const { colors } = useSnapshot(priceColors);
  const names: Record<PriceColors, string> = { 'green-up': t`Green up, red down`, 'red-up': t`Red up, green down` };
  return (
    <ChoiceCell
      label={<Trans>Price colours</Trans>}
      title={t`Price colours`}
      options={PRICE_COLOR_CHOICES.map((option) => ({ value: option, label: names[option] }))}
      value={colors}
      onChoose={choosePriceColors}
    />
  );
}
