// The admin's House page: the caps on what the house can lose on options (edited in place, only the
// changed ones sent, each change audited by the server), what a win of the open options would pay per
// coin and direction against the exposure cap, and the house's result per product, today and over the
// last 7 days, as the server read it from the ledger. Figures are the server's decimal strings.
import { useState, type ReactNode } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { isPositiveAmount } from '../api-contract/markets.ts';
import {
  HOUSE_CAPS,
  consoleChangeHouseCaps,
  consoleHouse,
  type ConsoleHouse,
  type ConsoleHouseCaps,
  type HouseCap,
  type HousePeriod,
} from '../api-contract/console-house.ts';
import { ConsoleError, consoleApi } from './api.ts';
import { formatAmount, formatNumber, formatTime, sentNumber, typedNumber } from './format.ts';
import { sharedMoneyDecimals } from '../api-contract/decimal-values.ts';
import { ErrorLine, useAction, useLoad } from './parts.tsx';

/** A stored decimal as an operator writes it: "50000.00000000" → "50000". */
const plain = (decimal: string) => (decimal.includes('.') ? decimal.replace(/\.?0+$/, '') : decimal);

type Period = 'today' | 'week';

export function HousePage() {
  const { t } = useLingui();
  const [house, error, reload] = useLoad(() => consoleApi(consoleHouse), 'house');
  const [period, setPeriod] = useState<Period>('today');
  const periods: Record<Period, string> = { today: t`Today`, week: t`Last 7 days` };
  return (
    <section>
      <div className="console-page-head">
        <h1>
          <Trans>House</Trans>
        </h1>
        <span className="console-inline">
          {house && (
            <span className="console-muted">
              <Trans>As of {formatTime(house.as_of)}</Trans>
            </span>
          )}
          <button type="button" onClick={() => void reload()}>
            <Trans>Refresh</Trans>
          </button>
        </span>
      </div>
      <p className="console-notice">
        <Trans>
          Caps apply to option orders placed from now on: an order beyond one is refused before any money moves. Nothing
          here sets a price or an outcome.
        </Trans>
      </p>
      <ErrorLine error={error} />
      {house && (
        <>
          <h2>
            <Trans>Caps (USDT)</Trans>
          </h2>
          <CapsForm saved={house.caps} onSaved={reload} />

          <h2>
            <Trans>Open exposure</Trans>
          </h2>
          <p className="console-muted">
            <Trans>What a win of every open option would pay, per coin and direction, against the exposure cap.</Trans>
          </p>
          <ExposureTable exposure={house.exposure} />

          <h2>
            <Trans>House result</Trans>
          </h2>
          <div className="console-tabs" role="tablist">
            {(Object.keys(periods) as Period[]).map((name) => (
              <button
                key={name}
                type="button"
                role="tab"
                aria-selected={period === name}
                className={period === name ? 'active' : ''}
                onClick={() => setPeriod(name)}
              >
                {periods[name]}
              </button>
            ))}
          </div>
          <ResultTable house={house} period={house[period]} />
        </>
      )}
    </section>
  );
}

/** The largest whole cap the console takes: the API's largest amount (18 digits before the point). */
const CAP_MOST = '999999999999999999';
/** What a cap field reads as, grouped in the operator's language ("= 1,000,000 USDT"), or nothing while it reads as no
 * amount. */
function capRead(typed: string): string {
  const read = typedNumber(typed);
  return isPositiveAmount(read) ? `= ${formatNumber(read)} USDT` : '';
}

function CapsForm({ saved, onSaved }: { saved: ConsoleHouseCaps; onSaved: () => Promise<void> }) {
  const { t } = useLingui();
  const labels: Record<HouseCap, string> = {
    exposure: t`Potential payout per coin and direction`,
    per_order: t`Stake per order`,
    per_minute: t`Stakes per customer per minute`,
  };
  const written = (caps: ConsoleHouseCaps) =>
    Object.fromEntries(HOUSE_CAPS.map((cap) => [cap, plain(caps[cap])])) as Record<HouseCap, string>;
  const [values, setValues] = useState(() => written(saved));
  const [done, setDone] = useState(false);
  const { busy, error, run } = useAction(onSaved);
  // A cap is changed when what it reads as differs from what is saved: "๑,๐๐๐,๐๐๐" where 1000000 is saved is no change.
  const changed = HOUSE_CAPS.filter(
    (cap) => values[cap] !== plain(saved[cap]) && plain(typedNumber(values[cap])) !== plain(saved[cap]),
  );
  const save = () =>
    run(async () => {
      const sent = Object.fromEntries(changed.map((cap) => [cap, sentNumber(values[cap])]));
      // Said by field, in the operator's words, before anything is sent (the server's refusal is the command line's).
      const wrong = changed.find((cap) => !isPositiveAmount(sent[cap]!));
      const most = formatNumber(CAP_MOST);
      if (wrong) throw new ConsoleError(t`${labels[wrong]}: enter an amount in USDT above 0, at most ${most}.`);
      setValues(written(await consoleApi(consoleChangeHouseCaps, sent)));
      setDone(true);
    });
  return (
    <>
      <div className="console-table-wrap">
        <table className="console-table console-terms">
          <thead>
            <tr>
              {HOUSE_CAPS.map((cap) => (
                <th key={cap}>{labels[cap]}</th>
              ))}
              <th />
            </tr>
          </thead>
          <tbody>
            <tr>
              {HOUSE_CAPS.map((cap) => (
                <td key={cap}>
                  <input
                    aria-label={labels[cap]}
                    inputMode="decimal"
                    value={values[cap]}
                    className={changed.includes(cap) ? 'console-changed' : ''}
                    onChange={(event) => {
                      setValues({ ...values, [cap]: event.target.value });
                      setDone(false);
                    }}
                    onKeyDown={(event) => event.key === 'Enter' && changed.length > 0 && void save()}
                  />
                  {/* The figure grouped, so 100000 and 1000000 cannot be taken for each other. */}
                  <small className="console-muted console-cap-read">{capRead(values[cap])}</small>
                </td>
              ))}
              <td>
                <button
                  type="button"
                  className="primary small"
                  disabled={busy || changed.length === 0}
                  onClick={() => void save()}
                  aria-label={t`Save the caps`}
                >
                  <Trans>Save</Trans>
                </button>
              </td>
            </tr>
          </tbody>
        </table>
      </div>
      <ErrorLine error={error} />
      {done && !error && (
        <p className="console-saved" role="status">
          <Trans>Saved. Orders already placed stay open, even above a lowered cap.</Trans>
        </p>
      )}
    </>
  );
}

function ExposureTable({ exposure }: { exposure: ConsoleHouse['exposure'] }) {
  const { t } = useLingui();
  if (exposure.length === 0)
    return (
      <p className="console-empty">
        <Trans>No open options.</Trans>
      </p>
    );
  const directions = { up: t`Up`, down: t`Down` };
  // Every figure of the table is USDT: one number of decimals, so they line up.
  const decimals = sharedMoneyDecimals(exposure.flatMap((row) => [row.open_payout, row.cap]));
  return (
    <NumbersTable
      head={[t`Coin`, t`Direction`]}
      numbers={[t`Open options`, t`Potential payout`, t`Cap`, t`Used`]}
      label="house-exposure"
    >
      {exposure.map((row) => (
        <tr key={`${row.coin}:${row.direction}`}>
          <td>{row.coin}</td>
          <td>{directions[row.direction]}</td>
          <td className="number">{row.open_orders}</td>
          <td className="number">{formatAmount(row.open_payout, '', decimals)}</td>
          <td className="number">{formatAmount(row.cap, '', decimals)}</td>
          <td className="number">
            <meter
              min={0}
              max={100}
              low={70}
              high={90}
              optimum={0}
              value={Math.min(100, Number(row.used_percent))}
              aria-hidden="true"
            />{' '}
            {row.used_percent} %
          </td>
        </tr>
      ))}
    </NumbersTable>
  );
}

function ResultTable({ house, period }: { house: ConsoleHouse; period: HousePeriod }) {
  const { t } = useLingui();
  const { totals } = period;
  // Every figure of the table, its totals too, is USDT: one number of decimals, so they line up.
  const decimals = sharedMoneyDecimals(
    [totals, ...period.rows].flatMap((row) => [row.stakes, row.payouts, row.result, row.open_payout]),
  );
  return (
    <>
      <p className="console-muted">
        <Trans>
          From {formatTime(period.from, house.time_zone)} (days start at midnight, {house.time_zone}). From the ledger:
          stakes taken, payouts paid (wins, ties and refunds), and the net result, stakes less payouts (below zero, the
          house lost).
        </Trans>
      </p>
      {period.rows.length === 0 ? (
        <p className="console-empty">
          <Trans>No option orders in this period.</Trans>
        </p>
      ) : (
        <NumbersTable
          head={[t`Coin`, t`Period`]}
          numbers={[t`Stakes taken`, t`Payouts paid`, t`Net result`, t`Open exposure`]}
          label="house-result"
          foot={
            <tr>
              <th colSpan={2}>
                <Trans>All products</Trans>
              </th>
              <td className="number">{formatAmount(totals.stakes, '', decimals)}</td>
              <td className="number">{formatAmount(totals.payouts, '', decimals)}</td>
              <td className="number">{formatAmount(totals.result, '', decimals)}</td>
              <td className="number">{formatAmount(totals.open_payout, '', decimals)}</td>
            </tr>
          }
        >
          {period.rows.map((row) => (
            <tr key={`${row.coin}:${row.minutes}`}>
              <td>{row.coin}</td>
              <td>{t`${row.minutes} min`}</td>
              <td className="number">{formatAmount(row.stakes, '', decimals)}</td>
              <td className="number">{formatAmount(row.payouts, '', decimals)}</td>
              <td className="number">{formatAmount(row.result, '', decimals)}</td>
              <td className="number">{formatAmount(row.open_payout, '', decimals)}</td>
            </tr>
          ))}
        </NumbersTable>
      )}
    </>
  );
}

/** A table whose first columns name a row and the others are figures, right-aligned. */
function NumbersTable({
  head,
  numbers,
  label,
  foot,
  children,
}: {
  head: string[];
  numbers: string[];
  label: string;
  foot?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="console-table-wrap">
      <table className="console-table" data-testid={label}>
        <thead>
          <tr>
            {head.map((text) => (
              <th key={text}>{text}</th>
            ))}
            {numbers.map((text) => (
              <th key={text} className="number">
                {text}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
        {foot && <tfoot>{foot}</tfoot>}
      </table>
    </div>
  );
}
