// Trade history (/pages/contracts/trades, from the contract orders): every fill of the real account in a period, of
// one pair and side or all, newest first; the profit and loss the period's sells realised by FIFO cost basis, per
// pair, with the options settled in it beside; and the fills as a CSV file made on the device (trades-csv.ts, loaded
// on the first download). Offline, the reads kept by the service worker show with "Offline — as of".
import { useEffect, useState } from 'react';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useSnapshot } from 'valtio';
import Big from 'big.js';
import { LOCALE_NAMES } from '../../api-contract/constants.ts';
import { CALENDAR_FIRST_DAY, CALENDAR_LAST_DAY } from '../../api-contract/calendar.ts';
import { periodProblem } from '../../api-contract/statements.ts';
import { texts } from '../../api-contract/texts.ts';
import { TRADES_MAX_DAYS, tradeFills, tradeResults, type TradeFill } from '../../api-contract/trades.ts';
import { ApiError } from '../../lib/api.ts';
import { saveCsvFile } from '../../lib/csv.ts';
import { formatAmount, formatDateTime, formatExact, formatQuantity } from '../../lib/format.ts';
import { currentLocale, intlLocale } from '../../lib/i18n.ts';
import { knownOffline } from '../../lib/offline.ts';
import { session } from '../../lib/session.ts';
import { Button, Segmented } from '../../ui/forms.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { OfflineNote } from '../../ui/OfflineNote.tsx';
import { FilterChips, ListView, Ltr } from '../../ui/records.tsx';
import {
  allFills,
  chooseFilter,
  deviceTimeZone,
  loadMoreFills,
  loadPairCodes,
  loadTrades,
  tradesFilter,
  tradesState,
} from './trades-store.ts';
import { DUST_CONVERSION_NAME, ORDER_TYPE_NAMES } from '../../ui/order-types.ts';
import './trades.css';

const PERIOD_TEXTS = {
  date: msg`Please choose the first and the last day of the period!`,
  calendar: texts.calendarDate,
  order: msg`The first day of the period must not be after the last day!`,
  length: msg`Trade history covers at most ${TRADES_MAX_DAYS} days: please choose a shorter period!`,
};

type Outcome = { kind: 'done'; file: string } | { kind: 'error'; text: string } | null;

/** A signed USDT figure with its sign and tone. */
function Signed({ value }: { value: string }) {
  const tone = new Big(value).gt(0) ? 'up' : new Big(value).lt(0) ? 'down' : '';
  return <Ltr className={`tr-signed ${tone}`}>{`${new Big(value).gt(0) ? '+' : ''}${formatAmount(value, 2)}`}</Ltr>;
}

/** One fill: pair, side and type (and, for a small balance's conversion, that it was one), time, price, quantity, fee
 * and the recorded tick it filled at. */
export function FillRow({ fill }: { fill: Readonly<TradeFill> }) {
  const { i18n } = useLingui();
  return (
    <li className="tr-fill">
      <div className="tr-fill-head">
        <Ltr className="tr-pair">{fill.code}/USDT</Ltr>
        <span className={`tr-side ${fill.side}`}>
          {fill.side === 'buy' ? <Trans>Buy</Trans> : <Trans>Sell</Trans>} · {i18n._(ORDER_TYPE_NAMES[fill.type])}
        </span>
        {fill.dust_conversion && <span className="tr-dust-tag">{i18n._(DUST_CONVERSION_NAME)}</span>}
        <span className="tr-time">{formatDateTime(fill.filled_at)}</span>
      </div>
      <dl className="tr-fill-grid">
        <dt>
          <Trans>Price</Trans>
        </dt>
        <dd>
          <Ltr>{formatExact(fill.price)}</Ltr>
        </dd>
        <dt>
          <Trans>Quantity</Trans>
        </dt>
        <dd>
          <Ltr>{formatQuantity(fill.quantity)}</Ltr>
        </dd>
        <dt>
          <Trans>Fee</Trans>
        </dt>
        <dd>
          <Ltr>
            {formatExact(fill.fee)} {fill.fee_asset}
          </Ltr>
        </dd>
        <dt>
          <Trans>Filled at tick</Trans>
        </dt>
        <dd>
          <Ltr>{formatExact(fill.tick_price)}</Ltr> · {formatDateTime(fill.tick_at)}
        </dd>
      </dl>
    </li>
  );
}

function Results() {
  const { results, resultsFailure } = useSnapshot(tradesState);
  if (!results) return resultsFailure ? <p className="tr-error">{resultsFailure}</p> : null;
  return (
    <section className="card tr-results" aria-labelledby="tr-results-title">
      <h2 id="tr-results-title">
        <Trans>Realised profit and loss (FIFO)</Trans>
      </h2>
      <table className="tr-table">
        <thead>
          <tr>
            <th>
              <Trans>Pair</Trans>
            </th>
            <th>
              <Trans>Proceeds</Trans>
            </th>
            <th>
              <Trans>Cost</Trans>
            </th>
            <th>
              <Trans>Realised</Trans>
            </th>
          </tr>
        </thead>
        <tbody>
          {results.pairs.map((pair) => (
            <tr key={pair.code}>
              <th scope="row">
                <Ltr>{pair.code}/USDT</Ltr>
              </th>
              <td>
                <Ltr>{formatAmount(pair.proceeds, 2)}</Ltr>
              </td>
              <td>
                <Ltr>{formatAmount(pair.cost, 2)}</Ltr>
              </td>
              <td>
                <Signed value={pair.realised} />
              </td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={3}>
              <Trans>Contracts, total (USDT)</Trans>
            </th>
            <td>
              <Signed value={results.realised} />
            </td>
          </tr>
          <tr>
            <th scope="row" colSpan={3}>
              <Trans>Options settled: {results.options.settled}</Trans>
            </th>
            <td>
              <Signed value={results.options.result} />
            </td>
          </tr>
        </tfoot>
      </table>
      <p className="tr-note">
        <Trans>
          Each sell is matched with the oldest coins still held (first in, first out). A buy's fee is part of its cost
          and a sell's fee reduces its proceeds, in USDT. Coins sold without a recorded buy count at cost 0.
        </Trans>
      </p>
    </section>
  );
}

export default function TradesPage() {
  const { t, i18n } = useLingui();
  const filter = useSnapshot(tradesFilter);
  const { fills, pairs } = useSnapshot(tradesState);
  const [from, setFrom] = useState(filter.from);
  const [to, setTo] = useState(filter.to);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);

  useEffect(() => {
    loadPairCodes();
    loadTrades();
  }, []);

  const applyPeriod = () => {
    const problem = periodProblem(from, to);
    if (problem) return setOutcome({ kind: 'error', text: i18n._(PERIOD_TEXTS[problem]) });
    setOutcome(null);
    chooseFilter({ from, to });
  };

  const download = async () => {
    setBusy(true);
    setOutcome(null);
    try {
      const [all, csv] = await Promise.all([allFills(), import('./trades-csv.ts')]);
      const locale = currentLocale();
      const period = { from: tradesFilter.from, to: tradesFilter.to };
      const file = csv.tradesFileName(period);
      const text = csv.tradesCsv(all, {
        locale: intlLocale(locale),
        languageName: `${LOCALE_NAMES[locale]} (${locale})`,
        timeZone: deviceTimeZone(),
        generatedAt: new Date(),
        customer: session.user?.nickname || session.user?.username || '',
        period,
        pairFilter: tradesFilter.code ? `${tradesFilter.code}/USDT` : t`All pairs`,
        sideFilter: tradesFilter.side === 'buy' ? t`Buy` : tradesFilter.side === 'sell' ? t`Sell` : t`Buy and sell`,
        sideLabel: (side) => (side === 'buy' ? t`Buy` : t`Sell`),
        typeLabel: (type) => i18n._(ORDER_TYPE_NAMES[type]),
        conversionLabel: i18n._(DUST_CONVERSION_NAME),
        texts: {
          title: t`Coinvest trade history`,
          language: t`Language`,
          timeZone: t`Time zone`,
          numberFormat: t`Number format`,
          customer: t`Customer`,
          period: t`Period`,
          pair: t`Pair`,
          side: t`Side`,
          generatedAt: t`Generated at`,
          feesRule: t`Fees`,
          feesRuleText: t`A buy's fee is part of its cost; a sell's fee reduces its proceeds (USDT). A market buy pays its fee in the coin received.`,
          columns: {
            time: t`Time`,
            pair: t`Pair`,
            side: t`Side`,
            type: t`Type`,
            price: t`Price (USDT)`,
            quantity: t`Quantity`,
            fee: t`Fee`,
            feeAsset: t`Fee asset`,
            total: t`Total (USDT)`,
            spent: t`Spent`,
            spentAsset: t`Spent asset`,
            received: t`Received`,
            receivedAsset: t`Received asset`,
            tickPrice: t`Tick price`,
            tickTime: t`Tick time`,
            order: t`Order`,
          },
        },
      });
      saveCsvFile(file, text);
      setOutcome({ kind: 'done', file });
    } catch (error) {
      const offline = error instanceof ApiError && error.ret === undefined && knownOffline();
      const text = offline
        ? t`These fills are not on this device yet: downloading them needs a connection.`
        : error instanceof Error
          ? error.message
          : String(error);
      setOutcome({ kind: 'error', text });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="page tr-page">
      <NavBar title={<Trans>Trade history</Trans>} />
      <div className="page-body">
        <OfflineNote endpoints={[tradeFills, tradeResults]} />
        <FilterChips
          label={t`Pair`}
          value={filter.code}
          onChange={(code) => chooseFilter({ code })}
          options={[
            { value: '', label: <Trans>All pairs</Trans> },
            ...pairs.map((code) => ({ value: code, label: <Ltr>{code}/USDT</Ltr> })),
          ]}
        />
        <Segmented
          value={filter.side}
          onChange={(side) => chooseFilter({ side })}
          options={[
            { value: '', label: <Trans>Buy and sell</Trans> },
            { value: 'buy', label: <Trans>Buy</Trans> },
            { value: 'sell', label: <Trans>Sell</Trans> },
          ]}
        />
        <div className="card tr-period">
          <div className="field">
            <label htmlFor="trades-from">
              <Trans>First day</Trans>
            </label>
            <div className="field-box">
              <input
                id="trades-from"
                type="date"
                value={from}
                min={CALENDAR_FIRST_DAY}
                max={to}
                onChange={(e) => setFrom(e.target.value)}
              />
            </div>
          </div>
          <div className="field">
            <label htmlFor="trades-to">
              <Trans>Last day</Trans>
            </label>
            <div className="field-box">
              <input
                id="trades-to"
                type="date"
                value={to}
                min={from}
                max={CALENDAR_LAST_DAY}
                onChange={(e) => setTo(e.target.value)}
              />
            </div>
          </div>
          <Button size="small" variant="secondary" onClick={applyPeriod}>
            <Trans>Show</Trans>
          </Button>
        </div>
        <Results />
        <div className="tr-download">
          <p className="tr-note">
            <Trans>
              A CSV file of the fills shown, in your language, with times in your time zone ({deviceTimeZone()}).
            </Trans>
          </p>
          <Button onClick={() => void download()} disabled={busy}>
            <Trans>Download CSV</Trans>
          </Button>
          {outcome?.kind === 'error' && (
            <p className="tr-error" role="alert">
              {outcome.text}
            </p>
          )}
          {outcome?.kind === 'done' && (
            <p className="tr-done" role="status">
              <Trans>Downloaded {outcome.file}</Trans>
            </p>
          )}
        </div>
        <ListView list={fills} empty={<Trans>No fills in this period</Trans>} retry={loadTrades} more={loadMoreFills}>
          {fills.lists.map((fill) => (
            <FillRow key={fill.id} fill={fill} />
          ))}
        </ListView>
      </div>
    </div>
  );
}
