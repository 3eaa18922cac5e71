// The fields of a conditional order, loaded only when asked for (Stop, Stop-limit, or TP/SL on a buy): the trigger
// price, and a buy's take-profit and stop-loss prices. Which way each waits is said beside it.
import { Trans, useLingui } from '@lingui/react/macro';
import { gridStep, hasTrigger, type ContractPair } from '../../api-contract/contracts.ts';
import { DecimalField } from '../../ui/AmountField.tsx';
import type { OrderForm } from './contracts-store.ts';

/** The trigger field (stop orders) and, when `legs`, the take-profit / stop-loss fields of the order form. */
export default function ConditionalFields({
  form,
  pair,
  legs,
  change,
}: {
  form: OrderForm;
  pair: Readonly<ContractPair> | undefined;
  legs: boolean;
  change: (fields: Partial<OrderForm>) => void;
}) {
  const { t } = useLingui();
  const steps = pair ? t`Steps of ${gridStep(pair.price_decimals)}` : undefined;
  return (
    <>
      {hasTrigger(form.type) && (
        <DecimalField
          label={
            form.side === 'buy' ? (
              <Trans>Trigger price (USDT): at or above</Trans>
            ) : (
              <Trans>Trigger price (USDT): at or below</Trans>
            )
          }
          value={form.trigger_price ?? ''}
          onChange={(trigger_price) => change({ trigger_price })}
          name="trigger_price"
          placeholder={steps}
        />
      )}
      {legs && form.side === 'buy' && (
        <div className="ct-legs">
          <DecimalField
            label={<Trans>Take-profit (USDT): sell at or above</Trans>}
            value={form.take_profit ?? ''}
            onChange={(take_profit) => change({ take_profit })}
            name="take_profit"
            placeholder={steps}
          />
          <DecimalField
            label={<Trans>Stop-loss (USDT): sell at or below</Trans>}
            value={form.stop_loss ?? ''}
            onChange={(stop_loss) => change({ stop_loss })}
            name="stop_loss"
            placeholder={steps}
          />
        </div>
      )}
    </>
  );
}
