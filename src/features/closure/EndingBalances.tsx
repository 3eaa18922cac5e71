// What closing ends with the account besides points: each available amount below the least balance a withdrawal of its
// asset takes (its minimum plus fee) that cannot be sold (api-contract/closure.ts closureEnding), listed with that
// minimum, said plainly to end with the account and not be paid out, with the way to keep it instead; closing waits for
// the customer's explicit consent to exactly these amounts, which the close request then carries to the server.
import Big from 'big.js';
import { Trans } from '@lingui/react/macro';
import type { EndingBalance } from '../../api-contract/closure.ts';
import { USDT } from '../../lib/balances.ts';
import { formatExact, formatMoney } from '../../lib/format.ts';
import { Checkbox } from '../../ui/forms.tsx';

/**
 * One amount and what it is below: "0.77000000 USDT — below the 10 USDT withdrawal minimum"; an amount at or above the
 * minimum but below the minimum plus its fee (10 USDT at a 1 % fee) names the least balance a withdrawal takes.
 */
export function EndingBalanceLine({ balance }: { balance: EndingBalance }) {
  const amount = formatMoney(balance.amount, 8);
  const minimum = formatExact(balance.min_amount);
  const least = formatExact(balance.least_amount);
  const asset = balance.asset;
  if (new Big(balance.amount).lt(balance.min_amount))
    return (
      <Trans>
        <span dir="ltr">
          {amount} {asset}
        </span>{' '}
        — below the{' '}
        <span dir="ltr">
          {minimum} {asset}
        </span>{' '}
        withdrawal minimum
      </Trans>
    );
  return (
    <Trans>
      <span dir="ltr">
        {amount} {asset}
      </span>{' '}
      — below the{' '}
      <span dir="ltr">
        {least} {asset}
      </span>{' '}
      the smallest withdrawal (
      <span dir="ltr">
        {minimum} {asset}
      </span>
      ) takes with its fee
    </Trans>
  );
}

/**
 * The list of `balances` that end with the account (shown only when there is one), what that means, the alternative,
 * and the consent box (`consent`, changed by `onConsent`) without which the page does not close.
 */
export function EndingBalances({
  balances,
  consent,
  onConsent,
}: {
  balances: readonly EndingBalance[];
  consent: boolean;
  onConsent: (consent: boolean) => void;
}) {
  const coins = balances.some((balance) => balance.asset !== USDT);
  return (
    <div className="closure-ending-balances">
      <p className="closure-ending-title">
        <Trans>These amounts cannot be withdrawn or sold. They end with the account and are not paid out:</Trans>
      </p>
      <ul>
        {balances.map((balance) => (
          <li key={balance.asset}>
            <EndingBalanceLine balance={balance} />
          </li>
        ))}
      </ul>
      <p className="muted">
        {coins ? (
          <Trans>
            To keep them instead, deposit enough to reach the withdrawal minimum and withdraw, or first convert a coin
            to USDT with Convert small balances on the contracts page.
          </Trans>
        ) : (
          <Trans>To keep them instead, deposit enough to reach the withdrawal minimum and withdraw.</Trans>
        )}
      </p>
      <Checkbox checked={consent} onChange={onConsent}>
        <Trans>I agree that these amounts end with my account and are not paid out.</Trans>
      </Checkbox>
    </div>
  );
}
