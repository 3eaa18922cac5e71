// Points (/pages/mine/pointRecord, /users/ptomoney): the balance, the redemption rule, redeeming
// points for USDT (with what they pay shown as they are typed) and the history, a page at a time.
import { useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { Trans, useLingui } from '@lingui/react/macro';
import { msg } from '@lingui/core/macro';
import { pointRecords, type PointEntry } from '../../api-contract/rewards.ts';
import { useDisplayCurrency } from '../../lib/fiat.ts';
import { formatDateTime, formatMoney } from '../../lib/format.ts';
import { formatPoints } from '../../lib/points.ts';
import { useSubmit } from '../../lib/form.ts';
import { hasMore } from '../../lib/paged-list.ts';
import { toast } from '../../lib/toast.ts';
import { Button, TextField } from '../../ui/forms.tsx';
import { LoadFailure } from '../../ui/lists.tsx';
import { Money } from '../../ui/Money.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { OfflineNote } from '../../ui/OfflineNote.tsx';
import {
  formatSignedPoints,
  loadPoints,
  pointKindLabel,
  readPoints,
  redeem,
  redeemPreview,
  redeemProblem,
  rewardsState,
  wholePoints,
} from './rewards-store.ts';
import './rewards.css';

const reload = () => void loadPoints().catch(() => undefined);

export default function PointRecordPage() {
  const points = useSnapshot(rewardsState).points;
  useEffect(reload, []);

  return (
    <div className="page rewards-page">
      <NavBar title={<Trans>Points</Trans>} />
      <div className="page-body">
        <OfflineNote endpoints={[pointRecords]} />
        {!points.loaded && points.failure && <LoadFailure onRetry={reload}>{points.failure}</LoadFailure>}
        {points.loaded && (
          <>
            <BalanceCard />
            <RedeemForm />
            <History />
          </>
        )}
      </div>
    </div>
  );
}

function BalanceCard() {
  const { balance, rule } = useSnapshot(rewardsState).points;
  const amount = formatPoints(balance ?? '0');
  const rate = rule ? formatMoney(rule.usdt_per_point) : '';
  const minimum = rule ? formatPoints(rule.min_points) : '';
  return (
    <section className="card points-card">
      <span className="points-card-label">
        <Trans>Points balance</Trans>
      </span>
      <strong className="points-card-amount" dir="ltr">
        {amount}
      </strong>
      {rule && (
        <p className="points-card-rule">
          <Trans>
            1 point = <bdi dir="ltr">{rate} USDT</bdi> · at least <bdi dir="ltr">{minimum}</bdi> points per redemption
          </Trans>
        </p>
      )}
    </section>
  );
}

function RedeemForm() {
  const { t } = useLingui();
  const { balance, rule } = useSnapshot(rewardsState).points;
  const fiat = useDisplayCurrency();
  const [amount, setAmount] = useState('');
  const [left, setLeft] = useState(false);
  const preview = redeemPreview(amount, rule);
  const reading = readPoints(amount);
  // A text that typing on cannot mend ('100.5', '-200') is refused at once; one on its way ('1,') once left.
  const problem = !reading.ok && (left || !reading.unfinished) ? reading.problem : null;

  const { busy, submit } = useSubmit(
    async () => {
      const answer = await redeem(reading.ok ? reading.points : '');
      setAmount('');
      const redeemed = formatPoints(answer.points);
      const paid = formatMoney(answer.usdt);
      toast({
        message: msg`Redeemed ${redeemed} points for ${paid}.`,
        parts: { paid: { amount: paid, unit: 'USDT' } },
      });
    },
    () => redeemProblem(amount, rule, balance),
  );

  return (
    <form
      className="card points-redeem"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <h2>
        <Trans>Redeem for USDT</Trans>
      </h2>
      <TextField
        label={<Trans>Points to redeem</Trans>}
        value={amount}
        onChange={(value) => {
          setAmount(value);
          setLeft(false);
        }}
        onBlur={() => setLeft(true)}
        problem={problem}
        name="number"
        inputMode="numeric"
        autoComplete="off"
        dir="ltr"
        placeholder={t`Number of points`}
        trailing={
          balance && (
            <button type="button" className="link-button points-all" onClick={() => setAmount(wholePoints(balance))}>
              <Trans>All</Trans>
            </button>
          )
        }
      />
      <div className="points-preview">
        <span className="muted">
          <Trans>You receive</Trans>
        </span>
        {preview ? <Money amount={preview} asset="USDT" fiat={fiat} /> : <span className="muted">—</span>}
      </div>
      <Button type="submit" disabled={busy}>
        <Trans context="points">Redeem</Trans>
      </Button>
    </form>
  );
}

function History() {
  const list = useSnapshot(rewardsState).points;
  const more = useSubmit(() => loadPoints({ more: true }));
  return (
    <section className="card flush points-history">
      <h2>
        <Trans>Point history</Trans>
      </h2>
      {list.lists.length === 0 ? (
        <p className="muted points-history-empty">
          <Trans>No point records yet.</Trans>
        </p>
      ) : (
        <ul>
          {list.lists.map((entry) => (
            <HistoryRow key={entry.id} entry={entry} />
          ))}
        </ul>
      )}
      {hasMore(list) && (
        <div className="points-more">
          <Button variant="secondary" size="small" onClick={() => void more.submit()} disabled={more.busy}>
            <Trans>Load more</Trans>
          </Button>
        </div>
      )}
    </section>
  );
}

function HistoryRow({ entry }: { entry: Readonly<PointEntry> }) {
  const negative = entry.amount.startsWith('-');
  return (
    <li className="points-row">
      <span className="points-row-main">
        <span className="points-row-kind">{pointKindLabel(entry.kind)}</span>
        <time className="points-row-date" dateTime={entry.created_at}>
          {formatDateTime(entry.created_at)}
        </time>
      </span>
      <span className={negative ? 'points-row-amount down' : 'points-row-amount up'} dir="ltr">
        {formatSignedPoints(entry.amount)}
      </span>
    </li>
  );
}
