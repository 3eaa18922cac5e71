// Price alerts (our addition, opened from Mine and from a coin's chart with `?code=`): a form to be told when a coin
// goes above or below a price, or moves by a percent in 24 hours (its recorded price beside the input), and the list:
// alerts made offline and waiting in the outbox ("Waiting to send"), the alerts waiting for their price, then the
// fired ones with the recorded price and the time of the tick that fired them. Each can be deleted after a question;
// offline the deletion waits in the outbox too, and the row says so. The count is held against the most allowed.
import { useEffect, useState, type ReactNode } from 'react';
import { useSearch } from 'wouter';
import { useSnapshot } from 'valtio';
import { Trans, useLingui } from '@lingui/react/macro';
import { PRICE_ALERT_MOVE_HOURS, priceAlerts, type PriceAlertKind } from '../../api-contract/price-alerts.ts';
import { errorText } from '../../lib/api.ts';
import { formatAmount, formatDateTime, formatExact, formatPrice } from '../../lib/format.ts';
import { useSubmit } from '../../lib/form.ts';
import { useLiveSnapshot } from '../../lib/live-snapshot.ts';
import { outbox } from '../../lib/outbox.ts';
import { loadCoinList, prices, subscribePrices } from '../../lib/prices.ts';
import { PriceSourceBadge } from '../../ui/PriceSourceBadge.tsx';
import { storeHydrated } from '../../lib/storage.ts';
import { toast } from '../../lib/toast.ts';
import { DecimalField } from '../../ui/AmountField.tsx';
import { Button, Form, Segmented } from '../../ui/forms.tsx';
import { TrashIcon } from '../../ui/icons.tsx';
import { ConfirmDialog, LoadFailure } from '../../ui/lists.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { OfflineNote } from '../../ui/OfflineNote.tsx';
import {
  alertList,
  alertProblem,
  alertRows,
  alertsHeld,
  createAlert,
  deleteAlert,
  loadPriceAlerts,
  sendWaiting,
  type AlertRef,
  type AlertRow,
} from './price-alerts-store.ts';
import { Verbatim } from '../../ui/Verbatim.tsx';
import './price-alerts.css';
import { Amount } from '../../ui/Amount.tsx';

/** How often the open page asks again whether a waiting alert fired. */
const REFRESH_MS = 10_000;

export default function PriceAlertsPage() {
  const { t } = useLingui();
  const asked = (new URLSearchParams(useSearch()).get('code') ?? '').toUpperCase();
  const { lists, max, loaded } = useSnapshot(alertList);
  const { pending, refusedAlerts } = useSnapshot(outbox);
  const [failure, setFailure] = useState('');
  const [deleting, setDeleting] = useState<{ ref: AlertRef; what: ReactNode } | null>(null);

  const load = () =>
    loadPriceAlerts({ loading: true }).then(
      () => setFailure(''),
      (error: unknown) => setFailure(errorText(error)),
    );
  useEffect(() => {
    void load();
    // The coin list from the device answers at once; a deep link with nothing kept asks for it. The stream keeps
    // the prices beside the input live.
    void storeHydrated(prices).then(() => (prices.codes.length ? undefined : loadCoinList().catch(() => undefined)));
    return subscribePrices();
  }, []);

  const { waiting, fired } = alertRows(lists, pending);
  // While an alert waits for its price or to be sent, the open page asks every few seconds whether it fired (offline
  // the cached answer comes back; the first that reaches the network again also sends what waits).
  const ticking = waiting.length > 0;
  useEffect(() => {
    if (!ticking) return;
    const timer = setInterval(() => {
      if (document.visibilityState !== 'visible') return;
      loadPriceAlerts().catch(() => undefined);
      void sendWaiting();
    }, REFRESH_MS);
    return () => clearInterval(timer);
  }, [ticking]);

  const held = alertsHeld(lists, pending);
  const remove = useSubmit(async () => {
    if (!deleting) return;
    const outcome = await deleteAlert(deleting.ref);
    setDeleting(null);
    toast(outcome === 'queued' ? t`Deleted once you are back online` : t`The alert is deleted.`);
  });
  const ask = (ref: AlertRef, what: ReactNode) => setDeleting({ ref, what });

  return (
    <div className="page alerts-page">
      <NavBar title={<Trans>Price alerts</Trans>} />
      <div className="page-body">
        <OfflineNote endpoints={[priceAlerts]} />
        <AlertForm asked={asked} held={held} max={max} />
        <section className="card flush alerts-list" aria-label={t`Your alerts`}>
          <header className="alerts-head">
            <h2>
              <Trans>Your alerts</Trans>
            </h2>
            <span className="alerts-count">
              <Trans>
                {held} of {max} waiting
              </Trans>
            </span>
          </header>
          {refusedAlerts.map((entry, index) => (
            <div key={entry.key} className="alerts-row refused">
              <div className="alerts-text">
                <span className="alerts-target">
                  <strong>{entry.code}</strong> ·{' '}
                  <Target kind={entry.alert} price={entry.price} percent={entry.percent} />
                </span>
                <span className="alerts-state" role="alert">
                  <Trans>
                    Not sent: <Verbatim text={entry.reason} />
                  </Trans>
                </span>
              </div>
              <button type="button" className="link-button" onClick={() => outbox.refusedAlerts.splice(index, 1)}>
                <Trans>Remove</Trans>
              </button>
            </div>
          ))}
          {!loaded && failure && !waiting.length ? (
            <LoadFailure onRetry={() => void load()}>{failure}</LoadFailure>
          ) : (
            !waiting.length &&
            !fired.length &&
            !refusedAlerts.length && (
              <p className="alerts-empty muted">
                <Trans>No alerts yet. Make one above: you are told once, by notification and station message.</Trans>
              </p>
            )
          )}
          {waiting.map((row) => (
            <Row key={rowKey(row)} row={row} onDelete={ask} />
          ))}
          {fired.length > 0 && (
            <h3 className="alerts-fired-title">
              <Trans>Fired</Trans>
            </h3>
          )}
          {fired.map((row) => (
            <Row key={rowKey(row)} row={row} onDelete={ask} />
          ))}
        </section>
      </div>
      {deleting && (
        <ConfirmDialog
          title={<Trans>Delete this alert?</Trans>}
          confirm={<Trans>Delete</Trans>}
          busy={remove.busy}
          onCancel={() => setDeleting(null)}
          onConfirm={() => void remove.submit()}
        >
          <p>{deleting.what}</p>
        </ConfirmDialog>
      )}
    </div>
  );
}

const rowKey = (row: AlertRow) => (row.state === 'unsent' ? row.key : String(row.alert.id));

/** What an alert waits for: "Goes above 70,000 USDT", "Moves 5 % in 24 h". */
function Target({ kind, price, percent }: { kind: PriceAlertKind; price: string | null; percent: string | null }) {
  const hours = PRICE_ALERT_MOVE_HOURS;
  if (kind === 'move') {
    const shown = formatExact(percent || '0');
    return (
      <Trans>
        Moves <bdi dir="ltr">{shown}%</bdi> in {hours} h
      </Trans>
    );
  }
  const shown = formatExact(price || '0');
  return kind === 'above' ? (
    <Trans>
      Goes above <Amount value={shown} unit="USDT" />
    </Trans>
  ) : (
    <Trans>
      Goes below <Amount value={shown} unit="USDT" />
    </Trans>
  );
}

/** One alert: its coin and target, where it stands, and its delete button. */
function Row({ row, onDelete }: { row: AlertRow; onDelete: (ref: AlertRef, what: ReactNode) => void }) {
  const { t } = useLingui();
  const code = row.state === 'unsent' ? row.code : row.alert.code;
  const target =
    row.state === 'unsent' ? (
      <Target kind={row.kind} price={row.price} percent={row.percent} />
    ) : (
      <Target kind={row.alert.kind} price={row.alert.price} percent={row.alert.percent} />
    );
  const what = (
    <>
      <strong>{code}</strong> · {target}
    </>
  );
  return (
    <div className={`alerts-row ${row.state}`}>
      <div className="alerts-text">
        <span className="alerts-target">{what}</span>
        <span className="alerts-state" role={row.state === 'unsent' || row.state === 'deleting' ? 'status' : undefined}>
          <State row={row} />
        </span>
      </div>
      {row.state !== 'deleting' && (
        <button
          type="button"
          className="icon-button alerts-delete"
          onClick={() => onDelete(row.state === 'unsent' ? { key: row.key } : { id: row.alert.id }, what)}
          aria-label={t`Delete alert`}
          title={t`Delete alert`}
        >
          <TrashIcon />
        </button>
      )}
    </div>
  );
}

function State({ row }: { row: AlertRow }) {
  const { quotes } = useLiveSnapshot(prices);
  if (row.state === 'unsent') return <Trans>Waiting to send</Trans>;
  if (row.state === 'deleting') return <Trans>Deleted once you are back online</Trans>;
  const { alert } = row;
  if (row.state === 'waiting') {
    const since = formatDateTime(alert.created_at);
    return <Trans>Waiting since {since}</Trans>;
  }
  const decimals = quotes[alert.code]?.price_decimals ?? 2;
  const price = formatPrice(alert.fired_price ?? '0', decimals);
  const at = formatDateTime(alert.fired_tick_at ?? alert.fired_at ?? alert.created_at);
  if (alert.kind === 'move' && alert.fired_from_price) {
    const from = formatPrice(alert.fired_from_price, decimals);
    const hours = PRICE_ALERT_MOVE_HOURS;
    return (
      <Trans>
        Fired: <Amount value={price} unit="USDT" /> recorded at {at}, <Amount value={from} unit="USDT" /> {hours} h
        before
      </Trans>
    );
  }
  return (
    <Trans>
      Fired: <Amount value={price} unit="USDT" /> recorded at {at}
    </Trans>
  );
}

/** The form: the coin, what to wait for, the price or percent with the coin's recorded price beside it. */
function AlertForm({ asked, held, max }: { asked: string; held: number; max: number }) {
  const { t } = useLingui();
  const { codes, quotes } = useLiveSnapshot(prices);
  const [chosen, setChosen] = useState('');
  const [kind, setKind] = useState<PriceAlertKind>('above');
  const [value, setValue] = useState('');
  // The coin asked for by the link, else the first listed, until the customer chooses one.
  const code = chosen || (codes.includes(asked) ? asked : (codes[0] ?? ''));
  const quote = quotes[code];

  const { busy, submit } = useSubmit(
    async () => {
      const outcome = await createAlert({ code, kind, value });
      setValue('');
      toast(outcome === 'queued' ? t`Waiting to send: sent once you are back online.` : t`Alert created.`);
    },
    () => alertProblem({ code, kind, value }, held, max, quote?.price ?? null),
  );

  const now = quote ? formatPrice(quote.price, quote.price_decimals) : '—';
  const up = !quote?.change_24h.startsWith('-');
  const change = quote ? `${up ? '+' : ''}${formatAmount(quote.change_24h, 2)}%` : '—';
  const hours = PRICE_ALERT_MOVE_HOURS;
  return (
    <section className="card alerts-form" aria-label={t`New alert`}>
      <h2>
        <Trans>New alert</Trans>
      </h2>
      <Form onSubmit={submit} className="alerts-form-body">
        <div className="field">
          <label htmlFor="alert-coin">
            <Trans>Coin</Trans>
          </label>
          <div className="field-box">
            <select id="alert-coin" value={code} onChange={(event) => setChosen(event.target.value)}>
              {codes.map((listed) => (
                <option key={listed} value={listed}>
                  {listed}/USDT
                </option>
              ))}
            </select>
          </div>
        </div>
        <Segmented
          value={kind}
          options={[
            { value: 'above', label: t`Goes above` },
            { value: 'below', label: t`Goes below` },
            { value: 'move', label: t`Moves in ${hours} h` },
          ]}
          onChange={setKind}
        />
        <DecimalField
          label={kind === 'move' ? t`Move up or down (%)` : t`Price (USDT)`}
          value={value}
          onChange={setValue}
          enterKeyHint="done"
          name={kind === 'move' ? 'percent' : 'price'}
          trailing={
            <span className="alerts-now">
              {kind === 'move' ? (
                <Trans>
                  24 h: <bdi className={up ? 'up' : 'down'}>{change}</bdi>
                </Trans>
              ) : (
                <Trans>
                  Now <bdi>{now}</bdi>
                </Trans>
              )}
            </span>
          }
        />
        <p className="form-note muted">
          {/* The price beside the field is the feed's: a simulated one says so, as every price on screen does. */}
          <PriceSourceBadge source={quote} />{' '}
          {kind === 'move' ? (
            <Trans>
              You are told once when a recorded {code} price is this much above or below the one recorded {hours} h
              before.
            </Trans>
          ) : (
            <Trans>
              You are told once when a recorded {code} price reaches it, by notification and station message.
            </Trans>
          )}
        </p>
        <Button type="submit" disabled={busy}>
          <Trans>Create alert</Trans>
        </Button>
      </Form>
    </section>
  );
}
