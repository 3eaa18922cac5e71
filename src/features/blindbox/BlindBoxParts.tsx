// Pieces of the blind box pages: prize amounts in words, the published prize table with the
// expected value, the seed panel, the result dialog and the win notice.
import { Fragment, useState, type ReactNode } from 'react';
import { Link } from 'wouter';
import type { Snapshot } from 'valtio';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  CLIENT_SEED_MAX_LENGTH,
  valueAgainstCost,
  type BlindBoxInfo,
  type BoxDraw,
} from '../../api-contract/blindbox.ts';
import type { WinLine } from '../../api-contract/activities.ts';
import { ROUTES } from '../../api-contract/routes.ts';
import { useSubmit } from '../../lib/form.ts';
import { formatExact, middleEllipsis } from '../../lib/format.ts';
import { toast } from '../../lib/toast.ts';
import { Button, TextField } from '../../ui/forms.tsx';
import { Dialog } from '../../ui/lists.tsx';
import { CopyButton, Ltr } from '../../ui/records.tsx';
import { ScrollingLines } from '../../ui/ScrollingLines.tsx';
import { changeClientSeed, clientSeedProblem, closeResult, isWin, rotate } from './blindbox-store.ts';

/** "100 points", "1.5 USDT". */
export function useAmountText() {
  const { t } = useLingui();
  return (amount: string, asset: string) => {
    const value = formatExact(amount);
    return asset === 'POINT' ? t`${value} points` : `${value} ${asset}`;
  };
}

export const GiftBox = ({ className }: { className?: string }) => (
  <svg className={className} viewBox="0 0 64 64" aria-hidden="true">
    <rect x="8" y="26" width="48" height="32" rx="4" fill="#00bbfe" />
    <rect x="4" y="18" width="56" height="12" rx="3" fill="#0096cc" />
    <rect x="28" y="18" width="8" height="40" fill="#ffd54a" />
    <path
      d="M32 18c-6-10-18-10-16-2 1 4 10 3 16 2zm0 0c6-10 18-10 16-2-1 4-10 3-16 2z"
      fill="none"
      stroke="#ffd54a"
      strokeWidth="4"
      strokeLinejoin="round"
    />
    <text x="32" y="50" textAnchor="middle" fontSize="16" fontWeight="700" fill="#fff">
      ?
    </text>
  </svg>
);

/**
 * Amounts with their units ("30 points", "0.29 USDT") joined by `joiner`, each isolated and laid out in the sentence's
 * direction: a figure with a unit in the reader's script ("30 نقطة") keeps its own order, and the list reads in the
 * sentence's (in Arabic from the right); null when there are none.
 */
function amountList(amounts: readonly string[], joiner: string): ReactNode {
  if (!amounts.length) return null;
  return amounts.map((amount, index) => (
    <Fragment key={index}>
      {index > 0 && joiner}
      <bdi>{amount}</bdi>
    </Fragment>
  ));
}

/**
 * The prizes with their odds and stock, and the expected value per draw against its cost while a draw is possible;
 * while a prize is sold out, that the box is closed until it is restocked instead.
 */
export function PrizeTable({ info }: { info: Snapshot<BlindBoxInfo> }) {
  const amountText = useAmountText();
  const expected = amountList(
    Object.entries(info.expected).map(([asset, value]) => amountText(value, asset)),
    ' + ',
  );
  const costs = amountList(
    info.costs.map((cost) => amountText(cost.amount, cost.asset)),
    ' / ',
  );
  return (
    <section className="card flush box-prizes">
      <h2>
        <Trans>Prizes and published odds</Trans>
      </h2>
      <table>
        <thead>
          <tr>
            <th scope="col">
              <Trans>Prize</Trans>
            </th>
            <th scope="col">
              <Trans>Odds</Trans>
            </th>
            <th scope="col">
              <Trans>Stock</Trans>
            </th>
          </tr>
        </thead>
        <tbody>
          {info.prizes.map((prize) => (
            <tr key={prize.id}>
              <th scope="row">
                <bdi>{prize.name}</bdi>
                <small>
                  <bdi dir="ltr">{isWin(prize.amount) ? amountText(prize.amount, prize.asset) : '—'}</bdi>
                </small>
              </th>
              <td dir="ltr">{prize.odds}</td>
              <td>
                {prize.stock === null ? (
                  <Trans>Unlimited</Trans>
                ) : prize.stock === 0 ? (
                  <Trans>Sold out</Trans>
                ) : (
                  <Trans>{prize.stock} left</Trans>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {info.available ? (
        <p className="box-expected">
          <Trans>
            Expected value per draw: <span>{expected || '0'}</span>. A draw costs <span>{costs}</span>.
          </Trans>{' '}
          <ValueVerdict info={info} />
        </p>
      ) : (
        // No draw returns a value while the box is closed: none is offered (the server sends none either).
        info.prizes.some((prize) => prize.stock === 0) && (
          <p className="box-expected" role="status">
            <Trans>A prize is sold out: the blind box is closed until it is restocked.</Trans>
          </p>
        )
      )}
    </section>
  );
}

/** The expected value against the cost, in USDT (points at the redemption rate), said plainly either way. */
function ValueVerdict({ info }: { info: Snapshot<BlindBoxInfo> }) {
  const verdict = valueAgainstCost(info);
  if (!verdict || info.usdt_per_point === null) return null;
  const value = formatExact(verdict.expected);
  const rate = formatExact(info.usdt_per_point);
  if (verdict.below)
    return (
      <Trans>
        Valued at 1 point = <bdi dir="ltr">{rate} USDT</bdi>, a draw returns <bdi dir="ltr">{value} USDT</bdi> on
        average: less than it costs.
      </Trans>
    );
  if (verdict.above)
    return (
      <Trans>
        Valued at 1 point = <bdi dir="ltr">{rate} USDT</bdi>, a draw returns <bdi dir="ltr">{value} USDT</bdi> on
        average: at least what it costs.
      </Trans>
    );
  return (
    <Trans>
      Valued at 1 point = <bdi dir="ltr">{rate} USDT</bdi>, a draw returns <bdi dir="ltr">{value} USDT</bdi> on average.
    </Trans>
  );
}

export function SeedPanel({ info }: { info: Snapshot<BlindBoxInfo> }) {
  const { t } = useLingui();
  const [clientSeed, setClientSeedText] = useState('');
  const save = useSubmit(
    async () => {
      await changeClientSeed(clientSeed);
      setClientSeedText('');
      toast(t`Client seed changed. The previous server seed is revealed.`);
    },
    () => clientSeedProblem(clientSeed),
  );
  const rotation = useSubmit(async () => {
    await rotate();
    toast(t`Server seed revealed. A new one is committed.`);
  });
  const { seed } = info;
  const nonce = seed.next_nonce;
  // Every character typed or pasted stays in the field: one past the limit is counted and refused, never cut off.
  const count = [...clientSeed].length;
  const max = CLIENT_SEED_MAX_LENGTH;
  return (
    <section className="card box-seed">
      <h2>
        <Trans>Fairness seeds</Trans>
      </h2>
      <dl className="box-seed-rows">
        <div>
          <dt>
            <Trans>Server seed hash (SHA-256)</Trans>
          </dt>
          <dd>
            <Ltr className="box-hash short">{middleEllipsis(seed.server_hash, 8, 8)}</Ltr>
            <CopyButton text={seed.server_hash} />
          </dd>
        </div>
        <div>
          <dt>
            <Trans>Client seed</Trans>
          </dt>
          <dd>
            <Ltr className="box-hash">{seed.client_seed}</Ltr>
          </dd>
        </div>
        <div>
          <dt>
            <Trans>Next nonce</Trans>
          </dt>
          <dd>
            <Ltr>{nonce}</Ltr>
          </dd>
        </div>
      </dl>
      <form
        className="box-seed-form"
        onSubmit={(event) => {
          event.preventDefault();
          void save.submit();
        }}
      >
        <TextField
          label={<Trans>New client seed</Trans>}
          value={clientSeed}
          onChange={setClientSeedText}
          name="client_seed"
          autoComplete="off"
          dir="ltr"
          hint={
            <>
              <Trans>Latin letters, digits and symbols, no spaces</Trans>{' '}
              <Ltr className={`box-seed-count${count > max ? ' over' : ''}`}>
                {count}/{max}
              </Ltr>
            </>
          }
          problem={clientSeed ? clientSeedProblem(clientSeed) : null}
        />
        <Button type="submit" variant="secondary" size="small" disabled={save.busy || !clientSeed}>
          <Trans>Change</Trans>
        </Button>
      </form>
      <div className="box-seed-actions">
        <Button variant="secondary" size="small" onClick={() => void rotation.submit()} disabled={rotation.busy}>
          <Trans>Rotate seed</Trans>
        </Button>
        <Link href={ROUTES.blindBoxVerify} className="box-verify-link">
          <Trans>Verify my draws</Trans>
        </Link>
      </div>
      <p className="muted box-note">
        <Trans>
          The server committed to this seed before your draws. Rotating it reveals the seed so every draw can be
          checked, and commits a new one.
        </Trans>
      </p>
    </section>
  );
}

export function ResultDialog({ draw }: { draw: Snapshot<BoxDraw> }) {
  const amountText = useAmountText();
  const won = isWin(draw.prize_amount);
  const prize = amountText(draw.prize_amount, draw.prize_asset);
  const roll = draw.roll;
  const nonce = draw.nonce;
  return (
    <Dialog
      title={won ? <Trans>Congratulations!</Trans> : <Trans>No prize this time</Trans>}
      actions={
        <Button onClick={closeResult}>
          <Trans>OK</Trans>
        </Button>
      }
    >
      <div className="box-result">
        <GiftBox className="box-result-art" />
        <strong className="box-result-name">
          <bdi>{draw.prize_name}</bdi>
        </strong>
        {won && (
          <span className="box-result-amount" dir="ltr">
            {prize}
          </span>
        )}
        <span className="muted">
          <Trans>
            Roll <Ltr>{roll}</Ltr> of 1,000,000 · nonce <Ltr>{nonce}</Ltr>
          </Trans>
        </span>
      </div>
    </Dialog>
  );
}

export function WinNotice({ wins }: { wins: readonly WinLine[] }) {
  const { t } = useLingui();
  const amountText = useAmountText();
  const lines = wins.map((win) => {
    const name = win.username;
    const prize = amountText(win.amount, win.asset);
    return {
      key: win.id,
      content: (
        <Trans>
          <bdi dir="ltr">{name}</bdi> won <bdi dir="ltr">{prize}</bdi>
        </Trans>
      ),
    };
  });
  return <ScrollingLines lines={lines} label={t`Recent wins`} lead={<GiftBox />} />;
}
