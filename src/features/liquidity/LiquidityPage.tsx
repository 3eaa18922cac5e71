// Liquidity mining (/pages/Liquidity/Liquidity): the liquidity balance and what it earns, the
// user's annual rate, today's ladder (the tiers the balance reaches highlighted) and tomorrow's when
// published, Subscribe and Redeem, the record and the rules.
import { Link } from 'wouter';
import { useSnapshot } from 'valtio';
import { Trans, useLingui } from '@lingui/react/macro';
import { addDays, earnBalance } from '../../api-contract/earn.ts';
import { liquidityProduct } from '../../api-contract/liquidity.ts';
import { ROUTES } from '../../api-contract/routes.ts';
import { Cell } from '../../ui/lists.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { OfflineNote } from '../../ui/OfflineNote.tsx';
import { RecordLink } from '../../ui/records.tsx';
import { DetailsIcon, RecordIcon } from '../../ui/icons.tsx';
import { CalendarDay } from '../../ui/CalendarDay.tsx';
import { BalanceCard, LadderTable, useFigures } from './LiquidityParts.tsx';
import { liquidityState, loadBalance, loadProduct } from './liquidity-store.ts';

export default function LiquidityPage() {
  const { t } = useLingui();
  const { product, balance } = useSnapshot(liquidityState);
  useFigures(loadProduct, loadBalance);

  return (
    <div className="page">
      <NavBar
        title={<Trans>Liquidity mining</Trans>}
        right={<RecordLink to={ROUTES.liquidityRecord} label={t`Liquidity record`} />}
      />
      <div className="page-body">
        <OfflineNote endpoints={[liquidityProduct, earnBalance]} />
        <BalanceCard balance={balance} />

        <div className="liq-actions">
          <Link href={ROUTES.liquidityBuy} className="btn">
            <Trans>Subscribe</Trans>
          </Link>
          <Link href={ROUTES.liquiditySell} className="btn secondary">
            <Trans>Redeem</Trans>
          </Link>
        </div>

        <section className="card liq-ladder-card">
          {product ? (
            <LadderTable
              ladder={product.ladder}
              principal={balance?.principal}
              caption={
                <>
                  <Trans>Today's rates</Trans> <CalendarDay day={product.today} />
                </>
              }
            />
          ) : (
            <p className="liq-placeholder muted">
              <Trans>Today's rates</Trans> —
            </p>
          )}
          {product && product.ladder.length === 0 && (
            <p className="liq-note">
              <Trans>No rates are published for today.</Trans>
            </p>
          )}
          <p className="liq-note">
            <Trans>
              Each part of your balance earns the rate of its tier: the first tier's rate on the part up to its limit,
              the next tier's on the part above it, and so on.
            </Trans>
          </p>
        </section>

        {product?.next_ladder && (
          <section className="card liq-ladder-card">
            <LadderTable
              ladder={product.next_ladder}
              principal={balance?.principal}
              caption={
                <>
                  <Trans>Tomorrow's rates</Trans> <CalendarDay day={addDays(product.today, 1)} />
                </>
              }
            />
          </section>
        )}

        <div className="card flush cells">
          <Cell
            icon={
              <span className="cell-icon">
                <RecordIcon />
              </span>
            }
            label={<Trans>Liquidity record</Trans>}
            to={ROUTES.liquidityRecord}
          />
          <Cell
            icon={
              <span className="cell-icon">
                <DetailsIcon />
              </span>
            }
            label={<Trans>Rules</Trans>}
            to={ROUTES.liquidityRule}
          />
        </div>
      </div>
    </div>
  );
}
