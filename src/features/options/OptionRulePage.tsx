// The option rule (/pages/optionRule/index): how a short-term option is bought and settled, in plain words.
import { Trans } from '@lingui/react/macro';
import { useLiveSnapshot } from '../../lib/live-snapshot.ts';
import Big from 'big.js';
import { INDEX_RULE } from '../../api-contract/markets.ts';
import { RISK_WINDOW_DAYS } from '../../api-contract/risk.ts';
import { prices } from '../../lib/prices.ts';
import { NavBar } from '../../ui/NavBar.tsx';

export default function OptionRulePage() {
  // The feed now in use, as the last coin list said (kept on the device).
  const { quotes, codes } = useLiveSnapshot(prices);
  const source = quotes[codes[0] ?? ''];
  const fresh = INDEX_RULE.freshMs / 1000;
  const band = new Big(INDEX_RULE.band).times(100).toFixed();
  const least = INDEX_RULE.minConstituents;
  const days = RISK_WINDOW_DAYS;
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
              <Trans>
                Choose a direction: Buy up if you expect the price to be higher at the end time, Buy short if you expect
                it to be lower.
              </Trans>
            </li>
            <li>
              <Trans>Choose an expiry in minutes. Each expiry shows its yield.</Trans>
            </li>
            <li>
              <Trans>
                Enter the amount: at least the minimum the amount field shows, which each coin and expiry sets for
                itself. The amount leaves your available balance when the order is placed.
              </Trans>
            </li>
          </ol>
          <p>
            <Trans>
              The start price is the first price recorded after the server accepts your order, usually within a second;
              until then the order shows “Opening…”. The order shows that price and the time it was recorded, and its
              end time counts from that moment. No order starts at a price recorded before it was placed.
            </Trans>
          </p>
          <p>
            <Trans>
              If no price is recorded within 10 seconds after your order (the market data was unavailable or the coin
              was paused), the order does not open: it is void and your amount is returned in full, once.
            </Trans>
          </p>
        </section>

        <section className="card">
          <h2>
            <Trans>Settlement</Trans>
          </h2>
          <p>
            <Trans>
              At the end time, the last price recorded at or before that moment settles the order. The order shows that
              end price and the time it was recorded.
            </Trans>
          </p>
          <ul>
            <li>
              <Trans>
                <strong className="up">Win</strong>: the price moved in your direction. You receive your amount × (1 +
                yield). Example: 100 USDT at 80% returns 180 USDT.
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
                <strong>No price</strong>: no price was recorded in the 10 seconds before the end time (the market data
                was unavailable). The order is void and your amount is returned in full.
              </Trans>
            </li>
          </ul>
          <p>
            <Trans>Your balance and your purchase record update as soon as the order is settled.</Trans>
          </p>
        </section>

        <section className="card" id="risk-figure">
          <h2>
            <Trans>How many customers lose money</Trans>
          </h2>
          <p>
            <Trans>
              Every day, shortly after midnight UTC, the server computes from the account records how many customers
              lost money on options: of the customers who had at least one option settled (won, lost or at the same
              price) in the {days} days before that day, those whose payouts add up to less than their amounts. Void
              orders do not count.
            </Trans>
          </p>
          <p>
            <Trans>
              The option page and the confirmation of your first order show their share, rounded to one decimal, with
              the day it was computed for. No one sets it by hand. When no customer traded options in those days, the
              page says so instead of showing a share.
            </Trans>
          </p>
        </section>

        <section className="card">
          <h2>
            <Trans>Fairness</Trans>
          </h2>
          {source?.simulated && (
            <>
              <p>
                <Trans>
                  Prices in this app come from a simulated feed and are marked as simulated. They are not prices of a
                  real market.
                </Trans>
              </p>
              <p>
                <Trans>
                  The simulated feed draws every step from a cryptographic random source: no one, an operator included,
                  can know a price before it is recorded. Only a test replay from a fixed seed is predictable, and it is
                  labelled “Simulated · replay”.
                </Trans>
              </p>
            </>
          )}
          {source && !source.simulated && (
            <p>
              <Trans>
                Prices are an index of public exchanges. Every second, each coin's price is the median of the exchanges'
                latest prices that are at most {fresh} seconds old, after leaving out any price more than {band}% away
                from the median of them all. Each order shows the exchanges' prices its price was made of. With fewer
                than {least} such prices the coin is paused: no order can be placed on it, and an order whose end time
                falls in the pause follows the “No price” rule above.
              </Trans>{' '}
              <Trans>
                The median is recorded at the decimals the coin's price shows; one exactly halfway between two such
                prices goes to the one whose last digit is even.
              </Trans>
            </p>
          )}
          <p>
            <Trans>
              Every result follows only from the recorded prices. No one — not you, not an operator — can set or change
              the outcome of an order.
            </Trans>
          </p>
        </section>
      </div>
    </div>
  );
}
