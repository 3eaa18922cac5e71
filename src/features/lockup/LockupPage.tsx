// Mining (tab, /pages/Lock-up/Lock-up, public): a signed-in user's lock-up summary (locked
// principal, income earned, orders processing) or a login prompt, the way to flexible liquidity
// mining, and the lock-up products — period, daily rate, limits, quota left; a tap opens one.
import { useEffect } from 'react';
import { Link } from 'wouter';
import { useSnapshot } from 'valtio';
import { Trans, useLingui } from '@lingui/react/macro';
import { earnBalance } from '../../api-contract/earn.ts';
import { lockupProducts } from '../../api-contract/lockup.ts';
import { loginRoute, ROUTES } from '../../api-contract/routes.ts';
import { formatMoney } from '../../lib/format.ts';
import { navigate } from '../../lib/navigation.ts';
import { session } from '../../lib/session.ts';
import { Button } from '../../ui/forms.tsx';
import { ChevronIcon, MiningIcon, RecordIcon } from '../../ui/icons.tsx';
import { Empty } from '../../ui/lists.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { OfflineNote } from '../../ui/OfflineNote.tsx';
import { Ltr, RecordLink } from '../../ui/records.tsx';
import { ProductCard } from './LockupParts.tsx';
import { loadProducts, loadSummary, lockupState } from './lockup-store.ts';

// A failed load shows on the page itself (with a retry), so the promise is not reported again.
const reloadProducts = () => void loadProducts().catch(() => undefined);

export default function LockupPage() {
  const { t } = useLingui();
  const { token } = useSnapshot(session);
  const { products, productsLoaded, productsFailure } = useSnapshot(lockupState);

  useEffect(reloadProducts, [token]);
  useEffect(() => void loadSummary().catch(() => undefined), [token]);

  return (
    <div className="page lockup-page">
      <NavBar
        title={<Trans>Mining</Trans>}
        back={false}
        right={token ? <RecordLink to={ROUTES.lockUpRecord} label={t`Lock-up record`} /> : undefined}
      />
      <div className="page-body">
        <OfflineNote endpoints={token ? [lockupProducts, earnBalance] : [lockupProducts]} />
        {token ? <SummaryCard /> : <GuestCard />}

        <Link href={ROUTES.liquidity} className="card lockup-flexible">
          <span className="lockup-flexible-icon" aria-hidden="true">
            <MiningIcon />
          </span>
          <span className="lockup-flexible-text">
            <strong>
              <Trans>Flexible: Liquidity mining</Trans>
            </strong>
            <span className="muted">
              <Trans>Add or redeem at any time, interest every day.</Trans>
            </span>
          </span>
          <ChevronIcon className="lockup-chevron flip-rtl" />
        </Link>

        <section className="lockup-section">
          <div className="lockup-section-head">
            <h2>
              <Trans>Lock-up mining</Trans>
            </h2>
            <p className="muted">
              <Trans>A fixed period, income every day, the principal back at the end.</Trans>
            </p>
          </div>
          {productsFailure && (
            <p className="record-failure" role="status">
              <span>{productsFailure}</span>
              <button type="button" className="link-button" onClick={reloadProducts}>
                <Trans>Try again</Trans>
              </button>
            </p>
          )}
          {productsLoaded && products.length === 0 && (
            <Empty>
              <Trans>No lock-up product is available right now.</Trans>
            </Empty>
          )}
          <ul className="lockup-products">
            {products.map((product) => (
              <ProductCard key={product.id} product={product} />
            ))}
          </ul>
        </section>
      </div>
    </div>
  );
}

/** Locked principal, income earned so far, orders processing; "—" while unknown. */
function SummaryCard() {
  const { summary } = useSnapshot(lockupState);
  const dash = '—';
  return (
    <section className="card lockup-summary">
      <div className="lockup-summary-head">
        <span>
          <Trans>Locked (USDT)</Trans>
        </span>
        <Link href={ROUTES.lockUpRecord} className="lockup-summary-link">
          <RecordIcon />
          <Trans>Record</Trans>
        </Link>
      </div>
      <Ltr className="lockup-summary-amount lockup-num">{summary ? formatMoney(summary.locked) : dash}</Ltr>
      <dl className="lockup-summary-grid">
        <div>
          <dt>
            <Trans>Earned to date (USDT)</Trans>
          </dt>
          <dd>
            <Ltr className="lockup-num">{summary ? formatMoney(summary.earned) : dash}</Ltr>
          </dd>
        </div>
        <div>
          <dt>
            <Trans>Orders processing</Trans>
          </dt>
          <dd>
            <Ltr className="lockup-num">{summary ? summary.processing : dash}</Ltr>
          </dd>
        </div>
      </dl>
    </section>
  );
}

function GuestCard() {
  return (
    <section className="card lockup-guest">
      <p>
        <Trans>Log in to subscribe to a product and follow your locked principal and income.</Trans>
      </p>
      <div className="lockup-guest-actions">
        <Button size="small" onClick={() => navigate(loginRoute(ROUTES.lockUp))}>
          <Trans>Log in</Trans>
        </Button>
        <Button size="small" variant="secondary" onClick={() => navigate(ROUTES.register)}>
          <Trans>Register</Trans>
        </Button>
      </div>
    </section>
  );
}
