// The admin's system page, for an operator without Prometheus: the latest check of the books (a banner
// when they do not add up), the price feed per exchange and coin, the settlement lag, the outbox by
// channel, the server processes and the house's exposure, refreshed every 10 seconds while open like the
// queues. Read only: nothing here changes anything. Figures are the server's.
import { useState, type ReactNode } from 'react';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { consoleSystem, type ConsoleSystem, type ReconciliationMismatch } from '../api-contract/console.ts';
import { consoleApi, messageOf } from './api.ts';
import { formatAmount, formatNumber, formatTime } from './format.ts';
import { sharedMoneyDecimals } from '../api-contract/decimal-values.ts';
import { ErrorLine, QUEUES_POLL_MS, RowsTable, usePolling } from './parts.tsx';

/** An age in whole seconds as a person reads it: "12 s", "4 min", "3 h", "2 d". */
function Age({ seconds }: { seconds: number | null }) {
  const { t } = useLingui();
  if (seconds === null) return <>—</>;
  if (seconds < 120) return <>{t`${seconds} s`}</>;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 120) return <>{t`${minutes} min`}</>;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return <>{t`${hours} h`}</>;
  const days = Math.floor(hours / 24);
  return <>{t`${days} d`}</>;
}

const isDecimal = (value: string) => /^-?\d+(\.\d+)?$/.test(value);

/** A mismatch's figure: an amount with its groups and `decimals` decimals, or the server's words ('none': no payout
 * entry). */
function Figure({ value, decimals }: { value: string; decimals: number }) {
  const { t } = useLingui();
  if (value === 'none') return <>{t`None`}</>;
  return <>{isDecimal(value) ? formatAmount(value, '', decimals) : value}</>;
}

/** The decimals of a mismatch's expected and found amounts, one asset's two figures side by side: they line up. */
const figureDecimals = ({ expected, found }: { expected: string; found: string }) =>
  sharedMoneyDecimals([expected, found].filter(isDecimal));

/** RowsTable in its scrolling frame; the empty text alone, without the frame. */
function Table(props: Parameters<typeof RowsTable>[0]) {
  if (props.rows.length === 0) return <RowsTable {...props} />;
  return (
    <div className="console-table-wrap">
      <RowsTable {...props} />
    </div>
  );
}

const secondsSince = (iso: string | null, asOf: string) =>
  iso === null ? null : Math.max(0, Math.floor((Date.parse(asOf) - Date.parse(iso)) / 1000));

/** A state in words and colour. */
function State({ good, children }: { good: boolean; children: ReactNode }) {
  return <span className={`console-state ${good ? 'console-state-good' : 'console-state-bad'}`}>{children}</span>;
}

export function SystemPage() {
  const [system, setSystem] = useState<ConsoleSystem | null>(null);
  const [error, setError] = useState('');
  usePolling(async () => {
    try {
      setSystem(await consoleApi(consoleSystem));
      setError('');
    } catch (failure) {
      setError(messageOf(failure));
    }
  }, QUEUES_POLL_MS);
  return (
    <section className="console-system">
      <div className="console-page-head">
        <h1>
          <Trans>System</Trans>
        </h1>
        {system && (
          <span className="console-muted">
            <Trans>As of {formatTime(system.as_of)}, refreshed every 10 seconds</Trans>
          </span>
        )}
      </div>
      <ErrorLine error={error} />
      {system && (
        <>
          {system.reconciliation && !system.reconciliation.ok && (
            <p className="console-alert" role="alert">
              <Trans>
                The books do not add up. Mismatches found at {formatTime(system.reconciliation.finished_at)}:{' '}
                {system.reconciliation.mismatches.length}. Nothing was corrected; each is in the audit log.
              </Trans>
            </p>
          )}
          <p className="console-muted">
            <Trans>
              This answer came from process {system.this_process.id}, version {system.this_process.version}, build{' '}
              {system.this_process.build}.
            </Trans>
          </p>
          <Books system={system} />
          <Feed system={system} />
          <Settlement system={system} />
          <Outbox system={system} />
          <Processes system={system} />
          <Exposure system={system} />
        </>
      )}
    </section>
  );
}

function Books({ system }: { system: ConsoleSystem }) {
  const { t } = useLingui();
  const run = system.reconciliation;
  const checks: Record<ReconciliationMismatch['kind'], string> = {
    available: t`Available balance against its ledger entries`,
    frozen: t`Frozen balance against its ledger entries`,
    negative: t`Balance below zero`,
    reserve: t`Frozen balance against open orders and withdrawals`,
    lockup: t`Lock-up balance against processing lock-ups`,
    option_payout: t`Option payout entry`,
    exposure: t`House exposure against its open options`,
  };
  return (
    <>
      <h2>
        <Trans>Books</Trans>
      </h2>
      <p className="console-muted">
        <Trans>
          Every <Age seconds={system.reconcile_every_seconds} /> one process checks that each balance equals its ledger
          entries, that frozen amounts equal the open orders’ and withdrawals’ reserves, that nothing is negative and
          that every settled option has its one payout. A mismatch is reported, never corrected.
        </Trans>
      </p>
      {run === null ? (
        <p className="console-empty">
          <Trans>Not checked yet.</Trans>
        </p>
      ) : (
        <>
          <p data-testid="system-books">
            <State good={run.ok}>{run.ok ? t`The books add up` : t`Mismatches`}</State>{' '}
            <Trans>
              Last checked {formatTime(run.finished_at)} by {run.process}: {run.checked_balances} balances.
            </Trans>
          </p>
          {!run.ok && (
            <Table
              label="system-mismatches"
              head={[t`Check`, t`What`, t`Customer`, t`Asset`, t`Expected`, t`Found`]}
              rows={run.mismatches.map((mismatch) => [
                checks[mismatch.kind] ?? mismatch.kind,
                mismatch.target,
                mismatch.user_id,
                mismatch.asset,
                <Figure value={mismatch.expected} decimals={figureDecimals(mismatch)} />,
                <Figure value={mismatch.found} decimals={figureDecimals(mismatch)} />,
              ])}
              empty={null}
            />
          )}
        </>
      )}
    </>
  );
}

function Feed({ system }: { system: ConsoleSystem }) {
  const { t } = useLingui();
  const { feed, as_of: asOf } = system;
  const exchanges = feed.exchanges.map((exchange) => exchange.exchange);
  return (
    <>
      <h2>
        <Trans>Price feed</Trans>
      </h2>
      {feed.simulated ? (
        <p className="console-notice" data-testid="system-simulated">
          <Trans>Simulated feed: the server draws the prices itself; no exchange is connected.</Trans>
        </p>
      ) : (
        <Table
          label="system-exchanges"
          head={[t`Exchange`, t`Connection`, t`Last trade`, t`Reconnects`, t`Malformed frames`]}
          rows={feed.exchanges.map((exchange) => [
            exchange.exchange,
            <State good={exchange.connected}>{exchange.connected ? t`Connected` : t`Disconnected`}</State>,
            <Age seconds={secondsSince(exchange.last_trade_at, asOf)} />,
            exchange.reconnects,
            exchange.malformed_frames,
          ])}
          empty={<Trans>The feed has not reported any exchange yet.</Trans>}
        />
      )}
      <Table
        label="system-coins"
        head={[t`Coin`, t`State`, t`Latest price`, t`Latest tick`, ...exchanges]}
        rows={feed.coins.map((coin) => [
          coin.coin,
          coin.halted_since ? (
            <State good={false}>{t`Halted since ${formatTime(coin.halted_since)}`}</State>
          ) : (
            <State good>{t`Trading`}</State>
          ),
          coin.last_price === null ? '—' : formatNumber(coin.last_price),
          <Age seconds={secondsSince(coin.last_tick_at, asOf)} />,
          ...exchanges.map((exchange) => <Age seconds={secondsSince(coin.exchanges[exchange] ?? null, asOf)} />),
        ])}
        empty={<Trans>No coins.</Trans>}
      />
    </>
  );
}

function Settlement({ system }: { system: ConsoleSystem }) {
  const { due, oldest_age_seconds: oldest } = system.settlement;
  return (
    <>
      <h2>
        <Trans>Settlement</Trans>
      </h2>
      <p data-testid="system-settlement">
        {due === 0 ? (
          <State good>
            <Trans>No option waits past its end.</Trans>
          </State>
        ) : (
          <State good={(oldest ?? 0) < 10}>
            <Plural
              value={due}
              one="# option has ended and is not settled yet; the oldest ended"
              other="# options have ended and are not settled yet; the oldest ended"
            />{' '}
            <Age seconds={oldest} />
          </State>
        )}
      </p>
    </>
  );
}

function Outbox({ system }: { system: ConsoleSystem }) {
  const { t } = useLingui();
  const channels: Record<string, string> = { email: t`E-mail`, sms: t`SMS`, push: t`Push` };
  return (
    <>
      <h2>
        <Trans>Outbox</Trans>
      </h2>
      <Table
        label="system-outbox"
        head={[t`Channel`, t`Waiting`, t`Failed in 24 h`, t`Oldest waiting`]}
        rows={system.outbox.map((channel) => [
          channels[channel.channel] ?? channel.channel,
          channel.queued,
          channel.failed_24h > 0 ? <State good={false}>{channel.failed_24h}</State> : 0,
          <Age seconds={channel.oldest_queued_age_seconds} />,
        ])}
        empty={null}
      />
    </>
  );
}

function Processes({ system }: { system: ConsoleSystem }) {
  const { t } = useLingui();
  return (
    <>
      <h2>
        <Trans>Server processes</Trans>
      </h2>
      <Table
        label="system-processes"
        head={[t`Host`, t`Process id`, t`Version`, t`Build`, t`Started`, t`Last seen`, t`State`]}
        rows={system.processes.map((process) => [
          process.host,
          process.pid,
          process.version,
          process.build,
          formatTime(process.started_at),
          formatTime(process.last_seen_at),
          <State good={process.alive}>{process.alive ? t`Alive` : t`Stopped`}</State>,
        ])}
        empty={<Trans>No process has reported yet.</Trans>}
      />
    </>
  );
}

function Exposure({ system }: { system: ConsoleSystem }) {
  const { t } = useLingui();
  const directions = { up: t`Up`, down: t`Down` };
  // Every figure of the table is USDT: one number of decimals, so they line up.
  const decimals = sharedMoneyDecimals(system.exposure.flatMap((row) => [row.open_payout, row.cap]));
  return (
    <>
      <h2>
        <Trans>Open exposure</Trans>
      </h2>
      <Table
        label="system-exposure"
        head={[t`Coin`, t`Direction`, t`Open options`, t`Potential payout`, t`Cap`, t`Used`]}
        rows={system.exposure.map((row) => [
          row.coin,
          directions[row.direction],
          row.open_orders,
          formatAmount(row.open_payout, '', decimals),
          formatAmount(row.cap, '', decimals),
          `${row.used_percent} %`,
        ])}
        empty={<Trans>No open options.</Trans>}
      />
    </>
  );
}
