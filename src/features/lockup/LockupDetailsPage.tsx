// A lock-up product (/pages/Lock-up/productDetails/productDetails?id=N, public): its terms, a
// calculator (income per day and over the period, the first income day and the day the principal
// comes back; for an amount a subscription would refuse, why instead of an income) and Subscribe —
// a visitor logs in first and comes back here; a signed-in user's amount is checked, confirmed,
// then subscribed, and the record opens. No early redemption.
import { useEffect, useState } from 'react';
import { useSearch } from 'wouter';
import { useSnapshot } from 'valtio';
import { Trans, useLingui } from '@lingui/react/macro';
import { i18n } from '@lingui/core';
import { liquidityProduct } from '../../api-contract/liquidity.ts';
import { lockupProduct } from '../../api-contract/lockup.ts';
import { loginRoute, ROUTES } from '../../api-contract/routes.ts';
import { texts } from '../../api-contract/texts.ts';
import { errorText } from '../../lib/api.ts';
import { formatBalance, refreshBalances, usdtAvailable, userBalances } from '../../lib/balances.ts';
import { transactionErrorText, useSubmit } from '../../lib/form.ts';
import { formatMoney } from '../../lib/format.ts';
import { currentRoute, navigate } from '../../lib/navigation.ts';
import { session } from '../../lib/session.ts';
import { toast } from '../../lib/toast.ts';
import { Button, FieldChecks, firstFieldProblem, useFieldChecks } from '../../ui/forms.tsx';
import { AmountField } from '../../ui/AmountField.tsx';
import { amountRangeText } from '../../ui/amount-range-text.ts';
import { Empty } from '../../ui/lists.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { OfflineNote } from '../../ui/OfflineNote.tsx';
import { balances as balancesCall } from '../../api-contract/markets.ts';
import { Ltr, RecordLink, Row } from '../../ui/records.tsx';
import { TimeoutGate } from '../../ui/TimeoutGate.tsx';
import { ConfirmSubscriptionDialog, Days, Limits, NoEarlyRedemption, QuoteRows, Rates } from './LockupParts.tsx';
import { idFromQuery } from './lockup-format.ts';
import { loadProduct, loadToday, lockupPeriod, lockupState, subscribeLockup, todayOf } from './lockup-store.ts';
import { lockupCalculation, maxSubscription, subscribeProblem } from './lockup-form.ts';

export default function LockupDetailsPage() {
  const { t } = useLingui();
  const id = idFromQuery(useSearch());
  const state = useSnapshot(lockupState);
  const { token } = useSnapshot(session);
  const balances = useSnapshot(userBalances);
  const [amount, setAmount] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);

  const product = id === null ? undefined : state.details[id];
  // Unknown while the balance has not been read (offline, say): the server checks it then.
  const available = token && balances.updatedAt ? usdtAvailable(balances) : null;
  const period = lockupPeriod(todayOf(state), product?.days ?? 1);
  const { quote, problem: amountProblem } = product
    ? lockupCalculation(amount, product, available)
    : { quote: null, problem: null };

  useEffect(() => {
    if (id === null) return setFailure(i18n._(texts.productUnavailable));
    setFailure(null);
    loadProduct(id).catch((error) => setFailure(errorText(error)));
  }, [id]);
  useEffect(() => void loadToday().catch(() => undefined), []);
  useEffect(() => void refreshBalances().catch(() => undefined), [token]);

  const checks = useFieldChecks();
  const ask = () => {
    if (!product || firstFieldProblem(checks)) return;
    // A visitor logs in first and comes back to this product.
    if (!token) return navigate(loginRoute(currentRoute()));
    const problem = subscribeProblem(amount, product, available);
    if (problem) return toast(problem);
    // The first income day follows the server's day at the moment of confirming.
    loadToday().catch(() => undefined);
    setConfirming(true);
  };

  const { busy, submit } = useSubmit(
    async () => {
      if (!product) return;
      try {
        await subscribeLockup(product, amount);
      } finally {
        setConfirming(false);
      }
      setAmount('');
      toast(i18n._(texts.transactionSucceeded));
      navigate(ROUTES.lockUpRecord);
    },
    undefined,
    transactionErrorText,
  );

  const title = product ? <bdi>{product.name}</bdi> : <Trans>Lock-up mining</Trans>;
  return (
    <FieldChecks.Provider value={checks}>
      <div className="page lockup-page">
        <NavBar
          title={title}
          right={token ? <RecordLink to={ROUTES.lockUpRecord} label={t`Lock-up record`} /> : undefined}
        />
        <div className="page-body">
          <OfflineNote endpoints={[lockupProduct, liquidityProduct, balancesCall]} />
          {!product && failure && <Empty>{failure}</Empty>}
          {product && (
            <>
              <section className="card lockup-hero">
                <div className="lockup-product-head">
                  <bdi className="lockup-product-name">{product.name}</bdi>
                  <span className="lockup-tag">
                    <Days days={product.days} />
                  </span>
                </div>
                <Rates product={product} />
                <dl className="detail-rows">
                  <Row label={<Trans>Period</Trans>}>
                    <Days days={product.days} />
                  </Row>
                  <Row label={<Trans>Per subscription</Trans>}>
                    <Limits product={product} />
                  </Row>
                  {product.remaining !== null && (
                    <Row label={<Trans>Remaining quota</Trans>}>
                      <Ltr className="lockup-num">{formatMoney(product.remaining)} USDT</Ltr>
                    </Row>
                  )}
                  <Row label={<Trans>Income</Trans>}>
                    <Trans>Paid every day into your USDT balance, from the day after you subscribe</Trans>
                  </Row>
                  <Row label={<Trans>Principal</Trans>}>
                    <Trans>Back at the end of the last day</Trans>
                  </Row>
                  <Row label={<Trans>Early redemption</Trans>}>
                    <Trans>Not possible</Trans>
                  </Row>
                </dl>
              </section>

              <section className="card lockup-calculator">
                <h2 className="lockup-card-title">
                  <Trans>Calculator</Trans>
                </h2>
                <AmountField
                  value={amount}
                  onChange={setAmount}
                  placeholder={amountRangeText(product.min_amount, product.max_amount)}
                  all={available === null ? null : maxSubscription(available, product)}
                />
                {token && (
                  <p className="lockup-available muted">
                    <Trans>Available</Trans>{' '}
                    <Ltr className="lockup-num">
                      {available === null ? '—' : `${formatBalance(available, 'USDT')} USDT`}
                    </Ltr>
                  </p>
                )}
                {amountProblem && (
                  <p className="error-text lockup-problem" role="status">
                    {amountProblem}
                  </p>
                )}
                <QuoteRows quote={quote} days={product.days} period={period} />
              </section>

              <NoEarlyRedemption />
              <TimeoutGate>
                <Button onClick={ask} disabled={busy}>
                  <Trans>Subscribe</Trans>
                </Button>
              </TimeoutGate>
              {!token && (
                <p className="muted lockup-note">
                  <Trans>You will be asked to log in, then brought back here.</Trans>
                </p>
              )}
            </>
          )}
        </div>

        {confirming && product && quote && (
          <ConfirmSubscriptionDialog
            product={product}
            quote={quote}
            period={period}
            busy={busy}
            onCancel={() => setConfirming(false)}
            onConfirm={() => void submit()}
          />
        )}
      </div>
    </FieldChecks.Provider>
  );
}
