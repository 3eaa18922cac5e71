// The blind box (/pages/blindbox/index): the recent wins, the box with a draw button
// per way of paying (its cost shown), the balances it is paid from, the published prize table with
// the expected value, and the seed pair that makes every draw checkable afterwards.
import { useEffect } from 'react';
import { Link } from 'wouter';
import { useSnapshot } from 'valtio';
import { Trans, useLingui } from '@lingui/react/macro';
import { blindBoxInfo, type BoxCost } from '../../api-contract/blindbox.ts';
import { ROUTES } from '../../api-contract/routes.ts';
import { availableOf, formatBalance, refreshBalances, userBalances } from '../../lib/balances.ts';
import { useSubmit } from '../../lib/form.ts';
import { formatExact } from '../../lib/format.ts';
import { offlineData } from '../../lib/offline.ts';
import { Button } from '../../ui/forms.tsx';
import { ShieldIcon } from '../../ui/icons.tsx';
import { LoadFailure } from '../../ui/lists.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { OfflineNote } from '../../ui/OfflineNote.tsx';
import { balances as balancesCall } from '../../api-contract/markets.ts';
import { GiftBox, PrizeTable, ResultDialog, SeedPanel, WinNotice, useAmountText } from './BlindBoxParts.tsx';
import { blindBoxState, drawBox, loadInfo, loadWins } from './blindbox-store.ts';
import './blindbox.css';

const reload = () => void loadInfo().catch(() => undefined);

export default function BlindBoxPage() {
  const { t } = useLingui();
  const { info, failure, wins, result } = useSnapshot(blindBoxState);
  useEffect(() => {
    reload();
    void loadWins().catch(() => undefined);
    void refreshBalances().catch(() => undefined);
  }, []);

  return (
    <div className="page blindbox-page">
      <NavBar
        title={<Trans>Blind box</Trans>}
        right={
          <Link
            href={ROUTES.blindBoxVerify}
            className="icon-button"
            aria-label={t`Verify my draws`}
            title={t`Verify my draws`}
          >
            <ShieldIcon />
          </Link>
        }
      />
      <div className="page-body">
        <OfflineNote endpoints={[blindBoxInfo, balancesCall]} />
        <WinNotice wins={wins} />
        {!info && failure && <LoadFailure onRetry={reload}>{failure}</LoadFailure>}
        {info && (
          <>
            <section className="card box-stage" aria-label={t`Blind box`}>
              <GiftBox className="box-art" />
              {info.available ? (
                <div className="box-draws">
                  {info.costs.map((cost) => (
                    <DrawButton key={cost.pay} cost={cost} />
                  ))}
                </div>
              ) : (
                <p className="box-closed">
                  <Trans>The blind box is not available right now.</Trans>
                </p>
              )}
              <Balances />
            </section>
            {!info.table_current && (
              <p className="offline-note" role="status">
                <Trans>
                  A new prize table has been published. Your seed keeps the table it was committed with; rotate the seed
                  to draw with the new one.
                </Trans>
              </p>
            )}
            <PrizeTable info={info} />
            <SeedPanel info={info} />
          </>
        )}
      </div>
      {result && <ResultDialog draw={result} />}
    </div>
  );
}

function DrawButton({ cost }: { cost: Readonly<BoxCost> }) {
  const { drawing } = useSnapshot(blindBoxState);
  const { online } = useSnapshot(offlineData);
  const amountText = useAmountText();
  // The draw carries the cost this button shows: a cost changed meanwhile is refused, not charged.
  const { submit } = useSubmit((shown: Readonly<BoxCost>) => drawBox(shown.pay, shown.amount));
  const price = amountText(cost.amount, cost.asset);
  return (
    <Button
      onClick={() => void submit(cost)}
      disabled={drawing !== null}
      variant={cost.pay === 'points' ? 'primary' : 'secondary'}
    >
      {drawing === cost.pay ? (
        <Trans>Drawing…</Trans>
      ) : !online ? (
        <Trans>Drawing needs a connection</Trans>
      ) : (
        // One flex item: the button's gap would otherwise split the sentence (and reorder it right to left).
        <span>
          <Trans>
            Draw for <bdi dir="ltr">{price}</bdi>
          </Trans>
        </span>
      )}
    </Button>
  );
}

/** What the draws are paid from; a dash while the balances are unknown (never an invented 0). */
function Balances() {
  const balances = useSnapshot(userBalances);
  const known = balances.updatedAt !== null;
  const points = known ? formatExact(availableOf(balances, 'POINT')) : '—';
  const usdt = known ? formatBalance(availableOf(balances, 'USDT'), 'USDT') : '—';
  return (
    <p className="box-balances muted">
      <Trans>
        Your points: <bdi dir="ltr">{points}</bdi> · USDT: <bdi dir="ltr">{usdt}</bdi>
      </Trans>
    </p>
  );
}
