// The option rule (§2 optionRule): how a short-term option is bought and settled, in plain words.
import { Trans } from '@lingui/react/macro';
import { MIN_OPTION_USDT } from '../../contract/constants.ts';
import { NavBar } from '../../ui/NavBar.tsx';

export default function OptionRulePage() {
  const minimum = MIN_OPTION_USDT;
  return (
    <div className="page">
      <NavBar title={<Trans>Option rules</Trans>} />
      <div className="page-body opt-rules">
        <section className="card">
          <h2>
            <Trans>Buying</Trans>
          </h2>
          <ol>
            <li>
              <Trans>Choose a coin.</Trans>
            </li>
            <li>
              <Trans>Choose a direction: Buy up if you expect the price to be higher at the end time, Buy short if you expect it to be lower.</Trans>
            </li>
            <li>
              <Trans>Choose an expiry in minutes. Each expiry shows its yield.</Trans>
            </li>
            <li>
              <Trans>Enter the amount. The minimum is {minimum} USDT, and the amount leaves your available balance when the order is placed.</Trans>
            </li>
          </ol>
          <p>
            <Trans>The start price is the last price recorded when the server receives your order. The order shows that price and the time it was recorded.</Trans>
          </p>
        </section>

        <section className="card">
          <h2>
            <Trans>Settlement</Trans>
          </h2>
          <p>
            <Trans>At the end time, the last price recorded at or before that moment settles the order. The order shows that end price and the time it was recorded.</Trans>
          </p>
          <ul>
            <li>
              <Trans>
                <strong className="up">Win</strong>: the price moved in your direction. You receive your amount × (1 + yield). Example: 100 USDT at 80% returns 180 USDT.
              </Trans>
            </li>
            <li>
              <Trans>
                <strong>Same price</strong>: the end price equals the start price. Your amount is returned.
              </Trans>
            </li>
            <li>
              <Trans>
                <strong className="down">Loss</strong>: the price moved against your direction. You lose the amount.
              </Trans>
            </li>
            <li>
              <Trans>
                <strong>No price</strong>: no price was recorded in the 10 seconds before the end time (the market data was unavailable). The order is void and your amount is
                returned in full.
              </Trans>
            </li>
          </ul>
          <p>
            <Trans>Your balance and your purchase record update as soon as the order is settled.</Trans>
          </p>
        </section>

        <section className="card">
          <h2>
            <Trans>Fairness</Trans>
          </h2>
          <p>
            <Trans>Prices in this app come from a simulated feed and are marked as simulated. They are not prices of a real market.</Trans>
          </p>
          <p>
            <Trans>
              The simulated feed draws every step from a cryptographic random source: no one, an operator included, can know a price before it is recorded. Only a test replay from
              a fixed seed is predictable, and it is labelled “Simulated · replay”.
            </Trans>
          </p>
          <p>
            <Trans>Every result follows only from the recorded prices. No one — not you, not an operator — can set or change the outcome of an order.</Trans>
          </p>
        </section>
      </div>
    </div>
  );
}
