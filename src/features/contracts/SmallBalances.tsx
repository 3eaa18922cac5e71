// "Convert small balances to USDT" on the contracts page: shown while the customer's real account holds amounts no
// order can sell (small-balances.ts). It lists them with the USDT each would bring at the latest recorded price, asks
// for a confirmation, shows that it waits for the next recorded price, then what each became. An amount worth less
// than the smallest USDT amount (0.00000001) after the fee is still converted (the server's rule), and said to bring
// nothing, before and after.
import { useEffect, useState } from 'react';
import Big from 'big.js';
import { useSnapshot } from 'valtio';
import { Trans } from '@lingui/react/macro';
import { QUOTE_ASSET, type ContractOrder } from '../../api-contract/contracts.ts';
import { errorText } from '../../lib/api.ts';
import { refreshBalances, userBalances } from '../../lib/balances.ts';
import { formatExact, formatPrice } from '../../lib/format.ts';
import { useAccount } from '../../lib/practice.ts';
import { prices } from '../../lib/prices.ts';
import { session } from '../../lib/session.ts';
import { toast } from '../../lib/toast.ts';
import { Button } from '../../ui/forms.tsx';
import { ConfirmDialog, Dialog } from '../../ui/lists.tsx';
import { Ltr } from '../../ui/records.tsx';
import { contractsState } from './contracts-store.ts';
import { usePairDecimals } from './ContractParts.tsx';
import { convertSmallBalancesNow, smallBalancesOf, usdtSum } from './small-balances.ts';

type Step = 'closed' | 'confirming' | 'converting' | 'done';

/** The smallest USDT amount the ledger holds (8 decimals): a conversion bringing less brings nothing. */
const LEAST_USDT = '0.00000001';
/** Whether a USDT amount (decimal text) is nothing, as a conversion worth less than LEAST_USDT brings. */
const isNothing = (usdt: string) => new Big(usdt).eq(0);

/** The action and its dialog; nothing when there is nothing to convert (or on the practice account, or logged out). */
export function SmallBalances() {
  const held = useSnapshot(userBalances);
  const { pairs } = useSnapshot(contractsState);
  const { quotes } = useSnapshot(prices);
  const { token } = useSnapshot(session);
  const account = useAccount();
  const [step, setStep] = useState<Step>('closed');
  const [results, setResults] = useState<ContractOrder[]>([]);

  useEffect(() => {
    if (token && account === 'real') refreshBalances().catch(() => undefined);
  }, [token, account]);

  const list = smallBalancesOf(held.lists, pairs, quotes);
  if (!token || account !== 'real' || (list.length === 0 && step === 'closed')) return null;

  const convert = async () => {
    setStep('converting');
    try {
      setResults(await convertSmallBalancesNow(list));
      setStep('done');
    } catch (error) {
      toast(errorText(error));
      setStep('closed');
    }
  };

  const estimate = usdtSum(list.map((item) => item.usdt));
  const receivedSum = usdtSum(results.map((order) => (order.status === 'filled' ? order.received! : '0')));
  const received = formatExact(receivedSum);
  const least = formatExact(LEAST_USDT);
  return (
    <section className="card ct-small-balances">
      <p className="muted">
        <Trans>Some coins hold amounts too small to sell with an order.</Trans>
      </p>
      <Button variant="secondary" size="small" onClick={() => setStep('confirming')}>
        <Trans>Convert small balances to USDT</Trans>
      </Button>

      {step === 'confirming' && (
        <ConfirmDialog
          title={<Trans>Convert small balances to USDT</Trans>}
          confirm={<Trans>Convert</Trans>}
          busy={false}
          onCancel={() => setStep('closed')}
          onConfirm={() => void convert()}
        >
          <dl className="detail-rows">
            {list.map((item) => (
              <div key={item.code}>
                <dt dir="ltr">
                  {formatExact(item.amount)} {item.code}
                </dt>
                {isNothing(item.usdt) ? (
                  <dd>
                    {/* One run of text: the row's dd stacks each of its children. */}
                    <span className="ct-small-nothing">
                      <Trans>
                        Worth less than <Ltr>{least} USDT</Ltr> after the fee: converting it gives you nothing
                      </Trans>
                    </span>
                  </dd>
                ) : (
                  <dd dir="ltr">
                    ≈ {formatExact(item.usdt)} {QUOTE_ASSET}
                  </dd>
                )}
              </div>
            ))}
            <div>
              <dt>
                <Trans>Estimated total</Trans>
              </dt>
              {isNothing(estimate) ? (
                <dd>
                  <Trans>You receive nothing</Trans>
                </dd>
              ) : (
                <dd dir="ltr">
                  ≈ {formatExact(estimate)} {QUOTE_ASSET}
                </dd>
              )}
            </div>
          </dl>
          <p className="ct-note">
            <Trans>
              These amounts are below what an order can sell. They are converted to USDT at the first price recorded
              after you confirm, less the trading fee, so the amount you receive may differ a little from the estimate.
              Amounts held by open orders are not converted.
            </Trans>
          </p>
        </ConfirmDialog>
      )}

      {step === 'converting' && (
        <Dialog title={<Trans>Convert small balances to USDT</Trans>} actions={null}>
          <p role="status">
            <Trans>Converting… waiting for the next recorded price.</Trans>
          </p>
        </Dialog>
      )}

      {step === 'done' && (
        <Dialog
          title={<Trans>Convert small balances to USDT</Trans>}
          actions={
            <Button onClick={() => setStep('closed')}>
              <Trans>OK</Trans>
            </Button>
          }
        >
          <ul className="ct-small-results" role="status">
            {results.map((order) => (
              <li key={order.id}>
                <ConversionOutcome order={order} />
              </li>
            ))}
          </ul>
          <p>
            {isNothing(receivedSum) ? (
              <Trans>Received in total: nothing</Trans>
            ) : (
              <Trans>
                Received in total: <Ltr>{received} USDT</Ltr>
              </Trans>
            )}
          </p>
        </Dialog>
      )}
    </section>
  );
}

/** What one conversion became: converted (with the USDT and the recorded price, or, worth less than LEAST_USDT after
 * the fee, that it brought nothing), returned, or still waiting. Amounts stay left to right in any text direction. */
function ConversionOutcome({ order }: { order: ContractOrder }) {
  const priceDecimals = usePairDecimals(order.code).price;
  const amount = formatExact(order.quantity);
  const code = order.code;
  if (order.status === 'filled') {
    if (isNothing(order.received ?? '0')) {
      const least = formatExact(LEAST_USDT);
      return (
        <Trans>
          <Ltr>
            {amount} {code}
          </Ltr>{' '}
          converted: worth less than <Ltr>{least} USDT</Ltr> after the fee, it brought nothing.
        </Trans>
      );
    }
    const received = formatExact(order.received ?? '0');
    // The recorded price it filled at, written as the page writes the pair's prices (the order's details too).
    const price = formatPrice(order.unit_price ?? '0', priceDecimals);
    return (
      <Trans>
        <Ltr>
          {amount} {code}
        </Ltr>{' '}
        converted to <Ltr>{received} USDT</Ltr> at <Ltr>{price}</Ltr>
      </Trans>
    );
  }
  if (order.status === 'void')
    return (
      <Trans>
        <Ltr>
          {amount} {code}
        </Ltr>{' '}
        was not converted: no price was recorded in time. It is back in your balance.
      </Trans>
    );
  return (
    <Trans>
      <Ltr>
        {amount} {code}
      </Ltr>{' '}
      is still converting; Contract orders will show the result.
    </Trans>
  );
}
