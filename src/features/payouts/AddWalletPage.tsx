// Add a wallet address (/pages/mine/addWallet): alias, currency, the chain (one the currency travels on)
// and the address, checked by the chain's standard before it is sent. Then back to where the
// user came from: the wallet list, or the withdraw page.
import { useState } from 'react';
import { useSearch } from 'wouter';
import { useSnapshot } from 'valtio';
import { i18n } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { ROUTES } from '../../api-contract/routes.ts';
import { WALLET_CHAINS, WALLET_CURRENCIES, type Chain, type WalletCurrency } from '../../api-contract/payouts.ts';
import { texts } from '../../api-contract/texts.ts';
import { useSubmit } from '../../lib/form.ts';
import { otpField, secondFactorErrorText, secondFactorProblem, useSecondFactor } from '../../lib/two-factor.ts';
import { goBack, navigationHistory } from '../../lib/navigation.ts';
import { toast } from '../../lib/toast.ts';
import { Button, Form, Segmented, TextField } from '../../ui/forms.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { AuthenticatorCodeField } from '../../ui/AuthenticatorCodeField.tsx';
import { payoutsState, returnRouteAfterAdding, returnTo } from './payouts-store.ts';
import { saveWallet, walletProblem } from './add-wallet-store.ts';
import './payouts.css';
import { WALLET_ALIAS_MAX, unitsFor } from '../../api-contract/constants.ts';

/** What an address of each chain looks like, as the field's placeholder. */
const ADDRESS_HINTS: Record<Chain, string> = {
  TRC20: 'T…',
  ERC20: '0x…',
  BEP20: '0x…',
  BTC: '1…, 3… / bc1…',
};

export default function AddWalletPage() {
  const { t } = useLingui();
  const search = useSearch();
  const walletsAdded = useSnapshot(payoutsState).wallets.lists.length;
  const [alias, setAlias] = useState('');
  const [currency, setCurrency] = useState<WalletCurrency>('USDT');
  const [chain, setChain] = useState<Chain>(WALLET_CHAINS.USDT[0]);
  const [address, setAddress] = useState('');
  const needsCode = useSecondFactor();
  const [otp, setOtp] = useState('');
  const chains = WALLET_CHAINS[currency];

  const chooseCurrency = (next: WalletCurrency) => {
    setCurrency(next);
    // Keep the chain when the new currency also travels on it (USDT and ETH on ERC20).
    if (!(WALLET_CHAINS[next] as readonly Chain[]).includes(chain)) setChain(WALLET_CHAINS[next][0]);
  };

  const form = { alias, currency, chain, address, ...otpField(needsCode, otp) };
  const { busy, submit, refusals } = useSubmit(
    async () => {
      await saveWallet(form);
      toast(i18n._(texts.saved));
      const back = returnRouteAfterAdding(search, navigationHistory.entries);
      if (back) returnTo(back);
      else goBack(ROUTES.walletList);
    },
    () => walletProblem(form, walletsAdded) ?? secondFactorProblem(needsCode, otp),
    secondFactorErrorText,
  );

  return (
    <div className="page payout-page">
      <NavBar title={<Trans>Add wallet</Trans>} />
      <Form onSubmit={submit} refusals={refusals}>
        <TextField
          label={<Trans>Alias</Trans>}
          value={alias}
          onChange={setAlias}
          name="alias"
          maxLength={unitsFor(WALLET_ALIAS_MAX)}
          autoComplete="off"
          placeholder={t`A name you recognise, e.g. My exchange`}
        />
        <div className="field">
          <span className="field-label">
            <Trans>Currency</Trans>
          </span>
          <Segmented
            value={currency}
            onChange={chooseCurrency}
            options={WALLET_CURRENCIES.map((value) => ({ value, label: value }))}
          />
        </div>
        <div className="field">
          <span className="field-label">
            <Trans>Chain</Trans>
          </span>
          <Segmented value={chain} onChange={setChain} options={chains.map((value) => ({ value, label: value }))} />
        </div>
        <TextField
          label={<Trans>Address</Trans>}
          value={address}
          onChange={(value) => setAddress(value.trim())}
          name="address"
          autoComplete="off"
          autoCapitalize="off"
          autoCorrect="off"
          spellCheck={false}
          dir="ltr"
          placeholder={ADDRESS_HINTS[chain]}
        />
        <p className="muted form-note">
          <Trans>
            Make sure the address is on the {chain} network. Coins sent on another network cannot be recovered.
          </Trans>
        </p>
        {needsCode && <AuthenticatorCodeField value={otp} onChange={setOtp} />}
        <Button type="submit" disabled={busy}>
          <Trans>Save wallet</Trans>
        </Button>
      </Form>
    </div>
  );
}
