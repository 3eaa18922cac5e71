// Withdraw (/pages/Withdraw/Withdraw, custom nav bar): to a bank card (paid in baht) or to a
// wallet. The rule of the asset (available, limits, fee rate), the amount with Max, and before the
// request the fee, the total deducted and what arrives. No transaction password, no bank card
// or no wallet each opens its prompt, on arrival and whenever the server answers with it.
import { useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { Trans, useLingui } from '@lingui/react/macro';
import { i18n } from '@lingui/core';
import type { PayeeKind } from '../../api-contract/funds.ts';
import { ROUTES } from '../../api-contract/routes.ts';
import { texts } from '../../api-contract/texts.ts';
import { ApiError, errorText } from '../../lib/api.ts';
import { refreshUser } from '../../lib/account.ts';
import { useDisplayCurrency } from '../../lib/fiat.ts';
import { useSubmit } from '../../lib/form.ts';
import { otpField, secondFactorErrorText, secondFactorProblem, useSecondFactor } from '../../lib/two-factor.ts';
import { formatMoney } from '../../lib/format.ts';
import { balanceDecimalsOf } from '../../lib/balances.ts';
import { navigate } from '../../lib/navigation.ts';
import { knownOffline, offlineData } from '../../lib/offline.ts';
import { session } from '../../lib/session.ts';
import { toast } from '../../lib/toast.ts';
import { Button, Form, PAY_PASSWORD_FIELD, Segmented, TextField } from '../../ui/forms.tsx';
import { AmountField } from '../../ui/AmountField.tsx';
import { AmountRange } from '../../ui/AmountRange.tsx';
import { Cell } from '../../ui/lists.tsx';
import { Money } from '../../ui/Money.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { AuthenticatorCodeField } from '../../ui/AuthenticatorCodeField.tsx';
import { OfflineNote } from '../../ui/OfflineNote.tsx';
import { bankCards, usableBy, wallets } from '../../api-contract/payouts.ts';
import { PayeeCooling } from '../../ui/PayeeCooling.tsx';
import { Ltr, RecordLink, Row } from '../../ui/records.tsx';
import { RecordIcon } from '../../ui/icons.tsx';
import { formatPercent } from './funds-format.ts';
import {
  AddPayeeLink,
  CardLabel,
  ConfirmWithdrawalDialog,
  PayeePicker,
  PromptDialog,
  QuoteRows,
  WalletLabel,
} from './WithdrawParts.tsx';
import {
  assetFor,
  chosenCard,
  chosenWallet,
  loadPayees,
  loadRule,
  leftAfterMax,
  maxWithdrawable,
  promptForAnswer,
  sendWithdraw,
  withdrawProblem,
  withdrawPrompt,
  withdrawQuote,
  withdrawState,
  type WithdrawPrompt,
} from './withdraw-store.ts';

export default function WithdrawPage() {
  const { t } = useLingui();
  const state = useSnapshot(withdrawState);
  const { user } = useSnapshot(session);
  const { online } = useSnapshot(offlineData);
  const fiat = useDisplayCurrency();
  const [amount, setAmount] = useState('');
  const [paypass, setPaypass] = useState('');
  const needsCode = useSecondFactor();
  const [otp, setOtp] = useState('');
  const [prompt, setPrompt] = useState<WithdrawPrompt | null>(null);
  const [confirming, setConfirming] = useState(false);

  const { target, payeesLoaded } = state;
  const bank = target === 'bank';
  const card = chosenCard(state);
  const wallet = chosenWallet(state);
  const asset = assetFor(target, wallet);
  const rule = asset ? state.rules[asset] : undefined;
  const quote = withdrawQuote(amount, rule?.fee_rate);
  // The Max leaves 0.00000001 behind when no amount plus its fee is the whole balance: said, so it is no surprise.
  const leftOver = rule ? leftAfterMax(rule, amount) : null;
  const left = leftOver && formatMoney(leftOver, 8);
  const hasPayPassword = user?.has_paypass;
  const facts = {
    hasPayPassword: hasPayPassword ?? true,
    target,
    bankCards: state.bankCards.length,
    wallets: state.wallets.length,
  };

  useEffect(() => {
    loadPayees().catch((error) => toast(errorText(error)));
    // Coming back from setting the password: the stored user may still say there is none.
    refreshUser({ loading: false }).catch(() => undefined);
  }, []);

  useEffect(() => {
    if (asset) loadRule(asset).catch((error) => toast(errorText(error)));
  }, [asset]);

  // Say what is missing as soon as it is known (and again for the other target).
  useEffect(() => {
    if (payeesLoaded && hasPayPassword !== undefined) setPrompt(withdrawPrompt(facts));
    // facts is made anew each render; these are the parts the prompt reads.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [payeesLoaded, hasPayPassword, target, facts.bankCards, facts.wallets]);

  const chooseTarget = (next: PayeeKind) => {
    withdrawState.target = next;
    setAmount('');
  };
  const choosePayee = (id: number) => {
    const before = asset;
    withdrawState.chosen[target] = id;
    if (!bank && state.wallets.find((item) => item.id === id)?.currency !== before) setAmount('');
  };

  const chosenPayee = bank ? card : wallet;
  const targetId = chosenPayee?.id;
  const input = {
    target,
    target_id: targetId === undefined ? '' : String(targetId),
    amount,
    paypass,
    ...otpField(needsCode, otp),
  };

  const ask = async () => {
    // A withdrawal needs a connection: say so before anything else (offline the rule is often unknown, too).
    if (knownOffline()) return toast(i18n._(texts.offline));
    const missing = withdrawPrompt(facts);
    if (missing) return setPrompt(missing);
    const problem =
      withdrawProblem(input, rule, chosenPayee && { payee: chosenPayee, receivedAt: state.payeesReceivedAt }) ??
      secondFactorProblem(needsCode, otp);
    if (problem) return toast(problem);
    setConfirming(true);
  };

  const { busy, submit, refusals } = useSubmit(async () => {
    let orderId: number;
    try {
      orderId = (await sendWithdraw(input)).id;
    } catch (error) {
      // The payee refused (deleted on another device, cooling off, locked): the list is read again, so the picker
      // shows the payees there are now; the refusal stays under it until another is chosen.
      if (error instanceof ApiError && error.field === 'target_id') loadPayees().catch(() => undefined);
      // The server found something missing that this device did not know of yet (a code too: the field shows).
      const missing = promptForAnswer(secondFactorErrorText(error));
      if (!missing) throw error;
      setPrompt(missing);
      return;
    } finally {
      setConfirming(false);
    }
    setPaypass('');
    setOtp('');
    toast(i18n._(texts.submitted));
    navigate(`${ROUTES.withdrawDetails}?id=${orderId}`);
  });

  const percent = rule ? formatPercent(rule.fee_rate) : '';
  const minimum = rule ? formatMoney(rule.min_amount) : '';
  const payee = bank ? card && <CardLabel card={card} /> : wallet && <WalletLabel wallet={wallet} />;
  return (
    <div className="page">
      <NavBar
        title={<Trans>Withdraw</Trans>}
        right={<RecordLink to={ROUTES.withdrawRecord} label={t`Withdrawal record`} />}
      />
      <Form onSubmit={ask} refusals={refusals}>
        {/* Offline, the bank cards and wallets shown are the cached ones: say since when. */}
        <OfflineNote endpoints={[bankCards, wallets]} />
        <Segmented
          value={target}
          onChange={chooseTarget}
          options={[
            { value: 'bank', label: <Trans>Bank card</Trans> },
            { value: 'wallet', label: <Trans>Wallet</Trans> },
          ]}
        />
        <section className="funds-section">
          <div className="funds-section-head">
            <h2 className="funds-section-title">
              {bank ? <Trans>Withdraw to bank card</Trans> : <Trans>Withdraw to wallet</Trans>}
            </h2>
            <AddPayeeLink target={target} />
          </div>
          <PayeePicker
            target={target}
            cards={state.bankCards}
            wallets={state.wallets}
            chosen={targetId}
            loaded={payeesLoaded}
            onChoose={choosePayee}
          />
          {chosenPayee && <PayeeCooling usableBy={usableBy(chosenPayee, state.payeesReceivedAt)} />}
        </section>

        {rule && (
          <section className="card funds-rule">
            <dl className="detail-rows">
              <Row label={<Trans>Available</Trans>}>
                <Money
                  amount={rule.available}
                  asset={rule.asset}
                  fiat={fiat}
                  decimals={balanceDecimalsOf(rule.available, rule.asset)}
                />
              </Row>
              <Row label={<Trans>Limits</Trans>}>
                <AmountRange min={rule.min_amount} max={rule.max_amount} asset={rule.asset} />
              </Row>
              <Row label={<Trans>Fee rate</Trans>}>
                <Ltr>{percent}</Ltr>
              </Row>
            </dl>
          </section>
        )}

        <AmountField
          label={rule ? <Trans>Amount ({rule.asset})</Trans> : <Trans>Amount</Trans>}
          value={amount}
          onChange={setAmount}
          placeholder={rule ? t`At least ${minimum}` : undefined}
          all={rule && maxWithdrawable(rule)}
          allLabel={<Trans>Max</Trans>}
        />
        {rule && (
          <section className="card funds-quote">
            <QuoteRows quote={quote} rule={rule} fiat={fiat} />
            {left && (
              <p className="funds-note">
                <Trans>
                  <span dir="ltr">
                    {left} {asset}
                  </span>{' '}
                  stays in your balance: the fee is rounded up to 8 decimals, so no amount plus its fee comes to your
                  whole balance exactly.
                </Trans>
              </p>
            )}
            {bank && (
              <p className="funds-note">
                <Trans>Paid to your bank account in baht at the rate of the moment of the request.</Trans>
              </p>
            )}
          </section>
        )}

        <TextField
          label={<Trans>Transaction password</Trans>}
          value={paypass}
          onChange={setPaypass}
          name="paypass"
          placeholder={t`6 digits`}
          {...PAY_PASSWORD_FIELD}
        />
        {needsCode && <AuthenticatorCodeField value={otp} onChange={setOtp} />}
        {/* Offline it stays tappable: the tap says a connection is needed, as the trading forms do. */}
        <Button type="submit" disabled={busy || (online && !rule)}>
          <Trans>Withdraw</Trans>
        </Button>
        <p className="muted funds-note">
          <Trans>
            The total is taken from your balance at once. If the withdrawal is refused, it comes back to your balance
            with the reason.
          </Trans>
        </p>
        <div className="card flush cells">
          <Cell
            icon={
              <span className="cell-icon">
                <RecordIcon />
              </span>
            }
            label={<Trans>Withdrawal record</Trans>}
            to={ROUTES.withdrawRecord}
          />
        </div>
      </Form>

      {prompt && <PromptDialog prompt={prompt} onClose={() => setPrompt(null)} />}
      {confirming && quote && rule && (
        <ConfirmWithdrawalDialog
          payee={payee}
          quote={quote}
          rule={rule}
          fiat={fiat}
          bank={bank}
          busy={busy}
          onCancel={() => setConfirming(false)}
          onConfirm={() => void submit()}
        />
      )}
    </div>
  );
}
